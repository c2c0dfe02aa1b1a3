"""Rule messages read as English at a count of one (`rulebook.agree`)."""

from __future__ import annotations

import pytest

from partpicker.rules.rulebook import agree, render


@pytest.mark.parametrize(
    ("filled", "said"),
    [
        ("1 cards 3 slots wide fit: PCIE_1", "1 card 3 slots wide fits: PCIE_1"),
        ("1 cards 2.5 slots wide do not fit: no room", "1 card 2.5 slots wide does not fit: no room"),
        ("1 GPUs need 4", "1 GPU needs 4"),
        ("64 GB of DDR4 in 1 modules", "64 GB of DDR4 in 1 module"),
        ("a EEB board does not fit", "an EEB board does not fit"),
        ("a E-ATX board", "an E-ATX board"),
        ("1 blower cards: nothing to warn about", "1 blower card: nothing to warn about"),
        ("1 open-air cards: fine", "1 open-air card: fine"),
        # Left alone: other counts, money, decimals, and "a" before a consonant sound.
        ("11 cards need 21 modules", "11 cards need 21 modules"),
        ("$1 cards, 0.1 slots", "$1 cards, 0.1 slots"),
        ("a CEB board, a USB port", "a CEB board, a USB port"),
    ],
)
def test_agree(filled: str, said: str) -> None:
    assert agree(filled) == said


def test_render_agrees() -> None:
    assert render("{n} cards {w:g} slots wide fit", {"n": 1, "w": 3.0}) == "1 card 3 slots wide fits"
    assert render("{n} cards {w:g} slots wide fit", {"n": 2, "w": 3.0}) == "2 cards 3 slots wide fit"


def test_the_slot_drawing_calls_unplaced_slots_unknown_not_a_collision() -> None:
    """The ProArt X670E's x16 slots have no known position: gpu-slots is unknown, and the page's
    note must say so, not that no layout seats the card."""
    from partpicker.build import load_build
    from partpicker.validate.drawing import board_notes

    from .conftest import ROOT, read_catalog_once

    build = load_build(ROOT / "examples" / "1gpu-7950x-proart-x670e-rtx-4090.yaml", read_catalog_once()[0])
    notes = " ".join(board_notes(build, {}))
    assert "does not know where PCIEX16_1" in notes and "No layout seats" not in notes
