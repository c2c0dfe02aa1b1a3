"""`suggest --workload` and `--circuit`: GPUs that hold the workload, exact ranking, power plans."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from partpicker.build import load_build
from partpicker.catalog import Catalog
from partpicker.circuits import CIRCUITS, circuit
from partpicker.cli import app
from partpicker.errors import InputError
from partpicker.models import Cpu, Gpu, Motherboard
from partpicker.suggest.answer import solve
from partpicker.suggest.offer import Request
from partpicker.vocab import EFFICIENCY_AT_FULL_LOAD
from partpicker.workload import fit, fit_grid, load_models, parse_workload
from partpicker.workplan.answer import WorkRequest, answer
from partpicker.workplan.gpus import gpu_options
from partpicker.workplan.power import power_plan

from .conftest import ROOT, fast_first, read_catalog_once

runner = CliRunner()
MODELS = load_models()
DAY = "2025-07-31"  # the newest prices of the bundled catalog
QUAD_3090 = ROOT / "examples" / "fail-4x-rtx-3090-fe-x399.yaml"  # 4 x 350 W cards, 1600 W Platinum
WORKLOADS = [
    "serve llama-3.1-8b bf16 ctx 8192 users 4",
    "lora llama-3.1-8b seq 2048",
    "serve qwen2.5-32b q4 ctx 16384 users 4",
    "qlora qwen2.5-32b seq 2048",
    "serve llama-3.1-70b q4 ctx 8192",
    "qlora llama-3.1-70b seq 4096 batch 1",
]


def _catalog():  # type: ignore[no-untyped-def]
    return read_catalog_once()[0]


def _suggest(*args: str) -> tuple[int, dict[str, object], str]:
    result = runner.invoke(app, ["suggest", *args, "--as-of", DAY, "--allow-unknown", "-f", "json"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.startswith("{") else {}, result.output


@pytest.mark.parametrize("line", fast_first(WORKLOADS, 1))
def test_suggested_gpus_hold_the_workload_and_the_build_validates(line: str, tmp_path: Path) -> None:
    out = tmp_path / "build.yaml"
    code, doc, text = _suggest("--workload", line, "--output", str(out))
    assert code == (0 if doc["verdict"] == "pass" else 3), text  # 3: passes only if unknown facts hold
    best = doc["options"][0]  # type: ignore[index]
    # The GPUs hold it, by the memory model on its own (not the answer's copy of the result).
    w = parse_workload(line, MODELS)
    assert fit(w, best["vram_gb"], best["n_gpus"]).fits
    build = load_build(out, _catalog())
    assert build.gpu_count == best["n_gpus"] and build.gpu is not None and build.gpu.chip == best["gpu"]
    result = runner.invoke(app, ["validate", str(out)])
    assert result.exit_code in (0, 1) and "FAIL" not in result.stdout.splitlines()[0], result.stdout
    ranks = [(not o["proven"], o["total_usd"]) for o in doc["options"]]  # type: ignore[union-attr]
    assert ranks == sorted(ranks)  # proven first, then by price


@pytest.mark.slow
@pytest.mark.parametrize("line", WORKLOADS)
def test_each_size_and_task_gets_a_proven_build_that_validate_passes(line: str, tmp_path: Path) -> None:
    """Issue 13's bar, without --allow-unknown: 8B, 32B and 70B, serving and training, each get a
    build proven on known facts (exit 0), ranked first, and `validate` finds no error rule
    failing or unchecked on the written build."""
    out = tmp_path / "build.yaml"
    result = runner.invoke(app, ["suggest", "--workload", line, "--as-of", DAY, "-f", "json", "--output", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["options"][0]["proven"] is True
    checked = runner.invoke(app, ["validate", str(out), "-f", "json"])
    assert checked.exit_code == 0, checked.stdout
    findings = json.loads(checked.stdout)["findings"]
    errors = [f for f in findings if f["severity"] == "error"]
    assert errors and all(f["status"] == "pass" for f in errors), [f for f in errors if f["status"] != "pass"]


@pytest.mark.slow
@pytest.mark.parametrize("allow_unknown", [True, False])
def test_the_ranking_equals_a_brute_force_over_every_gpu_and_count(allow_unknown: bool) -> None:
    """Every (GPU model, N) that fits, solved: the cheapest must be the answer's first."""
    _ranking_equals_brute_force(_catalog(), "serve qwen2.5-32b q4 ctx 16384 users 4", allow_unknown)


