"""Spite and Malice: one scenario per rule from stacked decks, bad input, views, resampling and the bot."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card, full_deck, shuffled_deck, stack_deck
from cardlab.cards import faces as faces_of
from cardlab.chance.stats import wilson
from cardlab.dealer import Dealer
from cardlab.engine.game import Move
from cardlab.games.spite_malice import SpiteMalice
from cardlab.games.spite_malice import rules as spite_malice
from cardlab.games.spite_malice.bot import greedy_spite_malice
from cardlab.games.spite_malice.rules import TIE_LABEL
from cardlab.policies import choose, make_policy
from tests.conformance import assert_conserved, snapshot

GAME = "spite-and-malice"
HEARTS = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"]
LABEL = {1: "A", 11: "J", 12: "Q"}
Z999 = 3.2905  # 99.9% intervals: several seeded statistical checks in this file


def C(text: str) -> Card:
    return Card.parse(text)


def cards(texts: list[str]) -> list[Card]:
    """Parse faces; a face named twice is the second pack's copy (as ``stack_deck`` reads it)."""
    return stack_deck(texts, 2, Dealer(0).deal())[:len(texts)]


def stacked(payoff0: list[str], payoff1: list[str], hand0: list[str], hand1: list[str],
            stock: tuple[str, ...] | list[str] = (), **options: Any) -> SpiteMalice:
    """A game whose payoff piles (top first), hands and stock top (top first) are the named cards."""
    assert len(payoff0) == len(payoff1)
    deck = [*payoff0, *payoff1, *hand0, *hand1, *stock]
    g = cardlab.new_game(GAME, seed=0, deck=deck, payoff_size=len(payoff0), **options)
    assert isinstance(g, SpiteMalice)
    return g


def full_deal(top0: str, top1: str, size: int, hand0: list[str], hand1: list[str], stock: list[str],
              **options: Any) -> SpiteMalice:
    """Like ``stacked`` for big payoff piles: only their tops are named, the cards below are the rest of
    the deck (seeded order), and the named stock cards are followed by the rest."""
    named = [top0, top1, *hand0, *hand1, *stock]
    deck = stack_deck(named, 2, Dealer(1).deal())
    head, rest = deck[:len(named)], deck[len(named):]
    under = 2 * (size - 1)
    p0 = [head[0], *rest[:size - 1]]
    p1 = [head[1], *rest[size - 1:under]]
    full = [*p0, *p1, *head[2:], *rest[under:]]
    g = cardlab.new_game(GAME, seed=0, deck=full, payoff_size=size, **options)
    assert isinstance(g, SpiteMalice)
    return g


def build_sequence(seq: list[str], fillers: list[str]) -> tuple[list[str], list[str]]:
    """Hand and stock so that seat 0 can play ``seq`` in order, refilling 5 at a time when the hand empties."""
    padded = seq + fillers[:(-len(seq)) % 5]
    return padded[:5], padded[5:]


def play_hand(g: SpiteMalice, faces: list[str], pile: int) -> None:
    for face in faces:
        g.play(f"hand {C(face)} to centre {pile}")


# ---------------------------------------------------------------------------------------------- deal and names
def test_names_and_aliases() -> None:
    for name in ("spite-and-malice", "spite-malice", "spite and malice", "spite_and_malice", "Spite-Malice"):
        assert isinstance(cardlab.new_game(name, seed=1), SpiteMalice)
    with pytest.raises(cardlab.InvalidInputError, match="2 players"):
        cardlab.new_game(GAME, players=3, seed=1)


def test_stacked_deck_deal_order() -> None:
    g = stacked(["QH", "2C", "3C"], ["5S", "6S", "7S"], ["9D", "AD", "KD", "4D", "4D"],
                ["8C", "8C", "JS", "JS", "10S"], ["AC", "2D"])
    s = g.state
    assert s.payoff[0] == cards(["3C", "2C", "QH"])      # bottom .. top: the first card named is on top
    assert s.payoff[1] == cards(["7S", "6S", "5S"])
    assert s.hands[0] == sorted(cards(["9D", "AD", "KD", "4D", "4D"]))
    assert s.hands[1] == sorted(cards(["8C", "8C", "JS", "JS", "10S"]))
    assert s.stock[-1] == C("AC") and s.stock[-2] == C("2D")  # the next card named is the stock top
    assert len(s.stock) == 104 - 6 - 10
    assert g.current_player == 0 and s.opening == "seat 0 starts: payoff Q♥ beats 5♠"
    assert_conserved(g)


# ---------------------------------------------------------------------------------------------- Kings
@pytest.mark.parametrize("value", range(1, 13))
def test_king_stands_for_each_value(value: int) -> None:
    seq = HEARTS[:value - 1]
    hand0, stock = build_sequence([*seq, "KS"], ["2C", "3C", "4C", "5C"])
    g = stacked(["QC", "QD"], ["2S", "3S"], hand0, ["9D", "9D", "8D", "8D", "7D"], stock)
    play_hand(g, seq, 1)
    stock_before = len(g.state.stock)
    g.play("hand K♠ to centre 1")
    played = [e for e in g.events if e.kind == "centre"][-1]
    label = LABEL.get(value, str(value))
    assert played.text.startswith(f"K♠ played on centre 1 as {label} ")
    assert played.data["value"] == value and played.data["king"]
    view = g.observe(0)
    if value < 12:
        assert view.centre_values[0] == value and view.centre_kings[0] == (value,)
        assert view.centre[0][-1] == C("KS")
    else:  # a King standing for the Queen completes the pile
        assert view.centre_values[0] == 0 and g.events[-1].kind == "complete"
        assert len(g.state.stock) == stock_before + 12
    assert_conserved(g)


