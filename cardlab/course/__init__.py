"""The course's answer keys: one module per lesson, out of the notebooks.

A lesson's exercise is made by its key, from the game the question names::

    from cardlab.course import lesson
    exercise_2 = lesson("02").exercise(2)                          # a question about a game the key deals
    exercise_3 = lesson("02").exercise(3, game=greedy_game(2, 4))  # a question about a position the lesson shows

The notebook's check cell holds only such a call: no formula and no method. The key (``cardlab/course/keys/
lesson_NN.py``) computes the truth from the game and the rules, never from a stored number, and seals it in the
:class:`~cardlab.viz.exercise.Exercise` it returns, where no attribute shows it (only a check uses it).

Layering: the keys sit above the core and the view (they deal games, compute chances with ``cardlab.sim`` and
make widgets with ``cardlab.viz``); nothing in ``cardlab.engine``, ``cardlab.sim`` or ``cardlab.viz`` imports them.
A key names the games its lesson teaches, as a lesson does; it is lesson content, not a generic layer.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from cardlab.errors import InvalidInputError, UnknownExerciseError, shown
from cardlab.viz.exercise import Exercise
from cardlab.viz.move_exercise import MoveExercise

_LESSON = re.compile(r"\d{1,2}")
KEYS_PACKAGE = "cardlab.course.keys"


def lessons() -> list[str]:
    """The lessons that have an answer key, as two-digit numbers ("00", "01", ...)."""
    from cardlab.course import keys

    return sorted(path.stem.removeprefix("lesson_") for path in keys.folder().glob("lesson_*.py"))


@dataclass(frozen=True)
class Lesson:
    """One lesson's answer key: :meth:`exercise` makes its exercises."""

    number: str
    _module: ModuleType

    @property
    def exercises(self) -> list[int]:
        """The numbers of the lesson's exercises."""
        return sorted(int(name.removeprefix("exercise_")) for name in vars(self._module)
                      if re.fullmatch(r"exercise_\d+", name))

    def exercise(self, number: int, **inputs: Any) -> Exercise | MoveExercise:
        """Exercise ``number`` of this lesson, made for the game or the data in ``inputs`` (the keywords the
        lesson's check cell gives, e.g. ``game=...``); its truth is computed at the first check. Most exercises
        ask for a number (:class:`~cardlab.viz.exercise.Exercise`); a few ask for a move in a position
        (:class:`~cardlab.viz.move_exercise.MoveExercise`)."""
        if isinstance(number, bool) or not isinstance(number, int) or number not in self.exercises:
            raise UnknownExerciseError(f"exercise {shown(number)} is not in lesson {self.number}'s key: its "
                                       f"exercises are {', '.join(map(str, self.exercises))}")
        make: Callable[..., Exercise | MoveExercise] = getattr(self._module, f"exercise_{number}")
        wanted = inspect.signature(make).parameters
        missing = [name for name, p in wanted.items() if p.default is inspect.Parameter.empty and name not in inputs]
        unknown = [name for name in inputs if name not in wanted]
        if missing or unknown:
            accepted = ", ".join(f"{name}=" for name in wanted) or "no keywords"
            problem = (f"needs {', '.join(f'{n}=' for n in missing)}" if missing
                       else f"does not take {', '.join(f'{n}=' for n in unknown)}")
            raise InvalidInputError(f"lesson {self.number}'s exercise {number} {problem}: it takes {accepted}")
        return make(**inputs)

    def __repr__(self) -> str:
        return f"<answer key of lesson {self.number}: exercises {', '.join(map(str, self.exercises))}>"


def lesson(number: str | int) -> Lesson:
    """The answer key of lesson ``number`` ("02", "2" or 2)."""
    text = str(number) if isinstance(number, (str, int)) and not isinstance(number, bool) else ""
    if not _LESSON.fullmatch(text.strip()) or f"{int(text):02d}" not in lessons():
        raise UnknownExerciseError(f"lesson {shown(number)} has no answer key: the lessons are "
                                   f"{', '.join(lessons())}")
    name = f"{int(text):02d}"
    return Lesson(name, importlib.import_module(f"{KEYS_PACKAGE}.lesson_{name}"))


__all__ = ["Lesson", "lesson", "lessons"]
