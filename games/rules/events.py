"""Events: the immutable facts a game is folded from, and their JSON payloads.

Hand and trick numbers count from 0; seats are numbered clockwise from 0.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields
from typing import Any

from games.rules.cards import Card, parse_card
from games.rules.options import RuleOptions, Visibility, options_from_dict

SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class GameStarted:
    player_count: int
    options: RuleOptions
    first_dealer: int


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
class ZeroPlayAnnounced:
    seat: int
    hands_dealt: int


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
    | ZeroPlayAnnounced
    | GameFinished
)

EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in typing.get_args(Event)}


def event_type(event: Event) -> str:
    return type(event).__name__


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Visibility):
        return value.value
    if isinstance(value, RuleOptions):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def to_payload(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict (cards in the compact notation)."""
    return {f.name: _encode(getattr(event, f.name)) for f in fields(event)}


def _decoder(hint: Any) -> typing.Callable[[Any], Any]:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Card:
        return parse_card
    if hint is Visibility:
        return Visibility
    if hint is RuleOptions:
        return options_from_dict
    if origin is tuple:
        item = _decoder(args[0])
        return lambda value: tuple(item(v) for v in value)
    if type(None) in args:
        inner = _decoder(next(arg for arg in args if arg is not type(None)))
        return lambda value: None if value is None else inner(value)
    return lambda value: value


_DECODERS: dict[str, dict[str, typing.Callable[[Any], Any]]] = {
    name: {field: _decoder(hint) for field, hint in typing.get_type_hints(cls).items()}
    for name, cls in EVENT_TYPES.items()
}


def from_payload(type_name: str, payload: dict[str, Any]) -> Event:
    """Rebuild an event from :func:`event_type` and :func:`to_payload`."""
    decoders = _DECODERS[type_name]
    return EVENT_TYPES[type_name](
        **{name: decode(payload[name]) for name, decode in decoders.items()}
    )
