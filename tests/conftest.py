"""Shared fixtures: the bundled catalog and rules, loaded once; the work every CLI test would
otherwise repeat (parsing the same YAML, building the typer command) done once per session."""

from __future__ import annotations

import copy
import datetime as dt
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

import pytest
import typer.main
import typer.testing

from partpicker import pricing, yamlio
from partpicker.catalog import Catalog, Problem, load_catalog
from partpicker.catalog import cache as catalog_cache
from partpicker.catalog import checks as catalog_checks
from partpicker.catalog import load as catalog_load
from partpicker.errors import InputError
from partpicker.rules.rulebook import RuleSpec, load_rules

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared"

_read_catalog = catalog_load.read_catalog


@cache
def _read_files(files: tuple[tuple[Path, int], ...], checks: tuple[str, ...]) -> tuple[Catalog, tuple[Problem, ...]]:
    part_checks = {cid: fn for cid, fn in catalog_checks.PART_CHECKS.items() if cid in checks}
    catalog, problems = _read_catalog([path for path, _ in files], part_checks=part_checks)
    return catalog, tuple(problems)


def read_catalog_once(
    paths: Sequence[str | Path] | None = None, *, part_checks: Mapping[str, object] | None = None
) -> tuple[Catalog, list[Problem]]:
    """:func:`read_catalog`, parsing each set of files once per session (keyed by path and
    modification time, so a test that writes a catalog still gets its own). The CLI tests
    would otherwise parse the 296-part bundled catalog on every command (~0.5 s each).
    Nothing mutates a loaded catalog; the problems list is a fresh copy each call."""
    checks = tuple(sorted(part_checks or ()))  # by id: the checks of a JSON Lines file run as it is read
    catalog, problems = _read_files(_files_of(paths), checks)
    return catalog, list(problems)


def _files_of(paths: Sequence[str | Path] | None) -> tuple[tuple[Path, int], ...]:
    """A catalog's files as a cache key: each path and its modification time."""
    return tuple((f.absolute(), _mtime(f)) for f in catalog_load.catalog_files(paths))


def _mtime(path: Path) -> int:
    """The modification time, of the link itself for a broken link or a loop (they are read, and
    reported, like any file)."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return path.lstat().st_mtime_ns


_check_catalog = catalog_checks.check_catalog
_checked: dict[tuple[Any, ...], tuple[Catalog, tuple[Problem, ...]]] = {}


def check_catalog_once(
    paths: Sequence[str | Path] | None = None, *, skip: frozenset[str] = frozenset()
) -> tuple[Catalog, list[Problem]]:
    """:func:`check_catalog`, checking each catalog once per set of checks and day (what every
    CLI command does first, ~30 ms): the checks read nothing but the catalog's files (keyed by
    path and modification time, as :func:`read_catalog_once`) and today's date."""
    files = _files_of(paths)
    checks = (tuple(catalog_checks.LINT_CHECKS.items()), tuple(catalog_checks.PART_CHECKS.items()))
    key = (files, skip, pricing.today(), checks)
    if key not in _checked:
        checked, problems = _check_catalog(paths, skip=skip)
        _checked[key] = (checked, tuple(problems))
    checked, problems = _checked[key]
    return checked, list(problems)


REAL_CHECKED_CATALOG = catalog_cache.checked_catalog
_bundled: dict[tuple[Any, ...], tuple[Catalog, tuple[Problem, ...]]] = {}


def checked_catalog_once(
    paths: Sequence[str | Path] | None = None, *, skip: frozenset[str] = frozenset(), plain: bool = False
) -> tuple[Catalog, list[Problem]]:
    """:func:`partpicker.catalog.cache.checked_catalog` (what every CLI command loads), read from
    the user cache once per session, not on every command (~40 ms each): keyed as
    :func:`check_catalog_once`, plus the cache folder. tests/test_cache.py uses the real one."""
    if paths:
        return REAL_CHECKED_CATALOG(paths, skip=skip, plain=plain)
    key = (
        _files_of(None),
        skip,
        plain,
        pricing.today(),
        os.environ.get("PARTPICKER_CACHE_DIR"),
        os.environ.get("PARTPICKER_NO_CACHE"),
    )
    if key not in _bundled:
        if plain:  # stored first, so that `validate` reads plain parts back, as it does when warm
            REAL_CHECKED_CATALOG(None, skip=skip)
        checked, problems = REAL_CHECKED_CATALOG(None, skip=skip, plain=plain)
        _bundled[key] = (checked, tuple(problems))
    checked, problems = _bundled[key]
    return checked, list(problems)


