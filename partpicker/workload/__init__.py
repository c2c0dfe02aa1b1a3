"""Workloads: LLMs as data, their GPU memory per card, and whether they fit.

Pure functions returning frozen models; nothing prints. See docs/workloads.md.
"""

from __future__ import annotations

from partpicker.workload.fit import (
    DEFAULT_HEADROOM,
    FitResult,
    GpuOption,
    fit,
    fit_grid,
    fit_options,
    nearest_miss,
)
from partpicker.workload.memory import (
    GIB,
    RUNTIME_OVERHEAD_GIB,
    CardMemory,
    MemoryPlan,
    SplitError,
    kv_bytes_per_token,
    plan,
    weight_bytes,
)
from partpicker.workload.models import ModelCatalog, ModelSpec, ParamCounts, load_models, model_rows, param_counts
from partpicker.workload.workload_spec import Workload, WorkloadSpecError, parse_workload

__all__ = [
    "DEFAULT_HEADROOM",
    "GIB",
    "RUNTIME_OVERHEAD_GIB",
    "CardMemory",
    "FitResult",
    "GpuOption",
    "MemoryPlan",
    "ModelCatalog",
    "ModelSpec",
    "ParamCounts",
    "SplitError",
    "Workload",
    "WorkloadSpecError",
    "fit",
    "fit_grid",
    "fit_options",
    "kv_bytes_per_token",
    "load_models",
    "model_rows",
    "nearest_miss",
    "param_counts",
    "parse_workload",
    "plan",
    "weight_bytes",
]
