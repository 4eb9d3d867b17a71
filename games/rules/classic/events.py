"""Classic Whist's events, the immutable facts a match is folded from, and their
JSON payloads.

Hand and trick numbers count from 0 over the whole match (a rubber's hands run on
across its games); sides by seat: 0 for seats 0 and 2, 1 for seats 1 and 3.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.rules import payloads
from games.rules.cards import Card, Suit
from games.rules.classic.options import ClassicOptions, options_from_dict
from games.rules.events import CardPlayed, TrickTaken
from games.rules.payloads import EventCodec


@dataclass(frozen=True, slots=True)
class MatchStarted:
    options: ClassicOptions
    first_dealer: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    hand: int
    dealer: int
    # By seat, 13 each; the whole truth, which only :func:`visible_hands` filters.
    hands: tuple[tuple[Card, ...], ...]
    # None in a no-trump hand.
    trump: Suit | None
    # The dealer's last card, turned face up (None when trumps rotate).
    trump_card: Card | None


@dataclass(frozen=True, slots=True)
class HandScored:
    hand: int
    # By side (0: seats 0 and 2, 1: seats 1 and 3).
    tricks: tuple[int, int]
    # Odd tricks, scored first.
    trick_points: tuple[int, int]
    # Honours (A K Q J of trumps) each side held as dealt, and the points they scored.
    honours: tuple[int, int]
    honour_points: tuple[int, int]
    # Each side's points in the current game (the whole match in a tournament).
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GameWon:
    game: int
    side: int
    # The final points of the game, by side.
    scores: tuple[int, int]
    # Games won by each side so far, this one included.
    games: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchFinished:
    # The winning side; None for a tied tournament.
    winner: int | None
    games: tuple[int, int]
    # Every point each side scored over the match.
    points: tuple[int, int]


# CardPlayed(hand, seat, card) and TrickTaken(hand, trick, leader, cards, winner)
# are the Romanian engine's events.
ClassicEvent = (
    MatchStarted | HandDealt | CardPlayed | TrickTaken | HandScored | GameWon | MatchFinished
)

_CODEC: EventCodec[ClassicEvent] = EventCodec(
    typing.get_args(ClassicEvent), {ClassicOptions: options_from_dict}
)
EVENT_TYPES: dict[str, type[ClassicEvent]] = _CODEC.types


def event_type(event: ClassicEvent) -> str:
    return type(event).__name__


def to_payload(event: ClassicEvent) -> dict[str, Any]:
    """The event as a JSON-ready dict (cards in the compact notation, suits by letter)."""
    return payloads.to_payload(event)


def from_payload(type_name: str, payload: Mapping[str, Any]) -> ClassicEvent:
    """Rebuild an event from :func:`event_type` and :func:`to_payload`."""
    return _CODEC.from_payload(type_name, payload)
