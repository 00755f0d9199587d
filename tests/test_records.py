"""Records that hold up: every field read by type and range, live positions only, bounded size, sparse snapshots."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card
from cardlab.engine import game as engine_game
from cardlab.engine.registry import game_class
from cardlab.games.shithead import beliefs
from tests.record_fuzz import AIMED, HUGE, check_record, corrupt, true_record

GAMES = ["garbage", "shithead", "spite-and-malice"]


def _record(name: str, players: int = 2, moves: int = 0, **options: Any) -> dict[str, Any]:
    g = cardlab.new_game(name, players=players, seed=4, **options)
    for _ in range(moves):
        g.play(g.legal_moves()[0])
    record: dict[str, Any] = json.loads(g.to_json())
    record["initial"] = g.state.to_data()
    record["moves"] = []
    return record


def _refused(record: dict[str, Any], match: str) -> None:
    start = time.perf_counter()
    with pytest.raises(cardlab.CorruptRecordError, match=match):
        cardlab.load_game(json.dumps(record))
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("name", GAMES)
def test_every_state_field_is_described(name: str) -> None:
    cls = game_class(name)
    fields = {f.name for f in dataclasses.fields(cls.state_class)}
    assert set(cls.state_description) == fields


def test_shithead_record_ranking_every_seat_is_refused_not_a_hang() -> None:
    record = _record("shithead", players=3, moves=9)   # the set-up is done: the play phase
    record["initial"]["ranking"] = [0, 1, 2]
    _refused(record, "record field initial")


@pytest.mark.parametrize(("name", "field", "value", "match"), [
    ("garbage", "turn", None, r"initial\.turn is None; expected a whole number"),
    ("shithead", "turn", None, r"initial\.turn is None"),
    ("spite-and-malice", "turn", None, r"initial\.turn is None"),
    ("shithead", "burns", "=x", r"initial\.burns is '=x'; expected a whole number"),
    ("shithead", "phase", "=nap", r"initial\.phase is '=nap'; expected one of '=setup', '=play'"),
    ("garbage", "to_move", 7, r"initial\.to_move is 7; expected a whole number from 0 to 1"),
    ("garbage", "over", 0, r"initial\.over is 0; expected true or false"),
    ("spite-and-malice", "labels", [0] * 103, r"initial\.labels is a list of 103; expected a list of 104"),
    ("spite-and-malice", "scores", [1.5, 0], r"initial\.scores\[0\] is 1\.5"),
    ("garbage", "stock", [[[["AS"]]]], r"initial\.stock\[0\] is \[\[\['AS'\]\]\]; expected a card code"),
])
def test_state_fields_of_the_wrong_type_or_range_are_named(name: str, field: str, value: Any, match: str) -> None:
    record = _record(name, moves=3)
    record["initial"][field] = value
    _refused(record, match)


@pytest.mark.parametrize("key", [-1, 2**63, "7", None, 1.5, True])
def test_bad_shuffle_key(key: Any) -> None:
    record = _record("garbage")
    record["shuffle_key"] = key
    _refused(record, "record field shuffle_key")


def test_dead_position_is_refused() -> None:
    """Garbage: the stock empty and a Queen on the discard pile (no seat can use it): not over, no legal move.
    The greedy bot would have had nothing to choose from."""
    record = _record("garbage")
    initial = record["initial"]
    queens = [c for c in initial["stock"] if c.startswith("Q")]
    initial["discard"] = [c for c in initial["stock"] if c != queens[0]] + [queens[0]]
    initial["stock"] = []
    _refused(record, "dead position: the game is not over, yet seat 0 has no legal move")


def test_dead_shithead_setup_is_refused() -> None:
    """A set-up whose seat to move has no cards to put face up: not over, no legal move."""
    record = _record("shithead")
    initial = record["initial"]
    initial["draw"] = initial["draw"] + initial["hands"][0]
    initial["hands"][0] = []
    _refused(record, "record field initial")


def test_moves_and_max_turns_are_bounded() -> None:
    record = _record("garbage")
    record["moves"] = ["draw stock"] * (engine_game.MAX_RECORD_MOVES + 1)
    _refused(record, "moves is a list of 250,001 moves")
    with pytest.raises(cardlab.InvalidInputError, match="max_turns"):
        cardlab.new_game("shithead", seed=1, max_turns=10**7)
    record = _record("shithead")
    record["options"]["max_turns"] = 10**9
    _refused(record, "record field options")


@pytest.mark.parametrize("name", GAMES)
def test_corrupted_records_are_refused_or_playable(name: str) -> None:
    """A small sample of the figure script's run (``python -m tests.robustness`` runs 2,000 per game)."""
    rng = np.random.default_rng(2026)
    outcomes = []
    for _ in range(25):
        text = corrupt(true_record(name, rng), rng)
        out = check_record(text, rng, most=300)
        assert out.kind in ("refused", "playable"), (out.kind, out.detail)
        assert out.load_cpu < 2 and out.move_cpu < 2
        outcomes.append(out.kind)
    assert "refused" in outcomes


