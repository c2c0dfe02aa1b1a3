"""The typer options of `partpicker validate BUILD` (the command: :mod:`partpicker.cli.validate`)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from partpicker.cli import validate as command
from partpicker.cli import workplan
from partpicker.cli.common import (
    MAX_STALE_DAYS,
    AllowBrokenOpt,
    AsOfOpt,
    CatalogOpt,
    OutputOpt,
    PartsOpt,
    PowerLimitOpt,
)
from partpicker.pricing import STALE_DAYS
from partpicker.validate.formats import REPORTER_BY_NAME

ReportFormat = Enum("ReportFormat", {name: name for name in REPORTER_BY_NAME}, type=str)  # type: ignore[misc]


def validate(
    build_file: Annotated[Path, typer.Argument(help="The build YAML file.", show_default=False)],
    format: Annotated[ReportFormat, typer.Option("--format", "-f", help="Output format.")] = "text",  # type: ignore[assignment]
    strict: Annotated[bool, typer.Option(help="Exit 1 on warnings and unknowns too.")] = False,
    catalog: CatalogOpt = None,
    parts: PartsOpt = None,
    as_of: AsOfOpt = None,
    stale_days: Annotated[
        int, typer.Option(min=1, max=MAX_STALE_DAYS, help="Flag prices older than this many days.")
    ] = STALE_DAYS,
    allow_broken_catalog: AllowBrokenOpt = False,
    output: OutputOpt = None,
    verified_only: Annotated[
        bool, typer.Option("--verified-only", help="Treat recalled facts as unknown: only documented facts pass.")
    ] = False,
    power_limit: PowerLimitOpt = None,
    circuit: workplan.CircuitOpt = None,
) -> None:
    """Say whether a build works, rule by rule, with the numbers."""
    options = command.Options(
        build_file,
        str(getattr(format, "value", format)),
        strict,
        catalog,
        parts,
        as_of,
        stale_days,
        allow_broken_catalog,
        output,
        verified_only,
        power_limit,
        circuit,
    )
    code = command.execute(options)
    if code:
        raise typer.Exit(code)
