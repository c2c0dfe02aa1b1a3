"""`partpicker models` and `partpicker fit` end to end: every bundled model and task, files, errors."""

from __future__ import annotations

import itertools
import json

import pytest
from typer.testing import CliRunner

from partpicker.cli import app
from partpicker.workload import GIB, load_models, param_counts
from partpicker.workload.precision import weight_format

from .conftest import DATA

runner = CliRunner()
MODELS = load_models()
TASKS = ("serve", "full", "lora", "qlora")
COMPONENTS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "adapter", "overhead")


def _fit(*args: str) -> tuple[int, dict[str, object]]:
    result = runner.invoke(app, ["fit", *args, "--format", "json"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.startswith("{") else {}


def test_models_lists_every_bundled_model_with_its_source() -> None:
    result = runner.invoke(app, ["models"])
    assert result.exit_code == 0, result.output
    for spec in MODELS:
        line = next(x for x in result.stdout.splitlines() if x.startswith(spec.id + " "))
        assert spec.source in line


def test_models_json_and_overlay_add_and_replace() -> None:
    plain = json.loads(runner.invoke(app, ["models", "-f", "json"]).stdout)
    result = runner.invoke(app, ["models", "-f", "json", "--models", str(DATA / "workload" / "overlay.yaml")])
    doc = json.loads(result.stdout)
    assert len(doc) == len(plain) + 1
    by_id = {row["id"]: row for row in doc}
    assert by_id["tiny-test-1b"]["layers"] == 16
    assert by_id["llama-3.1-8b"]["max_context"] == 65536  # replaced by id


@pytest.mark.parametrize(
    ("name", "says"), [("wrong-type.yaml", "intermediate_size"), ("syntax.yaml", ""), ("missing.yaml", "not found")]
)
def test_a_bad_models_file_is_exit_2_naming_the_file(name: str, says: str) -> None:
    path = DATA / "workload" / "bad" / name
    result = runner.invoke(app, ["fit", "llama-3.1-8b", "--models", str(path)])
    assert result.exit_code == 2
    assert str(path) in result.stderr and says in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("model", [m.id for m in MODELS])
def test_fit_prints_a_breakdown_per_card_for_every_model_and_task(model: str, task: str) -> None:
    code, doc = _fit(model, "--task", task)
    assert code == 0
    cards = doc["cards"]
    assert isinstance(cards, list) and len(cards) == 1
    card = cards[0]
    assert card["total"] == pytest.approx(sum(card[c] for c in COMPONENTS), abs=0.05)
    # Weights by a second path: parameters x bits of the format (plus 16-bit embeddings where kept).
    spec = MODELS[model]
    counts = param_counts(spec)
    fmt = weight_format({"serve": "bf16", "full": "bf16", "lora": "bf16", "qlora": "nf4"}[task])
    other = counts.total - counts.linear_in_layers
    expect = (counts.linear_in_layers * fmt.bits + other * (16 if fmt.embeddings_16bit else fmt.bits)) / 8 / GIB
    assert card["weights"] == pytest.approx(expect, rel=0.01)
    if task == "serve":
        assert card["gradients"] == card["optimizer"] == 0
    if task == "full":  # AdamW mixed precision: 2 bytes of gradients, 12 of optimizer per weight
        assert card["optimizer"] == pytest.approx(6 * card["gradients"], rel=0.01)


def test_split_over_cards_shows_each_card_and_never_a_pooled_total() -> None:
    code, one = _fit("llama-3.1-70b", "--precision", "q4", "--ctx", "8192")
    code2, three = _fit("llama-3.1-70b", "--precision", "q4", "--ctx", "8192", "--gpus", "3")
    assert code == code2 == 0
    cards = three["cards"]
    assert isinstance(cards, list) and len(cards) == 3 and three["strategy"] == "pipeline"
    layers = [c["layers"] for c in cards]
    assert layers[0][0] == 0 and layers[-1][1] == 80  # every layer on exactly one card
    assert all(a[1] == b[0] for a, b in itertools.pairwise(layers))
    single = one["cards"][0]["weights"]  # type: ignore[index]
    assert sum(c["weights"] for c in cards) == pytest.approx(single, rel=0.01)
    assert max(c["total"] for c in cards) < one["peak_gib"]  # type: ignore[operator]


def test_fit_on_a_named_gpu_says_whether_it_fits_with_exit_1_if_not() -> None:
    code, doc = _fit("qwen2.5-32b", "--precision", "q4", "--ctx", "16384", "--users", "4", "--gpu", "RTX 3090")
    assert code == 1 and doc["fits"] is False and doc["vram_gb"] == 24
    assert doc["peak_gib"] > doc["usable_gib"]  # type: ignore[operator]
    code, doc = _fit(
        "qwen2.5-32b", "--precision", "q4", "--ctx", "16384", "--users", "4", "--gpu", "RTX 3090", "--gpus", "2"
    )
    assert code == 0 and doc["fits"] is True and doc["strategy"] == "tensor"
    text = runner.invoke(app, ["fit", "qwen2.5-32b", "--precision", "q4", "--gpu", "RTX 3090", "--gpus", "2"])
    assert "card" in text.stdout and "FITS" in text.stdout


def test_fit_without_a_gpu_names_the_catalog_models_that_hold_it() -> None:
    code, doc = _fit("llama-3.1-8b", "--ctx", "8192")
    assert code == 0 and doc["fits"] is None
    holds = doc["holds_on"]
    assert isinstance(holds, list) and holds
    assert all(g["vram_gb"] * 0.9 >= doc["peak_gib"] for g in holds)  # type: ignore[index, operator]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["no-such-model"], "unknown model"),
        (["llama-3.1-8b", "--task", "full", "--precision", "q4"], "cannot be trained"),
        (["llama-3.1-8b", "--precision", "q3"], "unknown weight format"),
        (["llama-3.1-8b", "--gpu", "Voodoo 5"], "--gpu"),
    ],
)
def test_bad_fit_input_is_exit_2(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["fit", *args])
    assert result.exit_code == 2, result.output
    assert says in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["--task", "serve", "--seq", "4096"], "--seq does not apply to --task serve"),
        (["--task", "serve", "--batch", "2"], "--batch does not apply to --task serve"),
        (["--task", "full", "--ctx", "4096", "--users", "3"], "--ctx, --users do not apply to --task full"),
        (["--task", "qlora", "--users", "2"], "--users does not apply to --task qlora"),
        (["--task", "full", "--kv", "q4_0"], "--kv does not apply to --task full"),
        (["--gpu", "RTX 3090", "--vram", "80"], "give --gpu or --vram, not both"),
    ],
)
def test_an_option_the_task_ignores_is_bad_input(args: list[str], phrase: str) -> None:
    """`fit` does not drop an option silently: one the task would ignore is exit 2, saying so."""
    result = runner.invoke(app, ["fit", "llama-3.1-8b", *args])
    assert result.exit_code == 2 and phrase in result.stderr, result.output
