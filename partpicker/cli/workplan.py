"""`suggest --workload` and `--circuit`: the GPU model and count a workload needs, the cheapest
build for it, and its power plan on the wall circuit."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from partpicker.circuits import CIRCUITS, Circuit, circuit
from partpicker.cli.common import emit, fail_input, guarded, load_catalog_once
from partpicker.errors import InputError

if TYPE_CHECKING:
    from partpicker.build import Build
    from partpicker.suggest.answer import Solution
    from partpicker.suggest.offer import Request
    from partpicker.validate.report import Report
    from partpicker.workplan.answer import WorkAnswer

WorkloadOpt = Annotated[
    str | None,
    typer.Option(
        "--workload",
        help="Size the GPUs for a workload, e.g. 'serve qwen2.5-32b q4 ctx 16384 users 4' "
        "or 'qlora llama-3.1-70b seq 4096' (chooses the GPU model and the cards bought now; --gpus N: room for N).",
    ),
]
CircuitOpt = Annotated[
    str | None, typer.Option("--circuit", help=f"The wall circuit: {' | '.join(CIRCUITS)} (adds a power plan).")
]
DEFAULT_HEADROOM = 0.10
"""``partpicker.workload.DEFAULT_HEADROOM``, repeated so that `suggest` does not import the
workload models unless --workload is given (tests/test_cli_lazy.py holds them equal)."""
HeadroomOpt = Annotated[float, typer.Option(min=0, max=0.9, help="--workload: share of each card left free.")]
ModelsFileOpt = Annotated[list[Path] | None, typer.Option("--models", help="--workload: your own models file.")]


def given_options(ctx: typer.Context, names: tuple[str, ...]) -> frozenset[str]:
    """Which of ``names`` the user set (on the command line or from the environment), not defaults."""

    def given(name: str) -> bool:
        source = ctx.get_parameter_source(name)  # an enum of typer's click; compared by name
        return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")

    return frozenset(n for n in names if given(n))


def parse_circuit(name: str | None) -> Circuit | None:
    """The --circuit option, or exit 2 naming the known circuits."""
    return None if name is None else guarded(lambda: circuit(name))


def with_circuit(report_rules: dict[str, object], wall: Circuit | None) -> dict[str, object]:
    """A build's rule overrides with wall-circuit set to the circuit's continuous watts, and
    psu-wattage to its mains voltage (a PSU's low-line rating below 200 V)."""
    if wall is None:
        return report_rules
    label = f"{wall.name} ({wall.volts:g} V / {wall.amps:g} A)"
    out = _set(report_rules, "wall-circuit", {"max_wall_watts": round(wall.continuous_w), "circuit": label})
    return _set(out, "psu-wattage", {"mains_volts": round(wall.volts)})


def _set(rules: dict[str, object], rule: str, params: dict[str, object]) -> dict[str, object]:
    """``rules`` with ``params`` over the rule's own settings (a rule turned off stays off)."""
    current = rules.get(rule)
    if current is False or current == "off":
        return rules
    setting = dict(current) if isinstance(current, dict) else {}
    return {**rules, rule: {**setting, **params}}


def report_of(
    solution: Solution, wall: Circuit | None, *, verified_only: bool = False, build: Build | None = None
) -> Report | None:
    """The validate report of the suggested build (``build``: the build to report, e.g. with
    the second PSU a power plan adds; default: the solution's)."""
    from partpicker.rules.rulebook import load_rules
    from partpicker.validate.engine import evaluate

    if not solution.choices:
        return None
    build = build or solution.choices[0].build
    build = replace(build, rules=with_circuit(dict(build.rules), wall))
    return evaluate(build, load_rules(), as_of=solution.as_of, verified_only=verified_only)


def run_workload(
    request: Request,
    line: str,
    wall: Circuit | None,
    headroom: float,
    overlays: list[Path] | None,
    catalog: tuple[list[Path] | None, list[Path] | None, bool],
    target: tuple[str, Path | None],
    given: frozenset[str] = frozenset(),
) -> None:
    """Answer `suggest --workload LINE` on ``catalog`` (the --catalog and --parts files, and
    --allow-broken-catalog), print it in ``target``'s format, write its --output; exit 3 if the cheapest build is
    unproven, 1 without a build. With ``request.verified_only`` recalled facts are unknown, as in plain `suggest`.
    ``given``: the options the user set. --gpus N is room to grow (the build is ready for N cards or the number that
    holds the workload, whichever is more), --min-vram a least memory per card, and --start-gpus is refused: the
    workload sets the cards bought now."""
    from partpicker.catalog.verified import verified_catalog
    from partpicker.cli.workload import load_model_catalog
    from partpicker.rules.rulebook import load_rules
    from partpicker.workload import WorkloadSpecError, parse_workload
    from partpicker.workplan.answer import WorkRequest, answer
    from partpicker.workplan.formats import WORK_FORMATS, work_build_file

    models = load_model_catalog(overlays)
    try:
        workload = parse_workload(line, models)
    except WorkloadSpecError as exc:
        fail_input(InputError(f"--workload: {exc}", hint="e.g. 'serve qwen2.5-32b q4 ctx 16384 users 4'"))
    spec = models[workload.model]
    if "start_gpus" in given:
        fail_input(
            InputError(
                "--start-gpus cannot be used with --workload: the workload sets the cards bought now "
                "(the fewest that hold it)",
                hint="use --gpus N for a build with room for N cards",
            )
        )
    format, output = target
    req = WorkRequest(
        workload,
        spec,
        replace(request, top=1),
        headroom,
        wall,
        max(3, request.top),
        request.gpu,
        room_gpus=request.gpus if "gpus" in given else None,
        min_vram=request.min_vram if "min_vram" in given else None,
    )

    def run() -> tuple[WorkAnswer, Report | None]:
        cat = load_catalog_once(*catalog)
        if request.verified_only:  # recalled facts unknown, as plain suggest does
            cat = verified_catalog(cat, drop_unverifiable=True)
        found = answer(cat, load_rules(), req)
        best = found.options[0] if found.options else None
        only = request.verified_only
        report = report_of(best.solution, wall, build=best.build, verified_only=only) if best else None
        return found, report

    found, report = guarded(run)
    if format == "html":  # the page of the cheapest option goes to --output (or stdout), as plain suggest does
        if found.options:
            emit(WORK_FORMATS["html"](found, report), output)
        else:  # no build, no page: the reason, and nothing written
            typer.echo(WORK_FORMATS["text"](found, report), err=True)
        raise typer.Exit(found.exit_code)
    typer.echo(WORK_FORMATS[format](found, report))
    if output is not None and found.options and found.options[0].build is not None:
        from partpicker.cli.suggest import write_atomically

        # a proven build, or an unproven one (exit 3) with the same unknowns, as plain suggest writes
        guarded(lambda: write_atomically(output, work_build_file(found.options[0])))
    if found.exit_code:
        raise typer.Exit(found.exit_code)


def plan_text(build: Build, wall: Circuit, n_gpus: int | None = None) -> str:
    """A build's power plan at ``n_gpus`` (default: its target) on ``wall``, as text."""
    from partpicker.workplan.formats import power_lines
    from partpicker.workplan.power import power_plan

    return "\n".join(power_lines(power_plan(build, wall, n_gpus or build.target_gpus)))


def with_plan(report_text: str, fmt: str, build: Build, wall: Circuit) -> str:
    """A validate report with the build's power plan on ``wall``: appended to text, as the
    ``power_plan`` key of JSON (the same numbers)."""
    from partpicker.workplan.formats import power_doc
    from partpicker.workplan.power import power_plan

    if fmt == "text":
        return report_text + "\n" + plan_text(build, wall)
    doc = json.loads(report_text)
    doc["power_plan"] = power_doc(power_plan(build, wall, build.target_gpus))
    return json.dumps(doc, indent=2, allow_nan=False)


def circuit_lines(solution: Solution, wall: Circuit) -> str:
    """The power plan of plain `suggest`'s build at its --gpus, on --circuit."""
    return plan_text(solution.choices[0].build, wall, solution.request.gpus) if solution.choices else ""
