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


Command = StartGame | ChooseOneCardMode | DealHand | PlaceBid | PlayCard | AnnounceZeroPlay
