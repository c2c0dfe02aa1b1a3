"""Findings carry the evidence of the facts they read; --verified-only treats recalled facts as unknown."""

from __future__ import annotations

import json

import yaml
from typer.testing import CliRunner

from partpicker.build import load_build
from partpicker.catalog import Catalog
from partpicker.catalog.verified import unverifiable, verified_catalog, without_recalled
from partpicker.cli import app
from partpicker.models import spec_fields
from partpicker.rules.rulebook import RuleSpec
from partpicker.validate.engine import evaluate

from .conftest import DATA, ROOT

EV_CATALOG = DATA / "catalogs" / "evidence"
RECALLED = DATA / "builds" / "valid" / "recalled-facts.yaml"
ARTICLE = ROOT / "examples" / "article-2018.yaml"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def _fixture_evidence() -> dict[tuple[str, str], dict[str, str]]:
    """(part id, field) -> the field_evidence as the fixture files write it (read as plain YAML)."""
    out = {}
    for path in EV_CATALOG.glob("*.yaml"):
        for part in yaml.safe_load(path.read_text())["parts"]:
            for name, ev in part.get("field_evidence", {}).items():
                out[(part["id"], name)] = ev
    return out


def _by_rule(doc: dict) -> dict[str, dict]:
    return {f["rule"]: f for f in doc["findings"]}


def test_a_recalled_pass_is_marked_and_listed_to_verify() -> None:
    result = run("validate", str(RECALLED), "--catalog", str(EV_CATALOG))
    out = result.stdout
    assert "[ ok*] cpu-cores" in out
    assert "[ ok*] case-form-factor" in out
    assert "[  ok] cpu-pcie-lanes" in out  # lanes rest on the manual
    assert "ok* = passes on derived or recalled facts" in out
    verify = out.split("Verify before you buy", 1)[1]
    assert "Test Threadripper 16C: cores (recalled) - Verify on the maker's spec page" in verify
    assert "Test Tower: form_factors (recalled)" in verify
    assert "pcie_lanes" not in verify


def test_json_gives_each_finding_the_evidence_the_catalog_states() -> None:
    doc = json.loads(run("validate", str(RECALLED), "--catalog", str(EV_CATALOG), "-f", "json").stdout)
    written = _fixture_evidence()
    for f in doc["findings"]:
        for e in f["evidence"]:
            assert set(e) == {"role", "part", "field", "kind", "source", "note"}
            own = written.get((e["part"], e["field"]))
            if own is not None:
                assert (e["kind"], e["source"], e["note"]) == (own["kind"], own.get("source"), own.get("note"))
    cores = _by_rule(doc)["cpu-cores"]
    assert [(e["field"], e["kind"]) for e in cores["evidence"]] == [("cores", "recalled")]
    assert cores["rests_on_weak_evidence"] is True
    assert {(e["part"], e["field"]) for e in doc["verify"]} == {
        ("test-tr-16c", "cores"),
        ("test-tower", "form_factors"),
    }
    board = doc["part_evidence"]["motherboard"]
    assert board == {"unstated": ["socket", "form_factor"]}


def test_verified_only_turns_recalled_passes_into_unknown() -> None:
    before = _by_rule(json.loads(run("validate", str(RECALLED), "--catalog", str(EV_CATALOG), "-f", "json").stdout))
    result = run("validate", str(RECALLED), "--catalog", str(EV_CATALOG), "-f", "json", "--verified-only")
    doc = json.loads(result.stdout)
    after = _by_rule(doc)
    assert doc["verified_only"] is True
    assert before["cpu-cores"]["status"] == "pass" and after["cpu-cores"]["status"] == "unknown"
    # a required field (the case's form factors) cannot be nulled: the rule is kept from passing
    assert before["case-form-factor"]["status"] == "pass" and after["case-form-factor"]["status"] == "unknown"
    assert "recalled form_factors of Test Tower" in after["case-form-factor"]["message"]
    # The fact it lacks is the recalled one set unknown: said once, as for a pass (not "not in the catalog").
    said = after["cpu-cores"]["message"]
    assert said == "not checked: rests on recalled cores of Test Threadripper 16C (--verified-only)"
    # what rests on documented facts is unchanged
    for rule in ("cpu-socket", "cpu-pcie-lanes"):
        assert before[rule]["status"] == after[rule]["status"] == "pass"
    assert doc["verify"] == []


