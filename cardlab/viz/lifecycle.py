"""Widgets that are released when their owner goes: closing a whole tree, and a cell run again.

Every ipywidgets widget stays alive in the kernel (``ipywidgets.Widget.widgets``, with its comm and its
model in the page) until it is closed, whether or not anything still refers to it. Closing a box
closes only the box: its children, and every widget's ``layout`` and ``style`` (widgets too), stay.
:func:`widget_tree` finds everything a widget holds through its traits, so an owner can close it all.

Running a cell again (``s = cardlab.Stepper(...)``) replaces the cell's output in the page, but the
old stepper's widgets would live on in the kernel. :class:`CellOwners` remembers which steppers each
notebook cell made, by the cell id the front-end sends with each execution (JupyterLab, Voilà and
nbclient send one), and closes those of an earlier run of the same cell when the cell makes a new one.
Steppers made by one run of a cell are never closed by that same run.

:class:`Deferral` keeps a widget's large updates in the kernel while no page shows its owner (a stepper
stepped from code and never displayed), and sends the current state once when a page does (ipywidgets'
``hold_sync``). :class:`Quiet` tells an owner's observers that a change is the owner's own.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import ipywidgets as widgets


def widget_tree(*roots: widgets.Widget) -> list[widgets.Widget]:
    """``roots`` and every widget reachable from them through traits (children, layout, style, links)."""
    seen: dict[int, widgets.Widget] = {}
    stack: list[Any] = list(roots)
    while stack:
        item = stack.pop()
        if isinstance(item, widgets.Widget):
            if id(item) in seen:
                continue
            seen[id(item)] = item
            for name in item.trait_names():
                if name.startswith("_") and name not in ("_dom_classes",):
                    continue
                try:
                    value = getattr(item, name)
                except Exception:  # a trait without a value yet
                    continue
                if isinstance(value, widgets.Widget):
                    stack.append(value)
                elif isinstance(value, (list, tuple)):
                    stack.extend(v for v in _flat(value) if isinstance(v, widgets.Widget))
    return list(seen.values())


def _flat(values: Iterable[Any]) -> Iterable[Any]:
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v


def close_tree(*roots: widgets.Widget, skip: widgets.Widget | None = None,
               keep: Iterable[widgets.Widget] = ()) -> int:
    """Close ``roots`` and everything :func:`widget_tree` finds under them, except ``skip`` (an owner that
    closes itself last) and the widgets in ``keep`` with everything under them (shared with other owners);
    returns how many were open."""
    kept = {id(w) for w in widget_tree(*keep)}
    closed = 0
    for w in widget_tree(*roots):
        if w is skip or id(w) in kept:
            continue
        if w.comm is not None:
            closed += 1
        w.close()
    return closed


def current_cell() -> tuple[str, str] | None:
    """``(cell id, execution message id)`` of the cell being run, or None outside a notebook kernel."""
    try:
        from IPython import get_ipython
    except ImportError:   # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    if kernel is None:
        return None
    try:
        parent = kernel.get_parent("shell")
    except TypeError:   # older ipykernel: no channel argument
        parent = kernel.get_parent()
    except Exception:
        return None
    if not isinstance(parent, dict):
        return None
    header = parent.get("header") or {}
    if header.get("msg_type") != "execute_request":
        return None
    cell = (parent.get("metadata") or {}).get("cellId")
    if not isinstance(cell, str) or not cell:
        return None
    return cell, str(header.get("msg_id", ""))


class CellOwners:
    """Which owners (anything with ``close()``) each cell made, so a re-run of the cell closes the old ones."""

    def __init__(self) -> None:
        self._cells: dict[str, tuple[str, list[weakref.ref[Any]]]] = {}

    def adopt(self, owner: Any, where: tuple[str, str] | None = None) -> list[Any]:
        """Record ``owner`` as made by the current cell run; close (and return) what an earlier run of the same
        cell made. ``where`` overrides the detected ``(cell id, run id)``."""
        where = where if where is not None else current_cell()
        if where is None:
            return []
        cell, run = where
        closed: list[Any] = []
        previous = self._cells.get(cell)
        if previous is not None and previous[0] != run:
            for ref in previous[1]:
                old = ref()
                if old is not None and old is not owner:
                    old.close()
                    closed.append(old)
            previous = None
        refs = previous[1] if previous is not None else []
        refs.append(weakref.ref(owner))
        self._cells[cell] = (run, refs)
        return closed


class Deferral:
    r"""Keeps the updates of some widgets in the kernel while no page shows their owner, with ipywidgets' public
    ``hold_sync``.

    Every widget model reaches the page when it is made, and from then on each change of a synced trait is
    sent to it, whether or not any page shows a view of it. ``widget.hold_sync()`` is a context manager that
    holds those updates and sends each changed trait once, with its current value, when it ends. An owner
    that no page shows yet (a stepper made and stepped from code, never displayed) :meth:`defer`\ s its large
    widgets: the hold stays open across calls (kept in an :class:`~contextlib.ExitStack`) until
    :meth:`release` ends it, when a page shows the owner. Meanwhile the traits keep their current values in the
    kernel (tests, notebooks and saved widget state read them as usual).
    """

    def __init__(self) -> None:
        self._held: dict[int, tuple[widgets.Widget, ExitStack]] = {}

    def defer(self, *ws: widgets.Widget) -> None:
        """Hold the updates of ``ws`` until :meth:`release` (a widget already held stays held)."""
        for w in ws:
            if id(w) not in self._held:
                stack = ExitStack()
                stack.enter_context(w.hold_sync())
                self._held[id(w)] = (w, stack)

    def deferred(self, w: widgets.Widget) -> bool:
        return id(w) in self._held

    def release(self, *ws: widgets.Widget) -> None:
        """Send what changed in each of ``ws`` (one message per widget), and stop holding it."""
        for w in ws:
            held = self._held.pop(id(w), None)
            if held is not None:
                held[1].close()

    def forget(self, w: widgets.Widget) -> None:
        """Stop holding ``w`` without sending anything (it is being closed)."""
        self._held.pop(id(w), None)


class Quiet:
    """The owner's own changes to its widgets, which its observers must not take for the user's::

        with quiet():
            dropdown.value = "seat 1"       # the observer below sees bool(quiet) and returns

        def observer(change): if quiet: return ...

    Nesting is allowed; the quiet ends with the outermost block, also when it raises.
    """

    def __init__(self) -> None:
        self._depth = 0

    def __bool__(self) -> bool:
        return self._depth > 0

    @contextmanager
    def __call__(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
