"""Bits per weight of the weight formats and bytes per element of the KV-cache formats.

Each format says how many bits one weight takes *including* its quantisation scales, and
whether the token embedding and output head stay at 16 bits (as GPTQ/AWQ/bitsandbytes leave
them) or are stored in the same format (GGUF files quantise them too). Sources are in
docs/workloads.md and in ``source``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WeightFormat:
    """One way of storing weights."""

    name: str
    bits: float  # bits per weight of the quantised tensors, scales included
    embeddings_16bit: bool  # token embedding and LM head kept at 16 bits
    trainable: bool  # can hold the trained copy in full fine-tuning
    source: str


def _group_bits(bits: int, group: int, scale_bits: int, zero_bits: int) -> float:
    return bits + (scale_bits + zero_bits) / group


WEIGHT_FORMATS: dict[str, WeightFormat] = {
    f.name: f
    for f in (
        WeightFormat("fp32", 32.0, False, True, "IEEE 754 single precision"),
        WeightFormat("bf16", 16.0, False, True, "bfloat16, 2 bytes"),
        WeightFormat("fp16", 16.0, False, True, "IEEE 754 half precision, 2 bytes"),
        WeightFormat("fp8", 8.0, False, False, "FP8 E4M3, 1 byte; per-tensor scales negligible"),
        WeightFormat("int8", 8.0, False, False, "8-bit integer, 1 byte (LLM.int8 / W8A8); scales negligible"),
        WeightFormat("int4", 4.0, False, False, "4 bits, no scales counted: the HF Llama 3.1 blog's INT4 column"),
        WeightFormat(
            "q4_k_m", 4.8944, False, False, "llama.cpp tools/quantize/README.md, Llama-3.1-8B: 4.8944 bits/weight"
        ),
        WeightFormat(
            "q5_k_m", 5.7036, False, False, "llama.cpp tools/quantize/README.md, Llama-3.1-8B: 5.7036 bits/weight"
        ),
        WeightFormat(
            "q6_k", 6.5633, False, False, "llama.cpp tools/quantize/README.md, Llama-3.1-8B: 6.5633 bits/weight"
        ),
        WeightFormat(
            "q8_0", 8.5008, False, False, "llama.cpp tools/quantize/README.md, Llama-3.1-8B: 8.5008 bits/weight"
        ),
        WeightFormat(
            "gptq",
            _group_bits(4, 128, 16, 4),
            True,
            False,
            "GPTQ 4-bit, group 128: 4 bits + fp16 scale/128 + packed 4-bit zero/128 = 4.156 bits",
        ),
        WeightFormat(
            "awq",
            _group_bits(4, 128, 16, 4),
            True,
            False,
            "AWQ 4-bit GEMM, group 128: 4 bits + fp16 scale/128 + packed 4-bit zero/128 = 4.156 bits",
        ),
        WeightFormat(
            "nf4",
            4 + 8 / 64 + 32 / (64 * 256),
            True,
            False,
            "QLoRA NF4 with double quantisation (Dettmers et al. 2023, sec. 3): 4 + 8/64 + 32/(64*256) = 4.127 bits",
        ),
    )
}

WEIGHT_ALIASES: dict[str, str] = {
    "q4": "q4_k_m",
    "gguf-q4": "q4_k_m",
    "q4km": "q4_k_m",
    "q5": "q5_k_m",
    "q5km": "q5_k_m",
    "q6": "q6_k",
    "q8": "q8_0",
    "float16": "fp16",
    "half": "fp16",
    "bfloat16": "bf16",
    "float32": "fp32",
    "awq-4bit": "awq",
    "gptq-4bit": "gptq",
    "bnb4": "nf4",
    "4bit": "int4",
    "8bit": "int8",
}


@dataclass(frozen=True)
class KvFormat:
    """One KV-cache element type."""

    name: str
    bytes: float
    source: str


KV_FORMATS: dict[str, KvFormat] = {
    k.name: k
    for k in (
        KvFormat("bf16", 2.0, "bfloat16"),
        KvFormat("fp16", 2.0, "half precision"),
        KvFormat("fp8", 1.0, "vLLM --kv-cache-dtype fp8 (E4M3/E5M2), 1 byte"),
        KvFormat("int8", 1.0, "8-bit KV cache"),
        KvFormat("q8_0", 34 / 32, "llama.cpp -ctk q8_0: 32 int8 + one fp16 scale per block = 8.5 bits"),
        KvFormat("q4_0", 18 / 32, "llama.cpp -ctk q4_0: 32 4-bit + one fp16 scale per block = 4.5 bits"),
    )
}


def weight_format(name: str) -> WeightFormat:
    """The weight format called ``name`` (aliases such as 'q4' accepted)."""
    key = name.strip().lower()
    key = WEIGHT_ALIASES.get(key, key).replace("-", "_")
    key = WEIGHT_ALIASES.get(key, key)
    try:
        return WEIGHT_FORMATS[key]
    except KeyError:
        raise ValueError(f"unknown weight format '{name}'; known: {', '.join(sorted(WEIGHT_FORMATS))}") from None


def kv_format(name: str) -> KvFormat:
    """The KV-cache format called ``name``."""
    key = name.strip().lower().replace("-", "_")
    key = {"float16": "fp16", "bfloat16": "bf16", "q8": "q8_0", "q4": "q4_0"}.get(key, key)
    try:
        return KV_FORMATS[key]
    except KeyError:
        raise ValueError(f"unknown KV-cache format '{name}'; known: {', '.join(sorted(KV_FORMATS))}") from None
