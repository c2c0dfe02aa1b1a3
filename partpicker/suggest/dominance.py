"""Dominance: a part that is dearer and no better on every spec a rule reads can never be in
the cheapest build (and, dominated K times by strictly cheaper parts, never in the K cheapest).

Each category maps a part to a *group* (specs that must be equal for one part to replace
another: socket, slot map, ...) and a *score* vector where larger is better on every
coordinate (lanes, cores, watts; negated for TDP, length, width). Unknown values score as
the worst possible, so a part with a gap never dominates one without.

The signatures read exactly the fields the rules declare in their ``reads:`` (error rules;
with ``strict``, warning rules too; with ``enforced``, those warning rules):
``tests/test_dominance.py`` proves it, so a rule that reads a new field fails that test
until its signature compares it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import msgspec
from pydantic import BaseModel

from partpicker import vocab
from partpicker.models import Case, Cooler, Cpu, Gpu, Motherboard, Part, Psu, Ram, Ssd

Signature = tuple[Hashable, tuple[float, ...]]


def freeze(value: Any) -> Hashable:
    """A hashable stand-in for a spec value (lists, dicts, models and records included: a
    pydantic model and the msgspec record of it freeze alike)."""
    if isinstance(value, BaseModel):
        return tuple(sorted((name, freeze(getattr(value, name))) for name in type(value).model_fields))
    if isinstance(value, msgspec.Struct):
        return tuple(sorted((name, freeze(getattr(value, name))) for name in value.__struct_fields__))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    plain: Hashable = value
    return plain


@dataclass(frozen=True)
class Scores:
    """How to score values. An unknown scores the worst when rules must pass (it never
    passes), the best when unknown is accepted (it then passes every rule that reads it).
    ``freeze`` makes nested specs (slot maps, power sockets) hashable (the search passes a
    memoised one)."""

    strict: bool = False
    unknown: float = float("-inf")
    freeze: Callable[[Any], Hashable] = freeze
    enforced: frozenset[str] = frozenset()
    """Warning rules that bind as errors (``strict``: all of them)."""
    asked: set[str] = field(default_factory=set, compare=False)
    """The warnings :meth:`binds` was asked about (what a signature's outcome depends on)."""
    unknowns: set[bool] = field(default_factory=set, compare=False)
    """Non-empty once :meth:`up` or :meth:`down` scored an unknown value."""

    def binds(self, warning: str) -> bool:
        """Whether the warning rule ``warning`` binds."""
        self.asked.add(warning)
        return self.strict or warning in self.enforced

    def up(self, value: float | None) -> float:
        """Larger is better."""
        if value is None:
            self.unknowns.add(True)
            return self.unknown
        return float(value)

    def down(self, value: float | None) -> float:
        """Smaller is better."""
        if value is None:
            self.unknowns.add(True)
            return self.unknown
        return -float(value)


def _cpu(p: Cpu, sc: Scores) -> Signature:
    group: tuple[Any, ...] = (p.socket, tuple(sorted(p.memory_types)), p.ecc)  # ecc: memory-compat's buffering
    if sc.binds("gpu-root-complex"):  # a warning: tells Zeppelin EPYC from later ones by PCIe gen
        group += (p.pcie_gen,)
    return group, (
        sc.up(p.pcie_lanes),
        sc.up(p.cores),
        sc.down(p.tdp_w),
        sc.up(p.max_memory_gb),
    )


def _board(p: Motherboard, sc: Scores) -> Signature:
    slots, m2 = sc.freeze(p.pcie_slots), sc.freeze(p.m2_slots)
    return (p.socket, p.form_factor, p.memory_type, p.memory_registered, slots, m2), (
        sc.up(p.memory_slots),
        sc.up(p.max_memory_gb),
    )


def _gpu(p: Gpu, sc: Scores) -> Signature:
    group: tuple[Any, ...] = (sc.freeze(p.power),)
    if sc.binds("gpu-cooling"):  # warnings bind only with --strict, or enforced
        group += (p.cooler,)
    if sc.binds("ram-capacity"):
        group += (p.vram_gb,)
    if sc.binds("gpu-p2p"):  # it reads the chip (GeForce or not)
        group += (p.chip,)
    return group, (sc.down(p.board_power_w), sc.down(p.slot_width), sc.down(p.length_mm))


def _psu(p: Psu, sc: Scores) -> Signature:
    eff = vocab.EFFICIENCY_AT_FULL_LOAD.get(p.efficiency or "") if sc.binds("wall-circuit") else 0.0
    watts = (float(p.watts), sc.up(p.low_line_watts))
    return (p.form_factor,), (*watts, sc.up(p.pcie_8pin), sc.up(p.hpwr_12v), sc.up(eff))


def _case(p: Case, sc: Scores) -> Signature:
    score: tuple[float, ...] = (sc.up(p.expansion_slots), sc.up(p.max_gpu_length_mm), sc.up(p.max_cooler_height_mm))
    if sc.binds("psu-case-mounts"):  # a warning: it binds only with --strict, or enforced
        score += (sc.up(p.psu_mounts),)
    return (frozenset(p.form_factors), frozenset(p.psu_form_factors)), score


def _ram(p: Ram, sc: Scores) -> Signature:
    group: tuple[Any, ...] = (p.memory_type, p.registered)
    if sc.binds("ram-capacity"):
        group += (p.total_gb,)
    return group, (-float(p.modules), -float(p.total_gb))


def _ssd(p: Ssd, sc: Scores) -> Signature:
    return (p.interface, p.form_factor), ()


def _cooler(p: Cooler, sc: Scores) -> Signature:
    return (frozenset(p.sockets), frozenset(p.bracket_sockets)), (sc.down(p.height_mm),)


SIGNATURES: dict[str, Callable[[Any, Scores], Signature]] = {
    "cpu": _cpu,
    "motherboard": _board,
    "gpu": _gpu,
    "psu": _psu,
    "case": _case,
    "ram": _ram,
    "ssd": _ssd,
    "cooler": _cooler,
}


def _dominates(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    # A plain loop: twice as fast as all() over a generator, and this runs 10^5 times.
    for x, y in zip(a, b, strict=True):  # noqa: SIM110
        if x < y:
            return False
    return True


def _covered(frontier: list[tuple[tuple[float, ...], float]], score: tuple[float, ...]) -> bool:
    """Whether a score of ``frontier`` is at least ``score`` on every coordinate (equal scores
    included): :func:`_dominates` of each, inline (this runs for every part pruned)."""
    for kept, _ in frontier:
        for x, y in zip(kept, score, strict=True):
            if x < y:
                break
        else:
            return True
    return False


class _Pruned(NamedTuple):
    """What :func:`prune` kept of some parts, and what that outcome depended on."""

    parts: Sequence[tuple[Part, float]]
    """The parts it was asked (kept, so that the ids in the memo's key name them)."""
    asked: frozenset[str]
    """The warnings the signatures asked whether they bind."""
    enforced: frozenset[str]
    """Those of them that were enforced."""
    unknown_is_best: bool
    unknowns: bool
    """Whether any part scored an unknown value (else how unknowns score did not matter)."""
    kept: list[tuple[Part, float]]

    def answers(self, enforced: frozenset[str], unknown_is_best: bool) -> bool:
        """Whether pruning the same parts with these settings gives the same outcome: every
        signature is the same when each warning asked binds alike and no unknown was scored
        (or unknowns score alike)."""
        same_unknowns = not self.unknowns or unknown_is_best == self.unknown_is_best
        return same_unknowns and enforced & self.asked == self.enforced


def prune(
    parts: Sequence[tuple[Part, float]],
    category: str,
    *,
    keep: int = 1,
    strict: bool = False,
    enforced: frozenset[str] = frozenset(),
    unknown_is_best: bool = False,
    freezer: Callable[[Any], Hashable] = freeze,
    memo: MutableMapping[Hashable, list[_Pruned]] | None = None,
) -> list[tuple[Part, float]]:
    """Drop parts dominated by ``keep`` or more cheaper parts of the same group.

    ``parts`` are (part, price) pairs. With keep=1 a dominator may cost the same; with
    keep > 1 the dominators must have distinct prices below the part's, so that each gives
    a strictly cheaper distinct total.

    ``memo`` (a catalog's): the outcomes of earlier calls, found again for the same parts
    and settings that give the same signatures (`suggest`'s three searches prune most roles
    alike: the builder's pick enforces warnings that only the GPU's and RAM's signatures ask).
    """
    key: Hashable = None
    if memo is not None:
        key = ("dominance", category, keep, strict, tuple((id(part), price) for part, price in parts))
        for done in memo.get(key, ()):
            if done.answers(enforced, unknown_is_best):
                return list(done.kept)
    unknown = float("inf") if unknown_is_best else float("-inf")
    scores = Scores(strict=strict, unknown=unknown, freeze=freezer, enforced=enforced)
    out = _pruned(parts, category, keep, scores)
    if memo is not None:
        asked = frozenset(scores.asked)
        done = _Pruned(parts, asked, enforced & asked, unknown_is_best, bool(scores.unknowns), out)
        memo.setdefault(key, []).append(done)
        return list(out)
    return out


def _pruned(parts: Sequence[tuple[Part, float]], category: str, keep: int, scores: Scores) -> list[tuple[Part, float]]:
    """:func:`prune`, scored by ``scores``."""
    signature = SIGNATURES[category]
    kept: dict[Hashable, list[tuple[tuple[float, ...], float]]] = {}
    out: list[tuple[Part, float]] = []
    for part, price in sorted(parts, key=lambda pp: (pp[1], pp[0].id)):
        group, score = signature(part, scores)
        frontier = kept.setdefault(group, [])
        if keep == 1:
            dominated = _covered(frontier, score)
        else:
            cheaper = {p for s, p in frontier if p < price and _dominates(s, score)}
            dominated = len(cheaper) >= keep
        if not dominated:
            frontier.append((score, price))
            out.append((part, price))
    return out
