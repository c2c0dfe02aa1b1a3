"""Cold start (issue 14): how long the everyday commands take as whole processes.

    python benchmarks/coldstart.py            # 7 interleaved rounds
    python benchmarks/coldstart.py -n 15 --json out.json
    python benchmarks/coldstart.py --ref /tmp/old   # also an older checkout, interleaved

``--ref DIR`` runs each partpicker command a second time with ``PYTHONPATH=DIR`` (e.g. ``git
archive OLD | tar -x -C DIR``: the same venv, an older partpicker; its own cache folder), in
the same rounds, and prints the ratio of the medians.

Each command runs as a fresh subprocess, round after round, the commands interleaved (so a
machine that slows down mid-run slows all of them alike); each row shows the minimum and
median wall seconds and CPU seconds (user + system, from the child's own accounting) and
the target. ``validate (cold cache)`` gets an empty cache folder every run (it parses the
bundled YAML and stores it), ``validate (warm cache)`` reuses one; ``validate --circuit``
goes through typer (the lean path of cli/lean.py leaves that option to it). The floors are
Python itself, ``import typer`` and importing pydantic as the part models do (what any
command that reads a catalog pays before its first line of work). Bytecode is written and
used as an installed package's is (``PYTHONDONTWRITEBYTECODE`` is dropped for the children:
with it set, every run compiles partpicker's sources again). On a shared machine quote the
medians, and the CPU column: wall time includes waiting for a core.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "examples" / "article-2018.yaml")
PYDANTIC = "from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError"


@dataclass
class Case:
    name: str
    args: list[str]
    target_s: float | None = None
    cold_cache: bool = False
    env: dict[str, str] = field(default_factory=dict)
    ref: bool = False


def partpicker() -> list[str]:
    """The installed `partpicker` script next to this Python, else ``python -m partpicker.cli``."""
    script = Path(sys.executable).with_name("partpicker")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "partpicker.cli"]


def cases() -> list[Case]:
    pp = partpicker()
    return [
        Case("python -c pass (floor)", [sys.executable, "-c", "pass"]),
        Case("python -c 'import typer' (floor)", [sys.executable, "-c", "import typer"]),
        Case("python -c 'import pydantic...' (floor)", [sys.executable, "-c", PYDANTIC]),
        Case("partpicker --help", [*pp, "--help"], 0.15),
        Case("partpicker --version", [*pp, "--version"]),
        Case("partpicker validate --help", [*pp, "validate", "--help"]),
        Case("validate article-2018 (cold cache)", [*pp, "validate", EXAMPLE], cold_cache=True),
        Case("validate article-2018 (warm cache)", [*pp, "validate", EXAMPLE], 0.3),
        Case("validate --circuit (warm, through typer)", [*pp, "validate", EXAMPLE, "--circuit", "us-20a"]),
        Case("suggest --gpus 4 --budget 3000 (warm)", [*pp, "suggest", "--gpus", "4", "--budget", "3000"]),
    ]


def with_ref(table: list[Case], ref: Path | None) -> list[Case]:
    """Each partpicker command followed by itself on the older checkout ``ref``."""
    if ref is None:
        return table
    out = []
    for case in table:
        out.append(case)
        if not case.name.startswith("python -c"):
            out.append(replace(case, name=f"{case.name} [ref]", target_s=None, env={"PYTHONPATH": str(ref)}, ref=True))
    return out


def cache_of(case: Case, tmp: Path) -> Path:
    """The case's cache folder: one per kind of run (the cache keeps one file per kind)."""
    return tmp / f"{'cold' if case.cold_cache else 'warm'}{'-ref' if case.ref else ''}"


def run_once(case: Case, cache_dir: Path) -> tuple[float, float, int]:
    """(wall s, cpu s, exit code) of one run."""
    env = {**os.environ, **case.env, "PARTPICKER_CACHE_DIR": str(cache_dir)}
    env.pop("PARTPICKER_NO_CACHE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if case.cold_cache:
        shutil.rmtree(cache_dir, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = _now()
    done = subprocess.run(case.args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = _now() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def _now() -> float:
    import time

    return time.perf_counter()


def measure(rounds: int, ref: Path | None = None) -> dict[str, dict[str, object]]:
    table = with_ref(cases(), ref)
    walls: dict[str, list[float]] = {c.name: [] for c in table}
    cpus: dict[str, list[float]] = {c.name: [] for c in table}
    codes: dict[str, set[int]] = {c.name: set() for c in table}
    with tempfile.TemporaryDirectory(prefix="partpicker-coldstart-") as tmp:
        for case in table:  # warm-up: fills the warm cache, loads the files into the page cache
            run_once(case, cache_of(case, Path(tmp)))
        for _ in range(rounds):
            for case in table:
                wall, cpu, code = run_once(case, cache_of(case, Path(tmp)))
                walls[case.name].append(wall)
                cpus[case.name].append(cpu)
                codes[case.name].add(code)
    return {
        c.name: {
            "target_s": c.target_s,
            "wall_min": min(walls[c.name]),
            "wall_median": statistics.median(walls[c.name]),
            "cpu_min": min(cpus[c.name]),
            "cpu_median": statistics.median(cpus[c.name]),
            "exit_codes": sorted(codes[c.name]),
        }
        for c in table
    }


def verdict(row: dict[str, object]) -> str:
    target = row["target_s"]
    if not isinstance(target, float):
        return ""
    wall, cpu = row["wall_median"], row["cpu_median"]
    assert isinstance(wall, float) and isinstance(cpu, float)
    return (
        f"<= {target:g} s: wall {'met' if wall <= target else 'NOT met'}, cpu {'met' if cpu <= target else 'NOT met'}"
    )


def note(name: str, results: dict[str, dict[str, object]]) -> str:
    """The target's verdict; for a ref row, this checkout's median CPU against the ref's."""
    if not name.endswith(" [ref]"):
        return verdict(results[name])
    now, then = results[name.removesuffix(" [ref]")]["cpu_median"], results[name]["cpu_median"]
    assert isinstance(now, float) and isinstance(then, float)
    return f"this checkout / ref: cpu {now / then:.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--rounds", type=int, default=7, help="counted rounds (default 7)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--ref", type=Path, help="an older checkout to run each command on too (PYTHONPATH)")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    results = measure(args.rounds, args.ref)
    print(f"{args.rounds} rounds, interleaved; load average at the end {os.getloadavg()[0]:.2f} (start {load:.2f})")
    print(f"{'command':<44} {'wall min':>8} {'wall med':>8} {'cpu min':>8} {'cpu med':>8}  exit  target")
    for name, row in results.items():
        codes = ",".join(str(c) for c in row["exit_codes"])  # type: ignore[attr-defined]
        print(
            f"{name:<44} {row['wall_min']:>8.3f} {row['wall_median']:>8.3f} "
            f"{row['cpu_min']:>8.3f} {row['cpu_median']:>8.3f}  {codes:<4}  {note(name, results)}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
