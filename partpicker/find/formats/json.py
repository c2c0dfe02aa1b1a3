"""JSON: one object, ``{query, as_of, how, total, unknown, parts: [...]}``, each part with its
fields, its price as of the date and where it came from."""

from __future__ import annotations

import json
from typing import Any

from partpicker.find.search import Found, Hit


def render(found: Found) -> str:
    return json.dumps(
        {
            "query": found.query,
            "as_of": found.as_of.isoformat(),
            "how": found.how,
            "total": found.total,
            "unknown": found.unknown,
            "parts": [_part(hit) for hit in found.hits],
        },
        indent=2,
    )


def _part(hit: Hit) -> dict[str, Any]:
    fields = hit.part.model_dump(mode="json", exclude={"prices", "sources", "notes", "field_evidence", "evidence"})
    price = hit.price.model_dump(mode="json") if hit.price else None
    return {
        "category": hit.part.category,
        **fields,
        "price": price,
        "price_from_user": hit.user_price,
        "origin": hit.origin,
    }
