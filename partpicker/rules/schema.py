"""The schema of a rule file (pydantic): what :func:`partpicker.rules.rulebook.load_rules`
validates a rule file against when it parses one (the warm path reads the cached rules into
the plain classes of :mod:`partpicker.rules.rulebook`, their bases, without pydantic: issue 14).
"""

from __future__ import annotations

import string
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from partpicker.build import ROLES
from partpicker.models import CATEGORIES
from partpicker.rules.rulebook import ExampleKind, ParamKind, RuleSpecKind, Severity, Status


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built on first validation


class Param(_Strict, ParamKind):
    """A rule parameter with its default, and the type and range an override must keep to."""

    default: int | float | str | bool
    help: str
    type: Literal["int", "float", "bool", "str"] | None = Field(None, description="Default: the default's type.")
    min: float | None = Field(None, allow_inf_nan=False, description="Least value an override may set.")
    max: float | None = Field(None, allow_inf_nan=False, description="Greatest value an override may set.")


class Example(_Strict, ExampleKind):
    """A small build on which the rule must give ``expect``."""

    id: str
    expect: Status
    target_gpus: int = Field(4, ge=1, le=16)
    gpu_count: int = Field(1, ge=1, le=16)
    power_limit_w: int | None = Field(None, ge=1, le=2000)
    parts: dict[str, str | list[str]]
    overrides: dict[str, dict[str, Any]] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)
    why: str = ""


class RuleSpec(_Strict, RuleSpecKind):
    """A rule as its file declares it."""

    id: str
    title: str
    profile: Literal["compat", "dl-workstation"]
    severity: Severity
    roles: list[str] = Field(min_length=1)
    reads: dict[str, list[str]] = Field(description="The fields the check reads, per role.")
    applies_when: list[str] = Field(default_factory=list)
    params: dict[str, Param] = Field(default_factory=dict)
    message: dict[Status, str]
    explanation: str
    formula: str = Field("", description="The threshold at N GPUs, in one line (the README table shows it).")
    sources: list[str] = Field(min_length=1)
    examples: list[Example] = Field(min_length=2)

    def _roles_and_reads(self) -> None:
        """Known roles; ``reads`` names exactly the rule's roles, and fields their models have."""
        for role in [*self.roles, *self.applies_when]:
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r}; roles are {', '.join(ROLES)}")
        if set(self.reads) != set(self.roles):
            raise ValueError(f"reads must name exactly the roles {self.roles}")
        for role, fields in self.reads.items():
            model = CATEGORIES[role]
            for name in fields:
                if name not in model.model_fields:
                    raise ValueError(f"reads.{role}: {model.__name__} has no field {name!r}")

    @model_validator(mode="after")
    def _consistent(self) -> RuleSpec:
        self._roles_and_reads()
        expects = {e.expect for e in self.examples}
        if not {"pass", "fail"} <= expects:
            raise ValueError("a rule needs at least one pass and one fail example")
        for status, template in self.message.items():
            for field in _fields(template):
                if not field.isidentifier():
                    raise ValueError(f"message.{status}: placeholder {{{field}}} must be a plain name")
        for ex in self.examples:
            unknown = set(ex.params) - set(self.params)
            if unknown:
                raise ValueError(f"example {ex.id}: unknown params {sorted(unknown)}")
        return self


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