def test_king_may_not_start_a_pile_when_the_option_forbids_it() -> None:
    hand0 = ["KS", "AH", "9C", "9C", "8C"]
    g = stacked(["QC"], ["2S"], hand0, ["9D", "9D", "8D", "8D", "7D"], king_starts_pile=False)
    assert "hand K♠ to centre 1" not in {m.text for m in g.legal_moves()}
    with pytest.raises(cardlab.IllegalMoveError, match="king_starts_pile=False"):
        g.play("hand K♠ to centre 1")
    g.play("hand A♥ to centre 1")
    g.play("hand K♠ to centre 1")
    assert g.observe(0).centre_kings[0] == (2,)


def test_payoff_king_beats_a_queen_and_plays_as_wild() -> None:
    g = stacked(["QC", "2C"], ["KH", "3C"], ["AS", "9D", "9D", "8D", "8D"], ["AD", "7C", "7C", "6C", "6C"])
    assert g.current_player == 1
    assert g.state.opening == "seat 1 starts: payoff K♥ beats Q♣"
    g.play("payoff to centre 2")
    assert g.events[-1].text.startswith("K♥ played on centre 2 as A ")
    assert g.observe(None).payoff_tops == (C("QC"), C("3C"))


# ---------------------------------------------------------------------------------------------- completion
@pytest.mark.parametrize("mode", ["bottom", "shuffle"])
def test_a_complete_pile_returns_to_the_stock(mode: str) -> None:
    hand0, stock = build_sequence(HEARTS, ["2C", "3C", "4C", "5C"])
    g = stacked(["KC", "QD"], ["2S", "3S"], hand0, ["9D", "9D", "8D", "8D", "7D"], stock, completed_to=mode)
    play_hand(g, HEARTS[:-1], 1)
    before = list(g.state.stock)
    g.play("hand Q♥ to centre 1")
    event = g.events[-1]
    assert event.kind == "complete" and event.data["label"] == 1
    s = g.state
    pile = set(cards(HEARTS))
    assert s.centre[0] == [] and len(s.stock) == len(before) + 12
    assert Counter(s.stock) == Counter(before) + Counter(pile)
    assert all(s.labels[c.id] == 1 for c in pile)
    view = g.observe(0)
    if mode == "bottom":
        assert set(s.stock[:12]) == pile and s.stock[12:] == before   # shuffled, under the untouched stock
        assert view.stock_layers == ((0, 0, len(before)), (1, 1, 12))
        assert "put under the stock" in event.text
    else:
        assert set(s.stock[:12]) != pile                                # mixed through the whole stock
        assert view.stock_layers == ((0, 1, len(before) + 12),)
        assert "shuffled into the stock" in event.text
    assert_conserved(g)


# ---------------------------------------------------------------------------------------------- refills
def test_an_empty_hand_is_refilled_mid_turn_by_default() -> None:
    g = stacked(["KC"], ["2S"], HEARTS[:5], ["9D", "9D", "8D", "8D", "7D"], ["6H", "JC", "JC", "10D", "3S"])
    play_hand(g, HEARTS[:5], 1)
    draw = g.events[-1]
    assert draw.kind == "draw" and draw.text == "seat 0 draws 5 cards" and draw.private_to == 0
    assert draw.describe(0) == "seat 0 draws 5 cards: 6♥, J♣, J♣, 10♦, 3♠"
    assert draw.describe(1) == draw.text
    assert g.current_player == 0 and g.turns == 0
    assert g.state.hands[0] == sorted(cards(["6H", "JC", "JC", "10D", "3S"]))
    assert "hand 6♥ to centre 1" in {m.text for m in g.legal_moves()}


def test_without_refill_an_empty_hand_ends_the_turn() -> None:
    g = stacked(["KC"], ["2S"], HEARTS[:5], ["9D", "9D", "8D", "8D", "7D"], ["6H", "JC", "JC", "10D", "3S"],
                refill_on_empty=False)
    play_hand(g, HEARTS[:5], 1)
    assert g.events[-2].text == "seat 0's hand is empty: the turn ends"
    assert g.current_player == 1 and g.turns == 1
    assert g.state.hands[0] == [] and len(g.state.hands[1]) == 5
    g.play("hand 7♦ to side 1")
    assert g.current_player == 0 and g.turns == 2
    assert g.state.hands[0] == sorted(cards(["6H", "JC", "JC", "10D", "3S"]))


# ---------------------------------------------------------------------------------------------- the draw rule
SHORT_HAND = ["AH", "AS", "AD", "2H", "2S"]
SHORT_STOCK = ["3H", "3S", "2D", "4H", "4S", "5H", "5S", "3D", "6H", "6S", "7H", "7S", "4D", "8H"]


def _play_short_stock(g: SpiteMalice, last: bool) -> None:
    """Seat 0 builds three piles from hand and refills until the 14-card stock is gone."""
    for batch in (SHORT_HAND, SHORT_STOCK[:5], SHORT_STOCK[5:10]):
        for face in batch:
            suit_pile = {"H": 1, "S": 2, "D": 3}[face[-1]]
            g.play(f"hand {C(face)} to centre {suit_pile}")
    for face in SHORT_STOCK[10:] if last else SHORT_STOCK[10:13]:
        g.play(f"hand {C(face)} to centre {({'H': 1, 'S': 2, 'D': 3}[face[-1]])}")


