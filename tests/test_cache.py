"""The parsed-catalog and rules cache (partpicker.cache, issue 14): a hit is the catalog
parsing gives, part for part; anything changed, damaged or unwritable is a miss or no cache,
never an error or a wrong answer."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import msgspec
import networkx as nx
import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

import partpicker
from partpicker import cache, kinds
from partpicker.catalog import Catalog, Problem
from partpicker.catalog import cache as catalog_cache
from partpicker.catalog import checks as catalog_checks
from partpicker.catalog import load as catalog_load
from partpicker.catalog.checks import CURATION_ONLY, check_catalog
from partpicker.cli import app
from partpicker.paths import rules_dir
from partpicker.rules import graph as rules_graph
from partpicker.rules import rulebook

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "article-2018.yaml"
runner = CliRunner()


@pytest.fixture(autouse=True)
def _the_real_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests judge the cache itself, not the session's memo of it (conftest)."""
    from .conftest import REAL_CHECKED_CATALOG

    monkeypatch.setattr(catalog_cache, "checked_catalog", REAL_CHECKED_CATALOG)


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PARTPICKER_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def small_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bundled catalog of two of the real files (a copy, so that a test may edit it)."""
    folder = tmp_path / "catalogs"
    folder.mkdir()
    for name in ("case.yaml", "psu.yaml"):
        shutil.copy(ROOT / "catalogs" / name, folder / name)
    monkeypatch.setattr(catalog_load, "catalog_dir", lambda: folder)
    return folder


class Parses:
    """Counts the real parses behind :func:`checked_catalog` (a hit makes none)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        monkeypatch.setattr(catalog_checks, "check_catalog", self)

    def __call__(self, *args: Any, **kwargs: Any) -> tuple[Catalog, list[Problem]]:
        self.count += 1
        return check_catalog(*args, **kwargs)


def assert_twin(got: Any, want: Any) -> None:
    """``got`` is ``want`` as it reads: a pydantic model as the plain object of its base class in
    partpicker.kinds (the same fields in the same order, each value the same, nested records
    alike), anything else equal and of the same type."""
    if isinstance(want, BaseModel):
        assert type(got) in type(want).__mro__ and issubclass(type(got), kinds.Plain), (got, want)
        assert tuple(type(want).model_fields) == type(got).FIELDS
        assert list(got.__dict__) == list(want.__dict__)
        for name in type(got).FIELDS:
            assert_twin(getattr(got, name), getattr(want, name))
    elif isinstance(want, list | dict):  # (a list parsed from YAML is a yamlio.LineList)
        assert type(got) in (list, dict) and isinstance(want, type(got)) and len(got) == len(want)
        if isinstance(want, dict):
            assert list(got) == list(want)
        for a, b in zip(
            got.values() if isinstance(got, dict) else got,
            want.values() if isinstance(want, dict) else want,
            strict=True,
        ):
            assert_twin(a, b)
    else:
        assert type(got) is type(want) and got == want


def assert_same_catalog(got: Catalog, want: Catalog, *, plain: bool = False) -> None:
    """Every part equal (value, type, the fields set), or with ``plain`` the same as the plain
    twin of the model parsed (:func:`assert_twin`), in the same order, defined at the same place."""
    assert list(got.parts) == list(want.parts)
    for part_id, part in want.parts.items():
        other = got.parts[part_id]
        if plain:
            assert_twin(other, part)
            assert type(other) is kinds.KINDS[part.category]
        else:
            assert type(other) is type(part)
            assert other == part
            assert other.model_fields_set == part.model_fields_set
        assert repr(other) == repr(part)  # the fields in the same order, nested models alike
        here, there = got.origin[part_id], want.origin[part_id]
        assert (here.path, here.line) == (there.path, there.line)
    assert {c: [p.id for p in ps] for c, ps in got.by_category.items()} == {
        c: [p.id for p in ps] for c, ps in want.by_category.items()
    }


def checked() -> tuple[Catalog, list[Problem]]:
    return catalog_cache.checked_catalog(None, skip=CURATION_ONLY)


