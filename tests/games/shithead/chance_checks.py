"""Shithead's chance checks (registered with :mod:`tests.sim.chance_checks`, which runs them for every game).

The count reads every hand through its play with a reference filter written here (:class:`RefHand`, fed by a
replay of the game's record, :class:`ShitheadTrack`) and enumerates the hidden hands' joint exactly
(:func:`shithead_reference`); it never reads the engine's beliefs or the package's law. The twins move hidden
cards only where the public record cannot tell (:func:`_shithead_moved`), and the calibration must also show
its power: over the uncertain pick-ups, a plain count that ignores how hands played fails it.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb, gcd, prod
from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Card, Rank
from cardlab.sim import prob
from tests.sim import chance_checks as cc


def shithead_unseen(g: cardlab.Game[Any], viewpoint: int | None) -> Counter[Card]:
    v = g.observe(viewpoint)
    seen = list(v.pile) + list(v.out) + [c for u in v.face_up for c in u]
    seen += [c for p, k in enumerate(v.known) if p != viewpoint for c in k] + list(v.hand or ())
    return cc.all_faces(g.packs) - Counter(seen)


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


def shithead_exact(g: cardlab.Game[Any], viewpoint: int | None) -> cc.Answers:
    return {"blind": cc.attempt(lambda: prob.shithead_blind_fits(g, viewpoint)),
            "draw": cc.attempt(lambda: prob.shithead_draw_top_fits(g, viewpoint)),
            "pickup": cc.attempt(lambda: prob.shithead_mover_picks_up(g, viewpoint))}


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
    for i, c in zip(free, cc.shuffle_within([cards[i] for i in free], rng), strict=True):
        cards[i] = c
    for i, (zone, seat, _) in enumerate(places):
        if zone == "hand" and seat in picked:
            same = [j for j, c in enumerate(cards) if c.rank == cards[i].rank]
            j = same[int(rng.integers(len(same)))]
            cards[i], cards[j] = cards[j], cards[i]
    return cards


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


def shithead_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[cc.Outcome]:
    s: Any = g.state
    out: list[cc.Outcome] = []
    if s.draw:
        out.append(("draw", s.draw[-1], bool(g.fits(s.draw[-1])),
                    lambda: cc.attempt(lambda: prob.shithead_draw_top_fits(g, viewpoint))))
    down = [c for d in s.face_down for c in d if c is not None]
    if down:
        out.append(("blind", down[0], bool(g.fits(down[0])),
                    lambda: cc.attempt(lambda: prob.shithead_blind_fits(g, viewpoint))))
    if s.phase != "setup":
        m = g.current_player
        src = g.source(m)
        if src == "hand":
            real = not any(g.fits(c) for c in s.hands[m])
        elif src == "up":
            real = not any(g.fits(c) for c in s.face_up[m])
        else:  # the bots turn their lowest face-down position first
            real = not g.fits(next(c for c in s.face_down[m] if c is not None))
        out.append(("pickup", g.turns, real, lambda: cc.attempt(lambda: prob.shithead_mover_picks_up(g, viewpoint))))
    return out


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


def shithead_hidden(g: cardlab.Game[Any], viewer: int | None) -> set[Card]:
    """The other hands' cards not known from a pick-up, every face-down card and the draw pile."""
    st: Any = g.state
    hidden = {c for seat, hand in enumerate(st.hands) if seat != viewer for c in hand if c not in st.known[seat]}
    hidden |= {c for row in st.face_down for c in row if c is not None}
    return hidden | set(st.draw)


CHECKS = cc.register_checks(cc.GameChecks(
    name="shithead", count=lambda g, v: cc.Counts(*shithead_reference(g, v)), exact=shithead_exact,
    twin=shithead_twin, outcomes=shithead_outcomes, hidden=shithead_hidden,
    positions=[(2, {}, range(3), 3), (3, {}, range(2), 4)], calibration=(2, {}, range(100, 108)),
    min_informative=(100, 50), power=(_shithead_note, _shithead_verdict), choices=(range(3), 4, {})))
