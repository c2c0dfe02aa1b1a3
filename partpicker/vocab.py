"""The controlled vocabulary: sockets, form factors, memory types and their spellings.

One list, used by the part models (to normalise what a catalog says) and by
`catalog check` (to report a word that is not in it).
"""

from __future__ import annotations

import functools

# Canonical socket names. Aliases map the spellings seen in spec sheets and datasets
# (BuildCores writes "TR4", AMD writes "sTR4"; Intel ARK writes "FCLGA2066").
SOCKETS: dict[str, list[str]] = {
    "sTR4": ["TR4", "SP3r2"],
    "sTRX4": ["TRX4", "SP3r3"],
    "sTR5": ["TR5", "SP6"],
    "sWRX8": ["WRX8", "SP3r4"],
    "SP3": ["Socket SP3", "LGA4094"],
    "AM4": [],
    "AM5": ["LGA1718"],
    "LGA2066": ["LGA 2066", "FCLGA2066", "Socket R4"],
    "LGA2011-3": ["LGA 2011-3", "FCLGA2011-3", "LGA2011-v3"],
    "LGA1151": ["LGA 1151", "FCLGA1151"],
    "LGA1200": ["LGA 1200", "FCLGA1200"],
    "LGA1700": ["LGA 1700", "FCLGA1700"],
    "LGA1851": ["LGA 1851", "FCLGA1851"],
    "LGA4677": ["LGA 4677", "FCLGA4677"],
    "LGA3647": ["LGA 3647", "FCLGA3647"],
}

# Motherboard form factors, with the number of expansion slot positions the standard
# defines (ATX spec 2.2: seven; microATX: four; Mini-ITX: one). Boards that need more
# positions are XL-ATX / EEB variants and say so in their own spec.
FORM_FACTORS: dict[str, int] = {
    "Mini-ITX": 1,
    "Micro-ATX": 4,
    "ATX": 7,
    "E-ATX": 7,
    "CEB": 7,
    "EEB": 7,
    "XL-ATX": 9,
}
FORM_FACTOR_ALIASES: dict[str, str] = {
    "mITX": "Mini-ITX",
    "ITX": "Mini-ITX",
    "Mini ITX": "Mini-ITX",
    "mATX": "Micro-ATX",
    "Micro ATX": "Micro-ATX",
    "microATX": "Micro-ATX",
    "uATX": "Micro-ATX",
    "EATX": "E-ATX",
    "Extended ATX": "E-ATX",
    "XLATX": "XL-ATX",
    # SSI's server specs and the workstation boards that follow them: one size each.
    "SSI-EEB": "EEB",
    "SSI EEB": "EEB",
    "SSI-CEB": "CEB",
    "SSI CEB": "CEB",
}
# Which board form factors a case built for each form factor takes, from the standards'
# board sizes and mounting holes:
# - ATX 2.2 (Intel, 2004), sections 2-3: ATX 12 x 9.6 in; microATX 9.6 x 9.6 in uses a
#   subset of ATX's holes; Mini-ITX 6.7 x 6.7 in (VIA, 2001) a subset of microATX's.
#   https://web.archive.org/web/2012/http://www.formfactors.org/developer/specs/atx2_2.pdf
# - SSI CEB 1.1 (Server System Infrastructure, 2006): 12 x 10.5 in, ATX's holes plus more,
#   so a CEB case takes ATX and smaller. https://web.archive.org/web/2012/http://ssiforum.org/
# - SSI EEB 3.61 (2004): 12 x 13 in; the CEB spec shares EEB's board outline up to 10.5 in and
#   its holes, so an EEB case takes CEB, ATX and smaller.
# - E-ATX has no standard; makers use up to 12 x 13 in on ATX's holes, so an E-ATX case takes
#   CEB (12 x 10.5 in), ATX and smaller. EEB's own holes differ from E-ATX's, so an EEB board
#   needs a case that lists EEB. XL-ATX (13.6 x 10.4 in) takes ATX and smaller.
CASE_TAKES: dict[str, list[str]] = {
    "Mini-ITX": ["Mini-ITX"],
    "Micro-ATX": ["Micro-ATX", "Mini-ITX"],
    "ATX": ["ATX", "Micro-ATX", "Mini-ITX"],
    "CEB": ["CEB", "ATX", "Micro-ATX", "Mini-ITX"],
    "E-ATX": ["E-ATX", "CEB", "ATX", "Micro-ATX", "Mini-ITX"],
    "EEB": ["EEB", "CEB", "ATX", "Micro-ATX", "Mini-ITX"],
    "XL-ATX": ["XL-ATX", "ATX", "Micro-ATX", "Mini-ITX"],
}
CASE_TAKES_SOURCES = [
    "https://web.archive.org/web/2012/http://www.formfactors.org/developer/specs/atx2_2.pdf",
    "SSI CEB specification 1.1 (Server System Infrastructure Forum, 2006)",
    "SSI EEB specification 3.61 (Server System Infrastructure Forum, 2004)",
]

