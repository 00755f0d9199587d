"""Ask the class: a stepper connected to a class session (:mod:`cardlab.classroom`) asks every student at once.

::

    session = cardlab.ClassSession("http://10.0.0.5:8765/teacher#token=...")   # what `cardlab class` printed
    stepper = cardlab.Stepper("garbage", players=2, seed=3, session=session)

The stepper gets a row of its own (:class:`ClassPoll`, put there by composition: the stepper knows nothing else
of it):

* a question menu (the chance that seat k wins, or one of the game's panel questions) and the viewpoint the class
  sees (the table's public view by default, or one seat's);
* **Ask the class** sends the current position, drawn from ``observe()`` of that viewpoint only
  (:func:`cardlab.classroom.position.position_html`), the question and its answer, computed from the same
  viewpoint's information with the stepper's own seeded generators (so it is the number the stepper's panels
  show from that viewpoint): exact where the game allows, else an estimate with its 95% interval (the estimate
  alone, and no band or error bar below, for a stepper made with ``intervals=False``);
* a live count of the answers and a Plotly histogram of the guesses (from the server's event stream, in a
  background thread that reconnects by itself);
* **Reveal** closes the question: every student sees the answer, and the histogram shows it (a line, and the
  interval's band for an estimate);
* the session's calibration chart (the class's mean guess against the answer, question by question, with the
  diagonal of perfect calibration) and a link to download every question and guess as CSV.

Nothing is kept in the kernel that the server does not have: a restarted kernel connects again with the same
address and finds the session as it was. A click never raises into the notebook: the row's message says what
went wrong (``last_error``).
"""

from __future__ import annotations

import base64
import html
import math
import threading
from typing import TYPE_CHECKING, Any, Protocol

import ipywidgets as widgets
import numpy as np

from cardlab.classroom.client import ClassQuestion, ClassSession, ClassStatus
from cardlab.classroom.guess import HISTOGRAM_BINS
from cardlab.classroom.position import position_html
from cardlab.errors import InvalidInputError, QuestionStateError, shown
from cardlab.sim.prob import win_probability
from cardlab.viz.estimates import WIN_PURPOSE
from cardlab.viz.plot import PlotView
from cardlab.viz.predict import question_keys
from cardlab.viz.scores import WIN

if TYPE_CHECKING:
    from cardlab.engine.game import Game


class PollHost(Protocol):
    """What the row reads of the stepper it belongs to (a protocol, so this module does not import the stepper
    that imports it)."""

    @property
    def game(self) -> Game[Any]: ...

    @property
    def counter(self) -> Any: ...

    @property
    def four_colour(self) -> bool: ...

    @property
    def predictor(self) -> Any: ...

    @property
    def intervals(self) -> bool: ...

    @property
    def controller(self) -> Any: ...

    @property
    def estimates(self) -> Any: ...

    @property
    def deal_seed(self) -> int: ...

    @property
    def rollouts(self) -> int: ...

    def estimate_rng(self, move_index: int, code: int, purpose: int) -> np.random.Generator: ...

TABLE = "the table"


def _seat_label(seat: int) -> str:
    return f"seat {seat}"


