"""`--format html` end to end: the pages validate, suggest and cost write, judged against the
same commands' JSON and the catalog, and bad `--output` paths."""

from __future__ import annotations

import html
import itertools
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from partpicker.build import Build, Line, load_build
from partpicker.catalog import Catalog
from partpicker.html.slotmap import slot_map
from partpicker.rules import layout
from partpicker.validate import drawing
from partpicker.validate.formats import REPORTER_BY_NAME
from tests.support.html_pages import (
    ARTICLE,
    COST_ARGS,
    EXAMPLES,
    FOUR_3090,
    SUGGEST_ARGS,
    as_json,
    invoke,
    positions,
    svg,
    with_class,
    write_page,
)

WHERE = re.compile(r"(\S+) \(position (\d+), x(\d+)\)")


def finding(doc: dict[str, object], rule: str) -> dict[str, str]:
    found = [f for f in doc["findings"] if f["rule"] == rule]  # type: ignore[attr-defined]
    assert len(found) == 1
    return found[0]  # type: ignore[no-any-return]


def covered(cards: list[object]) -> dict[int, int]:
    """How many cards cover each position, from the cards' data-covers."""
    out: dict[int, int] = {}
    for card in cards:
        for p in card.get("data-covers", "").split():  # type: ignore[attr-defined]
            out[int(p)] = out.get(int(p), 0) + 1
    return out


# --- validate ---------------------------------------------------------------------------------


def test_article_build_cards_where_gpu_slots_seats_them(tmp_path: Path, catalog: Catalog) -> None:
    page = write_page("article", tmp_path).read_text(encoding="utf-8")
    doc = as_json("validate", str(ARTICLE))
    rule = finding(doc, "gpu-slots")
    assert rule["status"] == "pass"
    seated = [(label, int(p), int(x)) for label, p, x in WHERE.findall(rule["message"])]
    root = svg(page, "slotmap")
    cards = with_class(root, "g", "card")
    assert positions(cards) == [p for _, p, _ in seated]
    assert positions(cards) == [1, 3, 5, 7]
    slots = {s.get("data-label"): s for s in with_class(root, "g", "slot")}
    assert [label for label, _, _ in seated] == ["PCI_E1", "PCI_E3", "PCI_E4", "PCI_E6"]
    for label, position, lanes in seated:  # each card's slot drawn there, with the lanes gpu-slots found
        assert slots[label].get("data-position") == str(position)
        assert slots[label].get("data-lanes") == str(lanes)
    assert with_class(root, "rect", "overlap") == []
    assert set(covered(cards).values()) == {1}
    build = load_build(ARTICLE, catalog)
    (case_line,) = with_class(root, "line", "case-last")
    assert case_line.get("data-position") == str(build.case.expansion_slots)  # type: ignore[union-attr]
    drive = re.search(r"in (.+)$", finding(doc, "m2-slot")["message"])
    assert drive and [m.get("data-label") for m in with_class(root, "g", "m2")] == [drive.group(1)]


def test_article_build_page_has_the_text_reports_content(tmp_path: Path) -> None:
    page = write_page("article", tmp_path).read_text(encoding="utf-8")
    doc = as_json("validate", str(ARTICLE))
    assert f'<span class="verdict {doc["verdict"]}">' in page
    for part in doc["parts"].values():
        assert part["name"].replace("&", "&amp;") in page
    statuses = re.findall(r'<tr class="finding (\w+)">', page)
    checked = [f for f in doc["findings"] if f["status"] != "unknown"]
    assert len(statuses) == len(checked)
    rank = {"fail": 0, "unknown": 1, "pass": 2}
    assert [rank[s] for s in statuses] == sorted(rank[s] for s in statuses)  # worst first
    assert "Not checked by any rule" in page


