"""Time loading and solving synthetic catalogs of growing size, each in a fresh process.

    python benchmarks/run.py                      # 1k, 10k, 100k parts
    python benchmarks/run.py --with-1m            # and 1M
    python benchmarks/run.py --sizes 1000,50k --repeat 3 --json benchmarks/out/results.json

Catalogs are made by `benchmarks/synth.py` and cached under `benchmarks/out/` (git-ignored)
with a `.meta.json` beside each; a cached file is made again when its size, seed, the
generator or the curated catalog it learns from changed.

Each size is measured in a child process (`run.py --measure FILE`), so that one size's
heap and allocator state do not leak into the next and `ru_maxrss` is that size's own peak:

- load: `load_catalog([FILE])`, wall-clock (and CPU) seconds;
- solve: `solve(...)` for `Request(gpus=N, as_of=AS_OF, stale_days=DEFAULT_STALE_DAYS)` (as the command
  asks by default), wall-clock seconds, or `n/a`
  while `partpicker.suggest.search` does not import; AS_OF is the newest price date of the curated
  catalog, which the synthetic prices are spread up to (with the default as-of, today,
  every synthetic price would be stale);
- peak memory: the child's `resource.getrusage(RUSAGE_SELF).ru_maxrss` at the end, i.e.
  the whole process (interpreter, imports, catalog, solve); `base MB` is the same figure
  taken after the imports, before loading.

Growth between consecutive sizes is (time ratio) / (size ratio): 1.0 is linear.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import gc
import inspect
import itertools
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
DEFAULT_SIZES = (1_000, 10_000, 100_000)


def _label(n: int) -> str:
    if n % 1_000_000 == 0:
        return f"{n // 1_000_000}m"
    if n % 1_000 == 0:
        return f"{n // 1_000}k"
    return str(n)


def _default_mem_limit_gb() -> float:
    try:
        return round(0.75 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        return 16.0


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes on macOS, KiB on Linux


# ------------------------------------------------------------------------ the child


def measure(
    path: Path,
    gpus: int,
    as_of: dt.date,
    with_solver: bool = True,
    mem_limit_gb: float | None = None,
    gc_freeze: bool = False,
    streamed: bool = False,
) -> dict[str, Any]:
    """Load (and solve, if the solver exists) in this process; the figures as a dict.

    ``streamed`` loads as `suggest` does (``partpicker.suggest.reduce.streamed_catalog``: only
    what the request can choose is kept), not the whole catalog.

    ``gc_freeze`` loads with the cyclic GC off and then moves the catalog to the permanent
    generation (`gc.freeze()`), as a CLI could: no collection then walks the parts again.
    """
    if mem_limit_gb:  # a runaway size fails with MemoryError instead of starving the machine
        limit = int(mem_limit_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from partpicker.catalog import load_catalog

    solver: tuple[Any, Any] | None = None
    missing = "skipped (--no-solve)"
    if with_solver:
        try:
            from partpicker.suggest.answer import solve
            from partpicker.suggest.offer import Request
        except ImportError as exc:
            missing = f"n/a ({exc})"
        else:
            solver = (Request, solve)
    base = _peak_mb()

    wall, cpu = time.perf_counter(), time.process_time()
    if streamed:
        catalog = _streamed(path, gpus, as_of)
        if gc_freeze:
            gc.freeze()
    elif gc_freeze:
        # What the commands do (partpicker.cli.common.load_catalog_once), with the GC also
        # off while loading.
        gc.disable()
        catalog = load_catalog([path])
        gc.freeze()
        gc.enable()
    else:
        catalog = load_catalog([path])
    result: dict[str, Any] = {
        "parts": len(catalog),
        "base_mb": base,
        "load_s": time.perf_counter() - wall,
        "load_cpu_s": time.process_time() - cpu,
        "solve_s": None,
        "result": missing if solver is None else "",
    }
    if solver is not None:
        request_cls, solve_fn = solver
        names = {f.name for f in dataclasses.fields(request_cls)} if dataclasses.is_dataclass(request_cls) else set()
        request = request_cls(gpus=gpus, as_of=as_of) if "as_of" in names else request_cls(gpus=gpus)
        if "stale_days" in names:  # as `suggest` asks by default (its --stale-days)
            from partpicker.suggest.offer import DEFAULT_STALE_DAYS

            request = dataclasses.replace(request, stale_days=DEFAULT_STALE_DAYS)
        args: tuple[Any, ...] = (catalog, request)
        if "rules" in inspect.signature(solve_fn).parameters:  # solve(catalog, rules, request)
            from partpicker.rules.rulebook import load_rules

            args = (catalog, load_rules(), request)
        try:
            wall = time.perf_counter()
            solution = solve_fn(*args)
            result["solve_s"] = time.perf_counter() - wall
            result["result"] = _describe(solution)
        except Exception as exc:  # a benchmark reports a failing solver, it does not stop
            result["result"] = f"error: {type(exc).__name__}: {exc}"[:120]
    result["peak_mb"] = _peak_mb()
    return result


def _streamed(path: Path, gpus: int, as_of: dt.date) -> Any:
    """The catalog as `suggest --gpus N --as-of DAY --min-storage 0` reads it."""
    from partpicker.rules.rulebook import load_rules
    from partpicker.suggest.offer import DEFAULT_STALE_DAYS, Request
    from partpicker.suggest.reduce import streamed_catalog

    request = Request(gpus=gpus, as_of=as_of, stale_days=DEFAULT_STALE_DAYS)
    catalog = streamed_catalog([path], load_rules(), request)
    if catalog is None:
        raise SystemExit(f"{path}: not read streaming (a problem in the catalog?)")
    return catalog


def _describe(solution: Any) -> str:
    status = getattr(solution, "status", None)
    cost = getattr(solution, "cheapest_usd", None)
    if status is None:
        return type(solution).__name__
    return f"{status} ${cost:,.0f}" if isinstance(cost, int | float) else str(status)


# ----------------------------------------------------------------------- the parent


def ensure_catalog(n: int, seed: int, jobs: int) -> tuple[Path, dict[str, Any]]:
    """The cached synthetic catalog of ``n`` parts, made (again) if missing or out of date."""
    import synth

    path = OUT / f"synth-{_label(n)}.jsonl" if seed == 1 else OUT / f"synth-{_label(n)}-seed{seed}.jsonl"
    meta_path = path.with_suffix(".meta.json")
    want = {"parts": n, "seed": seed, "fingerprint": synth.fingerprint()}
    if path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if {k: meta.get(k) for k in want} == want and meta.get("bytes") == path.stat().st_size:
            return path, {**meta, "cached": True}
    print(f"making {path.name} ({n:,} parts)...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    size = synth.write(path, n, seed, jobs=jobs)
    meta = {**want, "bytes": size, "gen_s": round(time.perf_counter() - start, 2)}
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return path, {**meta, "cached": False}


def run_child(path: Path, args: argparse.Namespace, as_of: dt.date) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--measure", str(path), "--gpus", str(args.gpus)]
    cmd += ["--as-of", as_of.isoformat(), "--mem-limit-gb", str(args.mem_limit_gb)]
    if args.no_solve:
        cmd.append("--no-solve")
    if not args.gc_freeze:
        cmd.append("--plain-gc")
    timeout = args.timeout
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s"}
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": f"exit {done.returncode}: {tail}"[:120]}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _fmt(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _growth(rows: list[dict[str, Any]], key: str) -> list[str]:
    out = ["-"]
    for prev, cur in itertools.pairwise(rows):
        a, b = prev.get(key), cur.get(key)
        if a and b:
            out.append(f"{(b / a) / (cur['n'] / prev['n']):.2f}")
        else:
            out.append("n/a")
    return out


def table(rows: list[dict[str, Any]]) -> str:
    head = [
        "parts",
        "file MB",
        "gen s",
        "load s",
        "load cpu s",
        "solve s",
        "base MB",
        "peak MB",
        "load growth",
        "solve growth",
        "solver result",
    ]
    body = []
    load_g, solve_g = _growth(rows, "load_s"), _growth(rows, "solve_s")
    for i, r in enumerate(rows):
        if "error" in r:
            body.append([f"{r['n']:,}", f"{r['bytes'] / 1e6:.1f}", _fmt(r.get("gen_s"), 1), *["-"] * 7, r["error"]])
            continue
        body.append(
            [
                f"{r['n']:,}",
                f"{r['bytes'] / 1e6:.1f}",
                _fmt(r.get("gen_s"), 1),
                _fmt(r["load_s"]),
                _fmt(r["load_cpu_s"]),
                _fmt(r["solve_s"], 3),
                f"{r['base_mb']:.0f}",
                f"{r['peak_mb']:.0f}",
                load_g[i],
                solve_g[i],
                r["result"],
            ]
        )
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body, strict=True)]
    lines = [
        "  ".join(
            str(c).rjust(w) if j < len(head) - 1 else str(c) for j, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in [head, *body]
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    sys.path.insert(0, str(HERE))
    import synth

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, DEFAULT_SIZES)),
        help="comma-separated part counts (1000, 10k, 1M); default 1k,10k,100k",
    )
    parser.add_argument("--with-1m", action="store_true", help="add a 1,000,000-part catalog")
    parser.add_argument("--gpus", type=int, default=4, help="GPUs the solver is asked for (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="fresh processes per size; best time, worst memory")
    parser.add_argument("--jobs", type=int, default=1, help="processes for generating catalogs")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds one measuring process may take")
    parser.add_argument("--no-solve", action="store_true", help="time loading only")
    parser.add_argument(
        "--plain-gc",
        dest="gc_freeze",
        action="store_false",
        help="load without freezing the catalog out of the GC (the commands freeze it)",
    )
    parser.add_argument(
        "--mem-limit-gb",
        type=float,
        default=_default_mem_limit_gb(),
        help="address-space limit of a measuring process (default: 75%% of this machine's memory)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--streamed", action="store_true", help=argparse.SUPPRESS)  # (with --measure)
    parser.add_argument("--as-of", type=dt.date.fromisoformat, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    as_of = args.as_of or dt.date.fromordinal(synth._profile(None).as_of)
    if args.measure is not None:  # the child: one size, one line of JSON
        figures = measure(
            args.measure, args.gpus, as_of, not args.no_solve, args.mem_limit_gb, args.gc_freeze, args.streamed
        )
        print(json.dumps(figures))
        return 0

    sizes = sorted(
        {synth._size(s) for s in args.sizes.split(",") if s.strip()} | ({1_000_000} if args.with_1m else set())
    )
    rows: list[dict[str, Any]] = []
    for n in sizes:
        path, meta = ensure_catalog(n, args.seed, args.jobs)
        runs = [run_child(path, args, as_of) for _ in range(max(1, args.repeat))]
        good = [r for r in runs if "error" not in r]
        row: dict[str, Any] = {"n": n, "file": str(path), **meta}
        if not good:
            row["error"] = runs[0]["error"]
        else:
            best = min(good, key=lambda r: r["load_s"])
            solves = [r["solve_s"] for r in good if r["solve_s"] is not None]
            row.update(best, solve_s=min(solves) if solves else None, peak_mb=max(r["peak_mb"] for r in good))
        rows.append(row)
        print(
            f"  {n:>9,} parts: "
            + (
                "error " + row["error"]
                if "error" in row
                else f"load {row['load_s']:.2f} s, solve {_fmt(row['solve_s'], 3)} s, peak {row['peak_mb']:.0f} MB"
            ),
            file=sys.stderr,
            flush=True,
        )
    print(
        f"synthetic catalogs, seed {args.seed}; solve: --gpus {args.gpus} as of {as_of}; "
        f"best of {max(1, args.repeat)} fresh process(es) per size; memory = peak RSS (ru_maxrss)"
        + ("; catalog gc.freeze()d after loading, as the commands do" if args.gc_freeze else "; plain GC")
    )
    print(table(rows))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"as_of": as_of.isoformat(), "gpus": args.gpus, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
