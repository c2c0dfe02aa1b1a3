"""`partpicker import pcpartpicker LIST.md`: a list from elsewhere into a build file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from partpicker.cli.common import CatalogOpt, PartsOpt, guarded, load_catalog_once
from partpicker.errors import ExitCode

app = typer.Typer(help="Read parts lists from elsewhere into build files.", no_args_is_help=True)


@app.command("pcpartpicker")
def import_pcpartpicker(
    list_file: Annotated[Path, typer.Argument(help="The Markdown export of a saved PCPartPicker list.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the build file here (default: print it).")
    ] = None,
    catalog: CatalogOpt = None,
    parts: PartsOpt = None,
) -> None:
    """Resolve each item of the list, take its prices as dated street prices, and write a
    build file; list what could not be placed (exit 1 if an item did not resolve)."""
    from partpicker.catalog.pcpartpicker import build_yaml, read_list
    from partpicker.cli.suggest import write_atomically

    imported = guarded(lambda: read_list(list_file, load_catalog_once(catalog, parts)))
    text = build_yaml(imported, list_file)
    if output is None:
        typer.echo(text, nl=False)
    else:
        guarded(lambda: write_atomically(output, text))
        typer.echo(f"wrote {output}: {len(imported.doc.get('parts', {}))} role(s) from {list_file}")
    for note in imported.notes:
        typer.echo(f"{list_file}:{note.line}: {note.type}: {note.item}: {note.reason}", err=True)
    if imported.price_note:
        typer.echo(f"{list_file}: {imported.price_note}", err=True)
    if imported.unresolved:
        typer.echo(
            f"{len(imported.unresolved)} item(s) kept by name did not resolve: edit them "
            "(`partpicker find NAME`), or add them with `--parts FILE`",
            err=True,
        )
        raise typer.Exit(ExitCode.FINDINGS)


def register(root: typer.Typer) -> None:
    """Add the command group to the app."""
    root.add_typer(app, name="import")
