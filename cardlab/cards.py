"""Playing cards.

A :class:`Card` is one *physical* card: rank, suit and the pack it came from. Games with two or
three packs hold several cards that look alike (two 7♥), and the pack index keeps them apart so that
a test can check that every physical card is in exactly one place.

Text notation
-------------
``Card.parse`` accepts a rank (``A 2 … 10 J Q K``, ``T`` for ten, any case) followed by a suit
letter or symbol (``S H D C`` or ``♠ ♥ ♦ ♣``): ``"10H"``, ``"TH"``, ``"AS"``, ``"q♠"``. A card of a
second or third pack carries a suffix ``:1`` or ``:2`` (``"7H:1"``); :attr:`Card.code` writes that
form and parses back exactly. ``str(card)`` is the readable face, ``"10♥"``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from cardlab.errors import InvalidCardError, shown


class Suit(enum.IntEnum):
    """The four suits, in the order used for card ids."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self.value]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self.value]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Rank(enum.IntEnum):
    """Ranks with the Ace low (value 1) and the King high (13). Games that rank the Ace high say so."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        return RANK_LABELS[self.value]

    @property
    def word(self) -> str:
        return self.name.lower()


RANK_LABELS = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
               11: "J", 12: "Q", 13: "K"}
_RANK_TEXT = {v.lower(): k for k, v in RANK_LABELS.items()} | {"t": 10, "1": 1}
_SUIT_TEXT = {"s": Suit.SPADES, "h": Suit.HEARTS, "d": Suit.DIAMONDS, "c": Suit.CLUBS,
              "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
              "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
MAX_PACKS = 3
_PACK_TEXT = {str(p): p for p in range(MAX_PACKS)}
ACCEPTED = "a rank A,2-10,T,J,Q,K and a suit S,H,D,C or ♠♥♦♣, e.g. '10H', 'TH', 'AS', 'q♠' (':1' marks a 2nd pack)"


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card. ``pack`` is 0 for the first pack, 1 or 2 for the others."""

    rank: Rank
    suit: Suit
    pack: int = 0

    @property
    def id(self) -> int:
        """A dense integer id, ``pack*52 + suit*13 + rank-1``; :func:`card_from_id` inverts it."""
        return self.pack * 52 + int(self.suit) * 13 + int(self.rank) - 1

    @property
    def code(self) -> str:
        """Exact ASCII notation, pack included: ``'10H'``, ``'7H:1'``."""
        base = f"{self.rank.label}{self.suit.letter}"
        return base if self.pack == 0 else f"{base}:{self.pack}"

    @property
    def face(self) -> tuple[Rank, Suit]:
        """What a player sees: rank and suit, not the pack."""
        return (self.rank, self.suit)

    def __str__(self) -> str:
        return f"{self.rank.label}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read ``"10H"``, ``"TH"``, ``"AS"``, ``"q♠"`` or ``"7H:1"``; raise InvalidCardError otherwise."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidCardError(f"card {shown(text)} is not text; expected {ACCEPTED}")
        raw = text.strip()
        pack = 0
        body = raw
        if ":" in raw:
            body, _, pack_text = raw.partition(":")
            if pack_text not in _PACK_TEXT:  # ASCII digits only: '²' is a digit to str.isdigit, not a pack
                raise InvalidCardError(f"card {shown(text)} has pack suffix {shown(pack_text)}; "
                                       "packs are :0, :1 or :2")
            pack = _PACK_TEXT[pack_text]
        if len(body) < 2:
            raise InvalidCardError(f"card {shown(text)} is not a card; expected {ACCEPTED}")
        rank_text, suit_text = body[:-1].lower(), body[-1].lower()
        if rank_text not in _RANK_TEXT or suit_text not in _SUIT_TEXT:
            raise InvalidCardError(f"card {shown(text)} is not a card; expected {ACCEPTED}")
        return _ALL[pack * 52 + int(_SUIT_TEXT[suit_text]) * 13 + _RANK_TEXT[rank_text] - 1]


_ALL: tuple[Card, ...] = tuple(
    Card(Rank(r), Suit(s), p) for p in range(MAX_PACKS) for s in range(4) for r in range(1, 14)
)


def card_from_id(card_id: int) -> Card:
    """The card whose :attr:`Card.id` is ``card_id`` (0 to 155)."""
    return _ALL[card_id]


def face_of(card: Card) -> Card:
    """The card as a player sees it: its face, the pack forgotten (the first pack's card of that face).

    Two cards of one face from two packs look alike, so views and public events show faces only."""
    return card if card.pack == 0 else _ALL[card.id % 52]


def faces(value: Any) -> Any:
    """``value`` with every card replaced by :func:`face_of` (inside lists and tuples too)."""
    if isinstance(value, Card):
        return face_of(value)
    if isinstance(value, (list, tuple)):
        return type(value)(faces(v) for v in value)
    return value


def full_deck(packs: int = 1) -> list[Card]:
    """All physical cards of ``packs`` packs (1 to 3), in id order. No jokers."""
    if not isinstance(packs, int) or not 1 <= packs <= MAX_PACKS:
        raise InvalidCardError(f"packs={packs!r} is not allowed; a deck holds 1, 2 or 3 packs")
    return list(_ALL[: 52 * packs])


class Permuter(Protocol):
    """What shuffles a deck: the one dealer's stream (:class:`cardlab.dealer.SplitMix64`)."""

    def permute(self, n: int) -> list[int]:
        """A uniformly random permutation of ``range(n)``."""
        ...


def shuffled_deck(packs: int, rng: Permuter) -> list[Card]:
    """A uniformly shuffled deck of ``packs`` packs: the cards in id order, permuted by ``rng`` (a deal's
    stream of :class:`cardlab.dealer.Dealer`), top of the deck first."""
    deck = full_deck(packs)
    return [deck[i] for i in rng.permute(len(deck))]


def stack_deck(top: Sequence[str | Card], packs: int, rng: Permuter) -> list[Card]:
    """A deck whose first cards are ``top`` (top of the deck first); the rest of the packs follow, shuffled
    (the order :func:`shuffled_deck` gives them with the same ``rng``).

    Repeated faces in ``top`` are given to successive packs, so ``["7H", "7H"]`` with two packs means
    both sevens of hearts. A face named more often than there are packs is an error.
    """
    if isinstance(top, (str, bytes, dict, set, frozenset)) or not isinstance(top, (list, tuple, np.ndarray)):
        raise InvalidCardError(f"deck={shown(top)} is not allowed; give a list of cards, top of the deck first, "
                               "e.g. ['7H', 'AS']")
    if len(top) > 52 * packs:
        raise InvalidCardError(f"deck lists {len(top):,} cards; the {packs} pack(s) in play hold {52 * packs}")
    used: set[Card] = set()
    head: list[Card] = []
    for item in top:
        card = Card.parse(item)
        if isinstance(item, str) and ":" not in item:
            while card in used and card.pack + 1 < packs:
                card = _ALL[card.id + 52]
        if card.pack >= packs:
            raise InvalidCardError(
                f"deck card {shown(item)} needs pack {card.pack + 1}, but this game uses {packs} pack(s)")
        if card in used:
            raise InvalidCardError(
                f"deck card {shown(item)} appears more often than the {packs} pack(s) in play allow")
        used.add(card)
        head.append(card)
    rest = [c for c in shuffled_deck(packs, rng) if c not in used]
    return head + rest


def parse_cards(cards: Iterable[str | Card]) -> list[Card]:
    """Parse several cards."""
    return [Card.parse(c) for c in cards]


def card_or_none(value: Any) -> Card | None:
    return value if isinstance(value, Card) else None
