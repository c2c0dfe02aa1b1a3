"""The slot map: a board's expansion positions to scale, with this build's cards and drives.

Positions run top to bottom, 1 = nearest the CPU, one row per 20.32 mm (the PCIe bracket
pitch); connectors are drawn at their real lengths (x1 25 mm ... x16 89 mm). A card of width
``w`` seated at position ``p`` covers ``p .. p + ceil(w) - 1`` (the rule the layout search
uses): the positions under its cooler are hatched as blocked, positions two cards cover are
marked as overlap, and open-air or passive cards with no free slot between them are marked.
Anything whose position is unknown is listed beside the board as "position unknown".

Stable hooks for tests and styles: ``g.slot``, ``g.card``, ``rect.blocked``, ``rect.overlap``,
``line.back-to-back``, ``line.case-last``, ``g.m2``, ``text.unknown-position``; each carries
``data-position`` (and ``data-label``) attributes.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from itertools import pairwise

from partpicker.html.svg import clean, el, figure, fit, num, short, to_string
from partpicker.html.views import BoardView, CardView, M2View, SlotView

PX_PER_MM = 3.0
PITCH_MM = 20.32
ROW = PITCH_MM * PX_PER_MM
CONNECTOR_MM = {1: 25.0, 4: 39.0, 8: 56.0, 16: 89.0}
"""Connector length by lane count (PCI Express CEM card edge)."""
TOP = 44.0
X_POS, X_LABEL, X_SLOT = 10.0, 34.0, 130.0
CARD_X, CARD_W = 118.0, 300.0
X_INFO, X_SIDE, WIDTH = 432.0, 790.0, 1080.0
SIDE_LINE = 18.0
UNTIDY_COOLERS = ("open-air", "passive")


def span(card: CardView) -> int:
    """Positions a card covers (an unknown width is drawn as one slot and said so)."""
    return math.ceil(card.width) if card.width else 1


def placed(cards: Sequence[CardView]) -> list[CardView]:
    """The cards whose position is known, top to bottom."""
    return sorted((c for c in cards if c.position is not None), key=lambda c: c.position or 0)


def covers(card: CardView) -> range:
    start = card.position or 0
    return range(start, start + span(card))


def coverage(cards: Sequence[CardView]) -> dict[int, list[CardView]]:
    """For each position, the cards that cover it."""
    out: dict[int, list[CardView]] = {}
    for card in placed(cards):
        for p in covers(card):
            out.setdefault(p, []).append(card)
    return out


def blocked(cards: Sequence[CardView]) -> dict[int, CardView]:
    """Positions under a card's cooler (not its own slot), with the (first) card covering them."""
    out: dict[int, CardView] = {}
    for card in placed(cards):
        for p in covers(card)[1:]:
            out.setdefault(p, card)
    return out


def overlaps(cards: Sequence[CardView]) -> list[int]:
    """Positions two or more cards cover: the layout does not fit."""
    return sorted(p for p, over in coverage(cards).items() if len(over) > 1)


def back_to_back(cards: Sequence[CardView]) -> list[tuple[CardView, CardView]]:
    """Neighbouring cards with no free slot between them where the upper one is open-air or passive
    (cards that overlap are marked as an overlap instead: they do not fit at all)."""
    return [
        (a, b)
        for a, b in pairwise(placed(cards))
        if a.cooler in UNTIDY_COOLERS and (b.position or 0) - (a.position or 0) == span(a)
    ]


def rows(view: BoardView) -> int:
    """Positions drawn: the board's, and as far as any slot, card or the case reaches."""
    reach = [view.board_positions or 0, view.case_last_slot or 0, 1]
    reach += [s.position for s in view.slots if s.position is not None]
    reach += [covers(c)[-1] for c in placed(view.cards)]
    return max(reach)


def row_top(position: int) -> float:
    return TOP + (position - 1) * ROW