def test_a_short_stock_is_drawn_and_an_empty_one_draws_the_round() -> None:
    g = full_deal("KC", "2C", 40, SHORT_HAND, ["9C", "9C", "10C", "10C", "JC"], SHORT_STOCK)
    assert len(g.state.stock) == 14
    _play_short_stock(g, last=False)
    short = [e for e in g.events if e.kind == "draw"][-1]
    assert short.text == "seat 0 draws 4 cards (all the stock held; 5 were due)"
    assert g.state.stock == [] and not g.is_over
    g.play("hand 8♥ to centre 1")        # the hand empties, a refill is due and the stock is empty
    assert g.is_over and g.winner is None
    assert g.events[-1].text == "seat 0 must draw but the stock is empty: round 1 is a draw, no points"
    assert g.turns == 1 and g.state.results == [[-1, 0]] and g.state.scores == [0, 0]
    assert g.stats() == {"points": 0.0, "draw": 1.0, "rounds": 1.0}
    assert_conserved(g)


def test_the_round_is_drawn_when_a_turn_starts_without_stock() -> None:
    g = full_deal("KC", "2C", 40, SHORT_HAND, ["9C", "9C", "10C", "10C", "JC"], SHORT_STOCK)
    _play_short_stock(g, last=False)
    g.play("hand 8♥ to side 1")          # stock now empty; seat 1 holds 5 cards, so it needs no draw
    assert g.current_player == 1 and not g.is_over
    assert g.events[-1].text == "seat 1 to play"
    g.play("hand J♣ to side 1")          # seat 0 must draw 5 and cannot
    assert g.is_over and g.winner is None and g.turns == 2
    assert "round 1 is a draw" in g.events[-1].text


# ---------------------------------------------------------------------------------------------- who starts
def test_the_higher_payoff_card_starts() -> None:
    g = stacked(["5C"], ["9S"], ["AH", "2H", "3H", "4H", "6H"], ["AD", "2D", "3D", "4D", "6D"])
    assert g.current_player == 1 and g.state.shuffles == 0
    seat0 = stacked(["5C"], ["9S"], ["AH", "2H", "3H", "4H", "6H"], ["AD", "2D", "3D", "4D", "6D"], first="seat0")
    assert seat0.current_player == 0 and seat0.state.opening == "seat 0 starts (option first='seat0')"


def test_equal_payoff_cards_reshuffle_both_piles() -> None:
    p0, p1 = ["7H", "2C", "9C", "JD"], ["7S", "4D", "QD", "3S"]
    g = stacked(p0, p1, ["AH", "2H", "3H", "4H", "6H"], ["AD", "2D", "3D", "4D", "6D"])
    s = g.state
    assert s.shuffles >= 1 and s.opening.startswith("payoff tops 7♥ and 7♠ tie: both payoff piles are reshuffled")
    assert sorted(s.payoff[0]) == sorted(cards(p0)) and sorted(s.payoff[1]) == sorted(cards(p1))
    top0, top1 = s.payoff[0][-1], s.payoff[1][-1]
    assert top0.rank != top1.rank
    assert g.current_player == (0 if top0.rank > top1.rank else 1)
    assert s.opening.endswith(f"beats {min(top0, top1, key=lambda c: c.rank)}")
    tie_seat0 = stacked(p0, p1, ["AH", "2H", "3H", "4H", "6H"], ["AD", "2D", "3D", "4D", "6D"], first="seat0")
    assert tie_seat0.state.shuffles == 0 and tie_seat0.state.payoff[0][-1] == C("7H")


def test_a_tie_that_no_reshuffle_can_break_lets_seat_0_start() -> None:
    g = stacked(["7H"], ["7S"], ["AH", "2H", "3H", "4H", "6H"], ["AD", "2D", "3D", "4D", "6D"])
    assert g.current_player == 0 and "no reshuffle can break the tie" in g.state.opening


def test_later_rounds_log_the_tie_rule() -> None:
    found = None
    for seed in range(30):
        g = cardlab.new_game(GAME, seed=seed, match=True, payoff_size=4, target=12)
        play_greedy(g)
        found = next((e for e in g.events if e.kind == "deal" and "tie" in e.text), None)
        if found:
            break
    assert found is not None, "no redeal with tied payoff tops in 30 seeded matches"
    assert "both payoff piles are reshuffled" in found.text


# ---------------------------------------------------------------------------------------------- scoring and match
def _win_scenario(**options: Any) -> SpiteMalice:
    """Seat 1 starts (King beats Ace), plays its King and discards; seat 0 then plays out its 3-card payoff."""
    g = stacked(["AH", "2H", "3H"], ["KS", "QS", "JS"], ["9C", "9C", "10C", "10C", "8C"],
                ["9D", "9D", "10D", "10D", "8D"], **options)
    assert g.current_player == 1
    g.play("payoff to centre 1")
    g.play("hand 8♦ to side 1")
    g.play("payoff to centre 2")
    g.play("payoff to centre 1")
    g.play("payoff to centre 1")
    return g


def test_the_winner_scores_the_cards_left_in_the_opponents_payoff_pile() -> None:
    g = _win_scenario()
    assert g.is_over and g.winner == 0
    assert g.state.payoff[1] == cards(["JS", "QS"]) and g.state.scores == [2, 0]
    assert g.state.results == [[0, 2]] and g.turns == 2
    assert g.events[-1].text == ("seat 0 plays the last payoff card and wins round 1: 2 points "
                                 "(the cards left in seat 1's payoff pile)")
    assert g.stats() == {"points": 2.0, "draw": 0.0, "rounds": 1.0}
    assert g.legal_moves() == []


