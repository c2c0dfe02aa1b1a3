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


def main() -> None:
    """The `partpicker` command: run, flush, and leave without tearing the heap down.

    A command keeps its catalog to the end (frozen out of the collector's sight, see
    ``common.load_catalog_once``); freeing a large catalog object by object at exit costs
    seconds (4.2 s for 1M parts in issue 14) and achieves nothing the OS does not do. So
    once the output is flushed, the process ends with ``os._exit`` and its exit code.
    """
    import os
    import sys

    try:
        app()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: nothing more can be said
        code = code or 1
    os._exit(code)


__all__ = ["app", "main"]
