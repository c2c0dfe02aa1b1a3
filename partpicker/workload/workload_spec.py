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


def parse_workload(text: str, catalog: ModelCatalog | None = None) -> Workload:
    """Read a workload line; with ``catalog``, the model name is checked and made canonical."""
    words = text.strip().lower().replace(",", " ").split()
    if len(words) < 2:
        raise WorkloadSpecError("a workload is '<task> <model> [options]', e.g. 'serve qwen2.5-32b q4 ctx 16384'")
    verb, model, rest = words[0], words[1], words[2:]
    task: str | None
    if verb in _SERVE:
        task = "serve"
    elif verb in _TRAIN:
        task = None
    elif verb in _TASKS:
        task = _TASKS[verb]
    else:
        raise WorkloadSpecError(f"unknown task '{verb}': use serve, finetune, full, lora or qlora")
    fields: dict[str, object] = {}
    i = 0
    while i < len(rest):
        word = rest[i]
        if word in _TASKS and task in (None, "full", "lora", "qlora"):
            task = _TASKS[word]
        elif word in _NUMBER_KEYS:
            if i + 1 >= len(rest):
                raise WorkloadSpecError(f"'{word}' needs a number after it")
            key = _NUMBER_KEYS[word]
            if task == "serve" and key == "batch":
                key = "users"
            fields[key] = _number(rest[i + 1], word)
            i += 1
        elif word in ("kv", "kv-cache", "kv-dtype"):
            if i + 1 >= len(rest):
                raise WorkloadSpecError("'kv' needs a format after it, e.g. 'kv fp8'")
            fields["kv_dtype"] = rest[i + 1]
            i += 1
        elif word in ("no-checkpointing", "no-gc", "no-gradient-checkpointing"):
            fields["gradient_checkpointing"] = False
        elif word in ("adamw-8bit", "adam8bit", "adamw8bit", "8bit-adam"):
            fields["optimizer"] = "adamw_8bit"
        elif word in ("adamw", "adam"):
            fields["optimizer"] = "adamw"
        else:
            try:
                fields["weights"] = weight_format(word).name
            except ValueError:
                raise WorkloadSpecError(f"cannot read '{word}' in '{text.strip()}'") from None
        i += 1
    if catalog is not None:
        spec = catalog.get(model)
        if spec is None:
            raise WorkloadSpecError(f"unknown model '{model}'; known: {', '.join(sorted(catalog.models))}")
        model = spec.id
    try:
        return Workload.model_validate({"task": task or "full", "model": model, **fields})
    except ValueError as err:
        raise WorkloadSpecError(str(err)) from err
