"""Hypothesis strategies for hostile input: build files, rule overrides, options, catalog entries.

Used by tests/test_fuzz.py (a bounded number of examples per run; ``FUZZ_EXAMPLES`` for more)
and by tests/fuzz/run.py (the long run whose figures the README quotes)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
ROLES = ("cpu", "motherboard", "gpu", "ram", "ssd", "psu", "case", "cooler")

HOSTILE_STRINGS = (
    "",
    " ",
    "\x00",
    "\x1b[2J\x1b[31mPASS",
    "x\n::error file=README.md,line=1::injected",
    "%0A::warning::x",
    "\ud800",
    "\u202eevil",
    "2018-02-30",
    "0001-01-01",
    "9999-12-31",
    "1500",
    ".inf",
    "nan",
    "true",
    "off",
    "A" * 5000,
    "Threadripper " * 30,
    "{{name}}",
    "{0.__class__}",
    "%s%s%n",
    "../../etc/passwd",
    "AMD",
    "RTX",
)

# Text that breaks YAML in every way the issue lists, spliced into real build files.
YAML_SNIPPETS = (
    "!!int four",
    "!!float lots",
    "!!bool maybe",
    "!!timestamp soon",
    "!!seq abc",
    "!!map abc",
    "!!binary ???",
    "!!python/object:os.system x",
    "!!set {a}",
    "2018-02-30",
    "2025-13-01",
    ".inf",
    "-.inf",
    ".nan",
    "&a [*a]",
    "*nowhere",
    "[" * 80,
    "{" * 80,
    "]}",
    '"unterminated',
    "'\\x00'",
    "\x00",
    "\x01",
    "\x1b[31m",
    "\ud800",
    "\t",
    "? [a, b]\n: 1",
    "<<: 5",
    "- - - -",
    "a: b: c",
    "---\n---",
    "%YAML 9.9",
    "0x1F",
    "1e999",
    "99999999999999999999999999",
    "-0",
    "~",
)


def scalars() -> st.SearchStrategy[Any]:
    """Any scalar a YAML or JSON document can hold, with the nasty ones over-represented."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20),
        st.integers(min_value=-5, max_value=2000),
        st.floats(allow_nan=True, allow_infinity=True),
        st.dates(min_value=dt.date(1, 1, 1), max_value=dt.date(9999, 12, 31)),
        st.text(max_size=40),
        st.sampled_from(HOSTILE_STRINGS),
    )


def values() -> st.SearchStrategy[Any]:
    """Scalars, lists and mappings of them, a few levels deep."""
    return st.recursive(
        scalars(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
        max_leaves=12,
    )


def part_names(names: list[str]) -> st.SearchStrategy[Any]:
    """A part reference: a real name (maybe mangled), a hostile string, or any value."""
    real = st.sampled_from(names) if names else st.nothing()
    mangled = st.tuples(real, st.sampled_from(HOSTILE_STRINGS)).map(lambda t: t[0] + t[1])
    counted = st.fixed_dictionaries({"part": real | st.sampled_from(HOSTILE_STRINGS)}, optional={"count": scalars()})
    return st.one_of(real, real, mangled, counted, st.lists(real, max_size=3), scalars())


def overrides(params: dict[str, list[str]]) -> st.SearchStrategy[dict[Any, Any]]:
    """A ``rules:`` mapping: real rule ids and parameters with any value, and some junk."""
    ids = st.sampled_from(sorted(params)) | st.text(max_size=10)

    def setting(rule: str) -> st.SearchStrategy[Any]:
        keys = st.sampled_from([*params.get(rule, []), "severity"]) | st.text(max_size=8)
        values_of = st.one_of(scalars(), st.sampled_from(["error", "warning", "info"]), values())
        return st.one_of(st.just("off"), st.booleans(), st.dictionaries(keys, values_of, max_size=3), scalars())

    return st.dictionaries(ids, st.just(None), max_size=4).flatmap(
        lambda chosen: st.fixed_dictionaries({rule: setting(rule) for rule in chosen})
    )


def build_docs(names: list[str], params: dict[str, list[str]]) -> st.SearchStrategy[dict[str, Any]]:
    """A build file's document: the real keys with any values, and unknown keys now and then."""
    parts = st.dictionaries(st.sampled_from(ROLES) | st.text(max_size=8), part_names(names), max_size=9)
    return st.fixed_dictionaries(
        {"parts": parts | values()},
        optional={
            "name": st.sampled_from(HOSTILE_STRINGS) | st.text(max_size=30) | scalars(),
            "profile": st.sampled_from(["compat", "dl-workstation"]) | scalars(),
            "target_gpus": st.integers(min_value=-2, max_value=20) | scalars(),
            "as_of": st.dates(min_value=dt.date(1, 1, 1), max_value=dt.date(9999, 12, 31)) | scalars(),
            "rules": overrides(params) | values(),
            "extra": values(),
        },
    )


def dump(doc: Any) -> str:
    """YAML text for a document (lone surrogates and all)."""
    try:
        return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, UnicodeError, ValueError, TypeError):
        return json.dumps(doc, default=str)


