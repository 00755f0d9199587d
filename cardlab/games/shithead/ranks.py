"""Shithead's ranks: their order and which of them count as low, each stated once.

The rules (:mod:`.rules`), the beliefs (:mod:`.beliefs`, which sit below the rules) and, through the rules,
the kernel read these; nothing restates them.

* **Order.** 3 < 4 < … < 10 < J < Q < K < A by :data:`POWER` (a 2 has power 2, but it is special).
* **Special ranks.** The 2 (it resets the pile) and the 10 (it burns the pile) go on anything.
* **Low cards.** With ``first="lowest3"`` the holder of the lowest card in hand starts; the special ranks do
  not count as low (:func:`counts_low`).
"""

from __future__ import annotations

from cardlab.cards import Rank

POWER: dict[Rank, int] = {r: int(r) for r in Rank} | {Rank.JACK: 11, Rank.QUEEN: 12, Rank.KING: 13, Rank.ACE: 14}
"""A rank's height: 3→3 … 10→10, J 11, Q 12, K 13, A 14; a 2 gives 2 (it is special, :data:`SPECIAL`)."""

SPECIAL = (Rank.TWO, Rank.TEN)
"""The special ranks: a 2 resets the pile and a 10 burns it; both go on anything."""


def counts_low(rank: Rank) -> bool:
    """**The low cards** of ``first="lowest3"``: whether a card of ``rank`` counts when the holder of the lowest
    card in hand starts. Every rank but the special ones (:data:`SPECIAL`): 2s and 10s do not count as low."""
    return rank not in SPECIAL


def low_order() -> tuple[Rank, ...]:
    """The ranks that count as low (:func:`counts_low`), lowest power first, then the others by power."""
    low = sorted((r for r in Rank if counts_low(r)), key=POWER.__getitem__)
    return tuple(low) + tuple(sorted((r for r in Rank if not counts_low(r)), key=POWER.__getitem__))
