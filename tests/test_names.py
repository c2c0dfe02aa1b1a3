"""The name resolver (partpicker/catalog/names.py): the corpus of names as people type them, the
normalisation rules one by one, and the variant words that are never dropped."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
import yaml

from partpicker.catalog import Catalog, names
from partpicker.models import Part

from .conftest import DATA

CORPUS = DATA / "names" / "corpus.yaml"
TARGET_RATE = 0.95


def _corpus() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["names"]
    return entries


def _resolve(catalog: Catalog, name: str, category: str) -> names.Resolution:
    return names.resolve(name, category, catalog.by_category[category])


def _id(result: names.Resolution) -> str | None:
    return result.part.id if isinstance(result, names.Resolved) else None


def _outcome(result: names.Resolution) -> str:
    if isinstance(result, names.Resolved):
        return "resolved"
    return "ambiguous" if isinstance(result, names.Ambiguous) else "not-found"


# --- the corpus ---------------------------------------------------------------------------


def test_corpus_shape(catalog: Catalog) -> None:
    entries = _corpus()
    meant = [e for e in entries if "id" in e]
    assert len(meant) >= 150
    assert len(entries) - len(meant) >= 15
    assert {e["category"] for e in meant} == {"cpu", "motherboard", "gpu", "psu", "ssd", "case", "ram", "cooler"}
    for e in entries:
        assert ("id" in e) != ("expect" in e), e
        if "id" in e:
            assert e["id"] in catalog.parts and catalog.parts[e["id"]].category == e["category"], e
        else:
            assert e["expect"] in ("not-found", "ambiguous"), e
    for example in (
        "RTX 3090 Founders Edition",
        "NVIDIA GTX 1080 Ti Founders Edition",
        "Fractal Define 7 XL",
        "Lian Li O11 Dynamic XL",
        "ASUS ROG Thor 1600W",
        "EVGA 1600W P2",
        "Corsair Vengeance LPX 64GB DDR4-3200",
    ):
        assert example in {e["name"] for e in meant}, example


def test_corpus_resolution_rate(catalog: Catalog, record_property: Any) -> None:
    """>= 95 % of the names resolve to the part meant, none to another part, and every
    name that must not resolve does not (with the outcome expected)."""
    tally: Counter[str] = Counter()
    problems: list[str] = []
    for e in _corpus():
        result = _resolve(catalog, e["name"], e["category"])
        got = _id(result)
        if "id" in e:
            tally["meant"] += 1
            if got == e["id"]:
                tally["right"] += 1
            elif got is not None:
                tally["wrong"] += 1
                problems.append(f"WRONG {e['name']!r} -> {got} (meant {e['id']})")
            else:
                problems.append(f"{_outcome(result)} {e['name']!r} (meant {e['id']})")
        else:
            tally["refused"] += 1
            if got is not None:
                tally["wrong"] += 1
            if _outcome(result) != e["expect"]:
                problems.append(f"{e['name']!r}: {_outcome(result)}, expected {e['expect']}")
            else:
                tally["refused_ok"] += 1
    rate = tally["right"] / tally["meant"]
    summary = (
        f"name corpus: {tally['right']}/{tally['meant']} resolved as meant ({rate:.1%}), {tally['wrong']} wrong, "
        f"{tally['refused_ok']}/{tally['refused']} refused as expected"
    )
    print(summary)
    record_property("name_resolution_rate", f"{rate:.4f}")
    record_property("name_resolution_wrong", tally["wrong"])
    assert tally["wrong"] == 0, "\n".join([summary, *problems])
    assert rate >= TARGET_RATE, "\n".join([summary, *problems])
    assert tally["refused_ok"] == tally["refused"], "\n".join([summary, *problems])


# --- every catalog part by its own names --------------------------------------------------


def test_every_part_resolves_by_id_name_and_brand_name(catalog: Catalog) -> None:
    for part in catalog:
        for name in (part.id, part.name, f"{part.brand} {part.name}".casefold()):
            assert _id(_resolve(catalog, name, part.category)) == part.id, (name, part.id)


def test_every_alias_resolves_to_its_part(catalog: Catalog) -> None:
    for part in catalog:
        for alias in part.aliases:
            assert _id(_resolve(catalog, alias, part.category)) == part.id, (alias, part.id)


def test_shortened_own_names_never_resolve_to_another_part(catalog: Catalog) -> None:
    """A part's name without its brand, part number or hyphens, in any case, is that part
    or a tie; never another part."""
    resolved = 0
    for part in catalog:
        bare = re.sub(r"\([^)]*\)", "", part.name).strip()
        if bare.casefold().startswith(part.brand.casefold()):
            bare = bare[len(part.brand) :].strip()
        for name in {bare, bare.casefold(), bare.replace("-", " ")}:
            got = _id(_resolve(catalog, name, part.category))
            assert got in (part.id, None), (name, got, part.id)
            resolved += got == part.id
    assert resolved >= 600


def _variant_words(part: Part) -> list[str]:
    variants = names.VARIANTS[part.category]
    spelled = names.normalise(part.name)  # ("atx3", read from "ATX 3.0", is tested by name below)
    return [w for w in names.read(part.name, part.category).words if w in variants and re.search(rf"\b{w}\b", spelled)]


def test_no_variant_word_can_be_dropped(catalog: Catalog) -> None:
    """A part's name less one of its variant words never resolves to that part."""
    checked = 0
    for part in catalog:
        for word in _variant_words(part):
            bare = re.sub(r"\([^)]*\)", " ", part.name)  # a part number may spell the word too
            shortened = re.sub(rf"\b{word}\b", " ", names.normalise(bare))
            got = _id(_resolve(catalog, shortened, part.category))
            assert got != part.id, (shortened, part.id)
            checked += 1
    assert checked >= 40


