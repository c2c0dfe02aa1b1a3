"""Dated cloud GPU rates by GPU class (``cloud/rates.yaml``), and which one a comparison uses.

The file lists on-demand list prices, USD per GPU-hour, each with its provider, instance,
date and source (docs/cost.md, "Which cloud GPU"). :func:`choose_rate` picks one:

- **the class**: the one asked for; else the smallest class known on the day (one with a rate
  dated on or before it) whose memory holds the build's GPU (``vram_gb``), the largest known
  class when none does. Before any class but the V100 had a rate, that is the article's V100.
- **the rate** of that class: the cheapest dated within :data:`CURRENT_DAYS` of the newest one
  on or before the day; with none on or before the day, the oldest one, and a note says so.

Pure: the file in, frozen values out, :class:`InputError` on bad input.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from partpicker import yamlio
from partpicker.errors import InputError, SettingError
from partpicker.models import Day, Strict
from partpicker.paths import cloud_dir

CURRENT_DAYS = 365
"""Rates of a class dated within this many days of its newest one are current (the same
window as part prices' ``--stale-days``); the cheapest current one is used."""

RateKind = Literal["maker", "database", "article", "recalled"]
"""How a rate reached the file: the provider's page read directly, a dated transcription of it,
quoted by the article, or recalled from a named document (with a note)."""


class GpuClass(Strict):
    """A GPU one rents by the hour."""

    id: str = Field(min_length=1, description="What --cloud-gpu names: V100, A100-40GB, ...")
    name: str = Field(min_length=1)
    vram_gb: int = Field(gt=0, description="Memory of one GPU, GB.")


class RateEntry(Strict):
    """One dated on-demand rate of one class at one provider."""

    gpu_class: str = Field(min_length=1)
    provider: str = Field(min_length=1)
    instance: str = Field(min_length=1)
    gpus: int = Field(ge=1, le=64, description="GPUs in the smallest instance sold at this rate.")
    usd_per_gpu_hour: float = Field(gt=0, lt=1000)
    date: Day
    date_precision: Literal["day", "year"] = "day"
    kind: RateKind
    source: str = Field(min_length=1)
    note: str | None = Field(None, min_length=1)

    @model_validator(mode="after")
    def _note_for_recalled(self) -> RateEntry:
        if self.kind == "recalled" and self.note is None:
            raise ValueError("a recalled rate needs a note naming the document it is recalled from")
        return self

    @property
    def date_text(self) -> str:
        return str(self.date.year) if self.date_precision == "year" else self.date.isoformat()


class RateTable(Strict):
    """The whole file: the classes, and the rates of each."""

    classes: list[GpuClass] = Field(min_length=1)
    rates: list[RateEntry] = Field(min_length=1)

    @model_validator(mode="after")
    def _known_classes(self) -> RateTable:
        ids = [c.id for c in self.classes]
        if len(set(ids)) != len(ids):
            raise ValueError("a class id appears twice")
        unknown = sorted({r.gpu_class for r in self.rates} - set(ids))
        if unknown:
            raise ValueError(f"rates of unknown class(es) {', '.join(unknown)}; classes: {', '.join(ids)}")
        return self

    def of(self, gpu_class: str) -> list[RateEntry]:
        return [r for r in self.rates if r.gpu_class == gpu_class]


@dataclass(frozen=True)
class CloudRate:
    """The rate a comparison uses, and where it comes from (shown beside the result)."""

    usd_per_gpu_hour: float
    source: str
    kind: str
    """A :data:`RateKind`, or ``given`` for a rate the user gave."""
    gpu_class: str | None = None
    provider: str | None = None
    instance: str | None = None
    gpus_per_instance: int | None = None
    date: dt.date | None = None
    date_text: str | None = None
    why: str = ""
    """How the class and the rate were chosen, in words."""
    notes: tuple[str, ...] = ()


def given(usd_per_gpu_hour: float, gpu_class: str | None = None) -> CloudRate:
    """A rate the user states (``--cloud-rate``)."""
    return CloudRate(usd_per_gpu_hour, source="given by the user", kind="given", gpu_class=gpu_class, why="given")


def rates_file() -> Path:
    """The bundled rates, ``cloud/rates.yaml``."""
    return cloud_dir() / "rates.yaml"


def load_rates(path: Path | None = None) -> RateTable:
    """The rates file (default: the bundled one); a syntax or schema problem is an :class:`InputError`."""
    return _load(path or rates_file())


@cache
def _load(path: Path) -> RateTable:
    return yamlio.read_model(
        path,
        RateTable,
        what="cloud rates file",
        hint="the format is described at the top of cloud/rates.yaml (docs/cost.md)",
    )


def find_class(table: RateTable, name: str) -> GpuClass:
    """The class called ``name`` (any case), or an error listing the classes."""
    for c in table.classes:
        if c.id.lower() == name.strip().lower():
            return c
    ids = ", ".join(c.id for c in table.classes)
    raise SettingError(
        "cloud_gpu",
        f"no cloud GPU class {name!r}",
        flag_what=f" {name!r}: no such cloud GPU class",
        hint=f"classes with dated rates: {ids}",
    )


def _known_on(table: RateTable, day: dt.date) -> list[GpuClass]:
    """The classes with a rate dated on or before ``day``."""
    return [c for c in table.classes if any(r.date <= day for r in table.of(c.id))]


def class_for(table: RateTable, day: dt.date, vram_gb: float | None) -> tuple[GpuClass, str]:
    """The class a buyer of a card with ``vram_gb`` would otherwise rent on ``day``, and why."""
    known = _known_on(table, day)
    if not known:
        first = min(table.rates, key=lambda r: r.date)
        return find_class(table, first.gpu_class), f"no cloud rate is known on or before {day}: the oldest"
    by_size = sorted(known, key=lambda c: c.vram_gb)  # stable: the file's order breaks ties
    if vram_gb is None:
        return by_size[0], f"the GPU's memory is unknown: the smallest class rented on {day}"
    holds = [c for c in by_size if c.vram_gb >= vram_gb]
    if holds:
        c = holds[0]
        return c, f"the smallest class rented on {day} that holds the GPU's {vram_gb:g} GB"
    c = next(x for x in by_size if x.vram_gb == by_size[-1].vram_gb)  # ties: the file's first
    return c, f"no class rented on {day} holds the GPU's {vram_gb:g} GB: the largest"


def rate_of(table: RateTable, gpu_class: GpuClass, day: dt.date) -> tuple[RateEntry, tuple[str, ...]]:
    """The cheapest current rate of ``gpu_class`` on ``day`` (see the module), with notes."""
    rates = table.of(gpu_class.id)
    if not rates:
        raise InputError(f"cloud GPU class {gpu_class.id} has no rate in the rates file", path=rates_file())
    before = [r for r in rates if r.date <= day]
    if not before:
        oldest = min(rates, key=lambda r: (r.date, r.usd_per_gpu_hour))
        note = f"no {gpu_class.id} rate is known on or before {day}: the oldest, dated {oldest.date_text}, is used"
        return oldest, (note,)
    newest = max(r.date for r in before)
    current = [r for r in before if (newest - r.date).days <= CURRENT_DAYS]
    best = min(current, key=lambda r: (r.usd_per_gpu_hour, -r.date.toordinal()))
    notes: list[str] = []
    age = (day - best.date).days
    if age > CURRENT_DAYS:
        notes.append(f"the cloud rate is {age} days old on {day}: newer rates may differ")
    if best.gpus > 1:
        notes.append(f"{best.provider} sells this rate in {best.gpus}-GPU instances only")
    return best, tuple(notes)


def choose_rate(
    day: dt.date, *, vram_gb: float | None = None, gpu_class: str | None = None, table: RateTable | None = None
) -> CloudRate:
    """The cloud rate to compare a build with on ``day``: of ``gpu_class`` if given, else of
    the class its GPU's memory calls for (see the module)."""
    table = table or load_rates()
    if gpu_class is not None:
        chosen, why = find_class(table, gpu_class), "the class asked for"
    else:
        chosen, why = class_for(table, day, vram_gb)
    entry, notes = rate_of(table, chosen, day)
    return CloudRate(
        usd_per_gpu_hour=entry.usd_per_gpu_hour,
        source=entry.source,
        kind=entry.kind,
        gpu_class=chosen.id,
        provider=entry.provider,
        instance=entry.instance,
        gpus_per_instance=entry.gpus,
        date=entry.date,
        date_text=entry.date_text,
        why=why,
        notes=notes,
    )