def test_the_match_ends_when_a_player_reaches_the_target() -> None:
    g = _win_scenario(match=True, target=2)
    assert g.is_over and g.winner == 0 and g.state.round == 1
    assert g.events[-1].text == "seat 0 reaches 2 points and wins the match, 2 to 0"


def test_a_match_below_the_target_deals_another_round_and_plays_to_the_end() -> None:
    g = _win_scenario(match=True, target=9)
    assert not g.is_over and g.state.round == 2 and g.state.scores == [2, 0]
    assert g.events[-1].kind == "deal" and g.events[-1].text.startswith("round 2 dealt (scores 2 to 0)")
    assert g.state.centre == [[], [], []] and all(len(p) == 3 for p in g.state.payoff)
    assert_conserved(g)
    play_greedy(g)
    s = g.state
    assert g.is_over and g.winner is not None and s.scores[g.winner] >= 9 > s.scores[1 - g.winner]
    for seat in (0, 1):
        assert sum(points for w, points in s.results if w == seat) == s.scores[seat]
    assert all(points > 0 for w, points in s.results if w >= 0)
    assert s.round == len(s.results)
    assert g.stats()["points"] == s.scores[g.winner]


def test_a_drawn_round_scores_nothing_and_the_match_goes_on() -> None:
    g = full_deal("KC", "2C", 40, SHORT_HAND, ["9C", "9C", "10C", "10C", "JC"], SHORT_STOCK, match=True)
    _play_short_stock(g, last=True)
    assert not g.is_over and g.state.round == 2 and g.state.scores == [0, 0]
    assert g.state.results == [[-1, 0]]
    assert [e.kind for e in g.events[-2:]] == ["round-drawn", "deal"]
    assert_conserved(g)


def test_the_round_cap_ends_an_endless_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spite_malice, "MAX_MATCH_ROUNDS", 1)
    drawn = full_deal("KC", "2C", 40, SHORT_HAND, ["9C", "9C", "10C", "10C", "JC"], SHORT_STOCK, match=True)
    _play_short_stock(drawn, last=True)
    assert drawn.is_over and drawn.winner is None
    assert drawn.events[-1].text == "the match stops after 1 rounds: a draw, 0 to 0"
    won = _win_scenario(match=True, target=9)
    assert won.is_over and won.winner == 0
    assert won.events[-1].text == "the match stops after 1 rounds: won by seat 0, 2 to 0"


# ---------------------------------------------------------------------------------------------- moves and errors
def test_same_faces_give_one_move_and_ascii_spellings_work() -> None:
    g = stacked(["KC"], ["2S"], ["AH", "AH", "10S", "10S", "3C"], ["9D", "9D", "8D", "8D", "7D"])
    texts = [m.text for m in g.legal_moves()]
    assert len(texts) == len(set(texts))
    assert texts.count("hand A♥ to centre 1") == 1 and texts.count("hand A♥ to side 1") == 1
    g.play("hand ah to center 1")
    assert g.moves[-1].text == "hand A♥ to centre 1"
    # one of the two A♥ went (which one is the rules' hidden draw), the other stays in the hand
    assert [c.face for c in g.state.centre[0]] == [C("AH").face]
    assert sorted([*g.state.centre[0], *(c for c in g.state.hands[0] if c.face == C("AH").face)]) == \
        sorted([C("AH"), C("AH:1")])
    g.play("Hand TS to Side 2")
    assert g.moves[-1].text == "hand 10♠ to side 2"


BAD_MOVES = [
    ("hand A♥ to centre 4", "there are only 3 centre piles (centre 1 to centre 3)"),
    ("side 1 to centre 0", "there are only 3 centre piles"),
    ("hand A♥ to side 5", "each player has only 4 side piles (side 1 to side 4)"),
    ("side 5 to centre 1", "each player has only 4 side piles"),
    ("payoff to side 1", "only a hand card may go to a side pile"),
    ("side 2 to centre 1", "seat 0's side 2 is empty"),
    ("hand 9♣ to centre 1", "seat 0 holds no 9♣ (hand: A♥, 2♥, 3♥, 4♥, 6♥)"),
    ("hand ZZ to centre 1", "'zz' is not a card"),
    ("hand 6♥ to centre 1", "6♥ cannot start centre 1: an empty pile starts with an Ace (or a King)"),
    ("payoff to centre 1", "the payoff top Q♣ cannot start centre 1"),
    ("fly to the moon", "moves read 'payoff to centre 1'"),
    ("hand AH:1 to centre 1", "a move names a face, not a pack: write 'hand A♥ to centre 1'"),
    ("hand 2h:0 to side 3", "a move names a face, not a pack: write 'hand 2♥ to side 3'"),
]


@pytest.mark.parametrize(("text", "reason"), BAD_MOVES)
def test_bad_moves_get_a_clear_error_and_change_nothing(text: str, reason: str) -> None:
    g = stacked(["QC"], ["2S"], ["AH", "2H", "3H", "4H", "6H"], ["9D", "9D", "8D", "8D", "7D"])
    before = snapshot(g)
    with pytest.raises(cardlab.IllegalMoveError) as info:
        g.play(text)
    assert repr(text) in str(info.value) and reason in str(info.value)
    assert snapshot(g) == before
    assert_conserved(g)


def test_a_card_that_does_not_fit_names_the_value_needed() -> None:
    g = stacked(["QC"], ["2S"], ["AH", "2H", "3H", "4H", "6H"], ["9D", "9D", "8D", "8D", "7D"])
    g.play("hand A♥ to centre 1")
    with pytest.raises(cardlab.IllegalMoveError, match="does not fit centre 1, which needs 2 \\(or a King\\)"):
        g.play("hand 6♥ to centre 1")


