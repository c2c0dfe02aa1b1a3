"""LLM architectures as data: the pydantic model of one entry and the loader of the bundled list.

Every architecture value comes from the model's published ``config.json`` (named in
``source``); what is not known is left out. :func:`param_counts` derives the parameter
breakdown (embedding, per layer, head) from the architecture, which the memory model uses to
split a model across cards; the tests check it against the published totals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from partpicker import yamlio
from partpicker.workload.paths import models_file

EvidenceKind = Literal["manual", "maker", "review", "database", "derived", "recalled"]
"""The evidence kinds of the parts catalog (``partpicker.models.EVIDENCE_KINDS``)."""

_WEAK = frozenset({"derived", "recalled"})


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelEvidence(_Frozen):
    """How an entry's values were established; weak kinds must name their document."""

    kind: EvidenceKind
    note: str | None = None

    @model_validator(mode="after")
    def _note_for_weak(self) -> ModelEvidence:
        if self.kind in _WEAK and not self.note:
            raise ValueError(f"{self.kind} evidence needs a note naming the document it comes from")
        return self


class MoE(_Frozen):
    """Mixture-of-experts MLP: every layer holds ``experts`` expert MLPs, ``active`` run per token."""

    experts: int = Field(gt=1)
    active: int = Field(gt=0)
    expert_intermediate_size: int = Field(gt=0)
    shared_experts: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _active_le_experts(self) -> MoE:
        if self.active > self.experts:
            raise ValueError("active experts exceed experts")
        return self


class ModelSpec(_Frozen):
    """One open LLM's architecture, as in its published config.json."""

    id: str = Field(pattern=r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")
    name: str
    aliases: tuple[str, ...] = ()
    family: str
    source: str = Field(description="The published file the values come from, e.g. 'org/model config.json'.")
    evidence: ModelEvidence
    params_published: float | None = Field(None, gt=0, description="Total parameters per the model card.")
    active_params_published: float | None = Field(None, gt=0, description="Parameters per token (MoE).")
    params_source: str | None = None
    hidden_size: int = Field(gt=0)
    intermediate_size: int = Field(gt=0)
    layers: int = Field(gt=0)
    heads: int = Field(gt=0)
    kv_heads: int = Field(gt=0)
    head_dim: int | None = Field(None, gt=0)
    vocab_size: int = Field(gt=0)
    max_context: int | None = Field(None, gt=0)
    tied_embeddings: bool = False
    qkv_bias: bool = False
    qk_norm: bool = False
    norms_per_layer: int = Field(2, ge=0)
    sliding_window: int | None = Field(None, gt=0)
    moe: MoE | None = None

    @model_validator(mode="after")
    def _heads_divide(self) -> ModelSpec:
        if self.heads % self.kv_heads:
            raise ValueError(f"{self.id}: heads ({self.heads}) not a multiple of kv_heads ({self.kv_heads})")
        if self.head_dim is None and self.hidden_size % self.heads:
            raise ValueError(f"{self.id}: head_dim missing and hidden_size not divisible by heads")
        return self

    @property
    def dim_head(self) -> int:
        """head_dim, or hidden_size / heads when the config has none."""
        return self.head_dim if self.head_dim is not None else self.hidden_size // self.heads


@dataclass(frozen=True)
class ParamCounts:
    """Parameters of a model by where they live; ``layer_*`` are per decoder layer."""

    embedding: int
    lm_head: int  # 0 when tied to the embedding
    final_norm: int
    layer_attention: int  # q, k, v, o projections (+ biases, + q/k norms)
    layer_kv: int  # of which k and v projections (replicated under TP when kv_heads < N)
    layer_mlp: int  # dense MLP or all experts (+ router)
    layer_mlp_active: int  # MLP parameters one token runs through
    layer_norms: int
    layers: int

    @property
    def per_layer(self) -> int:
        return self.layer_attention + self.layer_mlp + self.layer_norms

    @property
    def total(self) -> int:
        return self.embedding + self.lm_head + self.final_norm + self.layers * self.per_layer

    @property
    def active(self) -> int:
        """Parameters used per token (equals total for a dense model)."""
        per_layer = self.layer_attention + self.layer_mlp_active + self.layer_norms
        return self.embedding + self.lm_head + self.final_norm + self.layers * per_layer

    @property
    def linear_in_layers(self) -> int:
        """Weights of the decoder layers' linear projections (what GPTQ/AWQ/NF4 quantise)."""
        return self.layers * (self.layer_attention + self.layer_mlp)


def param_counts(m: ModelSpec) -> ParamCounts:
    """Parameter breakdown derived from the architecture (gated MLP: gate, up, down)."""
    h, d = m.hidden_size, m.dim_head
    q_out, kv_out = m.heads * d, m.kv_heads * d
    kv = 2 * h * kv_out + (2 * kv_out if m.qkv_bias else 0)
    attention = h * q_out + kv + q_out * h + (q_out if m.qkv_bias else 0) + (2 * d if m.qk_norm else 0)
    if m.moe is None:
        mlp = mlp_active = 3 * h * m.intermediate_size
    else:
        one = 3 * h * m.moe.expert_intermediate_size
        router = h * m.moe.experts
        mlp = one * (m.moe.experts + m.moe.shared_experts) + router
        mlp_active = one * (m.moe.active + m.moe.shared_experts) + router
    embedding = m.vocab_size * h
    return ParamCounts(
        embedding=embedding,
        lm_head=0 if m.tied_embeddings else embedding,
        final_norm=h,
        layer_attention=attention,
        layer_kv=kv,
        layer_mlp=mlp,
        layer_mlp_active=mlp_active,
        layer_norms=m.norms_per_layer * h,
        layers=m.layers,
    )


class ModelList(_Frozen):
    """The shape of a models YAML file."""

    models: tuple[ModelSpec, ...]

    @model_validator(mode="after")
    def _unique_ids(self) -> ModelList:
        ids = [m.id for m in self.models]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"model ids listed twice: {', '.join(twice)}")
        return self


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", name.strip().lower()).strip("-")


