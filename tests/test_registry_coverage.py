"""The tests follow the registry: a test of "each game" takes the registered games, the toy game included.

A test module that covers every game parametrises over :func:`cardlab.game_names`, read after
``tests/conftest.py`` has registered the toy game of :mod:`tests.toy_game`, so a game registered tomorrow runs
through the same tests without an edit. A test that is about one game lives in that game's test package
(``tests/games/<game>/``), and a generic test that needs a capability selects games by their spec (``spec.kernel
is not None``), never by name. Each game's test package registers that game's chance checks
(``tests/games/<game>/chance_checks.py``). This module fails when a test module writes a list of games (a list,
tuple, set or dict naming two games or more) or branches on a game's name, and when a registered game is not
covered: not seen by the tests, or without its checks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import cardlab
from cardlab.sim.move_values import move_winners
from tests import toy_game
from tests.sim import chance_checks as cc

TESTS = Path(__file__).resolve().parent
GAMES_AT_COLLECTION = cardlab.game_names()
"""The registered games as the test modules see them when they are collected (their parametrisations)."""


def _word(text: str) -> str:
    """A name as the registry reads it: any case, "-", "_" or a space between words."""
    return text.strip().lower().replace("_", "-").replace(" ", "-")


def _game_words() -> dict[str, str]:
    """Every registered game's name and aliases (as :func:`_word` reads them) to the game."""
    return {_word(word): spec.name for spec in cardlab.engine.game_specs() for word in (spec.name, *spec.aliases)}


def _game_of(node: ast.AST | None, words: dict[str, str]) -> str | None:
    """The game a string literal names, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return words.get(_word(node.value))
    return None


def _names_a_game(node: ast.AST, words: dict[str, str]) -> bool:
    """A string literal naming a game, or a list, tuple or set literal holding one."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return any(_game_of(e, words) is not None for e in node.elts)
    return _game_of(node, words) is not None


def game_lists(source: str) -> list[int]:
    """Lines of a list, tuple or set literal that names two games or more, or of a dict whose keys, or whose
    values, do: a hand-written list of games."""
    words = _game_words()
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            groups = [node.elts]
        elif isinstance(node, ast.Dict):
            groups = [[k for k in node.keys if k is not None], node.values]
        else:
            continue
        if any(len({g for g in (_game_of(e, words) for e in group) if g is not None}) >= 2 for group in groups):
            lines.append(node.lineno)
    return sorted(set(lines))


def name_branches(source: str) -> list[int]:
    """Lines of a condition (``if``, a conditional expression, a comprehension's filter, ``while``) that compares
    something with a game's name: a test choosing games by name rather than by their spec."""
    words = _game_words()
    tests: list[ast.expr] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.If, ast.IfExp, ast.While)):
            tests.append(node.test)
        elif isinstance(node, ast.comprehension):
            tests.extend(node.ifs)
    lines = []
    for test in tests:
        for node in ast.walk(test):
            if isinstance(node, ast.Compare) and any(_names_a_game(side, words)
                                                     for side in (node.left, *node.comparators)):
                lines.append(node.lineno)
    return sorted(set(lines))


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_scan_finds_lists_of_games_and_branches_on_a_name() -> None:
    """The check itself: lists, tuples, sets and dicts naming two games are caught, a game named alone (a
    test's example) is not; so are branches on a name, but not an assertion about a name."""
    source = ('GAMES = ("garbage", "spite-and-malice", "shithead")\n'
              'PAIR = ["Trash", "shithead"]\n'
              'SETUPS = {"garbage": 1, "spite_and_malice": 2}\n'
              'NOTEBOOKS = {"02_play": "garbage", "06_play": "shithead"}\n'
              'ONE = ("garbage", 2)\n'
              'SAME = ("garbage", "trash")\n'
              'ARGS = ["simulate", "garbage", "--players", "8"]\n'
              'assert game.name == "garbage"\n'
              'if name != "garbage":\n    pass\n'
              'x = 1 if game.name == "spite-and-malice" else 2\n'
              'y = [n for n in names if n in ("shithead",)]\n')
    assert game_lists(source) == [1, 2, 3, 4]
    assert name_branches(source) == [9, 11, 12]


