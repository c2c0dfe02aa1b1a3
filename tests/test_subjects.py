"""tools/subjects.py: commit subjects of 72 characters or more, after a baseline, fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .conftest import ROOT


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, env=env)
    return done.stdout.strip()


def test_a_long_subject_after_the_baseline_fails(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    (repo / "tools" / "subjects.py").write_text((ROOT / "tools" / "subjects.py").read_text())
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "x" * 90)  # before the baseline: history, not checked
    base = _git(repo, "rev-parse", "HEAD")
    (repo / "tools" / "subjects-since").write_text(base + "\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "y" * 71)  # 71: under 72, fine

    def check() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(repo / "tools" / "subjects.py")], capture_output=True, text=True)

    assert check().returncode == 0
    _git(repo, "commit", "-q", "--allow-empty", "-m", "z" * 72)
    result = check()
    assert result.returncode == 1 and " 72 " + "z" * 72 in result.stdout
    assert "x" * 90 not in result.stdout


def test_the_baseline_is_a_commit_id() -> None:
    text = (ROOT / "tools" / "subjects-since").read_text().strip()
    assert len(text) == 40 and all(c in "0123456789abcdef" for c in text)
