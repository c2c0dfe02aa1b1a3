"""Issue 10: every bad name at once, `find`, generic parts, your own parts and prices."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from partpicker.catalog import Catalog, load_catalog
from partpicker.cli import app
from partpicker.models import CATEGORIES

from .conftest import DATA, ROOT

runner = CliRunner()
BUILDS = DATA / "builds" / "names"
PARTS = DATA / "parts"
MY_PARTS = PARTS / "my-parts.yaml"


def run(*args: str | Path):
    return runner.invoke(app, [str(a) for a in args])


def report(*args: str | Path) -> dict:
    result = run("validate", *args, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def rule(found: dict, rule_id: str) -> str:
    return next(f["status"] for f in found["findings"] if f["rule"] == rule_id)


# --- every bad name at once -----------------------------------------------------------------


def test_every_bad_name_is_listed_in_one_run() -> None:
    path = BUILDS / "five-bad-names.yaml"
    raw = yaml.safe_load(path.read_text())["parts"]
    result = run("validate", path)
    assert result.exit_code == 2
    err = result.stderr
    assert err.count("error:") == 1 and "Traceback" not in err
    assert "5 parts could not be resolved" in err
    lines = path.read_text().splitlines()
    bad = [raw["cpu"], raw["gpu"]["part"], raw["ssd"][1], raw["psu"], raw["case"]]
    for name in bad:
        number = next(i for i, text in enumerate(lines, 1) if name in text)
        assert f"line {number}: " in err and repr(name) in err, name
    # the good names are not listed, and each candidate is on a line of its own
    assert "Samsung 970 EVO 1TB'" not in err and "MSI X399 SLI Plus'" not in err
    assert "\n    - amd-ryzen-threadripper-1920x  (" in err


# --- find -----------------------------------------------------------------------------------


@pytest.mark.parametrize("category", sorted(CATEGORIES))
def test_find_lists_each_part_by_its_name(category: str, catalog: Catalog) -> None:
    parts = catalog.by_category[category]
    assert parts
    for part in parts:
        result = run("find", part.name, "--category", category, "--format", "json", "--limit", "500")
        assert result.exit_code == 0, result.output
        found = json.loads(result.stdout)
        assert found["how"] == "match"
        ids = [p["id"] for p in found["parts"]]
        assert part.id in ids, (part.name, ids[:5])
        assert all(p["category"] == category for p in found["parts"])


def test_find_keeps_variant_words() -> None:
    found = json.loads(run("find", "RTX 3090", "--format", "json", "--limit", "100").stdout)
    chips = {p["chip"] for p in found["parts"]}
    assert chips == {"GeForce RTX 3090"}, chips  # never a 3090 Ti


def test_find_filters_by_specs_and_price(catalog: Catalog) -> None:
    import datetime as dt

    day = dt.date(2025, 7, 31)
    result = run("find", "", "--min-vram", "24", "--max-price", "2000", "--as-of", day.isoformat(), "-f", "json")
    found = json.loads(result.stdout)
    ids = {p["id"] for p in found["parts"]}
    expected = set()
    for gpu in catalog.by_category["gpu"]:
        point = gpu.price_as_of(day)
        if gpu.vram_gb is not None and gpu.vram_gb >= 24 and point is not None and point.usd <= 2000:
            expected.add(gpu.id)
    assert ids == expected and ids
    assert found["unknown"].get("max_price", 0) > 0  # unpriced cards are counted, not shown


def test_find_by_socket_spans_categories(catalog: Catalog) -> None:
    found = json.loads(run("find", "", "--socket", "tr4", "-f", "json", "--limit", "500").stdout)
    cats = {p["category"] for p in found["parts"]}
    assert cats <= {"cpu", "motherboard", "cooler"} and {"cpu", "motherboard"} <= cats
    boards = {p["id"] for p in found["parts"] if p["category"] == "motherboard"}
    assert boards == {b.id for b in catalog.by_category["motherboard"] if b.socket == "sTR4"}


def test_find_nothing_fits_shows_nearest_and_exits_1() -> None:
    result = run("find", "Threadriper 1950", "-c", "cpu")
    assert result.exit_code == 1
    assert "nearest by spelling" in result.stdout
    assert "amd-ryzen-threadripper-1950x" in result.stdout.splitlines()[1]


def test_find_bad_filter_is_exit_2() -> None:
    result = run("find", "x", "-c", "case", "--min-vram", "8")
    assert result.exit_code == 2 and "--min-vram does not apply to a case" in result.stderr
    assert run("find", "x", "--socket", "LGA9999").exit_code == 2


# --- generic parts by spec ------------------------------------------------------------------


def test_generic_ram_and_ssd_are_checked_by_their_specs() -> None:
    found = report(BUILDS / "generic-ram-ssd.yaml")
    ram, ssd = found["parts"]["ram"], found["parts"]["ssd"]
    assert ram["origin"] == ssd["origin"] == "generic part: from its name"
    assert ram["id"] == "generic-ram-4x16gb-ddr4-3200"
    assert ssd["id"].startswith("generic-ssd-2000gb-m2-2280-nvme")
    assert ram["usd"] == 139.99 and ram["price_from_user"]  # the price given in the build file
    assert ssd["usd"] is None  # a generic part has no price of its own
    for rule_id in ("m2-slot", "m2-nvme"):
        assert rule(found, rule_id) == "pass"
    assert any("generic part" in line for line in found["from_user"])
    # Its name does not say registered or unbuffered, and the board takes UDIMMs only: unknown, never a pass.
    memory = next(f for f in found["findings"] if f["rule"] == "memory-compat")
    assert memory["status"] == "unknown" and "buffering (RDIMM or UDIMM)" in memory["message"]
    said = report(BUILDS / "generic-ram-udimm-ssd.yaml")
    assert said["parts"]["ram"]["origin"] == "generic part: from its name"
    assert rule(said, "memory-compat") == "pass"


def test_generic_specs_can_fail() -> None:
    found = report(BUILDS / "generic-ddr5-on-ddr4.yaml")
    assert found["parts"]["ram"]["origin"] == "generic part: from its name"
    assert rule(found, "memory-compat") == "fail"  # DDR5 kit on a DDR4 board
    assert rule(found, "m2-nvme") == "fail"  # a 2.5" SATA boot drive
    text = run("validate", BUILDS / "generic-ddr5-on-ddr4.yaml").stdout
    assert "generic part: from its name" in text


@pytest.mark.parametrize(
    ("name", "category"),
    [("64GB DDR4-3200", "ram"), ("DDR5 128GB", "ram"), ("2TB NVMe M.2 PCIe 4.0", "ssd"), ("2TB NVMe", "ssd")],
)
def test_no_generic_part_without_every_spec(name: str, category: str, catalog: Catalog) -> None:
    from partpicker.catalog import generic

    assert generic.from_name(name, category) is None


# --- your own parts and prices --------------------------------------------------------------


def test_parts_file_adds_a_gpu_and_a_price_on_top_of_the_catalog(catalog: Catalog) -> None:
    found = report(BUILDS / "my-gpu.yaml", "--parts", MY_PARTS)
    gpu, psu, cpu = found["parts"]["gpu"], found["parts"]["psu"], found["parts"]["cpu"]
    assert gpu["id"] == "my-lab-blower-rtx-4090-48gb" and gpu["count"] == 2
    assert gpu["origin"].startswith(f"your parts file {MY_PARTS}:")
    assert gpu["usd"] == 3200 and gpu["price_from_user"] == str(MY_PARTS)
    assert psu["usd"] == 189.5 and psu["price_from_user"] == str(MY_PARTS) and psu["origin"] is None
    assert cpu["origin"] is None and cpu["price_from_user"] is None  # the bundled catalog is still there
    assert any("my-parts.yaml" in line for line in found["from_user"])
    assert rule(found, "gpu-cooling") == "pass"  # the overlay GPU's specs are read
    # without the parts file, the GPU is unknown: the overlay did not change the loaded catalog
    assert run("validate", BUILDS / "my-gpu.yaml").exit_code == 2
    assert "my-lab-blower-rtx-4090-48gb" not in catalog.parts


def test_the_user_parts_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARTPICKER_CONFIG_DIR", str(tmp_path))
    where = run("parts", "path").stdout.splitlines()
    assert where[0] == str(tmp_path / "parts.yaml")
    (tmp_path / "parts.yaml").write_text(MY_PARTS.read_text())
    found = report(BUILDS / "my-gpu.yaml")
    assert found["parts"]["gpu"]["origin"].startswith(f"your parts file {tmp_path / 'parts.yaml'}:")


def test_overlay_errors_give_file_and_line() -> None:
    result = run("validate", BUILDS / "my-gpu.yaml", "--parts", PARTS / "broken.yaml")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    err = result.stderr
    text = (PARTS / "broken.yaml").read_text().splitlines()
    vram = next(i for i, t in enumerate(text, 1) if "vram_gb" in t)
    again = next(i for i, t in enumerate(text, 1) if "evga-supernova-1600-p2" in t)
    assert f"broken.yaml:{vram}: broken-gpu: vram_gb" in err
    assert f"broken.yaml:{again}: 'evga-supernova-1600-p2' is already a part" in err


def test_inline_spec_part() -> None:
    found = report(BUILDS / "inline-spec.yaml")
    gpu = found["parts"]["gpu"]
    assert gpu["name"] == "Shop-modded RTX 4090D 48GB blower"
    assert "your spec in the build file" in gpu["origin"] and gpu["usd"] == 3100
    assert rule(found, "gpu-cooling") == "pass"
    bad = run("validate", BUILDS / "inline-spec-bad.yaml")
    assert bad.exit_code == 2 and "inline-spec-bad.yaml:7: parts.gpu.spec.vram_gb" in bad.stderr


def test_prices_import_round_trips(tmp_path: Path) -> None:
    out = tmp_path / "prices.yaml"
    result = run("prices", "import", PARTS / "prices.csv", "--output", out)
    assert result.exit_code == 0, result.output
    rows = [r.split(",") for r in (PARTS / "prices.csv").read_text().splitlines()[1:]]
    catalog = load_catalog()
    from partpicker.catalog.overlay import apply_overlays

    mine = apply_overlays(catalog, [out])
    board = mine.parts["msi-x399-sli-plus"]
    assert [(p.usd, p.kind) for p in board.prices if p.source == "eBay"] == [(149.0, "used")]
    assert mine.parts["samsung-970-evo-1tb"].prices[-1].usd == float(rows[0][3])
    assert (
        len(mine.parts["fractal-design-celsius-s24"].prices)
        == len(catalog.parts["fractal-design-celsius-s24"].prices) + 1
    )
    n = len(rows)
    assert f"{n} new price(s) of {n} from" in result.stdout
    # importing again adds nothing twice, and says so
    before = out.read_text()
    again = run("prices", "import", PARTS / "prices.csv", "--output", out)
    assert again.exit_code == 0 and out.read_text() == before
    assert f"0 new price(s) of {n} from" in again.stdout and f"({n} of them already there)" in again.stdout
    # and validate shows the imported price as the user's
    found = report(BUILDS / "generic-ram-ssd.yaml", "--parts", out, "--as-of", "2025-09-02")
    assert found["parts"]["motherboard"]["usd"] == 149.0
    assert found["parts"]["motherboard"]["price_from_user"] == str(out)
    # and cost says the purchase price is partly the user's
    cost = run("cost", ROOT / "examples" / "article-2018.yaml", "--parts", out, "--as-of", "2025-09-02")
    assert "(catalog and your prices)" in cost.stdout, cost.output
    given = run("cost", ROOT / "examples" / "article-2018.yaml", "--as-of", "2025-09-02", "--price", "motherboard=149")
    assert "(catalog and given part prices)" in given.stdout and "your prices" not in given.stdout, given.output


def test_prices_import_bad_rows_write_nothing(tmp_path: Path) -> None:
    out = tmp_path / "prices.yaml"
    result = run("prices", "import", PARTS / "bad-prices.csv", "--output", out)
    assert result.exit_code == 2
    assert "3 bad rows" in result.stderr and "line 2:" in result.stderr and "line 4:" in result.stderr
    assert not out.exists()


def test_suggest_uses_your_prices_and_says_so() -> None:
    args = ("suggest", "--gpus", "4", "--budget", "5000", "--as-of", "2025-07-23", "-f", "json")
    plain = json.loads(run(*args).stdout)
    mine = json.loads(run(*args, "--parts", PARTS / "cheap-psu.yaml").stdout)
    assert plain["from_user"] == []
    assert mine["build"]["psu"]["id"] == "evga-supernova-1600-p2" != plain["build"]["psu"]["id"]
    assert mine["build"]["psu"]["usd"] == 20
    assert mine["total_usd"] < plain["total_usd"]
    assert mine["from_user"] == [f"psu: price $20.00 of 2025-07-23: from {PARTS / 'cheap-psu.yaml'}"]


def test_cost_says_which_parts_and_prices_are_yours() -> None:
    args = ("--parts", MY_PARTS, "--as-of", "2025-09-15", "--price", "motherboard=300")
    result = run("cost", BUILDS / "my-gpu.yaml", *args)
    assert result.exit_code == 0, result.output
    gpu = next(line for line in result.stdout.splitlines() if "My Lab Blower" in line)
    assert "[your parts file" in gpu and f"(yours: {MY_PARTS})" in gpu
    psu = next(line for line in result.stdout.splitlines() if "SuperNOVA 1600 P2" in line)
    assert "$189.50" in psu and "yours" in psu


def test_prices_import_refuses_a_future_date_naming_its_line(tmp_path: Path) -> None:
    """A price is a fact of a day that has come (catalog check's rule): a row dated after today
    is bad input, named by its own line, and nothing is written."""
    import datetime as dt

    from partpicker.pricing import today

    later = today() + dt.timedelta(days=1)
    csv = tmp_path / "future.csv"
    csv.write_text(f"id,usd,date\nsamsung-970-evo-1tb,99,{today()}\nsamsung-970-evo-1tb,89,{later}\n", encoding="utf-8")
    out = tmp_path / "prices.yaml"
    result = run("prices", "import", csv, "--output", out)
    assert result.exit_code == 2
    assert f"{csv}:3" in result.stderr and f"date {later} is in the future" in result.stderr
    assert not out.exists()
