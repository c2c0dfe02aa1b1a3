"""slot-map: a motherboard's slot list is consistent with itself and its form factor."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from partpicker.catalog.checks.interface import Finding, lint_part
from partpicker.kinds import most_lanes
from partpicker.vocab import FORM_FACTORS


@lint_part(
    "slot-map",
    "slots out of order, beyond the form factor, wider electrically than physically, "
    "or sharing with a slot that does not exist",
)
def check(part: Any) -> Iterator[Finding]:
    """(``part``: a motherboard, or the record of one; other parts have no slot map.)"""
    if part.category != "motherboard":
        return
    seen: set[str] = set()
    yield from _labels(part, seen)
    yield from _positions(part)
    yield from _sharing(part, seen)


def _labels(part: Any, seen: set[str]) -> Iterator[Finding]:
    """Labels used twice; ``seen`` collects every label of the board."""
    labels = [s.label for s in part.pcie_slots or []] + [m.label for m in part.m2_slots or []]
    for label in labels:
        if label in seen:
            yield Finding(f"slot label {label!r} is used twice", ("pcie_slots",))
        seen.add(label)


def _positions(part: Any) -> Iterator[Finding]:
    """Slots wider electrically than physically, out of order, or beyond the form factor."""
    limit = FORM_FACTORS[part.form_factor]
    last = 0
    for i, slot in enumerate(part.pcie_slots or []):
        loc: tuple[str | int, ...] = ("pcie_slots", i)
        widest = most_lanes(slot)
        if slot.physical is not None and widest > slot.physical:
            yield Finding(f"{slot.label}: x{widest} electrical in a x{slot.physical} slot", loc)
        if slot.position is None:
            continue
        if slot.position <= last:
            yield Finding(f"{slot.label}: position {slot.position} is not after {last}", loc)
        last = slot.position
        if slot.position > limit:
            yield Finding(
                f"{slot.label}: position {slot.position} is beyond the {limit} slots of {part.form_factor}", loc
            )


def _sharing(part: Any, seen: set[str]) -> Iterator[Finding]:
    """Slots that share lanes with a slot the board does not have."""
    slots = part.pcie_slots or []
    sharers: list[tuple[str, int, str, Any]] = [("pcie_slots", i, s.label, s.shares) for i, s in enumerate(slots)] + [
        ("m2_slots", i, m.label, m.shares or []) for i, m in enumerate(part.m2_slots or [])
    ]
    for kind, i, label, shares in sharers:
        for share in shares:
            if share.when not in seen:
                yield Finding(
                    f"{label} shares with {share.when!r}, which is not a slot of this board",
                    (
                        kind,
                        i,
                    ),
                )