# ---------------------------------------------------------------------------------- moves name faces, not copies
def test_a_move_names_the_face_and_the_engine_moves_the_copy_held() -> None:
    """The hand holds A♥ only as the second pack's copy: the move's card is the face (pack 0), and
    playing it moves the physical card the hand holds."""
    g = stacked(["KC"], ["2S"], ["AH:1", "3S", "10S", "QD:1", "QD"], ["9D", "9D", "8D", "8D", "7D"])
    assert C("AH:1") in g.state.hands[0] and C("AH") not in g.state.hands[0]
    ace = g.parse_move("hand A♥ to centre 1")
    assert spite_malice.hand_card(ace) == C("AH") and ace in g.legal_moves()
    queens = [m for m in g.legal_moves() if m.text == "hand Q♦ to side 1"]
    assert [m.cards() for m in queens] == [(C("QD"),)]  # both copies in hand: one move, naming the face
    copied = dataclasses.replace(spite_malice.spite_move(ace), card=C("AH:1"))  # a Move naming the copy
    assert g.parse_move(copied) == ace and g.parse_move(copied).cards() == (C("AH"),)
    g.play(ace)
    assert g.state.centre[0] == [C("AH:1")] and all(c.face != C("AH").face for c in g.state.hands[0])
    assert_conserved(g)


def _copy_free(move: Move) -> tuple[str, str, Any, int, int]:
    """What a move says once copies are forgotten: two legal moves equal here differ only by copy."""
    m = spite_malice.spite_move(move)
    return (m.kind, m.text.lower(), None if m.card is None else m.card.face, m.side, m.centre)


FACE_GAMES: list[tuple[int, dict[str, Any], tuple[str, str]]] = [
    (40, {}, ("greedy", "greedy")),
    (41, {"completed_to": "shuffle"}, ("greedy", "uninformed")),
    (42, {"payoff_size": 8, "match": True, "target": 10}, ("greedy", "greedy")),
    (43, {"refill_on_empty": False, "king_starts_pile": False}, ("uninformed", "random")),
    (44, {"first": "seat0", "payoff_size": 5}, ("random", "greedy")),
]


def test_every_policy_facing_move_names_faces_and_no_two_differ_only_by_copy() -> None:
    """Over seeded games (every option, every built-in policy), each legal move, and what parse_move
    returns for its text, its ASCII spelling or a Move naming the other copy, carries only first-pack
    cards; no two legal moves differ only by copy. Not vacuous: many positions offer a hand move whose
    face the hand holds only as the second pack's copy (a move that named the copy held would leak it)."""
    second_only = 0
    for seed, options, names in FACE_GAMES:
        g = cardlab.new_game(GAME, seed=seed, **options)
        rng = np.random.default_rng(seed)
        policies = [make_policy(name, GAME, rng) for name in names]
        while not g.is_over and g.move_count < 500:
            legal = g.legal_moves()
            assert len({_copy_free(m) for m in legal}) == len(legal)
            hand = g.state.hands[g.current_player]
            for m in legal:
                assert all(c.pack == 0 for c in m.cards()), m
                asked: list[Move | str] = [m, m.text]
                card = spite_malice.spite_move(m).card
                if card is not None:
                    held = [c.pack for c in hand if c.face == card.face]
                    second_only += held == [1]
                    asked += [m.text.replace(str(card), f"{card.rank.label}{card.suit.letter}"),
                              dataclasses.replace(spite_malice.spite_move(m), card=Card(card.rank, card.suit, 1))]
                for a in asked:
                    parsed = g.parse_move(a)
                    assert parsed == m and all(c.pack == 0 for c in parsed.cards()), (a, parsed)
            g.play(choose(policies[g.current_player], g))
    assert second_only > 200


def _copy_twins(seed: int, size: int) -> tuple[list[Card], list[Card]]:
    """Two full deals (top of the deck first, in the stacked-deck order) that differ only in where the two
    copies of one face lie: one in a hand, the other hidden (under a payoff top on even seeds when one is
    there, else in the stock); the deal with the second pack's copy in the hand comes first."""
    deck = shuffled_deck(2, Dealer(seed).deal())
    hands = range(2 * size, 2 * size + 2 * spite_malice.HAND_SIZE)
    under_tops = [i for i in range(2 * size) if i not in (0, size)]
    where = {c: i for i, c in enumerate(deck)}
    pairs = [(i, where[Card(deck[i].rank, deck[i].suit, 1 - deck[i].pack)]) for i in hands]
    pairs = [(i, j) for i, j in pairs if j not in hands and j not in (0, size)]
    under = [(i, j) for i, j in pairs if j in under_tops]
    stock = [(i, j) for i, j in pairs if j not in under_tops]
    i, j = ((under or stock) if seed % 2 == 0 else (stock or under))[0]
    other = list(deck)
    other[i], other[j] = deck[j], deck[i]
    return (deck, other) if deck[i].pack == 1 else (other, deck)


