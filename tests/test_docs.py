"""The README's rules table is generated from rules/, and its commands are the CI's."""

from __future__ import annotations

from partpicker.rules.doc import markdown_table

from .conftest import ROOT


def test_readme_rules_table_is_generated_from_rules(rules) -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("<!-- rules-table:start -->\n")[1].split("<!-- rules-table:end -->")[0]
    assert block.strip() == markdown_table(list(rules.values())).strip(), (
        "regenerate with `partpicker rules --format markdown`"
    )


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    test_command = "pip install -e '.[dev]' && python -m pytest"
    assert test_command in readme
    assert test_command in (ROOT / ".ci" / "run").read_text()
