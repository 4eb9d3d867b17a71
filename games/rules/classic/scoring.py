"""Classic Whist's scoring: odd tricks, honours, and the race between them to game."""

from __future__ import annotations

from games.rules.cards import Card, Suit, card
from games.rules.classic.options import ClassicOptions
from games.rules.classic.table import add_sides, side

# Tricks over this many are "odd tricks", one point each.
BOOK = 6
# The honours: the top four trumps, A K Q J.
HONOUR_RANKS = (14, 13, 12, 11)


def honours_held(hands: tuple[tuple[Card, ...], ...], trump: Suit | None) -> tuple[int, int]:
    """How many of the A K Q J of trumps each side held as dealt."""
    if trump is None:
        return (0, 0)
    honours = {card(rank, trump) for rank in HONOUR_RANKS}
    held = [0, 0]
    for seat, hand in enumerate(hands):
        held[side(seat)] += sum(1 for c in hand if c in honours)
    return (held[0], held[1])


def _honour_value(held: int) -> int:
    return {4: 4, 3: 2}.get(held, 0)


def score_hand(
    options: ClassicOptions,
    scores: tuple[int, int],
    tricks: tuple[int, int],
    honours: tuple[int, int],
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Trick points, honour points and new totals, from the scores at the start of the hand.

    Tricks are scored first: once they take a side to game, honours are not
    scored; nor are they by a side that started the hand one point short of game.
    """
    taker = 0 if tricks[0] > tricks[1] else 1
    odd = tricks[taker] - BOOK
    trick_points = (odd, 0) if taker == 0 else (0, odd)
    after_tricks = add_sides(scores, trick_points)
    honour_points = (0, 0)
    if options.honours and max(after_tricks) < options.target:
        honour_points = (
            _honour_value(honours[0]) if scores[0] < options.target - 1 else 0,
            _honour_value(honours[1]) if scores[1] < options.target - 1 else 0,
        )
    return trick_points, honour_points, add_sides(after_tricks, honour_points)
