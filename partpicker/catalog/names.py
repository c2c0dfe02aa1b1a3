"""Part names as people type them: normalise, tokenise, decide identity on tokens, then rank.

A name is read into *words* (identity tokens: maker, series, model numbers, variant words)
and *specs* (capacity, wattage, speed, VRAM...: numbers checked against the part's fields).
A part is a candidate for a query when

- every word of the query is one of the part's words (its brand, name and aliases), except
  the category's optional words ("GeForce", "Processor", "Fully Modular"...);
- every spec of the query agrees with the part's spec (an unknown spec does not disagree);
- every *variant word* of the part's name ("Ti", "Super", "XL", "II"...) is in the query.
  Variant words are never dropped: "RTX 3090" is never a 3090 Ti, "Define 7" never a
  Define 7 XL, whether or not the plain part is in the catalog. A part lacking only such a
  word is left out when a part without it explains the query, is never a tie when the word
  makes another chip or drive (HARD_VARIANTS), and is otherwise listed in a tie or as closest.

Among candidates, a part whose core name (no brand, part number or specs) is a strict
subset of another's is preferred ("Noctua NH-D15" is the NH-D15, not the NH-D15 G2). One
candidate left is the part; several are a real tie (ambiguous), listed with what tells them
apart. rapidfuzz only orders candidates and the "closest" parts; it never decides identity.
An id, or an exact name or alias (with or without the brand), wins before any of this.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from partpicker.parts import Case, Cooler, Cpu, Gpu, Motherboard, Part, Psu, Ram, Ssd

# Words that are part of a part's identity: a part whose name has one is a candidate only
# for a query that says it. Per category, because "Pro" is a variant of a CPU, an SSD or a
# PSU, but only a series prefix on a motherboard ("Pro WS"); "WiFi" is not a variant (a
# board with and without Wi-Fi has the same slots), nor "OC", "LPX" or "RGB".
VARIANTS: dict[str, frozenset[str]] = {
    "cpu": frozenset({"pro"}),
    "gpu": frozenset({"ti", "super", "xt", "xtx", "maxq", "pro", "liquid", "v2", "ultra"}),
    "motherboard": frozenset({"ii", "alpha", "10g", "max", "plus"}),
    "psu": frozenset({"pro", "atx3", "atx31"}),
    "ssd": frozenset({"pro", "plus", "evo", "m2"}),
    "case": frozenset({"xl", "mini", "air", "airflow", "flow", "dynamic", "server", "pro", "evo"}),
    "ram": frozenset({"pro"}),
    "cooler": frozenset({"g2", "tr4", "tr5", "dx", "4677", "i4", "ii"}),
}


# Variant words that make another chip or drive, not another board of it: a part with one
# the query lacks is never even a tie ("RTX 2080" is not tied with a 2080 Ti card), while
# "MSI RTX 4090" is a tie of the Ventus and the Suprim Liquid.
HARD_VARIANTS: dict[str, frozenset[str]] = {
    "cpu": frozenset({"pro"}),
    "gpu": frozenset({"ti", "super", "xt", "xtx"}),
    "ssd": frozenset({"pro", "plus", "evo"}),
    "psu": frozenset({"pro"}),
}

# Words that carry nothing in any category.
STOP_WORDS = frozenset({"with", "and", "for", "the", "a", "w/"})


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Words a query may carry that a part's name need not have: maker/chip-family words,
# PCPartPicker's spec words, packaging.
OPTIONAL: dict[str, frozenset[str]] = {
    "cpu": _set("amd intel ryzen core processor cpu extreme edition unlocked desktop boxed box tray socket"),
    "gpu": _set("nvidia geforce amd radeon graphics card video gpu gddr6 gddr6x gddr7 gddr5 gddr5x hbm2 edition"),
    "motherboard": _set(
        "motherboard mainboard board atx eatx e microatx matx micro mini itx ssi eeb ceb wifi wi fi "
        "str4 strx4 str5 swrx8 swrx9 am4 am5 lga1151 lga1200 lga1700 lga1851 lga2066 lga4677 socket"
    ),
    "psu": _set("power supply psu fully semi full modular non certified atx sfx watt watts"),
    "ssd": _set("solid state drive ssd internal nvme sata pcie gen gen3 gen4 gen5 heatsink tlc qlc"),
    "case": _set(
        "case chassis tower mid full atx eatx e micro itx matx midi window "
        "black white solid dark light tg glass clear rgb argb snow"
    ),
    "ram": _set("memory ram kit desktop dimm dual channel quad lpx rgb black white"),
    "cooler": _set("cpu cooler fan air liquid aio heatsink chromax black white"),
}


@dataclass(frozen=True)
class Reading:
    """A name read into identity words and specs."""

    words: tuple[str, ...]
    specs: dict[str, object]


@dataclass(frozen=True)
class Resolved:
    """The one part a name means; ``how``: by id, by exact name/alias, or by its tokens."""

    part: Part
    how: Literal["id", "exact", "tokens"]


@dataclass(frozen=True)
class Ambiguous:
    """A real tie: several parts fit the name equally."""

    query: str
    category: str
    candidates: tuple[Part, ...]

    def message(self) -> str:
        return f"{self.query!r} fits more than one {self.category}; did you mean:\n" + listing(self.candidates)


@dataclass(frozen=True)
class NotFound:
    """No part fits the name; ``closest`` are the nearest by spelling."""

    query: str
    category: str
    closest: tuple[Part, ...]

    def message(self) -> str:
        head = f"no {self.category} in the catalog matches {self.query!r}"
        return head + ("; did you mean:\n" + listing(self.closest) if self.closest else "")


Resolution = Resolved | Ambiguous | NotFound


# --- normalisation ------------------------------------------------------------------------

# (pattern, replacement), applied in order to the case-folded text of every category.
_SYNONYMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), r)
    for p, r in [
        (r"[\u2122\u00ae\u00a9]|\(r\)|\(tm\)", " "),  # trademark signs
        (r"[\u2018\u2019\u201c\u201d\u2033]", '"'),
        (r"\bfounder'?s?(\s*edition)?\b", " fe "),  # "Founders Edition", "Founders", "Founder's Edition"
        (r"\bmax\s*-?\s*q\b", " maxq "),
        (r"\bwi\s*-?\s*fi\b", " wifi "),
        (r"\bg\.?\s?skill\b", " gskill "),
        (r"\bbe\s?quiet!?", " bequiet "),
        (r"\blian\s?-?li\b", " lianli "),
        (r"\bv-?color\b", " vcolor "),
        (r"\bsuper\s?flower\b", " superflower "),
        (r"\bwestern\s+digital\b|\bwd_", " wd "),
        (r"\btempered\s+glass\b", " tg "),
        (r"\b([a-z])\+", r"\1plus"),  # "P+" = "P Plus" (EVGA units)
    ]
]

# Spec phrases PCPartPicker appends to item names, by category (their numbers that
# identify a part are read as specs before these are removed).
_SUFFIXES: dict[str, list[re.Pattern[str]]] = {
    cat: [re.compile(p) for p in pats]
    for cat, pats in {
        "cpu": [r"\b\d+(\.\d+)?\s*ghz\b", r"\b\d+\s*threads?\b"],
        "cooler": [r"\b\d+(\.\d+)?\s*cfm\b", r"\b\d+(\.\d+)?\s*db(a)?\b", r"\b\d+(\.\d+)?\s*rpm\b"],
        "psu": [r"\b80\s*(?:\+|plus\b)"],
        "case": [
            r"\b(?:(?:e-?atx|atx|micro\s*atx|mini\s*itx|m?atx)\s+)?(?:(?:full|mid|mini|super|midi)\s+tower|desktop|cube)?"
            r"\s*case$"
        ],
        "motherboard": [r"\b(?:e-?atx|atx|micro\s*atx|mini\s*itx|ssi\s*eeb|ssi\s*ceb|eeb|ceb)\s+\S+\s+motherboard$"],
        "ram": [r"\b\d+(\.\d+)?\s*v\b"],
    }.items()
}


def normalise(text: str) -> str:
    """Case-folded text with the synonyms every category shares made one spelling."""
    out = text.casefold()
    for pattern, repl in _SYNONYMS:
        out = pattern.sub(repl, out)
    return " ".join(out.split())


class _Taker:
    """A name being read: each :meth:`take` cuts what a pattern matches out of ``text``
    (replaced by what its function returns, if anything) after the function has noted the
    spec it states in ``specs``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.specs: dict[str, object] = {}

    def take(self, pattern: str, fn: Callable[[re.Match[str]], str | None]) -> None:
        def repl(m: re.Match[str]) -> str:
            result = fn(m)
            return " " if result is None else f" {result} "

        self.text = re.sub(pattern, repl, self.text)

    def spec(self, key: str, value: Callable[[re.Match[str]], object]) -> Callable[[re.Match[str]], None]:
        """A function for :meth:`take` that notes ``key`` as ``value(match)``."""

        def note(m: re.Match[str]) -> None:
            self.specs[key] = value(m)

        return note


