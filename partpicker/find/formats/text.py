"""Human text: one line per part (category, id, name, what tells it apart, dated price)."""

from __future__ import annotations

from partpicker.catalog import names
from partpicker.find.search import Found, Hit

FILTER_LABELS = {
    "min_vram": "VRAM",
    "min_cores": "cores",
    "min_watts": "wattage",
    "min_capacity_gb": "capacity",
    "socket": "socket",
    "form_factor": "form factor",
    "memory_type": "memory type",
    "max_price": "price",
}


def render(found: Found) -> str:
    out: list[str] = []
    if found.how == "nearest":
        out.append(f"nothing in the catalog fits {found.query!r}; the nearest by spelling:")
    elif not found.hits:
        out.append(f"no part fits {found.query!r}" if found.query else "no part fits")
    out.extend(_line(hit) for hit in found.hits)
    if found.total > len(found.hits):
        out.append(f"... and {found.total - len(found.hits)} more (raise --limit, or narrow the search)")
    for name, n in found.unknown.items():
        out.append(f"({n} part(s) left out: {FILTER_LABELS[name]} not known)")
    out.append(f"prices as of {found.as_of}")
    return "\n".join(out)


def _line(hit: Hit) -> str:
    part = hit.part
    facts = ", ".join(names.describe(part))
    if hit.price is None:
        price = "      n/a"
    else:
        mine = ", yours" if hit.user_price else ""
        price = f"${hit.price.usd:>9,.2f} ({hit.price.date}, {hit.price.kind}{mine})"
    origin = f"  [{hit.origin}]" if hit.origin else ""
    return f"{part.category:<11} {price}  {part.name}  ({facts})  id: {part.id}{origin}"