def test_the_ranking_equals_a_brute_force_on_a_few_gpu_models() -> None:
    """The same on a part of the bundled catalog (the fast suite's size): the GPUs of two models,
    one that holds the model on one card and one that needs two and costs less, and the CPUs and
    boards of a desktop socket and an HEDT one."""
    full = _catalog()
    chips, sockets = {"RTX A6000", "GeForce RTX 3090"}, {"AM4", "sTR4"}
    catalog = Catalog()
    for part in full:
        if isinstance(part, Gpu) and part.chip not in chips:
            continue
        if isinstance(part, Cpu | Motherboard) and part.socket not in sockets:
            continue
        catalog.add(part, full.origin_of(part.id))
    assert {o.name for o in gpu_options(catalog)} == chips
    _ranking_equals_brute_force(catalog, "serve qwen2.5-32b q4 ctx 16384 users 4")


def _ranking_equals_brute_force(catalog: Catalog, line: str, allow_unknown: bool = True) -> None:
    """Without allow_unknown, options whose floor reaches the third proven price go unsearched:
    the options shown must still be the brute force's cheapest three."""
    day = dt.date.fromisoformat(DAY)
    w = parse_workload(line, MODELS)
    base = Request(as_of=day, allow_unknown=allow_unknown, min_storage_gb=500)
    from partpicker.rules.rulebook import load_rules

    rules = load_rules()
    brute = []
    per_model: dict[tuple[str, float], tuple[int, list[tuple[bool, float]]]] = {}
    for r in fit_grid(w, gpu_options(catalog)):
        if r.fits:  # one PSU; where no build is proven on one, also two units of one model
            one = replace(base, gpus=r.n_gpus, start_gpus=r.n_gpus, gpu=r.gpu, min_vram=0)
            found: list[tuple[bool, float]] = []
            for psus in (1, 2):
                s = solve(catalog, rules, replace(one, psus=psus))
                found += [(s.status != "proven", c.now_usd) for c in s.choices[:1]]
                if s.status == "proven":
                    break
            brute += found
            best_here = [min(found)] if found else []
            key = (r.gpu, r.vram_gb)
            if key not in per_model or r.n_gpus < per_model[key][0]:  # the answer's: smallest fitting N
                per_model[key] = (r.n_gpus, best_here)
    assert brute
    got = answer(catalog, rules, WorkRequest(w, MODELS[w.model], base))
    assert got.status == "ok"
    first = got.options[0]
    assert (not first.proven, first.total_usd) == (min(brute)[0], pytest.approx(min(brute)[1]))
    # Every option shown, not only the first: options left unsearched (their floor at or over
    # the third proven price) cannot be among them.
    shown = [(not o.proven, o.total_usd) for o in got.options]
    smallest = sorted(x for _, found in per_model.values() for x in found)
    assert shown == [(p, pytest.approx(usd)) for p, usd in smallest[: len(shown)]]
    assert len(shown) == min(3, len(smallest))
    if got.miss is not None:  # the miss is cheaper than the answer and does not fit
        assert not got.miss.fit.fits and (got.miss.total_usd or 0) < (first.total_usd or 0)


def test_a_70b_full_fine_tune_under_5000_is_impossible_with_the_numbers() -> None:
    result = runner.invoke(
        app, ["suggest", "--workload", "finetune llama-3.1-70b full bf16", "--budget", "5000", "--as-of", DAY]
    )
    assert result.exit_code == 1
    assert "No build" in result.stdout and "GiB" in result.stdout and "1057" in result.stdout


def test_over_budget_says_what_the_cheapest_costs() -> None:
    code, doc, _ = _suggest("--workload", "qlora llama-3.1-70b seq 4096", "--budget", "1000", "--gpu", "RTX 3090")
    assert code == 1 and doc["status"] == "over-budget"
    assert "over the budget of $1,000.00" in str(doc["reason"])


