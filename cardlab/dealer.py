"""The one dealer: how a seed becomes cards, the same on every path.

Every deal and every later shuffle of every game, in the engine (:class:`cardlab.engine.game.Game`), in the
compiled kernels (``cardlab/games/<game>/kernel.py``), in worker processes and on dask, comes from here.
So game ``i`` of a run with seed ``s`` is the same game, card for card, whether the engine plays it (a
policy written in Python) or a kernel does (the built-in bots): a paired comparison between a built-in
policy and a student's function keeps its pairing.

The generator
-------------
**SplitMix64** (Steele, Lea and Flood 2014): a 64-bit counter stepped by the golden-ratio odd constant
``GAMMA``, then mixed; it passes BigCrush. :meth:`SplitMix64.below` returns a uniform integer in
``[0, b)`` for ``1 <= b < 2**32``: it takes the high 32 bits ``x`` of one output and returns
``(x * b) >> 32``, rejecting the ``2**32 mod b`` values of ``x * b mod 2**32`` that would make some
results one count more likely (Lemire 2019), so every value has probability exactly ``1/b``.
:meth:`SplitMix64.permute` is Fisher-Yates (position ``i`` from the top down swaps with a uniform
position ``<= i``): each of the ``m!`` orders has probability ``1/m!``. :class:`SplitMix64` is the
generator in Python (the engine's side); the kernels run the same numbers compiled.

From a seed to a game's key
---------------------------
Game ``i`` of a run with seed ``s`` has the **key** :func:`game_key` ``(s, i)``: output ``i`` of SplitMix64
seeded with the first 64-bit word of ``numpy.random.SeedSequence(s)`` (:func:`run_seed`; inside a kernel
``jitkit.game_state`` computes the same). It depends on ``(s, i)`` only, so shards of any size give the same
games, and nearby seeds give unrelated runs. ``new_game(name, seed=s)`` is game 0 of the run with seed
``s``; ``new_game(name, seed=s, index=i)`` is game ``i``.

From a key to the cards: streams
--------------------------------
A game's random numbers come in numbered **streams**; stream ``n`` of key ``K`` is SplitMix64 seeded with
output ``n`` of SplitMix64 seeded with ``K`` (:func:`stream_seed`; ``jitkit.set_stream`` inside a kernel).

- stream :data:`DEAL` (0) deals: a Fisher-Yates shuffle of the cards in id order (:meth:`Dealer.deal`);
- stream ``c + 1`` is the game's in-game shuffle number ``c`` (a reshuffled stock, a match's redeal, a
  tie's reshuffled payoff piles): :meth:`Dealer.shuffle`; a shuffle that permutes two piles draws both
  from its one stream, in the rules' order;
- stream :data:`CHOICES` ``+ m`` draws the rules' own hidden choice at move ``m`` (which of two identical
  cards leaves a hand): :meth:`Dealer.choice`;
- stream :data:`PLAY` draws the built-in ``random`` bot's moves in a kernel.

Because each shuffle has its own stream, undo and replay need no generator state: the shuffle count in the
position says which stream comes next. A kernel keeps the key beside its generator (``jitkit.start_game``:
``state[0]`` the play stream, ``state[1]`` the key, ``state[2]`` scratch for a shuffle's stream), so its
shuffles are the engine's shuffles whatever the bots drew in between.

Python here, compiled in the kernels
------------------------------------
This module is plain Python (dealing a game loads no numba). The kernels' compiled copies of the generator,
number for number the same (:func:`cardlab.chance.jitkit.next_u64`, ``below``, ``shuffle``, ``game_state``,
``start_game``, ``set_stream``, ``deal_shuffle``), live in :mod:`cardlab.chance.jitkit` with numba, and
``tests/test_dealer.py`` checks them against the streams here.
"""

from __future__ import annotations

import numpy as np

from cardlab.errors import InvalidInputError, shown

# ---------------------------------------------------------------------------------------------- SplitMix64
GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
U27, U30, U31, U32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)
MASK64 = (1 << 64) - 1