# PCPartPicker's part type (its list export's "Type" column) of each build role: one table,
# that `import pcpartpicker` reads back and the pcpartpicker format writes.
PCPARTPICKER_TYPES: dict[str, str] = {
    "cpu": "CPU",
    "cooler": "CPU Cooler",
    "motherboard": "Motherboard",
    "ram": "Memory",
    "ssd": "Storage",
    "gpu": "Video Card",
    "case": "Case",
    "psu": "Power Supply",
}
PSU_FORM_FACTORS = ["ATX", "SFX", "SFX-L", "TFX", "EPS"]
MEMORY_TYPES = ["DDR3", "DDR4", "DDR5"]
SSD_FORM_FACTORS = ["M.2-2230", "M.2-2242", "M.2-2260", "M.2-2280", "M.2-22110", "2.5in", "U.2", "AIC"]
SSD_INTERFACES = ["nvme", "sata"]
GPU_COOLERS = ["blower", "open-air", "hybrid", "passive", "water"]
EFFICIENCY_RATINGS = [
    "80+",
    "80+ Bronze",
    "80+ Silver",
    "80+ Gold",
    "80+ Platinum",
    "80+ Titanium",
]
# Efficiency at 100 % load on 115 V, from the 80 PLUS programme's requirements table
# (https://www.clearesult.com/80plus/program-details). Used to estimate wall draw.
EFFICIENCY_AT_FULL_LOAD: dict[str, float] = {
    "80+": 0.80,
    "80+ Bronze": 0.82,
    "80+ Silver": 0.85,
    "80+ Gold": 0.87,
    "80+ Platinum": 0.89,
    "80+ Titanium": 0.90,
}


def _index(canon: dict[str, list[str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, aliases in canon.items():
        for spelling in [name, *aliases]:
            out[_key(spelling)] = name
    return out


def _key(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


_SOCKET_INDEX = _index(SOCKETS)
_FF_INDEX = _index({ff: [a for a, c in FORM_FACTOR_ALIASES.items() if c == ff] for ff in FORM_FACTORS})


@functools.cache  # a few dozen spellings, looked up once per part of a 100k catalog
def socket(word: str) -> str | None:
    """The canonical socket for a spelling, or None if it is not in the vocabulary."""
    return _SOCKET_INDEX.get(_key(word))


@functools.cache
def form_factor(word: str) -> str | None:
    """The canonical motherboard form factor for a spelling, or None."""
    return _FF_INDEX.get(_key(word))


def unique(words: list[str]) -> list[str]:
    """``words`` without repeats, in order (a case listing "SSI-EEB" and "EEB" lists EEB once)."""
    return list(dict.fromkeys(words))


def boards_taken(case_form_factors: list[str]) -> list[str]:
    """Every board form factor a case listing these takes, the listed ones first (CASE_TAKES)."""
    taken = unique(case_form_factors)
    return unique([*taken, *(ff for listed in taken for ff in CASE_TAKES.get(listed, [listed]))])


def case_takes(case_form_factors: list[str], board_form_factor: str) -> bool:
    """Whether a case listing these form factors takes a board of this one."""
    return board_form_factor in boards_taken(case_form_factors)
