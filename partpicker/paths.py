"""Where the bundled catalog and rules live: in the wheel, or at the top of a source checkout."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

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


def cloud_dir() -> Path:
    """The bundled cloud GPU rates folder (``cloud/rates.yaml``)."""
    return _bundled("cloud")


def examples_dir() -> Path:
    """The example builds (`catalog diff` judges each against both catalogs)."""
    return _bundled("examples")


def user_config_dir() -> Path:
    """The platform's config folder for partpicker (``platformdirs.user_config_dir``):
    ~/.config/partpicker on Linux (or $XDG_CONFIG_HOME/partpicker), ~/Library/Application
    Support/partpicker on macOS, %LOCALAPPDATA%\\partpicker on Windows; $PARTPICKER_CONFIG_DIR
    if set (tests set it, so that no one's own parts leak into them)."""
    override = os.environ.get("PARTPICKER_CONFIG_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir("partpicker", appauthor=False))


def user_parts_file() -> Path:
    """Your own parts and prices, read by every command on top of the bundled catalog."""
    return user_config_dir() / "parts.yaml"


def user_prices_file() -> Path:
    """The prices `partpicker prices import` writes (read after ``parts.yaml``)."""
    return user_config_dir() / "prices.yaml"