def test_evidence_is_the_known_facts_each_rule_reads(catalog: Catalog, rules: dict[str, RuleSpec]) -> None:
    """Second path: walk the rule's `reads:` over the build's parts directly."""
    build = load_build(ARTICLE, catalog)
    report = evaluate(build, rules)
    for f in report.findings:
        expect = set()
        for role, fields in rules[f.rule].reads.items():
            for part in build.all(role):
                expect |= {(role, part.id, name) for name in fields if getattr(part, name) is not None}
        assert {(e.role, e.part, e.field) for e in f.evidence} == expect, f.rule
        for e in f.evidence:
            stated = catalog.parts[e.part].evidence_of(e.field)
            assert e.kind == (stated.kind if stated else None)


def test_the_article_build_lists_the_derived_slot_map_to_verify(catalog: Catalog, rules: dict[str, RuleSpec]) -> None:
    report = evaluate(load_build(ARTICLE, catalog), rules)
    slots = next(f for f in report.findings if f.rule == "gpu-slots")
    if slots.status != "pass":  # the data decide; the marking is what is tested
        return
    assert slots.rests_on_weak
    assert ("msi-x399-sli-plus", "pcie_slots") in {(e.part, e.field) for e in report.verify}


def test_verified_catalog_nulls_exactly_the_recalled_nullable_facts(catalog: Catalog) -> None:
    stripped = verified_catalog(catalog)
    assert len(stripped) == len(catalog)
    changed = 0
    for part in catalog:
        after = stripped.parts[part.id]
        for name in spec_fields(type(part)):
            if _recalled(part, name) and name not in unverifiable(part):
                assert getattr(after, name) is None, (part.id, name)
                changed += getattr(part, name) is not None
            else:
                assert getattr(after, name) == getattr(part, name), (part.id, name)
    assert changed > 0
    dropped = verified_catalog(catalog, drop_unverifiable=True)
    assert set(dropped.parts) == {p.id for p in catalog if not unverifiable(p)}
    untouched = [p for p in catalog if not any(_recalled(p, n) for n in spec_fields(type(p)))]
    assert untouched and all(without_recalled(p) is p for p in untouched)


def _recalled(part, name: str) -> bool:
    ev = part.evidence_of(name)
    return ev is not None and ev.kind == "recalled"


def test_github_and_sarif_mention_the_facts_to_verify() -> None:
    gh = run("validate", str(RECALLED), "--catalog", str(EV_CATALOG), "-f", "github").stdout
    notice = [line for line in gh.splitlines() if "title=verify before you buy::" in line]
    assert len(notice) == 1 and "Test Threadripper 16C cores (recalled)" in notice[0]
    sarif = json.loads(run("validate", str(RECALLED), "--catalog", str(EV_CATALOG), "-f", "sarif").stdout)
    run0 = sarif["runs"][0]
    assert {(e["part"], e["field"]) for e in run0["properties"]["verify"]} == {
        ("test-tr-16c", "cores"),
        ("test-tower", "form_factors"),
    }
    notes = {r["ruleId"] for r in run0["results"] if "verify before you buy" in r["message"]["text"]}
    assert notes == {"cpu-cores", "case-form-factor"}


def test_a_weak_evidence_default_takes_its_note_from_the_parts_notes() -> None:
    import pytest
    from pydantic import ValidationError

    from partpicker.models import Psu

    base = {"id": "test-psu", "name": "Test PSU", "brand": "Test", "sources": ["a manual"], "watts": 1000}
    with pytest.raises(ValidationError, match="needs the part's notes"):
        Psu.model_validate({**base, "evidence": "recalled"})
    part = Psu.model_validate({**base, "evidence": "recalled", "notes": "Test PSU manual, p. 3 (recalled)"})
    ev = part.evidence_of("watts")
    assert ev is not None and ev.kind == "recalled" and ev.note == "Test PSU manual, p. 3 (recalled)"
    assert Psu.model_validate({**base, "evidence": "maker"}).evidence_of("watts").note is None


def test_suggest_says_when_verified_only_is_on() -> None:
    on = runner.invoke(app, ["suggest", "--gpus", "4", "--as-of", "2025-07-31", "--verified-only"])
    assert "recalled facts treated as unknown (--verified-only)" in on.stdout.splitlines()[0], on.output
    doc = json.loads(runner.invoke(app, ["suggest", "--gpus", "4", "--as-of", "2025-07-31", "-f", "json"]).stdout)
    assert doc["verified_only"] is False
