"""The table of classic Whist: four seats in two partnerships, the 52-card pack,
thirteen tricks a hand."""

from __future__ import annotations

from games.rules.cards import Suit, card

PLAYERS = 4
TRICKS = 13
# The standard 52-card pack in the canonical order of :func:`games.rules.cards.deck`.
DECK = tuple(card(rank, suit) for suit in Suit for rank in range(2, 15))


def side(seat: int) -> int:
    """The partnership of ``seat``: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


def add_sides(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Two by-side figures added, side by side."""
    return (a[0] + b[0], a[1] + b[1])
