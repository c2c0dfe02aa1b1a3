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
# A case that takes the larger form factor takes these smaller ones too: the smaller
# boards' mounting holes are a subset of ATX's (ATX spec 2.2, section 3.2).
FORM_FACTOR_IMPLIES: dict[str, list[str]] = {
    "E-ATX": ["ATX"],
    "EEB": ["ATX"],
    "CEB": ["ATX"],
    "XL-ATX": ["ATX"],
    "ATX": ["Micro-ATX", "Mini-ITX"],
    "Micro-ATX": ["Mini-ITX"],
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


def case_takes(case_form_factors: list[str], board_form_factor: str) -> bool:
    """Whether a case listing these form factors takes a board of this one."""
    taken: set[str] = set()
    todo = list(case_form_factors)
    while todo:
        ff = todo.pop()
        if ff not in taken:
            taken.add(ff)
            todo.extend(FORM_FACTOR_IMPLIES.get(ff, []))
    return board_form_factor in taken
