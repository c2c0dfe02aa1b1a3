"""The DuckDB road (issue 14): the per-class reduction as one GROUP BY over the JSON Lines file.

    pip install -e '.[bench]'
    python benchmarks/duckdb_road.py benchmarks/out/synth-100k.jsonl     # prints one JSON line

Both contenders compute, for every role, the cheapest part of each class of parts alike on
every field the rules read of the role (the rules' ``reads:``), priced as of the date (the
newest street or used point on or before it, else the newest MSRP point), and the number of
classes:

- **duckdb**: ``read_json_auto`` of the file, the price as of the date by ``arg_max`` over the
  unnested price points, then one ``GROUP BY category, class key`` with ``min(price)``;
- **python**: partpicker's loader (msgspec records, every line validated and checked) and the
  same reduction in Python (``Search._alike_cheapest`` over the offered parts).

The class counts must agree. DuckDB validates nothing here (no schema, vocabulary, evidence or
slot-map checks, no line numbers): its figure is a lower bound of what it would cost as the
loader.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

from partpicker.rules.rulebook import load_rules, rules_for


def class_fields() -> dict[str, list[str]]:
    """Per role, the fields the error rules of the default profile read."""
    out: dict[str, set[str]] = {}
    for rule in rules_for("dl-workstation", load_rules()):
        if rule.severity == "error":
            for role, names in rule.reads.items():
                out.setdefault(role, set()).update(names)
    return {role: sorted(names) for role, names in out.items()}


def by_duckdb(path: Path, as_of: dt.date) -> dict[str, int]:
    """Classes per role, and the cheapest of each, by DuckDB."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET threads TO 1")  # the machine is shared; the Python path is single-threaded
    con.execute(
        f"CREATE TEMP TABLE parts AS SELECT * FROM read_json_auto('{path}', format='newline_delimited', "
        "sample_size=-1, union_by_name=true)"
    )
    con.execute(
        f"""CREATE TEMP TABLE priced AS
        SELECT id, arg_max(p.usd, (p.kind <> 'msrp', p.date)) AS usd
        FROM (SELECT id, unnest(prices) AS p FROM parts)
        WHERE p.date <= DATE '{as_of.isoformat()}' GROUP BY id"""
    )
    out: dict[str, int] = {}
    for role, names in class_fields().items():
        key = ", ".join(f"to_json({n})" for n in names)
        (count,) = con.execute(
            f"""SELECT count(*) FROM (
                SELECT {key}, min(priced.usd) AS usd, arg_min(parts.id, priced.usd) AS cheapest
                FROM parts JOIN priced USING (id) WHERE category = '{role}' GROUP BY {key})"""
        ).fetchone()  # type: ignore[misc]
        out[role] = count
    return out


def by_python(path: Path, as_of: dt.date) -> dict[str, int]:
    """Classes per role, by partpicker's loader and reduction."""
    from partpicker.catalog.checks import CURATION_ONLY, check_catalog
    from partpicker.suggest.offer import Request
    from partpicker.suggest.search import Search

    catalog, _ = check_catalog([path], skip=CURATION_ONLY)
    search = Search(catalog, load_rules(), Request(gpus=4, min_vram=0, min_storage_gb=0, as_of=as_of))
    for role in search.request.roles:
        search._alike_cheapest(role, [(p.part, p.usd) for p in search.offered[role]])
    return dict(search.alike_classes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", type=Path)
    parser.add_argument("--as-of", default="2025-07-23")
    parser.add_argument("--road", choices=("duckdb", "python"), required=True)
    args = parser.parse_args(argv)
    as_of = dt.date.fromisoformat(args.as_of)
    wall, cpu = time.perf_counter(), time.process_time()
    classes: dict[str, Any] = (by_duckdb if args.road == "duckdb" else by_python)(args.catalog, as_of)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {"road": args.road, "wall_s": time.perf_counter() - wall, "cpu_s": time.process_time() - cpu}
    print(json.dumps({**out, "peak_mb": peak, "classes": classes}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
