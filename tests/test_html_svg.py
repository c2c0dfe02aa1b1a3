"""The HTML report's pictures and page, read back as XML/HTML: what is drawn where."""

from __future__ import annotations

import html.parser
import itertools
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partpicker.html import BoardView, CardView, PageView, PowerView, SlotView, render_page
from partpicker.html.cost import cost_curves
from partpicker.html.power import BAR_W, power_budget, scale
from partpicker.html.slotmap import CONNECTOR_MM, slot_map
from tests.support.html_views import board_view, page_view

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, tag: str, css: str) -> list[ET.Element]:
    return [e for e in root.iter(tag) if css in e.get("class", "").split()]


def positions(elements: list[ET.Element]) -> list[int]:
    return [int(e.get("data-position", "0")) for e in elements]


def rows_by_position(root: ET.Element) -> dict[int, tuple[float, float]]:
    """Each drawn row's (top, bottom) in pixels."""
    return {
        int(r.get("data-position", "0")): (float(r.get("y", "0")), float(r.get("y", "0")) + float(r.get("height", "0")))
        for r in with_class(root, "rect", "row")
    }


def rows_under_cards(root: ET.Element) -> dict[int, int]:
    """From the geometry alone: how many card bodies reach into each row (past a 4 px border)."""
    bodies = [
        (float(b.get("y", "0")), float(b.get("y", "0")) + float(b.get("height", "0")))
        for b in with_class(root, "rect", "card-body")
    ]
    out = {}
    for p, (top, bottom) in rows_by_position(root).items():
        out[p] = sum(1 for y0, y1 in bodies if y0 < bottom - 4 and y1 > top + 4)
    return out


def seats(root: ET.Element) -> set[int]:
    return set(positions(with_class(root, "g", "card")))


# --- slot map -------------------------------------------------------------------------------


def test_four_2slot_cards_at_1_3_5_7() -> None:
    view = board_view("four-2slot-cards.yaml")
    root = parse(slot_map(view))
    slots = with_class(root, "g", "slot")
    assert positions(slots) == [s.position for s in view.slots]
    cards = with_class(root, "g", "card")
    assert positions(cards) == [1, 3, 5, 7]
    assert [c.get("data-covers") for c in cards] == ["1 2", "3 4", "5 6", "7 8"]
    under = rows_under_cards(root)
    assert {p for p, k in under.items() if k == 1} == {1, 2, 3, 4, 5, 6, 7, 8}
    assert positions(with_class(root, "rect", "blocked")) == [2, 4, 6, 8]
    assert with_class(root, "rect", "overlap") == []
    assert with_class(root, "line", "back-to-back") == []
    assert not [c for c in cards if "beyond-case" in c.get("class", "")]
    (case,) = with_class(root, "line", "case-last")
    assert case.get("data-position") == "8"
    assert float(case.get("y1", "0")) == pytest.approx(rows_by_position(root)[8][1])


def test_connectors_and_lanes_to_scale() -> None:
    root = parse(slot_map(board_view("four-2slot-cards.yaml")))
    width = {}
    wired = {}
    for g in with_class(root, "g", "slot"):
        (conn,) = with_class(g, "rect", "connector")
        width[g.get("data-label")] = float(conn.get("width", "0"))
        wired[g.get("data-label")] = [float(e.get("width", "0")) for e in with_class(g, "rect", "electrical")]
    assert width["PCIE1"] / width["PCIE2"] == pytest.approx(CONNECTOR_MM[16] / CONNECTOR_MM[1], rel=1e-3)
    assert wired["PCIE3"][0] / width["PCIE3"] == pytest.approx(CONNECTOR_MM[8] / CONNECTOR_MM[16], rel=1e-3)
    assert wired["PCIE6"] == []  # disabled by the M.2 drive


def test_m2_drive_and_the_slot_it_steals_from() -> None:
    root = parse(slot_map(board_view("four-2slot-cards.yaml")))
    drives = {g.get("data-label"): g for g in with_class(root, "g", "m2")}
    assert set(drives) == {"M2_1", "M2_3"}
    assert drives["M2_3"].get("data-steals-from") == "PCIE6"
    assert drives["M2_1"].get("data-steals-from") is None
    (line,) = with_class(drives["M2_3"], "path", "steal-line")
    assert line.get("data-position") == "6"
    slot6 = next(g for g in with_class(root, "g", "slot") if g.get("data-label") == "PCIE6")
    assert "disabled" in "".join(slot6.itertext())


