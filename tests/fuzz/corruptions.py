"""Every class of corrupt catalog and hostile output path the issue names, as input makers.

Each maker builds its input under a fresh folder and returns the command lines to run on it:
`catalog check`, `validate` with it as the catalog, and `suggest --format json` with it."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.fuzz.strategies import EXAMPLES, ROOT

ARTICLE = str(EXAMPLES[0])
CATALOG = ROOT / "catalogs"
PSU = """category: psu
parts:
  - id: example-psu
    name: Example PSU
    brand: Example
    watts: {watts}
    sources: [x]
    prices:
      - {{usd: {usd}, date: {date}, source: x}}
"""


def _psu(watts: str = "1600", usd: str = "300", date: str = "2023-07-01") -> str:
    return PSU.format(watts=watts, usd=usd, date=date)


def _commands(target: Path) -> list[list[str]]:
    t = str(target)
    return [
        ["catalog", "check", t],
        ["catalog", "check", t, "--format", "json"],
        ["validate", ARTICLE, "--catalog", t, "--format", "json"],
        ["suggest", "--catalog", t, "--format", "json"],
    ]


def _file(name: str, text: str | bytes) -> Callable[[Path], list[list[str]]]:
    def make(folder: Path) -> list[list[str]]:
        path = folder / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
        return _commands(path)

    return make


def _mixed(name: str, text: str) -> Callable[[Path], list[list[str]]]:
    """The bundled catalog plus one bad file beside it (validate and suggest must refuse it)."""

    def make(folder: Path) -> list[list[str]]:
        for src in CATALOG.glob("*.yaml"):
            (folder / src.name).write_bytes(src.read_bytes())
        (folder / name).write_text(text, encoding="utf-8")
        return _commands(folder)

    return make


def _special(build: Callable[[Path], Path]) -> Callable[[Path], list[list[str]]]:
    def make(folder: Path) -> list[list[str]]:
        return _commands(build(folder))

    return make


def _fifo(folder: Path) -> Path:
    os.mkfifo(folder / "psu.yaml")
    return folder / "psu.yaml"


def _broken_link(folder: Path) -> Path:
    (folder / "gone.yaml").symlink_to(folder / "nowhere.yaml")
    return folder


def _link_loop(folder: Path) -> Path:
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    (folder / "psu.yaml").write_text(_psu())
    return folder


def _dir_loop(folder: Path) -> Path:
    (folder / "psu.yaml").write_text(_psu())
    (folder / "sub").mkdir()
    (folder / "sub" / "up").symlink_to(folder)
    return folder


def _dir_named_yaml(folder: Path) -> Path:
    (folder / "x.yaml").mkdir()
    return folder / "x.yaml"


def _empty_folder(folder: Path) -> Path:
    return folder


LAUGHS = "category: psu\nparts:\n  - &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"  - &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefg", "bcdefgh", strict=False)
)
SLOT_11 = """category: motherboard
parts:
  - id: example-board
    name: Example Board
    brand: Example
    socket: AM4
    form_factor: ATX
    pcie_slots:
      - {label: PCIE_1, position: 1, physical: 16, lanes: 16}
      - {label: PCIE_7, position: 11, physical: 16, lanes: 8}
    sources: [x]