def test_a_hit_is_the_bundled_catalog_as_parsed(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parses = Parses(monkeypatch)
    parsed, problems = checked()
    assert parses.count == 1 and (cache_dir / "bundled-catalog.bin").is_file()
    again, again_problems = checked()
    assert parses.count == 1  # read back, not parsed
    assert again is not parsed
    assert len(again) == len(parsed) > 250
    assert_same_catalog(again, parsed)
    assert again_problems == problems
    reference, reference_problems = check_catalog(None, skip=CURATION_ONLY)  # the plain path
    assert_same_catalog(again, reference)
    assert again_problems == reference_problems
    plain, plain_problems = catalog_cache.checked_catalog(None, skip=CURATION_ONLY, plain=True)
    assert parses.count == 1
    assert_same_catalog(plain, reference, plain=True)  # what `validate` reads: no pydantic
    assert plain_problems == reference_problems


def test_problems_are_kept_too(cache_dir: Path, small_bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (small_bundle / "case.yaml").read_text()
    (small_bundle / "case.yaml").write_text(text.replace("expansion_slots: 8", "expansion_slots: -8", 1))
    parsed, problems = checked()
    assert any(p.check == "bounds" for p in problems)
    parses = Parses(monkeypatch)
    again, again_problems = checked()
    assert parses.count == 0
    assert again_problems == problems
    assert_same_catalog(again, parsed)


def test_a_changed_catalog_file_misses(cache_dir: Path, small_bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parses = Parses(monkeypatch)
    before, _ = checked()
    path = small_bundle / "case.yaml"
    path.write_text(path.read_text().replace('name: "Lian Li PC-O11 Air"', 'name: "Lian Li PC-O11 Air Renamed"', 1))
    after, _ = checked()
    assert parses.count == 2
    assert before.parts["lian-li-pc-o11-air"].name == "Lian Li PC-O11 Air"
    assert after.parts["lian-li-pc-o11-air"].name == "Lian Li PC-O11 Air Renamed"
    assert_same_catalog(after, check_catalog(None, skip=CURATION_ONLY)[0])
    (small_bundle / "psu.yaml").unlink()  # a file fewer misses too
    fewer, _ = checked()
    assert parses.count == 3 and not fewer.by_category["psu"]


def test_another_day_is_another_key(cache_dir: Path, small_bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime as dt

    from partpicker import pricing

    monkeypatch.setattr(pricing, "today", lambda: dt.date(2020, 1, 1))  # before most catalog prices
    then = checked()[1]
    assert any(p.check == "price-future" for p in then)
    monkeypatch.undo()
    monkeypatch.setenv("PARTPICKER_CACHE_DIR", str(cache_dir))
    monkeypatch.setattr(catalog_load, "catalog_dir", lambda: small_bundle)
    now = checked()[1]
    assert now == check_catalog(None, skip=CURATION_ONLY)[1] != then


def test_other_skipped_checks_are_another_key(cache_dir: Path, small_bundle: Path) -> None:
    a = catalog_cache.checked_catalog(None, skip=CURATION_ONLY)[1]
    b = catalog_cache.checked_catalog(None, skip=frozenset())[1]
    assert a == check_catalog(None, skip=CURATION_ONLY)[1]
    assert b == check_catalog(None, skip=frozenset())[1]


def _frame(key: str, payload: bytes) -> bytes:
    """A cache file as partpicker writes it (a well-formed header around any payload)."""
    import hashlib

    return cache.MAGIC + key.encode() + b"\n" + hashlib.blake2b(payload, digest_size=32).digest() + payload


def _damaged(kind: str, blob: bytes, key: str) -> bytes:
    if kind == "truncated":
        return blob[: len(blob) // 2]
    if kind == "flipped":
        middle = len(blob) // 2
        return blob[:middle] + bytes([blob[middle] ^ 0x55]) + blob[middle + 1 :]
    if kind == "empty":
        return b""
    if kind == "garbage":
        return os.urandom(4096)
    if kind == "foreign":
        return b"\x89PNG\r\n\x1a\n" + blob
    if kind == "other-key":
        return blob.replace(key.encode(), ("0" * len(key)).encode(), 1)
    if kind == "wrong-shape":
        return _frame(key, msgspec.msgpack.encode({"parts": 3}))
    # "invalid-part": well framed and shaped, but a part with a field more than its model has
    stored: list[Any] = msgspec.msgpack.decode(blob[len(cache.MAGIC) + len(key) + 1 + 32 :])
    stored[0][0][3].append(1)
    return _frame(key, msgspec.msgpack.encode(stored))


KINDS = ["truncated", "flipped", "empty", "garbage", "foreign", "other-key", "wrong-shape", "invalid-part"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_cache_file_is_ignored_and_rebuilt(
    kind: str, cache_dir: Path, small_bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed, problems = checked()
    file = cache_dir / "bundled-catalog.bin"
    key = catalog_cache._key(catalog_load.catalog_files(None), CURATION_ONLY)
    assert key is not None and file.read_bytes().startswith(cache.MAGIC + key.encode())
    file.write_bytes(_damaged(kind, file.read_bytes(), key))
    parses = Parses(monkeypatch)
    again, again_problems = checked()
    assert parses.count == 1  # a miss: parsed again
    assert_same_catalog(again, parsed)
    assert again_problems == problems
    checked()
    assert parses.count == 1  # and stored anew: the next run hits


@pytest.mark.parametrize("kind", ["folder", "fifo", "unreadable"])
def test_a_cache_file_that_is_no_file_is_ignored(
    kind: str, cache_dir: Path, small_bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = cache_dir / "bundled-catalog.bin"
    cache_dir.mkdir()
    if kind == "folder":
        file.mkdir()
    elif kind == "fifo":
        os.mkfifo(file)  # reading it must not block
    else:
        file.symlink_to(cache_dir / "nowhere")
    parses = Parses(monkeypatch)
    got, _ = checked()
    assert parses.count == 1
    assert_same_catalog(got, check_catalog(None, skip=CURATION_ONLY)[0])


def test_an_unwritable_cache_folder_means_no_cache(
    tmp_path: Path, small_bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PARTPICKER_CACHE_DIR", str(blocker / "cache"))  # under a file: cannot be made
    parses = Parses(monkeypatch)
    first, _ = checked()
    second, _ = checked()
    assert parses.count == 2
    assert_same_catalog(second, first)
    assert blocker.read_text() == "not a folder"


def test_a_read_only_cache_folder_means_no_cache(
    cache_dir: Path, small_bundle: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache_dir.mkdir()
    cache_dir.chmod(0o500)
    try:
        if os.access(cache_dir, os.W_OK):
            pytest.skip("running as a user who can write anywhere (root)")
        parses = Parses(monkeypatch)
        checked()
        checked()
        assert parses.count == 2
        assert list(cache_dir.iterdir()) == []
    finally:
        cache_dir.chmod(0o700)


def test_no_cache_writes_nothing(cache_dir: Path, small_bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARTPICKER_NO_CACHE", "1")
    parses = Parses(monkeypatch)
    checked()
    checked()
    assert parses.count == 2
    assert not cache_dir.exists()


def test_validate_answers_the_same_cold_warm_and_without_cache(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rulebook, "_MEMO", {})  # not made yet in this process: stored on the way
    cold = runner.invoke(app, ["validate", str(EXAMPLE)])
    assert (cache_dir / "bundled-catalog.bin").is_file() and (cache_dir / "bundled-rules.bin").is_file()
    warm = runner.invoke(app, ["validate", str(EXAMPLE)])
    shutil.rmtree(cache_dir)
    plain = runner.invoke(app, ["--no-cache", "validate", str(EXAMPLE)])
    assert not cache_dir.exists()
    assert cold.exit_code == warm.exit_code == plain.exit_code
    assert "cpu-socket" in cold.output
    assert cold.output == warm.output == plain.output
    runner.invoke(app, ["validate", str(EXAMPLE)])  # --no-cache held for one command only
    assert cache_dir.exists()


def test_the_key_follows_the_code_and_the_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = tmp_path / "pkg"
    code.mkdir()
    (code / "models.py").write_text("X = 1\n")
    monkeypatch.setattr(cache, "_PACKAGE", code)
    data = tmp_path / "data.yaml"
    data.write_text("a: 1\n")
    first = cache.key_of("k", [data])
    assert first == cache.key_of("k", [data])
    (code / "models.py").write_text("X = 12\n")
    second = cache.key_of("k", [data])
    monkeypatch.setattr(partpicker, "__version__", "9.9.9")
    third = cache.key_of("k", [data])
    data.write_text("a: 2\n")
    fourth = cache.key_of("k", [data])
    assert len({first, second, third, fourth, cache.key_of("other", [data])}) == 5
    assert cache.key_of("k", [tmp_path / "missing.yaml"]) is None


def test_rebuild_refuses_what_is_not_of_the_models_shape() -> None:
    from partpicker.build.schema import Counted
    from partpicker.models import Price, Psu

    price = Price(usd=100.0, date="2024-01-02", source="a shop")
    stored = msgspec.msgpack.decode(msgspec.msgpack.encode(cache.flatten(price)))
    made = cache.rebuild(Price, stored)
    assert made == price and repr(made) == repr(price)
    assert made.model_fields_set == {"usd", "date", "source"} and made.kind == "street"
    required_unset = [stored[0] & ~0b10, *stored[1:]]  # "date" (the second field) not set
    for bad in ([*stored, 1], stored[:-1], {"usd": 100.0}, ["x", *stored[1:]], required_unset, [1 << 9, *stored[1:]]):
        with pytest.raises(ValueError):
            cache.rebuild(Price, bad)
    with pytest.raises((ValueError, TypeError)):
        cache.rebuild(Price, [stored[0], 100.0, 20240102, "a shop", "street"])  # a date that is no date
    psu = Psu(id="p", name="P", brand="B", sources=["s"], watts=500, prices=[price])
    flat = cache.flatten(psu)
    assert cache.rebuild(Psu, flat) == psu
    prices = list(Psu.model_fields).index("prices") + 1
    with pytest.raises(ValueError):  # a nested model that is no list of fields
        cache.rebuild(Psu, [*flat[:prices], [3], *flat[prices + 1 :]])
    with pytest.raises(TypeError):  # a union of a number and a model: which one it was is not stored
        cache.rebuild(Counted, [0, "x", None, 1, None])


# -- the rules -----------------------------------------------------------------------------


def test_bundled_rules_read_back_equal_the_parsed_ones(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook, "_MEMO", {})
    parsed = rulebook.load_rules()
    assert (cache_dir / "bundled-rules.bin").is_file()
    monkeypatch.setattr(rulebook, "_MEMO", {})
    monkeypatch.setattr(rulebook, "_parse_rules", lambda files: pytest.fail("parsed again"))
    stored = rulebook.load_rules()
    assert list(stored) == list(parsed) and len(stored) >= 20
    for rule_id, spec in parsed.items():
        assert_twin(stored[rule_id], spec)


def test_a_damaged_rules_cache_is_ignored(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook, "_MEMO", {})
    parsed = rulebook.load_rules()
    file = cache_dir / "bundled-rules.bin"
    blob = file.read_bytes()
    head = blob.index(b"\n", len(cache.MAGIC)) + 1
    key = blob[len(cache.MAGIC) : head - 1].decode()
    for damaged in (blob[: len(blob) // 3], _frame(key, msgspec.msgpack.encode([{"id": "x"}]))):
        file.write_bytes(damaged)
        monkeypatch.setattr(rulebook, "_MEMO", {})
        assert rulebook.load_rules() == parsed


def test_rules_are_made_once_per_rule_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "rules"
    shutil.copytree(rules_dir(), folder)
    monkeypatch.setattr(rulebook, "_MEMO", {})
    first, second = rulebook.load_rules(folder), rulebook.load_rules(folder)
    assert first is not second and first == second
    assert all(first[k] is second[k] for k in first)  # the same frozen specs: parsed once
    path = folder / "cpu-socket.yaml"
    path.write_text(path.read_text().replace("title: ", "title: Renamed ", 1))
    changed = rulebook.load_rules(folder)
    assert changed["cpu-socket"].title.startswith("Renamed ")
    assert changed["gpu-slots"] == first["gpu-slots"]
    first.clear()  # a caller's dict is its own
    assert rulebook.load_rules(folder) == changed


def test_the_constraint_graph_is_built_once_and_frozen() -> None:
    specs = list(rulebook.load_rules().values())
    graph = rules_graph.build_graph(specs)
    assert rules_graph.build_graph(list(specs)) is graph
    assert nx.is_frozen(graph)
    with pytest.raises(nx.NetworkXError):
        graph.add_node("extra")
    fewer = rules_graph.build_graph(specs[1:])
    assert fewer is not graph
    assert set(graph.nodes) - set(fewer.nodes) == {rules_graph.rule_node(specs[0].id)}
