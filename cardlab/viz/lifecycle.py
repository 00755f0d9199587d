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

:class:`Deferred` keeps a widget's large updates in the kernel while no page shows its owner (a stepper
stepped from code and never displayed), and sends the current state once when a page does.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
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


class Deferred:
    """A widget mixin: while deferred, changes of the traits named in ``deferred_traits`` stay in the kernel.

    Every widget model reaches the page when it is made, and from then on each change of a synced trait
    is sent to it, whether or not any page shows a view of it. An owner that no page shows yet (a stepper
    made and stepped from code, never displayed) calls :meth:`defer` on its large widgets; their traits
    keep their current values in the kernel (tests, notebooks and saved widget state read them as
    usual), and :meth:`release` sends each changed trait once, with its current value, when a page
    shows the owner.
    """

    deferred_traits: tuple[str, ...] = ("value",)
    _waiting: set[str] | None = None

    def defer(self) -> None:
        """Keep changes of ``deferred_traits`` in the kernel until :meth:`release`."""
        if self._waiting is None:
            self._waiting = set()

    @property
    def deferred(self) -> bool:
        return self._waiting is not None

    def release(self) -> None:
        """Send the current value of every deferred trait that changed (one message), and stop deferring."""
        waiting, self._waiting = self._waiting, None
        if waiting and getattr(self, "comm", None) is not None:
            self.send_state(sorted(waiting))  # type: ignore[attr-defined]

    def _should_send_property(self, key: str, value: Any) -> bool:
        if self._waiting is not None and key in self.deferred_traits:
            self._waiting.add(key)
            return False
        return bool(super()._should_send_property(key, value))  # type: ignore[misc]


class DeferredHTML(Deferred, widgets.HTML):  # type: ignore[misc]
    """An ``HTML`` widget whose ``value`` can wait in the kernel (see :class:`Deferred`)."""
