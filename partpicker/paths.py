"""Where the bundled catalog and rules live: in the wheel, or at the top of a source checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _bundled(name: str) -> Path:
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def catalog_dir() -> Path:
    """The bundled catalog folder."""
    return _bundled("catalogs")


def rules_dir() -> Path:
    """The bundled rules folder."""
    return _bundled("rules")


def examples_dir() -> Path:
    """The example builds (present in a source checkout only)."""
    return _PACKAGE.parent / "examples"