def _what_policies_see(deck: Sequence[Card], seed: int, size: int, options: dict[str, Any],
                       names: tuple[str, str], moves: int) -> tuple[Any, SpiteMalice, list[tuple[Any, list[Move]]]]:
    """Play ``deck`` with recording policies for ``moves`` moves: the dealt position, the game, and each view
    and legal list a policy received."""
    g = cardlab.new_game(GAME, seed=seed, deck=list(deck), payoff_size=size, **options)
    assert isinstance(g, SpiteMalice)
    dealt = g.state.to_data()
    rng = np.random.default_rng(seed)
    seen: list[tuple[Any, list[Move]]] = []

    def recording(name: str) -> Any:
        inner = make_policy(name, GAME, rng)

        def policy(view: Any, legal: Sequence[Move]) -> Move | str:
            seen.append((view, list(legal)))
            return inner(view, legal)
        return policy

    policies = [recording(name) for name in names]
    while not g.is_over and g.move_count < moves:
        g.play(choose(policies[g.current_player], g))
    return dealt, g, seen


@pytest.mark.parametrize("completed_to", ["bottom", "shuffle"])
def test_copy_twin_worlds_offer_policies_identical_legal_moves(completed_to: str) -> None:
    """Two deals differing only by which copy of a face sits in a hand and which in a hidden pile (under a
    payoff top, or in the stock): every policy receives the same views and the same legal moves, Move
    fields included, in both. With a move naming the copy held, the first hand move of that face differs."""
    mixes = [("greedy", "greedy"), ("uninformed", "greedy"), ("greedy", "random"), ("uninformed", "uninformed")]
    for seed in range(12):
        size = (20, 8, 12)[seed % 3]
        a, b = _copy_twins(seed, size)
        names = mixes[seed % len(mixes)]
        dealt_a, ga, seen_a = _what_policies_see(a, seed, size, {"completed_to": completed_to}, names, 160)
        dealt_b, gb, seen_b = _what_policies_see(b, seed, size, {"completed_to": completed_to}, names, 160)
        assert dealt_a != dealt_b  # the physical deals differ ...
        assert [m.text for m in ga.moves] == [m.text for m in gb.moves]
        assert len(seen_a) == len(seen_b) and seen_a == seen_b  # ... the policies cannot tell them apart
        twin = next(c for c, d in zip(a, b, strict=True) if c != d)
        offered = [m for _, legal in seen_a for m in legal if m.cards() and m.cards()[0].face == twin.face]
        assert offered, f"seed {seed}: the twin face {twin} was never offered to a policy"


@pytest.mark.parametrize(("option", "value", "accepted"), [
    ("payoff_size", 0, "from 1 to 40"), ("payoff_size", 41, "from 1 to 40"), ("payoff_size", True, "from 1 to 40"),
    ("payoff_size", "20", "from 1 to 40"), ("completed_to", "top", "'bottom' or 'shuffle'"),
    ("first", "lower", "'higher' or 'seat0'"), ("target", 0, "from 1 up"), ("match", "yes", "True or False"),
    ("king_starts_pile", 1, "True or False"), ("refill_on_empty", None, "True or False"),
])
def test_bad_options_are_refused(option: str, value: Any, accepted: str) -> None:
    with pytest.raises(cardlab.InvalidInputError) as info:
        cardlab.new_game(GAME, seed=0, **{option: value})
    assert f"{option}={value!r}" in str(info.value) and accepted in str(info.value)


def test_helpers_refuse_a_seat_that_does_not_exist() -> None:
    g = cardlab.new_game(GAME, seed=0)
    assert isinstance(g, SpiteMalice)
    with pytest.raises(cardlab.InvalidInputError, match="seat 2 does not exist"):
        g.unseen_cards(2)


# ---------------------------------------------------------------------------------------------- views
def test_observe_shows_what_each_seat_may_see() -> None:
    g = stacked(["QC", "2C"], ["5S", "6S"], ["AH", "2H", "KS", "4H", "6H"], ["9D", "9D", "8D", "8D", "7D"])
    g.play("hand A♥ to centre 1")
    g.play("hand K♠ to centre 1")
    g.play("hand 6♥ to side 3")
    own, table, other = g.observe(0), g.observe(None), g.observe(1)
    assert own.hand is not None and C("2H") in own.hand and len(own.hand) == 2
    assert table.hand is None and other.hand == tuple(faces_of(g.state.hands[1]))
    assert all(c.pack == 0 for c in other.hand)  # a view shows faces: which pack a card is from is hidden
    assert own.hand_sizes == table.hand_sizes == (2, 5)
    assert own.payoff_tops == (C("QC"), C("5S")) and own.payoff_sizes == (2, 2)
    assert own.sides[0][2] == (C("6H"),) and own.sides[1] == ((), (), (), ())
    assert own.centre[0] == (C("AH"), C("KS")) and own.centre_values == (2, 0, 0) and own.centre_kings[0] == (2,)
    assert own.needed == (3, 1, 1) and own.fits(C("3D"), 1) and not own.fits(C("3D"), 2)
    assert own.stock_size == 104 - 4 - 10 - 0 and own.turn == 1 and own.to_move == 1
    assert g.unseen_counts(1) == {"stock": own.stock_size, "payoff": 2, "hands": 2}
    assert len(g.unseen_cards(None)) == own.stock_size + 2 + 2 + 5


# ---------------------------------------------------------------------------------------------- knowledge
def _segment_position(mode: str) -> tuple[SpiteMalice, set[Card]]:
    """Seat 0 completes A..Q of hearts, plays A-3 of spades, and refills 5: 4 never-seen stock cards and
    1 card of the completed pile (under 'bottom'), leaving 11 known cards in the stock."""
    seq = [*HEARTS, "AS", "2S", "3S"]
    g = full_deal("KC", "2C", 40, seq[:5], ["9C", "9C", "10C", "10C", "JC"], seq[5:], completed_to=mode)
    play_hand(g, HEARTS, 1)
    play_hand(g, ["AS", "2S", "3S"], 2)
    assert len(g.state.hands[0]) == 5 and len(g.state.stock) == 11
    return g, set(cards(HEARTS))