class ClassPoll:
    """The class-session row of one stepper (see the module docstring)."""

    def __init__(self, stepper: PollHost, session: ClassSession | str, viewpoint: int | None = None) -> None:
        self.stepper = stepper
        self.session = session if isinstance(session, ClassSession) else ClassSession(session)
        self.last_error: str | None = None
        self._closed = False
        self.status: ClassStatus | None = None
        self._lock = threading.Lock()
        game = stepper.game
        self.question_menu = widgets.Dropdown(description="question", layout=widgets.Layout(width="330px"))
        self.view_menu = widgets.Dropdown(description="class sees", layout=widgets.Layout(width="220px"))
        self.ask_button = widgets.Button(description="Ask the class", button_style="primary",
                                         tooltip="send this position and question to every student")
        self.reveal_button = widgets.Button(description="Reveal", button_style="warning",
                                            tooltip="close the question and show the answer")
        self.heading = widgets.HTML()
        self.count = widgets.HTML()
        self.message = widgets.HTML()
        self.csv_link = widgets.HTML()
        self.histogram = PlotView(self._histogram_figure(None, ()))
        self.calibration = PlotView(self._calibration_figure(()))
        self._fill_menus(game.players, viewpoint)
        self.ask_button.on_click(lambda _b: self._guarded(self.ask))
        self.reveal_button.on_click(lambda _b: self._guarded(self.reveal))
        stepper.counter.observe(self._on_position, names="value")   # redrawn: another position, maybe another game
        self.box = widgets.VBox([
            self.heading,
            widgets.HBox([self.question_menu, self.view_menu, self.ask_button, self.reveal_button, self.count],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.message,
            widgets.HBox([self.histogram, self.calibration], layout=widgets.Layout(flex_flow="row wrap")),
            self.csv_link])
        self.box.add_class("cardlab-class-poll")
        self._show(self.session.status())
        self._stop_watching = self.session.watch(self._show)

    # ------------------------------------------------------------------ menus
    def _fill_menus(self, players: int, viewpoint: int | None) -> None:
        game = self.stepper.game
        predictor = self.stepper.predictor
        options: list[tuple[str, str]] = [(f"the chance that seat {s} wins", f"{WIN}:{s}") for s in range(players)]
        options += [(f"panel: {key}", key) for key in question_keys(game)]
        default = f"{WIN}:0"
        if predictor is not None:
            default = f"{WIN}:{predictor.fixed_seat or 0}" if predictor.key == WIN else predictor.key
        self.question_menu.options = options
        self.question_menu.value = default if default in {v for _, v in options} else options[0][1]
        self.view_menu.options = [TABLE, *[_seat_label(s) for s in range(players)]]
        if viewpoint is not None and not (isinstance(viewpoint, int) and 0 <= viewpoint < players):
            raise InvalidInputError(f"viewpoint={shown(viewpoint)} is not a seat of this {players}-player game; "
                                    f"give 0 to {players - 1}, or None for the table's public view")
        self.view_menu.value = TABLE if viewpoint is None else _seat_label(viewpoint)
        self._kind = (game.name, players)

    def _on_position(self, change: dict[str, Any]) -> None:
        """Another game or player count dealt: the menus follow it (the class sees the table again)."""
        game = self.stepper.game
        if (game.name, game.players) != self._kind:
            self._guarded(lambda: self._fill_menus(game.players, None))

    @property
    def viewpoint(self) -> int | None:
        """The seat whose view the class sees (None: the table's public view)."""
        label = str(self.view_menu.value)
        return None if label == TABLE else int(label.split()[1])

    # ------------------------------------------------------------------ the teacher's actions
    def question(self) -> tuple[str, str, float, float, float, bool]:
        """``(key, text, answer, low, high, exact)`` of the chosen question at the stepper's position, computed
        from the class's viewpoint (see the module docstring)."""
        st, view = self.stepper, self.viewpoint
        game = st.game
        if st.controller.step_shown() is not None:
            raise QuestionStateError("a move is being stepped through: finish it (Next move) before asking")
        if game.is_over:
            raise QuestionStateError("the game is over: there is nothing left to predict (deal a new game)")
        code = 0 if view is None else view + 1
        choice = str(self.question_menu.value)
        if choice.startswith(f"{WIN}:"):
            seat = int(choice.split(":")[1])
            rng = st.estimate_rng(len(game.moves), code, WIN_PURPOSE)
            est = win_probability(game, view, rollouts=st.rollouts, rng=rng)[seat]
            return (WIN, f"What is the chance that seat {seat} wins this game?", est.value, est.low, est.high,
                    est.low == est.high)
        for q in st.estimates.panel(game, st.deal_seed, code):
            if q.key == choice:
                if not q.is_applicable:
                    raise QuestionStateError(f"no question {choice!r} here: {q.reason}")
                return (q.key, f"What is the chance that {q.label}?", q.value, q.low, q.high, q.is_exact)
        raise QuestionStateError(f"{game.name} asks no question {choice!r} at this position")

    def ask(self) -> ClassQuestion:
        """Send the stepper's position (as the class's viewpoint sees it) and the chosen question."""
        key, text, answer, low, high, exact = self.question()
        if exact:
            answer_text = f"{answer:.4f} (exact)"
        elif not self.stepper.intervals:
            answer_text = f"{answer:.3f} (estimate from play-outs)"
        else:
            answer_text = f"{answer:.3f}, 95% interval [{low:.3f}, {high:.3f}] (estimate from play-outs)"
        position = position_html(self.stepper.game, self.viewpoint, self.stepper.four_colour)
        asked = self.session.ask(key, text, position, answer, low, high, exact, answer_text)
        self._show(self.session.status())
        return asked

    def reveal(self) -> ClassQuestion:
        """Close the open question: the students see the answer, the histogram shows it."""
        revealed = self.session.reveal()
        self._show(self.session.status())
        self._refresh_csv()
        return revealed

    def close(self) -> None:
        """Stop listening to the server (the session carries on there) and close the row's widgets (once)."""
        if self._closed:
            return
        self._closed = True
        self._stop_watching()
        self.stepper.counter.unobserve(self._on_position, names="value")
        for w in (self.box, *self.box.children, self.question_menu, self.view_menu, self.ask_button,
                  self.reveal_button, self.count, self.histogram, self.calibration):
            w.close()

    def _guarded(self, action: Any) -> None:
        try:
            action()
            self.last_error = None
            self.message.value = ""
        except Exception as exc:  # a click must never raise into the notebook: say what went wrong
            self.last_error = str(exc) or type(exc).__name__
            self.message.value = f"<span style='color:#b00020'>⚠ {html.escape(self.last_error)}</span>"

    # ------------------------------------------------------------------ drawing the status
    def _show(self, status: ClassStatus) -> None:
        with self._lock:
            old = self.status
            self.status = status
            q = status.question
            self.heading.value = (f"<b>Class session</b>: join at <code>{html.escape(status.join_url)}</code> "
                                  f"· code <b style='font-size:1.3em'>{html.escape(status.join_code)}</b> "
                                  f"· {status.students} students")
            self.count.value = ("" if q is None else
                                f"<b style='font-size:1.4em'>{status.count}</b> of {status.students} answered "
                                f"question {q.number}" + (" (revealed)" if q.state == "revealed" else ""))
            self.reveal_button.disabled = q is None or q.state != "open"
            if old is None or (old.values, old.question) != (status.values, status.question):
                self.histogram.show(self._histogram_figure(q, status.values, self.stepper.intervals))
            if old is None or old.questions != status.questions:
                self.calibration.show(self._calibration_figure(status.questions, self.stepper.intervals))

    def numbers(self) -> str:
        """The row's numbers as text (a notebook check cannot read a plot)."""
        s = self.status
        if s is None or s.question is None:
            return "no question on the screen"
        q = s.question
        bins = " ".join(map(str, s.histogram))
        line = f"question {q.number} ({q.state}): {s.count} answers of {s.students} students; bins of 0.05: {bins}"
        return line + (f"; answer {q.answer_text}" if q.state == "revealed" else "")

    @staticmethod
    def _histogram_figure(q: ClassQuestion | None, values: tuple[float, ...], intervals: bool = True) -> dict[str, Any]:
        width = 1.0 / HISTOGRAM_BINS
        title = "No question yet" if q is None else f"Question {q.number}: {len(values)} guesses"
        shapes: list[dict[str, Any]] = []
        if q is not None and q.state == "revealed":
            if not q.exact and intervals:
                shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": q.low, "x1": q.high, "y0": 0,
                               "y1": 1, "fillcolor": "rgba(209,36,47,0.15)", "line": {"width": 0}})
            shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": q.answer, "x1": q.answer, "y0": 0,
                           "y1": 1, "line": {"color": "#d1242f", "width": 3}})
            title += f"<br>answer {q.answer_text}"
        return {"data": [{"type": "histogram", "x": list(values), "name": "guesses", "marker": {"color": "#1f6feb"},
                          "xbins": {"start": 0.0, "end": 1.0 + 1e-9, "size": width}}],
                "layout": {"title": {"text": title, "font": {"size": 13}}, "height": 270, "width": 420,
                           "margin": {"l": 40, "r": 10, "t": 50, "b": 40}, "shapes": shapes, "bargap": 0.05,
                           "xaxis": {"range": [0, 1], "title": {"text": "guess"}},
                           "yaxis": {"title": {"text": "students"}, "rangemode": "tozero"}}}

    @staticmethod
    def _calibration_figure(questions: tuple[Any, ...], intervals: bool = True) -> dict[str, Any]:
        done = [s for s in questions if s.state == "revealed" and s.mean is not None]
        return {"data": [
            {"type": "scatter", "mode": "lines", "x": [0, 1], "y": [0, 1], "name": "calibrated",
             "line": {"dash": "dot", "color": "#888"}},
            {"type": "scatter", "mode": "markers+text", "name": "class mean guess",
             "x": [s.answer for s in done], "y": [s.mean for s in done], "text": [str(s.number) for s in done],
             "textposition": "top center",
             "error_x": {"type": "data", "symmetric": False, "array": [s.high - s.answer for s in done],
                         "arrayminus": [s.answer - s.low for s in done], "visible": intervals},
             "marker": {"size": [8 + 2 * math.sqrt(s.count) for s in done], "color": "#1f6feb"}}],
            "layout": {"title": {"text": f"Class calibration over {len(done)} revealed questions",
                                 "font": {"size": 13}}, "height": 260, "width": 360, "showlegend": False,
                       "margin": {"l": 40, "r": 10, "t": 40, "b": 40},
                       "xaxis": {"range": [0, 1], "title": {"text": "answer"}},
                       "yaxis": {"range": [0, 1], "title": {"text": "class mean guess"}}}}

    def _refresh_csv(self) -> None:
        text = self.session.export_csv()
        rows = max(text.count("\n") - 1, 0)
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.csv_link.value = (f'<a download="class-session.csv" href="data:text/csv;base64,{data}">'
                               f"Download every question and guess (CSV, {rows} rows)</a>")


def attach(stepper: PollHost, session: ClassSession | str) -> ClassPoll:
    """The class-session row of ``stepper`` (the stepper puts ``poll.box`` above its table)."""
    poll = ClassPoll(stepper, session)
    poll._guarded(poll._refresh_csv)
    return poll
