"""The schema of a build file (pydantic), for :func:`partpicker.build.parse_build`.

A build file in the everyday forms (names, ``{part: NAME, count: N}``, a date, rule
settings) is read without it (:func:`partpicker.build.plain_spec`: no pydantic to import on a
warm `validate`, issue 14); anything else -- a price, a part given by its specs, and every
mistake -- is validated here, so each error keeps pydantic's words. The models subclass the
plain classes of :mod:`partpicker.build`, which the rest of the build code reads.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from partpicker.build import AS_OF_RANGE, MAX_NAME, BuildFileKind, CountedKind, PartsSpecKind
from partpicker.models import Day

__all__ = ["MAX_NAME", "BuildFile", "Counted", "Entry", "PartsSpec", "PriceIn", "RuleSetting"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False, defer_build=True)


class PriceIn(_Strict):
    """A price given in a build file: ``{usd: 450, date: 2025-06-01, source: my receipt}``."""

    usd: float = Field(gt=0, le=1_000_000)
    date: Day | None = None
    source: str = Field("the build file", min_length=1)
    kind: Literal["msrp", "street", "used"] = "street"


class Counted(_Strict, CountedKind):
    """A part with a count and, optionally, its price: ``{part: NAME, count: N, price: 450}``;
    or a part given by its specs: ``{spec: {name: ..., <the category's fields>}}``."""

    part: str | None = Field(None, min_length=1)
    spec: dict[str, Any] | None = None
    count: int = Field(1, ge=1, le=16)
    price: float | PriceIn | None = None

    @model_validator(mode="after")
    def _one_way(self) -> Counted:
        if (self.part is None) == (self.spec is None):
            raise ValueError("give either `part:` (a name) or `spec:` (the part's fields)")
        return self


Entry = str | Counted


class PartsSpec(_Strict, PartsSpecKind):
    """The ``parts:`` mapping of a build file."""

    cpu: Entry | None = None
    motherboard: Entry | None = None
    gpu: Entry | None = None
    ram: Entry | None = None
    ssd: Entry | list[Entry] | None = None
    psu: Entry | list[Entry] | None = None
    case: Entry | None = None
    cooler: Entry | None = None


RuleSetting = Literal["off"] | bool | dict[str, Any]


class BuildFile(_Strict, BuildFileKind):
    """A build file as written."""

    name: str | None = None
    profile: Literal["compat", "dl-workstation"] = "dl-workstation"
    target_gpus: int | None = Field(None, ge=1, le=16)
    as_of: Day | None = None
    power_limit_w: int | None = Field(None, ge=1, le=2000)
    parts: PartsSpec
    rules: dict[str, RuleSetting] = Field(default_factory=dict)

    AS_OF_RANGE: ClassVar[tuple[dt.date, dt.date]] = AS_OF_RANGE

    @field_validator("as_of")
    @classmethod
    def _as_of_in_range(cls, value: dt.date | None) -> dt.date | None:
        low, high = cls.AS_OF_RANGE
        if value is not None and not low <= value <= high:
            raise ValueError(f"must be from {low} to {high}")
        return value