def test_bottom_mode_knows_the_completed_pile_in_the_stock() -> None:
    g, pile = _segment_position("bottom")
    s = g.state
    assert g.observe(1).stock_layers == ((1, 1, 11),)
    assert sorted(s.hand_marks[0]) == [[0, 0]] * 4 + [[1, 1]]
    held = [c for c in s.hands[0] if c in pile]
    assert len(held) == 1
    for viewpoint in (1, None):
        chances = g.next_draw_chances(viewpoint)
        assert set(chances) == pile and set(chances.values()) == {Fraction(1, 12)}
    own = g.next_draw_chances(0)
    assert set(own) == pile - set(held) and set(own.values()) == {Fraction(1, 11)}

    rng = np.random.default_rng(5)
    view = g.observe(1)
    hand_counts: Counter[Card] = Counter()
    n = 2400
    for _ in range(n):
        r = g.resample(1, rng)
        rs = r.state
        assert r.observe(1) == view
        assert set(rs.stock) <= pile
        in_hand = [c for c in rs.hands[0] if c in pile]
        assert len(in_hand) == 1
        assert not pile & {c for p in rs.payoff for c in p}
        hand_counts[in_hand[0]] += 1
    # each of the 12 pile cards is the one in seat 0's hand with chance 1/12
    for card in pile:
        est = wilson(hand_counts[card], n, z=Z999)
        assert est.contains(1 / 12), (card, est)
    mine = g.resample(0, rng)
    assert mine.state.hands[0] == s.hands[0] and Counter(mine.state.stock) == Counter(s.stock)


def test_shuffle_mode_keeps_seen_cards_out_of_payoff_piles_and_early_hands() -> None:
    g, pile = _segment_position("shuffle")
    s = g.state
    assert g.observe(1).stock_layers == ((0, 1, 11),)
    assert sorted(s.hand_marks[0]) == [[0, 1]] * 5 and s.hand_marks[1] == [[0, 0]] * 5
    chances = g.next_draw_chances(1)
    assert sum(chances.values()) == 1
    # 16 places accept a pile card (seat 0's 5 fresh draws and the 11 stock cards): 12/16 that the top is one
    law = g.chance_law(1)
    pile_group = [i for i, grp in enumerate(law.groups) if set(grp.cards) == pile]
    assert len(pile_group) == 1 and law.group_chances(len(law.names) - 1)[pile_group[0]] == Fraction(3, 4)
    rng = np.random.default_rng(9)
    view0, view1 = g.observe(0), g.observe(1)
    n = 2000
    top_is_pile = 0
    def seen(st: Any, where: list[Card]) -> list[Card]:
        """The cards of ``where`` that the resampled position's own bookkeeping says were in the pile (label 1;
        by identity a copy may differ: seat 0 cannot tell which copy of a pile face it drew)."""
        return [c for c in where if st.labels[c.id] == 1]

    for _ in range(n):
        r0 = g.resample(0, rng)
        assert r0.observe(0) == view0
        assert sorted(c.face for c in full_deck(2) if r0.state.labels[c.id] == 1) == sorted(c.face for c in pile)
        assert not seen(r0.state, r0.state.hands[1]) and not seen(r0.state, [c for p in r0.state.payoff for c in p])
        r1 = g.resample(1, rng)
        assert r1.observe(1) == view1
        assert not seen(r1.state, [c for p in r1.state.payoff for c in p])
        top_is_pile += bool(seen(r1.state, r1.state.stock[-1:]))
    assert wilson(top_is_pile, n, z=Z999).contains(0.75)


def test_next_draw_chances_after_two_ties_leave_the_tied_cards_out() -> None:
    """Seed 1958 opens with two ties, one of them both copies of one face, and neither payoff top then shares a
    face with a tied card: the four tied cards are known to be in the payoff piles, so the first stock card is
    uniform over the cards never seen, counted here by faces. (Where a top shares a tied card's face, which copy
    it is stays unknown: tests/games/spite_malice/test_copy_mixture.py.)"""
    g = cardlab.new_game(GAME, seed=1958)
    assert isinstance(g, SpiteMalice) and g.state.opening.count("tie") == 2
    tied = [c for c in full_deck(2) if g.state.labels[c.id] in TIE_LABEL]
    both = {c.face for c in tied if sum(t.face == c.face for t in tied) == 2}
    assert len(tied) == 4 and len(both) == 1
    assert not {p[-1].face for p in g.state.payoff} & {c.face for c in tied}
    for viewpoint in (0, None):
        # the cards this viewer has seen: both payoff tops, the tied cards and, for seat 0, its hand
        cards = {g.state.payoff[0][-1], g.state.payoff[1][-1], *tied, *(g.state.hands[0] if viewpoint == 0 else ())}
        seen = Counter(c.face for c in cards)
        never = Counter({c.face: 2 for c in full_deck(1)}) - seen
        chances = g.next_draw_chances(viewpoint)
        total = sum(never.values())
        assert total == 104 - len(cards)
        assert {c.face: p for c, p in chances.items()} == {f: Fraction(k, total) for f, k in never.items()}
        assert not both & {c.face for c in chances}   # both copies of that face were seen as tied tops


