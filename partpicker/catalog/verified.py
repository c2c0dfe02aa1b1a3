"""``--verified-only``: treat the facts whose evidence is ``recalled`` as unknown.

A recalled fact whose field may be unknown (its default is ``None``) is set to ``None``, so
every rule that needs it says *unknown*, exactly as for a fact the catalog never had. A
recalled fact no part can be without (a board's socket, a case's form factors) cannot be
made unknown in the model: :func:`unverifiable` names those, the validator keeps any rule
that reads them from passing, and :func:`verified_catalog` with ``drop_unverifiable`` leaves
such parts out (what `suggest` wants: it may offer only parts that can be proven to pass).
"""

from __future__ import annotations

from partpicker.catalog.load import Catalog
from partpicker.parts import Part, spec_fields


def _recalled(part: Part) -> list[str]:
    """The spec fields whose evidence (own, or the part's default) is ``recalled``."""
    out = []
    for name in spec_fields(type(part)):
        found = part.evidence_of(name)
        if found is not None and found.kind == "recalled":
            out.append(name)
    return out


def _nullable(cls: type[Part], field: str) -> bool:
    from partpicker.models import CATEGORIES  # the field's default (a plain part has none: kinds.py)

    info = CATEGORIES[cls.category].model_fields[field]
    return not info.is_required() and info.default is None and info.default_factory is None


def unverifiable(part: Part) -> list[str]:
    """The recalled fields of ``part`` that cannot be set unknown (required or list-valued)."""
    return [f for f in _recalled(part) if getattr(part, f) is not None and not _nullable(type(part), f)]


def without_recalled(part: Part) -> Part:
    """``part`` with its nullable recalled facts set to unknown (the same object if none)."""
    cls = type(part)
    update = {f: None for f in _recalled(part) if getattr(part, f) is not None and _nullable(cls, f)}
    return part.model_copy(update=update) if update else part


def verified_catalog(catalog: Catalog, *, drop_unverifiable: bool = False) -> Catalog:
    """A catalog of the same parts with recalled facts unknown (see the module docs)."""
    out = Catalog()
    for part in catalog:
        if drop_unverifiable and unverifiable(part):
            continue
        out.add(without_recalled(part), catalog.origin[part.id])
    out.overlay = dict(catalog.overlay)  # your parts and prices stay marked as yours
    return out
