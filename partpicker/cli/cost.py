"""`partpicker cost BUILD`: what the build costs against renting cloud GPUs (docs/cost.md)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Protocol

import typer

from partpicker.build import Build, load_build
from partpicker.cli.common import (
    SETTING_FLAGS,
    AllowBrokenOpt,
    AsOfOpt,
    CatalogOpt,
    OutputOpt,
    PartsOpt,
    check_output,
    emit,
    fail_input,
    guarded,
    load_catalog_once,
    parse_date,
)
from partpicker.cost import plot as cost_plot
from partpicker.cost.formats import COST_FORMATS
from partpicker.cost.formats import json as cost_json
from partpicker.cost.formats.text import money, savings_text
from partpicker.cost.model import Assumptions, CostResult, Machine, compare, machine_from_build, parse_burst
from partpicker.cost.rates import CloudRate, choose_rate, given
from partpicker.errors import InputError
from partpicker.pricing import today

CostFormat = Enum("CostFormat", {name: name for name in COST_FORMATS}, type=str)  # type: ignore[misc]
D = Assumptions()

FLAGS = SETTING_FLAGS
"""The flags of `cost` (every command spells a setting's flag the same way)."""

HINTS = {
    "prices": "give them with --price {arg}=USD (repeatable), price the build at another date with --as-of, "
    "or give the whole build's price with --purchase-usd USD",
    "gpu_price": "give the price of one GPU with --gpu-price USD, or price it at another date with --as-of",
    "draw_kw": "give the machine's draw at the wall with --draw-kw (the article: 1 kW for 1 GPU, 2 kW for 4)",
    "gpus": "--gpus is the machine's total GPUs; give --gpus N with --gpu-price and --draw-kw for a build without one",
    "purchase_usd": "--purchase-usd prices the whole build; --price ROLE=USD one part",
}
"""Hints that name the flags, for the settings whose core hint says them in words."""


def parse_prices(values: list[str]) -> dict[str, float]:
    """``ROLE=USD`` options into a mapping, or exit 2 naming the bad one."""
    out: dict[str, float] = {}
    for value in values:
        role, sep, usd = value.partition("=")
        try:
            out[role.strip()] = float(usd)
        except ValueError:
            sep = ""
        if not sep or not role.strip():
            fail_input(InputError(f"--price {value!r} is not ROLE=USD", hint="e.g. --price motherboard=305"))
    return out


def cost(
    build_file: Annotated[Path, typer.Argument(help="The build YAML file.", show_default=False)],
    gpus: Annotated[
        int | None, typer.Option(help="GPUs in the machine (default: as installed); extras are bought.")
    ] = None,
    gpu_price: Annotated[
        float | None, typer.Option(help="USD per extra GPU (default: the GPU's price as of the date).")
    ] = None,
    purchase_usd: Annotated[
        float | None, typer.Option(help="USD for the build as written (instead of the catalog).")
    ] = None,
    price: Annotated[
        list[str] | None, typer.Option("--price", help="ROLE=USD: a part's unit price (repeatable).")
    ] = None,
    hours_per_day: Annotated[float, typer.Option(help="Hours a day of use.")] = D.hours_per_day,
    months: Annotated[int, typer.Option(help="Months in the table (the horizon).")] = D.months,
    utilisation: Annotated[
        float, typer.Option("--utilisation", "--utilization", help="Fraction of rated CPU/GPU power drawn in use.")
    ] = 1.0,
    draw_kw: Annotated[float | None, typer.Option(help="Draw at the wall in kW (default: the estimate).")] = None,
    kwh_price: Annotated[float, typer.Option(help="Electricity, USD per kWh.")] = D.kwh_usd,
    depreciation_months: Annotated[int, typer.Option(help="Straight-line depreciation to $0 over this.")] = (
        D.depreciation_months
    ),
    cloud_gpu: Annotated[
        str | None,
        typer.Option(
            help="Cloud GPU class to compare with: V100, A100-40GB, A100-80GB, H100, L40S (default: by VRAM)."
        ),
    ] = None,
    cloud_rate: Annotated[
        float | None, typer.Option(help="On-demand USD per GPU-hour (default: the class's dated rate).")
    ] = None,
    reserved_1yr: Annotated[float, typer.Option("--reserved-1yr", help="1-yr reserved, fraction of on-demand.")] = (
        D.reserved_1yr
    ),
    reserved_3yr: Annotated[float, typer.Option("--reserved-3yr", help="3-yr reserved, fraction of on-demand.")] = (
        D.reserved_3yr
    ),
    storage_rate: Annotated[float, typer.Option(help="Cloud storage, USD per GB-month.")] = D.storage_rate,
    storage_gb: Annotated[float | None, typer.Option(help="GB kept in the cloud (default: the build's SSDs).")] = None,
    burst: Annotated[str | None, typer.Option(help="Peaks, e.g. '100x for 1 week every 6 months'.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write the cumulative curves to a .png or .svg file.")] = None,
    format: Annotated[CostFormat, typer.Option("--format", "-f", help="Output format.")] = "text",  # type: ignore[assignment]
    catalog: CatalogOpt = None,
    parts: PartsOpt = None,
    as_of: AsOfOpt = None,
    allow_broken_catalog: AllowBrokenOpt = False,
    output: OutputOpt = None,
) -> None:
    """Compare owning the build with renting cloud GPUs: per month, cumulative, break-even."""
    day = parse_date(as_of, "--as-of")
    check_output(output)
    prices = parse_prices(price or [])

    def run() -> CostResult:
        assumptions = Assumptions(
            hours_per_day=hours_per_day,
            months=months,
            kwh_usd=kwh_price,
            depreciation_months=depreciation_months,
            reserved_1yr=reserved_1yr,
            reserved_3yr=reserved_3yr,
            storage_rate=storage_rate,
        )
        peaks = parse_burst(burst) if burst is not None else None
        if plot is not None:
            cost_plot.check_target(plot)
        build = load_build(build_file, load_catalog_once(catalog, parts, allow_broken_catalog))
        machine = machine_from_build(
            build,
            as_of=day,
            gpus=gpus,
            gpu_price=gpu_price,
            prices=prices,
            purchase_usd=purchase_usd,
            draw_kw=draw_kw,
            utilisation=utilisation,
            storage_gb=storage_gb,
        )
        rate = cloud_rate_for(machine, build, cloud_gpu, cloud_rate)
        result = compare(machine, replace(assumptions, cloud_rate=rate.usd_per_gpu_hour, cloud=rate), peaks)
        if plot is not None:
            cost_plot.write_plot(result, plot)
        return result

    result = guarded(run, HINTS)
    emit(COST_FORMATS[str(getattr(format, "value", format))](result), output)


def cloud_rate_for(machine: Machine, build: Build, gpu_class: str | None, usd: float | None) -> CloudRate:
    """The rate given (``--cloud-rate``), else the dated rate of the class asked for or that the
    build's GPU calls for on the machine's day (docs/cost.md, "Which cloud GPU")."""
    if usd is not None:
        return given(usd, gpu_class)
    day = machine.as_of or today()
    return choose_rate(day, vram_gb=build.gpu.vram_gb if build.gpu else None, gpu_class=gpu_class)


class _Choice(Protocol):
    @property
    def build(self) -> Build: ...
    @property
    def now_usd(self) -> float: ...


class _Solution(Protocol):
    @property
    def choices(self) -> Sequence[_Choice]: ...
    @property
    def as_of(self) -> dt.date: ...


def for_suggestion(
    solution: _Solution, *, as_json: bool = False, cloud_gpu: str | None = None, cloud_rate: float | None = None
) -> Any:
    """`suggest --cost`: the best suggestion as bought, and at full scale when that has more GPUs.

    The price is the suggestion's own (``now_usd``), the draw the estimate from its parts.
    Text, or with ``as_json`` one JSON-ready object (``now``, ``full_scale``) for `suggest`'s
    one JSON document.
    """
    choice = solution.choices[0]
    build = choice.build
    machine = machine_from_build(build, as_of=solution.as_of, purchase_usd=choice.now_usd)
    rate = cloud_rate_for(machine, build, cloud_gpu, cloud_rate)
    assumptions = replace(Assumptions(), cloud_rate=rate.usd_per_gpu_hour, cloud=rate)
    now = compare(machine, assumptions)
    full = None
    if build.target_gpus > build.gpu_count and build.gpu is not None:
        full_machine = machine_from_build(
            build, as_of=solution.as_of, purchase_usd=choice.now_usd, gpus=build.target_gpus
        )
        full = compare(full_machine, assumptions)
    if as_json:
        return {"now": cost_json.to_dict(now), "full_scale": cost_json.to_dict(full) if full else None}
    out = [savings_text(now)]
    if full is not None:
        out.append(f"At full scale ({full.machine.gpus} GPUs, {money(full.machine.purchase_usd)}):")
        out.append(savings_text(full))
    return "\n".join(out)


def register(app: typer.Typer) -> None:
    """Add `cost` to the app."""
    app.command()(cost)