@pytest.fixture(scope="session", autouse=True)
def _catalog_parsed_once() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        for module in (catalog_load, catalog_checks):
            patch.setattr(module, "read_catalog", read_catalog_once)
        patch.setattr(catalog_checks, "check_catalog", check_catalog_once)
        patch.setattr(catalog_cache, "checked_catalog", checked_catalog_once)
        yield


_parse_yaml = yamlio.parse


@lru_cache(maxsize=1024)
def _parsed(text: str, limits: tuple[tuple[str, int], ...]) -> yamlio.Loaded:
    return _parse_yaml(text, "<cached>")


def parse_yaml_once(text: str, path: str | Path) -> yamlio.Loaded:
    """:func:`yamlio.parse`, parsing each text once per session. What it returns is a pure
    function of the text and :data:`yamlio.LIMITS` (the key; the path only names the file in an
    error), and pure-Python YAML is slow: every `validate` reads the 21 rule files (~0.1 s),
    every catalog test the same catalog files. Each caller gets its own deep copy, so nothing
    one test changes reaches another; a text that fails is parsed anew, so its error names its
    own file."""
    try:
        loaded = _parsed(text, tuple(sorted(yamlio.LIMITS.items())))
    except InputError:
        return _parse_yaml(text, path)
    return yamlio.Loaded(_copy(loaded.data), copy.deepcopy(loaded.duplicates))


_SCALARS = (str, int, float, bool, type(None), bytes, dt.date, dt.datetime)


def _copy(value: Any) -> Any:
    """A deep copy of parsed YAML, lines and all (``copy.deepcopy`` is several times slower)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is yamlio.LineDict or kind is dict:
        out = kind((k, _copy(v)) for k, v in value.items())
    elif kind is yamlio.LineList or kind is list:
        out = kind(_copy(v) for v in value)
    else:
        return copy.deepcopy(value)
    for name, attr in vars(value).items():
        setattr(out, name, copy.copy(attr))
    return out


_commands: dict[int, tuple[Any, Any]] = {}
_get_command = typer.main.get_command


def command_once(app: typer.Typer) -> Any:
    """typer's click command for ``app``, built once: CliRunner builds it on every invoke, and
    typer evaluates every option's annotations to do so (~60 ms a call)."""
    app_id = id(app)
    if app_id not in _commands or _commands[app_id][0] is not app:
        _commands[app_id] = (app, _get_command(app))
    return _commands[app_id][1]


_once = pytest.MonkeyPatch()


def pytest_configure(config: pytest.Config) -> None:
    """Before collection, since test modules read rules and models when they are imported."""
    _once.setattr(yamlio, "parse", parse_yaml_once)
    _once.setattr(typer.testing, "_get_command", command_once)


def pytest_unconfigure(config: pytest.Config) -> None:
    _once.undo()


@pytest.fixture(scope="session", autouse=True)
def _no_user_parts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No one's own parts file (`partpicker parts path`) reaches the tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARTPICKER_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
        yield


@pytest.fixture(scope="session", autouse=True)
def _own_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The parsed-catalog cache (partpicker.cache) lives in a folder of the session, never the
    user's; the CLI tests then run on catalogs read back from it (tests/test_cache.py checks
    that those equal the parsed ones)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARTPICKER_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        patch.delenv("PARTPICKER_NO_CACHE", raising=False)
        yield


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def rules() -> dict[str, RuleSpec]:
    return load_rules()


def fast_first(values: Iterable[T], fast: int) -> list[Any]:
    """Parameters for a test over many cases: the first ``fast`` run in the default (fast)
    suite, the rest are marked ``slow`` (CI runs them: ``pytest -m 'slow or browser'``). A
    tuple is one case of several arguments, as for ``parametrize`` with several names."""
    slow = pytest.mark.slow
    return [
        v if i < fast else pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=slow)
        for i, v in enumerate(values)
    ]