DEAL = 0
"""The stream that deals a game (in-game shuffle ``c`` uses stream ``c + 1``)."""
CHOICES = 1 << 61
"""Stream ``CHOICES + m`` draws the rules' hidden choice at move ``m`` (which copy of a face leaves a hand)."""
PLAY = 1 << 62
"""The stream a kernel's ``random`` bot draws its moves from."""
STATE_SIZE = 3
"""A kernel's generator state: the play stream, the game's key, and scratch for one shuffle's stream."""


class SplitMix64:
    """The generator in Python: the same numbers as the kernels' ``next_u64``, ``below`` and ``shuffle``."""

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise InvalidInputError(f"SplitMix64: seed={shown(seed)} is not a whole number")
        self.state = int(seed) & MASK64

    def next(self) -> int:
        self.state = (self.state + int(GAMMA)) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * int(MIX1)) & MASK64
        z = ((z ^ (z >> 27)) * int(MIX2)) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)`` (Lemire's method with rejection)."""
        if isinstance(bound, bool) or not isinstance(bound, (int, np.integer)) or not 1 <= bound < 1 << 32:
            raise InvalidInputError(f"SplitMix64.below: bound={shown(bound)} is not allowed; give 1 to 2**32 - 1")
        m = (self.next() >> 32) * int(bound)
        if m & 0xFFFFFFFF < bound:
            threshold = ((1 << 32) - bound) % bound
            while m & 0xFFFFFFFF < threshold:
                m = (self.next() >> 32) * int(bound)
        return m >> 32

    def permute(self, n: int) -> list[int]:
        """A permutation of ``range(n)`` by Fisher-Yates: ``[a[i] for i in permute(n)]`` is the order the
        kernels' in-place ``shuffle`` gives ``a``."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order


def stream_seed(key: int, stream: int) -> int:
    """The seed of stream ``stream`` of ``key``: output ``stream`` of SplitMix64 seeded with ``key``
    (what ``jitkit.game_state`` computes inside a kernel)."""
    return SplitMix64((int(key) + (int(stream) % (1 << 64)) * int(GAMMA)) & MASK64).next()


def run_seed(seed: object, what: str) -> np.uint64:
    """The base of a seeded run: the first 64-bit word of ``numpy.random.SeedSequence(seed)``, for a whole
    number ``seed >= 0`` (anything else is refused, naming ``what``)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidInputError(f"{what}: seed={shown(seed)} is not allowed; give a whole number >= 0")
    word: np.uint64 = np.random.SeedSequence(int(seed)).generate_state(1, dtype=np.uint64)[0]
    return word


def game_key(seed: int, index: int) -> int:
    """The key of game ``index`` of a run with ``seed`` (what ``jitkit.game_state`` computes in a kernel)."""
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or index < 0:
        raise InvalidInputError(f"index={shown(index)} is not allowed; a game's index in a run is a whole "
                                "number >= 0")
    return stream_seed(int(run_seed(seed, "game_key")), int(index))


def new_key(rng: np.random.Generator) -> int:
    """A game's key drawn from a caller's generator (a game made with ``rng=`` rather than a seed)."""
    return int(rng.integers(0, np.iinfo(np.uint64).max, dtype=np.uint64, endpoint=True))


class Dealer:
    """The streams of the game with ``key`` (see the module notes), as Python generators."""

    def __init__(self, key: int) -> None:
        if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key <= MASK64:
            raise InvalidInputError(f"key={shown(key)} is not allowed; a game's key is a whole number from 0 to "
                                    "2**64 - 1")
        self.key = int(key)

    def stream(self, n: int) -> SplitMix64:
        """Stream ``n`` of this key, from its start."""
        return SplitMix64(stream_seed(self.key, n))

    def deal(self) -> SplitMix64:
        """The stream that deals the game (:data:`DEAL`)."""
        return self.stream(DEAL)

    def shuffle(self, count: int) -> SplitMix64:
        """The stream of the game's in-game shuffle number ``count`` (0 for the first)."""
        return self.stream(count + 1)

    def choice(self, move: int) -> SplitMix64:
        """The stream of the rules' hidden choice at move number ``move``."""
        return self.stream(CHOICES + move)
