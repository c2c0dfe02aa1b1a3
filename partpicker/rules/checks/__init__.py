"""Rule checks: one module per rule, each registering one function under the rule's id.

A check reads the build through a :class:`Context` and returns an :class:`Outcome`:
a status and the numbers its message template shows. When a fact it needs is missing it
calls :meth:`Context.need`, which stops the check with status *unknown* naming the fact.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Hashable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypeVar, overload

from partpicker.build import Build
from partpicker.parts import Case, Cooler, Cpu, Gpu, Motherboard, Part, Psu, Ram, Ssd
from partpicker.rules import layout as layout_mod

T = TypeVar("T")


class Unknown(Exception):
    """A fact the check needs is not known; the rule reports *unknown*."""

    def __init__(self, missing: str) -> None:
        super().__init__(missing)
        self.missing = missing


@dataclass(frozen=True)
class Outcome:
    """What a check found: a status and the values its message shows."""

    status: str
    values: dict[str, Any] = field(default_factory=dict)


def passed(**values: Any) -> Outcome:
    return Outcome("pass", values)


def failed(**values: Any) -> Outcome:
    return Outcome("fail", values)


def unknown(missing: str, **values: Any) -> Outcome:
    return Outcome("unknown", {"missing": missing, **values})


def verdict(ok: bool, **values: Any) -> Outcome:
    return Outcome("pass" if ok else "fail", values)


def gpus(n: int) -> str:
    """``1 GPU``, ``4 GPUs``: how messages name the GPU count the rules are evaluated for."""
    return f"{n} GPU" if n == 1 else f"{n} GPUs"


@dataclass
class Context:
    """The build under check, the GPU count the rules are evaluated for, and parameters."""

    build: Build
    n_gpus: int
    params: dict[str, Any]
    _layouts: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    explain: bool = True  # False: the caller wants the status only, skip costly explanations

    @overload
    def part(self, role: Literal["cpu"]) -> Cpu: ...
    @overload
    def part(self, role: Literal["motherboard"]) -> Motherboard: ...
    @overload
    def part(self, role: Literal["gpu"]) -> Gpu: ...
    @overload
    def part(self, role: Literal["ram"]) -> Ram: ...
    @overload
    def part(self, role: Literal["ssd"]) -> Ssd: ...
    @overload
    def part(self, role: Literal["psu"]) -> Psu: ...
    @overload
    def part(self, role: Literal["case"]) -> Case: ...
    @overload
    def part(self, role: Literal["cooler"]) -> Cooler: ...
    def part(self, role: str) -> Part:
        """The build's (first) part in ``role``, typed by role; *unknown* if the build has none."""
        part = self.build.part(role)
        if part is None:
            raise Unknown(f"the build has no {role}")
        return part

    def need(self, part: Part, attr: str) -> Any:
        """``part.attr``; *unknown* if the catalog does not know it."""
        value = getattr(part, attr)
        if value is None:
            raise Unknown(f"{attr} of {part.name} ({part.id}) is not in the catalog")
        return value

    def layout(
        self, *, with_case: bool = True, n: int | None = None, known_only: bool = True
    ) -> layout_mod.Layout | None:
        """The best layout of the build's cards and M.2 drives (cached per question).

        ``known_only=False`` also tries M.2 slots whose lane sharing is unknown."""
        board = self.part("motherboard")
        gpu = self.part("gpu")
        self.need(board, "pcie_slots")
        width = self.need(gpu, "slot_width")
        cpu = self.build.cpu
        cpu_lanes = cpu.pcie_lanes if cpu is not None else None
        drives = [d for d in self.build.ssds if layout_mod.is_m2(d)]
        if drives:
            self.need(board, "m2_slots")
        case_slots = None
        if with_case:
            case_slots = self.need(self.part("case"), "expansion_slots")
        count = self.n_gpus if n is None else n
        min_lanes = layout_min_lanes(self.params)
        # Keyed by everything the layout depends on, so one cache can serve many builds.
        drive_kinds = tuple((d.interface, d.form_factor) for d in drives)
        key = (board.id, drive_kinds, count, width, cpu_lanes, case_slots, min_lanes, known_only)
        if key not in self._layouts:
            self._layouts[key] = layout_mod.best_layout(
                board,
                n=count,
                width=width,
                cpu_lanes=cpu_lanes,
                drives=drives,
                min_lanes=min_lanes,
                case_slots=case_slots,
                known_only=known_only,
            )
        result: layout_mod.Layout | None = self._layouts[key]
        return result


def layout_min_lanes(params: Mapping[str, Any]) -> int:
    """The lanes each card's slot must have in a layout (:meth:`Context.layout`): the rule's
    ``min_lanes_per_gpu``, else 8."""
    return int(params.get("min_lanes_per_gpu", 8))


Check = Callable[[Context], Outcome]
CHECKS: dict[str, Check] = {}

Sieve = Callable[[Part], bool]
SieveOf = Callable[[Mapping[str, Sequence[Part]], int, dict[str, Any], MutableMapping[Hashable, Any]], Sieve]


class Relaxation(NamedTuple):
    """A necessary condition for a rule to *pass*, on a part of one of its roles (:func:`can_pass`)."""

    reads: tuple[str, ...]
    """The other roles of the rule whose parts it depends on."""
    sieve_of: SieveOf


RELAXATIONS: dict[str, dict[str, Relaxation]] = {}
"""Per rule id and role, a necessary condition for the rule to *pass* (:func:`can_pass`)."""


def check(rule_id: str) -> Callable[[Check], Check]:
    """Register a check function under a rule id."""

    def register(fn: Check) -> Check:
        if rule_id in CHECKS:
            raise RuntimeError(f"two checks for {rule_id}")
        CHECKS[rule_id] = fn
        return fn

    return register


def can_pass(rule_id: str, role: str, reads: Sequence[str]) -> Callable[[SieveOf], SieveOf]:
    """Register a relaxation of a rule for one of its roles: given the parts that each other
    role of the rule it ``reads`` may take (``others``), the GPU count, the rule's parameters
    and a memo (one per catalog, shared by the relaxations, for what one finds of a part that
    holds for any others: under a key of its own, then by part id), it returns a test of a
    part of ``role``. The test is a necessary condition:
    where it says False, the rule does not *pass* on any build of that part and of parts from
    ``others`` (it may fail or be unknown). `suggest` drops such parts in a search that
    accepts only a pass: before it, and each time a part of a role it reads is chosen (then
    ``others`` holds that part alone), so that it does not try them against every
    combination of the other roles. ``tests/test_relaxations.py`` holds each relaxation to
    its rule by brute force."""

    def register(fn: SieveOf) -> SieveOf:
        if role in RELAXATIONS.setdefault(rule_id, {}):
            raise RuntimeError(f"two relaxations of {rule_id} for {role}")
        RELAXATIONS[rule_id][role] = Relaxation(tuple(reads), fn)
        return fn

    return register


def _import_all() -> None:
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


_import_all()
