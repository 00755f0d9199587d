"""Bad input gets a cardlab error (a ValueError) naming the input and what is accepted; nothing changes."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab import Card
from cardlab.errors import MESSAGE_LIMIT, CardlabError, bounded, shown
from cardlab.policies import make_policy
from cardlab.sim import prob


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


BIG = 10**5000  # more digits than Python prints (4,300)


class _BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class _NotText:
    def __repr__(self) -> str:
        return 5  # type: ignore[return-value]


def _nested(depth: int) -> list[object]:
    out: list[object] = []
    for _ in range(depth):
        out = [out]
    return out


def _loop() -> list[object]:
    out: list[object] = []
    out.append(out)
    return out


@pytest.mark.parametrize(("value", "expected"), [
    (BIG, "<an integer of about 5,001 digits>"), (-BIG, "<a negative integer of about 5,001 digits>"),
    (_BadRepr(), "<_BadRepr object>"), (_NotText(), "<_NotText object>"), (_nested(100_000), "[[[[[[[...]]]]]]]"),
    (_loop(), "[[[[[[[...]]]]]]]"), ([BIG, 1], "[<an integer of about 5,001 digits>, 1]"),
    ("x" * 10**6, "'" + "x" * 80 + "'... (1,000,000 characters)"), (b"0.5" * 10**5, "... (300,000 bytes)"),
    ([5] * 20_000, "list of 20,000 items"), ([[0] * 10**6], "[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...]]"),
    (np.arange(10**6), "array([     0,      1,      2, ..., 999997, 999998, 999999]"), (np.int64(3), "np.int64(3)"),
    ([11, 10], "[11, 10]"), ("7H", "'7H'"), (None, "None"),
], ids=["huge int", "huge negative int", "failing repr", "non-text repr", "deep list", "self-containing list",
        "list with a huge int", "1 MB text", "300 kB bytes", "long list", "list of a long list", "numpy array",
        "numpy int", "short list", "text", "None"])
def test_shown_never_raises_and_stays_short(value: object, expected: str) -> None:
    """Any object is quoted in at most about 80 characters, without raising: a huge integer (Python refuses to
    print more than 4,300 digits), a failing or non-text repr, deep or self-containing lists, big arrays."""
    text = shown(value)
    assert expected in text and len(text) <= 140


def test_long_message_is_cut_in_the_middle() -> None:
    """No cardlab error carries more than 500 characters, however its message was built: the start (the input)
    and the end (what is accepted) are kept and the cut says how long the message was."""
    message = "start " + "5, " * 20_000 + "accepted: 1-10"
    exc = cardlab.InvalidInputError(message)
    assert len(str(exc)) == MESSAGE_LIMIT
    assert str(exc).startswith("start 5, ") and str(exc).endswith("accepted: 1-10")
    assert f"{len(message):,} characters" in str(exc)
    assert str(cardlab.InvalidInputError("short")) == "short" and bounded("x" * 500) == "x" * 500
    missing = cardlab.MissingExtraError("y" * 1000)
    assert isinstance(missing, ImportError) and len(str(missing)) == MESSAGE_LIMIT


@pytest.mark.parametrize("call", [
    lambda: cardlab.new_game("garbage", players=BIG),
    lambda: cardlab.new_game("garbage", seed=1).observe(BIG),
    lambda: cardlab.new_game("garbage", seed=1).resample(BIG, np.random.default_rng(0)),
    lambda: prob.win_probability(cardlab.new_game("garbage", seed=1), BIG, rng=np.random.default_rng(0)),
    lambda: cardlab.simulate("garbage", players=BIG, progress=False),
    lambda: cardlab.new_game("garbage", layout_sizes=[BIG, 1]),
    lambda: cardlab.new_game("garbage", seed=1).play(BIG),
    lambda: make_policy("greedy", BIG, np.random.default_rng(0)),
    lambda: cardlab.load_game(cardlab.new_game("garbage", seed=1).to_json().replace(
        '"shuffle_key": ', f'"shuffle_key": {"9" * 5000}, "x": ')),
], ids=["new_game players", "observe", "resample", "win_probability", "simulate players", "layout_sizes",
        "play", "make_policy", "load_game"])
def test_huge_integers_get_a_cardlab_error(call: Any) -> None:
    with pytest.raises(CardlabError, match="integer of about 5,001 digits|more than 4,300 digits") as info:
        call()
    assert len(str(info.value)) <= 200


def test_repr_of_a_game_with_a_huge_seed_gives_the_same_game() -> None:
    g = cardlab.new_game("garbage", seed=BIG).play_all(["draw stock"])
    again = eval(repr(g), {"cardlab": cardlab})
    assert again.to_json() == g.to_json()


def test_long_lists_are_named_not_printed() -> None:
    with pytest.raises(cardlab.InvalidInputError, match="layout_sizes=list of 20,000 items has 20000 entries") as info:
        cardlab.new_game("garbage", layout_sizes=[5] * 20_000)
    assert len(str(info.value)) <= 200


def test_play_all_takes_back_its_moves_when_one_is_refused() -> None:
    g = cardlab.new_game("garbage", players=2, seed=7)
    before = g.to_json()
    with pytest.raises(cardlab.IllegalMoveError, match="'fly'"):
        g.play_all(["draw stock", "fly"])
    assert g.to_json() == before
    with pytest.raises(cardlab.IllegalMoveError, match="play_all takes a list of moves, not 'draw stock'"):
        g.play_all("draw stock")
    assert g.to_json() == before


def test_a_kernel_error_keeps_its_whole_replay_and_a_bounded_message() -> None:
    """A KernelError is a bug report: its report is the seed and every move, never cut; its message is bounded
    like every other, keeps the seed, and says where the whole replay is."""
    moves = ", ".join(["draw stock"] * 500)
    err = cardlab.KernelError(f"seed 4; moves: {moves}")
    assert err.report == f"seed 4; moves: {moves}"
    assert len(str(err)) <= 500 and str(err).startswith("seed 4; moves: draw stock") and ".report" in str(err)
    short = cardlab.KernelError("seed 4; moves: draw stock")
    assert str(short) == short.report == "seed 4; moves: draw stock"
