"""Shared fixtures: the bundled catalog and rules, loaded once."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path

import pytest

from partpicker.catalog import Catalog, Problem, load_catalog
from partpicker.catalog import checks as catalog_checks
from partpicker.catalog import diff as catalog_diff
from partpicker.catalog import load as catalog_load
from partpicker.rules.rulebook import RuleSpec, load_rules

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
    files = catalog_load.catalog_files(paths)
    checks = tuple(sorted(part_checks or ()))  # by id: the checks of a JSON Lines file run as it is read
    catalog, problems = _read_files(tuple((f.absolute(), _mtime(f)) for f in files), checks)
    return catalog, list(problems)


def _mtime(path: Path) -> int:
    """The modification time, of the link itself for a broken link or a loop (they are read, and
    reported, like any file)."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return path.lstat().st_mtime_ns


@pytest.fixture(scope="session", autouse=True)
def _catalog_parsed_once() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        for module in (catalog_load, catalog_checks, catalog_diff):
            patch.setattr(module, "read_catalog", read_catalog_once)
        yield


@pytest.fixture(scope="session", autouse=True)
def _no_user_parts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No one's own parts file (`partpicker parts path`) reaches the tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARTPICKER_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
        yield


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def rules() -> dict[str, RuleSpec]:
    return load_rules()
