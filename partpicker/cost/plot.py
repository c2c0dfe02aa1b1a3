"""The cumulative cost curves as a PNG or SVG file (matplotlib, the optional `plot` extra).

matplotlib is imported only when a plot is asked for. The file is written by
:mod:`partpicker.output` (temporary file beside the target, renamed into place).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from partpicker import output
from partpicker.cost.model import CLOUD, LABEL, CostResult
from partpicker.errors import InputError

SUFFIXES = {".png": "png", ".svg": "svg"}


def check_target(path: Path) -> str:
    """The file format for ``path``, or an :class:`InputError`; also checks matplotlib is there.

    Called before any work is done, so a plot that cannot be written fails early.
    """
    fmt = SUFFIXES.get(path.suffix.lower())
    if fmt is None:
        raise InputError(f"--plot {path}: the file name must end in .png or .svg", hint="e.g. --plot cost.png")
    output.check_target(path, "--plot")
    _figure_class()
    return fmt


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError(
            "--plot needs matplotlib, which is not installed",
            hint="pip install 'partpicker[plot]' (or pip install matplotlib)",
        ) from None
    return Figure


def write_plot(result: CostResult, path: Path) -> None:
    """Draw the cumulative curves (own paid, own net, each cloud option) and write ``path``."""
    fmt = check_target(path)
    figure = _figure_class()(figsize=(8, 4.5), layout="constrained")
    ax = figure.add_subplot()
    rows = result.horizon
    months = [r.month for r in rows]
    for k in CLOUD:
        ax.plot(months, [r.cloud_total[k] for r in rows], label=LABEL[k])
    ax.plot(months, [r.own_paid for r in rows], label="own (paid)", color="black", linewidth=2)
    ax.plot(months, [r.own_net for r in rows], label="own (net)", color="black", linestyle="--")
    m, a = result.machine, result.assumptions
    ax.set_title(f"{m.name}: {m.gpus} GPU(s), {a.hours_per_day:g} h/day")
    ax.set_xlabel("month")
    ax.set_ylabel("cumulative cost (USD)")
    ax.set_xlim(1, max(months[-1], 2))
    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_formatter("${x:,.0f}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    output.write_with(path, lambda handle: figure.savefig(handle, format=fmt), "--plot")
