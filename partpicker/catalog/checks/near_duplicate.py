"""near-duplicate: the same part twice under two spellings (rapidfuzz on normalised names)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from rapidfuzz import fuzz

from partpicker.catalog import Catalog, Problem
from partpicker.catalog.checks.interface import lint, problem
from partpicker.models import Part

THRESHOLD = 93.0
_NUM = re.compile(r"\d+[a-z]*")


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.casefold())


def _tokens(name: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]+", name.casefold()))


def _numbers(name: str) -> list[str]:
    # Model codes: "RTX 3090" vs "RTX 3080", "1TB" vs "2TB", "9900K" vs "9900X" are different
    # parts however alike; "RTX3090" and "RTX 3090" have the same code.
    return sorted(_NUM.findall(name.casefold()))


def _other_model(na: str, nb: str, ta: frozenset[str], tb: frozenset[str]) -> bool:
    """Whether two names with the same numbers still name different models."""
    if na == nb:
        return False
    if ta < tb or tb < ta:
        return True  # "Define 7" and "Define 7 XL": one name extends the other, another model
    # "1600 G+" and "1600 P+", "PX-1600" and "TX-1600": model letters differ
    return all(len(t) <= 2 or any(c.isdigit() for c in t) for t in ta ^ tb)


@lint("near-duplicate", "two parts whose names are the same but for spelling")
def check(catalog: Catalog) -> Iterator[Problem]:
    for parts in catalog.by_category.values():
        # Only names with the same model numbers can be near-duplicates: compare within each
        # such group, not every pair (5,000 parts took 4 s, now a tenth of that).
        groups: dict[tuple[str, ...], list[tuple[Part, str, frozenset[str]]]] = {}
        for p in parts:
            groups.setdefault(tuple(_numbers(p.name)), []).append((p, _norm(p.name), _tokens(p.name)))
        yield from _pairs(catalog, groups.values())


def _pairs(catalog: Catalog, groups: Iterable[list[tuple[Part, str, frozenset[str]]]]) -> Iterator[Problem]:
    for keyed in groups:
        for i, (a, na, ta) in enumerate(keyed):
            for b, nb, tb in keyed[i + 1 :]:
                if _other_model(na, nb, ta, tb):
                    continue
                score = fuzz.ratio(na, nb)
                if score >= THRESHOLD:
                    yield problem(
                        catalog,
                        "near-duplicate",
                        b.id,
                        f"name {b.name!r} is {score:.0f}% like {a.name!r} ({a.id}); the same part twice?",
                        ["name"],
                    )