def slot_text(slot: SlotView) -> str:
    """e.g. "x16 slot, x8 gen4, CPU" (what is unknown says so)."""
    size = f"x{slot.physical} slot" if slot.physical else "size unknown"
    if slot.lanes == 0:
        wired = "disabled (lanes shared)"
    elif slot.lanes is None:
        wired = "lanes unknown"
    else:
        wired = f"x{slot.lanes}" + (f" gen{slot.gen}" if slot.gen else "")
    source = {"cpu": "CPU", "chipset": "chipset", "switch": "PCIe switch"}.get(slot.source or "", "source unknown")
    return f"{size}, {wired}, {source}"


def card_text(card: CardView) -> str:
    width = f"{card.width:g}-slot" if card.width else "width unknown"
    return f"{width} {card.cooler or 'cooler unknown'}"


def _defs(root: ET.Element, ident: str) -> None:
    defs = el(root, "defs")
    pattern = el(
        defs,
        "pattern",
        id=f"{ident}-hatch",
        width="8",
        height="8",
        patternUnits="userSpaceOnUse",
        patternTransform="rotate(45)",
    )
    el(pattern, "line", x1="0", y1="0", x2="0", y2="8", class_="hatch-line")


def _grid(root: ET.Element, view: BoardView, n_rows: int) -> None:
    el(
        root,
        "text",
        f"{view.board}: expansion positions to scale (1 = nearest the CPU)",
        x=X_POS,
        y=18.0,
        class_="heading",
    )
    for p in range(1, n_rows + 1):
        y = row_top(p)
        off = view.board_positions is not None and p > view.board_positions
        el(
            root,
            "rect",
            x=X_POS - 4,
            y=y,
            width=X_SIDE - X_POS - 12,
            height=ROW,
            class_="row off-board" if off else "row",
            data_position=p,
        )
        el(root, "text", str(p), x=X_POS, y=y + 22, class_="position-number")
        if off:
            el(root, "text", "beyond the board", x=X_INFO, y=y + 40, class_="note")


def _slot(root: ET.Element, slot: SlotView, blocker: CardView | None) -> None:
    y = row_top(slot.position or 0)
    g = el(
        root,
        "g",
        class_="slot",
        data_label=slot.label,
        data_position=slot.position,
        data_physical=slot.physical,
        data_lanes=slot.lanes,
        data_gen=slot.gen,
        data_source=slot.source,
    )
    el(g, "title", f"{slot.label}: {slot_text(slot)}")
    el(g, "text", short(slot.label, 12), x=X_LABEL, y=y + 22, class_="slot-label")
    length = CONNECTOR_MM.get(slot.physical or 0)
    if length is None:
        el(g, "rect", x=X_SLOT, y=y + 8, width=CONNECTOR_MM[16] * PX_PER_MM, height=12.0, class_="connector unknown")
    else:
        el(g, "rect", x=X_SLOT, y=y + 8, width=length * PX_PER_MM, height=12.0, class_="connector")
    wired = CONNECTOR_MM.get(slot.lanes or 0)
    if wired is not None and length is not None:
        el(
            g,
            "rect",
            x=X_SLOT,
            y=y + 10,
            width=min(wired, length) * PX_PER_MM,
            height=8.0,
            class_=f"electrical source-{slot.source or 'unknown'}",
        )
    info = slot_text(slot) + (f"; blocked by {short(blocker.label, 14)}" if blocker else "")
    el(g, "text", info, x=X_INFO, y=y + 22, class_="slot-info")


def _card(root: ET.Element, card: CardView, case_last: int | None, starved: bool) -> None:
    p = card.position or 0
    beyond = case_last is not None and covers(card)[-1] > case_last
    classes = "card" + (" beyond-case" if beyond else "") + (" starved" if starved else "")
    g = el(
        root,
        "g",
        class_=classes,
        data_label=card.label,
        data_position=p,
        data_span=span(card),
        data_covers=" ".join(str(x) for x in covers(card)),
        data_cooler=card.cooler,
    )
    el(g, "title", f"{card.label}: {card_text(card)}, position {p}")
    y = row_top(p)
    el(g, "rect", x=CARD_X, y=y + 3, width=CARD_W, height=(card.width or 1) * ROW - 6, rx="6", class_="card-body")
    el(g, "rect", x=CARD_X - 6, y=y + 6, width=6.0, height=16.0, class_="card-edge")
    el(g, "text", short(card.label, 36), x=CARD_X + 10, y=y + 38, class_="card-label")
    note = card_text(card) + ("; past the case's last slot" if beyond else "")
    el(g, "text", note, x=CARD_X + 10, y=y + 54, class_="card-note")


