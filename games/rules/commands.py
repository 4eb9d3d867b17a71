"""Commands: what a player (or the server) asks of a game; decided into events."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.cards import Card
from games.rules.options import RuleOptions, Visibility


@dataclass(frozen=True, slots=True)
class StartGame:
    player_count: int
    options: RuleOptions
    # The first dealer is drawn from it.
    seed: bytes
    # A table in the room, whose deals are recorded rather than played here.
    recorded: bool = False


@dataclass(frozen=True, slots=True)
class ChooseOneCardMode:
    """The dealer of a one-card hand chooses, before dealing, how it is played."""

    seat: int
    visibility: Visibility


@dataclass(frozen=True, slots=True)
class DealHand:
    """Deal the next hand, shuffled from ``secret`` (see :mod:`games.rules.shuffle`)."""

    secret: bytes


@dataclass(frozen=True, slots=True)
class PlaceBid:
    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class PlayCard:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class AnnounceZeroPlay:
    seat: int


@dataclass(frozen=True, slots=True)
class RecordDeal:
    """Write down the next deal of a table in the room: bids and tricks by seat.
    ``by``: the seat entering it; None, the director."""

    hand: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    by: int | None


@dataclass(frozen=True, slots=True)
class CorrectDeal:
    """Write a recorded deal anew; a confirmed one only with a reason."""

    hand: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    reason: str
    by: int | None


@dataclass(frozen=True, slots=True)
class ConfirmDeal:
    hand: int
    by: int | None


@dataclass(frozen=True, slots=True)
class CallTime:
    """The round's time is up: the deal in progress is finished, and no deal is
    dealt (or recorded) after it; between deals, the game ends at once."""


Command = (
    StartGame
    | ChooseOneCardMode
    | DealHand
    | PlaceBid
    | PlayCard
    | AnnounceZeroPlay
    | RecordDeal
    | CorrectDeal
    | ConfirmDeal
    | CallTime
)
