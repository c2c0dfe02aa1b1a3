"""A workload: what the user wants to run, as a frozen pydantic model, and its one-line spelling.

Examples of the spelling :func:`parse_workload` reads::

    serve qwen2.5-32b q4 ctx 16384 users 4
    serve llama-3.1-70b fp8 ctx 32k users 8 kv fp8
    finetune llama-3.1-8b full bf16
    lora llama-3.1-8b seq 2048 batch 4 rank 16
    qlora llama-3.1-70b seq 4096 batch 1
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from partpicker.workload.precision import kv_format, weight_format

if TYPE_CHECKING:
    from partpicker.workload.models import ModelCatalog

Task = Literal["serve", "full", "lora", "qlora"]
Optimizer = Literal["adamw", "adamw_8bit"]

DEFAULT_WEIGHTS: dict[str, str] = {"serve": "bf16", "full": "bf16", "lora": "bf16", "qlora": "nf4"}
QLORA_BASES = frozenset({"nf4", "int4", "gptq", "awq"})
DEFAULT_CONTEXT = 4096
DEFAULT_SEQ = 2048


class WorkloadSpecError(ValueError):
    """A workload line that cannot be read."""


class Workload(BaseModel):
    """One workload. Serving uses ``context`` x ``users``; training uses ``seq`` x ``batch``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: Task
    model: str = Field(description="Model id, name or alias.")
    weights: str = Field("", description="Weight format of the (frozen) base; empty = the task's default.")
    kv_dtype: str = "bf16"
    context: int = Field(DEFAULT_CONTEXT, gt=0, description="Serving: tokens held per sequence (prompt + output).")
    users: int = Field(1, gt=0, description="Serving: concurrent sequences.")
    seq: int = Field(DEFAULT_SEQ, gt=0, description="Training: tokens per sample.")
    batch: int = Field(1, gt=0, description="Training: samples per step on each replica (micro-batch).")
    lora_rank: int = Field(16, gt=0)
    gradient_checkpointing: bool = True
    optimizer: Optimizer = "adamw"
    prefill_chunk: int = Field(2048, gt=0, description="Serving: tokens processed in one forward pass.")

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            task = str(data.get("task", ""))
            data["weights"] = weight_format(str(data.get("weights") or DEFAULT_WEIGHTS.get(task, "bf16"))).name
            data["kv_dtype"] = kv_format(str(data.get("kv_dtype") or "bf16")).name
        return data

    @model_validator(mode="after")
    def _trainable(self) -> Workload:
        fmt = weight_format(self.weights)
        if self.task == "full" and not fmt.trainable:
            raise ValueError(f"a full fine-tune trains the weights themselves; {fmt.name} weights cannot be trained")
        if self.task == "qlora" and fmt.name not in QLORA_BASES:
            raise ValueError(
                f"QLoRA trains adapters on a 4-bit base ({', '.join(sorted(QLORA_BASES))}); not {fmt.name} (use lora)"
            )
        return self

    @property
    def training(self) -> bool:
        return self.task != "serve"

    def describe(self) -> str:
        """A one-line spelling that :func:`parse_workload` reads back."""
        if self.task == "serve":
            return f"serve {self.model} {self.weights} ctx {self.context} users {self.users} kv {self.kv_dtype}"
        extra = f" rank {self.lora_rank}" if self.task in ("lora", "qlora") else ""
        gc = "" if self.gradient_checkpointing else " no-checkpointing"
        return f"{self.task} {self.model} {self.weights} seq {self.seq} batch {self.batch}{extra}{gc}"


_SERVE = {"serve", "serving", "infer", "inference", "run", "chat"}
_TRAIN = {"finetune", "fine-tune", "ft", "train", "sft"}
_TASKS = {"full": "full", "lora": "lora", "qlora": "qlora", "q-lora": "qlora", "full-finetune": "full"}
_NUMBER_KEYS = {
    "ctx": "context",
    "context": "context",
    "users": "users",
    "concurrency": "users",
    "seq": "seq",
    "seqlen": "seq",
    "seq-len": "seq",
    "batch": "batch",
    "bs": "batch",
    "rank": "lora_rank",
    "r": "lora_rank",
    "chunk": "prefill_chunk",
}
_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)([km]?)$")