def test_article_build_power_budget(tmp_path: Path, catalog: Catalog) -> None:
    page = write_page("article", tmp_path).read_text(encoding="utf-8")
    build = load_build(ARTICLE, catalog)
    root = svg(page, "power")
    parts = [s.get("data-part") for s in with_class(root, "rect", "segment")]
    assert parts == ["cpu"] + ["gpu"] * build.target_gpus + ["rest", "margin"]
    (psu,) = with_class(root, "line", "psu-watts")
    assert psu.get("data-watts") == str(build.psu.watts)  # type: ignore[union-attr]
    needed = re.search(r"(\d+) W needed", finding(as_json("validate", str(ARTICLE)), "psu-wattage")["message"])
    assert needed and f"needs {int(needed.group(1)):,} W" in page


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_power_budget_agrees_with_the_rules(example: Path) -> None:
    """The figures the page draws are the ones psu-wattage and wall-circuit computed."""
    result = invoke("validate", str(example), "--format", "html")
    assert result.exit_code in (0, 1)
    page, doc = result.stdout, as_json("validate", str(example))
    found = {f["rule"]: f for f in doc["findings"]}
    psu, wall = found.get("psu-wattage"), found.get("wall-circuit")
    if psu is None or wall is None or "unknown" in (psu["status"], wall["status"]):
        pytest.skip("the build's power is not checked")
    needed = re.search(r"(\d+) W needed", psu["message"])
    assert needed and f"needs {int(needed.group(1)):,} W" in page
    drawn = re.search(r"at the wall (\d+) W", wall["message"])
    assert drawn and f"wall draw {int(drawn.group(1)):,} W" in page
    caps = [int(c) for f in (psu, wall) for c in re.findall(r"power-limit the cards to (\d+) W", f["message"])]
    if caps:
        assert f"a power limit of {min(caps)} W per GPU would fit" in page
    elif psu["status"] == wall["status"] == "pass":
        assert "fits at the cards' full" in page


def test_four_3slot_cards_show_the_overlap(tmp_path: Path) -> None:
    page = write_page("four-3090", tmp_path).read_text(encoding="utf-8")
    doc = as_json("validate", str(FOUR_3090))
    assert finding(doc, "gpu-slots")["status"] == "fail"
    root = svg(page, "slotmap")
    cards = with_class(root, "g", "card")
    assert len(cards) == doc["target_gpus"]
    assert {c.get("data-span") for c in cards} == {"3"}
    overlap = positions(with_class(root, "rect", "overlap"))
    assert overlap == sorted(p for p, k in covered(cards).items() if k > 1)
    assert overlap  # four 3-slot cards cannot avoid each other on this board
    assert "No layout seats 4 cards 3 slots wide" in page


def _searched(build: Build, n: int, case_slots: int | None) -> layout.Layout | None:
    """gpu-slots' own question, asked directly: sharing known first, then also unknown."""
    for known_only in (True, False):
        found = layout.best_layout(
            build.motherboard,  # type: ignore[arg-type]
            n=n,
            width=build.gpu.slot_width,  # type: ignore[union-attr]
            cpu_lanes=build.cpu.pcie_lanes,  # type: ignore[union-attr]
            drives=[d for d in build.ssds if layout.is_m2(d)],
            case_slots=case_slots,
            known_only=known_only,
        )
        if found is not None:
            return found
    return None


@pytest.mark.parametrize("n", range(1, 8))
def test_one_to_seven_cards(n: int, catalog: Catalog) -> None:
    """On the SAGE board: a layout the search finds is drawn as found, without overlap; when none
    exists, every card is still drawn or listed, and the picture shows why."""
    sage = load_build(EXAMPLES / "sage-7900x-4x-rtx-2080-ti-turbo.yaml", catalog)
    build = replace(sage, target_gpus=n, parts={**sage.parts, "gpu": (Line(sage.gpu, 1),)})  # type: ignore[arg-type]
    view = drawing.board_view(build, {})
    seats = drawing.seating(build, {})
    assert view is not None and seats is not None and len(view.cards) == n
    case_slots = build.case.expansion_slots  # type: ignore[union-attr]
    found = _searched(build, n, case_slots) or _searched(build, n, None)
    span = math.ceil(build.gpu.slot_width)  # type: ignore[union-attr]
    drawn = [c.position for c in view.cards]
    if found is not None:
        assert seats.fits and drawn == [s.position for s in found.gpu_slots]
        assert all(b - a >= span for a, b in itertools.pairwise(drawn))  # type: ignore[operator]
        root = ET.fromstring(slot_map(view))
        assert with_class(root, "rect", "overlap") == []
    else:
        assert not seats.fits
        known = sorted(p for p in drawn if p is not None)
        collide = any(b - a < span for a, b in itertools.pairwise(known))
        assert collide or None in drawn or known[-1] + span - 1 > (case_slots or 99)


