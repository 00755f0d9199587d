"""Bad input gets a cardlab error (a ValueError) naming the input and what is accepted; nothing changes."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cardlab
from cardlab import Card
from cardlab.errors import CardlabError


def test_errors_are_value_errors() -> None:
    for cls in (cardlab.InvalidInputError, cardlab.IllegalMoveError, cardlab.InvalidCardError,
                cardlab.CorruptRecordError, cardlab.UnknownGameError, cardlab.KernelError):
        assert issubclass(cls, CardlabError) and issubclass(cls, ValueError)


def test_kernel_error_is_not_a_corrupt_record() -> None:
    """A kernel's broken invariant is a bug report, never mistaken for a bad saved game."""
    assert not issubclass(cardlab.KernelError, cardlab.CorruptRecordError)
    assert not issubclass(cardlab.KernelError, cardlab.InvalidInputError)


def test_unknown_game() -> None:
    with pytest.raises(cardlab.UnknownGameError, match=r"unknown game 'poker'; accepted names: .*'garbage'.*'trash'"):
        cardlab.new_game("poker")


def test_alias_is_accepted() -> None:
    assert cardlab.new_game("Trash", players=2, seed=0).name == "garbage"


@pytest.mark.parametrize("players", [0, 7, -1, 2.5, "2", True])
def test_bad_player_count(players: object) -> None:
    with pytest.raises(cardlab.InvalidInputError, match=r"players=.* is not allowed for garbage; it takes 1 to 6"):
        cardlab.new_game("garbage", players=players, seed=0)  # type: ignore[arg-type]


def test_unknown_option() -> None:
    with pytest.raises(cardlab.InvalidInputError,
                       match=r"unknown option 'wilds' for garbage; its options are: last_round, layout_sizes"):
        cardlab.new_game("garbage", players=2, seed=0, wilds="J")


@pytest.mark.parametrize(("option", "value", "accepted"), [
    ("wild", "Q", "'J'"), ("last_round", "yes", "True or False"), ("layout_sizes", [11, 10], "1-10"),
    ("layout_sizes", [10], "one size"),
])
def test_bad_option_value(option: str, value: object, accepted: str) -> None:
    with pytest.raises(cardlab.InvalidInputError, match=rf"{option}=.*{accepted}"):
        cardlab.new_game("garbage", players=2, seed=0, **{option: value})


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_bad_seed(seed: object) -> None:
    with pytest.raises(cardlab.InvalidInputError, match="seed="):
        cardlab.new_game("garbage", players=2, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["1X", "11H", "", "H", "10", "AS:3", "ZZ", "10HH"])
