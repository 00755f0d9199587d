"""Shithead (Palace): one scenario per rule, from stacked decks and crafted positions.

Two ways to set a scene:
* ``dealt(...)`` stacks the deck (face-down cards, then 6-card hands, then the draw pile, whose first
  card is the starting card) and plays the set-up moves, so the whole game runs through the engine.
* ``position(...)`` loads a record whose dealt position is written out card by card; it is used for the
  end of the game (empty draw pile), which a stacked deck would need dozens of moves to reach. Cards not
  named are put out of play. ``load_game`` checks that every card is there exactly once.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card, Rank, faces, parse_cards
from cardlab.chance.stats import wilson
from cardlab.engine.game import RECORD_FORMAT, RECORD_VERSION
from cardlab.games.shithead import Shithead, ShitheadState, power
from cardlab.games.shithead.bot import greedy_shithead
from cardlab.games.shithead.rules import HOUSE_RULES, PILE_RANKS, House, fit_table
from cardlab.games.shithead.table import draw as draw_table
from tests.conformance import assert_conserved, snapshot


def dealt(hands: Sequence[Sequence[str]], ups: Sequence[Sequence[str]], downs: Sequence[Sequence[str]],
          draw: Sequence[str], **options: Any) -> Shithead:
    """A stacked deal: each seat's 6-card hand is ``hands[p] + ups[p]``; the set-up puts ``ups[p]`` face up."""
    players = len(hands)
    deck = [c for d in downs for c in d]
    deck += [c for p in range(players) for c in list(hands[p]) + list(ups[p])]
    deck += list(draw)
    g = cardlab.new_game("shithead", players=players, seed=1, deck=deck, **options)
    assert isinstance(g, Shithead)
    for p in range(players):
        for face in ups[p]:
            assert g.current_player == p
            g.play(f"face up {face}")
    assert g.state.phase == "play"
    return g


def position(hands: Sequence[Sequence[str]], ups: Sequence[Sequence[str]],
             downs: Sequence[Sequence[str | None]], pile: Sequence[str], draw: Sequence[str] = (),
             to_move: int = 0, known: Sequence[Sequence[str]] | None = None, **options: Any) -> Shithead:
    """A play-phase position loaded from a record; ``draw`` is listed top card first."""
    players = len(hands)
    probe = cardlab.new_game("shithead", players=players, seed=0)
    named = [c for group in (*hands, *ups, pile, draw) for c in group]
    named += [c for d in downs for c in d if c is not None]
    used = parse_cards(named)
    assert len(set(used)) == len(used), "a crafted position names a card twice"
    state = ShitheadState(
        hands=[sorted(parse_cards(h), key=power) for h in hands], face_up=[parse_cards(u) for u in ups],
        face_down=[[None if c is None else Card.parse(c) for c in d] for d in downs],
        known=[parse_cards(k) for k in known] if known else [[] for _ in range(players)],
        draw=parse_cards(draw)[::-1], pile=parse_cards(pile), out=[c for c in probe.all_cards() if c not in used],
        to_move=to_move, phase="play", turn=0, ranking=[], blind_plays=0, blind_fits=0, pickups=0, burns=0,
        clears=0, stopped=False, shuffles=0, over=False, winner=None, beliefs=((),) * players)
    record = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": "shithead", "players": players,
              "options": options, "shuffle_key": 5, "initial": state.to_data(), "moves": []}
    g = cardlab.load_game(json.dumps(record))
    assert isinstance(g, Shithead)
    return g


def texts(g: cardlab.Game[Any]) -> list[str]:
    return [m.text for m in g.legal_moves()]


def cards(*codes: str) -> list[Card]:
    return parse_cards(codes)


def refused(g: cardlab.Game[Any], text: str, *fragments: str) -> None:
    """``text`` is refused with a message quoting it and giving the specific reason; nothing changes."""
    before = snapshot(g)
    with pytest.raises(cardlab.IllegalMoveError) as info:
        g.play(text)
    message = str(info.value)
    assert repr(text) in message
    for fragment in fragments:
        assert fragment in message, message
    assert snapshot(g) == before


# A standard 2-player deal; tests override the parts they need.
DOWN_2 = [["4C", "4D", "4H"], ["5C", "5D", "5H"]]


# ---------------------------------------------------------------------- set-up and the starting card
def test_setup_is_three_face_up_moves_per_player_in_seat_order() -> None:
    g = cardlab.new_game("palace", players=3, seed=4)
    assert g.name == "shithead" and g.packs == 2
    order = []
    while g.state.phase == "setup":
        order.append(g.current_player)
        moves = g.legal_moves()
        assert all(m.kind == "setup" for m in moves)
        assert len({m.text for m in moves}) == len(moves)
        g.play(moves[-1])
    assert order == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    for p in range(3):
        assert len(g.state.face_up[p]) == 3 and len(g.state.hands[p]) == 3
    assert len(g.state.pile) == 1 or g.state.out  # the starting card is on the pile, or burned if a 10
    assert_conserved(g)
    assert g.turns == 0


