"""Fail when a function in the package is more complex than the house allows.

The bar (issue 8, "small functions"): no function of cyclomatic complexity over 15 (radon's
measure, as `radon cc -s -n C partpicker` shows it). Prints each offender as
``path:line name complexity`` and exits 1 if there is one, else 0; `.ci/run` runs it.

    python tools/complexity.py [--max 15] [--allow PATH:NAME ...] [FOLDER ...]

``--allow`` names a known offender that is being split elsewhere (it is printed, not failed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parent.parent


def offenders(folders: list[Path], limit: int) -> list[tuple[str, str]]:
    """(``path:name``, ``path:line name (complexity)``) for every function or method over ``limit``."""
    out = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            for block in cc_visit(path.read_text(encoding="utf-8")):
                if block.complexity > limit:
                    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                    out.append(
                        (f"{where}:{block.fullname}", f"{where}:{block.lineno} {block.fullname} ({block.complexity})")
                    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=15, help="the highest complexity allowed (default 15)")
    parser.add_argument("--allow", action="append", default=[], metavar="PATH:NAME", help="a known offender")
    parser.add_argument("folders", nargs="*", type=Path, default=[ROOT / "partpicker"])
    args = parser.parse_args(argv)
    failed = 0
    for key, line in offenders(args.folders, args.max):
        allowed = key in args.allow
        failed += not allowed
        print(line + (" (allowed for now)" if allowed else ""))
    if failed:
        print(f"{failed} function(s) over complexity {args.max}: split them (radon cc -s partpicker)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
