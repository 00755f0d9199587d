"""Small pieces of the stepper: viewpoint labels, policy names, texts, and two small widgets.

Nothing here builds or imports a widget, so each function can be tested on its own, and the
widget-free :mod:`cardlab.viz.controller` uses them.

Viewpoints
----------
The viewpoint selector offers ``"table"`` (what everybody at the table sees), ``"seat k"`` (what
player k knows, their own hand included) and ``"everything revealed"`` (every card face up, for
teaching). Only the last one lets the drawing show hidden cards, and it says so on the table.

Probabilities are always computed from a real player's knowledge: "everything revealed" uses the
table's public view for its estimates, because a player who could see every card would face no
chance at all in the cards already dealt.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from cardlab.engine.game import Event, Game
from cardlab.errors import CardlabError, InvalidInputError

TABLE = "table"
REVEAL = "everything revealed"
POLICY_CHOICES = ("greedy", "random", "search", "human")
CUSTOM = "custom"
LOG_SHOWN = 40
SEED_BOX_MAX = 999_999_999
"""The largest seed the stepper's seed box deals from (nine digits: readable, and exact in the page's numbers).
A game dealt elsewhere from a larger seed is shown like one loaded from a record."""


def viewpoint_options(players: int) -> list[str]:
    """The labels of the viewpoint selector for a game of ``players`` seats."""
    return [TABLE, *[f"seat {k}" for k in range(players)], REVEAL]


def parse_viewpoint(label: str, players: int) -> tuple[int | None, bool]:
    """``(seat or None, reveal_all)`` for a viewpoint label."""
    if label == TABLE:
        return None, False
    if label == REVEAL:
        return None, True
    if label.startswith("seat "):
        tail = label[5:]
        if tail.isdigit() and int(tail) < players:
            return int(tail), False
    accepted = ", ".join(repr(o) for o in viewpoint_options(players))
    raise InvalidInputError(f"viewpoint {label!r} is not one of {accepted}")


def viewpoint_code(label: str, players: int) -> int:
    """A number for the probability viewpoint: 0 for the table (and "everything revealed"), k+1 for seat k.

    It seeds the estimates, so the same position seen by the same person always gives the same numbers.
    """
    seat, _ = parse_viewpoint(label, players)
    return 0 if seat is None else seat + 1


def viewpoint_words(label: str) -> str:
    if label == TABLE:
        return "the table's public view"
    if label == REVEAL:
        return "everything revealed (estimates use the table's view)"
    return f"{label}'s view"


def status_text(game: Game[Any], policy_names: Sequence[str], step: tuple[int, int] | None = None) -> str:
    """The move counter line: ``Move N`` then who is to move, or how the game ended."""
    parts = [f"Move {game.move_count}"]
    if game.is_over:
        winner = game.winner
        parts.append("game over: " + ("no winner" if winner is None else f"seat {winner} wins"))
    else:
        seat = game.current_player
        who = policy_names[seat] if seat < len(policy_names) else "?"
        parts.append(f"seat {seat} to move ({who})")
    if step is not None:
        parts.append(f"event {step[0]} of {step[1]} of the next move")
    return " · ".join(parts)


def turn_words(game: Game[Any]) -> str:
    """Who is to move, in the status line's words ("seat 1 to move"), or "game over": the panels' titles say it
    too, so a chance "for seat 0" is read against the seat the status line names."""
    return "game over" if game.is_over else f"seat {game.current_player} to move"


def result_text(game: Game[Any]) -> str:
    """How a finished game ended, in words: the winner (or none), then the game's own last event, which
    states the result (the points scored, the hand won, the player out of cards)."""
    winner = game.winner
    head = "the game is over: " + ("no winner" if winner is None else f"seat {winner} wins")
    last = game.events[-1].describe(None) if game.events else ""
    return f"{head} ({last})" if last else head


def banner_html(game: Game[Any]) -> str:
    """The game-over banner: the winner in large type and the result in words ("" while the game goes on)."""
    if not game.is_over:
        return ""
    winner = game.winner
    head = "Game over: " + ("no winner" if winner is None else f"seat {winner} wins")
    last = game.events[-1].describe(None) if game.events else ""
    return ('<div class="cl-banner" role="status" style="font:15px sans-serif;background:#fff4d6;color:#3d2c00;'
            'border:2px solid #b07d00;border-radius:6px;padding:8px 12px;margin:4px 0">'
            f'<div style="font-size:20px;font-weight:bold">{html.escape(head)}</div>'
            + (f"<div>{html.escape(last)}</div>" if last else "") + "</div>")


def status_html(game: Game[Any], policy_names: Sequence[str], step: tuple[int, int] | None = None) -> str:
    """The move counter as the page shows it: :func:`status_text` in bold, carrying the same facts as data
    attributes (``data-game``, ``data-move``, ``data-mover``, ``data-seats``: each seat's player, comma-separated).

    They travel in one value, so a page (or a test driving it) that reads who is to move and who plays each
    seat reads them together, from the same state of the stepper."""
    mover = "" if game.is_over else str(game.current_player)
    seats = html.escape(",".join(policy_names), quote=True)
    return (f'<b class="cl-status" data-game="{html.escape(game.name, quote=True)}" data-move="{game.move_count}" '
            f'data-mover="{mover}" data-seats="{seats}">'
            f"{html.escape(status_text(game, policy_names, step))}</b>{banner_html(game)}")


def log_html(events: Sequence[Event], viewpoint: int | None, reveal_all: bool, shown: int = LOG_SHOWN) -> str:
    """The move log: newest event first, each in plain words as ``viewpoint`` may read it."""
    recent = list(events)[-shown:]
    earlier = len(events) - len(recent)
    rows = [f'<div style="padding:1px 0"><span style="color:#666">{e.move_index + 1}.</span> '
            f"{html.escape(e.describe(viewpoint, reveal_all))}</div>" for e in reversed(recent)]
    if earlier:
        rows.append(f'<div style="color:#666">… {earlier} earlier events</div>')
    if not rows:
        rows.append('<div style="color:#666">No move yet: press Step or Next move.</div>')
    return ('<div class="cl-log" style="font:12px sans-serif;max-height:220px;overflow-y:auto;'
            'border:1px solid #ddd;padding:4px;background:#fafafa">' + "".join(rows) + "</div>")


def message_html(text: str, kind: str = "info") -> str:
    """The message area: an error in red, a note in grey; never a traceback."""
    if not text:
        return ""
    colour = {"error": "#b00020", "info": "#444"}.get(kind, "#444")
    icon = "⚠ " if kind == "error" else ""
    return f'<div class="cl-message" style="color:{colour};font:13px sans-serif">{icon}{html.escape(text)}</div>'


def human_to_move_text(seat: int, shows_moves: bool, hot_seat: bool) -> str:
    """What Next move (or Step) says when the seat to move is a human: where its moves are, or, on a screen that
    does not show them, which button shows them."""
    if shows_moves:
        return f"seat {seat} is played by a human: click one of its moves below the table"
    return (f"seat {seat} is played by a human and this view does not show its moves: press "
            f"\"{handover_label(seat, hot_seat)}\" below the table")


def error_text(exc: BaseException) -> str:
    """A short message for an error caught in a callback; cardlab's own errors already read well."""
    if isinstance(exc, CardlabError):
        return f"{exc} (the game is unchanged)"
    return f"something went wrong ({type(exc).__name__}: {exc}); the game is unchanged"


# ---------------------------------------------------------------------------------------- hot-seat play
HUMAN = "human"


def is_hot_seat(policy_names: Sequence[str]) -> bool:
    """Hot-seat play: two or more seats are played by people sharing one screen."""
    return sum(1 for name in policy_names if name == HUMAN) >= 2


def handover_label(seat: int, hot_seat: bool) -> str:
    """The text of the one button shown in place of the moves of a human seat the screen does not show.

    In hot-seat play the device is being passed, so the button belongs to the next player; with one human
    seat the screen shows another viewpoint, and the button switches to that seat's.
    """
    if hot_seat:
        return f"I am seat {seat}: show my cards"
    return f"Show seat {seat}'s cards and moves"


def handover_html(seat: int) -> str:
    """The screen between two human turns: every hand is hidden until seat ``seat`` takes the device."""
    return ('<div class="cl-handover" style="font:15px sans-serif;border:2px dashed #999;border-radius:8px;'
            'padding:28px 16px;margin:4px 0;text-align:center;background:#f4f4f4;min-width:360px">'
            f"<div style=\"font-size:20px;font-weight:bold\">Pass the device to seat {seat}</div>"
            "<div style=\"color:#555;margin-top:8px\">Every hand is hidden. Seat "
            f"{seat}: click the button below when only you can see the screen.</div></div>")