def test_no_test_module_writes_a_list_of_games_or_chooses_games_by_name() -> None:
    modules = _test_modules()
    assert len(modules) > 50 and TESTS / "viz" / "test_stepper.py" in modules
    lists = [f"{p.relative_to(TESTS.parent)}:{line}" for p in modules
             for line in game_lists(p.read_text(encoding="utf-8"))]
    assert not lists, ("test modules naming games in a list (parametrise over cardlab.game_names(); a game's own "
                       "numbers belong in tests/games/<game>/):\n" + "\n".join(lists))
    branches = [f"{p.relative_to(TESTS.parent)}:{line}" for p in modules
                for line in name_branches(p.read_text(encoding="utf-8"))]
    assert not branches, ("test modules choosing games by name (select by a capability of the spec, or move the "
                          "test to tests/games/<game>/):\n" + "\n".join(branches))


def test_the_toy_game_is_among_the_games_the_tests_see() -> None:
    """The toy game was registered before the test modules were collected, with its chance checks: every test
    parametrised over the registered games runs on it."""
    assert toy_game.NAME in GAMES_AT_COLLECTION and len(GAMES_AT_COLLECTION) >= 4
    assert GAMES_AT_COLLECTION == cardlab.game_names()
    assert cc.checks_for(toy_game.NAME).name == toy_game.NAME


def test_every_registered_game_is_covered_by_its_own_test_package() -> None:
    """Each registered game has its chance checks; a game of the package has a test package of its own
    (``tests/games/<package>/``) whose ``chance_checks.py`` registers them (the toy game's are in
    :mod:`tests.toy_game`)."""
    loaded = cc.load_game_checks()
    for spec in cardlab.engine.game_specs():
        checks = cc.checks_for(spec.name)   # fails loudly for a game registered without checks
        assert checks.name == spec.name
        parts = spec.rules.__module__.split(".")
        if parts[:2] == ["cardlab", "games"]:
            module = f"tests.games.{parts[2]}.chance_checks"
            assert module in loaded, f"{spec.name}: no {module.replace('.', '/')}.py registers its checks"
            assert checks.count.__module__ == module, (spec.name, checks.count.__module__)
        else:
            assert spec.name == toy_game.NAME, f"{spec.name}: a game from outside the package the tests do not know"


def test_every_game_declares_what_it_offers_and_the_declaration_holds() -> None:
    """``spec.capabilities`` (read without loading a kernel) says what each game offers; each claim is tried on a
    dealt game: a chance law answers or is refused, the house options are the ones ``new_game`` accepts, a kernel
    plays move play-outs (or declines with None, and the engine plays them)."""
    seen = set()
    for spec in cardlab.engine.game_specs():
        caps = spec.capabilities
        game = cardlab.new_game(spec.name, seed=4)
        if caps.chance_law:
            assert game.chance_law(None) is not None
        else:
            with pytest.raises(cardlab.InvalidInputError, match="does not state a chance law"):
                game.chance_law(None)
        assert set(caps.house_options) == set(type(game).option_specs)
        with pytest.raises(cardlab.InvalidInputError):
            cardlab.new_game(spec.name, seed=4, no_such_option=1)
        moves = game.legal_moves()[:2]
        seeds = np.arange(6, dtype=np.uint64).reshape(3, 2)[:, :len(moves)]
        _, ran = move_winners(game, game.current_player, moves, seeds)
        assert ran == ("kernel" if caps.kernel else "engine")   # a dealt game with default options: no kernel declines
        assert caps.uninformed_player == (spec.uninformed is not None)
        seen.add(spec.name)
    assert set(GAMES_AT_COLLECTION) <= seen and toy_game.NAME in seen
    assert not cardlab.engine.game_spec(toy_game.NAME).capabilities.kernel
