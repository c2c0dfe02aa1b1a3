"""GPU memory of a workload, per card: weights, KV cache, activations, gradients, optimizer.

Every formula is documented with its source in docs/workloads.md. All sizes are bytes;
:data:`GIB` converts (GPU memory is sold in GiB: a "24 GB" card holds 24 GiB).

Splitting over N cards:

* tensor parallel (Megatron-LM / vLLM style) when N is a power of two and the heads divide:
  attention heads, MLP columns, the vocabulary of the embedding and head are split N ways;
  norms are replicated, and so are K/V heads when N exceeds the model's KV heads;
* pipeline (layers in consecutive stages, as HF ``device_map="auto"`` or llama.cpp
  ``--split-mode layer``) otherwise: the first card also holds the embedding, the last the
  final norm and LM head (and a copy of a tied embedding).

The result is one breakdown per card, never a pooled total.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from partpicker.workload.models import ModelSpec, ParamCounts, param_counts
from partpicker.workload.precision import KV_FORMATS, WeightFormat, weight_format
from partpicker.workload.workload_spec import Workload

GIB = float(2**30)
GB = 1e9

RUNTIME_OVERHEAD_GIB = 1.0
"""Per card: CUDA context, cuBLAS/NCCL workspaces and allocator slack (see docs/workloads.md)."""

ACT_BYTES = 2  # activations in bf16
LOGIT_BYTES = 8  # training: fp32 logits for the loss + their fp32 gradient
SERVE_LOGIT_BYTES = 4  # serving: fp32 logits of the last position of each sequence
ADAPTER_WEIGHT_BYTES = 4  # LoRA adapters held in fp32 (PEFT's default upcast)
ADAPTER_GRAD_BYTES = 4
ADAM_STATE_BYTES = {"adamw": 12, "adamw_8bit": 6}
"""Per trained parameter: fp32 master copy (4) + first and second moments (4 + 4, or 1 + 1)."""
FULL_GRAD_BYTES = 2  # bf16 gradients of the trained weights (ZeRO paper's mixed precision)

Strategy = Literal["single", "tensor", "pipeline"]


@dataclass(frozen=True)
class CardMemory:
    """What one card holds, in bytes."""

    card: int
    layers: tuple[int, int]  # [first, last) decoder layers on this card (all of them under TP)
    weights: float
    kv_cache: float
    activations: float
    gradients: float
    optimizer: float
    adapter: float
    overhead: float
    holds: tuple[str, ...] = ()  # what else: "embedding", "lm head", "replicated kv heads", ...

    @property
    def total(self) -> float:
        return (
            self.weights
            + self.kv_cache
            + self.activations
            + self.gradients
            + self.optimizer
            + self.adapter
            + self.overhead
        )

    def gib(self) -> dict[str, float]:
        """The breakdown in GiB, rounded to 0.01."""
        parts = {
            "weights": self.weights,
            "kv_cache": self.kv_cache,
            "activations": self.activations,
            "gradients": self.gradients,
            "optimizer": self.optimizer,
            "adapter": self.adapter,
            "overhead": self.overhead,
            "total": self.total,
        }
        return {k: round(v / GIB, 2) for k, v in parts.items()}


@dataclass(frozen=True)
class MemoryPlan:
    """The per-card memory of one workload on N cards."""

    model: str
    workload: Workload
    n_gpus: int
    strategy: Strategy
    cards: tuple[CardMemory, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def peak(self) -> CardMemory:
        """The fullest card: the one that decides whether the plan fits."""
        return max(self.cards, key=lambda c: c.total)

    @property
    def peak_gib(self) -> float:
        return self.peak.total / GIB


class SplitError(ValueError):
    """The model cannot be split that way over that many cards."""


def is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def tensor_parallel_problem(model: ModelSpec, n: int) -> str | None:
    """Why ``model`` cannot run tensor parallel on ``n`` cards, or None if it can."""
    if not is_power_of_two(n):
        return f"tensor parallel wants a power-of-two card count, not {n}"
    if model.heads % n:
        return f"{model.heads} attention heads do not split over {n} cards"
    if model.kv_heads % n and n % model.kv_heads:
        return f"{model.kv_heads} KV heads neither split over nor replicate evenly to {n} cards"
    width = model.moe.expert_intermediate_size if model.moe else model.intermediate_size
    if width % n:
        return f"MLP width {width} does not split over {n} cards"
    return None


def kv_heads_per_card(model: ModelSpec, tp: int) -> int:
    """KV heads one card holds under tensor parallel ``tp`` (replicated when tp > kv_heads)."""
    return max(1, model.kv_heads // tp)


def kv_bytes_per_token(model: ModelSpec, kv_dtype: str = "bf16", tp: int = 1, layers: int | None = None) -> float:
    """KV cache per token: 2 (K and V) x layers x KV heads x head_dim x bytes per element."""
    n_layers = model.layers if layers is None else layers
    return 2 * n_layers * kv_heads_per_card(model, tp) * model.dim_head * KV_FORMATS[kv_dtype].bytes


def weight_bytes(model: ModelSpec, weights: str) -> float:
    """All weights of the model in the given format, on one card."""
    linear, other = _shard(param_counts(model), model.layers, 1, embed=True, head=True, tied_copy=False)
    return _weight_bytes(weight_format(weights), linear, other)


def _bits(fmt: WeightFormat) -> tuple[float, float]:
    """(bits of the layers' linear weights, bits of embeddings, head and norms)."""
    other = 16.0 if fmt.embeddings_16bit else fmt.bits
    return fmt.bits, other


def _shard(counts: ParamCounts, layers: int, tp: int, embed: bool, head: bool, tied_copy: bool) -> tuple[float, float]:
    """Parameters on one card: (linear weights of its layers, embeddings + head + norms)."""
    linear = layers * (counts.layer_attention + counts.layer_mlp) / tp
    vocab = (counts.embedding if embed else 0) + (counts.lm_head if head else 0)
    vocab += counts.embedding if tied_copy else 0
    norms = layers * counts.layer_norms + (counts.final_norm if head else 0)
    return linear, vocab / tp + norms


def _weight_bytes(fmt: WeightFormat, linear: float, other: float) -> float:
    linear_bits, other_bits = _bits(fmt)
    return (linear * linear_bits + other * other_bits) / 8


def _tp_replicated_kv(model: ModelSpec, counts: ParamCounts, tp: int) -> float:
    """Extra K/V projection parameters per layer when K/V heads are replicated (tp > kv_heads)."""
    per_card = kv_heads_per_card(model, tp)
    exact = counts.layer_kv / tp
    held = counts.layer_kv * per_card / model.kv_heads
    return max(0.0, held - exact)


def lora_params_per_layer(model: ModelSpec, rank: int) -> int:
    """LoRA on every linear projection: rank x (in + out) per matrix (q, k, v, o, gate, up, down)."""
    h, d = model.hidden_size, model.dim_head
    q_out, kv_out = model.heads * d, model.kv_heads * d
    attn = rank * ((h + q_out) + 2 * (h + kv_out) + (q_out + h))
    if model.moe is None:
        mlp = rank * 3 * (h + model.intermediate_size)
    else:
        experts = model.moe.experts + model.moe.shared_experts
        mlp = experts * rank * 3 * (h + model.moe.expert_intermediate_size)
    return attn + mlp


def layer_activation_elems(model: ModelSpec, tp: int = 1) -> float:
    """Activation elements one decoder layer keeps per token for the backward pass (flash attention).

    Korthikanti et al. (2022)'s accounting, without dropout masks and the s^2 attention scores
    (flash attention recomputes them), for a GQA attention and a gated MLP:
    4h (two norm inputs, attention input, MLP input; replicated under TP)
    + Q and attention output (2 x heads x head_dim / tp) + K, V (2 x kv heads per card x head_dim)
    + gate, up and their product (3 x MLP width / tp, width x active experts for MoE).
    """
    h, d = model.hidden_size, model.dim_head
    width = model.moe.expert_intermediate_size * model.moe.active if model.moe else model.intermediate_size
    return 4 * h + 2 * model.heads * d / tp + 2 * kv_heads_per_card(model, tp) * d + 3 * width / tp


def _train_activations(model: ModelSpec, w: Workload, layers: int, tp: int, logits: bool) -> float:
    tokens = w.seq * w.batch
    full_layer = layer_activation_elems(model, tp) * ACT_BYTES * tokens
    if w.gradient_checkpointing:
        # each layer keeps its input (h per token); one layer at a time is recomputed in full
        kept = layers * model.hidden_size * ACT_BYTES * tokens + (full_layer if layers else 0)
    else:
        kept = layers * full_layer
    if logits:
        kept += tokens * model.vocab_size / tp * LOGIT_BYTES
    return kept


def _serve_activations(model: ModelSpec, w: Workload, tp: int, logits: bool) -> float:
    tokens = min(w.prefill_chunk, w.context * w.users)
    work = layer_activation_elems(model, tp) * ACT_BYTES * tokens
    if logits:
        work += w.users * model.vocab_size / tp * SERVE_LOGIT_BYTES
    return work


def _stage_layers(n_layers: int, n: int) -> list[tuple[int, int]]:
    """Consecutive layer ranges for n stages; the extra layers go to the middle stages first."""
    base, extra = divmod(n_layers, n)
    order = [*range(1, n - 1), 0, n - 1] if n > 2 else list(range(n))
    sizes = [base] * n
    for i in order[:extra]:
        sizes[i] += 1
    ranges, start = [], 0
    for size in sizes:
        ranges.append((start, start + size))
        start += size
    return ranges


def choose_strategy(model: ModelSpec, n: int) -> Strategy:
    """single for one card; tensor parallel when it is possible; else pipeline by layers."""
    if n == 1:
        return "single"
    return "tensor" if tensor_parallel_problem(model, n) is None else "pipeline"


def _strategy(model: ModelSpec, n_gpus: int, strategy: Strategy | None) -> Strategy:
    """The strategy asked for (or chosen), checked; :class:`SplitError` if it cannot split."""
    if n_gpus < 1:
        raise SplitError("at least one card")
    chosen: Strategy = "single" if n_gpus == 1 else (strategy or choose_strategy(model, n_gpus))
    if chosen == "tensor":
        problem = tensor_parallel_problem(model, n_gpus)
        if problem:
            raise SplitError(problem)
    if chosen == "pipeline" and n_gpus > model.layers:
        raise SplitError(f"{model.layers} layers cannot fill {n_gpus} pipeline stages")
    return chosen


def _context_notes(workload: Workload, model: ModelSpec) -> list[str]:
    notes: list[str] = []
    tokens = workload.context if workload.task == "serve" else workload.seq
    if model.max_context is not None and tokens > model.max_context:
        notes.append(f"{tokens} tokens per sequence exceed {model.id}'s max_context of {model.max_context}")
    if model.sliding_window and workload.task == "serve":
        notes.append(f"{model.id}: sliding-window layers ({model.sliding_window} tokens) counted at full context")
    return notes


def _tensor_cards(
    workload: Workload, model: ModelSpec, counts: ParamCounts, fmt: WeightFormat, tp: int, overhead: float
) -> tuple[list[CardMemory], list[str]]:
    """One card, or ``tp`` tensor-parallel cards holding the same share; and the notes."""
    linear, other = _shard(counts, model.layers, tp, embed=True, head=True, tied_copy=False)
    linear += model.layers * _tp_replicated_kv(model, counts, tp)
    holds = ["embedding", "lm head"] if tp == 1 else [f"1/{tp} of every layer, embedding and head"]
    if _tp_replicated_kv(model, counts, tp):
        holds.append(f"replicated KV heads ({kv_heads_per_card(model, tp)} per card of {model.kv_heads})")
    if tp > 1:
        holds.append("replicated norms")
    card = _card(0, (0, model.layers), model, workload, fmt, linear, other, tp, True, overhead, holds)
    if tp == 1:
        return [card], []
    return [_replace_card(card, i) for i in range(tp)], ["tensor parallel: every card holds the same share"]


def _pipeline_cards(
    workload: Workload, model: ModelSpec, counts: ParamCounts, fmt: WeightFormat, n_gpus: int, overhead: float
) -> tuple[list[CardMemory], list[str]]:
    """One card per pipeline stage, the layers split as evenly as they go; and the note."""
    cards: list[CardMemory] = []
    for i, (lo, hi) in enumerate(_stage_layers(model.layers, n_gpus)):
        first, last = i == 0, i == n_gpus - 1
        tied_copy = last and counts.lm_head == 0
        linear, other = _shard(counts, hi - lo, 1, embed=first, head=last, tied_copy=tied_copy)
        holds = [x for x, on in (("embedding", first), ("final norm and lm head", last)) if on]
        if tied_copy:
            holds.append("a copy of the tied embedding as lm head")
        cards.append(_card(i, (lo, hi), model, workload, fmt, linear, other, 1, last, overhead, holds))
    return cards, ["pipeline: one micro-batch in flight (naive layer split, as HF device_map='auto')"]


def plan(
    workload: Workload,
    model: ModelSpec,
    n_gpus: int = 1,
    strategy: Strategy | None = None,
    overhead_gib: float = RUNTIME_OVERHEAD_GIB,
) -> MemoryPlan:
    """Per-card memory of ``workload`` on ``n_gpus`` cards; raises :class:`SplitError` if it cannot split."""
    chosen = _strategy(model, n_gpus, strategy)
    counts = param_counts(model)
    fmt = weight_format(workload.weights)
    overhead = overhead_gib * GIB
    build = _pipeline_cards if chosen == "pipeline" else _tensor_cards
    cards, split_notes = build(workload, model, counts, fmt, n_gpus, overhead)
    return MemoryPlan(
        model=model.id,
        workload=workload,
        n_gpus=n_gpus,
        strategy=chosen,
        cards=tuple(cards),
        notes=tuple(_context_notes(workload, model) + split_notes),
    )


def _replace_card(card: CardMemory, index: int) -> CardMemory:
    return CardMemory(
        card=index,
        layers=card.layers,
        weights=card.weights,
        kv_cache=card.kv_cache,
        activations=card.activations,
        gradients=card.gradients,
        optimizer=card.optimizer,
        adapter=card.adapter,
        overhead=card.overhead,
        holds=card.holds,
    )


def _card(
    index: int,
    layer_range: tuple[int, int],
    model: ModelSpec,
    w: Workload,
    fmt: WeightFormat,
    linear: float,
    other: float,
    tp: int,
    last: bool,
    overhead: float,
    holds: list[str],
) -> CardMemory:
    n_layers = layer_range[1] - layer_range[0]
    weights = _weight_bytes(fmt, linear, other)
    kv = activations = gradients = optimizer = adapter = 0.0
    if w.task == "serve":
        kv = kv_bytes_per_token(model, w.kv_dtype, tp, n_layers) * w.context * w.users
        activations = _serve_activations(model, w, tp, last)
    else:
        activations = _train_activations(model, w, n_layers, tp, last)
        if w.task == "full":
            trained = linear + other
            if fmt.bits >= 32:  # plain fp32 training: fp32 grads and moments, no extra master copy
                gradients, optimizer = trained * 4, trained * (ADAM_STATE_BYTES[w.optimizer] - 4)
            else:
                gradients = trained * FULL_GRAD_BYTES
                optimizer = trained * ADAM_STATE_BYTES[w.optimizer]
        else:
            lora = n_layers * lora_params_per_layer(model, w.lora_rank) / tp
            adapter = lora * ADAPTER_WEIGHT_BYTES
            gradients = lora * ADAPTER_GRAD_BYTES
            optimizer = lora * (ADAM_STATE_BYTES[w.optimizer] - 4)  # moments only: the fp32 adapter is the master
    return CardMemory(
        card=index,
        layers=layer_range,
        weights=weights,
        kv_cache=kv,
        activations=activations,
        gradients=gradients,
        optimizer=optimizer,
        adapter=adapter,
        overhead=overhead,
        holds=tuple(holds),
    )
