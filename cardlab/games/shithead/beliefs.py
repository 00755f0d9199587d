"""What a viewer learns about the unseen cards of each hand from how the hand plays (Shithead).

The model
---------
A viewer (the table, or a seat) reads every other hand's moves under one stated model of a player
whose choices are not aimed at anything: **from the hand, a player plays a uniformly random card among
the cards that fit** (and may add more cards of that rank, a count chosen without regard to its other
cards); a player who cannot play must pick up. That is exactly the ``uninformed`` player
(:mod:`cardlab.games.shithead.bot`), and it is what "choices carry no information" can mean in a game
where a player who can play must play: even a random choice is a choice among the cards that *fit*,
so which cards fitted says something about the rest of the hand. Two kinds of evidence follow.

* A **pick-up** under a top means that no card of the hand fitted it.
* A **play** of rank ``r`` on a pile whose fitting cards are the classes of the set ``F`` has chance
  ``(k_r + a_r) / (f + s_F)``: ``k_r`` and ``f`` count the hand's cards of rank ``r`` and its fitting
  cards that the viewer knows (picked up from the pile), ``a_r`` and ``s_F`` the unseen ones. Which
  unseen cards of the rank the engine then takes is uniform, and that chance cancels against the number
  of ways the revealed cards can have sat among the unseen ones, up to a factor that is the same in
  every state. (A known card of the rank is always taken first.)

Classes and states
------------------
Whether a card fits depends on its rank only, so the filter works on **classes**, one per rank: the
ordinary ranks by power, 3 < 4 < ... < 9 < J < Q < K < A (classes 0 to 10), then the 2 (class 11) and the 10
(class 12). A pile's fitting cards are a **set of classes**, read from the rules' table
(:func:`cardlab.games.shithead.rules.fit_classes`): by default the classes from the pile's own on, plus the
2 and the 10, but a house rule can make it any set (after a 7 with ``seven_lower``, the 7 and below; with
``invisible_three`` the 3 always), so the filter never assumes "this rank and above". For
one hand, the **state** is how many of the hand's unseen cards lie in each class (13 counts adding up to the
number of unseen cards, at most 3 while the draw pile lasts); the filter keeps a weight per state, by Bayes'
rule over the hand's history: every unseen card starts free (each class, weight 1 per card: the number of
physical cards of a class is counted later, from the viewer's pool), a draw adds free cards, a play multiplies
each state's weight by the chance above and removes the revealed cards' class, and a pick-up keeps only the
states in which nothing fits.
The pool count happens when the law is asked (:class:`cardlab.chance.hands_law.HandsLaw`): given the states
of all hidden hands, the number of ways to choose their physical cards is a product of falling
factorials per class, and the other unseen cards are uniform on the other hidden places.

Everything the filter reads is public (the top, the cards the hand is known to hold, the faces it
plays, how many it draws), so every viewer other than the hand's owner holds the same belief about it:
the game keeps one per hand. What a viewer knows privately (its own hand and draws) enters only through
its pool, when the law is asked.

Who starts (option ``first="lowest3"``)
---------------------------------------
With that option the holder of the lowest ordinary card in hand starts (ties: the lowest seat; nobody
holding one: seat 0). Write ``L(x)`` for a hand's lowest ordinary class (0 to 10), or 11 when it holds
none; the starter ``s`` is the seat with the smallest ``(L, seat)``. That event couples the hands, but it
is a sum of products: with ``m`` the starter's own ``L``,

    [starter = s] = sum over m of [L_s = m] * prod_{q < s} [L_q > m] * prod_{q > s} [L_q >= m],

exactly one ``m`` (the starter's real ``L``) giving a non-zero term. So at the start of play (after the
set-up: the evidence is about the hands as play starts, and every card then in a hand is unseen by the
other viewers) each hand's states are **tagged** with ``m``, each state ``(x, m)`` keeping the weight of ``x``
times that hand's factor for ``m`` (:func:`start`), and every later step (a play, a pick-up, a draw) acts on
the counts and leaves the tag alone. A tagged state is the 13 counts followed by the tag. The joint
weight of the hands is then ``sum_m prod_p W_p(x_p, m)`` times the pool count: a mixture over ``m`` of
product-form laws (:class:`cardlab.chance.hands_law.HandsLaw` with ``components``). Because a hand's weights
for every tag share one scale (each step multiplies them all by one number and divides them all by one
greatest common divisor), the components keep their relative weights without further bookkeeping. A
tagged hand stays tagged when its unseen cards run out (its weight per tag still weighs the components).

Weights are whole numbers: each step multiplies by a common multiple of the denominators and divides
by the weights' greatest common divisor, so the filter is exact and a function of the public record
alone. ``()`` stands for a hand about which nothing is known yet (every state weighted by the number
of ways its cards can be labelled), so a fresh deal costs nothing.
"""

