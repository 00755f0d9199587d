"""Autoplay driven by the kernel: one move per tick, the next tick timed from the end of the last move.

Why not ``ipywidgets.Play``
---------------------------
The stepper's Autoplay used to be an ``ipywidgets.Play`` linked to a toggle button. A ``Play`` keeps its timer
and its ``playing`` state in the page's model and only *reports* each tick to the kernel, so:

* the page sends a tick every ``interval`` whatever the kernel is doing. At 10 moves a second and 0.3 to 0.8 s
  per move (a move and both panels), ticks queue up in the kernel faster than it plays them; a Stop pressed in
  the page still leaves the queued ticks to be played;
* ``playing`` lives in the page's model and the toggle's state in the kernel, joined through the kernel; the
  page's ``PlayView`` pauses the model on *every* change of ``playing`` it sees that is not an off-to-on
  switch (``onPlayingChanged``), and it does so once per view of the model: with a second view of the stepper
  in the page (an output shown again, or rebuilt) the timer is switched off after one tick, in the page only.
  The kernel never learns that the timer stopped, so nothing can say why. That matches the symptom of issue 34
  (one move, then the button off, without a message). The lesson-04 page itself was not traced in a browser;
  the fix does not depend on which path it took, since the page no longer keeps time at all.

The design here
---------------
:class:`Autoplayer` keeps ``playing`` in the kernel and schedules the ticks on the kernel's own event loop
(``asyncio``'s ``call_later``; ipykernel and Voilà run one). Each tick is a separate callback, so a click on Stop
(a message from the page) is handled between two moves; the next tick is scheduled only when the last move is
drawn, so ticks never queue; and only the kernel switches Autoplay off, always with a reason
(:attr:`Autoplayer.reason`): the game is over, an action failed, a new deal, the stepper closed, or Stop.
The page shows one toggle button; nothing in the page keeps time.

Outside a running event loop (a script, a test) nothing is scheduled; :meth:`Autoplayer.fire` plays one tick
by hand, and tests may give their own ``later`` (a function ``later(seconds, callback)``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

Later = Callable[[float, Callable[[], None]], Any]


def kernel_later(seconds: float, callback: Callable[[], None]) -> Any:
    """Run ``callback`` after ``seconds`` on the running event loop (the kernel's); None when no loop runs."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop.call_later(seconds, callback)


class Autoplayer:
    """Plays ``tick()`` every ``interval`` seconds while :attr:`playing` (see the module docstring).

    ``tick()`` plays one move (or waits) and returns None to go on, or the reason to stop.
    ``on_change(playing, reason)`` is told every start and stop (the view updates its button and message)."""

    def __init__(self, tick: Callable[[], str | None], on_change: Callable[[bool, str], None],
                 later: Later = kernel_later) -> None:
        self._tick = tick
        self._on_change = on_change
        self.later = later
        self.interval = 0.5            # seconds between the end of one move and the next
        self.playing = False
        self.reason = ""               # why Autoplay last stopped ("" while playing, or never started)
        self.ticks = 0                 # ticks played since the last start
        self._handle: Any = None
        self._generation = 0           # a stopped and restarted Autoplay ignores the old run's pending tick

    def start(self) -> None:
        if self.playing:
            return
        self.playing, self.reason, self.ticks = True, "", 0
        self._generation += 1
        self._on_change(True, "")
        self._schedule()

    def stop(self, reason: str) -> None:
        """Stop, saying why (shown in the stepper's message area)."""
        if not self.playing:
            return
        self.playing, self.reason = False, reason
        self._generation += 1
        handle, self._handle = self._handle, None
        cancel = getattr(handle, "cancel", None)
        if callable(cancel):
            cancel()
        self._on_change(False, reason)

    def _schedule(self) -> None:
        generation = self._generation
        self._handle = self.later(self.interval, lambda: self._fire_if(generation))

    def _fire_if(self, generation: int) -> None:
        if generation == self._generation:
            self.fire()

    def fire(self) -> None:
        """One tick: play (or wait), then schedule the next, or stop with the tick's reason. Never raises."""
        if not self.playing:
            return
        self._handle = None
        try:
            reason = self._tick()
        except Exception as exc:  # a tick runs on the event loop: nothing may escape into the kernel
            reason = f"Autoplay stopped: something went wrong ({type(exc).__name__}: {exc})"
        self.ticks += 1
        if reason is not None:
            self.stop(reason)
        elif self.playing and self._handle is None:
            self._schedule()
