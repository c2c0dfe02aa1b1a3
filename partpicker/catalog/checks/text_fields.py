"""text: a part's name, brand and aliases are short, printable text.

A name is what a build file quotes and every report prints: a control character or an ANSI
escape in it (``"\\e[2J\\e[31mPASS"``) would repaint a terminal, and a name thousands of
characters long is a corrupt entry, not a product (the longest real name is ~100)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from partpicker.catalog.checks.interface import Finding, lint_part
from partpicker.errors import excerpt

MAX_NAME = 200
"""No name, brand or alias longer than this."""


def _plain(text: str) -> bool:
    return text.isprintable() and len(text) <= MAX_NAME


def _texts(part: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    yield ("name",), part.name
    yield ("brand",), part.brand
    for i, alias in enumerate(part.aliases):
        yield ("aliases", i), alias


@lint_part("text", "a name, brand or alias with control characters, or longer than 200 characters")
def check(part: Any) -> Iterator[Finding]:
    """(``part``: a part, or the record of a JSON Lines line: they read alike.)"""
    name, brand, aliases = part.name, part.brand, part.aliases
    if _plain(name) and _plain(brand) and (not aliases or all(map(_plain, aliases))):
        return  # (the loader runs this on every line: the common case first, in few calls)
    for loc, text in _texts(part):
        if _plain(text):
            continue
        field = ".".join(str(x) for x in loc)
        if not text.isprintable():
            yield Finding(f"{field} has control characters: {excerpt(text)}", loc)
        else:
            yield Finding(f"{field} is longer than {MAX_NAME} characters: {excerpt(text)}", loc)