def _ram_specs(t: _Taker) -> None:
    def split(m: re.Match[str]) -> None:
        t.specs["modules"], t.specs["module_gb"] = int(m[1]), int(m[2])

    def ddr(m: re.Match[str]) -> None:
        t.specs["memory_type"] = f"DDR{m[1]}"
        if m[2]:
            t.specs["speed_mts"] = int(m[2])

    t.take(r"\(?\b(\d{1,2})\s*x\s*(\d{1,3})\s*gb?\b\)?", split)
    t.take(r"\b(\d{1,4})\s*gb\b", t.spec("total_gb", lambda m: int(m[1])))
    t.take(r"\b(\d{1,2})\s*tb\b", t.spec("total_gb", lambda m: int(m[1]) * 1024))
    t.take(r"\b(?:pc)?ddr([345])(?:\s*-?\s*(\d{4}))?\b", ddr)
    t.take(r"\b(\d{4})\s*(?:mhz|mt/?s)\b", t.spec("speed_mts", lambda m: int(m[1])))
    t.take(r"\bc\s?l?\s?(\d{2})\b", t.spec("cl", lambda m: int(m[1])))
    t.take(r"\bnon\s*-?\s*ecc\b", t.spec("ecc", lambda m: False))
    t.take(r"\becc\b", t.spec("ecc", lambda m: True))
    t.take(r"\b(?:rdimm|registered|reg|buffered)\b", t.spec("registered", lambda m: True))
    t.take(r"\b(?:udimm|unbuffered|unregistered)\b", t.spec("registered", lambda m: False))


