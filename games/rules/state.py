"""Game state and the fold of events into it.

``apply`` and ``evolve`` never change the state they are given. Replaying a
whole log folds into one private state in place, which is what makes replay
cheap; both paths run the same appliers, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.rules.cards import SUITS, Card, Suit
from games.rules.events import (
    BidPlaced,
    CardPlayed,
    DealConfirmed,
    DealCorrected,
    DealRecorded,
    Event,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    OneCardModeChosen,
    TimeCalled,
    TrickTaken,
    ZeroPlayAnnounced,
)
from games.rules.options import RuleOptions, Visibility
from games.rules.schedule import DealSpec, build_schedule
from games.rules.scoring import advance_streaks, streaks_before


class Phase(StrEnum):
    NOT_STARTED = "not-started"
    # The dealer of a one-card hand chooses how it is played.
    CHOOSING_MODE = "choosing-mode"
    DEALING = "dealing"
    BIDDING = "bidding"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class GameState:
    options: RuleOptions = field(default_factory=RuleOptions)
    player_count: int = 0
    schedule: tuple[DealSpec, ...] = ()
    first_dealer: int = 0
    phase: Phase = Phase.NOT_STARTED
    # The current hand, or the next to be dealt.
    hand: int = 0
    visibility: Visibility | None = None
    dealt: tuple[tuple[Card, ...], ...] = ()
    holdings: tuple[tuple[Card, ...], ...] = ()
    trump_card: Card | None = None
    bids: tuple[int | None, ...] = ()
    turn: int = 0
    trick_number: int = 0
    trick_leader: int = 0
    trick: tuple[Card, ...] = ()
    last_trick: TrickTaken | None = None
    tricks: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    hits: tuple[int, ...] = ()
    misses: tuple[int, ...] = ()
    zero_play: tuple[bool, ...] = ()
    results: tuple[HandScored, ...] = ()
    places: tuple[int, ...] = ()
    # A table in the room: deals recorded, not played. By recorded deal: the seat
    # that wrote it last (None: the director), and whether it stands confirmed.
    recorded: bool = False
    entered_by: tuple[int | None, ...] = ()
    confirmed: tuple[bool, ...] = ()
    # Time called: the game ends after this many deals (None: the whole schedule).
    time_called: int | None = None

    @property
    def deals_to_play(self) -> int:
        """How many deals the game is played to: its schedule's, or fewer once time
        was called."""
        return len(self.schedule) if self.time_called is None else self.time_called

    @property
    def spec(self) -> DealSpec:
        return self.schedule[self.hand]

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.hand) % self.player_count

    @property
    def cards(self) -> int:
        return self.schedule[self.hand].cards

    @property
    def trump(self) -> Suit | None:
        return None if self.trump_card is None else SUITS[self.trump_card >> 4]

    @property
    def hands_dealt(self) -> int:
        in_hand = self.phase in (Phase.BIDDING, Phase.PLAYING)
        return self.hand + 1 if in_hand else self.hand

    @property
    def led(self) -> Suit | None:
        return SUITS[self.trick[0] >> 4] if self.trick else None

    def clone(self) -> GameState:
        # Every field holds an immutable value, so a shallow copy is a full copy.
        copy = object.__new__(GameState)
        copy.__dict__.update(self.__dict__)
        return copy


def _started(state: GameState, event: GameStarted) -> None:
    n = event.player_count
    state.options = event.options
    state.player_count = n
    state.schedule = build_schedule(event.options, n)
    state.first_dealer = event.first_dealer
    state.recorded = event.recorded
    state.scores = state.hits = state.misses = (0,) * n
    state.zero_play = (False,) * n
    _await_next_hand(state)


def _await_next_hand(state: GameState) -> None:
    state.visibility = None
    state.dealt = state.holdings = ()
    state.trump_card = None
    state.bids = state.tricks = ()
    state.trick = ()
    state.trick_number = 0
    state.last_trick = None
    if state.hand >= state.deals_to_play:
        state.phase = Phase.FINISHED
        return
    spec = state.spec
    state.visibility = spec.visibility
    # A deal played with real cards is chosen at the table; here it is only awaited.
    choosing = spec.visibility is None and not state.recorded
    state.phase = Phase.CHOOSING_MODE if choosing else Phase.DEALING
    state.turn = state.dealer


def _mode_chosen(state: GameState, event: OneCardModeChosen) -> None:
    state.visibility = event.visibility
    state.phase = Phase.DEALING


def _dealt(state: GameState, event: HandDealt) -> None:
    n = state.player_count
    state.visibility = event.visibility
    state.dealt = state.holdings = event.hands
    state.trump_card = event.trump_card
    state.bids = (None,) * n
    state.tricks = (0,) * n
    state.phase = Phase.BIDDING
    state.turn = state.trick_leader = (event.dealer + 1) % n


def _bid(state: GameState, event: BidPlaced) -> None:
    seat = event.seat
    bids = list(state.bids)
    bids[seat] = event.bid
    state.bids = tuple(bids)
    state.turn = (seat + 1) % state.player_count
    if seat == state.dealer:
        state.phase = Phase.PLAYING


def _played(state: GameState, event: CardPlayed) -> None:
    seat = event.seat
    holdings = list(state.holdings)
    hand = holdings[seat]
    index = hand.index(event.card)
    holdings[seat] = hand[:index] + hand[index + 1 :]
    state.holdings = tuple(holdings)
    state.trick += (event.card,)
    state.turn = (seat + 1) % state.player_count


def _trick_taken(state: GameState, event: TrickTaken) -> None:
    tricks = list(state.tricks)
    tricks[event.winner] += 1
    state.tricks = tuple(tricks)
    state.last_trick = event
    state.trick = ()
    state.trick_number += 1
    state.turn = state.trick_leader = event.winner


def _scored(state: GameState, event: HandScored) -> None:
    if event.hand < state.hand:
        _rescored(state, event)
        return
    made = [bid == tricks for bid, tricks in zip(event.bids, event.tricks, strict=True)]
    state.hits, state.misses, _ = advance_streaks(
        state.options, state.cards, made, state.hits, state.misses
    )
    state.scores = event.totals
    state.results += (event,)
    state.hand += 1
    _await_next_hand(state)


def _rescored(state: GameState, event: HandScored) -> None:
    """A recorded deal scored again after a correction (the deals after it follow)."""
    results = list(state.results)
    results[event.hand] = event
    state.results = tuple(results)
    state.scores = results[-1].totals
    cards = [state.schedule[number].cards for number in range(len(results))]
    deals = [(result.bids, result.tricks) for result in results]
    state.hits, state.misses = streaks_before(state.options, cards, deals)[-1]


def _deal_recorded(state: GameState, event: DealRecorded) -> None:
    state.bids = event.bids
    state.tricks = event.tricks
    state.entered_by += (event.by,)
    # The director's word needs nobody's confirmation.
    state.confirmed += (event.by is None,)


def _deal_corrected(state: GameState, event: DealCorrected) -> None:
    entered_by, confirmed = list(state.entered_by), list(state.confirmed)
    entered_by[event.hand], confirmed[event.hand] = event.by, event.by is None
    state.entered_by, state.confirmed = tuple(entered_by), tuple(confirmed)


def _deal_confirmed(state: GameState, event: DealConfirmed) -> None:
    confirmed = list(state.confirmed)
    confirmed[event.hand] = True
    state.confirmed = tuple(confirmed)


def _zero_play(state: GameState, event: ZeroPlayAnnounced) -> None:
    flags = list(state.zero_play)
    flags[event.seat] = True
    state.zero_play = tuple(flags)


def _time_called(state: GameState, event: TimeCalled) -> None:
    state.time_called = event.deals


def _finished(state: GameState, event: GameFinished) -> None:
    state.phase = Phase.FINISHED
    state.places = event.places


_APPLIERS: dict[type[Any], Callable[[GameState, Any], None]] = {
    GameStarted: _started,
    OneCardModeChosen: _mode_chosen,
    HandDealt: _dealt,
    BidPlaced: _bid,
    CardPlayed: _played,
    TrickTaken: _trick_taken,
    HandScored: _scored,
    DealRecorded: _deal_recorded,
    DealCorrected: _deal_corrected,
    DealConfirmed: _deal_confirmed,
    ZeroPlayAnnounced: _zero_play,
    TimeCalled: _time_called,
    GameFinished: _finished,
}


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``; ``state`` itself is left as it was."""
    new = state.clone()
    _APPLIERS[type(event)](new, event)
    return new


def evolve(state: GameState, events: Iterable[Event], *, in_place: bool = False) -> GameState:
    """The state after ``events``, copying ``state`` once rather than per event.

    ``in_place`` skips even that copy, for a caller that owns ``state`` and will
    not look at it again (replaying a log, playing a game through).
    """
    new = state if in_place else state.clone()
    appliers = _APPLIERS
    for event in events:
        appliers[type(event)](new, event)
    return new


def replay(events: Iterable[Event]) -> GameState:
    """A game's state: the fold of its whole log."""
    return evolve(GameState(), events, in_place=True)
