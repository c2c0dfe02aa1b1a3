"""The command line: one module per command group; each turns options into core calls and prints."""

from __future__ import annotations

import typer

from partpicker.cli.common import GuardedGroup

app = typer.Typer(
    cls=GuardedGroup,
    name="partpicker",
    help="Validate deep-learning workstation builds and pick the cheapest one that works.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

from partpicker.cli import catalog, cost, find, imports, parts, rules, suggest, validate, workload  # noqa: E402


@app.callback()
def _options(
    debug: bool = typer.Option(False, "--debug", help="On an internal error, show the traceback."),
) -> None:
    """Validate deep-learning workstation builds and pick the cheapest one that works."""


app.command()(validate.validate)
app.command()(rules.rules)
app.add_typer(catalog.app, name="catalog")
suggest.register(app)
cost.register(app)
find.register(app)
parts.register(app)
imports.register(app)
workload.register(app)

__all__ = ["app"]