def test_four_3slot_cards_overlap() -> None:
    root = parse(slot_map(board_view("four-3slot-cards.yaml")))
    overlap = positions(with_class(root, "rect", "overlap"))
    under = rows_under_cards(root)
    assert overlap == sorted(p for p, k in under.items() if k > 1)
    assert overlap == [3, 5, 7]
    assert max(rows_by_position(root)) == 9
    beyond = [c.get("data-position") for c in with_class(root, "g", "card") if "beyond-case" in c.get("class", "")]
    assert beyond == ["7"]
    assert with_class(root, "line", "back-to-back") == []  # they overlap: marked as that, not as a gap
    assert "overlap" in (root.find("desc").text or "").lower()  # type: ignore[union-attr]


def test_open_air_cards_back_to_back_are_marked() -> None:
    """2-slot open-air cards at 1/3/5/7 touch (no free slot between): each pair is marked."""
    view = board_view("four-2slot-cards.yaml")
    view = replace(view, cards=tuple(replace(c, cooler="open-air") for c in view.cards))
    root = parse(slot_map(view))
    seated = sorted(positions(with_class(root, "g", "card")))
    touching = [f"{a} {b}" for a, b in itertools.pairwise(seated) if b - a == 2]
    assert [b.get("data-positions") for b in with_class(root, "line", "back-to-back")] == touching
    assert touching == ["1 3", "3 5", "5 7"]
    assert with_class(root, "rect", "overlap") == []


def test_unknown_positions_are_listed_not_drawn() -> None:
    view = board_view("unknown-positions.yaml")
    root = parse(slot_map(view))
    assert positions(with_class(root, "g", "slot")) == [2, 4]
    assert positions(with_class(root, "g", "card")) == [2]
    assert {t.get("data-label") for t in with_class(root, "text", "unknown-position")} == {"PCIEX16_2", "GPU 2"}
    vague = next(g for g in with_class(root, "g", "slot") if g.get("data-label") == "PCIEX1_1")
    assert with_class(vague, "rect", "connector")[0].get("class") == "connector unknown"
    assert "size unknown" in "".join(vague.itertext()) and "lanes unknown" in "".join(vague.itertext())
    assert with_class(root, "line", "case-last") == [] and with_class(root, "text", "unknown-case")
    assert positions(with_class(root, "rect", "blocked")) == [3, 4]  # a 2.5-slot card at 2 covers 2..4
    (drive,) = with_class(root, "g", "m2")
    text = "".join(drive.itertext())
    assert "lane sharing unknown" in text and "position is unknown" in text
    assert with_class(drive, "path", "steal-line") == []


@pytest.mark.parametrize("n", range(1, 8))
def test_one_to_seven_cards(n: int) -> None:
    slots = tuple(SlotView(f"S{p}", p, 16, 8, 4, "cpu") for p in range(1, 8))
    cards = tuple(CardView(f"GPU {p}", p, 1.0, "blower") for p in range(1, n + 1))
    root = parse(slot_map(BoardView("b", slots, cards, board_positions=7, case_last_slot=7)))
    assert positions(with_class(root, "g", "card")) == list(range(1, n + 1))
    assert len(with_class(root, "g", "slot")) == 7
    assert with_class(root, "rect", "blocked") == [] and with_class(root, "rect", "overlap") == []


cards_strategy = st.lists(
    st.tuples(st.integers(1, 7), st.sampled_from([1.0, 2.0, 2.5, 3.0]), st.sampled_from(["blower", "open-air"])),
    min_size=1,
    max_size=7,
    unique_by=lambda c: c[0],
)


@settings(max_examples=60, deadline=None)
@given(cards_strategy)
def test_marks_agree_with_the_card_geometry(raw: list[tuple[int, float, str]]) -> None:
    """Overlap and blocked marks, against which rows the drawn card bodies cover."""
    cards = tuple(CardView(f"GPU {p}", p, w, c) for p, w, c in raw)
    slots = tuple(SlotView(f"S{p}", p, 16, 16, 3, "cpu") for p in range(1, 8))
    root = parse(slot_map(BoardView("b", slots, cards, board_positions=7, case_last_slot=8)))
    under = rows_under_cards(root)
    assert positions(with_class(root, "rect", "overlap")) == sorted(p for p, k in under.items() if k > 1)
    seated = seats(root)
    assert positions(with_class(root, "rect", "blocked")) == sorted(
        p for p, k in under.items() if k - (p in seated) > 0
    )


def test_hostile_strings_in_the_slot_map() -> None:
    evil = '<script>alert("x")</script>\x1b[31m\u202e&amp;\x00'
    view = replace(board_view("four-2slot-cards.yaml"), board=evil, cards=(CardView(evil, 1, 2.0, "blower"),))
    svg = slot_map(view)
    root = parse(svg)  # still well-formed XML
    assert "<script" not in svg and not CONTROL.search(svg)
    assert with_class(root, "g", "card")[0].get("data-label", "").startswith('<script>alert("x")')


