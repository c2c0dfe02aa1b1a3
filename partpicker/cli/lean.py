"""`partpicker validate BUILD [OPTIONS]` without typer (issue 14: ``import typer`` and the click
command it builds are a third of the 0.3 s a warm `validate` may take).

:func:`validate_options` reads the everyday forms of the command -- the build file and the
options ``--format/-f``, ``--strict``, ``--catalog``, ``--parts``, ``--as-of``,
``--stale-days``, ``--allow-broken-catalog``, ``--output/-o``, ``--verified-only`` and
``--power-limit``, as ``--name value`` or ``--name=value``, before or after the file; with
the top-level ``--debug`` and ``--no-cache`` before ``validate`` -- and declines everything
else (``--help``, ``--circuit``, ``--no-strict``, a value typer would refuse, a second file,
``--``, bundled short options, shell completion...), which then goes through typer as before,
so every usage error keeps typer's own message. What it accepts, it reads as typer does
(``tests/test_cli_lean.py`` runs both on the same command lines and compares the output and
exit code); the command itself is the one function both call,
:func:`partpicker.cli.validate.execute`.
"""

from __future__ import annotations

import os
from typing import Any

FLAGS = {"--strict": "strict", "--allow-broken-catalog": "allow_broken_catalog", "--verified-only": "verified_only"}
"""The flags read, by name, and the option each sets."""

VALUED = {
    "--format": "format",
    "-f": "format",
    "--catalog": "catalog",
    "--parts": "parts",
    "--as-of": "as_of",
    "--stale-days": "stale_days",
    "--output": "output",
    "-o": "output",
    "--power-limit": "power_limit",
}
"""The options read that take a value, and the option each sets (``catalog`` and ``parts``
repeat; for the others the last one given wins, as in click)."""

RANGES = {"stale_days": (1, 36_500), "power_limit": (1, 2000)}
"""The whole-number options and their bounds (``typer.Option(min=..., max=...)``); tests hold
them equal to typer's."""

ROOT_FLAGS = {"--debug": "debug", "--no-cache": "no_cache"}


def split_root(args: list[str]) -> tuple[dict[str, bool], list[str]]:
    """The top-level flags before the command, and the rest of the command line."""
    flags = dict.fromkeys(ROOT_FLAGS.values(), False)
    at = 0
    while at < len(args) and args[at] in ROOT_FLAGS:
        flags[ROOT_FLAGS[args[at]]] = True
        at += 1
    return flags, args[at:]


def validate_options(args: list[str]) -> dict[str, Any] | None:
    """The options of ``validate ARGS`` (what follows the command name) as the keyword arguments
    of :class:`partpicker.cli.validate.Options`, or None if typer should read them."""
    from pathlib import Path

    found: dict[str, Any] = {}
    files: list[str] = []
    at = 0
    while at < len(args):
        token = args[at]
        at += 1
        name, eq, attached = token.partition("=") if token.startswith("--") else (token, "", "")
        if name in FLAGS and not eq:
            found[FLAGS[name]] = True
        elif name in VALUED:
            if eq:
                value = attached
            elif at < len(args):
                value, at = args[at], at + 1
            else:
                return None
            read = _value(VALUED[name], value)
            if read is None:
                return None
            if VALUED[name] in ("catalog", "parts"):
                found.setdefault(VALUED[name], []).append(read)
            else:
                found[VALUED[name]] = read
        elif token and not token.startswith("-"):
            files.append(token)
        else:
            return None
    if len(files) != 1:
        return None
    return {"build_file": Path(files[0]), **found}


def _value(option: str, value: str) -> Any:
    """An option's value as typer makes it, or None where typer might read it otherwise or
    refuse it (then typer reads the whole command line and says what is wrong)."""
    from pathlib import Path

    if not value or value.startswith("-"):
        return None
    if option == "format":
        from partpicker.validate.formats import REPORTER_BY_NAME

        return value if value in REPORTER_BY_NAME else None
    if option in RANGES:
        low, high = RANGES[option]
        if not value.isascii() or not value.isdigit() or not low <= int(value) <= high:
            return None
        return int(value)
    if option == "as_of":
        return value  # read by the command itself, with its own message
    return Path(value)


def run_validate(args: list[str]) -> int | None:
    """Run `partpicker ARGS` if it is a `validate` this module reads; its exit code, or None
    (nothing done: typer reads the command line)."""
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):  # click's completion
        return None
    flags, rest = split_root(args)
    if not rest or rest[0] != "validate":
        return None
    options = validate_options(rest[1:])
    if options is None:
        return None
    from partpicker import cache

    if flags["no_cache"]:
        cache.disable()
    try:
        return _guarded(options, debug=flags["debug"])
    finally:
        cache.disable(False)


def _guarded(options: dict[str, Any], *, debug: bool) -> int:
    """The command, with what the typer app does around it: an unexpected exception is an
    internal error (exit 70), a closed pipe exit 141, Ctrl-C exit 130."""
    import gc

    from partpicker.cli.plain import internal_error, stdout_to_devnull
    from partpicker.errors import ExitCode

    # No collection while the modules and the catalog load: they make hundreds of thousands of
    # objects and no garbage, and the collector's passes over them are 3% of the run (the
    # catalog is then frozen out of its sight, cli/plain.py: load_catalog_once).
    enabled = gc.isenabled()
    gc.disable()
    try:
        from partpicker.cli import validate

        return validate.execute(validate.Options(**options))
    except BrokenPipeError:
        stdout_to_devnull()
        return ExitCode.PIPE_CLOSED
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        internal_error(exc, debug=debug or bool(os.environ.get("PARTPICKER_DEBUG")))
    finally:
        if enabled:
            gc.enable()
