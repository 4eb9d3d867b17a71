"""Cards, suits and the deck of 8 cards per player, with a compact notation.

A card is written rank then suit: ``"AS"`` (ace of spades), ``"10H"``, ``"7D"``;
``"T"`` is accepted for ten. Cards are interned ints so that comparisons, hashing
and membership tests stay cheap on the hot path of deciding and replaying games.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from functools import cache

from games.rules.errors import InvalidCard

MIN_PLAYERS = 3
MAX_PLAYERS = 6
CARDS_PER_PLAYER = 8


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]


RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_BY_NAME = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}
SUIT_BY_LETTER = {s.letter: s for s in Suit}


class Card(int):
    """A card as ``suit * 16 + rank`` (rank 2..14, ace high)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        return self & 15

    @property
    def suit(self) -> Suit:
        return SUITS[self >> 4]

    def __repr__(self) -> str:
        return f"Card({self})"

    def __str__(self) -> str:
        # Looked up: every event payload and every view writes its cards.
        return _TEXTS[self]


SUITS = tuple(Suit)
_CARDS = {suit * 16 + rank: Card(suit * 16 + rank) for suit in Suit for rank in range(2, 15)}
_TEXTS = {
    value: f"{RANK_NAMES.get(value & 15, str(value & 15))}{SUITS[value >> 4].letter}"
    for value in _CARDS
}
# Each card by its canonical text, as payloads store it: a hand dealt is 8 cards per
# player to parse, in every process that folds it.
_BY_TEXT = {text: _CARDS[value] for value, text in _TEXTS.items()}


def card(rank: int, suit: Suit) -> Card:
    """The interned card of this rank and suit."""
    return _CARDS[suit * 16 + rank]


def parse_card(text: str) -> Card:
    """Parse one card in the compact notation (``"10H"``, ``"TH"``, ``"as"``)."""
    canonical = _BY_TEXT.get(text)
    if canonical is not None:
        return canonical
    token = text.strip().upper()
    if len(token) < 2 or token[-1] not in SUIT_BY_LETTER:
        raise InvalidCard(text)
    rank_text = token[:-1]
    rank = RANK_BY_NAME.get(rank_text)
    if rank is None:
        if not rank_text.isdigit() or not 2 <= int(rank_text) <= 10:
            raise InvalidCard(text)
        rank = int(rank_text)
    return card(rank, SUIT_BY_LETTER[token[-1]])


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse space-separated cards: ``parse_cards("AS KH 7D")``."""
    return tuple(parse_card(token) for token in text.split())


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def lowest_rank(player_count: int) -> int:
    """The lowest rank kept so that the deck holds 8 cards per player.

    Four suits of ``2 * n`` ranks, from the ace down: 9 for 3 players, 7 for 4,
    5 for 5, 3 for 6.
    """
    return 15 - 2 * player_count


@cache
def deck(player_count: int) -> tuple[Card, ...]:
    """The deck in its canonical order: by suit, then by rank ascending."""
    low = lowest_rank(player_count)
    return tuple(card(rank, suit) for suit in Suit for rank in range(low, 15))