def _ssd_specs(t: _Taker) -> None:
    t.take(
        r"\b(\d+(?:\.\d+)?)\s*(tb|gb)\b",
        t.spec("capacity_gb", lambda m: round(float(m[1]) * (1000 if m[2] == "tb" else 1))),
    )
    t.take(r"\bm\.?\s?2\b(?:\s*-?\s*(22\d{2,3}))?", t.spec("form", lambda m: "m2"))
    t.take(r"\b2\.5\s*(?:\"|in\b|inch\b|-inch\b)?", t.spec("form", lambda m: "2.5in"))
    t.take(r"\bu\.2\b", t.spec("form", lambda m: "u.2"))
    t.take(r"\bnvme\b", t.spec("interface", lambda m: "nvme"))
    t.take(r"\bsata\b(?:\s*iii|\s*3)?", t.spec("interface", lambda m: "sata"))
    t.take(r"\bpcie\s*(?:gen\s*)?([3-5])(?:\.0)?(?:\s*x4)?\b", t.spec("pcie_gen", lambda m: int(m[1])))
    t.take(r"\bgen\s*([3-5])(?:\s*x4)?\b", t.spec("pcie_gen", lambda m: int(m[1])))


def _psu_specs(t: _Taker) -> None:
    t.take(r"\batx\s*3\.1\b", lambda m: "atx31")
    t.take(r"\batx\s*3(?:\.0)?\b", lambda m: "atx3")
    t.take(r"\bpcie\s*5(?:\.\d)?\b", lambda m: "pcie5")
    t.take(r"\(?\b(20[12]\d)\)?", t.spec("year", lambda m: int(m[1])))
    t.take(r"\b(titanium|platinum|gold|silver|bronze)\b", t.spec("efficiency", lambda m: f"80+ {m[1].title()}"))
    t.take(r"\b([a-z])\s+plus\b", lambda m: f"{m[1]}plus")  # "P Plus" = "P+"
    t.take(r"\b(\d{3,4})\s*(?:w|watts?)?\b", lambda m: _watts(m, t.specs))


