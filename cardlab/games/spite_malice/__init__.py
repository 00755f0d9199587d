"""Spite and Malice: the readable rules (:mod:`.rules`), the greedy bot (:mod:`.bot`), the panel's questions
(:mod:`.questions`), the table drawing (:mod:`.table`, the view, imported only to draw) and the one fast
kernel (:mod:`.kernel`, compiled with numba). This package registers the game's one
:class:`~cardlab.engine.spec.GameSpec`.

The kernel module loads numba, which dealing, playing or drawing a game does not need: the spec holds a
:class:`~cardlab.engine.spec.LazyKernel`, which imports it on the first play-out or simulation."""

from cardlab.games.spite_malice.rules import *  # noqa: F403  (the rules' names, as before the package)  # isort: skip
from cardlab.engine.registry import register
from cardlab.engine.spec import RolloutBudgets, package_spec
from cardlab.games.spite_malice.bot import greedy_spite_malice, uninformed_spite_malice
from cardlab.games.spite_malice.questions import panel
from cardlab.games.spite_malice.rules import SpiteMalice

SPEC = register(package_spec(
    __name__, SpiteMalice, lambda: greedy_spite_malice, panel, RolloutBudgets(win=2000, panel=1000),
    uninformed=uninformed_spite_malice,
))
"""Play-outs per estimate in the stepper, chosen so that a Next move with every panel refreshed stays well
under 100 ms (``benchmarks/bench_stepper.py`` measures it)."""
