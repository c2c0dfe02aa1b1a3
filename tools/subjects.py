"""Fail when a commit subject is 72 characters or longer (issue 8: "commit subjects under 72").

    python tools/subjects.py [--since REV]

Checks the commits after REV (default: the one named in ``tools/subjects-since``, the last
commit before the check existed: older subjects are history, not rewritten). Prints each
offender as ``sha length subject`` and exits 1 if there is one; exits 0 (saying why) when the
checkout lacks REV, e.g. a shallow clone. `.ci/run` runs it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 72


def long_subjects(since: str) -> list[tuple[str, str]] | None:
    """(short sha, subject) of each commit after ``since`` whose subject is too long; None
    when ``since`` is not in this checkout."""
    known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{since}^{{commit}}"], capture_output=True)
    if known.returncode != 0:
        return None
    log = subprocess.run(
        ["git", "-C", str(ROOT), "log", "--format=%h%x00%s", f"{since}..HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = [line.split("\0", 1) for line in log.splitlines() if line]
    return [(sha, subject) for sha, subject in rows if len(subject) >= LIMIT]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--since", default=(ROOT / "tools" / "subjects-since").read_text().strip())
    args = parser.parse_args(argv)
    found = long_subjects(args.since)
    if found is None:
        print(f"subjects: {args.since} is not in this checkout (a shallow clone?); not checked")
        return 0
    for sha, subject in found:
        print(f"{sha} {len(subject)} {subject}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