def _gpu_specs(t: _Taker) -> None:
    t.take(r"\b(\d{1,3})\s*(?:gb|g)\b", t.spec("vram_gb", lambda m: float(m[1])))


def _cpu_specs(t: _Taker) -> None:
    t.take(r"\b(\d{1,3})\s*-?\s*cores?\b", t.spec("cores", lambda m: int(m[1])))
    t.take(r"\bx-?series\b", lambda m: None)
    t.take(r"\btr\b", lambda m: "threadripper")
    t.take(r"\br([3579])\b", lambda m: f"ryzen {m[1]}")
    # "5950 X" = "5950X": a model suffix typed apart is glued back
    t.take(r"\b(\d{3,5})\s+(x3d|xt|xe|wx|x|k|kf|ks|f)\b", lambda m: f"{m[1]}{m[2]}")


def _cooler_specs(t: _Taker) -> None:
    t.take(r"\b(\d{2,3})\s*mm\b", lambda m: m[1])


def _year_specs(t: _Taker) -> None:
    t.take(r"\(?\b(20[12]\d)\)?", t.spec("year", lambda m: int(m[1])))


_SPEC_TAKERS: dict[str, Callable[[_Taker], None]] = {
    "ram": _ram_specs,
    "ssd": _ssd_specs,
    "psu": _psu_specs,
    "gpu": _gpu_specs,
    "cpu": _cpu_specs,
    "cooler": _cooler_specs,
    "case": _year_specs,
    "motherboard": _year_specs,
}


def _spec_text(text: str, category: str) -> tuple[str, dict[str, object]]:
    """Take the specs out of a normalised name: the rest of the text, and the specs."""
    for pattern in _SUFFIXES.get(category, []):
        text = pattern.sub(" ", text)
    taker = _Taker(text)
    read = _SPEC_TAKERS.get(category)
    if read is not None:
        read(taker)
    return taker.text, taker.specs


def _watts(m: re.Match[str], specs: dict[str, object]) -> str | None:
    value = int(m[1])
    if 200 <= value <= 3000:
        specs["watts"] = value
        return None
    return m[0]


_SPLIT = re.compile(r"[^a-z0-9.]+")


def _words(text: str) -> list[str]:
    out: list[str] = []
    for raw in _SPLIT.split(text):
        # a dot is kept only between digits ("3.0"); "m.2" was read as a spec already
        for tok in re.split(r"(?<!\d)\.|\.(?!\d)", raw):
            if tok:
                out.append(tok.replace(".", ""))
    return out


def read(text: str, category: str) -> Reading:
    """The identity words and specs of a name, as typed or as in the catalog."""
    rest, specs = _spec_text(normalise(text), category)
    return Reading(tuple(_words(rest)), specs)


def _pieces(token: str) -> list[str]:
    """ "gtx1080ti" -> ["gtx", "1080", "ti"]."""
    return re.findall(r"[a-z]+|\d+", token)


# --- parts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Profile:
    words: frozenset[str]  # every word of brand, name and aliases (and glued pieces)
    brand: frozenset[str]
    core: frozenset[str]  # the name's words less brand, part numbers and optional words
    variants: frozenset[str]  # the name's variant words
    specs: dict[str, object]
    labels: tuple[str, ...]  # normalised exact names: name and aliases, each also after the brand


