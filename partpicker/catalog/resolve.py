"""Find a part by id, exact name, alias, or a clear fuzzy match."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from partpicker.models import Part

if TYPE_CHECKING:
    from partpicker.catalog.load import Catalog

# A fuzzy match is taken only when it is this good and clearly ahead of the next part.
FUZZY_ACCEPT = 88.0
FUZZY_MARGIN = 8.0
FUZZY_SHOW = 60.0


def resolve(catalog: Catalog, name: str, category: str) -> Part:
    """Find a part of ``category`` by id, exact name, alias, or a clear fuzzy match.

    An unknown or ambiguous name raises a ``LookupError`` whose message lists the
    closest candidates with their ids.
    """
    pool = catalog.by_category.get(category, [])
    found = _named(catalog, name, category, pool)
    if found is not None:
        return found
    return _fuzzy_match(catalog, name, category, pool)


def _named(catalog: Catalog, name: str, category: str, pool: Sequence[Part]) -> Part | None:
    """The part with this id, exact name or alias; None if none (an alias of several is an error)."""
    wanted = name.strip().casefold()
    by_id = catalog.parts.get(name.strip())
    if by_id is not None and by_id.category == category:
        return by_id
    exact = _exact(name, pool)
    if len(exact) == 1:
        return exact[0]
    aliased = [p for p in pool if wanted in (a.casefold() for a in p.aliases)]
    if len(aliased) == 1:
        return aliased[0]
    if len(aliased) > 1:
        raise LookupError(_ambiguous(name, category, aliased))
    return None


def _exact(name: str, pool: Sequence[Part]) -> list[Part]:
    """Parts named ``name`` exactly (ignoring case), else alike once normalised."""
    wanted = name.strip().casefold()
    return [p for p in pool if p.name.casefold() == wanted] or [p for p in pool if norm(p.name) == norm(name)]


def _fuzzy_match(catalog: Catalog, name: str, category: str, pool: Sequence[Part]) -> Part:
    """The clear fuzzy match, or a ``LookupError`` listing the closest parts."""
    ranked = _fuzzy(name, pool)
    if not ranked:
        raise LookupError(_no_match(name, category, closest(catalog, name, category)))
    best_part, best_score = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    if best_score >= FUZZY_ACCEPT and best_score - runner_up >= FUZZY_MARGIN:
        return best_part
    close = [p for p, s in ranked if s >= max(FUZZY_SHOW, best_score - 15)][:8]
    if best_score >= FUZZY_ACCEPT and len(close) > 1:
        raise LookupError(_ambiguous(name, category, close))
    raise LookupError(_no_match(name, category, close))


def _no_match(name: str, category: str, near: Sequence[Part]) -> str:
    hint = "; closest: " + ", ".join(f"{p.name} ({p.id})" for p in near) if near else ""
    return f"no {category} in the catalog matches {name!r}{hint}"


def _fuzzy(name: str, pool: Sequence[Part]) -> list[tuple[Part, float]]:
    """Parts ranked by similarity; when the query has model codes (tokens with digits:
    "1920X", "4x16gb", "1tb"), only parts whose name or an alias has them all."""
    codes = _codes(name)
    choices: list[str] = []
    owners: list[Part] = []
    for part in pool:
        for label in (part.name, *part.aliases):
            if codes <= _codes(label) | _codes(part.name):
                choices.append(label)
                owners.append(part)
    best: dict[str, tuple[Part, float]] = {}
    for _label, score, idx in process.extract(name, choices, scorer=fuzz.WRatio, processor=norm, limit=None):
        part = owners[idx]
        if part.id not in best or best[part.id][1] < score:
            best[part.id] = (part, float(score))
    return sorted(best.values(), key=lambda ps: -ps[1])


def closest(catalog: Catalog, name: str, category: str, limit: int = 5) -> list[Part]:
    """The parts nearest to a name, ignoring model codes (for 'did you mean')."""
    pool = catalog.by_category.get(category, [])
    labels = [(p.name, p) for p in pool]
    hits = process.extract(name, [label for label, _ in labels], scorer=fuzz.WRatio, processor=norm, limit=limit)
    return [labels[idx][1] for _l, score, idx in hits if score >= FUZZY_SHOW]


def _codes(text: str) -> set[str]:
    return {tok for tok in norm(text).split() if any(ch.isdigit() for ch in tok)}


def norm(text: str) -> str:
    text = re.sub(r"(\d)\s*x\s*(\d)", r"\1x\2", text.casefold())  # "4 x 16GB" = "4x16GB"
    text = re.sub(r"(\d)\s+(tb|gb|mb|w)\b", r"\1\2", text)  # "1 TB" = "1TB"
    return " ".join(re.sub(r"[-()/,]", " ", text).split())


def _ambiguous(name: str, category: str, parts: Sequence[Part]) -> str:
    listed = ", ".join(f"{p.name} ({p.id})" for p in parts)
    return f"{name!r} fits more than one {category}: {listed}"
