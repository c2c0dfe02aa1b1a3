"""The HTML report in a real browser: headless Chromium renders it, takes a screenshot that is
not blank, lays out the slot map on the page, and logs no console errors.

Skipped where Chromium is not installed (Debian: ``apt-get install chromium``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from partpicker.html import PageView, render_page
from tests.support.html_pages import PAGES, write_page
from tests.support.html_views import board_view, page_view

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")]
WINDOW = (1100, 2600)
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--enable-logging=stderr",
    "--v=0",
    f"--window-size={WINDOW[0]},{WINDOW[1]}",
]
PROBE = """<script>
const out = {};
for (const id of ["slotmap", "power", "cost"]) {
  const e = document.getElementById(id);
  if (e) { const r = e.getBoundingClientRect(); out[id] = [r.left, r.top, r.width, r.height]; }
}
out.page = [document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth];
const pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>"""


def chromium(tmp_path: Path, page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    command = [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)


def console_errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "Uncaught" in line or re.search(r"CONSOLE.*[Ee]rror", line)]


def pages() -> dict[str, PageView]:
    base = page_view()
    return {
        "four-2slot": base,
        "four-3slot": replace(base, board=board_view("four-3slot-cards.yaml")),
        "unknown": replace(base, board=board_view("unknown-positions.yaml"), power=None, cost=None),
    }


@pytest.fixture(params=sorted(pages()))
def report(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / f"{request.param}.html"
    path.write_text(render_page(pages()[request.param]), encoding="utf-8")
    return path


@pytest.fixture(params=sorted(PAGES))
def cli_report(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A page as `partpicker validate|suggest|cost --format html --output` writes it."""
    return write_page(request.param, tmp_path)


def test_screenshot_is_not_blank_and_slot_map_is_drawn(report: Path, tmp_path: Path) -> None:
    check_page(report, tmp_path, "slotmap")


def test_cli_pages_render(cli_report: Path, tmp_path: Path) -> None:
    """Each page the CLI writes: not blank, its main picture laid out on the page, no console errors."""
    check_page(cli_report, tmp_path, "cost" if cli_report.stem == "cost" else "slotmap")


def check_page(report: Path, tmp_path: Path, picture: str) -> None:
    image_module = pytest.importorskip("PIL.Image")
    shot = tmp_path / "shot.png"
    run = chromium(tmp_path, report, f"--screenshot={shot}")
    assert shot.exists(), run.stderr[-2000:]
    assert console_errors(run.stderr) == []
    with image_module.open(shot) as image:
        rgb = image.convert("RGB")
    assert rgb.size == WINDOW
    colours = dict((c, n) for n, c in rgb.getcolors(WINDOW[0] * WINDOW[1]) or [])
    background = rgb.getpixel((2, 2))
    assert sum(colours.values()) - colours[background] > WINDOW[0] * WINDOW[1] // 50
    assert len(colours) > 16

    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = chromium(tmp_path, probe, "--dump-dom")
    assert console_errors(dom.stderr) == []
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout)
    assert found, dom.stderr[-2000:]
    boxes = json.loads(found.group(1).replace("&quot;", '"'))
    width, height, inner = boxes["page"]
    assert width <= inner  # nothing sticks out sideways
    left, top, w, h = boxes[picture]
    assert w > 300 and h > 200
    assert left >= 0 and left + w <= inner and top >= 0 and top + h <= height
    if top + h <= WINDOW[1]:  # the slot map is in the screenshot: it is drawn, not empty
        crop = rgb.crop((int(left), int(top), int(left + w), int(top + h)))
        assert len(crop.getcolors(WINDOW[0] * WINDOW[1]) or []) > 8


def test_console_errors_are_caught(tmp_path: Path) -> None:
    """The console check can fail: a page that throws is seen."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><p>x</p><script>throw new Error("boom")</script>', encoding="utf-8")
    run = chromium(tmp_path, page, "--dump-dom")
    assert console_errors(run.stderr)


def _screenshot(tmp_path: Path, page: Path, *args: str) -> tuple[int, ...]:
    """The colour of the page's top-left corner in a screenshot."""
    image_module = pytest.importorskip("PIL.Image")
    shot = tmp_path / f"corner-{len(args)}.png"
    run = chromium(tmp_path, page, f"--screenshot={shot}", *args)
    assert shot.exists(), run.stderr[-2000:]
    with image_module.open(shot) as image:
        corner: tuple[int, ...] = image.convert("RGB").getpixel((2, 2))
    return corner


def test_dark_and_light(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(render_page(page_view()), encoding="utf-8")
    assert sum(_screenshot(tmp_path, page)) > 600
    assert sum(_screenshot(tmp_path, page, "--force-dark-mode")) < 150


def test_prints_to_pdf(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(render_page(page_view()), encoding="utf-8")
    pdf = tmp_path / "page.pdf"
    run = chromium(tmp_path, page, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert pdf.exists(), run.stderr[-2000:]
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 10_000
