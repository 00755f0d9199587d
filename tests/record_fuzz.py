"""Corrupted records for the robustness tests and figures (``tests/test_records.py``, ``python -m tests.robustness``).

A corrupted record starts from a true one: a game dealt with a seed, played some random moves, and
written either as :meth:`Game.to_json` (the dealt position and the moves) or as a record whose dealt
position *is* the current, mid-game position with no moves. Then one to three mutations hit it: a value
anywhere replaced by a value of another type, out of range, or nested deep; a key removed or added;
list entries removed, repeated, swapped or appended; a number nudged; two cards swapped between places
or one card moved to another place (so the cards still add up and only the rules can tell); a move text
changed; the JSON text cut or one character changed.

:func:`check_record` then says what ``load_game`` did: refused it with ``CorruptRecordError``
(``"refused"``), loaded a game that plays to its end with the bots, undo, views and records all
working (``"playable"``), or anything else (``"raw: ..."``, ``"hang"``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cardlab
from cardlab.engine.game import Game
from cardlab.policies import choose, make_policy

Path = list[str | int]
ODD_VALUES: list[Any] = [None, True, False, 0, 1, -1, 2, 7, 10**30, -(10**30), 1.5, float("nan"), "", "=x", "=",
                         "7H", "7H:1", "AS:2", "=play", "=setup", "=draw", [], {}, [None], ["7H"], [[[[[]]]]],
                         "x" * 1000, 2**63, 2**63 - 1]


def true_record(name: str, rng: np.random.Generator) -> str:
    """A correct record of ``name``: random players, options left at their defaults, some random moves."""
    cls = cardlab.engine.game_class(name)
    players = int(rng.integers(cls.min_players, cls.max_players + 1))
    options: dict[str, Any] = {}
    if name == "spite-and-malice" and rng.random() < 0.5:
        options = {"payoff_size": int(rng.integers(1, 8)), "match": bool(rng.random() < 0.5),
                   "completed_to": "shuffle" if rng.random() < 0.5 else "bottom"}
    if name == "garbage" and rng.random() < 0.5:
        options = {"last_round": True, "match": bool(rng.random() < 0.5)}
    if name == "shithead" and rng.random() < 0.5:
        options = {"play_to_last": True, "first": "lowest3"}
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
    _paths(record.get("initial"), ["initial"], paths)
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
        del parent[path[-1]]
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


def corrupt(text: str, rng: np.random.Generator) -> str:
    """One to three mutations of the record text; now and then a cut or changed character instead."""
    r = rng.random()
    if r < 0.04:
        return text[: int(rng.integers(len(text)))]
    if r < 0.08:
        i = int(rng.integers(len(text)))
        return text[:i] + str(rng.choice(list("[]{}\",:0x\u00b2 "))) + text[i + 1:]
    if r < 0.09:
        return "[" * 100_000 + "]" * 100_000
    record = json.loads(text)
    for _ in range(int(rng.integers(1, 4))):
        mutate(record, rng)
    return json.dumps(record)


def play_through(game: Game[Any], rng: np.random.Generator, most: int = 1500) -> None:
    """Play on with greedy and random bots in turn (``most`` moves at most), checking views, undo and records."""
    policies: list[Callable[..., Any]] = [make_policy("greedy", game.name, rng), make_policy("random", game.name, rng)]
    for seat in [None, *range(game.players)]:
        game.observe(seat)
    for i in range(most):
        if game.is_over:
            break
        legal = game.legal_moves()
        assert legal, f"{game.name}: not over but no legal move"
        game.play(choose(policies[i % 2], game))
        if i % 97 == 0:
            game.undo()
            for seat in [None, *range(game.players)]:
                game.observe(seat)
    text = game.to_json()
    again = cardlab.load_game(text)
    assert again.state.to_data() == game.state.to_data()
    str(game)
    repr(game)
    game.stats()


def check_record(text: str, rng: np.random.Generator, most: int = 1500) -> tuple[str, float]:
    """What ``load_game`` makes of ``text``: "refused", "playable" or "raw: ..."; and the load's seconds."""
    start = time.perf_counter()
    try:
        game = cardlab.load_game(text)
    except cardlab.CorruptRecordError as exc:
        assert "record" in str(exc)
        return "refused", time.perf_counter() - start
    except Exception as exc:  # noqa: BLE001 - the point is to catch every raw error
        return f"raw at load: {type(exc).__name__}: {str(exc)[:200]}", time.perf_counter() - start
    elapsed = time.perf_counter() - start
    try:
        play_through(game, rng, most)
    except Exception as exc:  # noqa: BLE001
        return f"raw in play: {type(exc).__name__}: {str(exc)[:200]}", elapsed
    return "playable", elapsed