@pytest.mark.parametrize(
    ("name", "category", "never"),
    [
        ("RTX 3090", "gpu", "nvidia-geforce-rtx-3090-ti-founders-edition"),
        ("NVIDIA GeForce RTX 3090 Founders Edition", "gpu", "nvidia-geforce-rtx-3090-ti-founders-edition"),
        ("GTX 1080 Founders Edition", "gpu", "nvidia-geforce-gtx-1080-ti-founders-edition"),
        ("RTX 2080 FE", "gpu", "nvidia-geforce-rtx-2080-super-founders-edition"),
        ("RTX PRO 6000 Blackwell", "gpu", "nvidia-rtx-pro-6000-blackwell-max-q-workstation-edition"),
        ("RTX 6000", "gpu", "nvidia-rtx-pro-6000-blackwell-workstation-edition"),
        ("Define 7", "case", "fractal-design-define-7-xl"),
        ("Lian Li O11 Dynamic", "case", "lian-li-pc-o11-dynamic-xl"),
        ("Meshify 2", "case", "fractal-design-meshify-2-xl"),
        ("Enthoo Pro 2", "case", "phanteks-enthoo-pro-2-server-edition"),
        ("Samsung 970 EVO 1TB", "ssd", "samsung-970-evo-plus-1tb"),
        ("Crucial P5 1TB", "ssd", "crucial-p5-plus-1tb"),
        ("Samsung 860 EVO 1TB", "ssd", "samsung-860-evo-1tb-m2"),
        ("Threadripper 5975WX", "cpu", "amd-ryzen-threadripper-pro-5975wx"),
        ("Threadripper 2990", "cpu", "amd-ryzen-threadripper-2990wx"),
        ("Ryzen 9 5950", "cpu", "amd-ryzen-9-5950x"),
        ("i9-7980", "cpu", "intel-core-i9-7980xe"),
        ("ASUS ROG Zenith Extreme", "motherboard", "asus-rog-zenith-ii-extreme"),
        ("ASUS ROG Zenith Extreme", "motherboard", "asus-rog-zenith-extreme-alpha"),
        ("ASUS WS X299 SAGE", "motherboard", "asus-ws-x299-sage-10g"),
        ("be quiet! Dark Power 13 1600W", "psu", "be-quiet-dark-power-pro-13-1600w"),
        ("Seasonic Prime TX-1600", "psu", "seasonic-prime-tx-1600-atx-3-0"),
        ("Noctua NH-D15", "cooler", "noctua-nh-d15-g2"),
        ("Noctua NH-U14S", "cooler", "noctua-nh-u14s-tr4-sp3"),
        ("Enermax Liqtech TR4 360", "cooler", "enermax-liqtech-tr4-ii-360"),
    ],
)
def test_variant_word_is_identity(catalog: Catalog, name: str, category: str, never: str) -> None:
    assert _id(_resolve(catalog, name, category)) != never


def test_variant_never_dropped_even_when_alone(catalog: Catalog) -> None:
    """With only the Ti in the catalog, "RTX 3090" is not found; the Ti is offered."""
    ti = catalog.parts["nvidia-geforce-rtx-3090-ti-founders-edition"]
    result = names.resolve("RTX 3090", "gpu", [ti])
    assert isinstance(result, names.NotFound)
    assert result.closest == (ti,)
    xl = catalog.parts["fractal-design-define-7-xl"]
    assert isinstance(names.resolve("Fractal Define 7", "case", [xl]), names.NotFound)


# --- normalisation, rule by rule ----------------------------------------------------------


def _specs(text: str, category: str) -> dict[str, object]:
    return names.read(text, category).specs


def test_founders_edition_is_fe() -> None:
    assert names.read("RTX 3090 Founders Edition", "gpu") == names.read("RTX 3090 FE", "gpu")
    assert names.read("RTX 3090 Founder's Edition", "gpu") == names.read("rtx 3090 fe", "gpu")


