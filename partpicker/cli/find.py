"""`partpicker find QUERY`: search the catalog as a user would before writing a build."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from partpicker.cli.common import AsOfOpt, CatalogOpt, PartsOpt, guarded, load_catalog_once, parse_date
from partpicker.find import Filters, Found, find
from partpicker.find.formats import FIND_FORMATS
from partpicker.pricing import today

FindFormat = StrEnum("FindFormat", {name: name for name in FIND_FORMATS})  # type: ignore[misc]


def find_command(
    query: Annotated[str, typer.Argument(help="A part name as you would type it; '' lists every part.")] = "",
    category: Annotated[
        str | None, typer.Option("--category", "-c", help="cpu, motherboard, gpu, psu, ssd, case, ram or cooler.")
    ] = None,
    min_vram: Annotated[float | None, typer.Option(min=0, help="GPUs with at least this VRAM, GB.")] = None,
    min_cores: Annotated[int | None, typer.Option(min=1, help="CPUs with at least this many cores.")] = None,
    min_watts: Annotated[int | None, typer.Option(min=1, help="PSUs of at least this wattage.")] = None,
    min_capacity: Annotated[int | None, typer.Option(min=1, help="SSDs or RAM kits of at least this many GB.")] = None,
    socket: Annotated[str | None, typer.Option(help="CPUs, boards and coolers for this socket (e.g. sTR4).")] = None,
    form_factor: Annotated[
        str | None, typer.Option(help="Boards of, cases taking, SSDs or PSUs of this form factor.")
    ] = None,
    memory_type: Annotated[str | None, typer.Option(help="RAM kits, boards and CPUs of DDR4, DDR5...")] = None,
    max_price: Annotated[float | None, typer.Option(min=0, help="At most this many USD as of the date.")] = None,
    as_of: AsOfOpt = None,
    limit: Annotated[int, typer.Option(min=1, help="Show at most this many parts.")] = 20,
    format: Annotated[FindFormat, typer.Option("--format", "-f", help="Output format.")] = "text",  # type: ignore[assignment]
    catalog: CatalogOpt = None,
    parts: PartsOpt = None,
) -> None:
    """Search the catalog (and your parts) by name, specs and price; exit 1 if nothing fits."""
    day = parse_date(as_of, "--as-of") or today()
    filters = Filters(
        category=category,
        min_vram=min_vram,
        min_cores=min_cores,
        min_watts=min_watts,
        min_capacity_gb=min_capacity,
        socket=socket,
        form_factor=form_factor,
        memory_type=memory_type,
        max_price=max_price,
    )

    def run() -> Found:
        return find(load_catalog_once(catalog, parts), query, filters, day, limit)

    found = guarded(run)
    typer.echo(FIND_FORMATS[str(format)](found))
    if found.exit_code:
        raise typer.Exit(found.exit_code)


def register(app: typer.Typer) -> None:
    """Add the command to the app."""
    app.command("find")(find_command)