def test_malformed_card(text: str) -> None:
    with pytest.raises(cardlab.InvalidCardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(("text", "code"), [("10H", "10H"), ("TH", "10H"), ("AS", "AS"), ("q♠", "QS"),
                                           (" 7d ", "7D"), ("K♣", "KC"), ("7H:1", "7H:1")])
def test_card_parse_and_round_trip(text: str, code: str) -> None:
    card = Card.parse(text)
    assert card.code == code and Card.parse(card.code) == card
    assert eval(repr(card), {"Card": Card}) == card


def test_card_strings() -> None:
    assert str(Card.parse("10H")) == "10♥" and str(Card.parse("qs")) == "Q♠"


def test_deck_with_too_many_copies() -> None:
    with pytest.raises(cardlab.InvalidCardError, match=r"'AS' appears more often than the 1 pack"):
        cardlab.new_game("garbage", players=2, seed=0, deck=["AS", "AS"])
    with pytest.raises(cardlab.InvalidCardError, match="needs pack 2"):
        cardlab.new_game("garbage", players=2, seed=0, deck=["AS:1"])
    g = cardlab.new_game("garbage", players=3, seed=0, deck=["AS", "AS"])  # two packs: both aces of spades
    assert g.state.spots[0][:2] == [Card.parse("AS"), Card.parse("AS:1")]


def test_illegal_move_names_move_seat_and_legal_moves() -> None:
    g = cardlab.new_game("garbage", players=2, seed=7)
    before = g.to_json()
    with pytest.raises(cardlab.IllegalMoveError,
                       match=r"move 'jack to 4' is not legal for seat 0 at move 0 .*legal moves: 'draw stock'"):
        g.play("jack to 4")
    assert g.to_json() == before


def test_move_after_the_end() -> None:
    g = cardlab.new_game("garbage", players=2, seed=1, deck=["2D", "KC", "3S", "AS"], layout_sizes=[2, 1])
    g.play("draw stock")  # seat 0 draws AS: A reveals 2D, which fills spot 2 and completes the layout
    assert g.is_over and g.winner == 0
    with pytest.raises(cardlab.IllegalMoveError, match="game is over"):
        g.play("draw stock")


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(cardlab.IllegalMoveError, match="nothing to undo"):
        cardlab.new_game("garbage", players=2, seed=0).undo()


@pytest.mark.parametrize("seat", [2, -1, "0", 1.0])
def test_observe_bad_seat(seat: object) -> None:
    with pytest.raises(cardlab.InvalidInputError, match=r"seat .* does not exist; this garbage game has seats 0 to 1"):
        cardlab.new_game("garbage", players=2, seed=0).observe(seat)  # type: ignore[arg-type]


def test_resample_needs_a_generator() -> None:
    with pytest.raises(cardlab.InvalidInputError, match="numpy.random.Generator"):
        cardlab.new_game("garbage", players=2, seed=0).resample(None, 5)  # type: ignore[arg-type]


def record() -> dict[str, object]:
    g = cardlab.new_game("garbage", players=2, seed=7)
    g.play("draw stock")
    return json.loads(g.to_json())  # type: ignore[no-any-return]


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda r: "not json", "not valid JSON"),
    (lambda r: json.dumps([1, 2]), "not a 'cardlab-record' object"),
    (lambda r: json.dumps({**r, "version": 99}), "version 99 is not supported"),
    (lambda r: json.dumps({**r, "game": "poker"}), "unknown game 'poker'"),
    (lambda r: json.dumps({**r, "players": 9}), "players=9 is not allowed"),
    (lambda r: json.dumps({**r, "moves": ["draw stock", "fly"]}), r"record field moves\[1\] \('fly'\) does not replay"),
    (lambda r: json.dumps({**r, "shuffle_key": "x"}), "shuffle_key"),
    (lambda r: json.dumps({**r, "initial": {**r["initial"], "stock": r["initial"]["stock"][:-1]}}),  # type: ignore
     "cards do not add up; missing"),
    (lambda r: json.dumps({**r, "initial": {**r["initial"], "discard": ["AS", "AS"]}}),  # type: ignore
     "extra or duplicated"),
    (lambda r: json.dumps({**r, "initial": {**r["initial"], "discard": ["XX"]}}),  # type: ignore
     "record field initial.discard\\[0\\] is 'XX'; expected a card code"),
    (lambda r: json.dumps({**r, "initial": {"sizes": []}}), "missing"),
])
def test_corrupt_records(mutate: object, message: str) -> None:
    text = mutate(record())  # type: ignore[operator]
    with pytest.raises(cardlab.CorruptRecordError, match=message):
        cardlab.load_game(text)


def test_unknown_policy() -> None:
    with pytest.raises(cardlab.InvalidInputError, match="unknown policy 'clever'"):
        cardlab.simulate("garbage", players=2, games=1, seed=0, policy="clever")


def test_policy_that_cheats_is_refused() -> None:
    def cheat(view: object, legal: object) -> str:
        return "jack to 4"

    with pytest.raises(cardlab.IllegalMoveError, match="policy .* chose an illegal move"):
        cardlab.simulate("garbage", players=2, games=1, seed=0, policy=cheat)


def test_rng_must_be_a_generator() -> None:
    with pytest.raises(cardlab.InvalidInputError, match="not a numpy.random.Generator"):
        cardlab.new_game("garbage", players=2, rng=np.random.RandomState(0))  # type: ignore[arg-type]
    with pytest.raises(cardlab.InvalidInputError, match="not both"):
        cardlab.new_game("garbage", players=2, seed=1, rng=np.random.default_rng(1))