def test_set_up_moves_name_faces_and_the_hand_puts_up_its_first_copy() -> None:
    """With two packs a set-up move's card is the face (pack 0) whichever copy the hand holds, no two moves
    differ only by copy, and the card put up is the hand's first card of that face in hand order. Not
    vacuous: some set-up hands hold a face only as the second pack's copy."""
    second_only = 0
    for seed in range(30):
        g = cardlab.new_game("shithead", players=4, seed=seed)
        while g.state.phase == "setup":
            seat, moves = g.current_player, g.legal_moves()
            hand = list(g.state.hands[seat])
            assert all(c.pack == 0 for m in moves for c in m.cards())
            assert len({m.cards()[0].face for m in moves}) == len(moves)
            move = moves[seed % len(moves)]
            face = move.cards()[0].face
            held = [c for c in hand if c.face == face]
            second_only += [c.pack for c in held] == [1]
            assert g.parse_move(move.text) == move
            g.play(move)
            assert held[0] in g.state.face_up[seat] and held[0] not in g.state.hands[seat]
            assert_conserved(g)
    assert second_only > 0


def test_one_pack_for_two_players_two_packs_for_more() -> None:
    assert cardlab.new_game("shithead", players=2, seed=0).packs == 1
    for n in (3, 4, 5):
        g = cardlab.new_game("shithead", players=n, seed=0)
        assert g.packs == 2
        assert len(g.state.draw) == 104 - 9 * n


