"""`partpicker parts path` and `partpicker prices import FILE.csv`: your own parts and prices."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from partpicker.cli.common import CatalogOpt, PartsOpt, guarded, load_catalog_once
from partpicker.paths import user_parts_file, user_prices_file

parts_app = typer.Typer(help="Your own parts and prices, on top of the bundled catalog.", no_args_is_help=True)
prices_app = typer.Typer(help="Your own dated prices.", no_args_is_help=True)


@parts_app.command("path")
def parts_path() -> None:
    """Print where your parts file is read from (and the prices file `prices import` writes)."""
    typer.echo(str(user_parts_file()))
    typer.echo(str(user_prices_file()))


@prices_app.command("import")
def prices_import(
    csv_file: Annotated[Path, typer.Argument(help="CSV: id or name (category), usd, date, source, kind.")],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="The overlay to write (merged if it exists); default: your prices file."),
    ] = None,
    catalog: CatalogOpt = None,
    parts: PartsOpt = None,
) -> None:
    """Add dated prices from a CSV file to a price overlay that every command then reads."""
    from partpicker.catalog.prices_csv import merged_overlay, read_prices
    from partpicker.output import write_text

    target = output or user_prices_file()

    def run() -> tuple[int, int]:
        points = read_prices(csv_file, load_catalog_once(catalog, parts))
        text, added = merged_overlay(target, points)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text(target, text, "--output")
        return len(points), added

    count, added = guarded(run)
    held = f" ({count - added} of them already there)" if added < count else ""
    typer.echo(f"{added} new price(s) of {count} from {csv_file} written to {target}{held}")


def register(app: typer.Typer) -> None:
    """Add the command groups to the app."""
    app.add_typer(parts_app, name="parts")
    app.add_typer(prices_app, name="prices")
