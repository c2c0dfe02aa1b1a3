"""The build file `suggest --output` writes, which `partpicker validate` reads."""

from __future__ import annotations

from typing import Any

import yaml

from partpicker.suggest.answer import Solution
from partpicker.suggest.offer import SCALED_ROLES


def build_file(solution: Solution) -> str:
    """A build file for the best choice that `partpicker validate` reads."""
    req = solution.request
    choice = solution.choices[0]
    parts: dict[str, Any] = {}
    for role, p in choice.prices.items():
        counted = role in SCALED_ROLES or req.bought_now(role) > 1
        parts[role] = {"part": p.part.id, "count": req.bought_now(role)} if counted else p.part.id
    doc = {
        "name": "suggested",
        "profile": req.profile,
        "target_gpus": req.gpus,
        "as_of": solution.as_of,
        **({"power_limit_w": req.power_limit_w} if req.power_limit_w is not None else {}),
        "parts": parts,
    }
    return "# Written by `partpicker suggest`; check it with `partpicker validate`.\n" + yaml.safe_dump(
        doc, sort_keys=False
    )