_PROFILES: dict[int, tuple[Part, str, _Profile]] = {}


def _profile(part: Part, category: str) -> _Profile:
    cached = _PROFILES.get(id(part))
    if cached is not None and cached[0] is part and cached[1] == category:
        return cached[2]
    brand = read(part.brand, category).words
    name = read(part.name, category)
    # the name without its parenthesised part number ("(TURBO-RTX3090-24G)")
    bare = re.sub(r"\([^)]*\d[^)]*\)", " ", part.name)
    named = read(bare, category).words
    words = _part_words(part, category, brand, named)
    core = set(named) - set(brand) - OPTIONAL.get(category, frozenset())
    variants = {w for w in named if w in VARIANTS.get(category, frozenset())}
    if category == "ssd" and re.search(r"\bm\.2\b", part.name, re.IGNORECASE):
        # "Samsung 860 EVO 1TB" is the 2.5" drive; the M.2 one says so in its name
        variants.add("m2")
        words.add("m2")
        core.add("m2")
    specs = dict(name.specs)
    specs.update(_field_specs(part))
    labels: set[str] = set()
    for label in (part.name, *part.aliases):
        text = _label(label)
        labels.add(text)
        labels.add(_label(f"{part.brand} {label}"))
    profile = _Profile(
        frozenset(words), frozenset(brand), frozenset(core), frozenset(variants), specs, tuple(sorted(labels))
    )
    _PROFILES[id(part)] = (part, category, profile)
    return profile


def _part_words(part: Part, category: str, brand: tuple[str, ...], named: tuple[str, ...]) -> set[str]:
    """The words a query may use for a part: its brand, its name's, its aliases', and the
    pieces of glued model codes."""
    words: set[str] = set(brand) | set(named)
    for alias in part.aliases:
        said = read(alias, category).words
        if " " in alias.strip() or not re.search(r"\d", alias):
            words.update(said)
        else:  # a part number ("FD-C-MES2A-01") matches whole, as an exact alias; but "-GAMING"
            words.update(w for w in said if w.isalpha() and len(w) >= 4)
    for tok in list(words):
        # "HX1200" also answers "HX 1200"; not "SN850X" for "SN 850" (the suffix is identity)
        if re.fullmatch(r"[a-z]{2,}\d{3,}", tok):
            words.update(_pieces(tok))
    return words


def _label(text: str) -> str:
    return " ".join(_words(normalise(text)))


def _field_specs(part: Part) -> dict[str, object]:
    if isinstance(part, Ram):
        out: dict[str, object] = {
            "memory_type": part.memory_type,
            "modules": part.modules,
            "module_gb": part.module_gb,
            "total_gb": part.modules * part.module_gb,
        }
        if part.speed_mts is not None:
            out["speed_mts"] = part.speed_mts
        if part.ecc is not None:
            out["ecc"] = part.ecc
        if part.registered is not None:
            out["registered"] = part.registered
        return out
    if isinstance(part, Ssd):
        ssd: dict[str, object] = {
            "capacity_gb": part.capacity_gb,
            "interface": part.interface,
            "form": "m2" if part.form_factor.startswith("M.2") else part.form_factor.casefold(),
        }
        if part.pcie_gen is not None:
            ssd["pcie_gen"] = part.pcie_gen
        return ssd
    if isinstance(part, Psu):
        psu: dict[str, object] = {"watts": part.watts}
        if part.efficiency is not None:
            psu["efficiency"] = part.efficiency
        return psu
    if isinstance(part, Gpu) and part.vram_gb is not None:
        return {"vram_gb": float(part.vram_gb)}
    if isinstance(part, Cpu) and part.cores is not None:
        return {"cores": part.cores}
    return {}


# --- deciding -----------------------------------------------------------------------------


def identity_tokens(query: str, category: str) -> tuple[str, ...]:
    """The words of a query a part must have (optional words left out)."""
    optional = OPTIONAL.get(category, frozenset()) | STOP_WORDS
    return tuple(w for w in read(query, category).words if w not in optional)


