"""The plain classes (partpicker.kinds, issue 14) are their pydantic models without pydantic:
the same fields in the same order, the same behaviour, for every part of the bundled catalog."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from pydantic import BaseModel

from partpicker import cache, kinds, models
from partpicker.build import BuildFileKind, CountedKind, PartsSpecKind
from partpicker.build.schema import BuildFile, Counted, PartsSpec
from partpicker.catalog import Catalog
from partpicker.catalog.verified import without_recalled
from partpicker.rules import rulebook, schema

PAIRS: list[tuple[type[BaseModel], type[kinds.Plain]]] = [
    *((cls, kinds.KINDS[name]) for name, cls in models.CATEGORIES.items()),
    (models.Part, kinds.PartKind),
    (models.Price, kinds.PriceKind),
    (models.Evidence, kinds.EvidenceKind),
    (models.Sharing, kinds.SharingKind),
    (models.PcieSlot, kinds.PcieSlotKind),
    (models.M2Slot, kinds.M2SlotKind),
    (models.GpuPower, kinds.GpuPowerKind),
    (schema.RuleSpec, rulebook.RuleSpecKind),
    (schema.Param, rulebook.ParamKind),
    (schema.Example, rulebook.ExampleKind),
    (BuildFile, BuildFileKind),
    (PartsSpec, PartsSpecKind),
    (Counted, CountedKind),
]


@pytest.mark.parametrize(("model", "plain"), PAIRS, ids=[m.__name__ for m, _ in PAIRS])
def test_each_model_is_its_plain_class_with_the_same_fields(model: type[BaseModel], plain: type[kinds.Plain]) -> None:
    assert issubclass(model, plain)
    assert tuple(model.model_fields) == plain.FIELDS
    assert getattr(model, "category", None) == getattr(plain, "category", None)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    from partpicker.catalog.load import load_catalog

    return load_catalog()


def twin(part: models.Part) -> Any:
    return kinds.make(kinds.KINDS[part.category], cache.flatten(part))


def test_every_part_reads_and_behaves_alike_as_a_plain_object(catalog: Catalog) -> None:
    days = [dt.date(2015, 1, 1), dt.date(2018, 9, 1), dt.date(2021, 6, 30), dt.date(2026, 12, 1)]
    for part in catalog:
        plain = twin(part)
        assert isinstance(plain, kinds.Plain) and not isinstance(plain, BaseModel)
        assert repr(plain) == repr(part)
        assert plain.model_dump() == part.model_dump()
        for day in days:
            got, want = plain.price_as_of(day), part.price_as_of(day)
            assert (got is None and want is None) or got.__dict__ == want.__dict__
        for field in kinds.spec_fields(type(part)):
            got, want = plain.evidence_of(field), part.evidence_of(field)
            assert (got is None and want is None) or got.__dict__ == want.__dict__
        if part.category == "ram":
            assert plain.total_gb == part.total_gb
        assert without_recalled(plain).model_dump() == without_recalled(part).model_dump()


def test_a_plain_part_is_immutable_and_copies_as_pydantic_does(catalog: Catalog) -> None:
    part = next(iter(catalog))
    plain = twin(part)
    with pytest.raises(TypeError):
        plain.name = "x"
    copy = plain.model_copy(update={"name": "other"})
    assert copy.name == "other" and plain.name == part.name and type(copy) is type(plain)
    assert copy.model_dump() == part.model_copy(update={"name": "other"}).model_dump()
    assert plain == twin(part) and plain != copy and plain != part


def test_stored_data_of_another_shape_is_refused() -> None:
    price = models.Price(usd=1.0, date=dt.date(2020, 1, 2), source="s")
    stored = cache.flatten(price)
    assert kinds.make(kinds.PriceKind, stored).__dict__ == price.__dict__
    for bad in ([*stored, 1], stored[:-1], {"usd": 1.0}, ["x", *stored[1:]]):
        with pytest.raises(ValueError):
            kinds.make(kinds.PriceKind, bad)
    with pytest.raises((ValueError, TypeError)):
        kinds.make(kinds.PriceKind, [stored[0], 1.0, 20200102, "s", "street"])  # a date that is no date
