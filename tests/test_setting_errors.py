"""Errors below partpicker/cli/ name the setting in words, never a flag; the CLI shows the flag
(issue 8). And advice the core gives (a date to ask as of) reaches the user with its flag."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from partpicker.catalog import load_catalog
from partpicker.cli import app
from partpicker.errors import SettingError
from partpicker.rules.rulebook import load_rules
from partpicker.suggest.answer import solve
from partpicker.suggest.offer import Request

from .conftest import DATA

runner = CliRunner()
WORLD = DATA / "suggest" / "001_article_world" / "catalog"


@pytest.mark.parametrize(
    ("request_args", "key", "words", "flag_text"),
    [
        ({"require": {"cpu": "Nonesuch 9000"}}, "require", "required part cpu=Nonesuch 9000", "--require cpu=Nonesuch"),
        ({"require": {"gpuu": "RTX 3090"}}, "require", "required part gpuu=...: unknown role", "--require gpuu"),
        ({"gpu": "Voodoo 5 6000"}, "gpu", "GPU model Voodoo 5 6000", "--gpu Voodoo 5 6000"),
        ({"exclude": ("nonesuch-part",)}, "exclude", "excluded part nonesuch-part", "--exclude nonesuch-part"),
        ({"gpus": 2, "start_gpus": 3}, "start_gpus", "the GPUs to start with (3)", "--start-gpus 3"),
    ],
)
def test_suggest_core_names_the_setting_and_the_cli_the_flag(
    request_args: dict[str, object], key: str, words: str, flag_text: str
) -> None:
    catalog = load_catalog([WORLD])
    with pytest.raises(SettingError) as exc:
        solve(catalog, load_rules(), Request(**{"gpus": 4, **request_args}))  # type: ignore[arg-type]
    assert exc.value.setting == key
    assert words in exc.value.what and "--" not in exc.value.what
    assert exc.value.with_flag(f"--{key.replace('_', '-')}").what.startswith(flag_text)


def test_stale_prices_advise_a_date_with_its_flag() -> None:
    args = ["suggest", "--catalog", str(WORLD), "--stale-days", "30", "--as-of", "2026-12-01"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    newest = max(p.date for part in load_catalog([WORLD]).parts.values() for p in part.prices)
    assert f"the newest price of one is dated {newest}: ask as of that day" in result.stdout
    assert f"try --as-of {newest}, or a larger --stale-days" in result.stdout
    # and how wide a window that day needs, when the other roles' newest prices are older still
    world = load_catalog([WORLD])
    by_role = {c: [p.date for part in parts for p in part.prices] for c, parts in world.by_category.items()}
    oldest_newest = min(max(dates) for dates in by_role.values() if dates)  # each role's newest, the oldest of them
    span = (newest - oldest_newest).days
    assert (f"a window of at least {span} days offers every one of them" in result.stdout) == (span > 30)
    doc = json.loads(runner.invoke(app, [*args, "-f", "json"]).stdout)
    assert doc["retry_as_of"] == newest.isoformat() and "--" not in doc["explanation"]
    # Following the advice gives a build.
    assert runner.invoke(app, ["suggest", "--catalog", str(WORLD), "--as-of", newest.isoformat()]).exit_code == 0


def _message_strings(call: ast.Call) -> list[str]:
    """The text of an error's message and hint (not ``flag_what``, which is the CLI's)."""
    nodes = list(call.args) + [k.value for k in call.keywords if k.arg in ("hint", "what")]
    out = []
    for node in nodes:
        out += [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return out


def test_no_core_module_message_names_a_flag() -> None:
    """In the modules this issue cleaned, no error message or hint names a flag."""
    root = Path(__file__).resolve().parent.parent / "partpicker"
    for rel in ["cost/model.py", "cost/rates.py", "suggest/offer.py", "suggest/search.py", "suggest/answer.py"]:
        tree = ast.parse((root / rel).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("InputError", "SettingError", "_bad"):
                for text in _message_strings(node):
                    assert not re.search(r"(^|\s)--[a-z]", text), f"{rel}:{node.lineno}: {text!r}"
