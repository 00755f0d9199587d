"""The move chooser: the legal moves grouped by the card they name, one tile per card, every tile with a picture."""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets
import pytest

import cardlab
from cardlab.cards import Card
from cardlab.engine.game import Move
from cardlab.engine.registry import game_class
from cardlab.viz.chooser import group_moves
from cardlab.viz.stepper import Stepper
from tests.viz.test_stepper import descendants

# seat 0's payoff pile, seat 1's, seat 0's hand (five different cards), seat 1's hand, then the stock
DECK = ["3S", "9H", "9D", "9C", "2H", "QH", "QD", "QC", "AS", "2S", "KS", "5D", "7D",
        "AH", "4C", "6C", "8C", "10C", "3H", "4H", "5H", "6H", "7H", "8H"]
FAST = {"rollouts": 2, "panel_rollouts": 2}


def spite() -> Stepper:
    return Stepper("spite-and-malice", seed=1, deck=DECK, payoff_size=4, policies=["human", "greedy"], **FAST)


def test_a_hand_of_five_with_four_empty_side_piles_gives_one_group_per_card() -> None:
    s = spite()
    view = s.game.observe(0)
    assert len(view.hand) == 5 and all(not pile for pile in view.sides[0])
    legal = s.game.legal_moves()
    groups = group_moves(legal)
    with_card = [g for g in groups if g.card is not None]
    hand = {Card.parse(c) for c in ("AS", "2S", "KS", "5D", "7D")}
    assert sorted(map(str, (g.card for g in with_card))) == sorted(map(str, hand))   # each card once
    # every move is in exactly one group, and a card's group holds every move naming that card
    placed = sorted(i for g in groups for i, _, _ in g.moves)
    assert placed == list(range(len(legal)))
    for g in with_card:
        assert {legal[i].text for i, _, _ in g.moves} == {m.text for m in legal if g.card in m.cards()}
        assert g.caption == f"hand {g.card}"
        assert all(words.startswith("to ") and text == f"{g.caption} {words}" for _, words, text in g.moves)
    # four discards for each card: the side piles as small buttons under the card, not four tiles
    assert all(sum(1 for _, w, _ in g.moves if w.startswith("to side")) == 4 for g in with_card)
    assert len(groups) < len(legal) / 2


def test_the_stepper_shows_one_tile_per_card_each_with_a_picture_and_the_log_below() -> None:
    s = spite()
    tiles = list(s.move_box.children)
    groups = group_moves(s.game.legal_moves())
    assert len(tiles) == len(groups)
    for tile, group in zip(tiles, groups, strict=True):
        pictures = [w.value for w in descendants(tile) if isinstance(w, widgets.HTML)]
        assert any("<svg" in p for p in pictures)       # a picture on every tile, cardless moves included
        buttons = [w for w in descendants(tile) if isinstance(w, widgets.Button)]
        assert [b.tooltip for b in buttons] == [f"seat 0: {text}" for _, _, text in group.moves]
    column = next(w for w in descendants(s.box) if isinstance(w, widgets.VBox) and s.move_box in w.children)
    assert list(column.children).index(s.move_log) == list(column.children).index(s.move_box) + 1  # log below
    # a click on a destination plays that card's move
    target = next(g for g in groups if g.card is not None and any(w == "to side 1" for _, w, _ in g.moves))
    k = next(k for k, (_, w, _) in enumerate(target.moves) if w == "to side 1")
    button = [w for w in descendants(tiles[groups.index(target)]) if isinstance(w, widgets.Button)][k]
    button.click()
    assert s.game.moves[-1].text == f"hand {target.card} to side 1"


@dataclass(frozen=True, slots=True)
class CardMove(Move):
    card: Card | None = None


@pytest.mark.parametrize("texts", [["play 7♠ high", "play 7♠ low", "pass"]])
def test_grouping_reads_the_card_field_of_any_game(texts: list[str]) -> None:
    seven = Card.parse("7S")
    moves = [CardMove(texts[0], "play", seven), CardMove(texts[1], "play", seven), Move(texts[2], "pass")]
    groups = group_moves(moves)
    assert [(g.card, g.caption, [w for _, w, _ in g.moves]) for g in groups] == [
        (seven, "play 7♠", ["high", "low"]), (None, "", ["pass"])]


def test_every_registered_game_has_every_move_in_one_group() -> None:
    for name in cardlab.game_names():
        cls = game_class(name)
        g = cardlab.new_game(name, players=min(max(2, cls.min_players), cls.max_players), seed=6)
        legal = g.legal_moves()
        assert sorted(i for grp in group_moves(legal) for i, _, _ in grp.moves) == list(range(len(legal)))