def _levenshtein(a: str, b: str, score_cutoff: int) -> int:
    from rapidfuzz.distance import Levenshtein  # imported when first used (issue 14)

    return int(Levenshtein.distance(a, b, score_cutoff=score_cutoff))


def _wratio(a: str, b: str) -> float:
    from rapidfuzz import fuzz

    return float(fuzz.WRatio(a, b))


def _has_word(word: str, profile: _Profile, category: str) -> bool:
    if word in profile.words:
        return True
    bits = _pieces(word)
    if len(bits) > 1 and all(b in profile.words for b in bits):
        return True  # "RTX3090" typed for "RTX 3090"
    if word.isalpha() and len(word) >= 6 and word not in VARIANTS.get(category, frozenset()):
        # one slip in a long word ("Threadriper", "Tomohawk")
        return any(len(w) >= 6 and w.isalpha() and _levenshtein(word, w, score_cutoff=1) <= 1 for w in profile.words)
    return False


def _specs_agree(query: dict[str, object], part: dict[str, object]) -> bool:
    for key, value in query.items():
        have = part.get(key)
        if have is not None and have != value:
            return False
    return True


def _fits(reading: Reading, words: Sequence[str], profile: _Profile, category: str) -> bool:
    """The query's words and specs are all the part's (variant words not yet checked)."""
    if not _specs_agree(reading.specs, profile.specs):
        return False
    i = 0
    while i < len(words):
        if _has_word(words[i], profile, category):
            i += 1
        elif i + 1 < len(words) and words[i] + words[i + 1] in profile.words:
            i += 2  # "AX 1200i" typed for "AX1200i"
        else:
            return False
    return True


def score(query: str, part: Part, category: str) -> float:
    """How close a query is to a part's name or aliases by spelling (0-100; ordering only)."""
    text = _label(query)
    profile = _profile(part, category)
    from rapidfuzz import fuzz  # here, not at the top: most builds need none (issue 14)

    return max(float(fuzz.token_set_ratio(text, label)) for label in profile.labels)


def resolve(query: str, category: str, parts: Sequence[Part]) -> Resolution:
    """The part of ``category`` among ``parts`` that ``query`` names (see the module doc)."""
    wanted = query.strip()
    pool = [p for p in parts if p.category == category]
    named = _by_id_or_exact(wanted, query, category, pool)
    if named is not None:
        return named
    reading = read(wanted, category)
    words = identity_tokens(wanted, category)
    if not words and not reading.specs:
        return NotFound(query, category, tuple(closest(query, category, pool)))
    said = _said(reading)
    fitting = [p for p in pool if _fits(reading, words, _profile(p, category), category)]
    prof = {p.id: _profile(p, category) for p in fitting}
    strict = [p for p in fitting if prof[p.id].variants <= said]
    contenders = _contenders(fitting, strict, prof, said, category)
    if len(contenders) > 1:  # ordering one needs no spelling score (nor rapidfuzz imported)
        contenders.sort(key=lambda p: -score(query, p, category))
    return _verdict(query, category, pool, contenders, strict)


def _verdict(query: str, category: str, pool: Sequence[Part], contenders: list[Part], strict: list[Part]) -> Resolution:
    """One strict contender is the part; no strict one, not found (the contenders first among
    the closest); several, a tie."""
    if len(contenders) == 1 and contenders[0] in strict:
        return Resolved(contenders[0], "tokens")
    if not any(p in strict for p in contenders):
        rest = [p for p in closest(query, category, pool) if p not in contenders]
        return NotFound(query, category, tuple((contenders + rest)[:5]))
    return Ambiguous(query, category, tuple(contenders[:8]))


