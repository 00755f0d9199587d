"""Corrupted records for the robustness tests and figures (``tests/test_records.py``, ``python -m tests.robustness``).

A corrupted record starts from a true one: a game dealt with a seed, played some random moves, and
written either as :meth:`Game.to_json` (the dealt position and the moves) or as a record whose dealt
position *is* the current, mid-game position with no moves. Then one to three mutations hit it.

* Blind ones (:func:`mutate`): a value anywhere replaced by a value of another type, out of range, or
  nested deep; a key removed or added; list entries removed, repeated, swapped or appended; a number
  nudged; two cards swapped between places or one card moved to another place (so the cards still add
  up and only the rules can tell); a move text changed; the JSON text cut or one character changed.
* Aimed ones (:data:`AIMED`), each at a hole found before: a whole number written as a float, a bool, a
  4,000-digit or a 5,000-digit number (more digits than Python reads); a header field (``version`` 1.0 or
  true, ``players`` removed); a Shithead belief edited (emptied, a weight of the wrong type, the hand's real
  cards ruled out, a count changed); several cards moved into the hand of the player to move (with the
  belief about it emptied: the state build that once blew up); a card put on top of the pile (a 10, the
  fourth of a rank, a card below the top). Each aims at fields by their names in the record (``hands``,
  ``beliefs``, ``pile``...), never at a game by its name, so a new game with such fields meets them too.

The games and their options come from the registry: :func:`true_record` draws any registered game's options
from what its option specs accept (:func:`option_choices`).

:func:`check_record` then says what ``load_game`` did: refused it with ``CorruptRecordError``
(``"refused"``), loaded a game that plays to its end with the bots, undo, views and records all working
(``"playable"``), refused it with another exception (``"rejected-raw"``), or loaded a game that then fails
(``"accepted-broken"``); with the seconds of the load and of the slowest move, and the peak of traced
memory (``tracemalloc``) over the load and over the play.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Card, Rank
from cardlab.engine.game import Game
from cardlab.policies import choose, make_policy

Path = list[str | int]
ODD_VALUES: list[Any] = [None, True, False, 0, 1, -1, 2, 7, 10**30, -(10**30), 1.5, float("nan"), "", "=x", "=",
                         "7H", "7H:1", "AS:2", "=play", "=setup", "=draw", [], {}, [None], ["7H"], [[[[[]]]]],
                         "x" * 1000, 2**63, 2**63 - 1]
HEADER = ("format", "version", "game", "players", "options", "shuffle_key", "initial", "moves")
"""The fields of a record's header, as ``Game.to_json`` writes them."""
SHITHEAD_CLASSES = [Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK,
                    Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO, Rank.TEN]
"""The 13 classes a Shithead belief counts a hand's unseen cards in: ordinary ranks by power, then 2, then 10."""
HUGE = "=__a 5,000-digit number__"
"""Stands for a number of 5,000 digits, which ``json.dumps`` cannot write: :func:`corrupt` puts it in the text."""
LONG_NUMBER = int("9" * 4000)
"""A number Python still reads (at most 4,300 digits) but no record holds."""


OPTION_TRIES: list[Any] = [True, False, 1, 2, 3, 5, 8, 30]
"""Values tried for every option of a game (besides its default and the words its ``accepted`` text quotes);
each is kept only where the option's own check accepts it."""


def option_choices(cls: type[Game[Any]]) -> dict[str, list[Any]]:
    """For each option of a game, the values to draw from: its default, the words its ``accepted`` text quotes
    (``'bottom' or 'shuffle'``), and :data:`OPTION_TRIES`, kept where the option's check accepts them. Read from
    the game's :attr:`~cardlab.engine.game.Game.option_specs` alone, so a new game's options are fuzzed too."""
    out: dict[str, list[Any]] = {}
    for key, spec in cls.option_specs.items():
        words = re.findall(r"'([^']*)'", spec.accepted)
        values: list[Any] = []
        for value in [spec.default, *words, *OPTION_TRIES]:
            if any(type(v) is type(value) and v == value for v in values):
                continue
            if isinstance(spec.default, int) and isinstance(value, int) and \
                    isinstance(spec.default, bool) != isinstance(value, bool):
                continue  # True is an int to Python, but not a number of turns
            try:
                ok = spec.check(value)
            except Exception:  # noqa: BLE001 - a check that cannot compare the value refuses it
                ok = False
            if ok:
                values.append(value)
        out[key] = values
    return out