def _marks(root: ET.Element, ident: str, view: BoardView) -> None:
    for p in sorted(blocked(view.cards)):
        el(
            root,
            "rect",
            x=X_SLOT - 4,
            y=row_top(p) + 4,
            width=CONNECTOR_MM[16] * PX_PER_MM + 8,
            height=ROW - 8,
            fill=f"url(#{ident}-hatch)",
            class_="blocked",
            data_position=p,
        )
    for p in overlaps(view.cards):
        el(
            root,
            "rect",
            x=CARD_X - 8,
            y=row_top(p) + 1,
            width=CARD_W + 16,
            height=ROW - 2,
            class_="overlap",
            data_position=p,
        )
        el(
            root,
            "text",
            "OVERLAP: two cards cover this position",
            x=X_INFO,
            y=row_top(p) + 42,
            class_="overlap-label",
        )
    for a, b in back_to_back(view.cards):
        y = row_top(b.position or 0)
        el(
            root,
            "line",
            x1=CARD_X,
            y1=y,
            x2=CARD_X + CARD_W,
            y2=y,
            class_="back-to-back",
            data_positions=f"{a.position} {b.position}",
        )
        el(
            root,
            "text",
            f"{a.cooler} cards back to back: no air gap",
            x=CARD_X + CARD_W - 10,
            y=y - 6,
            class_="back-to-back-label",
            text_anchor="end",
        )


def _case_line(root: ET.Element, view: BoardView, n_rows: int) -> None:
    if view.case_last_slot is None:
        el(
            root,
            "text",
            "case's expansion slot count unknown: not drawn",
            x=X_POS,
            y=row_top(n_rows + 1) + 24,
            class_="note unknown-case",
        )
        return
    y = row_top(view.case_last_slot + 1)
    el(root, "line", x1=X_POS - 4, y1=y, x2=X_SIDE - 16, y2=y, class_="case-last", data_position=view.case_last_slot)
    el(
        root,
        "text",
        f"case's last expansion slot ({view.case_last_slot})",
        x=X_SIDE - 20,
        y=y + 16,
        class_="case-label",
        text_anchor="end",
    )


def _steal(g: ET.Element, label: str, slot: SlotView | None, y: float) -> float:
    """One "takes lanes from" line, with a stroke to the slot's row where its position is known."""
    el(g, "text", f"takes lanes from {short(label, 12)}", x=X_SIDE + 24, y=y, class_="steals", data_from=label)
    y += SIDE_LINE
    if slot is None or slot.position is None:
        el(g, "text", "(its position is unknown)", x=X_SIDE + 24, y=y, class_="note")
        return y + SIDE_LINE
    el(g, "text", f"(position {slot.position})", x=X_SIDE + 24, y=y, class_="note")
    path = f"M{num(X_SIDE)},{num(y - SIDE_LINE - 4)} L{num(X_SIDE - 14)},{num(row_top(slot.position) + 18)}"
    el(g, "path", d=path, class_="steal-line", data_position=slot.position)
    return y + SIDE_LINE


