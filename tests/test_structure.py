"""The structure of the package: no game's name outside its own package, and the core never imports the view.

Every game registers one spec (``cardlab/games/<game>/__init__.py``); the generic layers read it. A string
literal equal to a game's name or alias in a generic module would be dispatch by name (an ``if name ==``, a
dict keyed by games), which is what the spec replaces.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from cardlab.engine.registry import _key, game_specs
from cardlab.engine.spec import GameSpec

PACKAGE = Path(__file__).resolve().parents[1] / "cardlab"


def _game_words() -> set[str]:
    words: set[str] = set()
    for spec in game_specs():
        for name in (spec.name, *spec.aliases):
            words |= {name, _key(name), _key(name).replace("-", "_")}
    return words


def _generic_modules() -> list[Path]:
    """Every module but a game's own package and the course's answer keys (``cardlab/course``: a lesson's key
    names the games its lesson teaches, as the lesson does; it is content, not a layer that dispatches)."""
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if not {"games", "course"} & set(p.relative_to(PACKAGE).parts))


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def name_literals(source: str) -> list[tuple[int, str]]:
    """Every string literal (docstrings aside) that equals a registered game's name or alias."""
    words = _game_words()
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                  and node.value.strip().lower() in words)


def _is_name(node: ast.AST | None) -> bool:
    """``x.name`` (a game's name), the key of a name-keyed table."""
    return isinstance(node, ast.Attribute) and node.attr == "name"


def name_keyed_lookups(source: str) -> list[int]:
    """Lines that look a game's name up in a table: ``T[game.name]``, ``T.get(game.name)``, ``{game.name: x}``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and _is_name(node.slice):
            lines.append(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and _is_name(node.args[0])):
            lines.append(node.lineno)
        elif isinstance(node, ast.Dict) and any(_is_name(k) for k in node.keys):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_scan_finds_name_dispatch() -> None:
    """The check itself: an if on a name and a name-keyed dict are caught, an ordinary string is not."""
    source = ('"""docstring mentioning garbage"""\n'
              'def f(game):\n    if game.name == "garbage":\n        return 1\n'
              'TABLE = {"spite-and-malice": 1, "Trash": 2}\nOK = "garbage can"\n')
    assert [line for line, _ in name_literals(source)] == [3, 5, 5]
    lookups = "A = T[game.name]\nB = T.get(g.name, 0)\nC = {g.name: 1}\nD = T[g.players]\nE = g.name\n"
    assert name_keyed_lookups(lookups) == [1, 2, 3]


def test_no_game_name_in_generic_modules() -> None:
    modules = _generic_modules()
    assert len(modules) > 20 and any(p.name == "prob.py" for p in modules)
    found = [f"{p.relative_to(PACKAGE.parent)}:{line}: {value!r}"
             for p in modules for line, value in name_literals(p.read_text(encoding="utf-8"))]
    assert not found, "game names in generic modules (read the game's spec instead):\n" + "\n".join(found)


def test_no_name_keyed_table_outside_the_registry() -> None:
    """Only the registry maps names to games; everything else asks it for the spec."""
    registry = PACKAGE / "engine" / "registry.py"
    found = [f"{p.relative_to(PACKAGE.parent)}:{line}" for p in _generic_modules() if p != registry
             for line in name_keyed_lookups(p.read_text(encoding="utf-8"))]
    assert not found, "tables keyed by a game's name outside the registry:\n" + "\n".join(found)


CORE_ONLY = r'''
import sys
import numpy as np
import cardlab
from cardlab.engine.registry import game_specs
from cardlab.sim import prob
for spec in game_specs():
    g = cardlab.new_game(spec.name, seed=4)
    for _ in range(6):
        if g.is_over:
            break
        g.play(g.legal_moves()[0])
    g.undo()
    g.observe(0)
    g.resample(None, np.random.default_rng(1))
    prob.panel_quantities(g, None, rng=np.random.default_rng(2), rollouts=4)
    prob.win_probability(g, None, rng=np.random.default_rng(3), rollouts=4)
    cardlab.simulate(spec.name, games=3, seed=1, progress=False)
    cardlab.load_game(g.to_json())
peers = ("pettingzoo", "gymnasium", "pyspiel", "open_spiel")
print("ARENAS:", sorted(m for m in sys.modules if m.split(".")[0] in peers or m.startswith("cardlab.arenas")))
loaded = sorted(m for m in sys.modules if m == "cardlab.viz" or m.startswith("cardlab.viz."))
loaded += sorted(m for m in sys.modules if m.endswith(".table") and m.startswith("cardlab.games."))
print("VIEW:", loaded)
'''


def test_the_core_never_imports_the_view() -> None:
    """Dealing, playing, undoing, observing, resampling, simulating and every probability never load
    cardlab.viz nor a game's drawing; drawing a game (``_repr_html_``) does, through the spec. Nor do they load
    the peers' arenas (cardlab.arenas, PettingZoo, Gymnasium, OpenSpiel): the core install works without the
    ``arenas`` extra."""
    done = subprocess.run([sys.executable, "-c", CORE_ONLY], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-2:] == ["ARENAS: []", "VIEW: []"]
    draw = CORE_ONLY + "g._repr_html_()\nprint(sorted(m for m in sys.modules if m.startswith('cardlab.viz')))\n"
    done = subprocess.run([sys.executable, "-c", draw], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "cardlab.viz.table" in done.stdout.strip().splitlines()[-1]


HEAVY = 'sorted(m for m in sys.modules if "numba" in m or m.endswith(".kernel"))'

LAZY = r'''
import inspect, json, sys
from fractions import Fraction
import numpy as np
import cardlab
from cardlab.engine.registry import game_specs
from cardlab.errors import CardlabError
from cardlab.sim import prob


def heavy():
    return HEAVY


def exact_questions(spec):
    """The game's exact questions: the public functions of its questions module answering a Fraction."""
    module = sys.modules[spec.questions.__module__]
    return [f for name, f in sorted(vars(module).items()) if inspect.isfunction(f) and not name.startswith("_")
            and f.__module__ == module.__name__ and inspect.signature(f).return_annotation in ("Fraction", Fraction)]


