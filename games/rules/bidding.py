"""Bidding: 0 to the cards dealt, and the last bidder may not make the sum
equal the cards dealt."""

from __future__ import annotations

from games.rules.errors import BidOutOfRange, DealerBidForbidden


def forbidden_bid(cards: int, bids_before: int) -> int | None:
    """The one bid the last bidder may not make, if it is a possible bid."""
    forbidden = cards - bids_before
    return forbidden if 0 <= forbidden <= cards else None


def check_bid(bid: int, cards: int, bids_before: int, is_last: bool) -> None:
    """Raise the rule a bid breaks, given the sum of the bids before it."""
    if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= cards:
        raise BidOutOfRange(bid, cards)
    if is_last and bid == forbidden_bid(cards, bids_before):
        raise DealerBidForbidden(bid, cards)


def allowed_bids(cards: int, bids_before: int, is_last: bool) -> tuple[int, ...]:
    forbidden = forbidden_bid(cards, bids_before) if is_last else None
    return tuple(bid for bid in range(cards + 1) if bid != forbidden)
