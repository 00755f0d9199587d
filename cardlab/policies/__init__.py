"""Policies (bots). A policy is any callable ``(view, legal_moves) -> move`` (:mod:`cardlab.engine.policy`).

``view`` is what the seat to move may see (``game.observe(seat)``), ``legal_moves`` the list of
:class:`~cardlab.engine.Move`; the policy returns one of them or its text. A student's own function of
that shape plays as well as the built-in ones. Built-ins are named ``"random"``, ``"greedy"`` (the game's
bot), ``"uninformed"``: a player whose choices carry as little information about its hidden cards as
the rules allow, which is what the chance laws assume (see each game's ``bot`` module), and ``"search"``:
the move with the best win chance from its own information (:mod:`cardlab.policies.search`). A policy
that is a :class:`~cardlab.engine.policy.Decider` (the search player) is asked through ``decide(game)``: it
reads the game's chance law for its seat, which the view alone does not give.

The first three, and asking a policy for a move (:func:`choose`), live in the engine
(:mod:`cardlab.engine.policy`), below the analyses that play with them; the search player is built on those
analyses (:mod:`cardlab.sim.move_values`), so it lives here, above them.
"""

from __future__ import annotations

import numpy as np

from cardlab.engine.policy import (
    BUILTIN_NAMES,
    MESSAGE_LIMIT,
    Decider,
    Policy,
    RandomPolicy,
    builtin_policy,
    choose,
    failure_text,
    replay_hint,
)
from cardlab.errors import InvalidInputError, shown
from cardlab.policies.search import SearchPolicy

POLICY_NAMES = (*BUILTIN_NAMES, "search")


def make_policy(spec: str | Policy, game_name: str, rng: np.random.Generator) -> Policy:
    """Turn ``"random"``, ``"greedy"``, ``"uninformed"``, ``"search"`` or a callable into a policy for ``game_name``.

    ``"greedy"`` is the bot the game's spec registers (:attr:`~cardlab.engine.spec.GameSpec.bot`);
    ``"uninformed"`` its :attr:`~cardlab.engine.spec.GameSpec.uninformed` player, drawing from ``rng`` (the
    greedy bot where the game registers none: no choice there depends on a hidden card)."""
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"rng={shown(rng)} is not a numpy.random.Generator")
    if callable(spec):
        return spec
    if isinstance(spec, str) and spec == "search":
        return SearchPolicy(rng)
    if isinstance(spec, str) and spec in BUILTIN_NAMES:
        try:
            return builtin_policy(spec, game_name, rng)
        except InvalidInputError:
            pass
    raise InvalidInputError(
        f"unknown policy {shown(spec)} for {shown(game_name)}; accepted: 'random', 'greedy', 'uninformed', "
        "'search', or a callable (view, legal_moves)")




__all__ = ["MESSAGE_LIMIT", "POLICY_NAMES", "Decider", "Policy", "RandomPolicy", "SearchPolicy", "builtin_policy",
           "choose", "failure_text", "make_policy", "replay_hint"]