out = {"games": [], "answered": {}, "after_dealing": None, "play_outs": []}
games = {spec.name: cardlab.new_game(spec.name, seed=4) for spec in game_specs()}
out["after_dealing"] = heavy()
for spec in game_specs():
    g = games[spec.name]
    out["games"].append(spec.name)
    for f in exact_questions(spec):
        out["answered"][f.__name__] = 0
    for _ in range(60):
        if g.is_over:
            break
        for f in exact_questions(spec):
            try:
                answer = f(g, None)
            except CardlabError:   # not applicable in this position
                continue
            assert isinstance(answer, Fraction)
            out["answered"][f.__name__] += 1
        g.play(g.legal_moves()[-1])
        g.observe(0)
    g.undo()
    cardlab.load_game(g.to_json())
    repr(g), str(g)
out["after_playing"] = heavy()
for spec in game_specs():   # the first play-out of each game loads its kernel, and plays as the kernel module does
    g, before = games[spec.name], heavy()
    lazy = spec.kernel.win_rollouts(g, None, 20, np.random.default_rng(0)).tolist()
    new = [m for m in heavy() if m not in before]
    kernels = [m for m in new if m.endswith(".kernel")]
    direct = sys.modules[kernels[0]].win_rollouts(g, None, 20, np.random.default_rng(0)).tolist() if kernels else None
    out["play_outs"].append([spec.rules.__module__, kernels, any("numba" in m for m in heavy()), lazy == direct])
print(json.dumps(out))
'''.replace("HEAVY", HEAVY)

SIMULATE_LOADS = r'''
import sys
import cardlab
from cardlab.engine.registry import game_specs
for spec in game_specs():
    before = HEAVY
    cardlab.simulate(spec.name, games=3, seed=1, progress=False)
    print(spec.name, [m for m in HEAVY if m not in before and m.endswith(".kernel")])
