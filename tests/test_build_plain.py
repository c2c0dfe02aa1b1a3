"""A build file read without pydantic (build.plain_spec, issue 14) is read as the schema
(build.schema.BuildFile) reads it: whatever the plain reader accepts, the schema accepts, with the
same values; everything else is left to the schema (and its error words)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from partpicker import kinds, yamlio
from partpicker.build import ROLES, plain_spec
from partpicker.build.schema import BuildFile
from partpicker.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("examples/*.yaml"), *ROOT.glob("tests/data/builds/**/*.yaml")])


def same(plain: Any, model: Any) -> None:
    """``plain`` holds what ``model`` holds: the same fields in order, each value the same type
    and value, nested records alike."""
    if isinstance(model, BaseModel):
        assert type(plain) in type(model).__mro__ and isinstance(plain, kinds.Plain)
        assert list(plain.__dict__) == list(model.__dict__)
        for name, value in model.__dict__.items():
            same(plain.__dict__[name], value)
    elif isinstance(model, list | dict):
        assert isinstance(model, type(plain)) and len(plain) == len(model)
        pairs = (
            zip(plain.items(), model.items(), strict=True)
            if isinstance(model, dict)
            else zip(plain, model, strict=True)
        )
        for a, b in pairs:
            same(a, b)
    else:
        assert type(plain) is type(model) and plain == model


def judge(raw: Any) -> bool:
    """True if the plain reader took ``raw`` (then the schema took it too, the same)."""
    plain = plain_spec(raw)
    if plain is None:
        return False
    same(plain, BuildFile.model_validate(raw))
    return True


def test_the_build_files_of_the_repository_read_the_same() -> None:
    taken = 0
    for path in FILES:
        try:
            raw = yamlio.read(path).data
        except InputError:  # not YAML: the schema never sees it
            continue
        if isinstance(raw, dict):
            taken += judge(raw)
    assert taken >= 20 and len(FILES) - taken >= 5  # most are plain; prices, specs and mistakes are not


def test_what_the_plain_reader_declines_is_left_to_the_schema() -> None:
    base = {"parts": {"cpu": "x"}}
    declined = [
        {**base, "as_of": "2020-01-01"},  # a quoted date: the schema reads it
        {**base, "target_gpus": True},
        {**base, "target_gpus": 17},
        {**base, "profile": "gaming"},
        {"parts": {"cpu": {"part": "x", "price": 10}}},
        {"parts": {"cpu": {"spec": {"name": "x"}}}},
        {"parts": {"cpu": ["x"]}},
        {"parts": {"gpu": {"part": "x", "count": 0}}},
        {"parts": {"cpu": "x"}, "rules": {"psu-wattage": "on"}},
        {"parts": {"cpu": "x"}, "extra": 1},
        {"parts": None},
    ]
    for raw in declined:
        assert plain_spec(raw) is None, raw
    assert plain_spec({**base, "as_of": dt.date(2020, 1, 1), "rules": {"a": "off", "b": {"x": 1}}}) is not None


text = st.text(max_size=4)
wild = st.one_of(  # values of the wrong type or out of range somewhere
    st.integers(-1, 2002),
    st.sampled_from([0, 1, 16, 17, 2000, 2001]),
    st.booleans(),
    st.none(),
    st.floats(),
    text,
    st.just("2020-01-01"),
    st.datetimes(dt.datetime(2000, 1, 1), dt.datetime(2001, 1, 1)),
    st.dates(dt.date(1900, 1, 1), dt.date(2200, 1, 1)),
    st.lists(text, max_size=2),
    st.dictionaries(st.one_of(text, st.integers(0, 1)), text, max_size=2),
)
plain_entry = st.one_of(
    text,
    st.fixed_dictionaries({"part": st.text(min_size=1, max_size=4)}, optional={"count": st.integers(1, 16)}),
)
wild_entry = st.one_of(
    wild,
    st.fixed_dictionaries({"part": wild}, optional={"count": wild}),
    st.fixed_dictionaries({"part": text}, optional={"price": wild, "spec": wild, "x": wild, "count": wild}),
    st.fixed_dictionaries({}, optional={"count": st.integers(1, 3), "spec": st.dictionaries(text, text, max_size=1)}),
)
roles = st.sampled_from(ROLES)
plain_values: dict[str, Any] = {
    "name": text,
    "profile": st.sampled_from(["compat", "dl-workstation"]),
    "target_gpus": st.integers(1, 16),
    "power_limit_w": st.integers(1, 2000),
    "as_of": st.dates(dt.date(1990, 1, 1), dt.date(2100, 12, 31)),
    "parts": st.dictionaries(roles, st.one_of(plain_entry, st.lists(plain_entry, max_size=3))),
    "rules": st.dictionaries(
        text, st.one_of(st.just("off"), st.booleans(), st.dictionaries(text, wild, max_size=2)), max_size=3
    ),
}
plain_docs = st.fixed_dictionaries(
    {"parts": plain_values["parts"]}, optional={k: v for k, v in plain_values.items() if k != "parts"}
)


def _spoilt(doc: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``doc`` as it is, or with one key, one part or one rule setting of a wrong shape."""
    parts = doc["parts"]
    return st.one_of(
        st.just(doc),
        st.tuples(st.sampled_from([*plain_values, "other", "parts"]), wild).map(lambda kv: {**doc, kv[0]: kv[1]}),
        st.tuples(
            st.one_of(roles, st.just("gpu2")), st.one_of(wild_entry, st.lists(wild_entry, min_size=1, max_size=2))
        ).map(lambda kv: {**doc, "parts": {**parts, kv[0]: kv[1]}}),
        st.tuples(st.one_of(text, st.integers(0, 1)), st.one_of(wild, st.just("off"), st.booleans())).map(
            lambda kv: {**doc, "rules": {**doc.get("rules", {}), kv[0]: kv[1]}}
        ),
    )


@settings(max_examples=400, deadline=None)
@given(plain_docs.flatmap(_spoilt))
def test_whatever_the_plain_reader_takes_the_schema_takes_the_same(raw: dict[str, Any]) -> None:
    try:
        judge(raw)
    except ValidationError:
        pytest.fail(f"the plain reader took what the schema refuses: {raw!r}")
