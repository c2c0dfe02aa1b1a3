"""fit: one (GPU, N) answer with per-card numbers and headroom; the grid suggest will use; parsing."""

from __future__ import annotations

import pytest

from partpicker.workload.fit import DEFAULT_HEADROOM, GpuOption, fit, fit_grid, fit_options, nearest_miss
from partpicker.workload.models import load_models
from partpicker.workload.workload_spec import Workload, WorkloadSpecError, parse_workload

MODELS = load_models()
GPUS = [
    GpuOption("RTX 3060 12GB", 12),
    GpuOption("RTX 3090", 24),
    GpuOption("RTX 5090", 32),
    GpuOption("A100 80GB", 80),
]


def test_default_headroom_is_ten_percent() -> None:
    assert DEFAULT_HEADROOM == 0.10


def test_qlora_70b_fits_one_80gb_card_not_one_24gb_card() -> None:
    w = parse_workload("qlora llama-3.1-70b seq 4096 batch 1", MODELS)
    big, small = fit(w, 80), fit(w, 24)
    assert big.fits and not small.fits
    assert big.margin_gib is not None and big.margin_gib > 0
    assert "needs" in small.reason and "GiB" in small.reason
    assert small.per_card_gib()[0]["total"] > 24 * 0.9


def test_headroom_is_applied_per_card() -> None:
    w = parse_workload("serve llama-3.1-8b bf16 ctx 8192 users 1", MODELS)
    need = fit(w, 1000).peak_gib
    assert need is not None
    assert fit(w, need / 0.9 + 0.01).fits
    assert not fit(w, need / 0.9 - 0.01).fits
    assert fit(w, need + 0.01, headroom=0).fits


def test_impossible_split_is_a_no_with_the_reason() -> None:
    w = parse_workload("serve llama-3.2-3b q4", MODELS)
    r = fit(w, 24, 3, strategy="tensor")
    assert not r.fits and r.plan is None and "power-of-two" in r.reason


def test_full_finetune_of_70b_does_not_fit_eight_24gb_cards() -> None:
    w = parse_workload("finetune llama-3.1-70b full bf16", MODELS)
    r = fit(w, 24, 8)
    assert not r.fits and r.peak_gib is not None and r.peak_gib > 100


def test_options_are_fitting_and_smallest_first() -> None:
    w = parse_workload("serve qwen2.5-32b q4 ctx 16384 users 4", MODELS)
    options = fit_options(w, GPUS)
    assert options and all(o.fits for o in options)
    totals = [o.total_vram_gb for o in options]
    assert totals == sorted(totals)
    # 2 x 24 and 4 x 12 tie at 48 GiB: fewer cards first
    assert [(o.gpu, o.n_gpus) for o in options[:2]] == [("RTX 3090", 2), ("RTX 3060 12GB", 4)]
    grid = fit_grid(w, GPUS)
    assert len(grid) == len(GPUS) * 8
    miss = nearest_miss(grid)
    assert miss is not None and not miss.fits


def test_more_cards_never_turn_a_fit_into_a_miss_under_tensor_parallel() -> None:
    w = parse_workload("serve llama-3.1-70b q4 ctx 8192 users 2", MODELS)
    fits = [fit(w, 24, n).fits for n in (1, 2, 4, 8)]
    assert fits == sorted(fits)


# --- the workload line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,expected",
    [
        (
            "serve qwen2.5-32b q4 ctx 16384 users 4",
            {"task": "serve", "weights": "q4_k_m", "context": 16384, "users": 4},
        ),
        ("finetune llama-3.1-8b full bf16", {"task": "full", "weights": "bf16"}),
        ("qlora llama-3.1-70b seq 4096 batch 1", {"task": "qlora", "weights": "nf4", "seq": 4096, "batch": 1}),
        ("finetune llama-3.1-8b lora seq 2k rank 64", {"task": "lora", "seq": 2048, "lora_rank": 64}),
        ("serve llama-3.1-70b fp8 ctx 32k batch 8 kv fp8", {"users": 8, "context": 32768, "kv_dtype": "fp8"}),
        ("lora qwen2.5-7b no-checkpointing adamw-8bit", {"gradient_checkpointing": False, "optimizer": "adamw_8bit"}),
    ],
)
def test_parse_workload(text: str, expected: dict[str, object]) -> None:
    w = parse_workload(text, MODELS)
    for key, value in expected.items():
        assert getattr(w, key) == value, key


def test_parse_makes_the_model_canonical_and_round_trips() -> None:
    w = parse_workload("serve Qwen2.5-32B-Instruct awq ctx 8192", MODELS)
    assert w.model == "qwen2.5-32b"
    assert parse_workload(w.describe(), MODELS) == w


@pytest.mark.parametrize(
    "text,message",
    [
        ("serve", "a workload is"),
        ("dance llama-3.1-8b", "unknown task"),
        ("serve no-such-model", "unknown model"),
        ("serve llama-3.1-8b ctx lots", "needs a number"),
        ("serve llama-3.1-8b sparkly", "cannot read"),
        ("finetune llama-3.1-8b full q4", "cannot be trained"),
        ("qlora llama-3.1-8b bf16", "4-bit base"),
        ("qlora llama-3.1-8b q4", "4-bit base"),
    ],
)
def test_parse_errors_say_why(text: str, message: str) -> None:
    with pytest.raises(WorkloadSpecError, match=message):
        parse_workload(text, MODELS)


def test_workload_is_frozen() -> None:
    w = Workload(task="serve", model="llama-3.1-8b")
    with pytest.raises(ValueError):
        w.users = 3  # type: ignore[misc]


@pytest.mark.parametrize("model_id", sorted(MODELS.models))
def test_every_model_and_task_gets_a_per_card_breakdown_on_1_to_8_cards(model_id: str) -> None:
    for task in ("serve", "full", "lora", "qlora"):
        w = Workload(task=task, model=model_id)
        for n in range(1, 9):
            r = fit(w, 80, n, model=MODELS[model_id])
            assert r.plan is not None, r.reason
            cards = r.per_card_gib()
            assert len(cards) == n and all(c["total"] > 0 for c in cards)


def test_context_beyond_the_model_is_noted() -> None:
    w = parse_workload("serve gemma-2-9b ctx 32k", MODELS)
    r = fit(w, 80)
    assert r.plan is not None
    assert any("exceed" in n for n in r.plan.notes)


@pytest.mark.parametrize(
    ("line", "phrase"),
    [
        ("qlora llama-3.1-8b ctx 8192 users 4 kv fp8", "ctx, users, kv do not apply to qlora"),
        ("serve llama-3.1-8b rank 8 adamw-8bit no-checkpointing", "do not apply to serve"),
        ("serve llama-3.1-8b seq 4096", "seq does not apply to serve"),
        ("full llama-3.1-8b rank 8", "rank does not apply to full"),
    ],
)
def test_a_word_the_task_ignores_is_refused(line: str, phrase: str) -> None:
    """A workload line does not drop a word silently: one its task would ignore is an error."""
    with pytest.raises(WorkloadSpecError, match=phrase):
        parse_workload(line, MODELS)


def test_serving_batch_is_users_and_training_takes_its_words() -> None:
    assert parse_workload("serve llama-3.1-8b ctx 4096 batch 2", MODELS).users == 2
    w = parse_workload("qlora llama-3.1-70b seq 4096 batch 1 rank 16 adamw-8bit", MODELS)
    assert (w.seq, w.batch, w.lora_rank) == (4096, 1, 16)