@pytest.mark.slow
def test_options_over_the_budget_are_named_with_their_price_not_as_without_a_build() -> None:
    line = "serve qwen2.5-32b q4 ctx 16384 users 4"
    free = runner.invoke(app, ["suggest", "--workload", line, "--as-of", DAY, "-f", "json"])
    options = {(o["gpu"], o["n_gpus"]): o["total_usd"] for o in json.loads(free.stdout)["options"] if o["proven"]}
    budget = min(options.values()) - 1  # every proven option of the free run is over it
    capped = runner.invoke(app, ["suggest", "--workload", line, "--as-of", DAY, "--budget", str(budget), "-f", "json"])
    unbuilt = {(u["gpu"], u["n_gpus"]): u["cheapest_usd"] for u in json.loads(capped.stdout)["unbuilt"]}
    # Those the budgeted answer cannot build (some become unproven options under it) it prices as the free run does.
    both = sorted(set(options) & set(unbuilt), key=lambda k: options[k])
    assert both
    for key in both:
        assert unbuilt[key] == pytest.approx(options[key])
    text = runner.invoke(app, ["suggest", "--workload", line, "--as-of", DAY, "--budget", str(budget)]).stdout
    over = next(t for t in text.splitlines() if "hold it, over the budget:" in t)
    gpu, n = both[0]
    assert f"{n} x {gpu}" in over and f"${options[(gpu, n)]:,.2f}" in over
    assert all(f"{n} x {gpu}" not in t for t in text.splitlines() if "no build found" in t)


def test_min_vram_with_a_workload_keeps_only_cards_with_that_memory() -> None:
    line = "serve qwen2.5-32b q4 ctx 16384 users 4"
    _, doc, text = _suggest("--workload", line, "--min-vram", "24")
    options = doc["options"]
    assert isinstance(options, list) and options, text
    assert all(o["vram_gb"] >= 24 for o in options)
    free = _suggest("--workload", line)[1]["options"]
    assert isinstance(free, list) and any(o["vram_gb"] < 24 for o in free)  # the filter changed the answer


def test_workload_json_status_says_proven_or_unproven_as_the_text_does() -> None:
    line = "serve qwen2.5-32b q4 ctx 16384 users 4"
    seen = set()
    for extra in (["--as-of", DAY], ["--as-of", "2026-12-01", "--budget", "2500"]):  # the second: unproven
        result = runner.invoke(app, ["suggest", "--workload", line, *extra, "-f", "json"])
        doc = json.loads(result.stdout)
        proven = doc["options"][0]["proven"]
        seen.add(proven)
        assert doc["status"] == ("proven" if proven else "unproven")
        assert result.exit_code == (0 if proven else 3)
    assert seen == {True, False}


def test_over_budget_names_the_proven_build_the_free_answer_ranks_first() -> None:
    line = "serve qwen2.5-32b q4 ctx 16384 users 4"
    free = json.loads(runner.invoke(app, ["suggest", "--workload", line, "--as-of", DAY, "-f", "json"]).stdout)
    best = free["options"][0]
    assert best["proven"]
    capped = runner.invoke(app, ["suggest", "--workload", line, "--as-of", DAY, "--budget", "1000"])
    assert capped.exit_code == 1
    assert f"is {best['n_gpus']} x {best['gpu']} at ${best['total_usd']:,.2f} (proven)" in capped.stdout


def test_gpus_fewer_than_the_cards_that_hold_it_is_said() -> None:
    line = "serve qwen2.5-32b q4 ctx 16384 users 4"
    text = runner.invoke(app, ["suggest", "--workload", line, "--as-of", DAY, "--gpus", "1"]).stdout
    assert "note: --gpus 1 is fewer than the" in text


def test_min_vram_above_every_card_says_so() -> None:
    result = runner.invoke(app, ["suggest", "--workload", "serve llama-3.1-8b bf16", "--min-vram", "200"])
    assert result.exit_code == 1 and "no GPU model with 200 GB or more (--min-vram)" in result.stdout