def _by_id_or_exact(wanted: str, query: str, category: str, pool: Sequence[Part]) -> Resolution | None:
    """The part with ``wanted`` as its id, or as its exact name or alias (with or without the
    brand); a tie of exact names; or None."""
    for p in pool:
        if p.id == wanted:
            return Resolved(p, "id")
    folded = wanted.casefold()
    exact = [p for p in pool if p.name.casefold() == folded or folded in (a.casefold() for a in p.aliases)]
    if not exact:
        label = _label(wanted)
        exact = [p for p in pool if label in _profile(p, category).labels]
    if len(exact) == 1:
        return Resolved(exact[0], "exact")
    if len(exact) > 1:
        return Ambiguous(query, category, tuple(exact))
    return None


def _said(reading: Reading) -> set[str]:
    """Every word a query says, with the pieces of glued codes ("1080ti" says "ti") and "m2"
    for an M.2 form."""
    said = set(reading.words) | {bit for w in reading.words for bit in _pieces(w)}
    return said | ({"m2"} if reading.specs.get("form") == "m2" else set())


def _contenders(
    fitting: list[Part], strict: list[Part], prof: dict[str, _Profile], said: set[str], category: str
) -> list[Part]:
    """The fitting parts still in the running, strict ones (whose variant words the query
    says) first."""
    # A part with a variant word the query lacks is never the answer; it is left out when a
    # part without it explains the query ("Define 7" is the Define 7, not the Define 7 XL),
    # and otherwise shown as a tie or as the closest.
    hard = HARD_VARIANTS.get(category, frozenset())
    loose = [
        p
        for p in fitting
        if p not in strict
        and not (prof[p.id].variants - said) & hard
        and not any(prof[p.id].core > prof[a.id].core != frozenset() for a in strict)
    ]
    contenders = strict + loose
    # A strict part whose whole core name the query says beats parts with more words
    # ("Phanteks Enthoo Pro" is the Enthoo Pro, not the Enthoo Pro 2).
    tight = [a for a in strict if prof[a.id].core and prof[a.id].core <= said]
    contenders = [p for p in contenders if not any(prof[p.id].core > prof[a.id].core for a in tight)]
    return _by_maker(contenders, prof, said)


def _by_maker(contenders: list[Part], prof: dict[str, _Profile], said: set[str]) -> list[Part]:
    """Of parts that differ only by maker, those of the maker the query names ("NVIDIA GTX
    1080 Ti FE"), if it names one."""
    if len(contenders) > 1 and len({prof[p.id].core for p in contenders}) == 1:
        branded = [p for p in contenders if prof[p.id].brand <= said]
        if branded:
            return branded
    return contenders


def closest(query: str, category: str, parts: Sequence[Part], limit: int = 5) -> list[Part]:
    """The parts nearest to ``query``: most of its identity words first (model numbers
    count double), then by spelling of the name or an alias."""
    pool = [p for p in parts if p.category == category]
    words = identity_tokens(query, category)
    text = _label(query)
    ranked: list[tuple[float, int, Part]] = []
    for index, part in enumerate(pool):
        profile = _profile(part, category)
        shared = sum(2 if any(ch.isdigit() for ch in w) else 1 for w in words if _has_word(w, profile, category))
        spelling = max(
            (float(s) for s in (_wratio(text, label) for label in profile.labels)),
            default=0.0,
        )
        if shared or spelling >= 60:
            ranked.append((-(shared * 100 + spelling), index, part))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [part for _key, _index, part in ranked[:limit]]


def search(query: str, category: str, parts: Sequence[Part]) -> list[Part]:
    """Every part of ``category`` whose words and specs fit ``query`` (for `find`): parts
    whose variant words the query says first, then the rest, each best spelling first;
    never a part with a hard variant word the query lacks ("RTX 3090" lists no 3090 Ti)."""
    pool = [p for p in parts if p.category == category]
    reading = read(query, category)
    words = identity_tokens(query, category)
    said = _said(reading)
    hard = HARD_VARIANTS.get(category, frozenset())
    ranked: list[tuple[int, float, Part]] = []
    for part in pool:
        profile = _profile(part, category)
        if not _fits(reading, words, profile, category) or (profile.variants - said) & hard:
            continue
        ranked.append((0 if profile.variants <= said else 1, -score(query, part, category), part))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [part for _strict, _score, part in ranked]


