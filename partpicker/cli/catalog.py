"""`partpicker catalog check|diff|list|checks`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from partpicker.cli.common import CatalogOpt, emit, fail_input, guarded, load_catalog_once
from partpicker.errors import InputError

app = typer.Typer(help="Check, list and compare catalogs.", no_args_is_help=True)


class CheckFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"


@app.command("check")
def catalog_check(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Catalog files or folders; default: the bundled one.")
    ] = None,
    format: Annotated[CheckFormat, typer.Option("--format", "-f", help="Output format.")] = CheckFormat.text,
) -> None:
    """Load every catalog file and report every problem with file and line (exit 1 if any)."""
    from partpicker.catalog import catalog_files
    from partpicker.catalog.checks import check_catalog, exit_code
    from partpicker.catalog.formats import PROBLEM_REPORTER_BY_NAME

    files = guarded(lambda: catalog_files(paths))
    if not files:
        fail_input(InputError("no catalog files (*.yaml) found", hint="name a catalog file or folder"))
    catalog, problems = guarded(lambda: check_catalog(files))
    emit(PROBLEM_REPORTER_BY_NAME[format.value](problems, len(catalog), len(files)))
    if exit_code(problems):
        raise typer.Exit(exit_code(problems))


class DiffFormat(StrEnum):
    text = "text"
    markdown = "markdown"


@app.command("diff")
def catalog_diff(
    base: Annotated[str, typer.Argument(help="Base: a folder or a git revision.")],
    head: Annotated[str, typer.Argument(help="Head: a folder or a git revision.")],
    format: Annotated[DiffFormat, typer.Option("--format", "-f", help="Output format.")] = DiffFormat.text,
    repo: Annotated[Path, typer.Option(help="The git checkout revisions are read from.")] = Path("."),
    suggest: Annotated[bool, typer.Option(help="Also compare the answers to the standard suggest requests.")] = True,
) -> None:
    """Parts added, removed and changed, and which example builds change verdict."""
    from partpicker.catalog.diff import DIFF_FORMATS
    from partpicker.paths import examples_dir
    from partpicker.review import diff

    examples = sorted(examples_dir().glob("*.yaml"))
    result = guarded(lambda: diff(base, head, repo=repo, examples=examples, suggest=suggest))
    emit(DIFF_FORMATS[format.value](result))


class CoverageFormat(StrEnum):
    text = "text"
    json = "json"
    markdown = "markdown"


@app.command("coverage")
def catalog_coverage(
    format: Annotated[CoverageFormat, typer.Option("--format", "-f", help="Output format.")] = CoverageFormat.text,
    category: Annotated[str | None, typer.Option(help="Only this category (cpu, motherboard, ...).")] = None,
    gaps: Annotated[bool, typer.Option("--gaps", help="List the parts missing each field.")] = False,
    catalog: CatalogOpt = None,
) -> None:
    """Per category and decisive field (what the rules read, and prices): how many parts know
    it, by evidence kind; the HEDT / workstation / EPYC platforms first."""
    from partpicker.catalog.coverage import coverage, decisive_fields
    from partpicker.catalog.coverage_formats import COVERAGE_FORMATS
    from partpicker.models import CATEGORIES
    from partpicker.rules.rulebook import load_rules

    if category is not None and category not in CATEGORIES:
        fail_input(InputError(f"unknown category {category!r}", hint=f"use one of {', '.join(CATEGORIES)}"))
    cat = guarded(lambda: load_catalog_once(catalog))
    decisive = decisive_fields(r.reads for r in guarded(load_rules).values())
    typer.echo(COVERAGE_FORMATS[format.value](coverage(cat, decisive, category), gaps), nl=False)
    if format is not CoverageFormat.markdown:
        typer.echo("")


@app.command("checks")
def catalog_checks() -> None:
    """List the ids of the catalog checks."""
    from partpicker.catalog.checks import all_checks

    for check_id, summary in all_checks().items():
        emit(f"{check_id:<18} {summary}")


@app.command("list")
def catalog_list(
    category: Annotated[
        str | None, typer.Argument(help="cpu, motherboard, gpu, psu, ssd, case, ram or cooler.")
    ] = None,
    catalog: CatalogOpt = None,
) -> None:
    """List parts (id, name) of one category or all."""
    cat = guarded(lambda: load_catalog_once(catalog))
    if category is not None and category not in cat.by_category:
        fail_input(InputError(f"unknown category {category!r}", hint=f"use one of {', '.join(cat.by_category)}"))
    for name, parts in cat.by_category.items():
        if category in (None, name):
            for part in sorted(parts, key=lambda p: p.id):
                emit(f"{name:<12} {part.id:<55} {part.name}")