def random_options(name: str, players: int, rng: np.random.Generator) -> dict[str, Any]:
    """Half the time the defaults; else each option drawn from :func:`option_choices`, the set kept when the
    game accepts it for ``players`` seats (options can depend on each other and on the player count)."""
    cls = cardlab.engine.game_class(name)
    if rng.random() < 0.5:
        return {}
    options = {key: values[int(rng.integers(len(values)))] for key, values in option_choices(cls).items()}
    try:
        cls(players, seed=0, **options)
    except cardlab.InvalidInputError:
        return {}
    return options


def true_record(name: str, rng: np.random.Generator) -> str:
    """A correct record of ``name``: random players, random options (:func:`random_options`), some random
    moves."""
    cls = cardlab.engine.game_class(name)
    players = int(rng.integers(cls.min_players, cls.max_players + 1))
    options = random_options(name, players, rng)
    game = cardlab.new_game(name, players=players, seed=int(rng.integers(2**32)), **options)
    most = 120 if rng.random() < 0.7 else 3000   # now and then late in the game, or over
    for _ in range(int(rng.integers(0, most))):
        if game.is_over:
            break
        legal = game.legal_moves()
        game.play(legal[int(rng.integers(len(legal)))])
    if rng.random() < 0.5:
        return game.to_json()
    record = json.loads(game.to_json())
    record["initial"] = game.state.to_data()
    record["moves"] = []
    return json.dumps(record)