'''.replace("HEAVY", HEAVY)


def builtin_specs() -> list[GameSpec]:
    """The specs a fresh process registers on ``import cardlab`` (the scripts below run in one): those of the
    packages under ``cardlab.games``, not a game registered by the tests (``tests/toy_game.py``)."""
    return [spec for spec in game_specs() if spec.rules.__module__.startswith("cardlab.")]


def test_dealing_playing_and_exact_answers_load_no_kernel_and_no_numba() -> None:
    """Every registered game: dealing, playing, undoing, observing, saving and loading, and every exact question of
    its questions module load no kernel module and no numba (its spec holds a lazy kernel); the first play-out of a
    game loads that game's kernel (and numba, where installed), and plays exactly as the kernel module does."""
    import json

    done = subprocess.run([sys.executable, "-c", LAZY], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["games"] == [spec.name for spec in builtin_specs()] and out["games"]
    assert out["after_dealing"] == [] and out["after_playing"] == []
    assert out["answered"] and all(n > 0 for n in out["answered"].values()), out["answered"]
    numba = _installed("numba")
    for rules_module, kernels, numba_loaded, same in out["play_outs"]:
        package = rules_module.rpartition(".")[0]
        assert kernels == [f"{package}.kernel"], (rules_module, kernels)
        assert numba_loaded == numba and same


def test_the_first_simulation_of_each_game_loads_its_kernel() -> None:
    done = subprocess.run([sys.executable, "-c", SIMULATE_LOADS], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == len(builtin_specs())
    for spec, line in zip(builtin_specs(), lines, strict=True):
        package = spec.rules.__module__.rpartition(".")[0]
        assert line == f"{spec.name} {[package + '.kernel']}", line


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_the_view_imports_without_the_games_first() -> None:
    """No import cycle engine -> view -> games -> engine: each layer imports alone in a fresh process."""
    for module in ("cardlab.engine", "cardlab.viz.table", "cardlab.sim.prob", "cardlab.policies"):
        done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, f"{module}: {done.stderr}"


def _engine_private_names() -> set[str]:
    from cardlab.engine.game import Game

    game = cardlab_new_game()
    names = {n for n in (*dir(Game), *vars(game)) if n.startswith("_") and not n.startswith("__")}
    assert {"_state", "_seed", "_shuffle_key", "_moves", "_events"} <= names
    return names


def cardlab_new_game() -> object:
    import cardlab

    return cardlab.new_game(game_specs()[0].name, seed=1)


def private_uses(source: str, private: set[str]) -> list[tuple[int, str]]:
    """``x._name`` for an engine private ``_name`` on anything but ``self``/``cls``."""
    return sorted((node.lineno, node.attr) for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Attribute) and node.attr in private
                  and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")))


def test_no_engine_private_member_used_outside_the_engine() -> None:
    """Simulation, view, policies, command line and each game's questions, drawing, bot and kernel use the
    engine's public names (``check_seat``, ``shuffle_key``, ``seed``, ``event_count``...), never its private
    members."""
    private = _engine_private_names()
    assert private_uses("g._log(1)\nself._state\nh._state.x\n", private) == [(1, "_log"),
                                                                          (3, "_state")]
    users = [*(PACKAGE / "sim").rglob("*.py"), *(PACKAGE / "viz").rglob("*.py"), *(PACKAGE / "policies").rglob("*.py"),
             PACKAGE / "cli.py", *(p for p in (PACKAGE / "games").rglob("*.py") if p.name != "rules.py")]
    found = [f"{p.relative_to(PACKAGE.parent)}:{line}: {attr}" for p in users
             for line, attr in private_uses(p.read_text(encoding="utf-8"), private)]
    assert not found, "engine private members used outside the engine:\n" + "\n".join(found)


# ---------------------------------------------------------------------------------------------- the import graph
ANALYSES = ("cardlab.sim", "cardlab.policies", "cardlab.viz", "cardlab.arenas", "cardlab.classroom", "cardlab.course",
            "cardlab.cli")
"""What uses games (analyses, players built on them, views, adapters, the course): the engine imports none."""
BLOCKS = ("cardlab.cards", "cardlab.errors", "cardlab.dealer", "cardlab.engine", "cardlab.chance")
"""Below the games: cards, errors, the one dealer, the engine and the building blocks games use (chance laws, hands
laws, the kernels' generator, estimates)."""
DRAWING = ("cardlab.viz.cards_svg", "cardlab.viz.table")
"""The view's card pictures and table frame, which each game's table drawer (``games/<game>/table.py``) draws
with."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every cardlab module and the cardlab modules it imports: every ``import`` statement, inside functions and
    under ``TYPE_CHECKING`` too. ``from package import name`` points at the submodule ``package.name`` when there
    is one, else at the package."""
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base for alias in node.names]
            graph[name] |= {t for t in targets if t in paths and t != name}
    return graph


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_loop_finder_finds_a_loop() -> None:
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert loops({"a": {"b"}, "b": set()}) == []


def test_no_import_loop_in_the_package() -> None:
    graph = import_graph()
    assert "cardlab.policies.search" in graph["cardlab.policies"]          # the graph reads the package's imports
    assert loops(graph) == []


def test_the_engine_imports_no_analysis() -> None:
    graph = import_graph()
    up = {(name, target) for name, targets in graph.items() if name.startswith("cardlab.engine")
          for target in targets if target.startswith(ANALYSES)}
    assert up == set()


def test_layers_show_in_the_folders() -> None:
    """Building blocks below the games, games below the analyses: ``cardlab/chance`` and the engine import no
    analysis and no game (the registry loads the games' package, which finds them); a game imports no analysis
    but the view's drawing primitives, and only from its table drawer."""
    graph = import_graph()
    assert "cardlab.chance.law" in graph["cardlab.games.garbage.rules"]   # the graph reads the layers' imports
    blocks_up = {(name, target) for name, targets in graph.items() if name.startswith(BLOCKS)
                 for target in targets if target.startswith((*ANALYSES, "cardlab.games"))}
    # the one exception: the registry imports the games' package, which finds and registers every game in it
    assert blocks_up == {("cardlab.engine.registry", "cardlab.games")}
    games_up = {(name, target) for name, targets in graph.items() if name.startswith("cardlab.games")
                for target in targets if target.startswith(ANALYSES)
                and not (name.endswith(".table") and target in DRAWING)}
    assert games_up == set()