def test_gpus_with_a_workload_is_room_to_grow(tmp_path: Path) -> None:
    line = "serve llama-3.1-8b bf16 ctx 8192 users 4"  # one 24 GB card holds it
    out = tmp_path / "build.yaml"
    _, doc, text = _suggest("--workload", line, "--gpus", "4", "--output", str(out))
    best = doc["options"][0]  # type: ignore[index]
    written = load_build(out, _catalog())
    assert written.target_gpus == 4 and best["n_gpus"] < 4, text  # ready for 4, the cards that hold it bought now
    assert written.count("gpu") == best["n_gpus"]


def test_workload_html_is_the_page_of_the_cheapest_option(tmp_path: Path) -> None:
    line = "serve llama-3.1-8b bf16 ctx 8192 users 4"
    page = tmp_path / "w.html"
    args = ["suggest", "--workload", line, "--as-of", DAY, "--allow-unknown", "-f", "html", "-o", str(page)]
    result = runner.invoke(app, args)  # as _suggest asks, so that both answers name one card
    assert result.exit_code in (0, 3) and "Traceback" not in result.output, result.output
    _, doc, _ = _suggest("--workload", line)
    card = doc["options"][0]["build"]["gpu"]["id"]  # type: ignore[index]
    name = _catalog().parts[card].name
    assert page.read_text().startswith("<!DOCTYPE html>") and name in page.read_text()
    none = tmp_path / "none.html"
    impossible = ["suggest", "--workload", "finetune llama-3.1-70b full bf16", "--budget", "5000", "-f", "html"]
    result = runner.invoke(app, [*impossible, "-o", str(none)])
    assert result.exit_code == 1 and "No build" in result.stderr and not none.exists()


def test_start_gpus_with_a_workload_is_bad_input() -> None:
    result = runner.invoke(app, ["suggest", "--workload", "serve llama-3.1-8b bf16", "--start-gpus", "2"])
    assert result.exit_code == 2 and "--start-gpus" in result.stderr and "--gpus N" in result.stderr


@pytest.mark.parametrize("bad", ["serve", "serve gpt-9", "serve llama-3.1-8b q3", "dance llama-3.1-8b"])
def test_a_bad_workload_is_exit_2(bad: str) -> None:
    result = runner.invoke(app, ["suggest", "--workload", bad])
    assert result.exit_code == 2 and "--workload" in result.stderr and "Traceback" not in result.output


# --- circuits and power plans


@pytest.mark.parametrize(("name", "watts"), [("us-15a", 1440), ("us-20a", 1920), ("eu-16a", 3680), ("jp-15a", 1500)])
def test_circuit_continuous_watts(name: str, watts: int) -> None:
    c = circuit(name)
    assert c.continuous_w == pytest.approx(watts)
    assert c.continuous_w <= c.volts * c.amps


def test_unknown_circuit_is_bad_input() -> None:
    with pytest.raises(InputError, match="us-15a"):
        circuit("uk-13a")
    result = runner.invoke(app, ["validate", str(QUAD_3090), "--circuit", "uk-13a"])
    assert result.exit_code == 2 and "unknown circuit" in result.stderr


