"""Formats of `partpicker models` and `partpicker fit`: text and JSON, registered by name."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from partpicker.workload.fit import FitResult, GpuOption
from partpicker.workload.memory import GIB, CardMemory, MemoryPlan
from partpicker.workload.models import ModelSpec, param_counts

COLUMNS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "adapter", "overhead", "total")
HEADERS = ("weights", "KV cache", "activ.", "grads", "optimizer", "adapter", "overhead", "total")


@dataclass(frozen=True)
class FitView:
    """What `fit` shows: the per-card plan, the verdict on a named GPU (if one was given),
    and the catalog's GPU models that hold the workload at this card count."""

    model: ModelSpec
    plan: MemoryPlan
    result: FitResult | None
    holds_on: tuple[GpuOption, ...] = ()

    @property
    def fits(self) -> bool | None:
        return None if self.result is None else self.result.fits


def _layers(card: CardMemory) -> str:
    lo, hi = card.layers
    return f"{lo}-{hi - 1}"


def _card_row(card: CardMemory, usable: float | None) -> str:
    gib = card.gib()
    cells = "".join(f"{gib[c]:>10.2f}" for c in COLUMNS)
    share = f"{card.total / GIB / usable:>9.0%}" if usable else ""
    return f"  {card.card:>4}  {_layers(card):>7}{cells}{share}"


def _fit_head(view: FitView) -> list[str]:
    plan, result, model = view.plan, view.result, view.model
    counts = param_counts(model)
    where = f"{plan.n_gpus} x {result.gpu} ({result.vram_gb:g} GiB)" if result else f"{plan.n_gpus} card(s)"
    usable = f"; last column: share of the {result.usable_gib:.1f} GiB usable" if result else ""
    return [
        plan.workload.describe(),
        f"{model.name}: {counts.total / 1e9:.2f}B parameters ({model.source}); on {where}, {plan.strategy}",
        "",
        f"  GiB per card{usable}",
        f"  {'card':>4}  {'layers':>7}" + "".join(f"{h:>10}" for h in HEADERS) + (f"{'used':>9}" if result else ""),
    ]


def _holds(plan: MemoryPlan) -> list[str]:
    """What the cards hold beyond their layers (once under tensor parallel: every card alike)."""
    if plan.n_gpus == 1:
        return []
    cards = plan.cards[:1] if plan.strategy == "tensor" else plan.cards
    return [f"  card {c.card} also holds: {', '.join(c.holds)}" for c in cards if c.holds]


def _verdict(view: FitView) -> list[str]:
    result, n = view.result, view.plan.n_gpus
    if result is not None:
        return [f"{'FITS' if result.fits else 'DOES NOT FIT'}: {result.reason.split(': ', 1)[-1]}"]
    if view.holds_on:
        names = ", ".join(f"{g.name} ({g.vram_gb:g} GiB)" for g in view.holds_on)
        return [f"GPU models of the catalog that hold it on {n} card(s): {names}"]
    return [f"No GPU model of the catalog holds it on {n} card(s) (10% headroom)."]


def fit_text(view: FitView) -> str:
    usable = view.result.usable_gib if view.result else None
    out = _fit_head(view) + [_card_row(card, usable) for card in view.plan.cards] + _holds(view.plan)
    out += ["", *_verdict(view), *(f"note: {n}" for n in view.plan.notes)]
    return "\n".join(out)


def fit_json(view: FitView) -> str:
    plan, result = view.plan, view.result
    doc = {
        "workload": plan.workload.describe(),
        "model": view.model.id,
        "n_gpus": plan.n_gpus,
        "strategy": plan.strategy,
        "unit": "GiB",
        "cards": [{"card": c.card, "layers": list(c.layers), "holds": list(c.holds), **c.gib()} for c in plan.cards],
        "peak_gib": round(plan.peak_gib, 2),
        "gpu": None if result is None else result.gpu,
        "vram_gb": None if result is None else result.vram_gb,
        "headroom": None if result is None else result.headroom,
        "usable_gib": None if result is None else round(result.usable_gib, 2),
        "fits": view.fits,
        "reason": None if result is None else result.reason,
        "holds_on": [{"gpu": g.name, "vram_gb": g.vram_gb} for g in view.holds_on],
        "notes": list(plan.notes),
    }
    return json.dumps(doc, indent=2)


def models_text(rows: Sequence[dict[str, object]]) -> str:
    head = f"{'id':<30} {'params':>8} {'layers':>6} {'hidden':>6} {'heads':>7} {'context':>8}  source"
    out = [head]
    for r in rows:
        size = f"{r['params_b']}B"
        if r["experts"]:
            size += f" ({r['active_params_b']}B active, {r['experts']} experts)"
        heads = f"{r['heads']}/{r['kv_heads']}"
        ctx = "?" if r["max_context"] is None else str(r["max_context"])
        out.append(
            f"{r['id']:<30} {size:>8} {r['layers']:>6} {r['hidden']:>6} {heads:>7} {ctx:>8}  "
            f"{r['source']} [{r['evidence']}]"
        )
    out.append(f"\n{len(rows)} models; heads = attention/KV heads. Formulas and sources: docs/workloads.md")
    return "\n".join(out)


def models_json(rows: Sequence[dict[str, object]]) -> str:
    return json.dumps(list(rows), indent=2)


FIT_FORMATS: dict[str, Callable[[FitView], str]] = {"text": fit_text, "json": fit_json}
MODEL_FORMATS: dict[str, Callable[[Sequence[dict[str, object]]], str]] = {"text": models_text, "json": models_json}