def mutated_yaml(bases: list[str]) -> st.SearchStrategy[str]:
    """A real build file with snippets spliced in, lines dropped, doubled or cut short."""

    def mutate(base: str, edits: list[tuple[int, int, str]]) -> str:
        lines = base.split("\n")
        for kind, where, snippet in edits:
            i = where % max(len(lines), 1)
            if kind == 0:
                cut = lines[i].find(":")
                lines[i] = (lines[i][: cut + 1] + " " + snippet) if cut >= 0 else snippet
            elif kind == 1:
                lines.insert(i, snippet)
            elif kind == 2 and lines:
                del lines[i]
            elif kind == 3:
                lines.insert(i, lines[i] if lines else "")
            else:
                lines[i] = lines[i][: len(lines[i]) // 2]
        return "\n".join(lines)

    edit = st.tuples(st.integers(0, 4), st.integers(0, 10_000), st.sampled_from(YAML_SNIPPETS) | st.text(max_size=20))
    return st.builds(mutate, st.sampled_from(bases), st.lists(edit, min_size=1, max_size=4))


def option_sets() -> st.SearchStrategy[list[str]]:
    """A command line for suggest, validate, cost or catalog with hostile option values."""
    number = st.sampled_from(["inf", "-inf", "nan", "-1", "0", "1e308", "1e999", "3000", "x", "", "1_000"])
    date = st.sampled_from(["0001-01-01", "9999-12-31", "2018-02-30", "2018-09-01", "today", "", "2024-07-01"])
    days = st.sampled_from(["0", "1", "365", "99999999999", "-5", "1e3", "x"])
    suggest = st.tuples(
        st.just(["suggest"]),
        st.lists(
            st.one_of(
                number.map(lambda v: ["--budget", v]),
                date.map(lambda v: ["--as-of", v]),
                days.map(lambda v: ["--stale-days", v]),
                number.map(lambda v: ["--min-vram", v]),
                st.sampled_from(["0", "1", "4", "17", "-1", "x"]).map(lambda v: ["--gpus", v]),
                st.sampled_from(["1", "2", "5"]).map(lambda v: ["--start-gpus", v]),
                st.sampled_from(["cpu=1920X", "cpu=", "x", "=y", "gpu=\x1b[31m"]).map(lambda v: ["--require", v]),
                st.sampled_from(["RTX 3090", "\ud800", "", "A" * 500]).map(lambda v: ["--gpu", v]),
                st.sampled_from(["json", "text", "xml"]).map(lambda v: ["--format", v]),
                st.sampled_from([["--cost"], ["--strict"], ["--allow-unknown"], ["--top", "3"], ["--top", "0"]]),
                st.sampled_from(["gpu=RTX 3090", "x", "", "cpu=\x1b[2J"]).map(lambda v: ["--exclude", v]),
                st.sampled_from(["0", "1000", "-1", "1e9", "x"]).map(lambda v: ["--min-storage", v]),
                st.sampled_from(["now", "full", "x"]).map(lambda v: ["--objective", v]),
                st.sampled_from(["0", "1", "250", "2000", "2001", "nan", "x"]).map(lambda v: ["--power-limit", v]),
                st.sampled_from(["llama-3.1-70b", "llama-3.1-405b", "x", "", "\ud800"]).map(
                    lambda v: ["--workload", v]
                ),
                st.sampled_from(["us-15a", "eu-16a", "x", "", "15A/120V"]).map(lambda v: ["--circuit", v]),
                number.map(lambda v: ["--headroom", v]),
                st.sampled_from(["/dev/zero", "/nonexistent", str(ROOT / "examples")]).map(lambda v: ["--parts", v]),
                st.sampled_from([["--verified-only"], ["--format", "html"], ["--allow-broken-catalog"]]),
            ),
            max_size=5,
        ),
    )
    validate = st.tuples(
        st.sampled_from([["validate", str(p)] for p in EXAMPLES[:4]]),
        st.lists(
            st.one_of(
                date.map(lambda v: ["--as-of", v]),
                days.map(lambda v: ["--stale-days", v]),
                st.sampled_from(["json", "text", "github", "sarif", "x"]).map(lambda v: ["--format", v]),
                st.sampled_from(["/dev/zero", "/dev/null", "/nonexistent", str(ROOT)]).map(lambda v: ["--catalog", v]),
                st.sampled_from(["/dev/zero", "/nonexistent", str(EXAMPLES[1])]).map(lambda v: ["--parts", v]),
                st.sampled_from(["0", "250", "9999", "x"]).map(lambda v: ["--power-limit", v]),
                st.sampled_from(["us-15a", "x", ""]).map(lambda v: ["--circuit", v]),
                st.sampled_from([["--strict"], ["--verified-only"], ["--format", "html"]]),
            ),
            max_size=3,
        ),
    )
    cost = st.tuples(
        st.just(["cost", str(EXAMPLES[0])]),
        st.lists(
            st.one_of(
                number.map(lambda v: ["--hours-per-day", v]),
                number.map(lambda v: ["--kwh-price", v]),
                number.map(lambda v: ["--gpu-price", v]),
                st.sampled_from(["0", "1", "1000000"]).map(lambda v: ["--months", v]),
                st.sampled_from(["100x for 1 week every 6 months", "x", "1e9x for 1 week every 1 months"]).map(
                    lambda v: ["--burst", v]
                ),
                st.sampled_from(["json", "text", "html"]).map(lambda v: ["--format", v]),
                date.map(lambda v: ["--as-of", v]),
                st.sampled_from(["0", "1", "4", "-1", "1000", "x"]).map(lambda v: ["--gpus", v]),
                number.map(lambda v: ["--purchase-usd", v]),
                st.sampled_from(["gpu=800", "gpu=inf", "x", "=5", "psu=-1", "cpu=1e999"]).map(lambda v: ["--price", v]),
                number.map(lambda v: ["--utilisation", v]),
                number.map(lambda v: ["--draw-kw", v]),
                st.sampled_from(["0", "1", "36", "-1", "99999999999"]).map(lambda v: ["--depreciation-months", v]),
                st.sampled_from(["A100", "H100", "x", "", "\x1b[31m"]).map(lambda v: ["--cloud-gpu", v]),
                number.map(lambda v: ["--cloud-rate", v]),
                number.map(lambda v: ["--reserved-1yr", v]),
                number.map(lambda v: ["--reserved-3yr", v]),
                number.map(lambda v: ["--storage-rate", v]),
                number.map(lambda v: ["--storage-gb", v]),
            ),
            max_size=5,
        ),
    )
    catalog = st.tuples(
        st.sampled_from(
            [
                ["catalog", "check"],
                ["catalog", "list"],
                ["catalog", "coverage"],
                ["catalog", "checks"],
                ["catalog", "diff"],
            ]
        ),
        st.lists(
            st.sampled_from(
                [
                    ["/dev/zero"],
                    [str(ROOT / "examples")],
                    ["--format", "json"],
                    ["gpu"],
                    ["\x1b"],
                    [str(ROOT / "catalogs")],
                ]
            ),
            max_size=2,
        ),
    )
    return st.one_of(suggest, suggest, validate, cost, catalog).map(lambda t: t[0] + [a for pair in t[1] for a in pair])


def catalog_entries(fields: dict[str, list[str]], seeds: dict[str, list[dict[str, Any]]]) -> st.SearchStrategy[Any]:
    """A catalog file's document: a real part with fields set to hostile values, or junk."""

    def spoil(category: str, part: dict[str, Any], changes: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(part)
        for name, value in changes:
            out[name] = value
        return {"category": category, "parts": [out]}

    def of(category: str) -> st.SearchStrategy[Any]:
        names = st.sampled_from(fields[category]) | st.text(max_size=8)
        change = st.tuples(names, values())
        return st.builds(spoil, st.just(category), st.sampled_from(seeds[category]), st.lists(change, max_size=3))

    categories = sorted(seeds)
    return st.one_of(
        st.sampled_from(categories).flatmap(of),
        st.fixed_dictionaries({"category": st.sampled_from(categories) | scalars(), "parts": values()}),
        values(),
    )
