"""Checks of the games' chance laws that could catch a modelling error (used by the tests and by
``benchmarks/bench_chance_law.py``, which runs them bigger).

1. **Independent counts.** Each exact function against a count made here from the viewer's public view
   and the public events only (the unseen multiset counted by faces). The rule predicates (does a card
   fit) are the engine's; which cards are unseen, and how many, is counted here, not read from the
   chance law. For Shithead the count reads every hand through its play with a reference filter written
   here (:class:`RefHand`, fed by a replay of the game's record, :class:`ShitheadTrack`) and enumerates
   the hidden hands' joint exactly (:func:`shithead_reference`); it never reads the engine's beliefs or
   the package's law.
2. **Information-set twins.** A copy of a position changed only in what the viewer cannot see (hidden
   cards moved among places that the public record cannot tell apart, and the two packs' cards of some
   faces swapped everywhere): the view, the public events and the table's HTML must be identical
   (non-interference), and so must every exact answer, the resampled faces and the estimates for the
   same seed.
3. **Calibration against real deals.** Over bot-played games, each exact prediction is compared with
   what the hidden card really was (the real state), binned, with a z-test per bin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import comb, gcd, prod, sqrt
from typing import Any, NamedTuple

import numpy as np

import cardlab
from cardlab.cards import Card, Rank, face_of, faces, full_deck
from cardlab.engine.state import State
from cardlab.games.spite_malice.rules import hand_card, spite_move
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.sim.hands_law import HandsLaw
from cardlab.viz.table import table_html

POLICY_STREAM = 99  # the bots' generator: [seed, POLICY_STREAM], never the game's own seed


# ---------------------------------------------------------------------------------------------- the games' checks
Answers = dict[str, Fraction | None]
Outcome = tuple[str, Any, bool, Callable[[], Fraction | None]]
"""A question with a real answer in a position: (key, subject, what really was, the exact function to ask)."""


class Counts(NamedTuple):
    """A game's independent counts in one position for one viewpoint (None: not applicable or not counted)."""

    answers: Answers
    informative: bool = False
    """Some answer needed what play told about a hidden hand (Shithead's reference filter)."""
    plain_differs: bool = False
    """Some answer differs from the plain count that treats every unseen card alike."""


@dataclass(frozen=True)
class GameChecks:
    """What the generic chance checks need from one game, written in the tests apart from the package's law.

    ``count`` counts each exact answer from the viewer's public view and events alone; ``exact`` asks the
    package's exact functions (the same keys); ``twin`` makes a copy the viewer cannot tell apart (hidden
    cards moved among places the public record does not tell apart); ``outcomes`` lists the questions that
    have a real answer in a position. ``positions`` are the bot games sampled for the counts and the twins:
    (players, options, seeds, every k-th position); ``calibration`` the uninformed players' games for the
    calibration: (players, options, seeds). ``min_informative`` asks the counts for at least that many
    comparisons with an informative hand and that many that differ from the plain count. ``power`` (a note
    taken on each calibration outcome and a verdict over the notes) lets a game add what its calibration must
    also show."""

    name: str
    count: Callable[[cardlab.Game[Any], int | None], Counts]
    exact: Callable[[cardlab.Game[Any], int | None], Answers]
    twin: Callable[[cardlab.Game[Any], int | None, np.random.Generator], cardlab.Game[Any]]
    outcomes: Callable[[cardlab.Game[Any], int | None], list[Outcome]]
    positions: list[tuple[int, dict[str, Any], range, int]]
    calibration: tuple[int, dict[str, Any], range]
    min_informative: tuple[int, int] = (0, 0)
    power: tuple[Callable[[cardlab.Game[Any], str, Fraction, bool], Any], Callable[[list[Any]], None]] | None = None


_CHECKS: dict[str, GameChecks] = {}


def register_checks(checks: GameChecks) -> GameChecks:
    """Make ``checks`` the chance checks of the game they name (a game's test module calls this)."""
    _CHECKS[checks.name] = checks
    return checks


def checks_for(name: str) -> GameChecks:
    """The chance checks of a registered game. A game registered without them fails here, loudly: a
    generic test never skips a game silently."""
    if name not in _CHECKS:
        raise AssertionError(f"the game {name!r} is registered, but no chance checks are: register a "
                             "tests.sim.chance_checks.GameChecks for it (see tests/toy_game.py)")
    return _CHECKS[name]


def games() -> list[str]:
    """Every registered game (each must have its checks: :func:`checks_for`)."""
    return cardlab.game_names()


# ---------------------------------------------------------------------------------------------- positions
def bot_games(name: str, players: int, seed: int, policy: str = "greedy", **options: Any
              ) -> Iterator[cardlab.Game[Any]]:
    """Every position of one game between bots of ``policy`` ("greedy", "uninformed" or "random"), the
    game itself advanced in place (copy what you keep).

    The chance laws assume that choices carry no information about hidden cards. The ``uninformed``
    players make that true as far as the rules allow, so calibration against them tests the law itself;
    against greedy play it measures how far the assumption is from a real strategy. (Uniformly random
    legal moves are not uninformed: how many moves are legal depends on the hand.) The bots draw from a
    generator of their own: one seeded like the game's would repeat the deal's random numbers in the
    players' choices and tie those choices to the hidden cards."""
    g = cardlab.new_game(name, players=players, seed=seed, **options)
    bot = make_policy(policy, name, np.random.default_rng([seed, POLICY_STREAM]))
    for _ in range(3000):
        yield g
        if g.is_over:
            return
        g.play(choose(bot, g))


def sample_positions(name: str, players: int, seeds: range, every: int, **options: Any) -> list[cardlab.Game[Any]]:
    out = []
    for seed in seeds:
        for i, g in enumerate(bot_games(name, players, seed, **options)):
            if i % every == every - 1 and not g.is_over:
                out.append(g.copy())
    return out


def viewpoints(g: cardlab.Game[Any]) -> tuple[int | None, ...]:
    return (None, *range(g.players))


