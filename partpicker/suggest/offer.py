"""What `suggest` may choose from: the request, and each role's parts priced as of a date."""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from partpicker.build import ROLES
from partpicker.catalog import Catalog
from partpicker.errors import SettingError
from partpicker.models import Part
from partpicker.pricing import fresh_price, kind_of

Objective = Literal["now", "full"]
SCALED_ROLES = ("gpu",)
"""Roles whose count the request sets: ``start_gpus`` bought now, ``gpus`` at full scale."""
VARIETY_ROLES = ("cpu", "motherboard", "gpu")
"""``--top K``: each build differs from every earlier one in at least one of these parts."""


MIN_STORAGE_GB = 500
"""`suggest --min-storage`'s default: the least boot-drive capacity, GB."""
DEFAULT_STALE_DAYS = 1826
"""`suggest`'s default --stale-days: parts priced within five years of the date asked. A
price older than that (a 2017 street price asked in 2026) is not an offer of today: the part
is left out, unless --stale-days allows it (36500: any age)."""


@dataclass(frozen=True)
class Request:
    """What the user asked for."""

    gpus: int = 4
    start_gpus: int = 1
    budget: float | None = None
    gpu: str | None = None
    min_vram: float = 11.0
    min_storage_gb: int = 0
    require: dict[str, str] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    as_of: dt.date | None = None
    stale_days: int | None = None
    """Offer only parts priced within this many days (None: each part's newest price, however old)."""
    objective: Objective = "now"
    top: int = 1
    strict: bool = False
    allow_unknown: bool = False
    enforce: tuple[str, ...] = ()
    """Warning rules enforced as errors (the builder's pick: gpu-cooling, ram-capacity)."""
    verified_only: bool = False
    """Recalled facts count as unknown (the catalog given is already :func:`verified_catalog`)."""
    power_limit_w: int | None = None
    """A power limit per GPU the user will set (psu-wattage and wall-circuit use it)."""
    profile: str = "dl-workstation"
    roles: tuple[str, ...] = ROLES
    psus: int = 1
    """Units of the chosen PSU model (2: a dual-PSU build, ``psu: {part: X, count: 2}``)."""

    def bought_now(self, role: str) -> int:
        """How many of the part in ``role`` are bought now (GPUs: ``start_gpus``)."""
        return self.start_gpus if role in SCALED_ROLES else self._units(role)

    def at_full_scale(self, role: str) -> int:
        """How many of the part in ``role`` the build has at full scale (GPUs: ``gpus``)."""
        return self.gpus if role in SCALED_ROLES else self._units(role)

    def _units(self, role: str) -> int:
        return self.psus if role == "psu" else 1

    def weight(self, role: str) -> int:
        """How many of the part in ``role`` the objective pays for."""
        return self.bought_now(role) if self.objective == "now" else self.at_full_scale(role)

    def counts(self, roles: Iterable[str]) -> dict[str, int]:
        """The counts bought now of ``roles``, for :meth:`Build.of`."""
        return {role: self.bought_now(role) for role in roles}


@dataclass(frozen=True, slots=True)
class Priced:
    """A part (or the slim record of one: :meth:`Catalog.entries`) with the price used."""

    part: Part
    usd: float
    """The unit price."""
    date: dt.date
    kind: str = "street"


def offer(catalog: Catalog, request: Request, day: dt.date) -> dict[str, list[Priced]]:
    """Each role's purchasable parts as of ``day``, after exclusions and pins."""
    excluded = {_resolve_any(catalog, name).id for name in request.exclude}
    pinned = _pinned(catalog, request)
    out: dict[str, list[Priced]] = {}
    for role in request.roles:
        pins = frozenset(pinned[role]) if role in pinned else None
        key = ("offer", role, day, request.stale_days, frozenset(excluded), pins, _size_key(role, request))
        items: list[Priced] | None = catalog.memo.get(key)
        if items is None:  # the same list for every search of one catalog that asks alike
            items = catalog.memo[key] = []
            for priced in priced_parts(catalog, role, day, request.stale_days):
                part = priced.part
                if part.id in excluded or (pins is not None and part.id not in pins):
                    continue
                if big_enough(part, role, request):
                    items.append(priced)
        out[role] = items
    return out


