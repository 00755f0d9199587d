"""High card: a toy fourth game that the tests register, to show that every generic test follows the registry.

Nothing in ``cardlab`` names this game. Importing this module (``tests/conftest.py`` does, before any test
is collected) registers its :class:`~cardlab.engine.spec.GameSpec` with :func:`cardlab.engine.register`, and
its chance checks with :func:`tests.sim.chance_checks.register_checks`; from then on the conformance suite,
the records and their fuzz, the chance-law checks, the panels and the stepper run on it as on the built-in
games, through the same parametrisations over :func:`cardlab.game_names`.

Rules (one 52-card pack, 2 to 4 players, option ``rounds``, 1 to 8, default 5):

* Each seat is dealt :data:`HAND` cards (seat 0 first, from the top of the deck); the rest is the stock,
  face down. A seat sees its own hand only; nobody sees the stock.
* A round: starting with the round's leader, each seat in turn plays one card of its hand face up (the
  move ``play 7♥``), then draws the top card of the stock into its hand while the stock lasts.
* When every seat has played, the highest rank wins the round (Aces high, suits do not count): if one
  card alone has that rank, its seat scores a point and leads the next round; on a tie nobody scores and
  the seat after the leader leads. The round's cards go out of play, face up.
* The game ends after ``rounds`` rounds, or as soon as the seat to play holds no card. The seat with the
  most points wins; a tie for the most is a game with no winner.

Hidden information and chance: the other hands and the stock. The chance law (:meth:`HighCard.chance_law`)
is uniform over the hidden places; that is exact when a seat's play tells nothing about the cards it keeps,
which the ``uninformed`` player (a uniformly random card of the hand) makes true. The greedy bot plays its
lowest card that wins the round so far, else its lowest card: against it the law is only an assumption.

There is no kernel: play-outs and simulations run on the engine, which the spec allows (``kernel=None``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from cardlab.cards import Card, Rank, face_of, full_deck, shuffled_deck, stack_deck
from cardlab.chance.law import ChanceLaw, Group, canonical
from cardlab.chance.stats import wilson
from cardlab.dealer import SplitMix64
from cardlab.engine import register
from cardlab.engine.game import Game, Move, Option
from cardlab.engine.spec import GameSpec, RolloutBudgets
from cardlab.engine.state import (
    COUNTER_MAX,
    Bool,
    CardSpec,
    Int,
    ListOf,
    Maybe,
    PlayState,
    cards,
    counter,
    last_seat,
    per_seat,
)
from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.sim.prob import Quantity, anytime, expect_game

NAME = "high-card"
HAND = 3
"""Cards in a hand after each draw."""
MAX_ROUNDS = 8


def power(card: Card) -> int:
    """A card's strength in a round: 2 lowest, Ace highest (suits do not count)."""
    return 14 if card.rank == Rank.ACE else int(card.rank)


def sort_key(card: Card) -> tuple[int, int]:
    return (power(card), int(card.suit))


@dataclass(frozen=True, slots=True)
class HighMove(Move):
    """``play <card>``: the seat to move puts ``card`` from its hand on the round."""

    card: Card


@dataclass
class HighState(PlayState):
    hands: list[list[Card]]         # each hand sorted by power, then suit
    stock: list[Card]               # top of the stock is the last element
    trick: list[Card | None]        # the card each seat played this round (None: not yet)
    out: list[Card]                 # the cards of finished rounds
    points: list[int]
    round: int                      # the round being played, from 1
    leader: int
    to_move: int
    turn: int
    shuffles: int
    over: bool
    winner: int | None


STATE_DESCRIPTION = {
    "hands": per_seat(ListOf(CardSpec(), 0, HAND)), "stock": cards(), "trick": per_seat(Maybe(CardSpec())),
    "out": cards(), "points": per_seat(Int(0, MAX_ROUNDS)), "round": Int(1, MAX_ROUNDS + 1),
    "leader": Int(0, last_seat), "to_move": Int(0, last_seat), "turn": Int(0, COUNTER_MAX),
    "shuffles": counter(), "over": Bool(), "winner": Maybe(Int(0, last_seat)),
}