def test_unmapped_board_says_unknown(tmp_path: Path) -> None:
    build = Path(__file__).parent / "data" / "builds" / "valid" / "unmapped-board.yaml"
    out = tmp_path / "unmapped.html"
    result = invoke("validate", str(build), "--format", "html", "--output", str(out))
    assert result.exit_code in (0, 1), result.output
    page = out.read_text(encoding="utf-8")
    root = svg(page, "slotmap")
    assert with_class(root, "g", "card") == []  # no position invented
    assert with_class(root, "text", "unknown-position")
    assert "no slot map for" in page


def test_html_without_output_prints_the_page() -> None:
    result = invoke("validate", str(ARTICLE), "--format", "html")
    assert result.exit_code == 0
    assert result.stdout.startswith("<!DOCTYPE html>") and result.stdout.rstrip().endswith("</html>")
    assert "html" in REPORTER_BY_NAME


# --- suggest and cost ---------------------------------------------------------------------------


def test_suggest_page(tmp_path: Path) -> None:
    page = write_page("suggest", tmp_path).read_text(encoding="utf-8")
    doc = as_json("suggest", *SUGGEST_ARGS)
    assert doc["status"] == "proven"
    for part in doc["build"].values():
        assert part["name"] in page
    assert f"${doc['total_usd']:,.2f} now" in page
    assert "Why these parts" in page and "Alternatives" in page
    assert len(with_class(svg(page, "slotmap"), "g", "card")) == doc["gpus"]["target"]
    assert not (tmp_path / "build.yaml").exists()


def test_suggest_without_a_build_still_writes_the_page(tmp_path: Path) -> None:
    args = [*SUGGEST_ARGS, "--budget", "10"]
    out = tmp_path / "none.html"
    result = invoke("suggest", *args, "--format", "html", "--output", str(out))
    assert result.exit_code == 1
    doc = as_json("suggest", *args)
    page = out.read_text(encoding="utf-8")
    assert "NO BUILD" in page and html.escape(doc["explanation"], quote=False) in page
    assert '<svg id="slotmap"' not in page


def test_cost_page(tmp_path: Path) -> None:
    page = write_page("cost", tmp_path).read_text(encoding="utf-8")
    doc = as_json("cost", *COST_ARGS)
    root = svg(page, "cost")
    marked = {c.get("data-option"): int(c.get("data-month", "0")) for c in with_class(root, "circle", "break-even")}
    labels = {"on-demand": "on-demand", "reserved-1yr": "1-yr reserved", "reserved-3yr": "3-yr reserved"}
    assert marked == {labels[k]: m for k, m in doc["break_even"].items() if m is not None}
    lines = with_class(root, "polyline", "series")
    assert all(len(s.get("points", "").split()) == doc["assumptions"]["months"] for s in lines)
    assert ("OWN" if doc["cheaper"] == "own" else "RENT") in page
    assert "Findings" not in page


# --- bad output paths -------------------------------------------------------------------------


def _bad_targets(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "a-file").write_text("keep", encoding="utf-8")
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "link.html").symlink_to(tmp_path / "a-file")
    return {
        "missing-folder": str(tmp_path / "no" / "such" / "report.html"),
        "a-folder": str(tmp_path / "a-folder"),
        "file-as-folder": str(tmp_path / "a-file" / "report.html"),
        "empty": "",
        "symlink": str(tmp_path / "link.html"),
    }


@pytest.mark.parametrize("case", ["missing-folder", "a-folder", "file-as-folder", "empty", "symlink"])
@pytest.mark.parametrize("command", ["validate", "cost", "suggest"])
def test_bad_output_path(case: str, command: str, tmp_path: Path) -> None:
    target = _bad_targets(tmp_path)[case]
    before = sorted(p.name for p in tmp_path.rglob("*"))
    args = {"validate": [str(ARTICLE)], "cost": COST_ARGS, "suggest": SUGGEST_ARGS}[command]
    result = invoke(command, *args, "--format", "html", "--output", target)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --output")
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing written, no temporary left
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "keep"


def test_failed_run_leaves_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    out.write_text("old", encoding="utf-8")
    result = invoke("validate", str(tmp_path / "missing.yaml"), "--format", "html", "--output", str(out))
    assert result.exit_code == 2
    assert out.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_output_works_for_every_format(tmp_path: Path) -> None:
    for name in REPORTER_BY_NAME:
        out = tmp_path / f"report.{name}"
        result = invoke("validate", str(ARTICLE), "--format", name, "--output", str(out))
        assert result.exit_code == 0 and result.stdout == ""
        assert out.read_text(encoding="utf-8").rstrip("\n") == invoke(
            "validate", str(ARTICLE), "-f", name
        ).stdout.rstrip("\n")
