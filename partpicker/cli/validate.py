"""`partpicker validate BUILD`."""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from partpicker.build import load_build
from partpicker.cli import workplan
from partpicker.cli.common import (
    MAX_STALE_DAYS,
    AllowBrokenOpt,
    AsOfOpt,
    CatalogOpt,
    OutputOpt,
    PartsOpt,
    PowerLimitOpt,
    check_output,
    emit,
    guarded,
    load_catalog_once,
    parse_date,
)
from partpicker.pricing import STALE_DAYS
from partpicker.rules.rulebook import load_rules
from partpicker.validate.engine import evaluate
from partpicker.validate.formats import REPORTER_BY_NAME
from partpicker.validate.report import Report

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
    day = parse_date(as_of, "--as-of")
    check_output(output)
    wall = workplan.parse_circuit(circuit)
    builds = []

    def run() -> Report:
        build = load_build(build_file, load_catalog_once(catalog, parts, allow_broken_catalog))
        if power_limit is not None:  # the option wins over the file's power_limit_w
            build = replace(build, power_limit_w=power_limit)
        if wall is not None:  # wall-circuit judged on the named circuit
            build = replace(build, rules=workplan.with_circuit(dict(build.rules), wall))  # type: ignore[arg-type]
        builds.append(build)
        return evaluate(build, load_rules(), as_of=day, stale_days=stale_days, verified_only=verified_only)

    report = guarded(run)
    fmt = str(getattr(format, "value", format))
    text = REPORTER_BY_NAME[fmt](report)
    if wall is not None and fmt in ("text", "json"):
        text = workplan.with_plan(text, fmt, builds[0], wall)
    emit(text, output)
    if report.exit_code(strict):
        raise typer.Exit(report.exit_code(strict))
