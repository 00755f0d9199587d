"""The per-game table HTML: what each seat sees, nothing it cannot see, and the revealed picture."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card, face_of
from cardlab.errors import InvalidInputError
from cardlab.games.garbage import Garbage
from cardlab.viz.table import table_html
from tests.viz import card_elements, one_card

# Garbage deal order: seat 0 gets spots A..10, then seat 1, then the stock, top card first.
SEAT0 = ["5H", "3C", "KS", "4D", "9S", "6H", "2C", "QD", "8C", "AH"]
SEAT1 = ["5S", "3H", "KD", "4C", "9D", "6S", "2H", "QC", "8D", "AD"]


def garbage(stock: list[str], **options: Any) -> cardlab.Game[Any]:
    return cardlab.new_game("garbage", players=2, deck=SEAT0 + SEAT1 + stock, seed=0, **options)


def random_game(name: str, players: int, seed: int, moves: int) -> cardlab.Game[Any]:
    rng = np.random.default_rng(seed)
    g = cardlab.new_game(name, players=players, seed=seed)
    for _ in range(moves):
        if g.is_over:
            break
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    return g


def shown_codes(page: str) -> set[str]:
    return {c["data-card"] for c in card_elements(page) if "data-card" in c}


def assert_hides(page: str, hidden: list[Card], packs: int = 1) -> None:
    """No hidden card is drawn face up: each face is shown at most as often as the packs hold it minus
    its hidden copies, and no card code names a pack (which of two identical cards it is stays hidden)."""
    shown = Counter(c["data-card"] for c in card_elements(page) if "data-card" in c)
    assert not [code for code in shown if ":" in code], f"a pack suffix is shown: {sorted(shown)}"
    hidden_faces = Counter(face_of(c).code for c in hidden)
    leaked = sorted(code for code, k in hidden_faces.items() if shown[code] + k > packs)
    assert not leaked, f"hidden cards drawn face up: {leaked}"


# ---------------------------------------------------------------------------- Garbage
def test_garbage_fresh_deal_shows_only_backs() -> None:
    page = table_html(garbage(["7S"]), viewpoint=0)
    assert "data-card=" not in page
    for seat in (0, 1):
        for spot in range(1, 11):
            assert one_card(page, data_spot=f"seat{seat}-{spot}")["data-facedown"] == "1"
    assert "stock: 32 cards" in page and "discard: 0 cards" in page
    assert one_card(page, data_zone="stock")["data-facedown"] == "1"
    assert one_card(page, data_zone="discard")["data-empty"] == "1"
    assert "seat 0 to draw" in page


def test_garbage_chain_from_a_stacked_deck_turns_the_right_spots_face_up() -> None:
    g = garbage(["7S"])
    g.play("draw stock")  # 7S to spot 7 reveals 2C, to spot 2 reveals 3C, to spot 3 reveals KS: discarded
    page = table_html(g, viewpoint=1)
    assert one_card(page, data_spot="seat0-7")["data-card"] == "7S"
    assert one_card(page, data_spot="seat0-2")["data-card"] == "2C"
    assert one_card(page, data_spot="seat0-3")["data-card"] == "3C"
    for spot in (1, 4, 5, 6, 8, 9, 10):
        assert one_card(page, data_spot=f"seat0-{spot}")["data-facedown"] == "1"
    assert one_card(page, data_zone="discard")["data-card"] == "KS"
    assert "discard: 1 card" in page and "stock: 31 cards" in page
    assert "seat 1 to draw" in page
    assert shown_codes(page) == {"7S", "2C", "3C", "KS"}


def test_garbage_held_wild_is_drawn_in_play_and_highlighted() -> None:
    g = garbage(["JS"])
    g.play("draw stock")
    assert g.observe(0).phase == "wild"
    page = table_html(g, viewpoint=0)
    held = one_card(page, data_zone="held")
    assert held["data-card"] == "JS" and held["data-highlight"] == "1"
    assert "may place the wild jack" in page


def test_garbage_spots_beyond_the_layout_are_greyed_as_unplayable() -> None:
    g = cardlab.new_game("garbage", players=2, seed=4, layout_sizes=[8, 10])
    page = table_html(g, viewpoint=0)
    for spot in (9, 10):
        cell = one_card(page, data_spot=f"seat0-{spot}")
        assert cell["data-disabled"] == "1" and "data-facedown" not in cell
    assert page.count(">unplayable</text>") == 2
    assert one_card(page, data_spot="seat1-10")["data-facedown"] == "1"
    assert one_card(page, data_spot="seat0-8")["data-facedown"] == "1"


def test_garbage_match_shows_hand_number_and_wins() -> None:
    g = cardlab.new_game("garbage", players=2, seed=4, match=True)
    page = table_html(g)
    assert "hand 1, wins seat 0: 0, seat 1: 0" in page
    assert "hand 1" not in table_html(cardlab.new_game("garbage", players=2, seed=4))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("moves", [0, 7, 25])
def test_garbage_page_never_shows_a_card_nobody_has_seen(seed: int, moves: int) -> None:
    g = random_game("garbage", 2, seed, moves)
    assert isinstance(g, Garbage)
    hidden = g.hidden_cards()
    assert hidden
    view = g.observe(None)
    visible = {c.code for lay in view.layouts for c in lay if c is not None}
    for viewpoint in (None, 0, 1):
        page = table_html(g, viewpoint=viewpoint)
        assert_hides(page, hidden)
        assert visible <= shown_codes(page)
        assert "everything revealed" not in page
    revealed = table_html(g, viewpoint=0, reveal_all=True)
    assert "everything revealed" in revealed
    assert {c.code for c in hidden} <= shown_codes(revealed)
    face_down = {c.code for c in hidden if c not in g.state.stock}
    assert {c["data-card"] for c in card_elements(revealed, data_hidden="1")} >= face_down


def test_reveal_all_marks_face_down_spots_and_the_stock_order() -> None:
    g = garbage(["7S", "QH", "4S"])
    page = table_html(g, reveal_all=True)
    assert one_card(page, data_spot="seat0-1") == one_card(page, data_card="5H")
    assert one_card(page, data_card="5H")["data-hidden"] == "1"
    stock = [c["data-card"] for c in card_elements(page, data_zone="stock-revealed")]
    assert stock[:3] == ["7S", "QH", "4S"] and len(stock) == 32


def test_garbage_four_colour_paints_diamonds_blue() -> None:
    g = garbage(["7D"])
    g.play("draw stock")
    assert one_card(table_html(g), data_spot="seat0-7")["data-card"] == "7D"
    assert "#0b5ed7" in table_html(g, four_colour=True)
    assert "#0b5ed7" not in table_html(g)


# ---------------------------------------------------------------------------- shared behaviour
def test_repr_html_is_the_public_table() -> None:
    g = random_game("garbage", 3, 5, 10)
    assert g._repr_html_() == table_html(g)
    assert 'data-view="public"' in g._repr_html_()


@pytest.mark.parametrize("name", cardlab.game_names())
def test_every_registered_game_draws_a_well_formed_public_table(name: str) -> None:
    g = random_game(name, cardlab.engine.game_class(name).default_players, 2, 6)
    page = g._repr_html_()
    root = ET.fromstring(page)
    assert root.get("data-game") == name and root.get("data-view") == "public"
    assert card_elements(page), "a table shows at least one card or place"


def test_a_game_without_its_own_drawing_gets_a_summary_only() -> None:
    class Unnamed(Garbage):
        name = "unnamed-garbage"

    g = Unnamed(2, seed=1)
    g.play("draw stock")
    page = table_html(g, viewpoint=0)
    assert str(g) in page and "data-card" not in page
    with pytest.raises(InvalidInputError):
        table_html(g, viewpoint=3)


def test_pages_are_well_formed_deterministic_and_compact() -> None:
    g = random_game("garbage", 2, 9, 12)
    page = table_html(g, viewpoint=0)
    ET.fromstring(page)
    ET.fromstring(table_html(g, reveal_all=True, four_colour=True))
    assert page == table_html(g.copy(), viewpoint=0)
    assert len(page.encode()) < 80_000
    assert len(table_html(g, reveal_all=True).encode()) < 250_000
    for banned in ("<script", "http://", "https://", "@import", "url("):
        assert banned not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_drawing_imports_neither_plotly_nor_ipywidgets() -> None:
    code = ("import sys, cardlab; cardlab.new_game('garbage', seed=1)._repr_html_(); import cardlab.viz; "
            "print(sorted(m for m in ('plotly', 'ipywidgets') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_bad_arguments_get_clear_errors() -> None:
    g = garbage(["7S"])
    with pytest.raises(InvalidInputError, match="seat 5"):
        table_html(g, viewpoint=5)
    with pytest.raises(InvalidInputError, match="reveal_all='yes'"):
        table_html(g, reveal_all="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="needs a cardlab game"):
        table_html("garbage")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- Shithead
# Deal order: 3 face-down cards per seat, then 6 hand cards per seat, then the draw pile, top first.
SH_DOWN = ["2C", "3C", "4C", "5C", "6C", "7C"]
SH_HAND0 = ["8H", "9H", "5H", "JH", "QH", "KH"]
SH_HAND1 = ["8S", "9S", "5S", "JS", "QS", "KS"]


def shithead_after_setup(start: str) -> cardlab.Game[Any]:
    g = cardlab.new_game("shithead", players=2, seed=0, deck=SH_DOWN + SH_HAND0 + SH_HAND1 + [start])
    g.play_all(["face up 8♥", "face up 9♥", "face up 5♥", "face up 8♠", "face up 9♠", "face up 5♠"])
    return g


def test_shithead_table_from_a_stacked_deck() -> None:
    g = shithead_after_setup("3D")
    page = table_html(g, viewpoint=0)
    mine = {c["data-card"] for c in card_elements(page, data_zone="hand", data_seat="0")}
    assert mine == {"JH", "QH", "KH"}
    theirs = card_elements(page, data_zone="hand", data_seat="1")
    assert len(theirs) == 3 and all(c.get("data-facedown") == "1" for c in theirs)
    for seat, ups in ((0, {"8H", "9H", "5H"}), (1, {"8S", "9S", "5S"})):
        assert {c["data-card"] for c in card_elements(page, data_zone="face-up", data_seat=str(seat))} == ups
        downs = card_elements(page, data_zone="face-down", data_seat=str(seat))
        assert len(downs) == 3 and all(c.get("data-facedown") == "1" for c in downs)
    assert one_card(page, data_zone="pile")["data-card"] == "3D"
    assert "pile: 1 card" in page and "draw pile: 33 cards" in page and "burned/out: 0 cards" in page
    assert "seat 0 to play" in page


def test_shithead_picked_up_cards_are_shown_to_everyone() -> None:
    g = shithead_after_setup("AD")  # nothing in seat 0's hand (J Q K) beats the Ace: it must pick up
    assert [m.text for m in g.legal_moves()] == ["pick up"]
    g.play("pick up")
    page = table_html(g, viewpoint=1)
    known = one_card(page, data_card="AD")
    assert known["data-zone"] == "hand" and known["data-seat"] == "0" and known["data-known"] == "1"
    assert len(card_elements(page, data_zone="hand", data_seat="0", data_facedown="1")) == 3
    assert "hand 4, 1 seen by all" in page
    assert_hides(page, [Card.parse(c) for c in ("JH", "QH", "KH")])


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("moves", [0, 8, 40])
def test_shithead_page_never_shows_an_unseen_card(players: int, moves: int) -> None:
    g: Any = random_game("shithead", players, 11 + moves, moves)
    for viewpoint in (None, *range(players)):
        unseen = g.unseen_cards(viewpoint)
        page = table_html(g, viewpoint=viewpoint)
        assert_hides(page, unseen, g.packs)
        view = g.observe(viewpoint)
        assert {c.code for up in view.face_up for c in up} <= shown_codes(page)
        assert "everything revealed" not in page
    revealed = table_html(g, viewpoint=0, reveal_all=True)
    assert "everything revealed" in revealed
    assert {c.code for c in g.unseen_cards(0)} <= shown_codes(revealed)
    ET.fromstring(revealed)


# ---------------------------------------------------------------------------- Spite and Malice
# Deal order: seat 0's payoff pile (its first card the face-up top), seat 1's, 5 hand cards each, then the stock.
SM_DECK = ["AS", "9C", "9D"] + ["5H", "8C", "8D"] + ["2H", "3H", "KS", "7C", "7D"] + ["4S", "6S", "10S", "JS", "QS"]


def spite_after_a_turn() -> cardlab.Game[Any]:
    g = cardlab.new_game("spite-and-malice", deck=SM_DECK + ["2D"], seed=0, payoff_size=3, first="seat0")
    g.play_all(["payoff to centre 1", "hand 2♥ to centre 1", "hand K♠ to centre 1", "hand 7♣ to side 1"])
    return g


def test_spite_table_from_a_stacked_deck() -> None:
    g = spite_after_a_turn()
    page = table_html(g, viewpoint=1)
    assert [c["data-card"] for c in card_elements(page, data_zone="centre", data_pile="1")] == ["AS", "2H", "KS"]
    king = one_card(page, data_card="KS")
    assert king["data-stands-for"] == "3"
    assert "K as 3" in page and "centre 1: up to 3" in page
    assert "centre 2: empty" in page and "centre 3: empty" in page
    assert one_card(page, data_zone="payoff", data_seat="0")["data-card"] == "9C"
    assert one_card(page, data_zone="payoff", data_seat="1")["data-card"] == "5H"
    assert "payoff: 2 cards" in page and "payoff: 3 cards" in page
    assert one_card(page, data_zone="side", data_seat="0", data_side="1")["data-card"] == "7C"
    mine = [c["data-card"] for c in card_elements(page, data_zone="hand", data_seat="1")]
    assert mine == ["4S", "6S", "10S", "JS", "QS"]
    theirs = card_elements(page, data_zone="hand", data_seat="0")
    assert len(theirs) == 2 and all(c.get("data-facedown") == "1" for c in theirs)
    assert "stock: 88 cards" in page and "seat 1 to play" in page


def test_spite_reveal_shows_payoff_piles_hands_and_stock_order() -> None:
    g = spite_after_a_turn()
    page = table_html(g, viewpoint=1, reveal_all=True)
    assert "everything revealed" in page
    assert one_card(page, data_zone="payoff-revealed", data_seat="0")["data-card"] == "9D"
    assert [c["data-card"] for c in card_elements(page, data_zone="payoff-revealed", data_seat="1")] == ["8C", "8D"]
    assert {c["data-card"] for c in card_elements(page, data_zone="hand", data_seat="0", data_hidden="1")} == {
        "3H", "7D"}
    stock = card_elements(page, data_zone="stock-revealed")
    assert stock[0]["data-card"] == "2D" and len(stock) == 88


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("moves", [0, 15, 60])
def test_spite_page_never_shows_an_unseen_card(seed: int, moves: int) -> None:
    g: Any = random_game("spite-and-malice", 2, seed, moves)
    for viewpoint in (None, 0, 1):
        unseen = g.unseen_cards(viewpoint)
        assert unseen
        page = table_html(g, viewpoint=viewpoint)
        assert_hides(page, unseen, g.packs)
        view = g.observe(viewpoint)
        public = {c.code for pile in view.centre for c in pile} | {c.code for c in view.payoff_tops if c}
        assert public <= shown_codes(page)
    revealed = table_html(g, viewpoint=None, reveal_all=True)
    assert {c.code for c in g.unseen_cards(None)} <= shown_codes(revealed)
    ET.fromstring(revealed)
