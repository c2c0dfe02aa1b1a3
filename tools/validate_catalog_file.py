"""Load one catalog YAML file through the part models and print every error (curation aid)."""

from __future__ import annotations

import sys

import yaml
from pydantic import ValidationError

from partpicker.models import CATEGORIES


def main(path: str) -> int:
    with open(path, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    cls = CATEGORIES[doc["category"]]
    ids: set[str] = set()
    errors = 0
    for i, raw in enumerate(doc.get("parts") or []):
        try:
            part = cls.model_validate(raw)
        except ValidationError as exc:
            for err in exc.errors():
                errors += 1
                print(f"{path}: part #{i} ({raw.get('id')}): {'.'.join(map(str, err['loc']))}: {err['msg']}")
            continue
        if part.id in ids:
            errors += 1
            print(f"{path}: duplicate id {part.id}")
        ids.add(part.id)
    print(f"{len(ids)} parts valid, {errors} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