@pytest.mark.parametrize("text", ["EVGA 1600W P2", "EVGA 1600 W P2", "EVGA 1600 P2", "EVGA 1600 Watt P2"])
def test_watts_spellings(text: str) -> None:
    reading = names.read(text, "psu")
    assert reading.specs["watts"] == 1600
    assert reading.words == ("evga", "p2")


@pytest.mark.parametrize(
    ("text", "gb"), [("1TB", 1000), ("1 TB", 1000), ("1000GB", 1000), ("2 TB", 2000), ("512GB", 512)]
)
def test_ssd_capacity_spellings(text: str, gb: int) -> None:
    assert _specs(f"Samsung 970 EVO {text}", "ssd")["capacity_gb"] == gb


@pytest.mark.parametrize("text", ["64GB (4x16GB)", "64 GB (4 x 16 GB)", "4 x 16GB", "4x16GB", "64GB 4x16GB"])
def test_ram_kit_spellings(text: str) -> None:
    specs = _specs(f"Corsair Vengeance LPX {text} DDR4-3200", "ram")
    assert specs["modules"] == 4 and specs["module_gb"] == 16
    assert specs["memory_type"] == "DDR4" and specs["speed_mts"] == 3200


@pytest.mark.parametrize("text", ["DDR4-3200", "DDR4 3200", "DDR4 3200MHz", "DDR4-3200 CL16", "3200 MT/s DDR4"])
def test_ram_speed_spellings(text: str) -> None:
    specs = _specs(f"G.Skill Trident Z 32GB {text}", "ram")
    assert specs["memory_type"] == "DDR4" and specs["speed_mts"] == 3200


def test_ram_kit_by_capacity_and_speed_when_unique(catalog: Catalog) -> None:
    got = _resolve(catalog, "Corsair Vengeance LPX 64GB DDR4-3200", "ram")
    assert _id(got) == "corsair-vengeance-lpx-64gb-2x32gb-ddr4-3200-cmk64gx4m2e3200c16"
    # two 64 GB LPX kits at different speeds: without the speed it is a tie
    assert isinstance(_resolve(catalog, "Corsair Vengeance LPX 64GB DDR4", "ram"), names.Ambiguous)


def test_ram_flags() -> None:
    rdimm = _specs("Samsung 32GB DDR4-2666 ECC RDIMM", "ram")
    assert rdimm["ecc"] is True and rdimm["registered"] is True
    assert _specs("Kingston 32GB DDR4-2666 ECC UDIMM", "ram")["registered"] is False
    assert _specs("Crucial 32GB DDR4-2666 non-ECC", "ram")["ecc"] is False
    assert _specs("Corsair 32GB DDR4 C16", "ram")["cl"] == 16


@pytest.mark.parametrize(
    ("a", "b", "category"),
    [
        ("NVIDIA GeForce RTX 4090 FE", "RTX 4090 FE", "gpu"),
        ("GeForce RTX 4090 FE", "RTX 4090 FE", "gpu"),
        ("AMD Radeon RX 7900 XTX", "RX 7900 XTX", "gpu"),
        ("AMD Ryzen Threadripper 1920X", "Threadripper 1920X", "cpu"),
        ("TR 1920X", "Threadripper 1920X", "cpu"),
        ("R9 5950X", "Ryzen 9 5950X", "cpu"),
        ("Ryzen 9 5950 X", "Ryzen 9 5950X", "cpu"),
        ("RTX PRO 6000 Max-Q", "RTX PRO 6000 MaxQ", "gpu"),
        ("Maximus XI Hero Wi-Fi", "Maximus XI Hero WiFi", "motherboard"),
        ("G.Skill Trident Z", "GSkill Trident Z", "ram"),
        ("be quiet! Dark Power 13", "bequiet Dark Power 13", "psu"),
        ("Lian-Li O11 Dynamic", "Lian Li O11 Dynamic", "case"),
        ("Enthoo Luxe Tempered Glass", "Enthoo Luxe TG", "case"),
        ("EVGA SuperNOVA 1600 P+", "EVGA SuperNOVA 1600 P Plus", "psu"),
    ],
)
def test_synonyms(a: str, b: str, category: str) -> None:
    assert names.identity_tokens(a, category) == names.identity_tokens(b, category)