def _paths(value: Any, path: Path, out: list[Path]) -> None:
    out.append(path)
    if isinstance(value, dict):
        for k, v in value.items():
            _paths(v, [*path, k], out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _paths(v, [*path, i], out)


def _get(root: Any, path: Path) -> Any:
    for step in path:
        root = root[step]
    return root


def _set(root: Any, path: Path, value: Any) -> None:
    _get(root, path[:-1])[path[-1]] = value


def _card_paths(record: Any) -> list[Path]:
    paths: list[Path] = []
    if isinstance(record.get("initial"), (dict, list)):   # an aimed mutation may have removed it
        _paths(record["initial"], ["initial"], paths)
    out = []
    for p in paths:
        v = _get(record, p)
        if isinstance(v, str) and not v.startswith("="):
            out.append(p)
    return out


def mutate(record: Any, rng: np.random.Generator) -> None:
    """One random mutation of the parsed record, in place."""
    paths: list[Path] = []
    _paths(record, [], paths)
    paths = [p for p in paths if p] or [["x"]]
    path = paths[int(rng.integers(len(paths)))]
    kind = int(rng.integers(9))
    try:
        value = _get(record, path)
    except (KeyError, IndexError, TypeError):
        return
    parent = _get(record, path[:-1])
    if kind == 0:
        _set(record, path, ODD_VALUES[int(rng.integers(len(ODD_VALUES)))])
    elif kind == 1 and isinstance(parent, dict):
        del parent[path[-1]]
    elif kind == 1 and isinstance(parent, list):
        del parent[int(path[-1])]
    elif kind == 2 and isinstance(value, list) and value:
        i = int(rng.integers(len(value)))
        choice = int(rng.integers(3))
        if choice == 0:
            value.insert(i, value[i])
        elif choice == 1:
            j = int(rng.integers(len(value)))
            value[i], value[j] = value[j], value[i]
        else:
            value.append(value[i])
    elif kind == 3 and type(value) is int:
        _set(record, path, value + int(rng.choice([-3, -1, 1, 2, 5, 100])))
    elif kind == 3 and type(value) is bool:
        _set(record, path, not value)
    elif kind in (4, 5):
        cards = _card_paths(record)
        if len(cards) >= 2:
            a, b = (cards[int(k)] for k in rng.choice(len(cards), 2, replace=False))
            if kind == 4:  # swap two cards: they still add up
                va, vb = _get(record, a), _get(record, b)
                _set(record, a, vb)
                _set(record, b, va)
            else:  # move one card to another list
                src = _get(record, a[:-1])
                dst = _get(record, b[:-1])
                if isinstance(src, list) and isinstance(dst, list) and src is not dst:
                    card = src.pop(int(a[-1]))
                    dst.insert(int(rng.integers(len(dst) + 1)), card)
    elif kind == 6 and isinstance(record.get("moves"), list):
        moves = record["moves"]
        texts = ["draw stock", "pick up", "play 7 x\u00b2", "play 7", "discard", "payoff to centre 1",
                 "face up 7\u2665", "hand 7H to side 1", "x" * 10_000, "play face-down card 3"]
        if moves and rng.random() < 0.5:
            moves[int(rng.integers(len(moves)))] = texts[int(rng.integers(len(texts)))]
        else:
            moves.insert(int(rng.integers(len(moves) + 1)), texts[int(rng.integers(len(texts)))])
    elif kind == 7 and isinstance(parent, dict):
        parent["extra" + str(int(rng.integers(10)))] = 1
    elif kind == 8 and isinstance(value, dict) and value:
        keys = list(value)
        del value[keys[int(rng.integers(len(keys)))]]


def _int_paths(record: Any) -> list[Path]:
    paths: list[Path] = []
    _paths(record, [], paths)
    return [p for p in paths if p and type(_get(record, p)) is int]


def aim_number(record: Any, rng: np.random.Generator) -> None:
    """A whole number anywhere written as a float, a bool, a 4,000- or 5,000-digit number, or a half."""
    paths = _int_paths(record)
    if not paths:
        return
    path = paths[int(rng.integers(len(paths)))]
    value = _get(record, path)
    small = value if abs(value) < 2**1000 else 1      # an earlier mutation may have made it long already
    _set(record, path, [float(small), bool(value % 2), True, LONG_NUMBER, -LONG_NUMBER, HUGE, small + 0.5,
                        float("nan"), float("inf")][int(rng.integers(9))])


def aim_header(record: Any, rng: np.random.Generator) -> None:
    """``version`` as 1.0, true or "1"; a header field removed; ``players`` as a float or a bool."""
    k = int(rng.integers(3))
    if k == 0:
        record["version"] = [1.0, True, "1", [1]][int(rng.integers(4))]
    elif k == 1:
        record.pop(HEADER[int(rng.integers(len(HEADER)))], None)
    elif type(record.get("players")) is int and abs(record["players"]) < 2**1000:
        record["players"] = [float(record["players"]), True, record["players"] + 0.5][int(rng.integers(3))]


def _real_state(initial: dict[str, Any], p: int) -> list[int] | None:
    """The class counts of the unseen cards of Shithead hand ``p`` (None when the record cannot say)."""
    try:
        hand = [Card.parse(c) for c in initial["hands"][p]]
        for c in initial["known"][p]:
            hand.remove(Card.parse(c))
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    real = [0] * len(SHITHEAD_CLASSES)
    for c in hand:
        real[SHITHEAD_CLASSES.index(c.rank)] += 1
    return real


def aim_belief(record: Any, rng: np.random.Generator) -> None:
    """A Shithead belief edited: emptied, a weight of the wrong type, the real cards ruled out, a count
    changed, a state added, or a belief given to a hand about which play teaches nothing."""
    initial = record.get("initial")
    if not isinstance(initial, dict) or not isinstance(initial.get("beliefs"), list) or not initial["beliefs"]:
        return
    held = initial["beliefs"]
    p = int(rng.integers(len(held)))
    belief = held[p]
    real = _real_state(initial, p)
    k = int(rng.integers(6))
    if k == 0 or not isinstance(belief, list):
        held[p] = []
    elif k == 1 and belief:
        entry = belief[int(rng.integers(len(belief)))]
        odd: list[Any] = ["=3", "3", None, float("nan"), [1], 1.5, True, 0, -2, 1e300, LONG_NUMBER, HUGE, {}]
        entry[1] = odd[int(rng.integers(len(odd)))]
    elif k == 2 and belief and real is not None:   # the real cards ruled out
        held[p] = [e for e in belief if e[0] != real] or [[[*real[1:], real[0]], 1]]
    elif k == 3 and belief:
        state = belief[int(rng.integers(len(belief)))][0]
        i, j = (int(x) for x in rng.integers(len(state), size=2))
        state[i] += 1
        if rng.random() < 0.7:
            state[j] -= 1
    elif k == 4 and real is not None:              # only the real state: true, and as sharp as it gets
        held[p] = [[real, int(rng.integers(1, 5))]]
    else:                                          # a state more, or a belief where none can be
        state = [0] * len(SHITHEAD_CLASSES)
        state[int(rng.integers(len(SHITHEAD_CLASSES)))] = int(sum(real)) if real else 1
        held[p] = [*belief, [state, 1]] if isinstance(belief, list) else [[state, 1]]


def _card_lists(initial: Any) -> list[Path]:
    """Paths (inside ``initial``) of the lists that hold cards."""
    paths: list[Path] = []
    _paths(initial, [], paths)
    out = []
    for p in paths:
        v = _get(initial, p)
        if isinstance(v, list) and v and all(isinstance(c, str) and not c.startswith("=") for c in v):
            out.append(p)
    return out


def aim_cards(record: Any, rng: np.random.Generator) -> None:
    """Cards moved between zones, the cards still adding up: in a game whose state has ``hands``, up to 20
    cards of a face-down pile (``draw`` or ``stock``, else out of play: ``out``) into the hand of the player
    to move, that hand's belief (if the game keeps ``beliefs``) emptied now and then; else several cards from
    one card list to another."""
    initial = record.get("initial")
    if not isinstance(initial, dict):
        return
    k = int(rng.integers(1, 21))
    piles = [key for key in ("draw", "stock") if isinstance(initial.get(key), list) and initial[key]]
    if isinstance(initial.get("hands"), list) and rng.random() < 0.7:
        try:
            seat = initial["to_move"]
            hand = initial["hands"][seat]
            source = initial[piles[0] if piles and rng.random() < 0.7 else "out"]
            if not isinstance(hand, list) or not isinstance(source, list):
                return
        except (KeyError, IndexError, TypeError):
            return
        for _ in range(min(k, len(source))):
            hand.append(source.pop(int(rng.integers(len(source)))))
        if rng.random() < 0.7 and isinstance(initial.get("beliefs"), list) and seat < len(initial["beliefs"]):
            initial["beliefs"][seat] = []
        return
    lists = _card_lists(initial)
    if len(lists) < 2:
        return
    a, b = (lists[int(i)] for i in rng.choice(len(lists), 2, replace=False))
    src, dst = _get(initial, a), _get(initial, b)
    for _ in range(min(k, len(src))):
        dst.insert(int(rng.integers(len(dst) + 1)), src.pop(int(rng.integers(len(src)))))


def aim_pile(record: Any, rng: np.random.Generator) -> None:
    """A card put on top of the pile (Shithead ``pile``, Garbage ``discard``, a Spite and Malice centre
    pile) from another zone: a 10, another card of the top's rank (four of a kind), or any card."""
    initial = record.get("initial")
    if not isinstance(initial, dict):
        return
    tops: list[Path] = [["pile"], ["discard"]]
    tops += [["centre", i] for i in range(4)]
    tops = [p for p in tops if isinstance(_safe_get(initial, p), list)]
    if not tops:
        return
    pile = _get(initial, tops[int(rng.integers(len(tops)))])
    others = [p for p in _card_lists(initial) if _get(initial, p) is not pile]
    spots = [(p, i) for p in others for i, _ in enumerate(_get(initial, p))]
    if not spots:
        return
    top_rank = pile[-1].split(":")[0][:-1] if pile and isinstance(pile[-1], str) else None
    k = int(rng.integers(3))
    wanted = [s for s in spots if _get(initial, s[0])[s[1]].startswith("10")] if k == 0 else \
        [s for s in spots if top_rank and _get(initial, s[0])[s[1]].split(":")[0][:-1] == top_rank] if k == 1 else []
    for _ in range(int(rng.integers(1, 4)) if k == 1 else 1):
        pool = wanted or spots
        if not pool:
            return
        path, i = pool.pop(int(rng.integers(len(pool))))
        source = _get(initial, path)
        if i >= len(source):
            continue
        pile.append(source.pop(i))
        wanted = [s for s in wanted if s[0] != path or s[1] < i]
        spots = [s for s in spots if s[0] != path or s[1] < i]


def _safe_get(root: Any, path: Path) -> Any:
    try:
        return _get(root, path)
    except (KeyError, IndexError, TypeError):
        return None


AIMED: list[Callable[[Any, np.random.Generator], None]] = [aim_number, aim_header, aim_belief, aim_cards, aim_pile]
"""The aimed mutations: each reaches a kind of record that once loaded broken or blew up."""


def corrupt(text: str, rng: np.random.Generator) -> str:
    """One to three mutations of the record text (blind ones, and half the time an aimed one too); now
    and then a cut or changed character instead."""
    r = rng.random()
    if r < 0.04:
        return text[: int(rng.integers(len(text)))]
    if r < 0.08:
        i = int(rng.integers(len(text)))
        return text[:i] + str(rng.choice(list("[]{}\",:0x\u00b2 "))) + text[i + 1:]
    if r < 0.09:
        return "[" * 100_000 + "]" * 100_000
    record = json.loads(text)
    if rng.random() < 0.5:
        AIMED[int(rng.integers(len(AIMED)))](record, rng)
        for _ in range(int(rng.integers(0, 2))):
            mutate(record, rng)
    else:
        for _ in range(int(rng.integers(1, 4))):
            mutate(record, rng)
    return json.dumps(record).replace(json.dumps(HUGE), "9" * 5000)


class Broken(Exception):
    """A loaded game that fails: a legal move, undo, a view or the record round trip does not work."""


@dataclasses.dataclass
class Outcome:
    """What :func:`check_record` saw: ``kind`` is "refused", "playable", "rejected-raw" or "accepted-broken"."""

    kind: str
    detail: str = ""
    load_wall: float = 0.0
    """Seconds of the load (wall clock; the CPU seconds are ``load_cpu``)."""
    load_cpu: float = 0.0
    move_wall: float = 0.0
    """Seconds of the slowest move played on from the loaded position (wall clock; CPU: ``move_cpu``)."""
    move_cpu: float = 0.0
    load_peak: int = 0
    """Peak of traced memory (``tracemalloc``) during a second, traced load, in bytes (0 when not traced)."""


def _round_trip(game: Game[Any]) -> None:
    again = cardlab.load_game(game.to_json())
    if again.state.to_data() != game.state.to_data():
        raise Broken("the record's round trip changes the position")


def play_through(game: Game[Any], rng: np.random.Generator, most: int = 1500) -> tuple[float, float]:
    """Check the loaded position (every seat's view, the record round trip, every legal move played and
    taken back), then play on with greedy and random bots in turn (``most`` moves at most), checking views,
    undo and records; returns the wall and CPU seconds of the slowest move. Failures raise (never
    ``assert``: this also runs under ``python -O``)."""
    for seat in [None, *range(game.players)]:
        game.observe(seat)
    _round_trip(game)
    before = game.state.to_data()
    for move in game.legal_moves():
        game.play(move)
        game.undo()
        if game.state.to_data() != before:
            raise Broken(f"{move.text!r} then undo does not restore the position")
    policies: list[Callable[..., Any]] = [make_policy("greedy", game.name, rng), make_policy("random", game.name, rng)]
    wall = cpu = 0.0
    for i in range(most):
        if game.is_over:
            break
        if not game.legal_moves():
            raise Broken(f"{game.name}: not over but no legal move")
        w, c = time.perf_counter(), time.process_time()
        game.play(choose(policies[i % 2], game))
        wall, cpu = max(wall, time.perf_counter() - w), max(cpu, time.process_time() - c)
        if i % 97 == 0:
            game.undo()
            for seat in [None, *range(game.players)]:
                game.observe(seat)
    _round_trip(game)
    str(game)
    repr(game)
    game.stats()
    return wall, cpu


def traced_load_peak(text: str) -> int:
    """The peak of traced memory (bytes) while ``load_game`` reads ``text``, whatever it then does."""
    tracemalloc.start()
    try:
        cardlab.load_game(text)
    except Exception:  # noqa: BLE001, S110 - only the memory is measured here
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def check_record(text: str, rng: np.random.Generator, most: int = 1500, trace: bool = False) -> Outcome:
    """What ``load_game`` makes of ``text``, and what the loaded game then does (:class:`Outcome`), with the
    seconds of the load and of the slowest move; ``trace=True`` loads the text a second time under
    ``tracemalloc`` for the load's peak of memory (the timed load is not traced, which would slow it)."""
    wall, cpu = time.perf_counter(), time.process_time()

    def took() -> tuple[float, float]:
        return time.perf_counter() - wall, time.process_time() - cpu

    try:
        game = cardlab.load_game(text)
    except cardlab.CorruptRecordError as exc:
        kind, detail = ("refused", str(exc)[:200]) if "record" in str(exc) else \
            ("rejected-raw", f"a refusal that names no record field: {str(exc)[:200]}")
        return Outcome(kind, detail, *took(), load_peak=traced_load_peak(text) if trace else 0)
    except Exception as exc:  # noqa: BLE001 - the point is to catch every raw error
        return Outcome("rejected-raw", f"{type(exc).__name__}: {str(exc)[:200]}", *took(),
                       load_peak=traced_load_peak(text) if trace else 0)
    out = Outcome("playable", "", *took(), load_peak=traced_load_peak(text) if trace else 0)
    try:
        out.move_wall, out.move_cpu = play_through(game, rng, most)
    except Exception as exc:  # noqa: BLE001
        out.kind, out.detail = "accepted-broken", f"{type(exc).__name__}: {str(exc)[:200]}"
    return out
