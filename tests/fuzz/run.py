"""The long fuzz run (issue 11): hostile build files, option sets, catalog corruptions and output
paths through the real commands, in process; prints one table of figures.

    python -m tests.fuzz.run                      # 5,000 build files, 500 option sets, every class
    python -m tests.fuzz.run --builds 200 --options 50 --save-crashes /tmp/crashes

Counted per input class: runs, clean runs, tracebacks (any exception but a clean exit, or exit
70), hangs over 20 s, the longest message line on stderr, and JSON output that does not parse
when JSON was asked for. Inputs that crash are written to --save-crashes, to be kept as fixtures
in tests/data/builds/invalid/fuzz-*.yaml.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from partpicker.catalog import load_catalog
from partpicker.models import CATEGORIES, spec_fields
from partpicker.rules.rulebook import load_rules
from tests.fuzz import strategies as fz
from tests.fuzz.corruptions import ARTICLE, CORRUPTIONS, OUTPUT_PATHS, PATCHES, check_catalog_class, check_outputs
from tests.fuzz.harness import HEADER, Tally, real_names, run_cli, write_text

SEED: list[int] = []
"""The --seed, if given: each fuzz class then draws the same inputs every run."""


def _settings(n: int) -> Callable[[Any], Any]:
    chosen = settings(
        max_examples=n,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )

    def apply(test: Any) -> Any:
        return seed(SEED[0])(chosen(test)) if SEED else chosen(test)

    return apply


def fuzz_builds(n: int, work: Path, crashes: Path | None) -> Tally:
    """``n`` build files: half generated from the schema, half real files with snippets spliced in."""
    tally = Tally("build files (generated + mutated examples)")
    names = real_names(load_catalog())
    params = {rid: list(spec.params) for rid, spec in load_rules().items()}
    bases = [p.read_text(encoding="utf-8") for p in fz.EXAMPLES]
    text = st.one_of(fz.build_docs(names, params).map(fz.dump), fz.mutated_yaml(bases))
    fmt = st.sampled_from(["text", "json", "github", "sarif"])

    @_settings(n)
    @given(text=text, fmt=fmt)
    def one(text: str, fmt: str) -> None:
        path = write_text(work / "build.yaml", text)
        outcome = tally.add(run_cli(["validate", str(path), "--format", fmt]))
        if not outcome.clean and crashes is not None:
            shutil.copy(path, crashes / f"fuzz-{tally.tried:05d}.yaml")

    one()
    return tally


def fuzz_options(n: int) -> Tally:
    """``n`` command lines with hostile option values."""
    tally = Tally("option sets (suggest, validate, cost, catalog)")

    @_settings(n)
    @given(args=fz.option_sets())
    def one(args: list[str]) -> None:
        outcome = tally.add(run_cli(args))
        if not outcome.clean:
            print("  not clean:", outcome, file=sys.stderr)

    one()
    return tally


def fuzz_entries(n: int, work: Path) -> Tally:
    """``n`` catalog files: a real part with fields set to hostile values, or junk."""
    tally = Tally("catalog entries (hypothesis)")
    catalog = load_catalog()
    fields = {name: list(spec_fields(cls)) for name, cls in CATEGORIES.items()}
    seeds = {
        c: [p.model_dump(mode="json", exclude_defaults=True) for p in ps[:3]] for c, ps in catalog.by_category.items()
    }

    @_settings(n)
    @given(doc=fz.catalog_entries(fields, seeds), fmt=st.sampled_from(["text", "json"]))
    def one(doc: object, fmt: str) -> None:
        path = write_text(work / "part.yaml", fz.dump(doc))
        args = (
            ["catalog", "check", str(path), "--format", fmt]
            if fmt == "json"
            else ["validate", ARTICLE, "--catalog", str(path)]
        )
        outcome = tally.add(run_cli(args))
        if not outcome.clean:
            print("  not clean:", outcome, file=sys.stderr)

    one()
    return tally


Checker = Callable[[str, Path, list[int | None]], list[str]]


def run_classes(name: str, classes: dict[str, Callable[[Path], list[list[str]]]], work: Path, check: Checker) -> Tally:
    """Each class makes its input under a fresh folder and names the commands to run on it;
    ``check`` says what came out wrong though it exited cleanly."""
    tally = Tally(name)
    for label, make in classes.items():
        folder = work / label
        folder.mkdir(parents=True)
        with PATCHES.get(label, contextlib.nullcontext)():
            outcomes = [tally.add(run_cli(args)) for args in make(folder)]
        for outcome in outcomes:
            if not outcome.clean:
                print(f"  {label}: not clean:", outcome, file=sys.stderr)
        wrong = check(label, folder, [o.exit_code for o in outcomes])
        tally.missed.extend(f"{label}: {w}" for w in wrong)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--builds", type=int, default=5000)
    parser.add_argument("--options", type=int, default=500)
    parser.add_argument("--entries", type=int, default=200, help="hypothesis catalog files")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (to split a run over time)")
    parser.add_argument("--skip-classes", action="store_true", help="no catalog or output-path classes")
    parser.add_argument("--save-crashes", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.seed is not None:
        SEED.append(args.seed)
    if args.save_crashes:
        args.save_crashes.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "builds").mkdir()
        tallies = [
            *([fuzz_builds(args.builds, work / "builds", args.save_crashes)] if args.builds else []),
            *([fuzz_options(args.options)] if args.options else []),
            *([fuzz_entries(args.entries, work / "builds")] if args.entries else []),
            *(
                []
                if args.skip_classes
                else [
                    run_classes(
                        f"catalog corruptions ({len(CORRUPTIONS)} classes)",
                        CORRUPTIONS,
                        work / "catalogs",
                        lambda label, _folder, codes: check_catalog_class(label, codes),
                    ),
                    run_classes(
                        f"output paths ({len(OUTPUT_PATHS)} classes)", OUTPUT_PATHS, work / "outputs", check_outputs
                    ),
                ]
            ),
        ]
    print("catalog corruption classes:", ", ".join(CORRUPTIONS))
    print("output path classes:", ", ".join(OUTPUT_PATHS))
    print(HEADER)
    for tally in tallies:
        print(tally.row())
    for tally in tallies:
        for outcome in tally.tracebacks[:10] + tally.hangs[:10]:
            print(f"{tally.name}: {outcome}")
        for wrong in tally.missed:
            print(f"{tally.name}: wrong outcome: {wrong}")
    print(f"{time.perf_counter() - start:.0f} s; seeds and crashers: see --save-crashes")
    bad = sum(len(t.tracebacks) + len(t.hangs) + t.bad_json + len(t.missed) for t in tallies)
    return 1 if bad or any(t.max_message >= 2000 for t in tallies) else 0


def _parse_once() -> None:
    """Parse each catalog and the rules once per run and build the typer command once, as the
    test suite does (tests/conftest.py): every command still checks the catalog it is given
    (the checks of an unchanged catalog are remembered), and parses every build file anew.
    No one's own parts file (`partpicker parts path`) takes part."""
    import os
    import tempfile

    import typer.testing

    from partpicker.catalog import checks as catalog_checks
    from partpicker.catalog import diff as catalog_diff
    from partpicker.catalog import load as catalog_load
    from partpicker.cli import cost as cost_cli
    from partpicker.cli import suggest as suggest_cli
    from partpicker.cli import validate as validate_cli
    from tests.conftest import check_catalog_once, command_once, read_catalog_once

    os.environ["PARTPICKER_CONFIG_DIR"] = tempfile.mkdtemp(prefix="partpicker-fuzz-config-")
    for module in (catalog_load, catalog_checks, catalog_diff):
        module.read_catalog = read_catalog_once  # type: ignore[assignment]
    catalog_checks.check_catalog = check_catalog_once  # type: ignore[assignment]
    typer.testing._get_command = command_once  # type: ignore[attr-defined]
    rules = functools.cache(load_rules)
    for cli in (validate_cli, suggest_cli, cost_cli):
        if hasattr(cli, "load_rules"):
            cli.load_rules = rules  # type: ignore[attr-defined]


if __name__ == "__main__":
    _parse_once()
    raise SystemExit(main())
