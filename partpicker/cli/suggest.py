"""`partpicker suggest`: the provably cheapest valid build that scales to N GPUs."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from partpicker import output as write_output
from partpicker.catalog.load import gc_paused
from partpicker.catalog.overlay import marked
from partpicker.catalog.verified import verified_catalog
from partpicker.cli import workplan
from partpicker.cli.common import (
    MAX_STALE_DAYS,
    AllowBrokenOpt,
    AsOfOpt,
    CatalogOpt,
    PartsOpt,
    PowerLimitOpt,
    check_output,
    emit,
    fail_input,
    finite,
    guarded,
    load_catalog_once,
    parse_date,
)
from partpicker.errors import InputError
from partpicker.rules.rulebook import load_rules
from partpicker.suggest.formats import SUGGEST_FORMATS
from partpicker.suggest.offer import DEFAULT_STALE_DAYS, MIN_STORAGE_GB, Request
from partpicker.suggest.reduce import streamed_catalog

if TYPE_CHECKING:
    from partpicker.suggest.answer import Solution
    from partpicker.validate.report import Report

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
    """Write ``--output`` whole or not at all, through the one safe writer (:mod:`partpicker.output`)."""
    write_output.write_text(path, text, "--output")


def suggest(
    ctx: typer.Context,
    gpus: Annotated[int, typer.Option(min=1, max=16, help="GPUs the platform must be ready for.")] = 4,
    start_gpus: Annotated[int, typer.Option(min=1, max=16, help="GPUs bought now.")] = 1,
    budget: Annotated[
        float | None, typer.Option(min=0, callback=finite("--budget"), help="Cap on what is bought now, USD.")
    ] = None,
    gpu: Annotated[str | None, typer.Option(help="Pin a GPU model (e.g. 'RTX 3090') or card.")] = None,
    min_vram: Annotated[
        float,
        typer.Option(
            min=0, callback=finite("--min-vram", high=1024), help="Least VRAM per card, GB (when --gpu is not given)."
        ),
    ] = 11.0,
    min_storage: Annotated[int, typer.Option(min=0, help="Least boot-drive capacity, GB.")] = MIN_STORAGE_GB,
    require: Annotated[list[str] | None, typer.Option(help="Pin a part: ROLE=NAME (repeatable).")] = None,
    exclude: Annotated[list[str] | None, typer.Option(help="Drop a part by id or name (repeatable).")] = None,
    as_of: AsOfOpt = None,
    stale_days: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_STALE_DAYS,
            help=f"Offer only parts priced within this many days (default {DEFAULT_STALE_DAYS}: five years; "
            f"{MAX_STALE_DAYS} for any age).",
        ),
    ] = DEFAULT_STALE_DAYS,
    catalog: CatalogOpt = None,
    parts: PartsOpt = None,
    objective: Annotated[
        ObjectiveOpt, typer.Option(help="Minimise the price now, or at full scale.")
    ] = ObjectiveOpt.now,
    top: Annotated[
        int, typer.Option(min=1, max=20, help="List the K cheapest builds, each with another CPU, board or GPU.")
    ] = 1,
    strict: Annotated[bool, typer.Option(help="Enforce warning rules too.")] = False,
    allow_unknown: Annotated[
        bool,
        typer.Option(help="Answer with the cheapest build not known to fail, even when a proven one exists."),
    ] = False,
    format: Annotated[SuggestFormat, typer.Option("--format", "-f", help="Output format.")] = "text",  # type: ignore[assignment]
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="Write the best build as a build file here (with --format html: the page)."
        ),
    ] = None,
    cost: Annotated[bool, typer.Option("--cost", help="Also show what it saves against the cloud.")] = False,
    allow_broken_catalog: AllowBrokenOpt = False,
    verified_only: Annotated[
        bool, typer.Option("--verified-only", help="Treat recalled facts as unknown: only documented facts pass.")
    ] = False,
    power_limit: PowerLimitOpt = None,
    psus: Annotated[
        int,
        typer.Option("--psus", min=1, max=2, help="PSUs of one model (2: a dual-PSU build; the case must mount both)."),
    ] = 1,
    workload: workplan.WorkloadOpt = None,
    circuit: workplan.CircuitOpt = None,
    headroom: workplan.HeadroomOpt = workplan.DEFAULT_HEADROOM,
    models: workplan.ModelsFileOpt = None,
) -> None:
    """Propose the cheapest valid build that can scale to N GPUs (exact, over the whole catalog)."""
    day = parse_date(as_of, "--as-of")
    _check_target(str(format), output)
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
        verified_only=verified_only,
        power_limit_w=power_limit,
        psus=psus,
    )

    wall = workplan.parse_circuit(circuit)
    if workload is not None:
        given = workplan.given_options(ctx, ("gpus", "start_gpus", "min_vram"))
        workplan.run_workload(
            request,
            workload,
            wall,
            headroom,
            models,
            (catalog, parts, allow_broken_catalog),
            (str(format), output),
            given,
        )
        return

    def run() -> tuple[Solution, Report | None]:
        rules = load_rules()
        # A JSON Lines catalog is read streaming, keeping only what this request can choose
        # (by several processes: this one imports the solver once it has read its share).
        with gc_paused():  # frozen before the collector runs again, which would walk it once more
            cat = streamed_catalog(catalog, rules, request, overlays=bool(parts), meanwhile=_prepare)
            if cat is not None:
                gc.freeze()  # as load_catalog_once: the catalog stays to the end
        if cat is None:
            cat = load_catalog_once(catalog, parts, allow_broken_catalog)
        if verified_only:  # recalled facts unknown; parts that cannot be without one are left out
            cat = verified_catalog(cat, drop_unverifiable=True)
        solve, evaluate = _solver()
        solution = solve(cat, rules, request)
        # The chosen build's full report: what came from the user's own files, and the page.
        best = marked(solution.choices[0].build, cat) if solution.choices else None
        report = evaluate(best, rules, as_of=solution.as_of, verified_only=verified_only) if best else None
        return solution, report

    solution, report = guarded(run)
    if wall is not None:  # the findings again, with wall-circuit on the named circuit
        from partpicker.suggest.answer import with_report

        report = guarded(lambda: workplan.report_of(solution, wall, verified_only=verified_only))
        solution = with_report(solution, report)
    fmt = str(getattr(format, "value", format))
    if fmt == "html":  # the page goes to --output (or stdout); no build file
        emit(SUGGEST_FORMATS["html"](solution, report), output)
        raise typer.Exit(solution.exit_code)
    costed = _cost(solution, fmt) if cost and solution.choices else None
    if output is not None and solution.choices:
        from partpicker.suggest.formats.build_file import build_file

        guarded(lambda: write_atomically(output, build_file(solution)))
    _echo(solution, report, fmt, costed, cost)
    if wall is not None and fmt == "text":
        emit(workplan.circuit_lines(solution, wall))
    if solution.exit_code:
        raise typer.Exit(solution.exit_code)


def _solver() -> tuple[Callable[..., Solution], Callable[..., Report]]:
    """The search and the validator (imported when first needed: networkx and the rules'
    checks are a fifth of a second of imports, which a large catalog's read hides)."""
    from partpicker.suggest.answer import solve
    from partpicker.validate.engine import evaluate

    return solve, evaluate


def _prepare() -> None:
    """What the search needs and a streamed read does not, made while another process reads:
    the solver's imports, and the part models' validators (pydantic builds one when first
    asked, and the search asks when it makes its first candidates' parts of their lines)."""
    from partpicker.models import CATEGORIES

    _solver()
    for model in CATEGORIES.values():
        model.model_rebuild()


def _check_target(fmt: str, output: Path | None) -> None:
    """Exit 2 before any work if ``--output`` (the page, or the build file) cannot be written."""
    if fmt == "html":
        check_output(output)
    elif output is not None:
        guarded(lambda: write_output.check_target(output, "--output"))


def _echo(solution: Solution, report: Report | None, fmt: str, costed: Any, cost: bool) -> None:
    """Print the answer; with --cost, its cost comparison (in JSON: in the one object)."""
    if fmt == "json":
        from partpicker.suggest.formats import json as suggest_json

        doc = suggest_json.as_dict(solution, report)
        if cost:
            doc["cost"] = costed
        emit(json.dumps(doc, indent=2, allow_nan=False))
        return
    emit(SUGGEST_FORMATS[fmt](solution, report))
    if solution.retry_as_of is not None:
        emit(f"  try --as-of {solution.retry_as_of}, or a larger --stale-days")
    if costed is not None:
        emit("")
        emit(costed)


def _cost(solution: Solution, fmt: str) -> Any:
    """What the best suggestion saves against the cloud: text, or a JSON-ready object; when the
    catalog lacks what the comparison needs, why (the answer still stands)."""
    from partpicker.cli import cost as cost_cli

    try:
        return cost_cli.for_suggestion(solution, as_json=fmt == "json")
    except InputError as exc:
        return {"error": exc.what} if fmt == "json" else f"Cost against the cloud: not computed: {exc.what}"


def register(app: typer.Typer) -> None:
    """Add the command to the app."""
    app.command()(suggest)