@pytest.mark.parametrize(
    ("text", "category", "words", "specs"),
    [
        ("AMD Threadripper 1920X 3.5 GHz 12-Core Processor", "cpu", ["threadripper", "1920x"], {"cores": 12}),
        ("MSI X399 SLI PLUS ATX sTR4 Motherboard", "motherboard", ["msi", "x399", "sli", "plus"], {}),
        (
            "Corsair Vengeance LPX 64 GB (4 x 16 GB) DDR4-3000 CL15 Memory",
            "ram",
            ["corsair", "vengeance"],
            {"total_gb": 64, "modules": 4, "module_gb": 16, "memory_type": "DDR4", "speed_mts": 3000, "cl": 15},
        ),
        (
            "Samsung 970 Evo 1 TB M.2-2280 NVME Solid State Drive",
            "ssd",
            ["samsung", "970", "evo"],
            {"capacity_gb": 1000, "form": "m2", "interface": "nvme"},
        ),
        ("Fractal Design Define 7 XL ATX Full Tower Case", "case", ["fractal", "design", "define", "7", "xl"], {}),
        (
            "EVGA SuperNOVA P2 1600 W 80+ Platinum Certified Fully Modular ATX Power Supply",
            "psu",
            ["evga", "supernova", "p2"],
            {"watts": 1600, "efficiency": "80+ Platinum"},
        ),
        (
            "NVIDIA GeForce GTX 1080 Ti 11 GB Founders Edition Video Card",
            "gpu",
            ["gtx", "1080", "ti", "fe"],
            {"vram_gb": 11.0},
        ),
        ("Noctua NH-U14S TR4-SP3 82.52 CFM CPU Cooler", "cooler", ["noctua", "nh", "u14s", "tr4", "sp3"], {}),
    ],
)
def test_pcpartpicker_suffixes(text: str, category: str, words: list[str], specs: dict[str, object]) -> None:
    """Spec suffixes go; the numbers that identify a part stay, as specs."""
    assert list(names.identity_tokens(text, category)) == words
    reading = names.read(text, category)
    for key, value in specs.items():
        assert reading.specs[key] == value, key


def test_spec_must_agree(catalog: Catalog) -> None:
    assert isinstance(_resolve(catalog, "Samsung 970 EVO 500GB", "ssd"), names.NotFound)
    assert isinstance(_resolve(catalog, "ASUS ROG Thor 1200W", "psu"), names.NotFound)
    assert isinstance(_resolve(catalog, "Samsung 32GB DDR4-3200 ECC RDIMM", "ram"), names.NotFound)
    assert _id(_resolve(catalog, "Seasonic Prime 1300 Gold", "psu")) == "seasonic-prime-1300-gold"


def test_typo_in_a_long_word_only(catalog: Catalog) -> None:
    assert _id(_resolve(catalog, "Threadriper 1920X", "cpu")) == "amd-ryzen-threadripper-1920x"
    assert _id(_resolve(catalog, "Noctua NH-D15S", "cooler")) is None  # a model code is never "close enough"


def test_glued_and_split_codes(catalog: Catalog) -> None:
    assert _id(_resolve(catalog, "RTX3090 FE", "gpu")) == "nvidia-geforce-rtx-3090-founders-edition"
    assert _id(_resolve(catalog, "Corsair HX 1200", "psu")) == "corsair-hx1200"
    assert _id(_resolve(catalog, "Corsair AX 1200i", "psu")) == "corsair-ax1200i"
    assert _id(_resolve(catalog, "WD Black SN850 1TB", "ssd")) is None  # SN850 is not the SN850X


# --- messages -----------------------------------------------------------------------------


def test_ambiguous_lists_one_per_line_with_what_differs(catalog: Catalog) -> None:
    result = _resolve(catalog, "RTX 3090", "gpu")
    assert isinstance(result, names.Ambiguous)
    text = result.message()
    head, *lines = text.splitlines()
    assert head == "'RTX 3090' fits more than one gpu; did you mean:"
    assert len(lines) == len(result.candidates) >= 4
    assert all(line.startswith("  - ") for line in lines)
    assert "3090-ti" not in text
    turbo = next(line for line in lines if "gigabyte-geforce-rtx-3090-turbo-24g" in line)
    assert turbo.startswith("  - gigabyte-geforce-rtx-3090-turbo-24g  (GIGABYTE GeForce RTX 3090 TURBO 24G")
    assert "GIGABYTE, cooler blower, 2-slot" in turbo


def test_not_found_offers_the_closest(catalog: Catalog) -> None:
    result = _resolve(catalog, "RTX 3080 Ti", "gpu")
    assert isinstance(result, names.NotFound)
    text = result.message()
    assert text.startswith("no gpu in the catalog matches 'RTX 3080 Ti'; did you mean:\n  - ")
    assert "nvidia-geforce-rtx-3080-founders-edition" in text


def test_catalog_resolve_delegates(catalog: Catalog) -> None:
    assert catalog.resolve("EVGA 1600W P2", "psu").id == "evga-supernova-1600-p2"
    with pytest.raises(LookupError, match="fits more than one gpu"):
        catalog.resolve("RTX 4090", "gpu")
    assert catalog.closest("Define 7 XL", "case")[0].id == "fractal-design-define-7-xl"
