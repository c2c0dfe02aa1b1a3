"""Where the bundled workload data lives: in the wheel, or at the top of a source checkout.

Mirrors :func:`partpicker.data._bundled`: a wheel carries the ``workloads`` folder as
``partpicker/_data/workloads``; a source checkout has it next to the package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def _bundled(name: str) -> Path:
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def workloads_dir() -> Path:
    """The bundled workloads folder."""
    return _bundled("workloads")


def models_file() -> Path:
    """The bundled model list, ``workloads/models.yaml``."""
    return workloads_dir() / "models.yaml"
