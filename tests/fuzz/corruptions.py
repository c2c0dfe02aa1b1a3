"""Every class of corrupt catalog and hostile output path the issue names, as input makers.

Each maker builds its input under a fresh folder and returns the command lines to run on it:
`catalog check`, `validate` with it as the catalog, and `suggest --format json` with it."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

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
}


def _out(target: Callable[[Path], str]) -> Callable[[Path], list[list[str]]]:
    """`suggest --output PATH` and `cost --plot PATH.svg` (a device or "" as it is)."""

    def make(folder: Path) -> list[list[str]]:
        path = target(folder)
        plot = path + ".svg" if path and not path.startswith("/dev/") else path
        return [["suggest", "--output", path], ["cost", ARTICLE, "--plot", plot]]

    return make


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
}