# ---------------------------------------------------------------------------------------------- greedy bot
def arrange(g: SpiteMalice, centre: list[list[str]], sides0: list[list[str]]) -> SpiteMalice:
    """Move named cards from the stock onto centre piles and seat 0's side piles (a fresh deal only)."""
    s = g.state
    for pile, faces in zip(s.centre + s.sides[0], centre + sides0, strict=True):
        for face in faces:
            card = next(c for c in reversed(s.stock) if c.face == C(face).face)
            s.stock.remove(card)
            s.stock_parts[0][2] -= 1
            pile.append(card)
    assert_conserved(g)
    return g


def greedy_move(g: SpiteMalice) -> str:
    return greedy_spite_malice(g.observe(g.current_player), g.legal_moves()).text


def bot_game(payoff_top: str, hand: list[str], centre: list[list[str]], sides0: list[list[str]]) -> SpiteMalice:
    g = stacked([payoff_top], ["2S"], hand, ["9D", "9D", "8D", "8D", "7D"], stock=[])
    return arrange(g, centre, sides0)


def test_greedy_plays_the_payoff_top_first() -> None:
    g = bot_game("3C", ["3H", "QH", "AD", "9C", "9C"], [["AH"], ["AS", "2S"], []], [["2C"], [], [], []])
    assert greedy_move(g) == "payoff to centre 2"


def test_greedy_plays_side_tops_before_hand_cards_toward_the_payoff() -> None:
    # payoff 7: centre 1 (at 5) is 1 away, centre 3 (at 2) 4 away; side 2's 6 fits centre 1
    g = bot_game("7C", ["3H", "6D", "KH", "9C", "9C"], [["AH", "2H", "3H", "4H", "5H"], [], ["AS", "2S"]],
                 [["QC"], ["6S"], [], []])
    assert greedy_move(g) == "side 2 to centre 1"
    g = bot_game("7C", ["3D", "6D", "KH", "9C", "9C"], [["AH", "2H", "3H", "4H", "5H"], [], ["AS", "2S"]],
                 [["QC"], [], [], []])
    assert greedy_move(g) == "hand 6♦ to centre 1"


def test_greedy_keeps_kings_unless_they_reach_the_payoff() -> None:
    far = bot_game("9C", ["KH", "QD", "JD", "JD", "10S"], [["AH", "2H", "3H"], [], []], [[], [], [], []])
    assert greedy_move(far).startswith("hand Q♦ to side")
    near = bot_game("9C", ["KH", "QD", "JD", "JD", "10S"], [["AH", "2H", "3H", "4H", "5H", "6H", "7H"], [], []],
                    [[], [], [], []])
    assert greedy_move(near) == "hand K♥ to centre 1"
    two_kings = bot_game("9C", ["KH", "KD", "JD", "JD", "10S"], [["AH", "2H", "3H", "4H", "5H", "6H"], [], []],
                         [[], [], [], []])
    assert greedy_move(two_kings) == "hand K♥ to centre 1"


def test_greedy_discards_to_keep_side_piles_descending() -> None:
    g = bot_game("9C", ["QD", "7D", "4S", "9S", "KH"], [[], [], []], [["8C"], ["JC"], [], ["2C"]])
    assert greedy_move(g) == "hand 7♦ to side 1"
    g = bot_game("9C", ["QD", "6D", "4S", "10S", "KH"], [[], [], []], [["8C"], ["JC"], [], ["2C"]])
    assert greedy_move(g) == "hand 10♠ to side 2"
    kings = bot_game("9C", ["KD", "KD", "KH", "KH", "KS"], [[], [], []], [["8C"], [], [], []])
    assert greedy_move(kings) == "hand K♠ to side 2"


def play_greedy(g: cardlab.Game[Any], seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    bots = [make_policy("greedy", GAME, rng)] * 2
    for _ in range(200_000):
        if g.is_over:
            return
        g.play(choose(bots[g.current_player], g))
    raise AssertionError("greedy play did not end")


def test_greedy_beats_random() -> None:
    result = cardlab.simulate(GAME, games=120, seed=3, policy=["greedy", "random"])
    decided = result.games - result.draws
    assert decided > 0
    assert wilson(float(result.wins[0]), decided, z=Z999).low > 0.5
    won = result.extras["draw"] == 0
    assert np.all(result.extras["points"][won] >= 1) and np.all(result.extras["points"][~won] == 0)


# ------------------------------------------------------------------------------------- engine checks in long play
@pytest.mark.parametrize("mode", ["bottom", "shuffle"])
def test_greedy_matches_conserve_undo_replay_and_hide(mode: str) -> None:
    """Greedy play completes many piles, which random play rarely does: check every engine promise there."""
    g = cardlab.new_game(GAME, seed=21, match=True, target=15, payoff_size=10, completed_to=mode)
    rng = np.random.default_rng(21)
    bots = [make_policy("greedy", GAME, rng)] * 2
    while not g.is_over:
        move = choose(bots[g.current_player], g)
        before = snapshot(g)
        g.play(move)
        assert_conserved(g)
        if g.move_count % 5 == 0:
            after = snapshot(g)
            g.undo()
            assert snapshot(g) == before
            g.play(move.text)
            assert snapshot(g) == after
        if g.move_count % 7 == 0:
            for viewpoint in (None, 0, 1):
                view = g.observe(viewpoint)
                r = g.resample(viewpoint, rng)
                assert_conserved(r)
                assert r.observe(viewpoint) == view
    assert sum(e.kind == "complete" for e in g.events) >= 10 and g.state.round >= 3
    back = cardlab.load_game(g.to_json())
    assert back.state.to_data() == g.state.to_data()
    assert [e.text for e in back.events] == [e.text for e in g.events]
    assert json.loads(back.to_json()) == json.loads(g.to_json())
