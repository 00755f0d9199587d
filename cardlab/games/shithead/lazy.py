"""Shithead beliefs computed when a question first needs them, from the public steps of play.

Every play from the hand, every pick-up, every draw and (with ``first="lowest3"``) the start of play tells
every viewer something about a hand (:mod:`.beliefs`). Folding that in at every move costs most of an engine
move, and most games never ask: a student's policy, a simulation, the replay of a record. So the state keeps
its beliefs as a :class:`Beliefs`: either a value (a fresh deal, a record's position, anything asked
before), or the beliefs before a move together with the **step** that move took (a function from the
beliefs of every seat to the next ones). The first question folds the steps since the last value, oldest
first, and keeps each result on its node, which then lets go of its step and of the nodes before it.

Why the answer is the one an update at every move gives:

* a step reads public facts only (the pile's fitting classes, how many cards of the hand are known, fit or
  are of the rank played, how many are unseen or drawn, who started), taken as values when the move is
  played, never a reference to a list the game changes later; folding it later gives what folding it
  then gave (``tests/games/shithead/test_lazy.py`` compares both at every move of many games);
* a node never changes meaning: a move makes a new node on top of the old one, and an undo puts back the
  snapshot's node, whose value (when asked before) is still right, so the cache needs no invalidation;
* copies, undo snapshots, resampled worlds and twins share nodes: one public history, one value.

A record writes the value (:meth:`value`) where its position starts; the moves after it are replayed and
read into beliefs lazily like any others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, overload

from cardlab.games.shithead import beliefs
from cardlab.games.shithead.beliefs import Belief

PerSeat = tuple[Belief, ...]
Step = Callable[[PerSeat], PerSeat]
"""What one public step of play does to every seat's belief."""


class Beliefs(Sequence[Belief]):
    """Per seat, the belief about that hand's unseen cards that its play gave every other viewer, computed
    on first use (module notes). It reads as the tuple of beliefs (``beliefs[seat]``, ``len``, iteration,
    ``==`` with another or with a tuple); :meth:`then` makes the node after a step, leaving this one as it
    is. Nodes are immutable in meaning, so copies of a state share them."""

    __slots__ = ("_pending", "_value")

    def __init__(self, value: Iterable[Belief]) -> None:
        self._value: PerSeat | None = tuple(value)
        # before a question: the node before, and the step (a seat >= 0 and an update of its belief, or
        # -1 and a step of every seat's); None once the value is known
        self._pending: tuple[Beliefs, int, Callable[[Any], Any]] | None = None

    def then(self, step: Step) -> Beliefs:
        """The beliefs after ``step``, which runs when a question first needs them."""
        node = Beliefs.__new__(Beliefs)
        node._value = None
        node._pending = (self, -1, step)
        return node

    def then_seat(self, seat: int, update: Callable[[Belief], Belief]) -> Beliefs:
        """The beliefs after ``update`` of ``seat``'s belief (:func:`on_seat`), which runs when a question
        first needs them. (The same as ``then(on_seat(seat, update))``, without a closure per move.)"""
        node = Beliefs.__new__(Beliefs)
        node._value = None
        node._pending = (self, seat, update)
        return node

    @property
    def computed(self) -> bool:
        """Whether the value is known without running a step."""
        return self._value is not None

    @property
    def value(self) -> PerSeat:
        """Every seat's belief: the steps not yet run are run now, oldest first (iteratively: a long game
        makes a long chain), and each node on the way keeps its result."""
        node = self
        waiting: list[Beliefs] = []
        while node._value is None:
            assert node._pending is not None  # a node holds a value or a step, never neither
            waiting.append(node)
            node = node._pending[0]
        value = node._value
        for node in reversed(waiting):
            assert node._pending is not None
            _, seat, step = node._pending
            value = step(value) if seat < 0 else _with_seat(value, seat, step)
            node._value = value
            node._pending = None
        return value

    def __len__(self) -> int:
        return len(self.value)

    @overload
    def __getitem__(self, index: int) -> Belief: ...

    @overload
    def __getitem__(self, index: slice) -> PerSeat: ...

    def __getitem__(self, index: int | slice) -> Belief | PerSeat:
        return self.value[index]

    def __iter__(self) -> Iterator[Belief]:
        return iter(self.value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Beliefs):
            return other is self or self.value == other.value
        if isinstance(other, tuple):
            return self.value == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"Beliefs({self.value!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickled (or deep-copied) node is its value: a step need not be picklable."""
        return (Beliefs, (self.value,))


def on_seat(seat: int, update: Callable[[Belief], Belief]) -> Step:
    """The step that applies ``update`` to ``seat``'s belief (:func:`_with_seat`)."""
    return lambda per_seat: _with_seat(per_seat, seat, update)


def _with_seat(per_seat: PerSeat, seat: int, update: Callable[[Belief], Belief]) -> PerSeat:
    """``update`` applied to ``seat``'s belief; a hand left with no unseen card is ``()`` again (nothing to
    know), unless its belief carries a starter tag (:mod:`.beliefs`, *Who starts*)."""
    new = update(per_seat[seat])
    if new and not beliefs.tagged(new) and not sum(new[0][0]):
        new = ()
    return per_seat[:seat] + (new,) + per_seat[seat + 1:]


def started(unseen: Sequence[int], starter: int) -> Step:
    """The step of the start of play under ``first="lowest3"``: ``starter`` starts, and hand ``p`` holds
    ``unseen[p]`` cards nobody else has seen (:func:`.beliefs.start`)."""
    counts = tuple(unseen)

    def step(per_seat: PerSeat) -> PerSeat:
        return tuple(beliefs.start(b, counts[p], p, starter) for p, b in enumerate(per_seat))

    return step
