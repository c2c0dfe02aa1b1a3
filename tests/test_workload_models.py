"""The bundled model list: every entry sourced, parameter counts matching the model cards."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from partpicker.workload.models import ModelCatalog, ModelList, load_models, param_counts
from partpicker.workload.paths import models_file

DATA = Path(__file__).resolve().parent / "data" / "workload"

PARAM_TOLERANCE = 0.01  # derived count vs the model card's rounded figure
ACTIVE_TOLERANCE = 0.02  # MoE active parameters (cards round to one decimal: 3.3B, 12.9B)

WANTED = [
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.2-3b",
    "llama-3.3-70b",
    "qwen2.5-7b",
    "qwen2.5-14b",
    "qwen2.5-32b",
    "qwen2.5-72b",
    "qwen3-8b",
    "qwen3-32b",
    "qwen3-30b-a3b",
    "mistral-7b-v0.3",
    "mixtral-8x7b",
    "gemma-2-9b",
    "gemma-2-27b",
    "deepseek-r1-distill-qwen-32b",
    "deepseek-r1-distill-llama-70b",
    "phi-3-mini",
    "phi-4",
]


@pytest.fixture(scope="module")
def models() -> ModelCatalog:
    return load_models()


def test_bundled_file_is_found() -> None:
    assert models_file().is_file()


@pytest.mark.parametrize("model_id", WANTED)
def test_the_issue_models_are_bundled(models: ModelCatalog, model_id: str) -> None:
    assert model_id in models.models


def test_every_entry_names_its_config_and_evidence(models: ModelCatalog) -> None:
    for m in models:
        assert "config.json" in m.source, m.id
        assert m.evidence.kind in ("maker", "recalled"), m.id
        assert m.evidence.note, m.id


@pytest.mark.parametrize("model_id", [*WANTED, "llama-3.1-405b", "phi-3-medium"])
def test_derived_parameter_count_matches_the_card(models: ModelCatalog, model_id: str) -> None:
    m = models[model_id]
    assert m.params_published is not None
    derived = param_counts(m).total
    assert abs(derived / m.params_published - 1) <= PARAM_TOLERANCE, (derived, m.params_published)


@pytest.mark.parametrize("model_id", ["qwen3-30b-a3b", "mixtral-8x7b"])
def test_moe_active_parameters_match_the_card(models: ModelCatalog, model_id: str) -> None:
    m = models[model_id]
    assert m.active_params_published is not None and m.moe is not None
    assert abs(param_counts(m).active / m.active_params_published - 1) <= ACTIVE_TOLERANCE


def test_lookup_by_alias_name_and_case(models: ModelCatalog) -> None:
    assert models["Llama 3.1 70B"].id == "llama-3.1-70b"
    assert models["QWEN2.5-32B-Instruct"].id == "qwen2.5-32b"
    assert models.get("no-such-model") is None
    with pytest.raises(KeyError, match="unknown model"):
        models["no-such-model"]


def test_overlay_adds_and_replaces_by_id() -> None:
    merged = load_models(overlays=[DATA / "overlay.yaml"])
    assert merged["tiny"].id == "tiny-test-1b"
    assert merged["llama-3.1-8b"].max_context == 65536
    assert len(merged) == len(load_models()) + 1


def test_duplicate_ids_and_weak_evidence_without_note_are_rejected() -> None:
    raw = yaml.safe_load((DATA / "overlay.yaml").read_text())
    twice = {"models": [raw["models"][0], raw["models"][0]]}
    with pytest.raises(ValueError, match="listed twice"):
        ModelList.model_validate(twice)
    weak = dict(raw["models"][0], evidence={"kind": "recalled"})
    with pytest.raises(ValueError, match="needs a note"):
        ModelList.model_validate({"models": [weak]})


def test_head_dim_defaults_to_hidden_over_heads(models: ModelCatalog) -> None:
    tiny = load_models(overlays=[DATA / "overlay.yaml"])["tiny"]
    assert tiny.dim_head == 2048 // 32
    assert models["qwen3-32b"].dim_head == 128  # explicit, not 5120 / 64


def test_model_rows_for_the_models_command(models: ModelCatalog) -> None:
    from partpicker.workload.models import model_rows

    rows = {r["id"]: r for r in model_rows(models)}
    assert rows["mixtral-8x7b"]["experts"] == "2/8"
    assert rows["llama-3.1-8b"]["params_b"] == 8.03
    assert all(r["source"] and r["evidence"] for r in rows.values())
