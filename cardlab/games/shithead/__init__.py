"""Shithead: the readable rules (:mod:`.rules`), the greedy bot (:mod:`.bot`), the panel's questions
(:mod:`.questions`), the table drawing (:mod:`.table`, the view, imported only to draw) and the fast
kernel (:mod:`.kernel`, compiled with numba). This package registers the game's one
:class:`~cardlab.engine.spec.GameSpec`.

The kernel module loads numba, which dealing, playing or drawing a game does not need: the spec holds a
:class:`~cardlab.engine.spec.LazyKernel`, which imports it on the first play-out or simulation."""

from cardlab.games.shithead.rules import *  # noqa: F403  (the rules' names, as before the package)  # isort: skip
from cardlab.engine.registry import register
from cardlab.engine.spec import RolloutBudgets, package_spec
from cardlab.games.shithead.bot import greedy_shithead, uninformed_shithead
from cardlab.games.shithead.questions import panel
from cardlab.games.shithead.rules import Shithead

SPEC = register(package_spec(
    __name__, Shithead, lambda: greedy_shithead, panel, RolloutBudgets(win=2000, panel=1000, batch=500),
    uninformed=uninformed_shithead,
))
"""Play-outs per estimate in the stepper: 2,000 per P(win) point and 1,000 per "picks up on its next turn",
with a Next move and every panel refreshed well under 100 ms (``benchmarks/bench_stepper.py`` measures it).
On a time budget the play-outs run in batches of 500 (a call of the kernel costs about 0.2 ms)."""