@dataclass(frozen=True)
class HighView:
    """What one seat (or the table, ``seat=None``) sees: its own hand, the sizes of the others."""

    seat: int | None
    players: int
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    trick: tuple[Card | None, ...]
    out: tuple[Card, ...]
    points: tuple[int, ...]
    round: int
    leader: int
    to_move: int
    over: bool
    winner: int | None


def _rounds_ok(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer)) and 1 <= value <= MAX_ROUNDS


class HighCard(Game[HighState]):
    name = NAME
    title = "High card"
    aliases = ("toy",)
    drawer = f"{__name__}:draw"
    min_players = 2
    max_players = 4
    default_players = 2
    option_specs = {"rounds": Option(5, _rounds_ok, f"a whole number from 1 to {MAX_ROUNDS}",
                                     "rounds to play")}
    state_class = HighState
    state_description = STATE_DESCRIPTION

    @property
    def packs(self) -> int:
        return 1

    def _deal(self, rng: SplitMix64, deck: list[str | Card] | None) -> HighState:
        order = stack_deck(deck, 1, rng) if deck is not None else shuffled_deck(1, rng)
        hands = [sorted(order[p * HAND:(p + 1) * HAND], key=sort_key) for p in range(self.players)]
        return HighState(hands=hands, stock=order[self.players * HAND:][::-1], trick=[None] * self.players, out=[],
                         points=[0] * self.players, round=1, leader=0, to_move=0, turn=0, shuffles=0, over=False,
                         winner=None)

    # ------------------------------------------------------------------------------------------- rules
    def _legal_moves(self) -> list[Move]:
        return [HighMove(f"play {c}", "play", c) for c in self._state.hands[self._state.to_move]]

    def _move_aliases(self, move: Move) -> set[str]:
        return {f"play {move.card.code.lower()}"} if isinstance(move, HighMove) else set()

    def _apply(self, move: Move) -> Iterator[None]:
        if not isinstance(move, HighMove):
            raise InvalidInputError(f"{move!r} is not a move of {self.name}")
        s = self._state
        seat = s.to_move
        s.hands[seat].remove(move.card)
        s.trick[seat] = move.card
        s.turn += 1
        self._log("play", f"seat {seat} plays {move.card}", seat, card=move.card)
        yield
        if s.stock:
            card = s.stock.pop()
            s.hands[seat] = sorted([*s.hands[seat], card], key=sort_key)
            self._log("draw", f"seat {seat} draws a card", seat, private=f"seat {seat} draws {card}",
                      private_to=seat)
            yield
        s.to_move = (seat + 1) % self.players
        if all(c is not None for c in s.trick):
            self._end_round()
            yield
        if s.round > self.options["rounds"] or not s.hands[s.to_move]:
            self._end_game()
            yield

    def _end_round(self) -> None:
        s = self._state
        played = [c for c in s.trick if c is not None]
        top = max(power(c) for c in played)
        best = [p for p, c in enumerate(s.trick) if c is not None and power(c) == top]
        if len(best) == 1:
            s.points[best[0]] += 1
            s.leader = best[0]
            self._log("round", f"seat {best[0]} wins round {s.round} with {s.trick[best[0]]}", best[0])
        else:
            s.leader = (s.leader + 1) % self.players
            self._log("round", f"round {s.round}: a tie for the highest rank, no point")
        s.out += played
        s.trick = [None] * self.players
        s.to_move = s.leader
        s.round += 1

    def _end_game(self) -> None:
        s = self._state
        s.over = True
        s.winner = self._top_scorer()
        self._log("end", "game over: " + (f"seat {s.winner} wins" if s.winner is not None else "no winner"))

    def _top_scorer(self) -> int | None:
        s = self._state
        most = max(s.points)
        leaders = [p for p, n in enumerate(s.points) if n == most]
        return leaders[0] if len(leaders) == 1 else None

    def _validate_state(self) -> None:
        """A record's position must be one the rules reach: the seats that played this round are the leader
        and the seats after it up to the seat to move (never all of them), and the winner is the top scorer."""
        s = self._state
        rounds = self.options["rounds"]
        if s.over:
            if s.winner != self._top_scorer():
                raise CorruptRecordError(f"record field initial.winner is {s.winner}; the points "
                                         f"{s.points} make it {self._top_scorer()}")
            return
        if s.winner is not None:
            raise CorruptRecordError("record field initial.winner names a seat in a game that is not over")
        if s.round > rounds:
            raise CorruptRecordError(f"record field initial.round is {s.round} in a game of {rounds} rounds "
                                     "that is not over")
        if sum(s.points) > s.round - 1:
            raise CorruptRecordError(f"record field initial.points {s.points} add up to more than the "
                                     f"{s.round - 1} rounds played")
        seat, played = s.leader, []
        while seat != s.to_move:
            played.append(seat)
            seat = (seat + 1) % self.players
        if {p for p, c in enumerate(s.trick) if c is not None} != set(played):
            raise CorruptRecordError(f"record field initial.trick: seats {played} have played this round "
                                     f"(leader {s.leader}, seat {s.to_move} to move), not those holding cards")
        if any(h != sorted(h, key=sort_key) for h in s.hands):
            raise CorruptRecordError("record field initial.hands: a hand is not in order")

    # ------------------------------------------------------------------------------------------- views
    def _observe(self, seat: int | None) -> HighView:
        s = self._state
        return HighView(seat=seat, players=self.players, hand=tuple(s.hands[seat]) if seat is not None else None,
                        hand_sizes=tuple(len(h) for h in s.hands), stock_size=len(s.stock), trick=tuple(s.trick),
                        out=tuple(s.out), points=tuple(s.points), round=s.round, leader=s.leader,
                        to_move=s.to_move, over=s.over, winner=s.winner)

    def zones(self) -> dict[str, list[Card]]:
        s = self._state
        zones = {f"hand {p}": list(h) for p, h in enumerate(s.hands)}
        return {**zones, "stock": list(s.stock), "trick": [c for c in s.trick if c is not None], "out": list(s.out)}

    def _hidden_seats(self, viewpoint: int | None) -> list[int]:
        return [p for p in range(self.players) if p != viewpoint]

    def chance_law(self, viewpoint: int | None = None) -> ChanceLaw:
        """Uniform over the hidden places: the hands ``viewpoint`` cannot see (seat by seat, in hand order),
        then the stock from the bottom up; every unseen card is equally likely on every one of them."""
        self.check_seat(viewpoint, "chance_law")
        s = self._state
        seats = self._hidden_seats(viewpoint)
        names = tuple(f"seat {p} hand" for p in seats for _ in s.hands[p]) + ("stock",) * len(s.stock)
        hidden = [c for p in seats for c in s.hands[p]] + list(s.stock)
        return ChanceLaw(names, (Group(tuple(range(len(names))), canonical(hidden)),))

    def unseen_cards(self, viewpoint: int | None = None) -> list[Card]:
        self.check_seat(viewpoint, "unseen_cards")
        return list(self.chance_law(viewpoint).cards)

    def place(self, cards_by_place: Sequence[Card], viewpoint: int | None) -> None:
        """Put ``cards_by_place`` on the hidden places of ``viewpoint`` (the chance law's order)."""
        s = self._state
        k = 0
        for p in self._hidden_seats(viewpoint):
            size = len(s.hands[p])
            s.hands[p] = sorted(cards_by_place[k:k + size], key=sort_key)
            k += size
        s.stock = list(cards_by_place[k:])

    def _resample_state(self, viewpoint: int | None, rng: np.random.Generator) -> HighState:
        law = self.chance_law(viewpoint)
        game = self.copy()
        game.place(law.sample(rng), viewpoint)
        return game._state