def test_four_350w_cards_on_us_15a_get_a_stated_power_limit() -> None:
    build = load_build(QUAD_3090, _catalog())
    assert build.gpu is not None and build.gpu.board_power_w == 350
    cpu, psu = build.cpu, build.psu
    assert cpu is not None and psu is not None and cpu.tdp_w is not None and psu.efficiency is not None
    eff = EFFICIENCY_AT_FULL_LOAD[psu.efficiency]
    us = power_plan(build, CIRCUITS["us-15a"], 4)
    assert us.fits is False and us.wall_w == pytest.approx((cpu.tdp_w + 4 * 350 + 100) / eff)
    expected = int((1440 * eff - cpu.tdp_w - 100) // 4)
    assert us.limit_w == expected and 0.6 * 350 <= expected < 350
    assert (cpu.tdp_w + 4 * expected + 100) / eff <= 1440 < (cpu.tdp_w + 4 * (expected + 1) + 100) / eff
    assert any(f"power-limit each GPU to {expected} W" in line for line in us.lines)
    eu = power_plan(build, CIRCUITS["eu-16a"], 4)
    assert eu.fits is True and eu.limit_w is None


def test_a_limit_too_deep_asks_for_a_second_circuit() -> None:
    build = load_build(QUAD_3090, _catalog())
    plan = power_plan(build, CIRCUITS["jp-15a"], 8)
    assert plan.fits is False and plan.limit_w is None and plan.circuits >= 2
    assert any("circuits" in line and "second PSU" in line for line in plan.lines)


def test_validate_circuit_changes_the_wall_circuit_rule() -> None:
    us = runner.invoke(app, ["validate", str(QUAD_3090), "--circuit", "us-15a", "-f", "json"])
    eu = runner.invoke(app, ["validate", str(QUAD_3090), "--circuit", "eu-16a", "-f", "json"])
    status = {
        name: next(f for f in json.loads(r.stdout)["findings"] if f["rule"] == "wall-circuit")
        for name, r in (("us", us), ("eu", eu))
    }
    assert status["us"]["status"] == "fail" and status["eu"]["status"] == "pass"
    text = runner.invoke(app, ["validate", str(QUAD_3090), "--circuit", "us-15a"]).stdout
    assert "Power plan at 4 GPUs" in text and "power-limit each GPU to" in text


def test_suggest_circuit_adds_the_power_plan() -> None:
    args = ["suggest", "--gpus", "4", "--start-gpus", "4", "--gpu", "Quadro RTX 5000"]  # 4 x 265 W
    args += ["--as-of", DAY, "--allow-unknown"]
    us = runner.invoke(app, [*args, "--circuit", "us-15a"])
    eu = runner.invoke(app, [*args, "--circuit", "eu-16a"])
    assert us.exit_code == eu.exit_code and us.exit_code in (0, 3), us.output  # 3: proven only if unknowns hold
    assert "power-limit each GPU to" in us.stdout or "circuits" in us.stdout
    assert "no further power limit needed" in eu.stdout


def test_the_advised_power_limit_makes_validate_pass_on_the_circuit() -> None:
    """The plan's limit and the wall-circuit rule agree: at that limit the rule passes, one watt above fails."""
    plan = power_plan(load_build(QUAD_3090, _catalog()), CIRCUITS["us-15a"], 4)
    assert plan.limit_w is not None
    for watts, status in ((plan.limit_w, "pass"), (plan.limit_w + 1, "fail")):
        args = ["validate", str(QUAD_3090), "--circuit", "us-15a", "--power-limit", str(watts), "-f", "json"]
        findings = json.loads(runner.invoke(app, args).stdout)["findings"]
        assert next(f for f in findings if f["rule"] == "wall-circuit")["status"] == status


def test_the_exit_code_is_the_cheapest_options_proven_or_unproven() -> None:
    """Without --allow-unknown, an answer whose cheapest build only passes if unknown facts hold
    exits 3 (UNPROVEN), as plain `suggest` does; a proven one exits 0."""
    line = "serve qwen2.5-32b q4 ctx 16384 users 4"
    result = runner.invoke(app, ["suggest", "--workload", line, "--as-of", DAY, "--gpu", "RTX 3060"])
    out = result.stdout
    assert ("UNPROVEN" in out) or ("proven to pass" in out), out
    assert result.exit_code == (3 if "UNPROVEN" in out else 0), out


def test_the_json_options_carry_counts() -> None:
    """`-f json` gives each option's build with counts, as plain `suggest -f json` does."""
    code, doc, _ = _suggest("--workload", "serve llama-3.1-70b q4 ctx 8192", "--gpu", "RTX 4060 Ti")
    assert code in (0, 3)
    best = doc["options"][0]  # type: ignore[index]
    assert best["build"]["gpu"]["count"] == best["n_gpus"]
    assert all({"id", "count"} <= set(v if isinstance(v, dict) else v[0]) for v in best["build"].values())
