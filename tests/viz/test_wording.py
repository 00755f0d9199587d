"""Small things a class reads: where a human's moves are, readable placeholder words, pile counts that cannot be
read as a card, and a seed bound a person can read."""

from __future__ import annotations

import re

import pytest

from cardlab.errors import InvalidInputError
from cardlab.viz.cards_svg import slot_svg
from cardlab.viz.controls import SEED_BOX_MAX
from cardlab.viz.stepper import Stepper
from cardlab.viz.table import count_words

FAST = {"rollouts": 2, "panel_rollouts": 2}


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("label", ["held", "empty", "next", "unplayable", "A"])
def test_placeholder_words_meet_wcag_aa_on_their_chip(label: str) -> None:
    svg = slot_svg(label, width=44)
    chip = re.search(r'<rect [^>]*fill="(#[0-9a-f]{6})" fill-opacity="([.0-9]+)"/><text', svg)
    ink = re.search(r'<text [^>]*fill="(#[0-9a-f]{6})"', svg)
    assert chip is not None and ink is not None
    assert float(chip.group(2)) >= 0.9
    # the chip lies over the darkest table green (#2e7d4f) at its opacity: the worst background the words get
    alpha = float(chip.group(2))
    under = [int(chip.group(1)[i:i + 2], 16) * alpha + int("2e7d4f"[i - 1:i + 1], 16) * (1 - alpha) for i in (1, 3, 5)]
    background = "#" + "".join(f"{round(c):02x}" for c in under)
    assert contrast(ink.group(1), background) >= 4.5
    size = float(re.search(r'font-size="([.0-9]+)"', svg).group(1))   # type: ignore[union-attr]
    assert size * 44 / 100 >= 6.5   # at the table's card width, no smaller than the old 7 px


def test_pile_counts_read_as_counts() -> None:
    assert count_words("discard", 5) == "discard: 5 cards" and count_words("stock", 1) == "stock: 1 card"
    s = Stepper("garbage", players=2, seed=3, **FAST)
    assert "discard: 0 cards" in s.table.value and not re.search(r"discard \d", s.table.value)


def test_next_move_for_a_human_in_another_seats_view_names_the_button_that_shows_its_moves() -> None:
    s = Stepper("shithead", players=2, seed=3, policies=["human", "greedy"], **FAST)
    s.next_move()
    assert "click one of its moves below the table" in (s.last_error or "")
    s.viewpoint.value = "seat 1"
    s.next_move()
    said = s.last_error or ""
    assert "this view does not show its moves" in said and "Show seat 0's cards and moves" in said
    assert s.handover_button.description == "Show seat 0's cards and moves"   # the button it names is there


def test_the_seed_bound_is_one_a_person_reads() -> None:
    with pytest.raises(InvalidInputError, match="from 0 to 999,999,999") as err:
        Stepper("garbage", seed=SEED_BOX_MAX + 1)
    assert "9,223" not in str(err.value)
    s = Stepper("garbage", players=2, seed=SEED_BOX_MAX, **FAST)
    s.new_deal_button.click()                       # the same deal again: the seed moves on, and wraps round
    assert s.deal_seed == 0 and s.last_error is None
