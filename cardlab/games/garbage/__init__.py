"""Garbage: the readable rules (:mod:`.rules`), the greedy bot (:mod:`.bot`), the panel's questions
(:mod:`.questions`), the table drawing (:mod:`.table`, the view, imported only to draw) and the fast
kernel (:mod:`.kernel`). This package registers the game's one :class:`~cardlab.engine.spec.GameSpec`.

The kernel module loads numba (about half a second), which dealing, playing or drawing a game does not
need: the spec holds a :class:`~cardlab.engine.spec.LazyKernel`, which imports it on the first play-out or
simulation."""

from cardlab.games.garbage.rules import *  # noqa: F403  (the rules' names, as before the package)  # isort: skip
from cardlab.engine.registry import register
from cardlab.engine.spec import RolloutBudgets, package_spec
from cardlab.games.garbage.bot import greedy_garbage
from cardlab.games.garbage.questions import panel
from cardlab.games.garbage.rules import Garbage

SPEC = register(package_spec(
    __name__, Garbage, lambda: greedy_garbage, panel, RolloutBudgets(win=2000, panel=1000, batch=500),
    curve_title="wins within k turns",
))
"""Play-outs per estimate in the stepper, chosen so that a Next move with every panel refreshed stays well
under 100 ms (``benchmarks/bench_stepper.py`` measures it)."""
