"""Build-file features: counts, drive lists, per-build rule overrides."""

from __future__ import annotations

import dataclasses

import pytest

from partpicker.build import load_build
from partpicker.validate.engine import evaluate

from .conftest import DATA


def test_counts_lists_and_overrides(catalog, rules) -> None:
    build = load_build(DATA / "builds" / "valid" / "overrides.yaml", catalog)
    assert build.gpu_count == 2 and build.ram_count == 2
    assert [d.id for d in build.ssds] == ["samsung-970-evo-1tb", "samsung-860-evo-1tb"]
    report = evaluate(build, rules)
    found = {f.rule: f for f in report.findings}
    # With a 1000 W floor and no margin the load decides: 180 + 4 x 250 + 100 = 1280 W > 1200 W.
    assert found["psu-wattage"].status == "fail"
    assert "1280 W needed" in found["psu-wattage"].message
    assert found["gpu-cooling"].severity == "error"
    assert "wall-circuit" not in found
    assert any(s.rule == "wall-circuit" and "turned off" in s.reason for s in report.skipped)
    # Two kits of 4 x 16 GB: 128 GB in 8 modules, the board's 8 slots and 128 GB maximum.
    assert found["memory-compat"].status == "pass", found["memory-compat"].message
    assert "128 GB of DDR4 in 8 modules" in found["memory-compat"].message
    # The M.2 drive boots; the 2.5-inch SATA drive needs no M.2 slot.
    assert found["m2-nvme"].status == "pass"
    assert found["m2-slot"].status == "pass"
    assert report.parts["ssd-2"].id == "samsung-860-evo-1tb"
    assert report.parts["gpu"].count == 2


def test_override_changes_the_outcome(catalog, rules) -> None:
    build = load_build(DATA / "builds" / "valid" / "overrides.yaml", catalog)
    strict_floor = evaluate(dataclasses.replace(build, rules={}), rules)
    assert {f.rule: f.status for f in strict_floor.findings}["psu-wattage"] == "fail"
    assert "1408 W needed" in {f.rule: f.message for f in strict_floor.findings}["psu-wattage"]


@pytest.mark.parametrize(
    ("count", "phrase"),
    [
        ("0", "parts.gpu.count: Input should be greater than or equal to 1 (got 0)"),
        ("2.5", "parts.gpu.count: Input should be a valid integer (got 2.5)"),
        ('"2"', "parts.gpu.count: Input should be a valid integer (got '2')"),
        ("99", "parts.gpu.count: Input should be less than or equal to 16 (got 99)"),
    ],
)
def test_a_bad_count_is_named_as_the_count(count: str, phrase: str, tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    """A part written as a mapping is reported by the mapping's error, not "should be a string"."""
    from partpicker.errors import InputError

    path = tmp_path / "build.yaml"
    path.write_text(f"name: x\nparts:\n  cpu: intel-core-i9-7920x\n  gpu: {{part: nvidia-titan-rtx, count: {count}}}\n")
    with pytest.raises(InputError) as caught:
        load_build(path, catalog)
    assert phrase in str(caught.value) and caught.value.line == 4


def test_an_empty_psu_list_is_bad_input(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    from partpicker.errors import InputError

    path = tmp_path / "build.yaml"
    path.write_text("name: x\nparts:\n  cpu: intel-core-i9-7920x\n  psu: []\n")
    with pytest.raises(InputError) as caught:
        load_build(path, catalog)
    assert "parts.psu: an empty list" in str(caught.value) and caught.value.line == 4
