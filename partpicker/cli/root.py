"""The typer app: the root callback, and a command group that imports a command's module
only when that command is run (or its help asked for)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING, Any

import typer
import typer.main

if TYPE_CHECKING:
    from typer._click import Command, Context, HelpFormatter

from partpicker.cli import COMMANDS, HELP, OPTIONS, help_text, version_text
from partpicker.cli.common import GuardedGroup


def load_command(name: str) -> Command:
    """The click command of top-level command ``name``, from its module's ``register(app)``."""
    module = importlib.import_module(f"partpicker.cli.{COMMANDS[name].module}")
    scratch = typer.Typer()
    module.register(scratch)
    return typer.main.get_group(scratch).commands[name]


class _LazyCommands(MutableMapping[str, "Command"]):
    """The root group's commands: every name of :data:`COMMANDS`, each loaded on first access."""

    def __init__(self) -> None:
        self._loaded: dict[str, Command] = {}

    def __getitem__(self, name: str) -> Command:
        if name not in self._loaded:
            if name not in COMMANDS:
                raise KeyError(name)
            self._loaded[name] = load_command(name)
        return self._loaded[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        yield from COMMANDS
        yield from (n for n in self._loaded if n not in COMMANDS)

    def __len__(self) -> int:
        return len(set(COMMANDS) | set(self._loaded))


class LazyGroup(GuardedGroup):
    """The root group: lists :data:`COMMANDS` without importing them; its help is
    :func:`partpicker.cli.help_text`, the same text the lean path prints."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _LazyCommands()

    def list_commands(self, ctx: Context) -> list[str]:
        return list(self.commands)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        return self.commands.get(cmd_name)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        formatter.write(help_text())


def _version(value: bool) -> None:
    if value:
        typer.echo(version_text(), nl=False)
        raise typer.Exit(0)


app = typer.Typer(
    cls=LazyGroup,
    name="partpicker",
    help=HELP,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def _options(
    ctx: typer.Context,
    debug: bool = typer.Option(False, "--debug", help=OPTIONS["--debug"]),
    no_cache: bool = typer.Option(False, "--no-cache", help=OPTIONS["--no-cache"]),
    version: bool = typer.Option(
        False, "--version", is_eager=True, expose_value=False, callback=_version, help=OPTIONS["--version"]
    ),
) -> None:
    """Validate deep-learning workstation builds and pick the cheapest one that works."""
    if no_cache:
        from partpicker import cache

        cache.disable()
        ctx.call_on_close(lambda: cache.disable(False))  # one command's option (CliRunner runs many)