# --- power and cost ---------------------------------------------------------------------------


def test_power_bar_segments() -> None:
    view = page_view().power
    assert view is not None
    root = parse(power_budget(view))
    segs = with_class(root, "rect", "segment")
    assert [s.get("data-part") for s in segs] == ["cpu", "gpu", "gpu", "gpu", "gpu", "rest", "margin"]
    load = 180 + 4 * 250 + 100  # the fixture's CPU + 4 GPUs + rest
    drawn = sum(float(s.get("width", "0")) for s in segs) / BAR_W * scale(view)
    assert drawn == pytest.approx(load * view.margin, abs=0.5)
    (psu,) = with_class(root, "line", "psu-watts")
    end = float(segs[-1].get("x", "0")) + float(segs[-1].get("width", "0"))
    assert float(psu.get("x1", "0")) < end  # 1200 W is short of the need
    assert "short by" in "".join(root.itertext())
    (wall,) = with_class(root, "rect", "wall")
    (circuit,) = with_class(root, "line", "circuit")
    assert float(wall.get("width", "0")) + float(wall.get("x", "0")) < float(circuit.get("x1", "0"))
    assert with_class(root, "line", "gpu-limit")


def test_power_unknown_cpu_draws_no_bar() -> None:
    root = parse(power_budget(PowerView(4, None, 250, 100, 1.1, 1600)))
    assert with_class(root, "rect", "segment") == []
    assert "CPU TDP not known" in "".join(root.itertext())


def _points(line: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in line.get("points", "").split())]


def test_cost_curves_mark_break_even() -> None:
    curve = page_view().cost
    assert curve is not None
    root = parse(cost_curves(curve))
    lines = {p.get("data-series"): _points(p) for p in with_class(root, "polyline", "series")}
    assert set(lines) == {"own-paid", "own-net", "cloud-0", "cloud-1", "cloud-2"}
    marks = with_class(root, "circle", "break-even")
    assert len(marks) == sum(1 for s in curve.cloud if s.break_even)
    for mark, key in zip(marks, [f"cloud-{i}" for i, s in enumerate(curve.cloud) if s.break_even], strict=True):
        month = int(mark.get("data-month", "0"))
        own, cloud = lines["own-paid"], lines[key]
        assert own[month - 1][1] >= cloud[month - 1][1] - 1e-6  # paid <= cloud bill (y grows downwards)
        assert month == 1 or own[month - 2][1] < cloud[month - 2][1]
        assert float(mark.get("cy", "0")) == pytest.approx(own[month - 1][1])


# --- the page ---------------------------------------------------------------------------------


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.tags: list[str] = []
        self.ids: set[str] = set()
        self.labelled: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href", "xlink:href", "action", "data") and value:
                self.urls.append(value)
            if name == "id" and value:
                self.ids.add(value)
            if name == "aria-labelledby" and value:
                self.labelled += value.split()


def test_page_is_one_self_contained_file() -> None:
    page = render_page(page_view())
    links = _Links()
    links.feed(page)
    assert not [u for u in links.urls if not u.startswith("#")]
    assert not re.search(r"url\((?!#)", page) and "@import" not in page
    assert "script" not in links.tags and "link" not in links.tags and "img" not in links.tags
    assert links.tags.count("svg") == 3
    assert set(links.labelled) <= links.ids and len(links.labelled) >= 6


def test_page_escapes_hostile_strings() -> None:
    view = page_view()
    page = render_page(view)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img src=https" not in page and "&lt;img src=https://evil.example" in page
    assert not CONTROL.search(page)


def test_page_sections_and_findings_worst_first() -> None:
    page = render_page(page_view())
    order = [
        page.index(h)
        for h in (
            "Parts",
            "Findings, worst first",
            "Verify before you buy",
            "Not checked",
            "Slot map",
            "Power budget",
            "Cost curves",
        )
    ]
    assert order == sorted(order)
    statuses = re.findall(r'<tr class="finding (\w+)">', page)
    assert statuses == sorted(statuses, key=["fail", "pass"].index)
    rules = re.findall(r'<tr class="finding \w+"><td><span[^>]*>\w+</span></td><td>([\w-]+)</td>', page)
    assert rules[:2] == ["psu-wattage", "gpu-cooling"]  # an error before a warning
    assert "m2-slot" in page[page.index("Not checked") :]


def test_page_without_pictures_or_parts() -> None:
    page = render_page(PageView("bare", "unknown", "Potential issues.", "profile x"))
    links = _Links()
    links.feed(page)
    assert links.tags.count("svg") == 0
    assert "No rule could be checked." in page and "Slot map" not in page