"""


def _mixed_link(folder: Path) -> Path:
    for src in CATALOG.glob("*.yaml"):
        (folder / src.name).write_bytes(src.read_bytes())
    (folder / "zz-gone.yaml").symlink_to(folder / "nowhere.yaml")
    return folder


def _oversized(folder: Path) -> Path:
    path = folder / "psu.yaml"
    with path.open("wb") as handle:  # sparse: 2 MB of NUL after the header, no disk used
        handle.write(_psu().encode())
        handle.truncate(2 * 1024 * 1024)
    return path


def _socket(folder: Path) -> Path:
    import socket

    path = folder / "psu.yaml"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    sock.close()
    return path


def _link_to_dev_zero(folder: Path) -> Path:
    (folder / "psu.yaml").symlink_to("/dev/zero")
    return folder


def _unreadable(folder: Path) -> Path:
    (folder / "psu.yaml").write_text(_psu())
    (folder / "psu.yaml").chmod(0)
    return folder


MANY_PARTS = "category: psu\nparts:\n" + "".join(
    f"  - id: example-psu-{i}\n    name: Example PSU {i}\n    brand: Example\n    watts: 1600\n    sources: [x]\n"
    for i in range(5000)
)
SLOT_0 = SLOT_11.replace("position: 11", "position: 0")
SLOT_DUP = SLOT_11.replace("PCIE_7, position: 11", "PCIE_1, position: 2")
JSONL_PSU = '{"category": "psu", "id": "x-psu", "name": "X", "brand": "X", "watts": 1500, "sources": ["x"]}'


CORRUPTIONS: dict[str, Callable[[Path], list[list[str]]]] = {
    "usd-inf": _file("psu.yaml", _psu(usd=".inf")),
    "usd-nan": _file("psu.yaml", _psu(usd=".nan")),
    "usd-negative": _file("psu.yaml", _psu(usd="-5")),
    "watts-string": _file("psu.yaml", _psu(watts='"1500"')),
    "watts-bool": _file("psu.yaml", _psu(watts="true")),
    "watts-float": _file("psu.yaml", _psu(watts="1500.5")),
    "watts-huge-int": _file("psu.yaml", _psu(watts="9" * 400)),
    "hpwr-bool": _file("psu.yaml", _psu().replace("watts: 1600", "watts: 1600\n    hpwr_12v: true")),
    "date-feb-30": _file("psu.yaml", _psu(date="2025-02-30")),
    "date-year-1": _file("psu.yaml", _psu(date="0001-01-01")),
    "date-future": _file("psu.yaml", _psu(date="9999-12-31")),
    "date-quoted-bad": _file("psu.yaml", _psu(date='"2025-02-30"')),
    "bad-int-tag": _file("psu.yaml", _psu(watts="!!int lots")),
    "bad-float-tag": _file("psu.yaml", _psu(usd="!!float lots")),
    "bad-bool-tag": _file("psu.yaml", _psu().replace("watts: 1600", "watts: 1600\n    modular: !!bool maybe")),
    "bad-timestamp-tag": _file("psu.yaml", _psu(date="!!timestamp soon")),
    "seq-tag-on-scalar": _file("psu.yaml", _psu(watts="!!seq abc")),
    "map-tag-on-scalar": _file("psu.yaml", _psu(watts="!!map abc")),
    "python-tag": _file("psu.yaml", _psu(watts="!!python/object/apply:os.system [ls]")),
    "control-bytes": _file("psu.yaml", _psu().replace("Example PSU", "Example\x07PSU")),
    "ansi-in-name": _file("psu.yaml", _psu().replace("Example PSU", '"\\e[2J\\e[31mPASS"')),
    "lone-surrogate": _file("psu.yaml", _psu().replace("Example PSU", '"\\ud800"')),
    "nul-bytes": _file("psu.yaml", b"category: psu\x00\nparts: []\n"),
    "not-utf8": _file("psu.yaml", b"category: psu\nparts:\n  - id: \xff\xfe\n"),
    "utf16": _file("psu.yaml", _psu().encode("utf-16")),
    "bom": _file("psu.yaml", "\ufeff" + _psu()),
    "crlf": _file("psu.yaml", _psu().replace("\n", "\r\n")),
    "binary": _file("psu.yaml", bytes(range(256)) * 4),
    "truncated": _file("psu.yaml", _psu()[:77]),
    "empty-file": _file("psu.yaml", ""),
    "comment-only": _file("psu.yaml", "# nothing\n"),
    "not-a-mapping": _file("psu.yaml", "- a\n- b\n"),
    "unknown-category": _file("psu.yaml", _psu().replace("category: psu", "category: toaster")),
    "category-list": _file("psu.yaml", _psu().replace("category: psu", "category: [psu]")),
    "parts-not-list": _file("psu.yaml", "category: psu\nparts: 5\n"),
    "part-not-mapping": _file("psu.yaml", "category: psu\nparts: [5, x, null]\n"),
    "duplicate-key": _file("psu.yaml", _psu().replace("brand: Example", "brand: Example\n    brand: Other")),
    "duplicate-id": _file("psu.yaml", _psu() + _psu().split("parts:\n", 1)[1]),
    "unhashable-key": _file("psu.yaml", "category: psu\nparts:\n  - {? [a]: 1}\n"),
    "deep-nesting": _file("psu.yaml", "category: psu\nparts: " + "[" * 5000 + "]" * 5000 + "\n"),
    "billion-laughs": _file("psu.yaml", LAUGHS),
    "recursive-alias": _file("psu.yaml", "category: psu\nparts: &a [*a]\n"),
    "huge-string": _file("psu.yaml", _psu().replace("Example PSU", "X" * 1_000_000)),
    "long-line-name": _file("psu.yaml", _psu().replace("Example PSU", "Example " * 2000)),
    "slot-position-11": _mixed("zz-board.yaml", SLOT_11),
    "mixed-usd-inf": _mixed("zz-psu.yaml", _psu(usd=".inf")),
    "jsonl-deep": _file("parts.jsonl", "[" * 100_000 + "]" * 100_000 + "\n"),
    "jsonl-binary": _file("parts.jsonl", bytes(range(256))),
    "jsonl-nan": _file(
        "parts.jsonl",
        json.dumps({"category": "psu", "id": "x-psu", "name": "X", "brand": "X", "watts": 1600, "sources": ["x"]})[:-1]
        + ', "prices": [{"usd": NaN, "date": "2023-07-01", "source": "x"}]}\n',
    ),
    "jsonl-1e999": _file(
        "parts.jsonl",
        '{"category": "psu", "id": "x-psu", "name": "X", "brand": "X", "watts": 1e999, "sources": ["x"]}\n',
    ),
    "jsonl-usd-1e999": _file(
        "parts.jsonl",
        '{"category": "psu", "id": "x-psu", "name": "X", "brand": "X", "watts": 1600, "sources": ["x"], '
        '"prices": [{"usd": 1e999, "date": "2023-07-01", "source": "x"}]}\n',
    ),
    "jsonl-string-number": _file(
        "parts.jsonl",
        '{"category": "psu", "id": "x-psu", "name": "X", "brand": "X", "watts": "1500", "sources": ["x"]}\n',
    ),
    "jsonl-not-object": _file("parts.jsonl", "[1, 2]\n5\nnull\n"),
    "jsonl-surrogate": _file(
        "parts.jsonl",
        '{"category": "psu", "id": "x-psu", "name": "\\ud800", "brand": "X", "watts": 1500, "sources": ["x"]}\n',
    ),
    "fifo": _special(_fifo),
    "dev-zero": _special(lambda folder: Path("/dev/zero")),
    "folder-named-x-yaml": _special(_dir_named_yaml),
    "broken-symlink": _special(_broken_link),
    "symlink-loop": _special(_link_loop),
    "folder-loop": _special(_dir_loop),
    "empty-folder": _special(_empty_folder),
    "tabs": _file("psu.yaml", _psu().replace("    ", "\t")),
    "tab-after-colon": _file("psu.yaml", _psu().replace("watts: ", "watts:\t")),
    "watts-negative": _file("psu.yaml", _psu(watts="-1600")),
    "watts-zero": _file("psu.yaml", _psu(watts="0")),
    "watts-null": _file("psu.yaml", _psu(watts="null")),
    "usd-zero": _file("psu.yaml", _psu(usd="0")),
    "usd-string": _file("psu.yaml", _psu(usd='"300"')),
    "date-year-1-price": _file("psu.yaml", _psu(date="0001-01-01")),
    "date-month-13": _file("psu.yaml", _psu(date="2025-13-01")),
    "date-as-number": _file("psu.yaml", _psu(date="20250101")),
    "multi-document": _file("psu.yaml", _psu() + "---\n" + _psu()),
    "yaml-directive": _file("psu.yaml", "%YAML 9.9\n---\n" + _psu()),
    "merge-key-scalar": _file("psu.yaml", _psu().replace("brand: Example", "<<: 5\n    brand: Example")),
    "long-key": _file("psu.yaml", _psu().replace("brand: Example", "k" * 30_000 + ": 1\n    brand: Example")),
    "many-parts": _file("psu.yaml", MANY_PARTS),
    "oversized-file": _special(_oversized),
    "socket": _special(_socket),
    "link-to-dev-zero": _special(_link_to_dev_zero),
    "unreadable-file": _special(_unreadable),
    "missing-path": _special(lambda folder: folder / "nowhere.yaml"),
    "mixed-watts-string": _mixed("zz-psu.yaml", _psu(watts='"1500"')),
    "mixed-hpwr-bool": _mixed("zz-psu.yaml", _psu().replace("watts: 1600", "watts: 1600\n    hpwr_12v: true")),
    "mixed-date-feb-30": _mixed("zz-psu.yaml", _psu(date="2025-02-30")),
    "mixed-price-year-1": _mixed("zz-psu.yaml", _psu(date="0001-01-01")),
    "mixed-ansi-name": _mixed("zz-psu.yaml", _psu().replace("Example PSU", '"\\e[2J\\e[31mPASS"')),
    "mixed-slot-position-0": _mixed("zz-board.yaml", SLOT_0),
    "mixed-slot-duplicate-label": _mixed("zz-board.yaml", SLOT_DUP),
    "mixed-duplicate-real-id": _mixed("zz-psu.yaml", _psu().replace("example-psu", "evga-supernova-1600-p2")),
    "mixed-broken-symlink": _special(_mixed_link),
    "jsonl-trailing-garbage": _file("parts.jsonl", JSONL_PSU + " trailing\n"),
    "jsonl-blank-lines": _file("parts.jsonl", "\n\n   \n"),
    "jsonl-huge-line": _file("parts.jsonl", JSONL_PSU.replace('"X"', '"' + "X" * 1_000_000 + '"', 1) + "\n"),
    "jsonl-duplicate-keys": _file("parts.jsonl", JSONL_PSU[:-1] + ', "watts": 9}\n'),
    "jsonl-bool-watts": _file("parts.jsonl", JSONL_PSU.replace('"watts": 1500', '"watts": true') + "\n"),
    "jsonl-control-name": _file("parts.jsonl", JSONL_PSU.replace('"name": "X"', '"name": "\\u001b[31mX"') + "\n"),
}

BENIGN = frozenset(
    {
        "bom",
        "crlf",
        "tab-after-colon",
        "folder-loop",
        "many-parts",
        "jsonl-blank-lines",
        *(["unreadable-file"] if os.geteuid() == 0 else []),
    }
)
"""Classes that are not corrupt, only odd or large: a BOM, CRLF line ends, a tab after a colon
(valid YAML), a link loop through a folder (not followed), 5,000 valid parts (a stress test: it
must not hang), blank JSONL lines, a file only root can read when run as root."""


def _out(target: Callable[[Path], str]) -> Callable[[Path], list[list[str]]]:
    """`suggest --output PATH` and `cost --plot PATH.svg` (a device or "" as it is)."""

    def make(folder: Path) -> list[list[str]]:
        path = target(folder)
        plot = path + ".svg" if path and not path.startswith("/dev/") else path
        return [["suggest", "--output", path], ["cost", ARTICLE, "--plot", plot]]

    return make


@contextlib.contextmanager
def full_disk() -> Iterator[None]:
    """Every temporary file the safe writer opens is /dev/full: the data write fails with ENOSPC
    (a full disk, without filling one)."""
    from partpicker import output

    real_open = os.open

    def open_full(path: Any, flags: int, mode: int = 0o777) -> int:
        if str(path).endswith(".tmp"):
            return real_open("/dev/full", os.O_WRONLY)
        return real_open(path, flags, mode)

    class _Os:
        def __getattr__(self, name: str) -> Any:
            return getattr(os, name)

        open = staticmethod(open_full)
        fchmod = staticmethod(lambda fd, mode: None)  # never chmod /dev/full itself

    saved = output.os
    output.os = _Os()  # type: ignore[assignment]
    try:
        yield
    finally:
        output.os = saved


def _symlink(folder: Path) -> str:
    (folder / "real.yaml").write_text("keep\n")
    (folder / "link.yaml").symlink_to(folder / "real.yaml")
    (folder / "link.yaml.svg").symlink_to(folder / "real.yaml")
    return str(folder / "link.yaml")


def _dangling(folder: Path) -> str:
    (folder / "d.yaml").symlink_to(folder / "nowhere")
    (folder / "d.yaml.svg").symlink_to(folder / "nowhere")
    return str(folder / "d.yaml")


def _dir(folder: Path) -> str:
    (folder / "out.yaml").mkdir()
    (folder / "out.yaml.svg").mkdir()
    return str(folder / "out.yaml")


def _file_parent(folder: Path) -> str:
    (folder / "file").write_text("x")
    return str(folder / "file" / "out.yaml")


def _fifo_out(folder: Path) -> str:
    os.mkfifo(folder / "p.yaml")
    os.mkfifo(folder / "p.yaml.svg")
    return str(folder / "p.yaml")


def _existing(folder: Path) -> str:
    (folder / "old.yaml").write_text("old\n")
    (folder / "old.yaml").chmod(0o644)
    return str(folder / "old.yaml")


OUTPUT_PATHS: dict[str, Callable[[Path], list[list[str]]]] = {
    "missing-folder": _out(lambda folder: str(folder / "nope" / "out.yaml")),
    "folder-as-path": _out(_dir),
    "file-as-parent": _out(_file_parent),
    "empty-path": _out(lambda folder: ""),
    "symlink": _out(_symlink),
    "dangling-symlink": _out(_dangling),
    "device": _out(lambda folder: "/dev/null"),
    "full-device": _out(lambda folder: "/dev/full"),
    "fifo": _out(_fifo_out),
    "existing-file": _out(_existing),
    "new-file": _out(lambda folder: str(folder / "new.yaml")),
    "long-name": _out(lambda folder: str(folder / ("n" * 300 + ".yaml"))),
    "control-chars-in-name": _out(lambda folder: str(folder / "\x1b[31mred.yaml")),
    "read-only-folder": _out(lambda folder: "/sys/partpicker-fuzz.yaml"),
    "full-disk": _out(lambda folder: str(folder / "full.yaml")),
    "full-disk-existing": _out(_existing),
}

PATCHES: dict[str, Callable[[], contextlib.AbstractContextManager[None]]] = {
    "full-disk": full_disk,
    "full-disk-existing": full_disk,
}
"""Classes that run inside a context (a simulated full disk)."""

WRITES = frozenset({"existing-file", "new-file", "control-chars-in-name"})
"""Output classes where the write must succeed; every other one must be refused (exit 2)."""


def check_outputs(label: str, folder: Path, codes: list[int | None]) -> list[str]:
    """What went wrong after an output class ran: a wrong exit code, a temporary file left
    behind, a mode not kept, a link, FIFO or folder replaced, the old file clobbered."""
    wrong: list[str] = []
    want = "0, 1 or 3" if label in WRITES else "2"
    if any((c in (0, 1, 3)) != (label in WRITES) for c in codes):
        wrong.append(f"exit codes {codes}, wanted {want}")
    left = [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    if left:
        wrong.append(f"left behind: {left}")
    old = folder / "old.yaml"
    if old.exists() and stat.S_IMODE(old.stat().st_mode) != 0o644:
        wrong.append(f"old.yaml is now {stat.S_IMODE(old.stat().st_mode):o}, was 644")
    if label == "existing-file" and old.read_text() == "old\n":
        wrong.append("old.yaml was not replaced")
    if label == "full-disk-existing" and old.read_text() != "old\n":
        wrong.append("old.yaml was clobbered by a failed write")
    if (folder / "real.yaml").exists() and (folder / "real.yaml").read_text() != "keep\n":
        wrong.append("the file behind the symlink was written")
    for name, test in (("link.yaml", Path.is_symlink), ("out.yaml", Path.is_dir), ("p.yaml", Path.is_fifo)):
        if name in {p.name for p in folder.iterdir()} and not test(folder / name):
            wrong.append(f"{name} was replaced")
    if label == "full-disk" and (folder / "full.yaml").exists():
        wrong.append("full.yaml exists after a failed write")
    return wrong


def check_catalog_class(label: str, codes: list[int | None]) -> list[str]:
    """A corrupt catalog must fail `catalog check` (both formats) and be refused by validate and
    suggest (exit 2), never used silently."""
    if label in BENIGN:
        return []
    check, check_json, validate, suggest = codes
    wrong = []
    if check == 0 or check_json == 0:
        wrong.append("catalog check passed it")
    if validate != 2 or suggest != 2:
        wrong.append(f"validate/suggest exit {validate}/{suggest}, wanted 2/2")
    return wrong
