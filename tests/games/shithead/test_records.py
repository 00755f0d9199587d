"""Shithead records: the checks of its own fields, positions and options (every game's: ``tests/test_records.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card
from cardlab.games.shithead import beliefs
from cardlab.games.shithead.rules import Shithead
from tests.record_checks import assert_every_true_position_loads, assert_refused, short_record

NAME = Shithead.name


@pytest.mark.parametrize(("field", "value", "match"), [
    ("turn", None, r"initial\.turn is None"),
    ("burns", "=x", r"initial\.burns is '=x'; expected a whole number"),
    ("phase", "=nap", r"initial\.phase is '=nap'; expected one of '=setup', '=play'"),
])
def test_state_fields_of_the_wrong_type_or_range_are_named(field: str, value: Any, match: str) -> None:
    record = short_record(NAME, moves=3)
    record["initial"][field] = value
    assert_refused(record, match)


def test_max_turns_is_bounded() -> None:
    with pytest.raises(cardlab.InvalidInputError, match="max_turns"):
        cardlab.new_game(NAME, seed=1, max_turns=10**7)
    record = short_record(NAME)
    record["options"]["max_turns"] = 10**9
    assert_refused(record, "record field options")


def test_shithead_record_ranking_every_seat_is_refused_not_a_hang() -> None:
    record = short_record(NAME, players=3, moves=9)   # the set-up is done: the play phase
    record["initial"]["ranking"] = [0, 1, 2]
    assert_refused(record, "record field initial")


def test_dead_shithead_setup_is_refused() -> None:
    """A set-up whose seat to move has no cards to put face up: not over, no legal move."""
    record = short_record(NAME)
    initial = record["initial"]
    initial["draw"] = initial["draw"] + initial["hands"][0]
    initial["hands"][0] = []
    assert_refused(record, "record field initial")


# ---------------------------------------------------------------------------------------------- issue 25, item 3
def _shithead_mid_game(players: int = 2, seed: int = 4, moves: int = 10) -> dict[str, Any]:
    """A Shithead record whose dealt position is a position in the play (seeded random moves), no moves."""
    g = cardlab.new_game(NAME, players=players, seed=seed)
    rng = np.random.default_rng(seed)
    while g.move_count < moves or g.state.phase == "setup" or not g.state.draw or not g.state.pile:
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    record: dict[str, Any] = json.loads(g.to_json())
    record["initial"] = g.state.to_data()
    record["moves"] = []
    return record


@pytest.mark.parametrize("extra", [1, 10, 20])
def test_a_shithead_hand_with_more_unseen_cards_than_play_can_give_is_refused_at_once(extra: int) -> None:
    """The reproducer: draw-pile cards moved into the hand of the player to move, its belief emptied. A hand
    takes unseen cards only by drawing up to three (cards it picks up are known), so more is refused, in well
    under 2 s: the first play used to build every state of 10+ unseen cards (minutes, gigabytes)."""
    record = _shithead_mid_game()
    initial = record["initial"]
    seat = initial["to_move"]
    for _ in range(extra):
        initial["hands"][seat].append(initial["draw"].pop())
    initial["beliefs"][seat] = []
    unseen = len(initial["hands"][seat]) - len(initial["known"][seat])
    assert unseen > 3
    assert_refused(record, rf"initial\.hands\[{seat}\] holds {unseen} cards that are not in initial\.known\[{seat}\]")


def test_a_shithead_set_up_hand_of_the_wrong_size_is_refused() -> None:
    """In the set-up each hand holds its six dealt cards less those put face up: no more."""
    record = short_record(NAME)
    initial = record["initial"]
    initial["hands"][1] += [initial["draw"].pop() for _ in range(10)]
    assert_refused(record, r"initial\.hands\[1\] holds 16 card\(s\) in the set-up")


def _top(record: dict[str, Any], *ranks: str) -> None:
    """Move a card of each of ``ranks`` in turn (from the draw pile, out of play, a hand or the face-up cards;
    a card found only face down first changes places with a draw-pile card of another rank) onto the pile."""
    initial = record["initial"]
    zones = [initial["draw"], initial["out"], *initial["hands"], *initial["face_up"]]
    for rank in ranks:
        if not any(c[:-1] == rank for z in zones for c in z):  # only face down: trade it for a draw-pile card
            down = next(d for d in initial["face_down"] if any(c is not None and c[:-1] == rank for c in d))
            at = next(i for i, c in enumerate(down) if c is not None and c[:-1] == rank)
            swap = next(i for i, c in enumerate(initial["draw"]) if c[:-1] not in ranks)
            down[at], initial["draw"][swap] = initial["draw"][swap], down[at]
        zone = next(z for z in zones if any(c[:-1] == rank for c in z))
        card = next(c for c in zone if c[:-1] == rank)
        zone.remove(card)
        initial["pile"].append(card)
        for hand, known in zip(initial["hands"], initial["known"], strict=True):
            if card in known and card not in hand:
                known.remove(card)


@pytest.mark.parametrize(("make", "match"), [
    (lambda r: _top(r, "10"), r"initial\.pile\[\d+\] is 10.: a 10 burns the pile at once"),
    (lambda r: _top(r, "9", "9", "9", "9"), r"initial\.pile\[3\] is 9.: 4 cards of rank 9 in a row clear the pile"),
    (lambda r: _top(r, "K", "4"), r"initial\.pile\[1\] is 4., which cannot have been played on the K. below it"),
])
def test_a_shithead_pile_the_rules_never_leave_is_refused(make: Any, match: str) -> None:
    """A 10 burns the pile at once, four of a rank in a row clear it, and each card went on the one below it.
    A 10 on top used to load, and its only legal move raised a raw ValueError."""
    record = _shithead_mid_game()
    initial = record["initial"]
    initial["out"] += initial["pile"]   # start from an empty pile: the cards go out of play
    initial["pile"] = []
    make(record)
    for p, hand in enumerate(initial["hands"]):   # cards taken from a hand: keep at most 3 unseen
        unseen = [c for c in hand if c not in initial["known"][p]]
        initial["known"][p] += unseen[3:]
        initial["beliefs"][p] = []
    assert_refused(record, match)


def test_a_shithead_belief_that_rules_out_the_real_cards_is_refused() -> None:
    """A belief built from a hand's own play always allows its real cards; one that does not used to load,
    and the hand's next legal play then raised CorruptRecordError."""
    record = _shithead_mid_game()
    initial = record["initial"]
    seat = next(p for p, h in enumerate(initial["hands"]) if len(h) > len(initial["known"][p]))
    unseen = len(initial["hands"][seat]) - len(initial["known"][seat])
    real = [0] * 13
    for c in initial["hands"][seat]:
        if c not in initial["known"][seat]:
            real[beliefs.CLASS[Card.parse(c).rank]] += 1
    wrong = [0] * 13
    wrong[next(i for i in range(13) if real[i] != unseen)] = unseen
    initial["beliefs"][seat] = [[wrong, 1]]
    assert_refused(record, rf"initial\.beliefs\[{seat}\] gives no weight to the hand's real cards")
    initial["beliefs"][seat] = [[wrong, 1], [real, 3]]   # the same with the real cards allowed: it loads
    g = cardlab.load_game(json.dumps(record))
    assert g.state.beliefs[seat] == ((tuple(wrong), 1), (tuple(real), 3))