# ---------------------------------------------------------------------------------------------- bots
def greedy(view: HighView, legal_moves: Sequence[Move]) -> Move:
    """The lowest card that beats every card of the round so far, else the lowest card."""
    best = max((power(c) for c in view.trick if c is not None), default=0)
    plays = sorted((m for m in legal_moves if isinstance(m, HighMove)), key=lambda m: sort_key(m.card))
    return next((m for m in plays if power(m.card) > best), plays[0] if plays else legal_moves[0])


def uninformed(rng: np.random.Generator) -> Callable[[HighView, Sequence[Move]], Move]:
    """A uniformly random card of the hand: the play tells nothing about the cards kept."""
    def play(view: HighView, legal_moves: Sequence[Move]) -> Move:
        return legal_moves[int(rng.integers(len(legal_moves)))]
    return play


# ---------------------------------------------------------------------------------------------- questions
def best_on_table(game: Game[Any]) -> int | None:
    """The highest power played this round (None before the round's first card)."""
    return max((power(c) for c in game.state.trick if c is not None), default=None)


def stock_top_beats(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance that the top stock card is higher than every card played this round, from the chance law."""
    expect_game(game, NAME)
    game.check_seat(viewpoint, "stock_top_beats")
    best = best_on_table(game)
    if game.is_over or best is None or not game.state.stock:
        raise InvalidInputError("stock_top_beats is not applicable: " + _reason(game))
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    result: Fraction = law.chance(len(law.names) - 1, lambda c: power(c) > best)
    return result


def _reason(game: Game[Any]) -> str:
    if game.is_over:
        return "the game is over"
    if not game.state.stock:
        return "the stock is empty"
    return "no card has been played this round"


def panel(game: Game[Any], viewpoint: int | None, *, rng: np.random.Generator, rollouts: int | None = None,
          budget_s: float | None = None) -> list[Quantity]:
    """The exact chance that the stock's top beats the round so far, and each seat's estimated chance to win
    the round being played (resampled hidden cards, greedy play to the end of the round)."""
    label = "top stock card beats the round so far"
    out = []
    if game.is_over or best_on_table(game) is None or not game.state.stock:
        out.append(Quantity.not_applicable("stock_top_beats", label, _reason(game)))
    else:
        out.append(Quantity.from_exact("stock_top_beats", label, stock_top_beats(game, viewpoint)))
    if game.is_over:
        return out
    start = game.state.round

    def trial() -> list[float]:
        g = game.resample(viewpoint, rng)
        before = list(g.state.points)
        while not g.is_over and g.state.round == start:
            g.play(greedy(g.observe(g.current_player), g.legal_moves()))
        return [float(g.state.points[p] > before[p]) for p in range(game.players)]

    totals, n = anytime(trial, game.players, rollouts, budget_s)
    out += [Quantity.from_estimate("round_point", f"seat {p} wins this round", wilson(float(t), n), p)
            for p, t in enumerate(totals)]
    return out


# ---------------------------------------------------------------------------------------------- table
def draw(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
    """The table: the stock, the round's cards, the cards out, and each hand (backs where hidden)."""
    from cardlab.viz import table as t

    view = game.observe(viewpoint)
    if not isinstance(view, HighView):
        raise InvalidInputError(f"game {game.name!r} did not give a HighView to draw")
    hands: list[list[Card | None]] = []
    for p in range(view.players):
        if reveal_all or p == viewpoint:
            hands.append(list(game.state.hands[p]))
        else:
            hands.append([None] * view.hand_sizes[p])
    middle = t.panel("Table", t.pile("stock", "stock", view.stock_size, None, four_colour=four_colour, face_up=False)
                     + t.fan(list(view.out), "out", four_colour=four_colour, empty="out"))
    seats = []
    for p in range(view.players):
        played = view.trick[p]
        body = t.fan(hands[p], f"hand{p}", four_colour=four_colour, hidden=reveal_all and p != viewpoint,
                     empty="no cards")
        body += t.box(t.card_cell(played, four_colour=four_colour), "played") if played is not None else ""
        seats.append(t.panel(f"{t.seat_name(p, viewpoint)} · {view.points[p]} points", body, seat=p,
                             active=not view.over and view.to_move == p))
    status = (f"game over: {'seat ' + str(view.winner) + ' wins' if view.winner is not None else 'no winner'}"
              if view.over else f"round {view.round}, seat {view.to_move} to play")
    return t.frame(game, viewpoint, reveal_all, status, middle + "".join(seats))


SPEC = GameSpec(name=NAME, aliases=HighCard.aliases, rules=HighCard, bot=lambda: greedy, questions=panel,
                budgets=RolloutBudgets(win=24, panel=24, batch=8), kernel=None,
                uninformed=uninformed)


# ---------------------------------------------------------------------------------------------- chance checks
def unseen_faces(game: Game[Any], viewpoint: int | None) -> Counter[Card]:
    """The faces ``viewpoint`` has not seen, counted from its view alone: the pack less the round's cards,
    the cards out and its own hand (no chance law read)."""
    view = game.observe(viewpoint)
    seen = [c for c in view.trick if c is not None] + list(view.out) + list(view.hand or ())
    return Counter(face_of(c) for c in full_deck(1)) - Counter(seen)


def count(game: Game[Any], viewpoint: int | None) -> dict[str, Fraction | None]:
    """The top stock card beats the round, counted over the unseen faces (None where it does not apply)."""
    view = game.observe(viewpoint)
    played = [power(c) for c in view.trick if c is not None]
    if view.over or not played or not view.stock_size:
        return {"stock_top_beats": None}
    pool = unseen_faces(game, viewpoint)
    return {"stock_top_beats": Fraction(sum(k for c, k in pool.items() if power(c) > max(played)),
                                        sum(pool.values()))}


def exact(game: Game[Any], viewpoint: int | None) -> dict[str, Fraction | None]:
    try:
        return {"stock_top_beats": stock_top_beats(game, viewpoint)}
    except InvalidInputError:
        return {"stock_top_beats": None}


def twin(game: Game[Any], viewpoint: int | None, rng: np.random.Generator) -> Game[Any]:
    """A copy with the cards ``viewpoint`` cannot see (other hands, the stock) shuffled among their places.
    Written apart from the chance law: the places are read from the state, not from ``chance_law``."""
    t = game.copy()
    s = t.state
    seats = [p for p in range(game.players) if p != viewpoint]
    hidden = [c for p in seats for c in s.hands[p]] + list(s.stock)
    moved = [hidden[i] for i in rng.permutation(len(hidden))]
    k = 0
    for p in seats:
        s.hands[p] = sorted(moved[k:k + len(s.hands[p])], key=sort_key)
        k += len(s.hands[p])
    s.stock = moved[k:]
    return t


def hidden(game: Game[Any], viewpoint: int | None) -> set[Card]:
    """The cards ``viewpoint`` does not know: the other hands and the stock (read from the rules, not the law)."""
    s = game.state
    return {c for p, hand in enumerate(s.hands) if p != viewpoint for c in hand} | set(s.stock)


def outcomes(game: Game[Any], viewpoint: int | None) -> list[tuple[str, Any, bool, Callable[[], Fraction | None]]]:
    """The top stock card's real strength against the round, with the exact answer to ask."""
    s = game.state
    best = best_on_table(game)
    if game.is_over or best is None or not s.stock:
        return []
    return [("stock_top_beats", (s.round, len(s.stock)), power(s.stock[-1]) > best,
             lambda: exact(game, viewpoint)["stock_top_beats"])]


def register_toy() -> None:
    """Register the game and its chance checks (idempotent: the registry and the checks are keyed by name)."""
    from tests.sim import chance_checks as cc

    register(SPEC)
    cc.register_checks(cc.GameChecks(
        name=NAME, count=lambda g, v: cc.Counts(count(g, v)), exact=exact, twin=twin, outcomes=outcomes,
        hidden=hidden,
        positions=[(2, {}, range(6), 1), (3, {"rounds": 6}, range(4), 1)],
        calibration=(2, {"rounds": 8}, range(200))))


__all__ = ["HAND", "NAME", "SPEC", "HighCard", "HighMove", "HighState", "HighView", "register_toy"]
