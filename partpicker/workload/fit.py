"""Does a workload fit on N cards of a given memory size? Per card, with headroom.

``fit`` answers for one (vram, N); ``fit_grid`` for every candidate GPU and N in 1..8, and
``fit_options`` keeps the ones that fit, smallest total memory first (what ``suggest`` needs).
Nothing here prints; every result is a frozen dataclass.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from partpicker.workload.memory import GIB, RUNTIME_OVERHEAD_GIB, MemoryPlan, SplitError, Strategy, plan
from partpicker.workload.models import ModelCatalog, ModelSpec, load_models
from partpicker.workload.workload_spec import Workload

DEFAULT_HEADROOM = 0.10
"""Share of each card's memory left free: allocator fragmentation, spikes, the desktop."""

MAX_GPUS = 8


@dataclass(frozen=True)
class GpuOption:
    """A candidate GPU model: a name and its memory in GiB (the catalog's vram_gb)."""

    name: str
    vram_gb: float


@dataclass(frozen=True)
class FitResult:
    """The answer for one workload on ``n_gpus`` cards of ``vram_gb`` each."""

    workload: Workload
    model: str
    gpu: str
    vram_gb: float
    n_gpus: int
    headroom: float
    fits: bool
    plan: MemoryPlan | None  # None when the model cannot be split this way
    reason: str  # one sentence, with the numbers

    @property
    def usable_gib(self) -> float:
        """Memory per card the workload may use: vram x (1 - headroom)."""
        return self.vram_gb * (1 - self.headroom)

    @property
    def peak_gib(self) -> float | None:
        """The fullest card's need, or None without a plan."""
        return None if self.plan is None else self.plan.peak_gib

    @property
    def margin_gib(self) -> float | None:
        """usable - peak: negative when it does not fit."""
        peak = self.peak_gib
        return None if peak is None else self.usable_gib - peak

    @property
    def total_vram_gb(self) -> float:
        return self.vram_gb * self.n_gpus

    def per_card_gib(self) -> list[dict[str, float]]:
        """Each card's breakdown in GiB (empty without a plan)."""
        return [] if self.plan is None else [c.gib() for c in self.plan.cards]


@cache
def bundled_models() -> ModelCatalog:
    """The bundled model list, read once."""
    return load_models()


def _model(workload: Workload, model: ModelSpec | None, catalog: ModelCatalog | None) -> ModelSpec:
    if model is not None:
        return model
    return (catalog or bundled_models())[workload.model]


def fit(
    workload: Workload,
    vram_gb: float,
    n_gpus: int = 1,
    *,
    headroom: float = DEFAULT_HEADROOM,
    gpu: str = "",
    model: ModelSpec | None = None,
    catalog: ModelCatalog | None = None,
    strategy: Strategy | None = None,
    overhead_gib: float = RUNTIME_OVERHEAD_GIB,
) -> FitResult:
    """Whether ``workload`` fits on ``n_gpus`` cards of ``vram_gb`` GiB, leaving ``headroom`` free on each."""
    if not 0 <= headroom < 1:
        raise ValueError("headroom is a share of memory in [0, 1)")
    spec = _model(workload, model, catalog)
    usable = vram_gb * (1 - headroom)
    label = gpu or f"{vram_gb:g} GB card"
    try:
        memory = plan(workload, spec, n_gpus, strategy=strategy, overhead_gib=overhead_gib)
    except SplitError as err:
        return FitResult(workload, spec.id, label, vram_gb, n_gpus, headroom, False, None, str(err))
    peak = memory.peak
    need = peak.total / GIB
    fits = need <= usable
    verb = "fits" if fits else "does not fit"
    where = f"card {peak.card}" if n_gpus > 1 else "the card"
    reason = (
        f"{verb}: {where} needs {need:.1f} GiB of {usable:.1f} GiB usable "
        f"({vram_gb:g} GiB less {headroom:.0%} headroom), {memory.strategy} over {n_gpus}"
    )
    return FitResult(workload, spec.id, label, vram_gb, n_gpus, headroom, fits, memory, reason)


def fit_grid(
    workload: Workload,
    gpus: Sequence[GpuOption],
    counts: Iterable[int] = range(1, MAX_GPUS + 1),
    *,
    headroom: float = DEFAULT_HEADROOM,
    model: ModelSpec | None = None,
    catalog: ModelCatalog | None = None,
) -> list[FitResult]:
    """Every (gpu, N), fitting or not, smallest total memory first (then fewer cards, then name)."""
    spec = _model(workload, model, catalog)
    ns = list(counts)
    results = [fit(workload, g.vram_gb, n, headroom=headroom, gpu=g.name, model=spec) for g in gpus for n in ns]
    return sorted(results, key=lambda r: (r.total_vram_gb, r.n_gpus, r.gpu))


def fit_options(
    workload: Workload, gpus: Sequence[GpuOption], counts: Iterable[int] = range(1, MAX_GPUS + 1), **options: Any
) -> list[FitResult]:
    """The (gpu, N) options that fit, smallest total memory first (``options``: fit_grid's)."""
    return [r for r in fit_grid(workload, gpus, counts, **options) if r.fits]


def nearest_miss(results: Sequence[FitResult]) -> FitResult | None:
    """The option that fails by the least memory (for 'the next cheaper option and why not')."""
    misses = [r for r in results if not r.fits and r.margin_gib is not None]
    return max(misses, key=lambda r: r.margin_gib or 0.0, default=None)
