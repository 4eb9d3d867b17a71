"""Trick play: follow suit, then trump when the rules say so, highest trump or
highest card of the suit led wins.

These functions run for every card of every game replayed, so they read a
card's suit as ``card >> 4`` (see :class:`games.rules.cards.Card`) rather than
through the property.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.rules.cards import Card, Suit
from games.rules.errors import CardNotInHand, MustFollowSuit, MustTrump

SUIT_NAMES = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}


def legal_cards(
    hand: Sequence[Card], led: int | None, trump: int | None, must_trump: bool
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to a trick whose led suit is
    ``led`` (None when leading)."""
    if led is None:
        return tuple(hand)
    following = tuple(c for c in hand if c >> 4 == led)
    if following:
        return following
    if must_trump and trump is not None:
        trumps = tuple(c for c in hand if c >> 4 == trump)
        if trumps:
            return trumps
    return tuple(hand)


def check_play(
    hand: Sequence[Card], card: Card, led: int | None, trump: int | None, must_trump: bool
) -> None:
    """Raise the rule that playing ``card`` from ``hand`` would break."""
    if card not in hand:
        raise CardNotInHand(str(card) if isinstance(card, Card) else repr(card))
    suit = card >> 4
    if led is None or suit == led:
        return
    if any(c >> 4 == led for c in hand):
        raise MustFollowSuit(SUIT_NAMES[Suit(led)])
    if must_trump and trump is not None and suit != trump and any(c >> 4 == trump for c in hand):
        raise MustTrump(SUIT_NAMES[Suit(trump)])


def winning_index(cards: Sequence[Card], trump: int | None) -> int:
    """The position in ``cards`` (in play order) of the card that wins the trick."""
    best = 0
    best_card = cards[0]
    for index in range(1, len(cards)):
        candidate = cards[index]
        if candidate >> 4 == best_card >> 4:
            if candidate > best_card:
                best, best_card = index, candidate
        elif candidate >> 4 == trump:
            best, best_card = index, candidate
    return best