# ---------------------------------------------------------------------------------------------- 1. counts
def _all_faces(packs: int) -> Counter[Card]:
    return Counter(faces(full_deck(packs)))


def garbage_known_stock(g: cardlab.Game[Any]) -> Counter[Card] | None:
    """The reshuffled stock's faces, tracked from the public views alone by replaying the game: at a
    reshuffle event the stock is the discard pile just before it minus its top; each stock draw then
    removes the face drawn. None before any reshuffle."""
    record = g.to_json()
    replay = cardlab.load_game(record.replace(record[record.index('"moves"'):], '"moves": []}'))
    known: Counter[Card] | None = None
    before = replay.observe(None)
    for move in g.moves:
        for snap in replay.stepwise(move.text):
            event = snap.events[-1] if snap.events else None
            view = snap.observe(None)
            if event is not None and event.kind == "reshuffle":
                known = Counter(before.discard[:-1])
            elif event is not None and event.kind == "draw" and event.data.get("source") == "stock" and known:
                known[face_of(event.data["card"])] -= 1
            before = view
        replay.play(move.text)
    return +known if known is not None else None


def garbage_count(g: cardlab.Game[Any], viewpoint: int | None) -> Fraction | None:
    """The next stock card can be used by the seat that draws it, counted from the public view."""
    v = g.observe(viewpoint)
    s = g.state
    if v.over:
        return None
    if v.phase == "draw":
        seat = v.to_move
    elif s.last_turns:
        if len(s.last_turns) < 2:
            return None
        seat = s.last_turns[1]
    else:
        seat = (v.to_move + 1) % v.players
    if v.stock_size == 0:
        pool = Counter(v.discard)
    elif v.stock_known:
        known = garbage_known_stock(g)
        assert known is not None and sum(known.values()) == v.stock_size
        pool = known
    else:
        seen = [c for lay in v.layouts for c in lay if c is not None] + list(v.discard)
        seen += [v.held] if v.held is not None else []
        pool = _all_faces(g.packs) - Counter(seen)
    if not pool:
        return None
    usable = sum(k for c, k in pool.items() if g.can_use(seat, c))
    return Fraction(usable, sum(pool.values()))


def spite_tie_faces(g: cardlab.Game[Any]) -> list[Card]:
    """The tied payoff tops of this round, read from the public opening announcement."""
    out = []
    for part in g.state.opening.split(";"):
        if " tie" in part and "payoff tops " in part:
            words = part.split("payoff tops ", 1)[1].split(" tie")[0].split(" and ")
            out += [Card.parse(w) for w in words]
    return out


def spite_count(g: cardlab.Game[Any], viewpoint: int | None) -> Fraction | None:
    """Next stock card fits, counted from the public view and events, where that count is unambiguous:
    the stock's top layer is the deal's never-seen rest, and no tied face is in view (else which copy
    is in view would matter). Never-seen = all faces - visible now - completed piles - tied tops."""
    v = g.observe(viewpoint)
    if v.over or v.stock_size == 0 or v.stock_layers[0][:2] != (0, 0) or g.options["completed_to"] != "bottom":
        return None
    visible = [c for c in v.payoff_tops if c is not None] + list(v.hand or ())
    visible += [c for seat in v.sides for pile in seat for c in pile] + [c for pile in v.centre for c in pile]
    ties = [face_of(c) for c in spite_tie_faces(g)]
    seat_faces = list(zip(ties[0::2], ties[1::2], strict=True))
    if set(ties) & set(visible) or len(set(ties[0::2])) < len(seat_faces) or len(set(ties[1::2])) < len(seat_faces):
        return None  # a tied face in view, or one pile showing a face twice: which copy is which is unknown
    completed: list[Card] = []
    building: dict[int, list[Card]] = {}
    round_start = max((i for i, e in enumerate(g.events) if e.kind == "deal"), default=-1)
    for e in g.events[round_start + 1:]:
        if e.kind == "centre":
            building.setdefault(e.data["pile"], []).append(face_of(e.data["card"]))
        elif e.kind == "complete":
            completed += building.pop(e.data["pile"], [])
    never = _all_faces(2) - Counter(visible) - Counter(completed) - Counter(ties)
    fits = sum(k for c, k in never.items() if g.can_play_on_centre(c))
    return Fraction(fits, sum(never.values()))


def shithead_unseen(g: cardlab.Game[Any], viewpoint: int | None) -> Counter[Card]:
    v = g.observe(viewpoint)
    seen = list(v.pile) + list(v.out) + [c for u in v.face_up for c in u]
    seen += [c for p, k in enumerate(v.known) if p != viewpoint for c in k] + list(v.hand or ())
    return _all_faces(g.packs) - Counter(seen)


RANKS = tuple(sorted(Rank, key=int))
"""The reference filter's classes: one per rank (a hand's state counts its unseen cards of each rank)."""
NO_CARDS: tuple[int, ...] = (0,) * len(RANKS)
JOINT_LIMIT = 20_000
"""The reference joint is enumerated only where the product of the hidden hands' numbers of states is at
most this."""


def _rank_index(card: Card) -> int:
    return int(card.rank) - 1