def describe(part: Part) -> list[str]:
    """The facts that tell a part from a similar one ("24 GB", "cooler blower", "3-slot"...)."""
    return [text for kind, text in _traits(part) if kind != "brand"]


# --- telling parts apart ------------------------------------------------------------------


def _traits(part: Part) -> list[tuple[str, str]]:
    """(kind, text) facts that may tell this part from a similar one."""
    facts = next((fn for cls, fn in _TRAITS.items() if isinstance(part, cls)), None)
    return [("brand", part.brand), *(facts(part) if facts else [])]


def _gpu_traits(part: Gpu) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if part.vram_gb is not None:
        out.append(("vram", f"{part.vram_gb:g} GB"))
    if part.cooler is not None:
        out.append(("cooler", f"cooler {part.cooler}"))
    if part.slot_width is not None:
        out.append(("slots", f"{part.slot_width:g}-slot"))
    if part.length_mm is not None:
        out.append(("length", f"{part.length_mm} mm"))
    return out


def _ram_traits(part: Ram) -> list[tuple[str, str]]:
    out = [
        ("kit", f"{part.modules} x {part.module_gb} GB"),
        ("speed", f"{part.memory_type}-{part.speed_mts}" if part.speed_mts else part.memory_type),
    ]
    if part.registered:
        out.append(("reg", "registered"))
    if part.ecc:
        out.append(("ecc", "ECC"))
    return out


def _ssd_traits(part: Ssd) -> list[tuple[str, str]]:
    return [("capacity", f"{part.capacity_gb} GB"), ("form", f"{part.form_factor} {part.interface}")]


def _psu_traits(part: Psu) -> list[tuple[str, str]]:
    return [("watts", f"{part.watts} W"), *([("efficiency", part.efficiency)] if part.efficiency else [])]


def _cpu_traits(part: Cpu) -> list[tuple[str, str]]:
    return [("socket", part.socket), *([("cores", f"{part.cores} cores")] if part.cores is not None else [])]


def _motherboard_traits(part: Motherboard) -> list[tuple[str, str]]:
    return [("socket", part.socket), ("form", part.form_factor)]


def _case_traits(part: Case) -> list[tuple[str, str]]:
    out = [("form", "/".join(part.form_factors))]
    if part.max_gpu_length_mm is not None:
        out.append(("gpu", f"GPU <= {part.max_gpu_length_mm} mm"))
    return out


def _cooler_traits(part: Cooler) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if part.kind is not None:
        out.append(("kind", part.kind))
    if part.height_mm is not None:
        out.append(("height", f"{part.height_mm} mm"))
    if part.radiator_mm is not None:
        out.append(("radiator", f"{part.radiator_mm} mm"))
    if part.bracket_sockets:
        out.append(("sockets", "/".join(part.bracket_sockets)))
    return out


# The traits of each kind of part, by its model class.
_TRAITS: dict[type[Part], Callable[[Any], list[tuple[str, str]]]] = {
    Gpu: _gpu_traits,
    Ram: _ram_traits,
    Ssd: _ssd_traits,
    Psu: _psu_traits,
    Cpu: _cpu_traits,
    Motherboard: _motherboard_traits,
    Case: _case_traits,
    Cooler: _cooler_traits,
}


def listing(parts: Iterable[Part]) -> str:
    """One line per part: id, name, and the facts that differ among the parts listed."""
    parts = list(parts)
    traits = [_traits(p) for p in parts]
    kinds: dict[str, set[str]] = {}
    for facts in traits:
        for kind, text in facts:
            kinds.setdefault(kind, set()).add(text)
    lines = []
    for part, facts in zip(parts, traits, strict=True):
        shown = [text for kind, text in facts if kind == "brand" or len(kinds[kind]) > 1 or len(parts) == 1]
        lines.append(f"  - {part.id}  ({part.name}; {', '.join(shown)})")
    return "\n".join(lines)
