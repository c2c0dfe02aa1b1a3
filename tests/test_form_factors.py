"""Which board form factors each case form factor takes, from the standards (vocab.CASE_TAKES)."""

from __future__ import annotations

import pytest

from partpicker import vocab
from partpicker.catalog import Catalog
from partpicker.validate.engine import message, run_rule

# Board outlines in inches (width, depth) from the specs: ATX 2.2 (ATX, microATX), VIA's
# Mini-ITX, SSI CEB 1.1 and EEB 3.61; E-ATX's largest common size; XL-ATX (EVGA / Gigabyte).
SIZE = {
    "Mini-ITX": (6.7, 6.7),
    "Micro-ATX": (9.6, 9.6),
    "ATX": (12.0, 9.6),
    "CEB": (12.0, 10.5),
    "E-ATX": (12.0, 13.0),
    "EEB": (12.0, 13.0),
    "XL-ATX": (13.6, 10.4),
}
# The matrix, written out row by row: case form factor -> the boards it takes.
EXPECTED = {
    "Mini-ITX": {"Mini-ITX"},
    "Micro-ATX": {"Micro-ATX", "Mini-ITX"},
    "ATX": {"ATX", "Micro-ATX", "Mini-ITX"},
    "CEB": {"CEB", "ATX", "Micro-ATX", "Mini-ITX"},
    "E-ATX": {"E-ATX", "CEB", "ATX", "Micro-ATX", "Mini-ITX"},
    "EEB": {"EEB", "CEB", "ATX", "Micro-ATX", "Mini-ITX"},
    "XL-ATX": {"XL-ATX", "ATX", "Micro-ATX", "Mini-ITX"},
}


@pytest.mark.parametrize("case_ff", sorted(vocab.FORM_FACTORS))
@pytest.mark.parametrize("board_ff", sorted(vocab.FORM_FACTORS))
def test_matrix(case_ff: str, board_ff: str) -> None:
    takes = vocab.case_takes([case_ff], board_ff)
    assert takes == (board_ff in EXPECTED[case_ff])
    if takes:  # never a board larger than the case's own outline
        (cw, cd), (bw, bd) = SIZE[case_ff], SIZE[board_ff]
        assert bw <= cw and bd <= cd, (case_ff, board_ff)


def test_every_form_factor_has_a_row() -> None:
    assert set(vocab.CASE_TAKES) == set(vocab.FORM_FACTORS) == set(EXPECTED)


def test_ceb_board_in_an_eatx_case_and_no_repeats(catalog: Catalog, rules) -> None:
    """Issue 15's false fail: the ASUS Pro WS TRX50-SAGE (CEB) in a case for E-ATX and ATX."""
    from partpicker.build import Build

    spec = rules["case-form-factor"]
    board = catalog.parts["asus-pro-ws-trx50-sage-wifi"]
    case = catalog.parts["lian-li-pc-o11-air"].model_copy(update={"form_factors": ["EEB", "EEB", "E-ATX", "ATX"]})
    outcome = run_rule(spec, Build.of("t", "compat", 1, {"case": case, "motherboard": board}), {}, {})
    assert board.form_factor == "CEB" and outcome.status == "pass"
    eeb = board.model_copy(update={"form_factor": "XL-ATX"})
    outcome = run_rule(spec, Build.of("t", "compat", 1, {"case": case, "motherboard": eeb}), {}, {})
    text = message(spec, outcome)
    assert outcome.status == "fail"
    assert text.count("EEB") == 2, text  # once in what the case lists, once in what it takes
    assert "a case for EEB, E-ATX, ATX" in text
