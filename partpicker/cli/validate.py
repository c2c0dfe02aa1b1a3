"""`partpicker validate BUILD`: the command, without typer.

Its typer options are in :mod:`partpicker.cli.validate_options`; they make an
:class:`Options` and call :func:`execute`, as :mod:`partpicker.cli.lean` does for the
everyday forms of the command without importing typer (issue 14).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from partpicker.build import load_build
from partpicker.cli.plain import check_output, emit, guarded, load_catalog_once, parse_date
from partpicker.pricing import STALE_DAYS
from partpicker.rules.rulebook import load_rules
from partpicker.validate.engine import evaluate
from partpicker.validate.formats import REPORTER_BY_NAME

if TYPE_CHECKING:
    import typer

    from partpicker.build import Build
    from partpicker.validate.report import Report


@dataclass(frozen=True)
class Options:
    """The options of `partpicker validate`, as the command line gave them."""

    build_file: Path
    format: str = "text"
    strict: bool = False
    catalog: list[Path] | None = None
    parts: list[Path] | None = None
    as_of: str | None = None
    stale_days: int = STALE_DAYS
    allow_broken_catalog: bool = False
    output: Path | None = None
    verified_only: bool = False
    power_limit: int | None = None
    circuit: str | None = None


def execute(opts: Options) -> int:
    """Validate the build, print or write the report; the exit code (0 clean, 1 findings)."""
    day = parse_date(opts.as_of, "--as-of")
    check_output(opts.output)
    wall = None
    if opts.circuit is not None:
        from partpicker.cli import workplan  # typer: only the options the lean path declines

        wall = workplan.parse_circuit(opts.circuit)
    builds: list[Build] = []

    def run() -> Report:
        catalog = load_catalog_once(opts.catalog, opts.parts, opts.allow_broken_catalog, plain=True)
        build = load_build(opts.build_file, catalog)
        if opts.power_limit is not None:  # the option wins over the file's power_limit_w
            build = replace(build, power_limit_w=opts.power_limit)
        if wall is not None:  # wall-circuit judged on the named circuit
            build = replace(build, rules=workplan.with_circuit(dict(build.rules), wall))
        builds.append(build)
        rules = load_rules()
        return evaluate(build, rules, as_of=day, stale_days=opts.stale_days, verified_only=opts.verified_only)

    report = guarded(run)
    text = REPORTER_BY_NAME[opts.format](report)
    if wall is not None and opts.format in ("text", "json"):
        text = workplan.with_plan(text, opts.format, builds[0], wall)
    emit(text, opts.output)
    return report.exit_code(opts.strict)


def register(app: typer.Typer) -> None:
    """Add the command to the app."""
    from partpicker.cli.validate_options import validate

    app.command()(validate)