def _size_key(role: str, request: Request) -> tuple[Any, ...]:
    """What :func:`big_enough` reads of the request for ``role``."""
    if role == "gpu":
        return (bool(request.gpu) or role in request.require, request.min_vram)
    return (request.min_storage_gb,) if role == "ssd" else ()


def priced_parts(catalog: Catalog, role: str, day: dt.date, stale_days: int | None) -> list[Priced]:
    """The parts of ``role`` with a price as of ``day`` (pydantic parts, or slim records of
    JSON Lines parts), found once per catalog (`suggest` searches more than once)."""
    key = priced_key(role, day, stale_days)
    found: list[Priced] | None = catalog.memo.get(key)
    if found is None:
        found = catalog.memo[key] = []
        for part in catalog.entries(role):
            point = fresh_price(part, day, stale_days)
            if point is not None:
                found.append(Priced(part, point.usd, point.date, kind_of(point)))
    return found


def priced_key(role: str, day: dt.date, stale_days: int | None) -> tuple[str, str, dt.date, int | None]:
    """Where in a catalog's memo :func:`priced_parts` keeps its list (a reduction leaves it there)."""
    return ("priced", role, day, stale_days)


def _pinned(catalog: Catalog, request: Request) -> dict[str, set[str]]:
    """The ids each pinned role is narrowed to (``require``, and ``gpu``: a model's cards)."""
    pinned: dict[str, set[str]] = {}
    for role, name in request.require.items():
        if role not in request.roles:
            raise SettingError(
                "require",
                f"required part {role}=...: unknown role",
                flag_what=f" {role}=...: unknown role",
                hint=f"roles: {', '.join(request.roles)}",
            )
        try:
            pinned[role] = {catalog.resolve(name, role).id}
        except LookupError as exc:
            raise SettingError(
                "require", f"required part {role}={name}: {exc}", flag_what=f" {role}={name}: {exc}"
            ) from None
    if request.gpu and "gpu" not in pinned:
        pinned["gpu"] = {p.id for p in gpu_model(catalog, request.gpu)}
    return pinned


def big_enough(part: Any, role: str, request: Request) -> bool:
    """Whether a card has ``min_vram`` (unless a GPU is pinned) and a drive ``min_storage_gb``
    (``part``: a :class:`Gpu` or :class:`Ssd`, or the slim record of one)."""
    if role == "gpu" and not request.gpu and role not in request.require:
        return part.vram_gb is not None and part.vram_gb >= request.min_vram
    return role != "ssd" or part.capacity_gb >= request.min_storage_gb


def gpu_model(catalog: Catalog, name: str) -> list[Part]:
    """Cards of a GPU model ("RTX 3090" matches every GeForce RTX 3090 board, not the 3090 Ti;
    "RTX 3060" the "GeForce RTX 3060 12GB" chip, a memory size being part of some chip names),
    or the one card a name resolves to."""
    of_model = gpu_model_test(name)
    cards: list[Part] = [g for g in catalog.entries("gpu") if of_model(g.chip)]
    if cards:
        return cards
    try:
        return [catalog.resolve(name, "gpu")]
    except LookupError as exc:
        raise SettingError("gpu", f"GPU model {name}: {exc}", flag_what=f" {name}: {exc}") from None


def gpu_model_test(name: str) -> Callable[[str], bool]:
    """Whether a card's chip is of the GPU model ``name`` (:func:`gpu_model`)."""
    from partpicker.catalog.resolve import norm  # (the name patterns: only for `--gpu`)

    model = re.compile(rf"(^| ){re.escape(norm(name))}( \d+gb)?$")

    @functools.cache
    def test(chip: str) -> bool:
        return model.search(norm(chip)) is not None

    return test


def _resolve_any(catalog: Catalog, name: str) -> Part:
    if name in catalog.parts:
        return catalog.parts[name]
    for category in catalog.by_category:
        try:
            return catalog.resolve(name, category)
        except LookupError:
            continue
    raise SettingError(
        "exclude",
        f"excluded part {name}: no part of any category matches",
        flag_what=f" {name}: no part of any category matches",
        hint="use a catalog id",
    )