def _number(word: str, key: str) -> int:
    found = _NUMBER.match(word)
    if not found:
        raise WorkloadSpecError(f"'{key}' needs a number, got '{word}'")
    value = float(found.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[found.group(2)]
    return int(value)


_KV_WORDS = ("kv", "kv-cache", "kv-dtype")
_FLAGS: dict[str, tuple[str, object]] = {
    **dict.fromkeys(("no-checkpointing", "no-gc", "no-gradient-checkpointing"), ("gradient_checkpointing", False)),
    **dict.fromkeys(("adamw-8bit", "adam8bit", "adamw8bit", "8bit-adam"), ("optimizer", "adamw_8bit")),
    **dict.fromkeys(("adamw", "adam"), ("optimizer", "adamw")),
}
"""Words that set a field on their own."""


def _task_of(verb: str) -> str | None:
    """The task a line's first word names (None: training, the method still to come)."""
    if verb in _SERVE:
        return "serve"
    if verb in _TRAIN:
        return None
    if verb in _TASKS:
        return _TASKS[verb]
    raise WorkloadSpecError(f"unknown task '{verb}': use serve, finetune, full, lora or qlora")


def _valued(word: str, after: str | None, task: str | None) -> tuple[str, object]:
    """(field, value) of a word that takes the next word as its value."""
    if word in _KV_WORDS:
        if after is None:
            raise WorkloadSpecError("'kv' needs a format after it, e.g. 'kv fp8'")
        return "kv_dtype", after
    if after is None:
        raise WorkloadSpecError(f"'{word}' needs a number after it")
    key = _NUMBER_KEYS[word]
    return ("users" if task == "serve" and key == "batch" else key), _number(after, word)


def _weights(word: str, text: str) -> str:
    try:
        return weight_format(word).name
    except ValueError:
        raise WorkloadSpecError(f"cannot read '{word}' in '{text.strip()}'") from None


def _options(rest: list[str], task: str | None, text: str) -> tuple[str | None, dict[str, object]]:
    """The task (a later word may name the training method) and the fields the words set."""
    fields: dict[str, object] = {}
    i = 0
    while i < len(rest):
        word = rest[i]
        if word in _TASKS and task in (None, "full", "lora", "qlora"):
            task = _TASKS[word]
        elif word in _NUMBER_KEYS or word in _KV_WORDS:
            key, value = _valued(word, rest[i + 1] if i + 1 < len(rest) else None, task)
            fields[key] = value
            i += 1
        elif word in _FLAGS:
            key, value = _FLAGS[word]
            fields[key] = value
        else:
            fields["weights"] = _weights(word, text)
        i += 1
    return task, fields


_SERVING_ONLY = {"context": "ctx", "users": "users", "kv_dtype": "kv", "prefill_chunk": "chunk"}
_TRAINING_ONLY = {
    "seq": "seq",
    "lora_rank": "rank",
    "optimizer": "the optimizer",
    "gradient_checkpointing": "no-checkpointing",
}


def _applies(task: str, fields: dict[str, object]) -> None:
    """Refuse a word the task would ignore ('ctx' when training, 'seq' when serving, 'rank' for
    a full fine-tune), rather than drop it."""
    ignored = dict(_TRAINING_ONLY) if task == "serve" else dict(_SERVING_ONLY)
    if task == "full":
        ignored["lora_rank"] = "rank"
    given = [word for field, word in ignored.items() if field in fields]
    if given:
        uses = "ctx, users, kv" if task == "serve" else "seq, batch" + (", rank" if task != "full" else "")
        verb = "does" if len(given) == 1 else "do"
        raise WorkloadSpecError(f"{', '.join(given)} {verb} not apply to {task}; it takes {uses} (and a precision)")


def parse_workload(text: str, catalog: ModelCatalog | None = None) -> Workload:
    """Read a workload line; with ``catalog``, the model name is checked and made canonical."""
    words = text.strip().lower().replace(",", " ").split()
    if len(words) < 2:
        raise WorkloadSpecError("a workload is '<task> <model> [options]', e.g. 'serve qwen2.5-32b q4 ctx 16384'")
    model = words[1]
    task, fields = _options(words[2:], _task_of(words[0]), text)
    if catalog is not None:
        spec = catalog.get(model)
        if spec is None:
            raise WorkloadSpecError(f"unknown model '{model}'; known: {', '.join(sorted(catalog.models))}")
        model = spec.id
    _applies(task or "full", fields)
    try:
        return Workload.model_validate({"task": task or "full", "model": model, **fields})
    except ValueError as err:
        raise WorkloadSpecError(str(err)) from err