def test_beliefs_are_checked_under_python_o() -> None:
    """``python -O`` removes ``assert`` statements: the belief checks must not be ones. Weights given as text,
    null, NaN, a list, a bool, a float or 0 are refused there too (a text weight used to load, and gain an
    ``=`` at every save)."""
    record = _shithead_mid_game()
    initial = record["initial"]
    seat = next(p for p, h in enumerate(initial["hands"]) if len(h) > len(initial["known"][p]))
    real = [0] * 13
    for c in initial["hands"][seat]:
        if c not in initial["known"][seat]:
            real[beliefs.CLASS[Card.parse(c).rank]] += 1
    texts = []
    for weight in ["=3", None, float("nan"), [1], True, 1.5, 0]:
        initial["beliefs"][seat] = [[real, weight]]
        texts.append(json.dumps(record))
    script = textwrap.dedent("""
        import json, sys
        import cardlab
        assert False, "this runs with assert statements removed"
        for text in json.load(sys.stdin):
            try:
                cardlab.load_game(text)
            except cardlab.CorruptRecordError as exc:
                print("refused:", str(exc)[:60])
            else:
                print("loaded")
    """)
    done = subprocess.run([sys.executable, "-O", "-c", script], input=json.dumps(texts), capture_output=True,
                          text=True, timeout=120, check=False, cwd=Path(__file__).parents[3])
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(lines) == len(texts)
    assert all(line.startswith(f"refused: record field initial.beliefs[{seat}]") for line in lines), lines


@pytest.mark.parametrize("where", ["shuffle_key", "turn", "weight", "extra"])
def test_a_number_of_5000_digits_anywhere_is_refused(where: str) -> None:
    """Python reads no integer of more than 4,300 digits: ``json.loads`` raised a raw ValueError."""
    record = _shithead_mid_game()
    marker = "=__huge__"
    if where == "shuffle_key":
        record["shuffle_key"] = marker
    elif where == "turn":
        record["initial"]["turn"] = marker
    elif where == "weight":
        record["initial"]["beliefs"][0] = [[[3] + [0] * 12, marker]]
    else:
        record["note"] = [marker]
    text = json.dumps(record).replace(json.dumps(marker), "9" * 5000)
    with pytest.raises(cardlab.CorruptRecordError, match="record holds a number too long to read"):
        cardlab.load_game(text)


def test_known_cards_are_counted_as_a_multiset() -> None:
    """A card listed twice among a hand's known cards would make the hand's unseen count wrong."""
    record = _shithead_mid_game()
    initial = record["initial"]
    seat = next(p for p, k in enumerate(initial["known"]) if k) if any(initial["known"]) else None
    if seat is None:
        seat = 0
        initial["known"][0] = initial["hands"][0][:1]
    initial["known"][seat].append(initial["known"][seat][0])
    assert_refused(record, rf"initial\.known\[{seat}\] holds cards that are not in the hand \(or one card twice\)")


@pytest.mark.parametrize(("players", "options"), [
    (3, {"play_to_last": True}),
    (4, {"first": "lowest3", "four_kind_plays_again": True, "play_to_last": True}),
])
def test_every_true_position_loads_with_these_options(players: int, options: dict[str, Any]) -> None:
    """The checks refuse no real position of a game played with these options, the end included."""
    assert_every_true_position_loads(NAME, players, options, mix=True)
