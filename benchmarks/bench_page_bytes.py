"""What the kernel sends to the page for the steppers, headless (no browser): per table refresh, and per notebook.

1. **Table bytes per refresh**, for each game (2 players, seed 3, 40 Next moves, a new deal when a game
   ends): the table as drawn (``table_html``, every card drawn in full) against what the stepper sends
   (``share_backs``: each face-down card left to one CSS rule, sent once per kernel; its size is printed).
2. **Kernel messages per Next move** of a displayed stepper, clicked (not in a cell): the bytes of every
   widget message (state as JSON, plus binary buffers), by widget.
3. **A notebook run** (``--notebook NAME``, default ``00_start_here``): the notebook's code cells run one by
   one in an IPython shell (after-cell hooks included); printed: the bytes of widget messages and of
   display outputs, by kind. It counts message *contents* only: the browser also receives
   each message's header (about half a kilobyte) and the cells' code and text outputs, so
   ``benchmarks/bench_browser.py`` (a real page) is the figure of record.

Run: ``.venv/bin/python benchmarks/bench_page_bytes.py [--moves 40] [--notebook 00_start_here] [--no-notebook]``
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
GAMES = ("garbage", "spite-and-malice", "shithead")
KB = 1000


class Recorder:
    """Counts the bytes of every comm message the kernel publishes (content and buffers), by widget class."""

    def __init__(self) -> None:
        import comm

        self.bytes: Counter[str] = Counter()
        self.count: Counter[str] = Counter()
        self.names: dict[str, str] = {}
        base = comm.base_comm.BaseComm
        original = comm.DummyComm.publish_msg

        def publish(comm_self: Any, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                    **keys: Any) -> None:
            size = len(json.dumps(data, default=str)) + sum(len(b) for b in buffers or [])
            state = (data or {}).get("state", {}) if isinstance(data, dict) else {}
            name = str(state.get("_model_name") or self.names.get(comm_self.comm_id, "?"))
            if msg_type == "comm_open":
                self.names[comm_self.comm_id] = name
            kind = f"{msg_type} {name}"
            self.bytes[kind] += size
            self.count[kind] += 1
            original(comm_self, msg_type, data, metadata, buffers, **keys)

        comm.DummyComm.publish_msg = publish
        assert issubclass(comm.DummyComm, base)

    def clear(self) -> None:
        self.bytes.clear()
        self.count.clear()

    @property
    def total(self) -> int:
        return sum(self.bytes.values())


def table_bytes(moves: int) -> None:
    import numpy as np

    import cardlab
    from cardlab.policies import choose, make_policy
    from cardlab.viz.cards_svg import back_css, share_backs
    from cardlab.viz.table import table_html

    print(f"1. table bytes per refresh (2 players, seed 3, {moves} Next moves); "
          f"the CSS rule for the back: {len(back_css('.cardlab-stepper'))} bytes, once per kernel")
    for name in GAMES:
        game = cardlab.new_game(name, players=2, seed=3)
        full, sent = [], []
        seed = 3
        for i in range(moves + 1):
            drawn = table_html(game)
            full.append(len(drawn))
            sent.append(len(share_backs(drawn)))
            if game.is_over:
                seed += 1
                game = cardlab.new_game(name, players=2, seed=seed)
            else:
                game.play(choose(make_policy("greedy", name, np.random.default_rng([seed, i])), game))
        print(f"   {name:17s} drawn in full: mean {statistics.mean(full) / KB:5.1f} KB (median "
              f"{statistics.median(full) / KB:5.1f}); sent by the stepper: mean {statistics.mean(sent) / KB:5.1f} KB "
              f"(median {statistics.median(sent) / KB:5.1f}); {1 - sum(sent) / sum(full):.0%} less")


def per_move(recorder: Recorder, moves: int) -> None:
    from unittest import mock

    import IPython.display as ipd

    from cardlab.viz.stepper import Stepper
    print(f"2. kernel messages per Next move of a displayed stepper, clicked ({moves} moves; content bytes)")
    for name in GAMES:
        with mock.patch.object(ipd, "display"):
            s = Stepper(name, players=2, seed=3)
            s._ipython_display_()
        recorder.clear()
        done = 0
        while done < moves:
            if s.game.is_over:
                s.new_deal()
            s.next_move()
            done += 1
        parts = ", ".join(f"{kind.split()[1].replace('Model', '')} {b / moves / KB:.1f}"
                          for kind, b in recorder.bytes.most_common(4))
        print(f"   {name:17s} {recorder.total / moves / KB:5.1f} KB per move ({parts} KB)")
        s.close()


def notebook(recorder: Recorder, name: str) -> None:
    import IPython.display as ipd
    from IPython.core.interactiveshell import InteractiveShell

    from cardlab.viz import stepper as stepper_module

    source = json.loads((REPO / "notebooks" / f"{name}.ipynb").read_text())
    cells = ["".join(c["source"]) for c in source["cells"] if c["cell_type"] == "code"]
    shell = InteractiveShell.instance()
    shown: Counter[str] = Counter()

    def display(*objs: Any, raw: bool = False, display_id: Any = None, **kw: Any) -> None:
        for obj in objs:
            if raw:
                shown["display (still pictures)"] += len(json.dumps(obj))
            elif hasattr(obj, "_ipython_display_"):
                obj._ipython_display_()
            elif hasattr(obj, "_repr_mimebundle_"):
                shown["display (widgets)"] += len(json.dumps(obj._repr_mimebundle_()))

    def update_display(obj: Any, raw: bool = False, display_id: Any = None, **kw: Any) -> None:
        shown["update_display (still pictures)"] += len(json.dumps(obj))

    ipd.display, ipd.update_display = display, update_display   # a plain shell has no page to publish to
    shell.user_ns["display"] = display
    from cardlab.viz import plot
    if plot._LIBRARY is not None:
        plot._LIBRARY.close()   # the notebook's kernel makes its own (plotly.js travels once per kernel) ...
    if hasattr(stepper_module, "card_style"):   # (an older checkout, given by PYTHONPATH, has none)
        stepper_module.card_style().close()   # ... and its own card back
    recorder.clear()
    start = time.perf_counter()
    printed = io.StringIO()
    for i, code in enumerate(cells):
        code = code.replace("from IPython.display import display", "")
        with contextlib.redirect_stdout(printed):
            result = shell.run_cell(code, silent=False)
        if not result.success:
            raise SystemExit(f"cell {i} failed: {result.error_in_exec or result.error_before_exec}")
    made = sum(code.count("Stepper(") for code in cells)
    total = recorder.total + sum(shown.values())
    print(f"3. notebook {name}: {len(cells)} code cells in {time.perf_counter() - start:.1f} s; {made} steppers made; "
          f"{total / 1e6:.2f} MB of message contents ({total / max(made, 1) / 1e6:.2f} MB per stepper)")
    for kind, b in (recorder.bytes + shown).most_common(10):
        print(f"   {b / KB:8.1f} KB  {recorder.count.get(kind, '')!s:>4}  {kind}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--notebook", default="00_start_here")
    parser.add_argument("--no-notebook", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    recorder = Recorder()
    print(f"bench_page_bytes {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    table_bytes(args.moves)
    per_move(recorder, args.moves)
    if not args.no_notebook:
        notebook(recorder, args.notebook)


if __name__ == "__main__":
    main()