@dataclass(frozen=True)
class ModelCatalog:
    """Models by id, with lookup by id, name or alias (case and separators ignored)."""

    models: Mapping[str, ModelSpec]

    def get(self, name: str) -> ModelSpec | None:
        key = _key(name)
        for spec in self.models.values():
            if key in {_key(spec.id), _key(spec.name), *(_key(a) for a in spec.aliases)}:
                return spec
        return None

    def __getitem__(self, name: str) -> ModelSpec:
        found = self.get(name)
        if found is None:
            known = ", ".join(sorted(self.models))
            raise KeyError(f"unknown model '{name}'; known: {known}")
        return found

    def __iter__(self) -> Iterator[ModelSpec]:
        return iter(self.models.values())

    def __len__(self) -> int:
        return len(self.models)


def _read(path: Path) -> tuple[ModelSpec, ...]:
    """One models file; a syntax or schema problem is an :class:`InputError` with its line."""
    return yamlio.read_model(
        path, ModelList, what="models file", hint="the format is that of workloads/models.yaml (docs/workloads.md)"
    ).models


def load_models(path: Path | None = None, overlays: Iterable[Path] = ()) -> ModelCatalog:
    """The bundled models (or those of ``path``), then each overlay file replacing or adding by id."""
    found: dict[str, ModelSpec] = {}
    for file in (path or models_file(), *overlays):
        for spec in _read(file):
            found[spec.id] = spec
    return ModelCatalog(models=found)


def model_rows(catalog: ModelCatalog | None = None) -> list[dict[str, object]]:
    """One row per model for ``partpicker models``: id, size, shape, context, source and evidence."""
    rows: list[dict[str, object]] = []
    for m in (catalog or load_models()).models.values():
        counts = param_counts(m)
        rows.append(
            {
                "id": m.id,
                "name": m.name,
                "params_b": round(counts.total / 1e9, 2),
                "active_params_b": round(counts.active / 1e9, 2) if m.moe else None,
                "layers": m.layers,
                "hidden": m.hidden_size,
                "heads": m.heads,
                "kv_heads": m.kv_heads,
                "head_dim": m.dim_head,
                "vocab": m.vocab_size,
                "max_context": m.max_context,
                "experts": f"{m.moe.active}/{m.moe.experts}" if m.moe else None,
                "source": m.source,
                "evidence": m.evidence.kind,
            }
        )
    return rows