@pytest.mark.parametrize("name", GAMES)
def test_loaded_long_record_keeps_few_snapshots_and_undo_is_exact(name: str) -> None:
    rng = np.random.default_rng(5)
    g = cardlab.new_game(name, seed=9)
    while not g.is_over and g.move_count < 400:
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    loaded = cardlab.load_game(g.to_json())
    kept = sum(snap is not None for snap, _ in loaded._stack)
    assert kept == -(-g.move_count // engine_game.SNAPSHOT_EVERY)
    for _ in range(min(150, g.move_count)):   # back past a kept snapshot: undo replays from it
        assert loaded.undo() == g.undo()
        assert loaded.state.to_data() == g.state.to_data()
        assert [e.text for e in loaded.events] == [e.text for e in g.events]
    legal = loaded.legal_moves()
    loaded.play(legal[0])
    g.play(legal[0])
    assert loaded.state.to_data() == g.state.to_data()


CONFIGS = [("garbage", 3, {"last_round": True}), ("garbage", 2, {"match": True, "last_round": True}),
           ("garbage", 1, {"match": True}), ("shithead", 3, {"play_to_last": True}),
           ("shithead", 4, {"first": "lowest3", "four_kind_plays_again": True, "play_to_last": True}),
           ("spite-and-malice", 2, {}),
           ("spite-and-malice", 2, {"completed_to": "shuffle", "match": True, "target": 30}),
           ("spite-and-malice", 2, {"payoff_size": 5, "refill_on_empty": False, "match": True})]


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_every_true_position_loads(name: str, players: int, options: dict[str, Any]) -> None:
    """The checks refuse no real position: positions all through played games, the end included, load back."""
    from cardlab.policies import choose, make_policy

    g = cardlab.new_game(name, players=players, seed=3, **options)
    rng = np.random.default_rng(3)
    policies = [make_policy("greedy", name, rng), make_policy("random", name, rng)]
    i = 0
    while True:
        if i % 23 == 0 or g.is_over:
            record = json.loads(g.to_json())
            record["initial"] = g.state.to_data()
            record["moves"] = []
            assert cardlab.load_game(json.dumps(record)).state.to_data() == g.state.to_data()
        if g.is_over or i > 3000:
            break
        g.play(choose(policies[0 if name == "spite-and-malice" else i % 2], g))
        i += 1


# ---------------------------------------------------------------------------------------------- issue 25, item 3
def _shithead_mid_game(players: int = 2, seed: int = 4, moves: int = 10) -> dict[str, Any]:
    """A Shithead record whose dealt position is a position in the play (seeded random moves), no moves."""
    g = cardlab.new_game("shithead", players=players, seed=seed)
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
    _refused(record, rf"initial\.hands\[{seat}\] holds {unseen} cards that are not in initial\.known\[{seat}\]")


def test_a_shithead_set_up_hand_of_the_wrong_size_is_refused() -> None:
    """In the set-up each hand holds its six dealt cards less those put face up: no more."""
    record = _record("shithead")
    initial = record["initial"]
    initial["hands"][1] += [initial["draw"].pop() for _ in range(10)]
    _refused(record, r"initial\.hands\[1\] holds 16 card\(s\) in the set-up")


def _top(record: dict[str, Any], *ranks: str) -> None:
    """Move a card of each of ``ranks`` in turn (from the draw pile, out of play, a hand or the face-up cards)
    onto the pile."""
    initial = record["initial"]
    zones = [initial["draw"], initial["out"], *initial["hands"], *initial["face_up"]]
    for rank in ranks:
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
    _refused(record, match)


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
    _refused(record, rf"initial\.beliefs\[{seat}\] gives no weight to the hand's real cards")
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
                          text=True, timeout=120, check=False, cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(lines) == len(texts)
    assert all(line.startswith(f"refused: record field initial.beliefs[{seat}]") for line in lines), lines


@pytest.mark.parametrize(("field", "value"), [("version", 1.0), ("version", True), ("players", 2.0),
                                              ("players", True)])
def test_header_numbers_of_the_wrong_type_are_refused(field: str, value: Any) -> None:
    """1.0 and true compare equal to 1, but no record writes them."""
    record = _record("garbage")
    record[field] = value
    _refused(record, f"record field {field}")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("field", ["players", "options", "moves", "initial", "shuffle_key"])
def test_a_missing_header_field_is_refused(name: str, field: str) -> None:
    """A two-player record with no ``players`` used to load (the default count filled in)."""
    record = _record(name)
    del record[field]
    _refused(record, f"record field {field} is missing")


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
    _refused(record, rf"initial\.known\[{seat}\] holds cards that are not in the hand \(or one card twice\)")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("aim", AIMED, ids=lambda f: f.__name__)
def test_aimed_corruptions_are_refused_or_playable(name: str, aim: Any) -> None:
    """Each aimed mutation of the fuzz (numbers as floats, bools and long numbers; header fields; Shithead
    beliefs; cards moved into a hand; pile tops) on a few records: refused, or loaded and played on."""
    rng = np.random.default_rng([25, GAMES.index(name), AIMED.index(aim)])
    for _ in range(6):
        record = json.loads(true_record(name, rng))
        aim(record, rng)
        text = json.dumps(record).replace(json.dumps(HUGE), "9" * 5000)
        out = check_record(text, rng, most=200)
        assert out.kind in ("refused", "playable"), (out.kind, out.detail)
        assert out.load_cpu < 2 and out.move_cpu < 2