class RefHand:
    """A reference filter for one hand, written here from the public events alone, under the chance law's
    stated model: from the hand, a player plays a uniformly random card among those that fit, and picks
    up only when none fits.

    ``w`` maps a state (how many of the hand's unseen cards are of each rank) to a whole weight. The
    unseen cards are labelled slots, each drawn free (every rank, weight 1 per slot), so that with the
    count of physical cards (:func:`shithead_reference`) every deal is equally likely a priori. A play
    of rank ``r`` from the hand has chance (cards of ``r``) / (cards that fit) in a state; the ``hidden``
    cards it shows then leave rank ``r`` (which of the unseen cards of ``r`` they were: the same factor
    in every state). A pick-up keeps the states with no unseen card that fits. Which ranks fit is asked
    of the engine's rule (``rank_fits``), not worked out here.

    With ``first="lowest3"`` the hand's states also remember, after the rank counts, the hand's own lowest
    rank when play started (:meth:`tag_low`); :func:`shithead_reference` then keeps only the joint states
    whose lows make the real starter start. (The package tags each hand with the *starter's* lowest rank
    instead and sums a mixture: two ways to write the same evidence.)"""

    def __init__(self, unseen: int = 0) -> None:
        self.w: dict[tuple[int, ...], int] = {NO_CARDS: 1}
        self.draw(unseen)

    def size(self) -> int:
        return sum(next(iter(self.w))[:len(RANKS)])

    def tag_low(self) -> None:
        """Play starts: each state gains one more entry, the hand's lowest rank then (:func:`start_low`)."""
        self.w = {s + (start_low(s),): x for s, x in self.w.items()}

    def _normalise(self) -> None:
        g = 0
        for x in self.w.values():
            g = gcd(g, x)
        self.w = {s: x // g for s, x in self.w.items() if x}

    def draw(self, k: int) -> None:
        for _ in range(k):
            out: dict[tuple[int, ...], int] = {}
            for s, x in self.w.items():
                for r in range(len(RANKS)):
                    t = s[:r] + (s[r] + 1,) + s[r + 1:]
                    out[t] = out.get(t, 0) + x
            self.w = out
        self._normalise()

    def play(self, fitting: frozenset[int], known_fit: int, known_r: int, r: int, hidden: int) -> None:
        raw: dict[tuple[int, ...], Fraction] = {}
        for s, x in self.w.items():
            if s[r] < hidden or known_r + s[r] == 0:
                continue
            chance = Fraction(known_r + s[r], known_fit + sum(s[c] for c in fitting))
            t = s[:r] + (s[r] - hidden,) + s[r + 1:]
            raw[t] = raw.get(t, Fraction(0)) + x * chance
        assert raw, "the reference filter allows no state for a play the game made"
        den = 1
        for y in raw.values():
            den = den * y.denominator // gcd(den, y.denominator)
        self.w = {s: int(y * den) for s, y in raw.items()}
        self._normalise()

    def pick_up(self, fitting: frozenset[int]) -> None:
        self.w = {s: x for s, x in self.w.items() if not any(s[c] for c in fitting)}
        assert self.w, "the reference filter allows no state for a pick-up the game made"
        self._normalise()


LADDER = (Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN,
          Rank.KING, Rank.ACE)
"""Who starts with ``first="lowest3"``, from the rules text: the holder of a 3 if anyone holds one, else a 4,
and so on up to the Ace (2s and 10s do not count); several: the lowest seat; nobody: seat 0."""


def start_low(counts: tuple[int, ...]) -> int:
    """A hand's lowest rank for who starts: its place on :data:`LADDER` (``len(LADDER)`` for none), from
    its count of each rank (:data:`RANKS` order)."""
    return next((i for i, r in enumerate(LADDER) if counts[RANKS.index(r)]), len(LADDER))


def who_starts(lows: list[int]) -> int:
    return min(range(len(lows)), key=lambda p: (lows[p], p))


_FREE: dict[int, dict[tuple[int, ...], int]] = {}


def _free_weights(unseen: int) -> dict[tuple[int, ...], int]:
    if unseen not in _FREE:
        _FREE[unseen] = RefHand(unseen).w
    return _FREE[unseen]


class ShitheadTrack:
    """A game replayed from its record's initial state, move by move, feeding one :class:`RefHand` per
    seat from the public events and the table's view before and after each event (sizes of hands, known
    cards, the pile's fitting ranks). The filters are the same for every viewer: what a viewer alone
    knows (its own hand) enters through the count of physical cards. Nothing here reads the engine's
    beliefs or its chance law."""

    def __init__(self, g: cardlab.Game[Any]) -> None:
        record = g.to_json()
        self.start = record.replace(record[record.index('"moves"'):], '"moves": []}')
        self.replay = cardlab.load_game(self.start)
        self.moves: list[str] = []
        self.hands: list[RefHand] | None = None
        self.starter: int | None = None  # with first="lowest3": who started
        self.lows: list[int] = []  # each seat's own lowest rank then (a viewer reads only its own)
        self._begin(self.replay.observe(None))

    def _begin(self, view: Any) -> None:
        if self.hands is None and view.phase == "play":
            self.hands = [RefHand(view.hand_sizes[p] - len(view.known[p])) for p in range(view.players)]
            if self.replay.options["first"] == "lowest3":
                assert self.moves or len(self.replay.moves), "the reference needs to see play start"
                self.starter = view.to_move
                for hand in self.hands:
                    hand.tag_low()
                for cards in self.replay.state.hands:
                    counts = [0] * len(RANKS)
                    for c in cards:
                        counts[_rank_index(c)] += 1
                    self.lows.append(start_low(tuple(counts)))

    def follow(self, g: cardlab.Game[Any]) -> None:
        """Play on to ``g``'s position (the track must be a prefix of ``g``'s moves)."""
        texts = [m.text for m in g.moves]
        assert texts[:len(self.moves)] == self.moves
        for text in texts[len(self.moves):]:
            self._step(text)
            self.moves.append(text)

    def _step(self, text: str) -> None:
        game = self.replay
        before = game.observe(None)
        fitting = frozenset(i for i, r in enumerate(RANKS) if game.rank_fits(r))
        done = len(game.events)
        for snap in game.stepwise(text):
            new = snap.events[done:]
            done = len(snap.events)
            after = snap.observe(None)
            if self.hands is not None:
                informative = [e for e in new if e.kind in ("play", "pickup", "draw")]
                assert len(informative) <= 1, "two events of a hand in one step: the reference cannot order them"
                for e in informative:
                    self._event(e, before, after, fitting)
                for p, hand in enumerate(self.hands):
                    assert hand.size() == after.hand_sizes[p] - len(after.known[p]), "reference filter out of step"
            self._begin(after)
            before = after
            fitting = frozenset(i for i, r in enumerate(RANKS) if snap.rank_fits(r))
        game.play(text)

    def _event(self, e: Any, before: Any, after: Any, fitting: frozenset[int]) -> None:
        assert self.hands is not None
        seat = e.seat
        hand = self.hands[seat]
        if e.kind == "play" and e.data.get("source") == "hand":
            cards = list(e.data["cards"])
            r = _rank_index(cards[0])
            known = before.known[seat]
            shown_known = len(known) - len(after.known[seat])  # known cards of the rank go first
            hidden = len(cards) - shown_known
            if hand.size():
                hand.play(fitting, sum(1 for c in known if _rank_index(c) in fitting),
                          sum(1 for c in known if _rank_index(c) == r), r, hidden)
        elif e.kind == "pickup" and hand.size():
            hand.pick_up(fitting)
        elif e.kind == "draw":
            hand.draw(int(e.data["count"]))


_TRACK: list[ShitheadTrack] = []


def shithead_track(g: cardlab.Game[Any]) -> ShitheadTrack:
    """The reference filters at ``g``'s position, from a replay of its record (continued from the last
    track when ``g`` is the same game further on)."""
    if _TRACK:
        track = _TRACK[0]
        record = g.to_json()
        texts = [m.text for m in g.moves]
        if record.replace(record[record.index('"moves"'):], '"moves": []}') == track.start and \
                texts[:len(track.moves)] == track.moves:
            track.follow(g)
            return track
    track = ShitheadTrack(g)
    track.follow(g)
    _TRACK[:] = [track]
    return track


def shithead_mover_informed(g: cardlab.Game[Any]) -> bool:
    """Whether the player to move holds unseen cards and has been read through its play: its reference
    weights (:class:`RefHand`) are not those of free cards."""
    v = g.observe(None)
    if v.over or v.phase != "play":
        return False
    hand = shithead_track(g).hands
    assert hand is not None
    weights = hand[v.to_move]
    return weights.size() > 0 and weights.w != _free_weights(weights.size())


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out if k <= n else 0


def shithead_reference(g: cardlab.Game[Any], viewpoint: int | None
                       ) -> tuple[dict[str, Fraction | None], bool, bool]:
    """Blind fits, draw top fits, and the mover's pick-up, from the reference filters and the public view:
    the exact joint over the hidden hands' states (weights times the ways to deal their cards from the
    viewer's unseen cards, a falling factorial per rank), enumerated where the product of the numbers of
    states is at most :data:`JOINT_LIMIT` and at most two hands hold unseen cards (the package's exact
    scope). Returns the answers (None: not applicable or not computed), whether a hand in the joint is
    informative (its weights are not those of free cards), and whether the answers differ from the
    plain count that treats every unseen card alike (the check then tests what the filter is for)."""
    v = g.observe(viewpoint)
    out: dict[str, Fraction | None] = {"blind": None, "draw": None, "pickup": None}
    if v.over:
        return out, False, False
    m = v.to_move
    fits = [bool(g.rank_fits(r)) for r in RANKS]  # the engine's rule
    if v.phase == "play":
        if v.hand_sizes[m]:
            if viewpoint == m:
                out["pickup"] = Fraction(0 if any(fits[_rank_index(c)] for c in v.hand) else 1)
            elif any(fits[_rank_index(c)] for c in v.known[m]):
                out["pickup"] = Fraction(0)
            elif v.hand_sizes[m] == len(v.known[m]):
                out["pickup"] = Fraction(1)
        elif v.face_up[m]:
            out["pickup"] = Fraction(0 if any(fits[_rank_index(c)] for c in v.face_up[m]) else 1)
    unseen = shithead_unseen(g, viewpoint)
    n = [0] * len(RANKS)
    for c, k in unseen.items():
        n[_rank_index(c)] += k
    free = sum(len(d) for d in v.face_down) + v.draw_size
    plain = _plain_shithead(g, viewpoint, unseen)
    if v.phase == "setup":  # nobody has played: every unseen card is alike, the plain count is the answer
        if sum(1 for p in range(v.players) if p != viewpoint and v.hand_sizes[p]) <= 2:
            out["blind"], out["draw"] = plain["blind"], plain["draw"]
        return out, False, False
    track = shithead_track(g)
    assert track.hands is not None
    seats = [p for p in range(v.players) if p != viewpoint and track.hands[p].size()]
    k = len(RANKS)
    # with lowest3, a hand with no unseen card left still weighs its start lows: in the joint, not counted
    others = seats + ([p for p in range(v.players) if p != viewpoint and p not in seats]
                      if track.starter is not None else [])
    states = [list(track.hands[p].w.items()) for p in others]
    assert sum(n) == free + sum(sum(s[0][0][:k]) for s in states), "unseen cards and hidden places disagree"
    informative = any(dict(s) != _free_weights(sum(s[0][0][:k])) for s in states[:len(seats)])
    if len(seats) > 2 or prod(len(s) for s in states) > JOINT_LIMIT:
        return out, False, False
    total = 0
    mean = [0] * len(RANKS)
    none_fit = 0
    for combo in product(*states):
        if track.starter is not None:
            lows = [combo[others.index(p)][0][k] if p in others else track.lows[p] for p in range(v.players)]
            if who_starts(lows) != track.starter:
                continue
        a = [sum(s[r] for s, _ in combo) for r in range(len(RANKS))]
        w = prod(x for _, x in combo) * prod(_falling(n[r], a[r]) for r in range(len(RANKS)) if a[r])
        if not w:
            continue
        total += w
        for r in range(len(RANKS)):
            mean[r] += w * a[r]
        if m in seats and not any(combo[seats.index(m)][0][r] for r in range(len(RANKS)) if fits[r]):
            none_fit += w
    free_fit = sum((n[r] - Fraction(mean[r], total) for r in range(len(RANKS)) if fits[r]), Fraction(0)) / free \
        if free else None
    if any(v.face_down):
        out["blind"] = free_fit
    if v.draw_size:
        out["draw"] = free_fit
    if out["pickup"] is None:
        if v.hand_sizes[m]:
            assert m in seats
            out["pickup"] = Fraction(none_fit, total)
        elif any(v.face_down[m]):
            assert free_fit is not None
            out["pickup"] = 1 - free_fit
    differs = any(value is not None and plain[key] is not None and value != plain[key] for key, value in out.items())
    return out, informative, differs


def _plain_shithead(g: cardlab.Game[Any], viewpoint: int | None, unseen: Counter[Card]) -> dict[str, Fraction | None]:
    """The count that treats every unseen card alike (hands enumerated for the mover's pick-up): what the
    answers would be if play told nothing."""
    v = g.observe(viewpoint)
    total = sum(unseen.values())
    fit = sum(k for c, k in unseen.items() if g.fits(c))
    out: dict[str, Fraction | None] = {"blind": Fraction(fit, total) if total else None, "pickup": None}
    out["draw"] = out["blind"]
    if v.phase == "play" and v.hand_sizes[v.to_move] and viewpoint != v.to_move:
        u = v.hand_sizes[v.to_move] - len(v.known[v.to_move])
        out["pickup"] = Fraction(comb(total - fit, u), comb(total, u)) if u else None
    return out


def plain_pickup(g: cardlab.Game[Any], viewpoint: int | None) -> Fraction | None:
    """The mover's pick-up from the hand by the plain count that treats every unseen card alike (None
    when the mover does not play from a hand with unseen cards, or is the viewer)."""
    return _plain_shithead(g, viewpoint, shithead_unseen(g, viewpoint))["pickup"]


def shithead_counts(g: cardlab.Game[Any], viewpoint: int | None) -> dict[str, Fraction | None]:
    """The reference answers of :func:`shithead_reference` alone."""
    return shithead_reference(g, viewpoint)[0]


def exact_answers(g: cardlab.Game[Any], viewpoint: int | None) -> dict[str, Fraction | None]:
    """Every exact function of the game for ``viewpoint`` (None where not applicable)."""
    return checks_for(g.name).exact(g, viewpoint)


def garbage_exact(g: cardlab.Game[Any], viewpoint: int | None) -> Answers:
    return {"next": _attempt(lambda: prob.garbage_next_card_placeable(g, viewpoint))}


def spite_exact(g: cardlab.Game[Any], viewpoint: int | None) -> Answers:
    return {"next": _attempt(lambda: prob.spite_next_stock_playable(g, viewpoint)),
            "payoff": _attempt(lambda: prob.spite_payoff_playable_now(g, viewpoint))}


def shithead_exact(g: cardlab.Game[Any], viewpoint: int | None) -> Answers:
    return {"blind": _attempt(lambda: prob.shithead_blind_fits(g, viewpoint)),
            "draw": _attempt(lambda: prob.shithead_draw_top_fits(g, viewpoint)),
            "pickup": _attempt(lambda: prob.shithead_mover_picks_up(g, viewpoint))}


class Counted(NamedTuple):
    """What :func:`count_mismatches` compared in one position and viewpoint."""

    compared: int
    """Answers compared with the independent count."""
    mismatched: int
    """Of them, answers that differ."""
    informative: bool
    """(Shithead) some compared answer needed the joint while a hidden hand's reference weights were not
    those of free cards: the hand had been read through its play."""
    plain_differs: bool
    """(Shithead) some compared answer differs from the plain count that treats every unseen card alike
    (a law that ignored play would fail here)."""


def count_mismatches(g: cardlab.Game[Any], viewpoint: int | None) -> Counted:
    """The exact functions against the independent counts, in one position for one viewpoint."""
    exact = exact_answers(g, viewpoint)
    counted, informative, differs = checks_for(g.name).count(g, viewpoint)
    compared = mismatched = 0
    for key, value in counted.items():
        if value is None:
            continue
        compared += 1
        mismatched += exact[key] != value
    return Counted(compared, mismatched, informative, differs)


# ---------------------------------------------------------------------------------------------- 2. twins
def _rename_packs(g: cardlab.Game[Any], rng: np.random.Generator) -> None:
    """Swap the first two packs' cards of some faces everywhere in the state (S&M labels follow them)."""
    if g.packs < 2:
        return
    swap = {c: Card(c.rank, c.suit, 1) for c in full_deck(1) if rng.random() < 0.5}
    mapping = {**swap, **{b: a for a, b in swap.items()}}

    def rename(value: Any) -> Any:
        if isinstance(value, Card):
            return mapping.get(value, value)
        if isinstance(value, list):
            return [rename(x) for x in value]
        return value

    s = g._state
    for name in list(vars(s)):
        setattr(s, name, rename(getattr(s, name)))
    labels = getattr(s, "labels", None)
    if labels is not None:
        for a, b in swap.items():
            labels[a.id], labels[b.id] = labels[b.id], labels[a.id]


def _shuffle_within(cards: list[Card], rng: np.random.Generator) -> list[Card]:
    return [cards[i] for i in rng.permutation(len(cards))]


def _shithead_moved(g: cardlab.Game[Any], viewpoint: int | None, places: list[tuple[str, int, Card]],
                    rng: np.random.Generator) -> list[Card]:
    """Shithead's hidden cards moved into another world the viewer cannot rule out.

    The chance law's model makes two kinds of evidence certain: a hand that picked up held no card that
    fitted then, and a hand held the cards it played. Plays are weighed, never impossible, and the
    played cards are public (none of them is on a hidden place), so no hidden card is tied to a place
    by a play. None of the hidden cards was ever seen by the viewer, and a never-seen card stays where it
    was dealt or drawn, so trading two of them in the deal changes no public event and no legal move,
    except that a pick-up is legal only while nothing in the hand fits. Hence: the cards of face-down
    places, the draw pile and the hands that never picked up move freely among those places; a card of
    a hand that did pick up only trades places with a hidden card of the same rank, which keeps every
    hand's ranks, and so every pick-up, as they were.
    With the option ``first="lowest3"`` the hands at the start of play chose the first player, so once
    play has started every hand is treated like one that picked up: its cards trade only with cards of
    the same rank (a hand's ranks, and so who would have started, stay as they were).
    """
    picked = {e.seat for e in g.events if e.kind == "pickup"}
    if g.options["first"] == "lowest3" and any(e.kind == "start" for e in g.events):
        picked = set(range(g.players))
    cards = [c for _, _, c in places]
    free = [i for i, (zone, seat, _) in enumerate(places) if zone != "hand" or seat not in picked]
    for i, c in zip(free, _shuffle_within([cards[i] for i in free], rng), strict=True):
        cards[i] = c
    for i, (zone, seat, _) in enumerate(places):
        if zone == "hand" and seat in picked:
            same = [j for j, c in enumerate(cards) if c.rank == cards[i].rank]
            j = same[int(rng.integers(len(same)))]
            cards[i], cards[j] = cards[j], cards[i]
    return cards


def twin(g: cardlab.Game[Any], viewpoint: int | None, rng: np.random.Generator) -> cardlab.Game[Any]:
    """A copy that ``viewpoint`` cannot tell from ``g``: hidden cards moved among places the public record
    does not tell apart (the game's own :attr:`GameChecks.twin`), and some faces' two packs swapped."""
    t = checks_for(g.name).twin(g, viewpoint, rng)
    _rename_packs(t, rng)
    t._check_conservation("twin")
    return t


def garbage_twin(g: cardlab.Game[Any], viewpoint: int | None, rng: np.random.Generator) -> cardlab.Game[Any]:
    """Face-down spots and the stock: one pool before a reshuffle, two after it."""
    t = g.copy()
    s: Any = t._state
    spots = [(p, i) for p in range(g.players) for i in range(s.sizes[p]) if not s.up[p][i]]
    down = [s.spots[p][i] for p, i in spots]
    if s.stock_known:
        down, s.stock = _shuffle_within(down, rng), _shuffle_within(s.stock, rng)
    else:
        both = _shuffle_within(down + s.stock, rng)
        down, s.stock = both[:len(spots)], both[len(spots):]
    for (p, i), c in zip(spots, down, strict=True):
        s.spots[p][i] = c
    return t


def shithead_twin(g: cardlab.Game[Any], viewpoint: int | None, rng: np.random.Generator) -> cardlab.Game[Any]:
    """Face-down cards, the draw pile and the hidden hands, as :func:`_shithead_moved` allows."""
    t = g.copy()
    s: Any = t._state
    places = t._hidden_places(viewpoint)
    moved = _shithead_moved(g, viewpoint, places, rng)
    k = 0
    for p in range(g.players):
        for i, c in enumerate(s.face_down[p]):
            if c is not None:
                s.face_down[p][i] = moved[k]
                k += 1
    s.draw = moved[k:k + len(s.draw)]
    k += len(s.draw)
    for p in range(g.players):
        if p != viewpoint:
            size = sum(1 for zone, seat, _ in places if zone == "hand" and seat == p)
            s.hands[p] = sorted(list(s.known[p]) + moved[k:k + size], key=cardlab.games.shithead.sort_key)
            k += size
    return t


def spite_twin(g: cardlab.Game[Any], viewpoint: int | None, rng: np.random.Generator) -> cardlab.Game[Any]:
    """Cards of one public label moved among the places that accept it."""
    t = g.copy()
    s: Any = t._state
    places = t._hidden_places(viewpoint)
    # places that accept the same labels: each stock card's layer, payoff piles (labels 0 and their
    # own tie label), hand slots (their marks); swap cards of one label among places accepting it
    labels = s.labels
    classes: dict[int, list[int]] = {}
    for i, place in enumerate(places):
        classes.setdefault(labels[place[4].id], []).append(i)
    cards = [p[4] for p in places]
    for members in classes.values():
        # a label's cards move among the places holding that label's cards (any of them accepts it)
        moved = _shuffle_within([cards[i] for i in members], rng)
        for i, c in zip(members, moved, strict=True):
            cards[i] = c
    payoff: list[list[Card]] = [[], []]
    hands: list[list[Card]] = [[], []]
    stock: list[Card] = []
    for (zone, seat, *_), c in zip(places, cards, strict=True):
        (payoff[seat] if zone == "payoff" else hands[seat] if zone == "hand" else stock).append(c)
    for seat in (0, 1):
        s.payoff[seat] = payoff[seat] + s.payoff[seat][-1:]
        if seat != viewpoint:
            s.hands[seat] = sorted(hands[seat])
    s.stock = stock
    return t


def state_faces(st: State) -> dict[str, Any]:
    """A state with every card shown by its face (the pack forgotten)."""
    return {k: faces(v) if isinstance(v, list) else v for k, v in vars(st).items() if k != "labels"}


def twin_differences(g: cardlab.Game[Any], viewpoint: int | None, seed: int, estimates: bool,
                     html: bool = True) -> list[str]:
    """What differs between ``g`` and a twin for ``viewpoint``: views, exact answers, resampled faces, and
    (with ``estimates``) win estimates for the same seed. An empty list is a pass."""
    return pair_differences(g, twin(g, viewpoint, np.random.default_rng(seed)), viewpoint, seed, estimates, html)


def pair_differences(g: cardlab.Game[Any], t: cardlab.Game[Any], viewpoint: int | None, seed: int,
                     estimates: bool, html: bool = True) -> list[str]:
    """What differs, for ``viewpoint``, between two games it should not tell apart (see
    :func:`twin_differences`). An empty list is a pass."""
    bad = []
    if g.observe(viewpoint) != t.observe(viewpoint):
        bad.append("view")
    if [(e.kind, e.describe(viewpoint), dict(e.data)) for e in g.events] != \
            [(e.kind, e.describe(viewpoint), dict(e.data)) for e in t.events]:
        bad.append("events")
    if html and table_html(g, viewpoint) != table_html(t, viewpoint):
        bad.append("html")
    if exact_answers(g, viewpoint) != exact_answers(t, viewpoint):
        bad.append("exact")
    def law(game: cardlab.Game[Any]) -> Any:
        """The viewer's chance law with cards shown by face: for Shithead's :class:`HandsLaw`, the place
        names, the pool, its classes, the hidden hands, their beliefs and the tags' weights; otherwise each component's
        weight and groups."""
        chance = game.chance_law(viewpoint)
        if isinstance(chance, HandsLaw):
            return (chance.names, [face_of(c) for c in chance.cards], chance.classes, chance.n_classes,
                    chance.hands, chance.beliefs, chance.components)
        return [(w, [(grp.places, [face_of(c) for c in grp.cards]) for grp in comp.groups])
                for w, comp in chance.components]

    if law(g) != law(t):
        bad.append("law")
    a = g.resample(viewpoint, np.random.default_rng(seed))
    b = t.resample(viewpoint, np.random.default_rng(seed))
    if state_faces(a.state) != state_faces(b.state):
        bad.append("resample")
    if estimates:
        wa = prob.win_probability(g, viewpoint, rollouts=8, rng=np.random.default_rng(seed))
        wb = prob.win_probability(t, viewpoint, rollouts=8, rng=np.random.default_rng(seed))
        if wa != wb:
            bad.append("estimate")
    return bad


# ---------------------------------------------------------------------------------------------- 3. calibration
def real_outcomes(g: cardlab.Game[Any], viewpoint: int | None,
                  seen: set[tuple[Any, ...]] | None = None) -> list[tuple[str, Fraction, bool]]:
    """Exact predictions paired with what the hidden card really was, in this position.

    With ``seen`` (one set per game), each hidden card (or each turn, for the pick-up) is predicted only
    the first time it is asked about: predictions about one card at several moments are not independent,
    and the bins' z-tests count independent trials. (An exact function is asked only for a subject not
    seen yet: which predictions are kept does not depend on their values.) Predictions are made only
    where the exact functions answer (for Shithead, while at most two hands hold unseen cards); a subject
    counts as seen once it has been predicted.
    """
    out = []
    for key, subject, real, exact in _real_outcomes(g, viewpoint):
        if seen is not None and (key, viewpoint, subject) in seen:
            continue
        p = exact()
        if p is not None:
            out.append((key, p, real))
            if seen is not None:
                seen.add((key, viewpoint, subject))
    return out


def _attempt(f: Callable[[], Fraction]) -> Fraction | None:
    try:
        return f()
    except cardlab.CardlabError:
        return None


def _real_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[Outcome]:
    """The questions that have a real answer in this position (the game's :attr:`GameChecks.outcomes`)."""
    return [] if g.is_over else checks_for(g.name).outcomes(g, viewpoint)


def garbage_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[Outcome]:
    s: Any = g.state
    seat = prob.garbage_next_drawer(g)
    if not s.stock or seat is None:
        return []
    return [("next", (s.hand, s.shuffles, s.stock[-1]), bool(g.can_use(seat, s.stock[-1])),
             lambda: _attempt(lambda: prob.garbage_next_card_placeable(g, viewpoint)))]


def spite_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[Outcome]:
    s: Any = g.state
    if not s.stock:
        return []
    # the subject is the exposure (round, completions, stock size), not the card: a card that was
    # on top once can come back through a completed pile, and skipping it then would pick the
    # sample by the card's history (which depends on its face)
    return [("next", (s.round, s.completions, len(s.stock)), bool(g.can_play_on_centre(s.stock[-1])),
             lambda: _attempt(lambda: prob.spite_next_stock_playable(g, viewpoint)))]


def shithead_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[Outcome]:
    s: Any = g.state
    out: list[Outcome] = []
    if s.draw:
        out.append(("draw", s.draw[-1], bool(g.fits(s.draw[-1])),
                    lambda: _attempt(lambda: prob.shithead_draw_top_fits(g, viewpoint))))
    down = [c for d in s.face_down for c in d if c is not None]
    if down:
        out.append(("blind", down[0], bool(g.fits(down[0])),
                    lambda: _attempt(lambda: prob.shithead_blind_fits(g, viewpoint))))
    if s.phase != "setup":
        m = g.current_player
        src = g.source(m)
        if src == "hand":
            real = not any(g.fits(c) for c in s.hands[m])
        elif src == "up":
            real = not any(g.fits(c) for c in s.face_up[m])
        else:  # the bots turn their lowest face-down position first
            real = not g.fits(next(c for c in s.face_down[m] if c is not None))
        out.append(("pickup", g.turns, real, lambda: _attempt(lambda: prob.shithead_mover_picks_up(g, viewpoint))))
    return out


BIN_EDGES = (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0001)


def binned_z(pairs: list[tuple[float, bool]],
             edges: tuple[float, ...] = BIN_EDGES) -> list[tuple[str, int, float, float, float]]:
    """Per bin of predicted chance: (bin, n, mean prediction, observed share, z). z compares the number of
    hits with the sum of the predictions, over the square root of the sum of p(1-p).

    The normal approximation needs some expected hits and misses in a bin, so a bin with fewer than 5
    expected of either is merged with its neighbour toward the middle (a bin of certain predictions,
    all 0 or all 1, is checked exactly instead: every one of them must come true).
    """
    groups: list[list[tuple[float, bool]]] = []
    for lo, hi in zip(edges, edges[1:], strict=False):
        inside = [(p, y) for p, y in pairs if lo <= p < hi]
        certain = [(p, y) for p, y in inside if p in (0.0, 1.0)]
        for p, y in certain:
            assert y == (p == 1.0), f"a certain prediction ({p}) failed"
        inside = [(p, y) for p, y in inside if p not in (0.0, 1.0)]
        if inside:
            groups.append(inside)

    def small(group: list[tuple[float, bool]]) -> bool:
        return sum(p for p, _ in group) < 5 or sum(1 - p for p, _ in group) < 5

    merged = True
    while merged and len(groups) > 1:
        merged = False
        for i, group in enumerate(groups):
            if small(group):
                j = i + 1 if i < len(groups) / 2 else i - 1
                j = min(max(j, 0), len(groups) - 1)
                if j == i:
                    continue
                groups[min(i, j)] = groups[min(i, j)] + groups[max(i, j)]
                del groups[max(i, j)]
                merged = True
                break
    rows = []
    for inside in groups:
        lo = min(p for p, _ in inside)
        hi = max(p for p, _ in inside)
        expected = sum(p for p, _ in inside)
        var = sum(p * (1 - p) for p, _ in inside)
        hits = sum(y for _, y in inside)
        rows.append((f"[{lo:.3f}, {hi:.3f}]", len(inside), expected / len(inside), hits / len(inside),
                     (hits - expected) / sqrt(var)))
    return rows


# ---------------------------------------------------------------------------------------------- 4. copy twins
def spite_copy_twins(seeds: range, viewpoint: int | None = None, **options: Any
                     ) -> Iterator[tuple[cardlab.Game[Any], cardlab.Game[Any]]]:
    """Spite and Malice twins that differ exactly in which copy an ambiguous hand play put down.

    Over greedy bot games (``completed_to="bottom"`` marks are single labels), whenever a hand hidden
    from ``viewpoint`` plays (to a centre pile below the Queen, or to a side pile) a face of which it
    holds both packs' cards, with different labels, the game just after the play is paired with the
    game in which the engine had picked the other copy (the same game before the play, played on
    with the engine's copy choice forced to the other card): the engine does all the bookkeeping in
    both. No viewer can tell the two apart, so every answer for ``viewpoint`` must be the same in both.
    """
    for seed in seeds:
        g = cardlab.new_game("spite-and-malice", players=2, seed=seed, **options)
        policy = cardlab.policies.make_policy("greedy", g.name, np.random.default_rng(seed))
        for _ in range(3000):
            if g.is_over:
                break
            move = cardlab.policies.choose(policy, g)
            s: Any = g.state
            m = g.current_player
            before = None
            if move.kind in ("hand", "discard") and m != viewpoint:
                copies = [c for c in s.hands[m] if c.face == hand_card(move).face]
                if len(copies) == 2 and s.labels[copies[0].id] != s.labels[copies[1].id]:
                    played = spite_move(move)
                    pile = (played.centre if move.kind == "hand" else played.side) - 1
                    if move.kind == "discard" or len(s.centre[pile]) + 1 < 12:
                        before = (g.copy(), copies, move.kind, pile)
            g.play(move)
            if before is None or g.is_over:
                continue
            t, copies, kind, pile = before
            gs: Any = g.state
            played = (gs.sides[m][pile] if kind == "discard" else gs.centre[pile])[-1]
            other = copies[1] if played == copies[0] else copies[0]
            t._pick_copy = lambda _seat, _copies, o=other: o  # the engine's seam: this play puts down the other copy
            t.play(move)
            del t._pick_copy
            ts: Any = t.state
            assert (ts.sides[m][pile] if kind == "discard" else ts.centre[pile])[-1] == other
            t._check_conservation("copy twin")
            yield g, t


# ---------------------------------------------------------------------------------------------- the built-in games
def _shithead_note(g: cardlab.Game[Any], key: str, p: Fraction, real: bool) -> tuple[float, float, bool, bool] | None:
    """An uncertain pick-up from the hand: (law, plain count, whether the mover's hand was read, real)."""
    if key != "pickup" or not 0 < p < 1:
        return None
    q = plain_pickup(g, None)
    return None if q is None else (float(p), float(q), shithead_mover_informed(g), real)


def _shithead_verdict(notes: list[Any]) -> None:
    """The calibration has the power to tell: over the uncertain pick-ups from the hand, many made while the
    mover's hand had been read through its play, the law's total stays within |z| < 3 while the plain count
    that treats every unseen card alike misses by |z| >= 3."""
    plain = [n for n in notes if n is not None]
    informed = sum(n[2] for n in plain)
    assert len(plain) >= 150 and informed >= 100, (len(plain), informed)
    real = sum(n[3] for n in plain)
    law = (real - sum(n[0] for n in plain)) / sum(n[0] * (1 - n[0]) for n in plain) ** 0.5
    ignored = (real - sum(n[1] for n in plain)) / sum(n[1] * (1 - n[1]) for n in plain) ** 0.5
    assert abs(law) < 3, law  # over all of them at once, not only per bin
    assert abs(ignored) >= 3, ignored  # the check can tell: a law that ignores how hands played fails it


def _register_builtin() -> None:
    from cardlab.games.garbage.rules import Garbage
    from cardlab.games.shithead.rules import Shithead
    from cardlab.games.spite_malice.rules import SpiteMalice

    register_checks(GameChecks(
        Garbage.name, lambda g, v: Counts({"next": garbage_count(g, v)}), garbage_exact, garbage_twin,
        garbage_outcomes,
        positions=[(2, {}, range(10), 1), (3, {}, range(4), 1), (2, {"last_round": True}, range(3), 1)],
        calibration=(2, {}, range(100, 190))))
    register_checks(GameChecks(
        SpiteMalice.name, lambda g, v: Counts({"next": spite_count(g, v)}), spite_exact, spite_twin, spite_outcomes,
        positions=[(2, {"payoff_size": 5}, range(8), 2),
                   (2, {"completed_to": "shuffle", "payoff_size": 5}, range(3), 3)],
        calibration=(2, {"payoff_size": 8}, range(100, 130))))
    register_checks(GameChecks(
        Shithead.name, lambda g, v: Counts(*shithead_reference(g, v)), shithead_exact, shithead_twin,
        shithead_outcomes, positions=[(2, {}, range(3), 3), (3, {}, range(2), 4)], calibration=(2, {}, range(100, 108)),
        min_informative=(100, 50), power=(_shithead_note, _shithead_verdict)))


_register_builtin()
