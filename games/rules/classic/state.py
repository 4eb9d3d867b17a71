"""Classic Whist's state and the fold of events into it.

``apply`` and ``evolve`` never change the state they are given; replaying a whole
log folds into one private state in place. Both run the same appliers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.rules.cards import SUITS, Card, Suit
from games.rules.classic.events import (
    ClassicEvent,
    GameWon,
    HandDealt,
    HandScored,
    MatchFinished,
    MatchStarted,
)
from games.rules.classic.options import ClassicOptions
from games.rules.classic.table import PLAYERS, add_sides, side
from games.rules.events import CardPlayed, TrickTaken


class Phase(StrEnum):
    NOT_STARTED = "not-started"
    DEALING = "dealing"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class ClassicState:
    options: ClassicOptions = field(default_factory=ClassicOptions)
    first_dealer: int = 0
    phase: Phase = Phase.NOT_STARTED
    # The current hand, or the next to be dealt, counted over the whole match.
    hand: int = 0
    # The current game of a rubber (0, 1, 2); stays 0 in a tournament.
    game: int = 0
    dealt: tuple[tuple[Card, ...], ...] = ()
    holdings: tuple[tuple[Card, ...], ...] = ()
    trump: Suit | None = None
    trump_card: Card | None = None
    # The turned trump while it lies face up: until the dealer plays to the first trick.
    turned_up: Card | None = None
    turn: int = 0
    trick_number: int = 0
    trick_leader: int = 0
    trick: tuple[Card, ...] = ()
    last_trick: TrickTaken | None = None
    # By side, in the hand being played.
    tricks: tuple[int, int] = (0, 0)
    # By side, in the current game (the whole match in a tournament).
    scores: tuple[int, int] = (0, 0)
    games: tuple[int, int] = (0, 0)
    # By side, every point of the match.
    points: tuple[int, int] = (0, 0)
    results: tuple[HandScored, ...] = ()
    # The trump suit of every hand dealt so far (None: no trumps), by hand.
    trumps: tuple[Suit | None, ...] = ()
    game_results: tuple[GameWon, ...] = ()
    winner: int | None = None

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.hand) % PLAYERS

    @property
    def led(self) -> Suit | None:
        return SUITS[self.trick[0] >> 4] if self.trick else None

    @property
    def seat_points(self) -> tuple[int, int, int, int]:
        """Each seat's points over the whole match: those of their side."""
        a, b = self.points
        return (a, b, a, b)

    @property
    def places(self) -> tuple[int, int, int, int]:
        """Each seat's place: 1 for the side ahead (the winner, once there is one;
        before, more games won, then more points), 2 for the other; level sides
        share first place."""
        if self.winner is not None:
            ahead: int | None = self.winner
        else:
            a, b = (self.games[0], self.points[0]), (self.games[1], self.points[1])
            ahead = None if a == b else (0 if a > b else 1)
        first = (1, 2) if ahead == 0 else (2, 1) if ahead == 1 else (1, 1)
        return (first[0], first[1], first[0], first[1])

    def clone(self) -> ClassicState:
        # Every field holds an immutable value, so a shallow copy is a full copy.
        copy = object.__new__(ClassicState)
        copy.__dict__.update(self.__dict__)
        return copy


def _started(state: ClassicState, event: MatchStarted) -> None:
    state.options = event.options
    state.first_dealer = event.first_dealer
    state.phase = Phase.DEALING
    state.turn = state.dealer


def _dealt(state: ClassicState, event: HandDealt) -> None:
    state.dealt = state.holdings = event.hands
    state.trump = event.trump
    state.trumps += (event.trump,)
    state.trump_card = state.turned_up = event.trump_card
    state.tricks = (0, 0)
    state.trick = ()
    state.trick_number = 0
    state.last_trick = None
    state.phase = Phase.PLAYING
    state.turn = state.trick_leader = (event.dealer + 1) % PLAYERS


def _played(state: ClassicState, event: CardPlayed) -> None:
    seat = event.seat
    holdings = list(state.holdings)
    hand = holdings[seat]
    index = hand.index(event.card)
    holdings[seat] = hand[:index] + hand[index + 1 :]
    state.holdings = tuple(holdings)
    state.trick += (event.card,)
    state.turn = (seat + 1) % PLAYERS
    if seat == state.dealer:
        # "The turned trump remains face up on the table until it is dealer's
        # turn to play to the first trick."
        state.turned_up = None


def _trick_taken(state: ClassicState, event: TrickTaken) -> None:
    tricks = list(state.tricks)
    tricks[side(event.winner)] += 1
    state.tricks = (tricks[0], tricks[1])
    state.last_trick = event
    state.trick = ()
    state.trick_number += 1
    state.turn = state.trick_leader = event.winner


def _scored(state: ClassicState, event: HandScored) -> None:
    state.scores = event.totals
    state.points = add_sides(add_sides(state.points, event.trick_points), event.honour_points)
    state.results += (event,)
    state.hand += 1
    state.dealt = state.holdings = ()
    state.trump = state.trump_card = state.turned_up = None
    state.trick = ()
    state.trick_number = 0
    state.phase = Phase.DEALING
    state.turn = state.dealer


def _game_won(state: ClassicState, event: GameWon) -> None:
    state.games = event.games
    state.game_results += (event,)
    state.scores = (0, 0)
    state.game += 1


def _finished(state: ClassicState, event: MatchFinished) -> None:
    state.phase = Phase.FINISHED
    state.winner = event.winner


_APPLIERS: dict[type[Any], Callable[[ClassicState, Any], None]] = {
    MatchStarted: _started,
    HandDealt: _dealt,
    CardPlayed: _played,
    TrickTaken: _trick_taken,
    HandScored: _scored,
    GameWon: _game_won,
    MatchFinished: _finished,
}


def apply(state: ClassicState, event: ClassicEvent) -> ClassicState:
    """The state after ``event``; ``state`` itself is left as it was."""
    new = state.clone()
    _APPLIERS[type(event)](new, event)
    return new


def evolve(
    state: ClassicState, events: Iterable[ClassicEvent], *, in_place: bool = False
) -> ClassicState:
    """The state after ``events`` (``in_place`` skips the copy, for an owner of ``state``)."""
    new = state if in_place else state.clone()
    for event in events:
        _APPLIERS[type(event)](new, event)
    return new


def replay(events: Iterable[ClassicEvent]) -> ClassicState:
    """A match's state: the fold of its whole log."""
    return evolve(ClassicState(), events, in_place=True)
