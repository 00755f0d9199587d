"""Garbage scenarios, one per rule, from stacked decks (seat 0 gets spots A-10 first, then seat 1, then the
stock, top card first)."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

import cardlab
from cardlab import Card
from tests.conformance import assert_conserved

SEAT0 = ["5H", "3C", "KS", "4D", "9S", "6H", "2C", "QD", "8C", "AH"]  # spots A..10
SEAT1 = ["5S", "3H", "KD", "4C", "9D", "6S", "2H", "QC", "8D", "AD"]


def deal(stock: list[str], seat0: list[str] = SEAT0, seat1: list[str] = SEAT1, **options: object) -> cardlab.Game:
    return cardlab.new_game("garbage", players=2, seed=1, deck=seat0 + seat1 + stock, **options)


def spot(g: cardlab.Game, seat: int, n: int) -> Card | None:
    return g.observe(None).layouts[seat][n - 1]


def test_deal_order_is_documented_block_order() -> None:
    g = deal(["7S"])
    assert g.state.spots[0] == [Card.parse(c) for c in SEAT0]
    assert g.state.spots[1] == [Card.parse(c) for c in SEAT1]
    assert g.state.stock[-1] == Card.parse("7S")
    assert g.observe(None).layouts[0] == (None,) * 10
    assert len(g.state.stock) == 52 - 20


def test_the_chain_places_cards_until_one_cannot_be_placed() -> None:
    g = deal(["7S"])
    g.play("draw stock")
    texts = [e.text for e in g.events]
    assert texts[:5] == [
        "seat 0 draws 7♠ from the stock",
        "7♠ placed on spot 7, revealing 2♣",
        "2♣ placed on spot 2, revealing 3♣",
        "3♣ placed on spot 3, revealing K♠",
        "K♠ cannot be placed (a court card): discarded",
    ]
    assert [spot(g, 0, n) for n in (2, 3, 7)] == [Card.parse("2C"), Card.parse("3C"), Card.parse("7S")]
    assert g.state.discard == [Card.parse("KS")]
    assert g.current_player == 1 and g.turns == 1


@pytest.mark.parametrize("court", ["QS", "KH"])
def test_queen_or_king_ends_the_turn_at_once(court: str) -> None:
    g = deal([court])
    g.play("draw stock")
    assert g.observe(None).layouts[0] == (None,) * 10
    assert g.state.discard == [Card.parse(court)]
    assert g.current_player == 1


def test_a_number_whose_spot_already_shows_it_ends_the_turn() -> None:
    g = deal(["QS", "8H", "5D"])  # seat0 Q (dead); seat1 8H -> spot 8 reveals QC; seat0 5D -> spot 5 reveals 9S...
    g.play("draw stock")
    g.play("draw stock")
    g.play("draw stock")
    # seat 0: 5D on spot 5 reveals 9S, 9S on spot 9 reveals 8C, 8C on 8 reveals QD -> dead
    assert spot(g, 0, 5) == Card.parse("5D") and spot(g, 0, 9) == Card.parse("9S")
    g2 = deal(["5D", "QS", "5C"])
    g2.play("draw stock")  # seat 0 fills spot 5 with 5D
    g2.play("draw stock")  # seat 1: Q
    g2.play("draw stock")  # seat 0 draws 5C: spot 5 already shows a 5
    assert g2.events[-2].text == "5♣ cannot be placed (spot 5 already shows it): discarded"


def test_jack_placement_is_a_choice() -> None:
    g = deal(["JD"])
    g.play("draw stock")
    legal = [m.text for m in g.legal_moves()]
    assert legal == [f"jack to {s}" for s in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]] + ["discard"]
    g.play("jack to 4")
    assert spot(g, 0, 4) == Card.parse("JD")
    assert "J♦ (wild) placed on spot 4, revealing 4♦" in [e.text for e in g.events]
    # 4D goes on: spot 4 now holds the Jack, so 4D may displace it
    assert [m.text for m in g.legal_moves()] == ["displace jack on 4", "discard"]
    g.undo()
    g.play("discard")
    assert g.state.discard == [Card.parse("JD")] and g.current_player == 1


def test_jack_displacement_and_replacement() -> None:
    g = deal(["JD"])
    g.play("draw stock")
    g.play("jack to 4")  # reveals 4D, which may displace the jack on spot 4
    g.play("displace jack on 4")
    assert spot(g, 0, 4) == Card.parse("4D")
    assert g.state.held == [Card.parse("JD")]
    assert "jack to 9" in [m.text for m in g.legal_moves()]
    assert "jack to 4" not in [m.text for m in g.legal_moves()]
    g.play("jack to 9")  # reveals 8C -> spot 8 reveals QD -> dead
    assert spot(g, 0, 9) == Card.parse("JD") and spot(g, 0, 8) == Card.parse("8C")
    assert g.state.discard[-1] == Card.parse("QD") and g.current_player == 1
    assert_conserved(g)


def test_taking_the_discard_only_when_it_can_be_used() -> None:
    g = deal(["7S", "QH"])
    g.play("draw stock")  # seat 0 discards KS (dead for everybody)
    assert [m.text for m in g.legal_moves()] == ["draw stock"]
    g.play("draw stock")  # seat 1 draws QH: discarded
    assert [m.text for m in g.legal_moves()] == ["draw stock"]
    g3 = deal(["QS", "5C", "9H"], seat1=["5S", "3H", "KD", "4C", "9D", "6S", "2H", "QC", "8D", "AD"])
    g3.play("draw stock")  # seat 0: QS dead
    g3.play("draw stock")  # seat 1: 5C -> spot 5 reveals 9D -> spot 9 reveals 8D -> spot 8 reveals QC -> dead
    assert g3.state.discard[-1] == Card.parse("QC")
    g6 = deal(["QS", "8H"], seat1=["5S", "3H", "KD", "4C", "9D", "6S", "2H", "7C", "8D", "AD"])
    g6.play("draw stock")  # seat 0: QS dead
    g6.play("draw stock")  # seat 1: 8H on 8 reveals 7C -> 7 reveals 2H -> 2 reveals 3H -> 3 reveals KD: dead
    assert g6.state.discard[-1] == Card.parse("KD")
    g7 = deal(["QS", "6C", "KC"], seat1=["5S", "3H", "KD", "4C", "9D", "6S", "2H", "7C", "8D", "AD"])
    g7.play("draw stock")  # seat 0 Q
    g7.play("draw stock")  # seat 1: 6C on 6 reveals 6S -> spot 6 shows a 6: 6S discarded
    assert g7.state.discard[-1] == Card.parse("6S")
    assert [m.text for m in g7.legal_moves()] == ["draw stock", "take discard"]
    g7.play("take discard")
    assert [e.text for e in g7.events if e.move_index == 2][0] == "seat 0 takes 6♠ from the discard pile"
    assert spot(g7, 0, 6) == Card.parse("6S")


def position_with_short_stock(stock_left: int) -> cardlab.Game:
    """A record edited so that only ``stock_left`` cards remain in the stock, the rest face up on the discard."""
    data = json.loads(deal(["QS"]).to_json())
    stock = data["initial"]["stock"]  # the top of the stock is the last element
    data["initial"]["discard"] = stock[:-stock_left]
    data["initial"]["stock"] = stock[-stock_left:]
    return cardlab.load_game(json.dumps(data))


def test_reshuffle_keeps_the_top_card_and_makes_a_known_stock() -> None:
    g = position_with_short_stock(1)
    pile_before = list(g.state.discard)
    g.play("draw stock")  # QS is dead: it goes on the discard pile, and the stock is empty
    assert g.state.discard == [Card.parse("QS")]
    assert Counter(g.state.stock) == Counter(pile_before)
    assert g.state.stock_known and g.observe(None).stock_known
    assert any(e.kind == "reshuffle" for e in g.events)
    assert_conserved(g)
    # the shuffle is seeded by the game: replaying the record gives the same new stock
    assert cardlab.load_game(g.to_json()).state.stock == g.state.stock
    g.undo()
    assert not g.state.stock_known and len(g.state.stock) == 1


def test_nine_spot_layout_cannot_play_a_ten() -> None:
    g = deal(["10H"], seat0=SEAT0[:9], layout_sizes=[9, 10])
    g.play("draw stock")
    assert g.events[1].text == "10♥ cannot be placed (seat 0's layout has only 9 spots): discarded"
    assert g.observe(None).sizes == (9, 10)


@pytest.mark.parametrize("last", ["AS", "JH"])
def test_match_ends_when_a_one_spot_player_fills_it_with_an_ace_or_a_jack(last: str) -> None:
    g = cardlab.new_game("garbage", players=2, seed=1, deck=["5C"] + SEAT1 + [last], layout_sizes=[1, 10],
                         match=True)
    g.play("draw stock")
    if last == "JH":
        assert [m.text for m in g.legal_moves()] == ["jack to A", "discard"]
        g.play("jack to A")
    assert g.is_over and g.winner == 0
    assert [e.text for e in g.events][-1] == "seat 0 wins the match"


def test_winner_starts_the_next_hand_with_one_spot_fewer() -> None:
    g = cardlab.new_game("garbage", players=2, seed=1, deck=SEAT0 + ["2D", "KC", "QS", "AS"],
                         layout_sizes=[10, 2], match=True)
    g.play("draw stock")  # seat 0: QS
    g.play("draw stock")  # seat 1: AS on A reveals 2D, 2D on 2 completes the layout
    assert not g.is_over
    assert g.state.hand == 2 and g.current_player == 1
    assert g.observe(None).sizes == (10, 1) and g.state.wins == [0, 1]
    assert "hand 1 won by seat 1" in [e.text for e in g.events]
    assert_conserved(g)


def test_hand_ends_at_once_without_last_round() -> None:
    g = cardlab.new_game("garbage", players=2, seed=1, deck=["2D", "KC"] + SEAT1 + ["AS"], layout_sizes=[2, 10])
    g.play("draw stock")
    assert g.is_over and g.winner == 0 and g.turns == 1


def test_last_round_gives_the_others_one_more_turn() -> None:
    g = cardlab.new_game("garbage", players=2, seed=1, deck=["2D", "KC"] + SEAT1 + ["AS", "QH"],
                         layout_sizes=[2, 10], last_round=True)
    g.play("draw stock")
    assert not g.is_over and g.current_player == 1
    g.play("draw stock")  # seat 1's last turn: QH
    assert g.is_over and g.winner == 0 and g.state.hand_winners == [[0]]


def test_kings_wild_option() -> None:
    g = deal(["KH", "JC"], wild="K")
    g.play("draw stock")
    assert "king to A" in [m.text for m in g.legal_moves()]
    g.play("discard")
    g.play("draw stock")  # seat 1 draws a Jack: dead with Kings wild
    assert g.events[-2].text == "J♣ cannot be placed (a court card): discarded"


def test_solitaire_plays_to_the_end() -> None:
    g = cardlab.new_game("garbage", players=1, seed=3)
    assert g.packs == 1
    policy = cardlab.policies.make_policy("greedy", "garbage", np.random.default_rng(0))
    while not g.is_over:
        g.play(cardlab.policies.choose(policy, g))
    assert g.winner == 0


def test_pack_counts_by_players() -> None:
    assert [cardlab.new_game("garbage", players=n, seed=0).packs for n in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_events_hold_animation_data() -> None:
    g = deal(["7S"])
    g.play("draw stock")
    place = g.events[1]
    assert place.kind == "place" and place.data["spot"] == 7 and place.data["revealed"] == Card.parse("2C")


def test_record_round_trip_of_a_match() -> None:
    g = cardlab.new_game("garbage", players=3, seed=9, match=True)
    policy = cardlab.policies.make_policy("greedy", "garbage", np.random.default_rng(0))
    for _ in range(300):
        if g.is_over:
            break
        g.play(cardlab.policies.choose(policy, g))
    back = cardlab.load_game(g.to_json())
    assert back.state.to_data() == g.state.to_data()
    assert json.loads(g.to_json())["options"]["match"] is True


def test_repr_can_be_pasted() -> None:
    g = cardlab.new_game("garbage", players=2, seed=7)
    g.play("draw stock")
    again = eval(repr(g), {"cardlab": cardlab})
    assert again.state.to_data() == g.state.to_data()
    stacked = deal(["7S"])
    stacked.play("draw stock")
    assert eval(repr(stacked), {"cardlab": cardlab}).state.to_data() == stacked.state.to_data()
