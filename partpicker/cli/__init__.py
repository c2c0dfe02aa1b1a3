"""The command line: one module per command group; each turns options into core calls and prints.

Starting fast (issue 14): this package imports nothing heavy. The typer app is made on first
use (:mod:`partpicker.cli.root`), and each command's module is imported only when that
command runs (:data:`COMMANDS` names them, with the one-line summary the top-level help
shows). ``partpicker``, ``partpicker --help`` and ``partpicker --version`` are answered here
without importing typer at all; ``tests/test_cli_lazy.py`` checks that this text lists
exactly the commands, options and summaries typer registers. The everyday forms of
``partpicker validate BUILD`` run without typer too (:mod:`partpicker.cli.lean`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import typer


class Entry(NamedTuple):
    """A top-level command: the module whose ``register(app)`` adds it, and its summary."""

    module: str
    summary: str


HELP = "Validate deep-learning workstation builds and pick the cheapest one that works."

COMMANDS: dict[str, Entry] = {
    "validate": Entry("validate", "Say whether a build works, rule by rule, with the numbers."),
    "rules": Entry("rules", "List every rule: id, severity, roles, explanation, source (or the constraint graph)."),
    "suggest": Entry(
        "suggest", "Propose the cheapest valid build that can scale to N GPUs (exact, over the whole catalog)."
    ),
    "cost": Entry("cost", "Compare owning the build with renting cloud GPUs: per month, cumulative, break-even."),
    "find": Entry("find", "Search the catalog (and your parts) by name, specs and price; exit 1 if nothing fits."),
    "models": Entry("workload", "List the models partpicker can size, with the config each comes from."),
    "fit": Entry(
        "workload", "Show a workload's memory on each card; with --gpu or --vram, whether it fits (exit 1 if not)."
    ),
    "catalog": Entry("catalog", "Check, list and compare catalogs."),
    "parts": Entry("parts", "Your own parts and prices, on top of the bundled catalog."),
    "prices": Entry("parts", "Your own dated prices."),
    "import": Entry("imports", "Read parts lists from elsewhere into build files."),
}
"""Every top-level command, in the order the help lists them."""

OPTIONS = {
    "--debug": "On an internal error, show the traceback.",
    "--no-cache": "Parse the bundled catalog and rules afresh: do not read or write the cache "
    "(also PARTPICKER_NO_CACHE=1; PARTPICKER_CACHE_DIR moves it).",
    "--version": "Show the version and exit.",
    "--help": "Show this message and exit.",
}
"""The top-level options (the root callback in :mod:`partpicker.cli.root` declares them)."""

WIDTH = 80


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def _table(rows: dict[str, str]) -> list[str]:
    indent = 2 + max(map(len, rows)) + 2
    out = []
    for name, text in rows.items():
        wrapped = _wrap(text, WIDTH - indent)
        out.append(f"  {name:<{indent - 4}}  {wrapped[0]}")
        out.extend(" " * indent + more for more in wrapped[1:])
    return out


def help_text() -> str:
    """The top-level help (what ``partpicker --help`` prints), ending in a newline."""
    lines = ["Usage: partpicker [OPTIONS] COMMAND [ARGS]...", "", *("  " + x for x in _wrap(HELP, WIDTH - 2))]
    lines += ["", "Options:", *_table(OPTIONS), "", "Commands:"]
    lines += _table({name: entry.summary for name, entry in COMMANDS.items()})
    lines += ["", "Run `partpicker COMMAND --help` for the options of a command."]
    return "\n".join(lines) + "\n"


def version_text() -> str:
    from partpicker import __version__

    return f"partpicker {__version__}\n"


def _lean(args: list[str]) -> int | None:
    """Answer the top-level help and version without typer; None if ``args`` ask for more."""
    import sys

    if args == ["--version"]:
        sys.stdout.write(version_text())
        return 0
    if args == ["--help"]:
        sys.stdout.write(help_text())
        return 0
    if not args:  # like any group with no command: the help, exit 2
        sys.stdout.write(help_text())
        return 2
    return None


def main() -> None:
    """The `partpicker` command: run, flush, and leave without tearing the heap down.

    A command keeps its catalog to the end (frozen out of the collector's sight, see
    ``common.load_catalog_once``); freeing a large catalog object by object at exit costs
    seconds (4.2 s for 1M parts in issue 14) and achieves nothing the OS does not do. So
    once the output is flushed, the process ends with ``os._exit`` and its exit code.
    """
    import os
    import sys

    # pydantic looks for plugins (observability hooks of other packages) in every installed
    # distribution's entry points when it builds its first validator: a tenth of a warm
    # `validate`, for hooks partpicker's own models have no use for (issue 14). A value the
    # user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        code = _lean(sys.argv[1:])
        if code is None:
            from partpicker.cli.lean import run_validate

            code = run_validate(sys.argv[1:])
        if code is None:
            from partpicker.cli.root import app as root_app

            root_app()
            code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away (`| head`): quietly, 128 + SIGPIPE
        from partpicker.errors import ExitCode

        code = ExitCode.PIPE_CLOSED
    except (OSError, ValueError):  # stdout closed some other way: nothing more can be said
        code = code or 1
    os._exit(code)


def __getattr__(name: str) -> typer.Typer:
    """``partpicker.cli.app``: the typer app, made on first use (tests drive it with CliRunner)."""
    if name == "app":
        from partpicker.cli.root import app as root_app

        return root_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["COMMANDS", "app", "main"]
