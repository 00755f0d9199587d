"""The Spite and Malice kernel reads each rule and the greedy bot's preference from their one statement.

* **The tables are the statements.** The bot's steps in the kernel's table are ``bot.PREFERENCE``, the kernel's
  pile-complete entries are the rules' ``completes``, and its Queen and King are the rules'.
* **A changed statement changes both paths.** With the bot's steps reversed, the kernel (``game_moves``) and the
  engine's greedy bot play the same games of the same seed and index, card for card, and they are other games
  than the usual ones.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardlab.games.spite_malice import SpiteMalice, bot, rules
from cardlab.games.spite_malice import kernel as ksm


def test_the_kernels_steps_and_pile_complete_are_the_bots_and_the_rules() -> None:
    """The bot's steps in the kernel's table are the bot's one statement of its preference (``bot.PREFERENCE``),
    and the kernel's pile-complete entries (in the options array) are the rules' :func:`completes`."""
    for king_starts in (True, False):
        tab = ksm.rule_tables(king_starts)
        steps = [ksm.STEP_NAMES[int(c)] for c in tab[ksm.T_STEPS:ksm.T_STEPS + ksm.STEP_COUNT]]
        assert steps == list(bot.PREFERENCE) and set(steps) == set(bot.STEPS)
    opts = ksm.options_array(SpiteMalice(seed=0).options)
    done = [bool(x) for x in opts[ksm.O_COMPLETE:ksm.O_COMPLETE + rules.QUEEN + 1]]
    assert done == [rules.completes(v) for v in range(rules.QUEEN + 1)] and sum(done) == 1
    assert ksm.KING == int(rules.KING) and ksm.QUEEN == rules.QUEEN


def greedy_games(options: dict[str, Any]) -> tuple[list[list[str]], list[SpiteMalice]]:
    """Games 0-5 of the run with seed 4: the kernel's greedy moves (``game_moves``) and the engine's greedy
    games of the same seed and index."""
    kernel, engine = [], []
    normal = SpiteMalice(seed=0, **options).options
    for i in range(6):
        kernel.append(ksm.game_moves(2, normal, 4, i, ["greedy", "greedy"]))
        game = SpiteMalice(seed=4, index=i, **options)
        while not game.is_over:
            game.play(bot.greedy_spite_malice(game.observe(game.current_player), game.legal_moves()))
        engine.append(game)
    return kernel, engine


@pytest.mark.parametrize("options", [{}, {"king_starts_pile": False, "refill_on_empty": False}])
def test_the_kernel_plays_the_bot_as_written(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel reads the bot's one statement of its preference when it plays, never a copy: with the steps
    reversed (discard first, the payoff top last) the kernel and the engine's greedy bot still play the same
    games card for card, and those games are not the bot's usual ones."""
    usual, _ = greedy_games(options)
    monkeypatch.setattr(bot, "PREFERENCE", tuple(reversed(bot.PREFERENCE)))
    kernel, engine = greedy_games(options)
    assert kernel == [[m.text for m in g.moves] for g in engine]
    assert all(a != b for a, b in zip(usual, kernel, strict=True))
    for game in engine:  # a hand that holds a card always discards: a play to the centre comes from no hand
        assert not any(m.kind == "hand" for m in game.moves)
