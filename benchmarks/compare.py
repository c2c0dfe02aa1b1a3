"""partpicker against the cost of reading the catalog, in one interleaved run (issue 14).

    python benchmarks/compare.py                  # 10k and 100k parts, 3 rounds
    python benchmarks/compare.py --with-1m        # and 1M (run it once: it takes a while)
    python benchmarks/compare.py --sizes 100k --rounds 5 --json benchmarks/out/compare.json

For each size, each round runs, one after the other in fresh processes (so a busy machine
slows every contender alike):

- **floor**: read the JSON Lines file and ``json.loads`` every line (nothing kept);
- **end to end**: the real command, ``partpicker suggest --gpus N --as-of AS_OF --catalog
  FILE --format json``, wall clock from the parent and peak RSS from ``wait4``;
- **load / solve**: ``benchmarks/run.py --measure FILE --streamed``, which times loading as
  `suggest` does (``streamed_catalog``: reading and checking every line, keeping what the
  request can choose) and ``solve`` inside one process;
- **CP-SAT**: ``benchmarks/cpsat.py FILE`` (the `bench` extra: OR-Tools), the same problem as a
  CP-SAT model built from the same catalog and rule evaluations, end to end in its own process
  (load, build, solve); its optimum must equal partpicker's. A rule table of more class
  combinations than ``--max-combos`` is added lazily, per class of its pivot role (cpsat.py's
  docstring); a model that still needs too many rounds is shown as too big.

It prints medians, and the ratios the issue sets targets for: end to end / floor
(<= 1.5), peak MB at 1M (<= 500), growth (time ratio / size ratio; 1.0 is linear). The
answers of the command and of the in-process solve must agree (the same cheapest total),
else the run fails; so must CP-SAT's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run  # noqa: E402  (benchmarks/run.py: catalogs and the in-process measure)

FLOOR = "import json,sys\nwith open(sys.argv[1],'rb') as f:\n    for line in f: json.loads(line)\n"


def _peak_of(cmd: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak RSS MB (this child's own, from wait4) and stdout of one
    command."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(cmd[:4])}...: exit {code}: {err.decode()[-300:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.decode()


def _cpsat(path: Path, gpus: int, as_of: str, max_combos: int) -> dict[str, Any]:
    """CP-SAT end to end in its own process: wall, CPU, peak and its answer (or why none)."""
    cmd = [sys.executable, str(HERE / "cpsat.py"), str(path), "--gpus", str(gpus), "--as-of", as_of]
    wall, cpu, peak, out = _peak_of([*cmd, "--max-combos", str(max_combos)])
    found = json.loads(out.strip().splitlines()[-1])
    return {"cpsat_s": wall, "cpsat_cpu_s": cpu, "cpsat_mb": peak, "cpsat_usd": found.get("usd", found.get("error"))}


def one_round(path: Path, gpus: int, as_of: str, max_combos: int = 0) -> dict[str, Any]:
    floor, floor_cpu, floor_mb, _ = _peak_of([sys.executable, "-c", FLOOR, str(path)])
    cli = [sys.executable, "-m", "partpicker.cli", "suggest", "--gpus", str(gpus), "--as-of", as_of]
    cli += ["--min-storage", "0", "--catalog", str(path), "--format", "json"]  # as run.py's Request
    e2e, e2e_cpu, e2e_mb, out = _peak_of(cli)
    measure = [sys.executable, str(HERE / "run.py"), "--measure", str(path), "--gpus", str(gpus), "--as-of", as_of]
    measure.append("--streamed")  # loading as the command does
    _, _, _, inner = _peak_of(measure)
    figures = json.loads(inner.strip().splitlines()[-1])
    answer = json.loads(out)
    cpsat = _cpsat(path, gpus, as_of, max_combos) if max_combos else {}
    return {
        **cpsat,
        "floor_s": floor,
        "floor_cpu_s": floor_cpu,
        "floor_mb": floor_mb,
        "e2e_s": e2e,
        "e2e_cpu_s": e2e_cpu,
        "e2e_mb": e2e_mb,
        "load_s": figures["load_s"],
        "solve_s": figures["solve_s"],
        "cli_usd": answer.get("total_usd"),
        "inner_result": figures["result"],
    }


def _median(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def summary(n: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    answers = {r["cli_usd"] for r in rows}
    inner = {r["inner_result"] for r in rows}
    if len(answers) != 1 or len(inner) != 1:
        raise SystemExit(f"{n:,} parts: the answers differ between rounds: {answers} {inner}")
    usd = answers.pop()
    result = inner.pop()
    if usd is not None and f"${usd:,.0f}" not in result:
        raise SystemExit(f"{n:,} parts: the command says {usd}, the in-process solve {result}")
    cpsat = {r.get("cpsat_usd") for r in rows}
    if any(isinstance(c, float) and abs(c - (usd or 0)) > 0.005 for c in cpsat):
        raise SystemExit(f"{n:,} parts: CP-SAT says {cpsat}, partpicker {usd}")
    keys = ("floor_s", "floor_cpu_s", "floor_mb", "e2e_s", "e2e_cpu_s", "e2e_mb", "load_s", "solve_s")
    out: dict[str, Any] = {"n": n, "rounds": len(rows), "answer": result, **{k: _median(rows, k) for k in keys}}
    out["ratio"] = out["e2e_s"] / out["floor_s"]
    out["cpu_ratio"] = out["e2e_cpu_s"] / out["floor_cpu_s"]
    if rows[0].get("cpsat_cpu_s") is not None:
        for key in ("cpsat_s", "cpsat_cpu_s", "cpsat_mb"):
            out[key] = _median(rows, key)
        out["cpsat_answer"] = cpsat.pop()
        out["cpsat_ratio"] = out["cpsat_cpu_s"] / out["e2e_cpu_s"]
    return out


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| parts | parse floor s (cpu) | partpicker end to end s (cpu) | load / solve s | end to end / floor"
        " (cpu) | peak MB | growth (cpu) | answer | CP-SAT end to end s (cpu), peak MB | CP-SAT / partpicker (cpu) |"
    )
    lines = [head, "|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    prev: dict[str, Any] | None = None
    for r in rows:
        growth = "-" if prev is None else f"{(r['e2e_cpu_s'] / prev['e2e_cpu_s']) / (r['n'] / prev['n']):.2f}"
        lines.append(
            f"| {r['n']:,} | {r['floor_s']:.2f} ({r['floor_cpu_s']:.2f}) | {r['e2e_s']:.2f} ({r['e2e_cpu_s']:.2f}) "
            f"| {r['load_s']:.2f} / {r['solve_s']:.2f} | {r['ratio']:.2f}x ({r['cpu_ratio']:.2f}x) "
            f"| {r['e2e_mb']:.0f} | {growth} | {r['answer']} | {_cpsat_cells(r)} |"
        )
        prev = r
    return "\n".join(lines)


def _cpsat_cells(r: dict[str, Any]) -> str:
    if "cpsat_cpu_s" not in r:
        return "not run | -"
    if not isinstance(r["cpsat_answer"], float):
        return f"{r['cpsat_s']:.2f} ({r['cpsat_cpu_s']:.2f}), {r['cpsat_mb']:.0f}: {r['cpsat_answer']} | -"
    return f"{r['cpsat_s']:.2f} ({r['cpsat_cpu_s']:.2f}), {r['cpsat_mb']:.0f} | {r['cpsat_ratio']:.2f}x"


def main(argv: Sequence[str] | None = None) -> int:
    import synth

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10k,100k", help="comma-separated part counts (default 10k,100k)")
    parser.add_argument("--with-1m", action="store_true", help="add a 1,000,000-part catalog")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per size (medians are shown)")
    parser.add_argument("--gpus", type=int, default=4)
    parser.add_argument(
        "--jobs",
        type=int,
        help="processes partpicker reads a large catalog with (PARTPICKER_JOBS; default: one per CPU)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--max-combos",
        type=int,
        default=50_000,
        help="CP-SAT: a rule table of more class combinations is added lazily (cpsat.py; 0: no CP-SAT)",
    )
    args = parser.parse_args(argv)
    if args.jobs is not None:
        os.environ["PARTPICKER_JOBS"] = str(args.jobs)  # the command's and run.py's children read it
    import datetime as dt

    as_of = dt.date.fromordinal(synth._profile(None).as_of).isoformat()
    sizes = sorted({synth._size(s) for s in args.sizes.split(",") if s.strip()} | ({10**6} if args.with_1m else set()))
    results = []
    for n in sizes:
        path, _ = run.ensure_catalog(n, 1, 1)
        rows = []
        for i in range(args.rounds):
            rows.append(one_round(path, args.gpus, as_of, args.max_combos if _has_ortools() else 0))
            print(f"  {n:>9,} round {i + 1}: " + ", ".join(f"{k} {v}" for k, v in rows[-1].items()), file=sys.stderr)
        results.append(summary(n, rows))
    rounds = f"medians of {args.rounds} interleaved rounds"
    jobs = os.environ.get("PARTPICKER_JOBS", "one per CPU")
    print(
        f"suggest --gpus {args.gpus} --as-of {as_of}; {rounds}; {os.cpu_count()} CPUs; PARTPICKER_JOBS {jobs};"
        f" load {os.getloadavg()[0]:.1f}"
    )
    print(table(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


def _has_ortools() -> bool:
    import importlib.util

    return importlib.util.find_spec("ortools") is not None


if __name__ == "__main__":
    sys.exit(main())
