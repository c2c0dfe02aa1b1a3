"""`partpicker models` and `partpicker fit`: the models it knows, and a workload's memory per GPU."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from partpicker.cli.common import CatalogOpt, PartsOpt, fail_input, guarded, load_catalog_once
from partpicker.errors import InputError
from partpicker.models import Gpu
from partpicker.suggest.offer import gpu_model
from partpicker.workload import (
    DEFAULT_HEADROOM,
    GpuOption,
    ModelCatalog,
    SplitError,
    Workload,
    fit_options,
    load_models,
    model_rows,
    plan,
)
from partpicker.workload import fit as fit_workload
from partpicker.workload.formats import FIT_FORMATS, MODEL_FORMATS, FitView
from partpicker.workplan.gpus import gpu_options

ModelFormat = StrEnum("ModelFormat", {name: name for name in MODEL_FORMATS})  # type: ignore[misc]
FitFormat = StrEnum("FitFormat", {name: name for name in FIT_FORMATS})  # type: ignore[misc]


class TaskOpt(StrEnum):
    serve = "serve"
    full = "full"
    lora = "lora"
    qlora = "qlora"


ModelsOpt = Annotated[
    list[Path] | None,
    typer.Option("--models", help="A models file of your own (repeatable): adds models, replaces by id."),
]


def load_model_catalog(overlays: list[Path] | None) -> ModelCatalog:
    """The bundled models with the user's files on top (bad files: exit 2 naming file and line)."""
    return guarded(lambda: load_models(overlays=overlays or []))


def models(
    format: Annotated[ModelFormat, typer.Option("--format", "-f", help="Output format.")] = "text",  # type: ignore[assignment]
    overlays: ModelsOpt = None,
) -> None:
    """List the models partpicker can size, with the config each comes from."""
    typer.echo(MODEL_FORMATS[str(format)](model_rows(load_model_catalog(overlays))))


def _workload(catalog: ModelCatalog, **fields: object) -> Workload:
    name = str(fields["model"])
    spec = catalog.get(name)
    if spec is None:
        fail_input(InputError(f"unknown model {name!r}", hint="`partpicker models` lists them; --models adds yours"))
    try:
        return Workload.model_validate({**fields, "model": spec.id})
    except ValueError as exc:
        first = exc.errors()[0]["msg"] if hasattr(exc, "errors") else str(exc)
        fail_input(InputError(f"workload: {first.removeprefix('Value error, ')}"))


def _gpu(name: str, catalog: CatalogOpt, parts: PartsOpt) -> GpuOption:
    cards = [c for c in guarded(lambda: gpu_model(load_catalog_once(catalog, parts), name)) if isinstance(c, Gpu)]
    sizes = sorted({c.vram_gb for c in cards if c.vram_gb is not None})
    if not sizes:
        fail_input(InputError(f"--gpu {name}: the catalog does not know its memory", hint="use --vram GB"))
    return GpuOption(cards[0].chip, sizes[0])


def fit(
    model: Annotated[str, typer.Argument(help="Model id, name or alias (`partpicker models`).", show_default=False)],
    task: Annotated[TaskOpt, typer.Option(help="Serve it, or fine-tune it (full, LoRA, QLoRA).")] = TaskOpt.serve,
    precision: Annotated[
        str | None, typer.Option(help="Weights: bf16, fp8, int8, q4 (Q4_K_M), awq, gptq, nf4, ...")
    ] = None,
    seq: Annotated[int | None, typer.Option(min=1, help="Training: tokens per sample (default 2048).")] = None,
    batch: Annotated[
        int | None, typer.Option(min=1, help="Training: samples per step, micro-batch (default 1).")
    ] = None,
    ctx: Annotated[
        int | None, typer.Option(min=1, help="Serving: context per sequence, tokens (default 4096).")
    ] = None,
    users: Annotated[int | None, typer.Option(min=1, help="Serving: concurrent sequences (default 1).")] = None,
    kv: Annotated[
        str | None, typer.Option(help="Serving: KV-cache format (bf16, fp8, q8_0, q4_0; default bf16).")
    ] = None,
    gpu: Annotated[str | None, typer.Option(help="A GPU model of the catalog, e.g. 'RTX 3090'.")] = None,
    vram: Annotated[float | None, typer.Option(min=1, help="Or a card size in GiB.")] = None,
    gpus: Annotated[int, typer.Option(min=1, max=8, help="Cards to split it over.")] = 1,
    headroom: Annotated[float, typer.Option(min=0, max=0.9, help="Share of each card left free.")] = DEFAULT_HEADROOM,
    overlays: ModelsOpt = None,
    catalog: CatalogOpt = None,
    parts: PartsOpt = None,
    format: Annotated[FitFormat, typer.Option("--format", "-f", help="Output format.")] = "text",  # type: ignore[assignment]
) -> None:
    """Show a workload's memory on each card; with --gpu or --vram, whether it fits (exit 1 if not)."""
    serving = {"--ctx": ctx, "--users": users, "--kv": kv}
    _no_ignored_options(task, {"--seq": seq, "--batch": batch}, serving, gpu, vram)
    models_ = load_model_catalog(overlays)
    fields: dict[str, object] = {
        "task": task.value,
        "model": model,
        "weights": precision or "",
        "kv_dtype": kv or "bf16",
    }
    fields |= {"seq": seq or 2048, "batch": batch or 1, "context": ctx or 4096, "users": users or 1}
    workload = _workload(models_, **fields)
    spec = models_[workload.model]
    try:
        memory = plan(workload, spec, gpus)
    except SplitError as exc:
        fail_input(InputError(f"{spec.id} on {gpus} cards: {exc}", hint="try another --gpus"))
    option = _gpu(gpu, catalog, parts) if gpu else GpuOption(f"{vram:g} GiB card", vram) if vram else None
    if option is None:
        holds = fit_options(
            workload, guarded(lambda: gpu_options(load_catalog_once(catalog, parts))), [gpus], model=spec
        )
        view = FitView(spec, memory, None, tuple(GpuOption(r.gpu, r.vram_gb) for r in holds))
    else:
        result = fit_workload(workload, option.vram_gb, gpus, headroom=headroom, gpu=option.name, model=spec)
        view = FitView(spec, memory, result)
    typer.echo(FIT_FORMATS[str(format)](view))
    if view.fits is False:
        raise typer.Exit(1)


def _no_ignored_options(
    task: TaskOpt,
    training: dict[str, int | None],
    serving: dict[str, int | str | None],
    gpu: str | None,
    vram: float | None,
) -> None:
    """Exit 2 for an option the task would ignore (--seq when serving, --ctx when training),
    or both --gpu and --vram."""
    ignored = serving if task.value != "serve" else training
    given = [name for name, value in ignored.items() if value is not None]
    if given:
        uses = "--ctx, --users and --kv" if task.value == "serve" else "--seq and --batch"
        verb = "does" if len(given) == 1 else "do"
        fail_input(InputError(f"{', '.join(given)} {verb} not apply to --task {task.value}", hint=f"it uses {uses}"))
    if gpu is not None and vram is not None:
        fail_input(InputError("give --gpu or --vram, not both", hint="--vram sizes a card that is not in the catalog"))


def register(app: typer.Typer) -> None:
    """Add the commands to the app."""
    app.command()(models)
    app.command()(fit)
