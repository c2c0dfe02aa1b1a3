"""`partpicker suggest`: the provably cheapest valid build that scales to N GPUs."""

from __future__ import annotations

import os
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from partpicker.catalog.overlay import marked
from partpicker.catalog.verified import verified_catalog
from partpicker.cli import workplan
from partpicker.cli.common import (
    AsOfOpt,
    CatalogOpt,
    PartsOpt,
    PowerLimitOpt,
    check_output,
    emit,
    fail_input,
    guarded,
    load_catalog_once,
    parse_date,
)
from partpicker.errors import InputError
from partpicker.pricing import STALE_DAYS
from partpicker.rules.rulebook import load_rules
from partpicker.suggest.answer import Solution, solve
from partpicker.suggest.formats import SUGGEST_FORMATS, build_file
from partpicker.suggest.offer import Request
from partpicker.validate.engine import evaluate
from partpicker.validate.report import Report
from partpicker.workload import DEFAULT_HEADROOM

SuggestFormat = StrEnum("SuggestFormat", {name: name for name in SUGGEST_FORMATS})  # type: ignore[misc]


class ObjectiveOpt(StrEnum):
    now = "now"
    full = "full"


def _pins(values: list[str]) -> dict[str, str]:
    out = {}
    for value in values:
        role, sep, name = value.partition("=")
        if not sep or not name.strip():
            fail_input(InputError(f"--require {value!r} is not ROLE=NAME", hint="e.g. --require cpu=1920X"))
        out[role.strip()] = name.strip()
    return out


def write_atomically(path: Path, text: str) -> None:
    """Write a file whole or not at all."""
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def suggest(
    gpus: Annotated[int, typer.Option(min=1, max=16, help="GPUs the platform must be ready for.")] = 4,
    start_gpus: Annotated[int, typer.Option(min=1, max=16, help="GPUs bought now.")] = 1,
    budget: Annotated[float | None, typer.Option(min=0, help="Cap on what is bought now, USD.")] = None,
    gpu: Annotated[str | None, typer.Option(help="Pin a GPU model (e.g. 'RTX 3090') or card.")] = None,
    min_vram: Annotated[float, typer.Option(min=0, help="Least VRAM per card, GB (when --gpu is not given).")] = 11.0,
    min_storage: Annotated[int, typer.Option(min=0, help="Least boot-drive capacity, GB.")] = 500,
    require: Annotated[list[str] | None, typer.Option(help="Pin a part: ROLE=NAME (repeatable).")] = None,
    exclude: Annotated[list[str] | None, typer.Option(help="Drop a part by id or name (repeatable).")] = None,
    as_of: AsOfOpt = None,
    stale_days: Annotated[int, typer.Option(min=1, help="Offer parts priced within this many days.")] = STALE_DAYS,
    catalog: CatalogOpt = None,
    parts: PartsOpt = None,
    objective: Annotated[
        ObjectiveOpt, typer.Option(help="Minimise the price now, or at full scale.")
    ] = ObjectiveOpt.now,
    top: Annotated[int, typer.Option(min=1, max=20, help="List the K cheapest builds (distinct totals).")] = 1,
    strict: Annotated[bool, typer.Option(help="Enforce warning rules too.")] = False,
    allow_unknown: Annotated[
        bool, typer.Option(help="Accept rules the catalog cannot check (unknown); the answer lists them.")
    ] = False,
    format: Annotated[SuggestFormat, typer.Option("--format", "-f", help="Output format.")] = "text",  # type: ignore[assignment]
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="Write the best build as a build file here (with --format html: the page)."
        ),
    ] = None,
    cost: Annotated[bool, typer.Option("--cost", help="Also show what it saves against the cloud.")] = False,
    verified_only: Annotated[
        bool, typer.Option("--verified-only", help="Treat recalled facts as unknown: only documented facts pass.")
    ] = False,
    power_limit: PowerLimitOpt = None,
    workload: workplan.WorkloadOpt = None,
    circuit: workplan.CircuitOpt = None,
    headroom: workplan.HeadroomOpt = DEFAULT_HEADROOM,
    models: workplan.ModelsFileOpt = None,
) -> None:
    """Propose the cheapest valid build that can scale to N GPUs (exact, over the whole catalog)."""
    day = parse_date(as_of, "--as-of")
    if str(format) == "html":
        check_output(output)
    if start_gpus > gpus:
        fail_input(InputError(f"--start-gpus {start_gpus} is more than --gpus {gpus}"))
    request = Request(
        gpus=gpus,
        start_gpus=start_gpus,
        budget=budget,
        gpu=gpu,
        min_vram=min_vram,
        min_storage_gb=min_storage,
        require=_pins(require or []),
        exclude=tuple(exclude or []),
        as_of=day,
        stale_days=stale_days,
        objective=objective.value,
        top=top,
        strict=strict,
        allow_unknown=allow_unknown,
        power_limit_w=power_limit,
    )

    wall = workplan.parse_circuit(circuit)
    if workload is not None:
        workplan.run_workload(request, workload, wall, headroom, models, (catalog, parts), str(format), output)
        return

    def run() -> tuple[Solution, Report | None]:
        rules = load_rules()
        cat = load_catalog_once(catalog, parts)
        if verified_only:  # recalled facts unknown; parts that cannot be without one are left out
            cat = verified_catalog(cat, drop_unverifiable=True)
        solution = solve(cat, rules, request)
        # The chosen build's full report: its warnings and, with --allow-unknown, its unknowns.
        best = marked(solution.choices[0].build, cat) if solution.choices else None
        report = evaluate(best, rules, as_of=solution.as_of, verified_only=verified_only) if best else None
        return solution, report

    solution, report = guarded(run)
    if wall is not None:  # the report again, with wall-circuit on the named circuit
        report = guarded(lambda: workplan.report_of(solution, wall, verified_only=verified_only))
    if str(format) == "html":  # the page goes to --output (or stdout); no build file
        emit(SUGGEST_FORMATS["html"](solution, report), output)
        raise typer.Exit(solution.exit_code)
    typer.echo(SUGGEST_FORMATS[str(format)](solution, report))
    if wall is not None and str(format) == "text":
        typer.echo(workplan.circuit_lines(solution, wall))
    if solution.exit_code:
        raise typer.Exit(solution.exit_code)
    if cost:
        from partpicker.cli import cost as cost_cli

        typer.echo("")
        typer.echo(guarded(lambda: cost_cli.for_suggestion(solution)))
    if output is not None:
        guarded(lambda: write_atomically(output, build_file(solution)))


def register(app: typer.Typer) -> None:
    """Add the command to the app."""
    app.command()(suggest)
