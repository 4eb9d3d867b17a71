"""Events: the immutable facts a game is folded from, and their JSON payloads.

Hand and trick numbers count from 0; seats are numbered clockwise from 0.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

from games.rules import payloads
from games.rules.cards import Card
from games.rules.options import RuleOptions, Visibility, options_from_dict
from games.rules.payloads import EventCodec

SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class GameStarted:
    player_count: int
    options: RuleOptions
    first_dealer: int
    # A table in the room: its deals are played with real cards and recorded
    # (DealRecorded), never dealt or played here.
    recorded: bool = False


@dataclass(frozen=True, slots=True)
class OneCardModeChosen:
    hand: int
    seat: int
    visibility: Visibility


@dataclass(frozen=True, slots=True)
class HandDealt:
    hand: int
    dealer: int
    cards: int
    visibility: Visibility
    # By seat; the whole truth, which only a viewer policy may filter.
    hands: tuple[tuple[Card, ...], ...]
    trump_card: Card | None


@dataclass(frozen=True, slots=True)
class BidPlaced:
    hand: int
    seat: int
    bid: int
    forced: bool = False


@dataclass(frozen=True, slots=True)
class CardPlayed:
    hand: int
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken:
    hand: int
    trick: int
    leader: int
    # In the order played, starting with the leader's card.
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class HandScored:
    hand: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    # Points for the hand alone, then the streak bonus or penalty it earned.
    points: tuple[int, ...]
    streak_points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealRecorded:
    """A deal played with real cards, as its table wrote it down: each seat's bid and
    the tricks each made (by seat). ``by``: the seat that entered it; None, the
    director."""

    hand: int
    dealer: int
    cards: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    by: int | None


@dataclass(frozen=True, slots=True)
class DealCorrected:
    """A recorded deal written anew; the deals from it on are scored again (the
    ``HandScored`` events that follow it)."""

    hand: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    reason: str
    by: int | None


@dataclass(frozen=True, slots=True)
class DealConfirmed:
    """Another seat than the one that wrote a deal (or the director) agrees with it."""

    hand: int
    by: int | None


@dataclass(frozen=True, slots=True)
class ZeroPlayAnnounced:
    seat: int
    hands_dealt: int


@dataclass(frozen=True, slots=True)
class TimeCalled:
    """Time was called: the game is played to ``deals`` deals (fewer than its
    schedule's), and its result is the scores of those."""

    deals: int


@dataclass(frozen=True, slots=True)
class GameFinished:
    scores: tuple[int, ...]
    # Place by seat, 1 = first; tied players share a place.
    places: tuple[int, ...]
    zero_play_winners: tuple[int, ...]


Event = (
    GameStarted
    | OneCardModeChosen
    | HandDealt
    | BidPlaced
    | CardPlayed
    | TrickTaken
    | HandScored
    | DealRecorded
    | DealCorrected
    | DealConfirmed
    | ZeroPlayAnnounced
    | TimeCalled
    | GameFinished
)

_CODEC: EventCodec[Event] = EventCodec(typing.get_args(Event), {RuleOptions: options_from_dict})
EVENT_TYPES: dict[str, type[Event]] = _CODEC.types


def event_type(event: Event) -> str:
    return type(event).__name__


def to_payload(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict (cards in the compact notation)."""
    return payloads.to_payload(event)


def from_payload(type_name: str, payload: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`event_type` and :func:`to_payload`."""
    return _CODEC.from_payload(type_name, payload)
