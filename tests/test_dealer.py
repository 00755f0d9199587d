"""The one dealer (:mod:`cardlab.dealer`): a seed and a game index give the same cards on every path.

* **Kernel and engine play the same games.** For every registered game that has a kernel, every player count
  and every option that changes how cards are shuffled or dealt (each ``True``/``False`` option flipped, each
  named choice), game ``i`` of a kernel run (``game_moves``) and ``new_game(name, seed=s, index=i)`` played by
  the engine with the greedy bots make the same moves, card for card (Spite and Malice and Shithead moves name
  their cards; Garbage's choices depend on every card drawn), and end with the same winner. The figure of
  1,000 seeds per game and player count is ``benchmarks/check_one_dealer.py`` (docs/performance.md).
* **A mixed run keeps its deals.** ``simulate`` with a Python function in one seat plays on the engine; with
  built-in policies only it plays on the kernel. A function that plays exactly as ``greedy`` gives the very
  same winner and length, game by game, as the all-built-in run: the pairing a lesson's paired comparison
  relies on.
* **The engine's deal is the dealer's.** A game's cards come from its key alone: the same seed and index deal
  the same cards whatever else happened, another index deals others, and a game made from a generator
  records the key it drew.
* **The Python generator is the compiled one**: :class:`~cardlab.dealer.Dealer`'s streams are what a kernel's
  ``deal_shuffle`` draws (tested against :func:`~cardlab.dealer.kernel_state`).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.chance.jitkit import deal_shuffle, kernel_state
from cardlab.dealer import DEAL, Dealer, SplitMix64, game_key, stream_seed
from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_spec
from cardlab.policies import choose, make_policy

GAMES = cardlab.game_names()
SEEDS = 8
"""Games per player count and option set here (the benchmark checks 1,000)."""


def option_variants(cls: type[Game[Any]]) -> list[dict[str, Any]]:
    """The default options, then each option that names its values set to every other value, one at a time
    (a bool flipped; each of ``choices``)."""
    out: list[dict[str, Any]] = [{}]
    for key, spec in cls.option_specs.items():
        values = spec.choices or ((not spec.default,) if isinstance(spec.default, bool) else ())
        out += [{key: v} for v in values if v != spec.default]
    return out


def engine_moves(name: str, players: int, seed: int, index: int, options: dict[str, Any]) -> tuple[list[str], Any]:
    """Game ``index`` of the run with ``seed``, played by the engine with the greedy bot in every seat."""
    game = cardlab.new_game(name, players=players, seed=seed, index=index, **options)
    bots = [make_policy("greedy", name, np.random.default_rng(0)) for _ in range(players)]
    while not game.is_over:
        game.play(choose(bots[game.current_player], game))
    return [m.text for m in game.moves], game.winner


@pytest.mark.parametrize("name", GAMES)
def test_a_kernel_game_is_the_engine_game_card_for_card(name: str) -> None:
    spec = game_spec(name)
    cls = spec.rules
    if spec.kernel is None:  # no kernel: the engine path alone, checked by the next tests
        assert spec.kernel is None and cls.name == name
        return
    compared = 0
    for players in range(cls.min_players, cls.max_players + 1):
        for options in option_variants(cls):
            if options and players != cls.min_players + (cls.max_players > cls.min_players):
                continue  # every option at one player count (two where the game allows it); defaults at all
            normal = cardlab.new_game(name, players=players, seed=0, **options).options
            for i in range(SEEDS):
                seed = 7 + 3 * i
                kernel = spec.kernel.game_moves(players, normal, seed, i, ["greedy"] * players)
                engine, _ = engine_moves(name, players, seed, i, options)
                assert kernel == engine, (name, players, options, seed, i)
                compared += 1
    assert compared >= SEEDS * (cls.max_players - cls.min_players + 1)


def _as_function(name: str) -> Any:
    """The greedy bot as a plain Python function (which ``simulate`` plays on the engine)."""
    bot = make_policy("greedy", name, np.random.default_rng(0))

    def mine(view: Any, legal_moves: list[Move]) -> Move | str:
        return bot(view, legal_moves)

    return mine


@pytest.mark.parametrize("name", GAMES)
def test_a_mixed_run_is_played_on_the_deals_of_the_built_in_run(name: str) -> None:
    cls = game_spec(name).rules
    players = cls.min_players if cls.min_players > 1 else 2
    built_in = cardlab.simulate(name, players=players, games=12, seed=11, policy=["greedy"] * players,
                                progress=False)
    mixed = cardlab.simulate(name, players=players, games=12, seed=11,
                             policy=[_as_function(name)] + ["greedy"] * (players - 1), progress=False)
    assert mixed.method == "engine"
    assert built_in.winners.tolist() == mixed.winners.tolist()
    assert built_in.turns.tolist() == mixed.turns.tolist()


@pytest.mark.parametrize("name", GAMES)
def test_the_deal_depends_on_the_seed_and_index_alone(name: str) -> None:
    def dealt(**kw: Any) -> Any:
        return cardlab.new_game(name, **kw).to_json()

    first = dealt(seed=5, index=3)
    cardlab.new_game(name, seed=5, index=2).legal_moves()  # nothing global moves between deals
    assert dealt(seed=5, index=3) == first
    assert dealt(seed=5) == dealt(seed=5, index=0)
    assert dealt(seed=5, index=4) != first
    game = cardlab.new_game(name, seed=5, index=3)
    assert game.shuffle_key == game_key(5, 3)
    drawn = cardlab.new_game(name, rng=np.random.default_rng(1))
    assert cardlab.load_game(drawn.to_json()).to_json() == drawn.to_json()


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None])
def test_a_bad_index_is_refused(bad: Any) -> None:
    with pytest.raises(cardlab.CardlabError, match="index="):
        cardlab.new_game(GAMES[0], seed=1 if bad is not None else None, index=bad if bad is not None else 2)


def test_the_python_streams_are_the_compiled_ones() -> None:
    for key in (0, 1, 2**63 + 5, 2**64 - 1):
        state = kernel_state(key)
        deck = np.arange(104, dtype=np.int64)
        with np.errstate(over="ignore"):
            deal_shuffle(deck, 104, state, DEAL)
        expected = Dealer(key).deal().permute(104)
        assert deck.tolist() == expected
        for count in (0, 3):
            part = np.arange(40, dtype=np.int64)
            with np.errstate(over="ignore"):
                deal_shuffle(part, 40, state, count + 1)
            assert part.tolist() == Dealer(key).shuffle(count).permute(40)
        assert Dealer(key).stream(9).next() == SplitMix64(stream_seed(key, 9)).next()


@pytest.mark.parametrize("name", GAMES)
def test_a_record_shuffled_before_the_one_dealer_is_refused(name: str) -> None:
    record = json.loads(cardlab.new_game(name, seed=3).to_json())
    assert record["version"] == 2
    record["version"] = 1
    with pytest.raises(cardlab.CorruptRecordError, match="version-1 record was shuffled before the one dealer"):
        cardlab.load_game(json.dumps(record))