def test_starting_ten_burns_at_once_and_first_player_plays_anything() -> None:
    g = dealt([["3S", "6S", "7S"], ["8H", "9H", "JH"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["10C", "AS", "AH"])
    assert g.state.pile == [] and g.state.out == cards("10C")
    assert "the starting 10 burns at once" in " ".join(e.text for e in g.events)
    assert {"play 3", "play 6", "play 7"} <= set(texts(g))


def test_starting_two_lets_anything_follow() -> None:
    g = dealt([["3S", "6S", "7S"], ["8H", "9H", "JH"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["2C", "AS", "AH"])
    assert g.state.pile == cards("2C")
    assert texts(g) == ["play 3", "play 6", "play 7"]


def test_lowest3_option_starts_with_the_holder_of_the_lowest_card() -> None:
    ups = [["KS", "KH", "KD"], ["QS", "QH", "QD"]]
    g = dealt([["5S", "6S", "7S"], ["3H", "8H", "9H"]], ups, DOWN_2, ["JC"], first="lowest3")
    assert g.current_player == 1
    tie = dealt([["3S", "6S", "7S"], ["3H", "8H", "9H"]], ups, DOWN_2, ["JC"], first="lowest3")
    assert tie.current_player == 0  # both hold a 3: the lower seat starts
    no_three = dealt([["10S", "6S", "7S"], ["2H", "4S", "9H"]], ups, DOWN_2, ["JC"], first="lowest3")
    assert no_three.current_player == 1  # nobody holds a 3; the 4 is lowest, 2s and 10s do not count
    only_special = dealt([["2S", "10S", "2D"], ["10H", "2H", "10D"]], ups, DOWN_2, ["JC"], first="lowest3")
    assert only_special.current_player == 0
    default = dealt([["5S", "6S", "7S"], ["3H", "8H", "9H"]], ups, DOWN_2, ["JC"])
    assert default.current_player == 0


# ---------------------------------------------------------------------- plays
def test_playing_several_cards_of_one_rank_and_refilling_to_three() -> None:
    g = dealt([["7S", "7H", "7D"], ["8S", "9S", "JS"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["6S", "3C", "3D", "3H", "AC"])
    assert texts(g) == ["play 7", "play 7 x2", "play 7 x3"]
    draw_before = len(g.state.draw)
    g.play("play 7 x3")
    assert g.state.pile == cards("6S", "7S", "7H", "7D")
    assert g.run_length() == 3
    assert g.state.hands[0] == cards("3H", "3D", "3C")  # drawn back up to three (hands are kept sorted)
    assert len(g.state.draw) == draw_before - 3
    assert g.current_player == 1 and g.turns == 1
    draw_event = [e for e in g.events if e.kind == "draw"][-1]
    assert "3♣" not in draw_event.describe(1) and "3♣" in draw_event.describe(0)


def test_a_hand_above_three_cards_draws_nothing() -> None:
    g = dealt([["3S", "4S", "5S"], ["6H", "9H", "JH"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["AC", "7C", "7D"])
    assert texts(g) == ["pick up"]  # nothing fits on the A: a forced pick-up
    g.play("pick up")
    assert g.state.hands[0] == cards("3S", "4S", "5S", "AC")
    draw_before = len(g.state.draw)
    g.play("play 6")
    g.play("play A")  # seat 0 still holds 3 cards after this play: no draw
    assert len(g.state.hands[0]) == 3 and len(g.state.draw) == draw_before - 1  # only seat 1 drew


def test_a_two_resets_the_pile() -> None:
    g = dealt([["2S", "4S", "5S"], ["3H", "3D", "6H"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["JC", "7C", "7D"])
    assert texts(g) == ["play 2"]  # 4 and 5 are lower than the J; a 2 goes on anything
    g.play("play 2")
    assert g.top == Card.parse("2S")
    assert texts(g) == ["play 3", "play 3 x2", "play 6"]  # anything may follow a 2


def test_a_ten_burns_the_pile_and_the_same_player_plays_again() -> None:
    g = dealt([["10S", "4S", "5S"], ["3H", "3D", "6H"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["AC", "7C", "7D"])
    assert texts(g) == ["play 10"]
    g.play("play 10")
    assert g.state.pile == [] and g.state.out == cards("AC", "10S")
    assert_conserved(g)  # burned cards are out of play, never lost
    assert g.current_player == 0 and g.turns == 0  # still the same turn
    assert g.state.hands[0] == cards("4S", "5S", "7C")
    assert texts(g) == ["play 4", "play 5", "play 7"]  # any card on the empty pile
    g.play("play 4")
    assert g.current_player == 1 and g.turns == 1


def test_four_in_a_row_across_two_players_clears_and_the_next_player_plays_anything() -> None:
    g = dealt([["9S", "9H", "3S"], ["9D", "9C", "6H"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["8C", "4S", "5S", "AC", "AH"])
    g.play("play 9 x2")
    g.play("play 9 x2")
    assert g.state.pile == [] and g.state.out == cards("8C", "9S", "9H", "9D", "9C")
    assert_conserved(g)
    assert g.current_player == 0 and g.turns == 2
    assert "play 3" in texts(g)  # a 3 may start the empty pile
    assert any("4 cards of rank 9 in a row clear the pile" in e.text for e in g.events)


def test_four_kind_plays_again_option_gives_the_same_player_another_play() -> None:
    g = dealt([["9S", "9H", "3S"], ["9D", "9C", "6H"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["8C", "4S", "5S", "AC", "AH"], four_kind_plays_again=True)
    g.play("play 9 x2")
    g.play("play 9 x2")
    assert g.state.pile == []
    assert g.current_player == 1 and g.turns == 1
    assert g.observe(1).four_kind_plays_again


def test_four_twos_clear_too() -> None:
    g = dealt([["2S", "2H", "2D"], ["3H", "3D", "6H"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["2C", "4S", "5S", "7S"])
    g.play("play 2 x3")
    assert g.state.pile == [] and cards("2C", "2S", "2H", "2D") == g.state.out


def test_forced_pick_up_takes_the_whole_pile_and_makes_it_public() -> None:
    g = dealt([["3S", "4S", "5S"], ["JH", "6H", "9H"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["3C", "8C", "8D"])
    g.play("play 3")
    g.play("play J")
    assert texts(g) == ["pick up"]
    g.play("pick up")
    assert g.state.pile == []
    assert g.state.hands[0] == cards("3S", "3C", "4S", "5S", "8C", "JH")
    assert g.state.known[0] == cards("3S", "3C", "JH")
    assert g.observe(1).known[0] == tuple(cards("3S", "3C", "JH"))
    assert g.observe(1).hand_sizes[0] == 6
    assert g.current_player == 1 and g.turns == 3


# ---------------------------------------------------------------------- sources: hand, face up, face down
def test_hand_first_then_face_up_then_face_down() -> None:
    g = position(hands=[["10S"], ["6C"]], ups=[["10H"], ["7C"]], downs=[["QH", "3H", "5H"], ["9C", "9D", "9H"]],
                 pile=["8C"])
    assert texts(g) == ["play 10"]
    refused(g, "play face-up 10", "still holds 1 card(s) in hand", "once the hand is empty")
    refused(g, "play face-down card 1", "still holds 1 card(s) in hand")
    g.play("play 10")  # burns; seat 0 plays again, now from the face-up cards
    assert texts(g) == ["play face-up 10"]
    refused(g, "play 10", "has no cards in hand")
    refused(g, "play face-down card 2", "still has 1 face-up card(s)")
    g.play("play face-up 10")
    assert texts(g) == ["play face-down card 1", "play face-down card 2", "play face-down card 3"]
    refused(g, "play face-down card 4", "positions still there: 1, 2, 3")
    refused(g, "play 5", "play a face-down card blind")
    assert g.current_player == 0 and g.turns == 0


def test_a_blind_card_that_fits_is_played() -> None:
    g = position(hands=[[], ["4C", "6C", "7C"]], ups=[[], []], downs=[["QH", "3H", "5H"], ["9C", "9D", "9H"]],
                 pile=["8C"])
    g.play("play face-down card 1")
    assert g.events[0].text == "seat 0 turns Q♥ from face-down 1: it fits"
    assert g.state.pile == cards("8C", "QH")
    assert g.state.face_down[0] == [None, *cards("3H", "5H")]
    assert g.current_player == 1 and texts(g) == ["pick up"]
    assert g.stats()["blind_plays"] == 1 and g.stats()["blind_fits"] == 1
    assert g.observe(0).face_down == ((2, 3), (1, 2, 3))


def test_a_blind_card_that_does_not_fit_is_picked_up_with_the_pile() -> None:
    g = position(hands=[[], ["4C", "6C", "7C"]], ups=[[], []], downs=[["3H", "QH", "5H"], ["9C", "9D", "9H"]],
                 pile=["7S", "8C"])
    g.play("play face-down card 1")
    assert g.events[0].text == ("seat 0 turns 3♥ from face-down 1: it does not fit, seat 0 picks up the pile "
                                "with it (3 cards)")
    assert g.state.pile == []
    assert g.state.hands[0] == cards("3H", "7S", "8C")
    assert g.state.known[0] == cards("3H", "7S", "8C")
    assert g.current_player == 1 and g.turns == 1
    assert g.stats()["blind_plays"] == 1 and g.stats()["blind_fits"] == 0


def test_picked_up_cards_are_played_before_table_cards() -> None:
    g = position(hands=[[], ["4C", "6C", "7C"]], ups=[[], []], downs=[["3H", "QH", "5H"], ["9C", "9D", "9H"]],
                 pile=["7S", "8C"])
    g.play("play face-down card 1")  # does not fit: 3, 7 and 8 go to the hand
    g.play("play 4")
    assert texts(g) == ["play 7", "play 8"]  # not the face-down cards 2 and 3
    refused(g, "play face-down card 2", "still holds 3 card(s) in hand")
    # The same after a pick-up at the face-up stage.
    h = position(hands=[[], ["4C"]], ups=[["4S", "5S"], []], downs=[["QH", "3H", "5H"], ["9C", "9D", "9H"]],
                 pile=["KC"])
    assert texts(h) == ["pick up"]
    h.play("pick up")
    h.play("play 4")
    assert texts(h) == ["play K"]
    refused(h, "play face-up 5", "still holds 1 card(s) in hand")


def test_the_first_player_out_wins() -> None:
    g = position(hands=[[], ["4C", "6C"]], ups=[["9S"], []], downs=[[None, None, None], ["9C", "9D", "9H"]],
                 pile=["5C"])
    g.play("play face-up 9")
    assert g.is_over and g.winner == 0 and g.legal_moves() == []
    assert g.events[-1].text == "seat 0 is out of cards and wins"
    assert g.turns == 1 and g.state.ranking == [0]
    with pytest.raises(cardlab.IllegalMoveError, match="over"):
        g.play("play 4")


def test_going_out_with_a_ten_ends_the_game_without_another_play() -> None:
    g = position(hands=[["10S"], ["4C", "6C"]], ups=[[], []], downs=[[None, None, None], ["9C", "9D", "9H"]],
                 pile=["5C"])
    g.play("play 10")
    assert g.is_over and g.winner == 0 and g.state.out[-2:] == cards("5C", "10S")


def test_play_to_last_ranks_everyone_and_names_the_shithead() -> None:
    g = position(hands=[[], ["JS", "QS"], ["KS", "3S"]], ups=[["9S"], [], []],
                 downs=[[None, None, None], [None, None, None], [None, None, None]], pile=["5C"],
                 play_to_last=True)
    g.play("play face-up 9")
    assert not g.is_over and g.winner == 0 and g.current_player == 1
    g.play("play J")
    g.play("play K")
    assert g.current_player == 1  # seat 0 is out and skipped
    g.play("pick up")  # Q does not fit on the K
    g.play("play 3")  # seat 2 goes out: seat 1 is the last with cards
    assert g.is_over and g.state.ranking == [0, 2, 1] and g.winner == 0
    assert g.events[-1].text == "seat 1 is the last with cards: the shithead"


def test_safety_rule_declares_a_draw_after_max_turns() -> None:
    g = cardlab.new_game("shithead", players=3, seed=2, max_turns=3)
    while not g.is_over:
        g.play(greedy_shithead(g.observe(g.current_player), g.legal_moves()))
    assert g.turns == 3 and g.winner is None and g.state.stopped
    assert g.events[-1].kind == "stopped" and "declared drawn" in g.events[-1].text
    assert g.stats()["stopped"] == 1


def test_two_greedy_bots_can_cycle_for_ever_so_the_safety_rule_is_needed() -> None:
    """A position two greedy bots reached in a seeded game: it comes back every 30 turns, exactly."""
    g = position(hands=[["2S", "2H"], ["2C", "JH", "QH", "QD", "KH", "KC"]], ups=[["8H"], ["9C"]],
                 downs=[["AC", "5S", "7S"], ["6C", "5D", "JS"]], pile=[], max_turns=100,
                 known=[[], ["2C", "JH", "QH", "QD", "KH", "KC"]])  # a hand of six was picked up: seen by all

    def where(game: Shithead) -> tuple[Any, ...]:
        st = game.state
        return (st.hands, st.face_up, st.face_down, st.pile, st.to_move)

    start = repr(where(g))
    repeats = []
    while not g.is_over:
        g.play(greedy_shithead(g.observe(g.current_player), g.legal_moves()))
        if repr(where(g)) == start:
            repeats.append(g.turns)
    assert repeats[:3] == [30, 60, 90]
    assert g.state.stopped and g.winner is None and g.turns == 100


# ---------------------------------------------------------------------- bad input
def test_bad_moves_get_specific_reasons() -> None:
    g = dealt([["7S", "7H", "8D"], ["8S", "9S", "JS"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["6S", "3C", "3D", "3H", "AC"])
    refused(g, "play 7 8", "single rank", "7 and 8")
    refused(g, "play 7 and 8", "single rank")
    refused(g, "play 7 x3", "only 2 card(s) of rank 7")
    refused(g, "play 9", "has no 9 in hand")
    refused(g, "play Z", "'z' is not a rank")
    refused(g, "play face-up K", "face-up cards are played only once the hand is empty")
    refused(g, "pick up", "must play")
    refused(g, "face up 7S", "only in the set-up")
    g.play("play 8")
    refused(g, "play 7", "has no 7 in hand")
    refused(g, "play 8 x2", "only 1 card(s) of rank 8")
    g.play("play 9")
    refused(g, "play 7", "does not go on the 9♠", "must pick up")


def test_bad_setup_moves_and_options_are_refused() -> None:
    g = cardlab.new_game("shithead", players=2, seed=1, deck=["4C", "4D", "4H", "5C", "5D", "5H",
                                                             "3S", "6S", "7S", "8S", "9S", "JS"])
    refused(g, "face up AS", "holds no A♠")
    refused(g, "face up 7X", "is not a card")
    refused(g, "play 3", "set-up is not finished")
    g.play("face up 7s")  # the ASCII spelling is an accepted alias
    assert g.state.face_up[0] == cards("7S")
    for bad in ({"first": "lowest2"}, {"four_kind_plays_again": "yes"}, {"max_turns": 0},
                {"play_to_last": 1}, {"jokers": True}):
        with pytest.raises(cardlab.InvalidInputError, match="shithead"):
            cardlab.new_game("shithead", seed=0, **bad)
    for players in (1, 6):
        with pytest.raises(cardlab.InvalidInputError, match="2 to 5"):
            cardlab.new_game("shithead", players=players, seed=0)


def test_move_aliases() -> None:
    g = dealt([["7S", "7H", "10D"], ["8S", "9S", "JS"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["6S", "3C", "3D", "3H", "AC"])
    g.play("PLAY 7 7")
    assert g.state.pile[-2:] == cards("7S", "7H")
    g.play("play  j")
    g.play("play t")
    assert g.state.out[-1] == Card.parse("10D")


# ---------------------------------------------------------------------- what each seat may see
def test_observe_hides_face_down_cards_from_everyone_and_other_hands() -> None:
    g = cardlab.new_game("shithead", players=3, seed=9)
    for seat in (None, 0, 1, 2):
        view = g.observe(seat)
        shown = Counter([*view.pile, *view.out, *(c for u in view.face_up for c in u),
                         *(c for k in view.known for c in k), *(view.hand or ())])
        s = g.state
        visible = [*s.pile, *s.out, *(c for u in s.face_up for c in u), *(c for k in s.known for c in k)]
        if seat is not None:
            visible += [c for c in s.hands[seat] if c not in s.known[seat]]
        # the view shows exactly the faces of the visible cards, and never which pack a card is from
        assert shown == Counter(faces(visible)) and all(c.pack == 0 for c in shown)
        assert view.face_down == ((1, 2, 3),) * 3
    assert g.observe(1).hand == tuple(faces(g.state.hands[1]))
    assert g.observe(None).hand is None


def test_resample_keeps_publicly_known_cards_in_place() -> None:
    g = dealt([["3S", "4S", "5S"], ["JH", "6H", "9H"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["3C", "8C", "8D"])
    g.play("play 3")
    g.play("play J")
    g.play("pick up")  # 3♠, 3♣ and J♥ are now known to be in seat 0's hand
    rng = np.random.default_rng(0)
    hands = set()
    for _ in range(20):
        r = g.resample(1, rng)
        assert isinstance(r, Shithead)
        assert set(cards("3S", "3C", "JH")) <= set(r.state.hands[0])
        assert r.state.hands[1] == g.state.hands[1]
        assert r.observe(1) == g.observe(1)
        hands.add(tuple(r.state.hands[0]))
    assert len(hands) > 1  # the unknown part of seat 0's hand really is redealt


def test_unseen_cards_are_what_resample_redeals() -> None:
    g = dealt([["3S", "4S", "5S"], ["JH", "6H", "9H"]], [["KS", "KH", "KD"], ["QS", "QH", "QD"]], DOWN_2,
              ["3C", "8C", "8D"])
    g.play("play 3")
    unseen = g.unseen_cards(1)
    visible = set(g.state.hands[1]) | set(g.state.pile) | {c for u in g.state.face_up for c in u}
    assert set(unseen) == set(g.all_cards()) - visible
    assert len(unseen) == 52 - 3 - 6 - 2


def test_blind_fit_probability_matches_the_unseen_cards() -> None:
    """From its owner's view a face-down card is uniform over the unseen cards, so
    P(it fits) = (#unseen cards that fit) / (#unseen cards); resampling must agree within its interval."""
    g = position(hands=[[], ["4C", "6C", "7C"]], ups=[[], ["KC"]], downs=[["3H", "QH", "5H"], ["9C", "9D", "9H"]],
                 pile=["7S", "8C"], draw=[])
    unseen = g.unseen_cards(0)
    exact = sum(g.fits(c) for c in unseen) / len(unseen)
    rng = np.random.default_rng(1)
    n = 3000
    hits = 0
    for _ in range(n):
        r = g.resample(0, rng)
        card = r.state.face_down[0][0]
        assert card is not None
        hits += r.fits(card)
    est = wilson(hits, n)
    assert est.contains(exact), (exact, est)


# ---------------------------------------------------------------------- the greedy bot
def test_greedy_setup_puts_tens_twos_and_high_cards_face_up() -> None:
    g = cardlab.new_game("shithead", players=2, seed=0, deck=["4C", "4D", "4H", "5C", "5D", "5H",
                                                             "3S", "10H", "2C", "KD", "5S", "AS"])
    chosen = []
    for _ in range(3):
        move = greedy_shithead(g.observe(0), g.legal_moves())
        chosen.append(move.text)
        g.play(move)
    assert chosen == ["face up 10♥", "face up 2♣", "face up A♠"]


def test_greedy_plays_the_lowest_rank_all_at_once_and_keeps_twos_and_tens() -> None:
    def choice(hand: list[str], top: str) -> str:
        g = position(hands=[hand, ["4C"]], ups=[[], []], downs=[["QH", "3H", "5H"], ["9C", "9D", "9H"]],
                     pile=[top], known=[hand, []])  # more than three cards: picked up, seen by all
        return greedy_shithead(g.observe(0), g.legal_moves()).text

    assert choice(["4S", "4H", "9S", "2C", "10D"], "3C") == "play 4 x2"
    assert choice(["4S", "4H", "9S", "2C", "10D"], "6C") == "play 9"
    assert choice(["4S", "4H", "9S", "2C", "10D", "10S"], "JC") == "play 10"
    assert choice(["4S", "4H", "9S", "2C", "2D"], "JC") == "play 2"
    assert choice(["4S", "4H"], "JC") == "pick up"


def test_greedy_plays_from_face_up_and_blind() -> None:
    g = position(hands=[[], ["4C"]], ups=[["9S", "9H", "KS"], []], downs=[["QH", "3H", "5H"], ["9C", "9D", "2H"]],
                 pile=["7C"])
    assert greedy_shithead(g.observe(0), g.legal_moves()).text == "play face-up 9 x2"
    h = position(hands=[[], ["4C"]], ups=[[], []], downs=[[None, "3H", "5H"], ["9C", "9D", "2H"]], pile=["7C"])
    assert greedy_shithead(h.observe(0), h.legal_moves()).text == "play face-down card 2"


# ---------------------------------------------------------------------- simulation
def test_simulate_collects_blind_play_figures() -> None:
    res = cardlab.simulate("shithead", players=3, games=60, seed=4)
    assert res.games == 60 and res.draws == 0
    fits, plays = res.extras["blind_fits"], res.extras["blind_plays"]
    assert np.all(fits <= plays) and plays.sum() > 0
    assert np.all(res.turns > 0)


def test_greedy_beats_random() -> None:
    """Greedy against uniform random play, each side in each seat: greedy wins well over half the games."""
    a = cardlab.simulate("shithead", players=2, games=120, seed=7, policy=["greedy", "random"])
    b = cardlab.simulate("shithead", players=2, games=120, seed=8, policy=["random", "greedy"])
    est = wilson(float(a.wins[0] + b.wins[1]), a.games + b.games)
    assert est.low > 0.5, est


# ---------------------------------------------------------------------- house rules (options; docs/rules.md)
def test_house_rule_options_are_checked_and_kept_in_records() -> None:
    for key in HOUSE_RULES:
        with pytest.raises(cardlab.InvalidInputError, match=key):
            cardlab.new_game("shithead", seed=0, **{key: "yes"})
    g = cardlab.new_game("shithead", players=3, seed=4, seven_lower=True, invisible_three=True, eight_skips=True)
    rng = np.random.default_rng(4)
    for _ in range(120):
        if g.is_over:
            break
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    back = cardlab.load_game(g.to_json())
    assert back.options == g.options and back.options["invisible_three"] is True
    assert back.state == g.state
    assert House.of(back.options) == House(True, True, True)


def test_seven_lower_after_a_7_the_next_card_is_a_7_or_lower_or_a_2_or_10() -> None:
    hands = [["5S", "9S", "2S", "10S", "7S"], ["6H", "8H", "KH"]]
    ups: list[list[str]] = [[], []]
    downs = [["4C", None, None], ["4D", None, None]]
    seen = [["2S", "10S"], []]
    plain = position(hands, ups, downs, ["7H"], known=seen)
    assert texts(plain) == ["play 2", "play 7", "play 9", "play 10"]
    g = position(hands, ups, downs, ["7H"], known=seen, seven_lower=True)
    assert texts(g) == ["play 2", "play 5", "play 7", "play 10"]
    refused(g, "play 9", "does not go on the 7♥", "7 or lower, a 2 or a 10")
    assert "after a 7 the next card is a 7 or lower, or one that goes on anything (a 2 or a 10)" \
        in draw_table(g, None, False, False)
    assert "7 or lower" not in draw_table(plain, None, False, False)
    g.play("play 5")
    assert texts(g) == ["play 6", "play 8", "play K"]  # after the 5, the usual rule again
    g = position(hands, ups, downs, ["7H"], known=seen, seven_lower=True)
    g.play("play 7")  # a 7 on a 7: still 7 or lower
    assert texts(g) == ["play 6"] and g.pile_rank == Rank.SEVEN


def test_invisible_three_goes_on_anything_and_takes_the_rank_under_it() -> None:
    hands = [["4S", "9S", "JS", "3D"], ["6H", "8H", "KH"]]
    ups: list[list[str]] = [[], []]
    downs = [["4C", None, None], ["4D", None, None]]
    seen = [["4S"], []]
    g = position(hands, ups, downs, ["9H", "3S"], known=seen, invisible_three=True)
    assert texts(g) == ["play 3", "play 9", "play J"] and g.pile_rank == Rank.NINE
    assert "the 3 is invisible: play on the 9" in draw_table(g, None, False, False)
    refused(g, "play 4", "does not go on the 3♠", "rank 9 (the rank under the invisible 3s) or higher")
    g.play("play 3")  # a 3 on a 3 passes the rank on down
    assert g.pile_rank == Rank.NINE and texts(g) == ["play K"]
    free = position(hands, ups, downs, ["3S"], known=seen, invisible_three=True)  # on an empty pile: a free card
    assert free.pile_rank is None and texts(free) == ["play 3", "play 4", "play 9", "play J"]
    on_two = position(hands, ups, downs, ["2H", "3S"], known=seen, invisible_three=True)  # the 2 under it: anything
    assert texts(on_two) == ["play 3", "play 4", "play 9", "play J"]
    with_seven = position(hands, ups, downs, ["7H", "3S"], known=seen, invisible_three=True, seven_lower=True)
    assert texts(with_seven) == ["play 3", "play 4"]


def test_four_invisible_threes_in_a_row_clear_and_a_3_breaks_a_run() -> None:
    hands = [["3D", "9S", "JS"], ["6H", "8H", "KH"]]
    g = position(hands, [[], []], [["4C", None, None], ["4D", None, None]], ["9H", "3S", "3H", "3C"],
                 invisible_three=True)
    g.play("play 3")
    assert g.state.pile == [] and g.state.clears == 1
    run = position([["9S", "JS"], ["6H", "8H", "KH"]], [[], []], [["4C", None, None], ["4D", None, None]],
                   ["9H", "9D", "3S", "9C"], invisible_three=True)
    run.play("play 9")
    assert len(run.state.pile) == 5 and run.run_length() == 2  # the 3 breaks the run of 9s


def test_a_record_pile_must_follow_the_house_rules() -> None:
    hands = [["9S", "JS"], ["6H", "8H", "KH"]]
    downs = [["4C", None, None], ["4D", None, None]]
    position(hands, [[], []], downs, ["9H", "3S", "QS"], invisible_three=True)
    with pytest.raises(cardlab.CorruptRecordError, match="cannot have been played"):
        position(hands, [[], []], downs, ["9H", "3S", "4S"], invisible_three=True)
    with pytest.raises(cardlab.CorruptRecordError, match="cannot have been played"):
        position(hands, [[], []], downs, ["9H", "3S"])  # without the option a 3 does not go on a 9
    with pytest.raises(cardlab.CorruptRecordError, match="cannot have been played"):
        position(hands, [[], []], downs, ["7H", "9D"], seven_lower=True)


def test_eight_skips_the_next_player_and_with_two_the_same_player_plays_again() -> None:
    downs3 = [["4C", None, None], ["4D", None, None], ["4H", None, None]]
    g = position([["8S", "9S"], ["6H", "KH"], ["7H", "QH"]], [[], [], []], downs3, ["5C"], eight_skips=True)
    g.play("play 8")
    assert g.current_player == 2 and g.turns == 1
    assert any(e.kind == "skip" and e.seat == 1 for e in g.events)
    two = position([["8S", "9S"], ["6H", "KH"]], [[], []], [["4C", None, None], ["4D", None, None]], ["5C"],
                   eight_skips=True)
    two.play("play 8")
    assert two.current_player == 0 and two.turns == 1
    plain = position([["8S", "9S"], ["6H", "KH"]], [[], []], [["4C", None, None], ["4D", None, None]], ["5C"])
    plain.play("play 8")
    assert plain.current_player == 1 and not any(e.kind == "skip" for e in plain.events)


def test_a_pick_up_after_a_7_under_seven_lower_tells_the_hand_holds_only_high_cards() -> None:
    """The belief keeps a set of fitting classes: a pick-up under a 7 with ``seven_lower`` rules out the 3
    to 7, the 2 and the 10, and leaves the 8 to the Ace (a threshold "this rank and above" would say the
    opposite)."""
    g = position([["5S", "6S"], ["8H", "KH"]], [[], []], [["4C", None, None], ["4D", None, None]], ["7H"],
                 to_move=1, seven_lower=True)
    g.play("pick up")
    law = g.chance_law(0)
    held = Counter[int]()
    for q, name in enumerate(law.names):
        if name == "hand 1":
            for card, x in law.place_law(q).items():
                if x:
                    held[int(card.rank)] += 1
    assert held and all(r in (8, 9, 11, 12, 13, 1) for r in held), held


def test_greedy_follows_the_house_rules_preference() -> None:
    downs = [["4C", None, None], ["4D", None, None]]
    g = position([["3S", "9S"], ["6H", "KH"]], [[], []], downs, ["8H"], invisible_three=True)
    assert greedy_shithead(g.observe(0), g.legal_moves()).text == "play 9"  # the 3 is kept
    g = position([["3S", "9S"], ["6H", "KH"]], [[], []], downs, ["QH"], invisible_three=True)
    assert greedy_shithead(g.observe(0), g.legal_moves()).text == "play 3"
    g = position([["5S", "5H", "9S"], ["6H", "KH"]], [[], []], downs, ["7H"], seven_lower=True)
    assert greedy_shithead(g.observe(0), g.legal_moves()).text == "play 5 x2"


def test_the_rules_tables_state_each_rule_once() -> None:
    """The fit table against the rule in words, for every house-rule combination and every pile rank."""
    order = [Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK,
             Rank.QUEEN, Rank.KING, Rank.ACE]  # the 2 is below them all, but special
    for house in House.all():
        table = fit_table(house)
        for top in PILE_RANKS:
            for rank in Rank:
                if top is None or top == Rank.TWO or rank in (Rank.TWO, Rank.TEN) or \
                        (house.invisible_three and rank == Rank.THREE):
                    want = True
                elif house.seven_lower and top == Rank.SEVEN:
                    want = order.index(rank) <= order.index(Rank.SEVEN)
                else:
                    want = order.index(rank) >= order.index(top)
                assert (rank in table[top]) == want, (house, top, rank)
