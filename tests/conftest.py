"""Session-wide settings for every test run.

A test process must stop promptly when its session ends. Under ``pytest -n 2`` the controller tells each
worker to exit once the worker reports that its session finished; execnet waits 5 seconds for the worker to
get there and then sends the worker SIGINT. After that report a worker still runs pytest's unconfigure, which
starts a full garbage collection. By then the heap holds every widget the tests made (ipywidgets keeps each
one in its registry until it is closed) and a collection took 0.3-0.6 s on an idle machine, several seconds on
a loaded one. A SIGINT arriving inside it lands in hypothesis's garbage-collection timer and is printed as an
"Exception ignored ... KeyboardInterrupt" warning after a run that passed. So, still inside the session:
close every widget, collect once, and freeze the survivors so that later collections skip them.

Before any test is collected, the toy fourth game of :mod:`tests.toy_game` is registered (with its chance
checks), and each game's test package registers its own chance checks (``tests/games/<game>/chance_checks.py``,
loaded by :func:`tests.sim.chance_checks.load_game_checks`): every generic test parametrised over
:func:`cardlab.game_names` then runs on the toy game too, which shows that a new game needs no edit of a generic
test (``tests/test_registry_coverage.py`` holds the test modules to that).
"""

from __future__ import annotations

import gc

import pytest


def pytest_configure(config: pytest.Config) -> None:
    from tests.sim.chance_checks import load_game_checks
    from tests.toy_game import register_toy

    register_toy()
    load_game_checks()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    try:
        import ipywidgets
    except ImportError:  # a core install has no widgets
        pass
    else:
        ipywidgets.Widget.close_all()
    gc.collect()
    gc.freeze()
