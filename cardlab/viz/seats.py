"""Who plays each seat of a stepper: the players offered for a game, the ``policies=`` argument checked, and the
True/False options checked. No widget here (the controller and the stepper both use it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown
from cardlab.policies import Policy, make_policy
from cardlab.viz import controls


def policy_options(game_name: str) -> tuple[str, ...]:
    """The seat players offered for a game: ``greedy`` only where the game has a greedy bot registered."""
    try:
        make_policy("greedy", game_name, np.random.default_rng(0))
    except InvalidInputError:
        return tuple(p for p in controls.POLICY_CHOICES if p not in ("greedy", "search"))  # search plays over greedy
    return controls.POLICY_CHOICES


def policy_specs(game: Game[Any], policies: Sequence[str | Policy] | None) -> tuple[list[str], dict[int, Policy]]:
    """The seat players' names and the callables of ``Stepper(policies=...)``, checked (None: the default)."""
    options = policy_options(game.name)
    if policies is None:
        return [options[0]] * game.players, {}
    players = game.players
    try:
        count = len(policies)
    except TypeError:
        count = -1
    if isinstance(policies, (str, bytes)) or count != players:
        raise InvalidInputError(f"policies={shown(policies)} must list one policy per seat ({players} seats): "
                                f"'greedy', 'random', 'human' or a callable (view, legal_moves)")
    names: list[str] = []
    custom: dict[int, Policy] = {}
    for seat, spec in enumerate(policies):
        if callable(spec):
            custom[seat] = spec
            names.append(controls.CUSTOM)
        elif isinstance(spec, str) and spec in options:
            names.append(spec)
        else:
            raise InvalidInputError(f"policy {shown(spec)} for seat {seat} is not one of "
                                    f"{', '.join(map(repr, options))} or a callable")
    return names, custom


def check_flag(value: Any, what: str) -> bool:
    """A True/False option, or a clear refusal."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidInputError(f"{what}={shown(value)} is not True or False")
    return bool(value)