from __future__ import annotations

from functools import cache
from math import comb, gcd

from cardlab.errors import CorruptRecordError, shown
from cardlab.games.shithead.ranks import counts_low, low_order

ORDER = low_order()
"""The classes in order: the ordinary ranks (those that count as low, :func:`.ranks.counts_low`) by power, then
the others (the 2, then the 10) by power."""
CLASS = {r: i for i, r in enumerate(ORDER)}
CLASSES = len(ORDER)

State = tuple[int, ...]
"""How many of a hand's unseen cards lie in each class (13 counts)."""
Belief = tuple[tuple[State, int], ...]
"""A hand's distinct states with their positive whole weights, in the order the public history made them
(the same for every game with that history); ``()`` when nothing is known."""

EMPTY: State = (0,) * CLASSES
ORDINARY = sum(1 for r in ORDER if counts_low(r))
"""The ordinary classes (3 to Ace, the ranks that count as low) are ``0 .. ORDINARY - 1``; a hand's lowest is
``ORDINARY`` when it has none."""


Fitting = frozenset[int]
"""The classes that fit a pile (:func:`cardlab.games.shithead.rules.fit_classes`)."""


@cache
def free(unseen: int) -> Belief:
    """``unseen`` cards about which nothing is known: each state weighted by its labellings (a
    multinomial coefficient), so that with the pool count every assignment of cards is equally likely."""
    out: dict[State, int] = {EMPTY: 1}
    for _ in range(unseen):
        out = _add_one(out)
    return _normal(out)


@cache
def _successors(s: State) -> tuple[State, ...]:
    """The states one more card of each class makes."""
    return tuple(s[:c] + (s[c] + 1,) + s[c + 1:] for c in range(CLASSES))


@cache
def _fitting(s: State, fitting: Fitting) -> int:
    """How many of the state's cards lie in a class of ``fitting`` (the ones that fit)."""
    return sum(s[c] for c in fitting)


def _add_one(w: dict[State, int]) -> dict[State, int]:
    out: dict[State, int] = {}
    get = out.get
    for s, v in w.items():
        for t in _successors(s):
            out[t] = get(t, 0) + v
    return out