def _m2(root: ET.Element, drive: M2View, y: float, slots: dict[str, SlotView]) -> float:
    g = el(root, "g", class_="m2", data_label=drive.label, data_steals_from=" ".join(drive.steals_from) or None)
    el(g, "title", f"{drive.label}: {drive.drive}")
    el(g, "rect", x=X_SIDE, y=y - 12, width=10.0, height=14.0, class_="m2-mark")
    source = {"cpu": "CPU", "chipset": "chipset"}.get(drive.source or "", "source unknown")
    el(g, "text", f"{short(drive.label, 14)}: {short(drive.drive, 22)}", x=X_SIDE + 16, y=y, class_="m2-label")
    y += SIDE_LINE
    el(g, "text", f"wired to the {source}" if drive.source else source, x=X_SIDE + 24, y=y, class_="note m2-source")
    y += SIDE_LINE
    if not drive.sharing_known:
        el(g, "text", "lane sharing unknown", x=X_SIDE + 24, y=y, class_="note unknown-sharing")
        y += SIDE_LINE
    for label in drive.steals_from:
        y = _steal(g, label, slots.get(label), y)
    return y


def _side(root: ET.Element, view: BoardView) -> float:
    """M.2 drives and everything whose position is unknown; returns the y below the list."""
    y = TOP + 14
    slots = {s.label: s for s in view.slots}
    if view.m2:
        el(root, "text", "M.2 drives", x=X_SIDE, y=y, class_="side-heading")
        y += SIDE_LINE
        for drive in view.m2:
            y = _m2(root, drive, y, slots)
        y += SIDE_LINE / 2
    lost = [(s.label, slot_text(s)) for s in view.slots if s.position is None]
    lost += [(c.label, f"{card_text(c)}, slot not known") for c in view.cards if c.position is None]
    if lost:
        el(root, "text", "Position unknown (not drawn)", x=X_SIDE, y=y, class_="side-heading")
        y += SIDE_LINE
        for label, what in lost:
            el(root, "text", f"{short(label, 16)}: {what}", x=X_SIDE, y=y, class_="unknown-position", data_label=label)
            y += SIDE_LINE
    return y


def _describe_cards(cards: Sequence[CardView]) -> list[str]:
    parts = [
        f"{c.label} ({card_text(c)}) sits at position {c.position}, covering to {covers(c)[-1]}." for c in placed(cards)
    ]
    if overlaps(cards):
        parts.append(f"Cards overlap at position(s) {', '.join(map(str, overlaps(cards)))}: they do not fit.")
    parts += [f"{a.label} and {b.label} sit back to back with no air gap." for a, b in back_to_back(cards)]
    return parts


def describe(view: BoardView) -> str:
    """The picture in words, for screen readers."""
    parts = [f"Slot map of {clean(view.board)}."]
    for s in sorted((s for s in view.slots if s.position is not None), key=lambda s: s.position or 0):
        parts.append(f"Position {s.position}: {s.label}, {slot_text(s)}.")
    parts += _describe_cards(view.cards)
    parts += [
        f"M.2 {d.label} ({d.drive}) takes lanes from {', '.join(d.steals_from)}." for d in view.m2 if d.steals_from
    ]
    parts += [f"Position of {s.label} unknown." for s in view.slots if s.position is None]
    parts += [f"Slot of {c.label} unknown." for c in view.cards if c.position is None]
    last = view.case_last_slot
    parts.append(f"The case's last expansion slot is {last}." if last else "The case's slot count is unknown.")
    return " ".join(parts)


def slot_map(view: BoardView, ident: str = "slotmap") -> str:
    """The slot map as an inline ``<svg>`` element."""
    n_rows = rows(view)
    starved = {id(a) for a, _ in back_to_back(view.cards)}
    root = figure(ident, WIDTH, row_top(n_rows + 1) + 40, f"Slot map: {view.board}", describe(view), "slotmap")
    _defs(root, ident)
    _grid(root, view, n_rows)
    covered = blocked(view.cards)
    for slot in view.slots:
        if slot.position is not None:
            _slot(root, slot, covered.get(slot.position))
    for card in placed(view.cards):
        _card(root, card, view.case_last_slot, id(card) in starved)
    _marks(root, ident, view)
    _case_line(root, view, n_rows)
    fit(root, _side(root, view) + 10)
    return to_string(root)