def _normal(w: dict[State, int]) -> Belief:
    g = 0
    for v in w.values():
        g = gcd(g, v)
    return tuple((s, v // g) for s, v in w.items() if v)


def materialise(belief: Belief, unseen: int) -> Belief:
    """The belief with ``()`` spelled out as :func:`free`."""
    return belief if belief else free(unseen)


def draw(belief: Belief, unseen: int, k: int) -> Belief:
    """The hand, holding ``unseen`` unseen cards, draws ``k`` more: each a free card."""
    if not belief or k <= 0:
        return belief
    w = dict(belief)
    for _ in range(k):
        w = _add_one(w)
    return _normal(w)


def play(belief: Belief, unseen: int, fitting: Fitting, known_fit: int, known_r: int, cls: int,
         hidden: int) -> Belief:
    """A play of rank class ``cls`` on a pile whose fitting classes are ``fitting``, by a hand with
    ``unseen`` unseen cards, ``known_fit`` known fitting cards and ``known_r`` known cards of the rank;
    ``hidden`` of the played cards were unseen. Each state's weight times ``(known_r + a_r) / (known_fit
    + s_F)``, then ``hidden`` cards leave class ``cls`` (states without them are impossible)."""
    w = materialise(belief, unseen)
    raw: list[tuple[State, int, int]] = []
    den = 1
    for s, v in w:
        a = s[cls]
        if a < hidden:
            continue
        fit = known_fit + _fitting(s, fitting)
        num = v * (known_r + a)
        if num == 0:
            continue
        raw.append((s[:cls] + (a - hidden,) + s[cls + 1:], num, fit))
        den = den * fit // gcd(den, fit)
    out: dict[State, int] = {}
    for s, num, fit in raw:
        out[s] = out.get(s, 0) + num * (den // fit)
    if not out:
        raise CorruptRecordError("a Shithead hand played a card that no state of a viewer's belief allows")
    return _normal(out)


def pick_up(belief: Belief, unseen: int, fitting: Fitting) -> Belief:
    """The hand had to pick up under a pile whose fitting classes are ``fitting``: no unseen card fitted."""
    if unseen <= 0:
        return belief
    w = {s: v for s, v in materialise(belief, unseen) if not _fitting(s, fitting)}
    if not w:
        raise CorruptRecordError("a Shithead hand picked up although every state of a viewer's belief fits")
    return _normal(w)


def lowest(state: State) -> int:
    """The hand's lowest ordinary class (0 to 10), or :data:`ORDINARY` (11) when it holds no ordinary card."""
    for c in range(ORDINARY):
        if state[c]:
            return c
    return ORDINARY


def start_factor(low: int, seat: int, starter: int, m: int) -> bool:
    """Whether a hand whose lowest class is ``low`` agrees with ``starter`` starting with lowest class ``m``:
    the starter's own lowest is ``m``, an earlier seat's is above ``m``, a later seat's at least ``m``."""
    if seat == starter:
        return low == m
    return low > m if seat < starter else low >= m


def tagged(belief: Belief) -> bool:
    """Whether the belief's states carry a starter tag (module notes: *Who starts*)."""
    return bool(belief) and len(belief[0][0]) == CLASSES + 1


def start(belief: Belief, unseen: int, seat: int, starter: int) -> Belief:
    """The belief about ``seat``'s hand (``unseen`` cards, none known) once ``starter`` is seen to start
    under ``first="lowest3"``: each state ``x`` becomes ``(x, m)`` for every starter's lowest ``m`` it
    agrees with (:func:`start_factor`), keeping its weight. A belief that rules out every ``m`` is a
    corrupt record."""
    out = tuple((s + (m,), v) for s, v in materialise(belief, unseen) for m in range(ORDINARY + 1)
                if start_factor(lowest(s), seat, starter, m))
    if not out:
        raise CorruptRecordError("a Shithead hand's belief rules out every hand that lets the first player start")
    return _normal(dict(out))


def states_of(unseen: int) -> int:
    """How many states ``unseen`` cards can have: multisets of that size over the 13 classes."""
    return comb(unseen + CLASSES - 1, CLASSES - 1)


def check(value: object, unseen: int) -> Belief:
    """A hand's belief read from a record (lists or tuples), checked: a clear error otherwise.

    The checks are explicit (not ``assert``), so they hold under ``python -O`` too: a belief is a list of
    distinct ``[state, weight]`` pairs, each state :data:`CLASSES` whole counts adding up to the hand's
    ``unseen`` cards (then, in every state or in none, a starter tag from 0 to :data:`ORDINARY`: see *Who
    starts*), each weight a whole number >= 1 (``true`` is not a number)."""
    wanted = (f"expected [] or distinct [state, weight] pairs, each state {CLASSES} whole counts adding up to "
              f"the hand's {unseen} unseen card(s) (then a starter tag 0 to {ORDINARY}, in every state or none), "
              "each weight a whole number >= 1")

    def refuse(why: str) -> CorruptRecordError:
        return CorruptRecordError(f"a hand's belief holds {shown(value)}: {why}; {wanted}")

    if not isinstance(value, (list, tuple)):
        raise refuse("not a list")
    if len(value) > states_of(max(unseen, 0)) * (ORDINARY + 1):
        raise refuse(f"{len(value):,} states, more than {unseen} card(s) can have")
    out: list[tuple[State, int]] = []
    size: int | None = None
    for item in value:
        if not isinstance(item, (list, tuple)) or len(item) != 2 or not isinstance(item[0], (list, tuple)):
            raise refuse(f"the entry {shown(item, 40)} is not a [state, weight] pair")
        state, weight = item
        st = tuple(state)
        size = len(st) if size is None else size
        if (len(st) != size or size not in (CLASSES, CLASSES + 1) or any(type(x) is not int or x < 0 for x in st)
                or sum(st[:CLASSES]) != unseen or st[CLASSES:] > (ORDINARY,)):
            raise refuse(f"the state {shown(state, 60)} is not {CLASSES} whole counts adding up to {unseen}, "
                         "with the same tag or none as the others")
        if type(weight) is not int or weight < 1:
            raise refuse(f"the weight {shown(weight, 40)} is not a whole number >= 1")
        out.append((st, weight))
    if len({s for s, _ in out}) != len(out):
        raise refuse("a state is listed twice")
    return tuple(out)
