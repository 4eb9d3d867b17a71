"""Deciding commands: a command is checked against a state and yields events.

``decide`` never changes the state; fold its events with
:func:`games.rules.state.evolve`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.rules.bidding import allowed_bids, check_bid
from games.rules.cards import Card, deck
from games.rules.commands import (
    AnnounceZeroPlay,
    CallTime,
    ChooseOneCardMode,
    Command,
    ConfirmDeal,
    CorrectDeal,
    DealHand,
    PlaceBid,
    PlayCard,
    RecordDeal,
    StartGame,
)
from games.rules.errors import (
    GameOver,
    InvalidOneCardMode,
    InvalidSecret,
    NoSuchSeat,
    NotTheDealer,
    NotYourTurn,
    RecordedTable,
    RuleError,
    TimeAlreadyCalled,
    WrongPhase,
    ZeroPlayNotAllowed,
)
from games.rules.events import (
    BidPlaced,
    CardPlayed,
    Event,
    GameStarted,
    HandDealt,
    HandScored,
    OneCardModeChosen,
    TimeCalled,
    TrickTaken,
    ZeroPlayAnnounced,
)
from games.rules.options import Visibility
from games.rules.play import check_play, legal_cards, winning_index
from games.rules.recording import confirm, correct, record
from games.rules.schedule import build_schedule, check_player_count, zero_play_deadline
from games.rules.scoring import game_finished, scored_hand
from games.rules.shuffle import draw, shuffled
from games.rules.state import GameState, Phase

MIN_SECRET_BYTES = 16

_PHASE_RULES = {
    Phase.NOT_STARTED: "the game has not started",
    Phase.CHOOSING_MODE: "the dealer must first choose how this one-card hand is played",
    Phase.DEALING: "the next hand has not been dealt",
    Phase.BIDDING: "the bidding is not over",
    Phase.PLAYING: "the bidding is over",
}


def _require_phase(state: GameState, phase: Phase) -> None:
    if state.phase is phase:
        return
    if state.phase is Phase.FINISHED:
        raise GameOver()
    raise WrongPhase(_PHASE_RULES[state.phase])


def _require_seat(state: GameState, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.player_count:
        raise NoSuchSeat(seat, state.player_count)


def _require_turn(state: GameState, seat: int) -> None:
    if seat != state.turn or type(seat) is not int:
        _require_seat(state, seat)
        raise NotYourTurn(seat, state.turn)


def _start(state: GameState, command: StartGame) -> tuple[Event, ...]:
    if state.phase is not Phase.NOT_STARTED:
        raise WrongPhase("the game has already started")
    check_player_count(command.player_count)
    build_schedule(command.options, command.player_count)
    first_dealer = draw(command.player_count, command.seed)
    return (GameStarted(command.player_count, command.options, first_dealer, command.recorded),)


def _choose_mode(state: GameState, command: ChooseOneCardMode) -> tuple[Event, ...]:
    _require_phase(state, Phase.CHOOSING_MODE)
    _require_seat(state, command.seat)
    if command.seat != state.dealer:
        raise NotTheDealer(command.seat, state.dealer)
    if not isinstance(command.visibility, Visibility):
        raise InvalidOneCardMode(command.visibility)
    return (OneCardModeChosen(state.hand, command.seat, command.visibility),)


def _deal(state: GameState, command: DealHand) -> tuple[Event, ...]:
    _require_phase(state, Phase.DEALING)
    if not isinstance(command.secret, bytes) or len(command.secret) < MIN_SECRET_BYTES:
        raise InvalidSecret(f"a deal secret must be at least {MIN_SECRET_BYTES} bytes")
    n, spec, dealer = state.player_count, state.spec, state.dealer
    cards = shuffled(deck(n), command.secret)
    dealt = n * spec.cards
    hands = tuple(tuple(sorted(cards[(seat - dealer - 1) % n : dealt : n])) for seat in range(n))
    trump_card = cards[dealt] if spec.has_trump else None
    visibility = spec.visibility or state.visibility or Visibility.OPEN
    events: list[Event] = [HandDealt(state.hand, dealer, spec.cards, visibility, hands, trump_card)]
    if spec.forced_bid is not None:
        events.extend(
            BidPlaced(state.hand, (dealer + 1 + i) % n, spec.forced_bid, forced=True)
            for i in range(n)
        )
    return tuple(events)


def _bids_before(state: GameState) -> int:
    return sum(bid for bid in state.bids if bid is not None)


def _bid(state: GameState, command: PlaceBid) -> tuple[Event, ...]:
    _require_phase(state, Phase.BIDDING)
    _require_turn(state, command.seat)
    check_bid(command.bid, state.cards, _bids_before(state), command.seat == state.dealer)
    return (BidPlaced(state.hand, command.seat, command.bid),)


def _play(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    _require_phase(state, Phase.PLAYING)
    seat, card = command.seat, command.card
    _require_turn(state, seat)
    trick, trump_card = state.trick, state.trump_card
    trump = None if trump_card is None else trump_card >> 4
    led = trick[0] >> 4 if trick else None
    check_play(state.holdings[seat], card, led, trump, state.options.must_trump)
    played = CardPlayed(state.hand, seat, card)
    trick += (card,)
    n = state.player_count
    if len(trick) < n:
        return (played,)
    leader = state.trick_leader
    winner = (leader + winning_index(trick, trump)) % n
    taken = TrickTaken(state.hand, state.trick_number, leader, trick, winner)
    if state.trick_number + 1 < state.cards:
        return (played, taken)
    tricks = list(state.tricks)
    tricks[winner] += 1
    scored = _score_hand(state, tuple(tricks))
    if state.hand + 1 < state.deals_to_play:
        return (played, taken, scored)
    return (played, taken, scored, game_finished(scored.totals, state.zero_play))


def _score_hand(state: GameState, tricks: tuple[int, ...]) -> HandScored:
    bids = tuple(bid or 0 for bid in state.bids)
    return scored_hand(
        state.options, state.cards, state.hand, bids, tricks, state.scores, state.hits, state.misses
    )


def _announce_zero_play(state: GameState, command: AnnounceZeroPlay) -> tuple[Event, ...]:
    if state.phase is Phase.NOT_STARTED:
        raise WrongPhase(_PHASE_RULES[Phase.NOT_STARTED])
    if state.phase is Phase.FINISHED:
        raise GameOver()
    _require_seat(state, command.seat)
    if state.options.zero_play is None:
        raise ZeroPlayNotAllowed("zero play is not played at this table")
    if state.zero_play[command.seat]:
        raise ZeroPlayNotAllowed("you have already announced zero play")
    deadline = zero_play_deadline(state.options, state.schedule)
    if state.hands_dealt > deadline:
        raise ZeroPlayNotAllowed(
            f"too late: zero play must be announced before deal {deadline + 1} is dealt"
        )
    return (ZeroPlayAnnounced(command.seat, state.hands_dealt),)


def call_time(state: GameState, command: CallTime) -> tuple[Event, ...]:
    """The deal in progress (dealt here, or at a table in the room the one to be
    recorded next) is the last; between deals played here the game ends now, with
    the scores of the deals played."""
    if state.phase is Phase.NOT_STARTED:
        raise WrongPhase(_PHASE_RULES[Phase.NOT_STARTED])
    if state.phase is Phase.FINISHED:
        raise GameOver()
    if state.time_called is not None:
        raise TimeAlreadyCalled()
    in_progress = state.recorded or state.phase in (Phase.BIDDING, Phase.PLAYING)
    if in_progress:
        return (TimeCalled(state.hand + 1),)
    return (TimeCalled(state.hand), game_finished(state.scores, state.zero_play))


_DECIDERS: dict[type[Any], Callable[[GameState, Any], tuple[Event, ...]]] = {
    StartGame: _start,
    ChooseOneCardMode: _choose_mode,
    DealHand: _deal,
    PlaceBid: _bid,
    PlayCard: _play,
    AnnounceZeroPlay: _announce_zero_play,
    RecordDeal: record,
    CorrectDeal: correct,
    ConfirmDeal: confirm,
    CallTime: call_time,
}
# What only a table played here does: a table in the room plays its cards itself.
_PLAYED_HERE = frozenset({ChooseOneCardMode, DealHand, PlaceBid, PlayCard})


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events that ``command`` produces, or the :class:`RuleError` it breaks."""
    decider = _DECIDERS.get(type(command))
    if decider is None:
        raise RuleError(f"{type(command).__name__} is not a command of this game")
    if state.recorded and type(command) in _PLAYED_HERE:
        raise RecordedTable()
    return decider(state, command)


def legal_bids(state: GameState) -> tuple[int, ...]:
    """The bids the player to bid may make now (none outside the bidding)."""
    if state.phase is not Phase.BIDDING:
        return ()
    return allowed_bids(state.cards, _bids_before(state), state.turn == state.dealer)


def legal_plays(state: GameState) -> tuple[Card, ...]:
    """The cards the player to play may play now (none outside the play)."""
    if state.phase is not Phase.PLAYING:
        return ()
    return legal_cards(state.holdings[state.turn], state.led, state.trump, state.options.must_trump)


def visible_holdings(state: GameState, viewer: int | None) -> tuple[tuple[Card, ...] | None, ...]:
    """Each seat's cards as ``viewer`` may see them (None: hidden).

    A player sees their own cards, except on the forehead (where they see
    everyone else's instead) and in a blind hand until the bidding is over.
    A spectator (``viewer`` None) sees nobody's: on the forehead that would
    tell a player their own card.
    """
    if viewer is None:
        return (None,) * len(state.holdings)
    visibility = state.visibility
    if visibility is Visibility.FOREHEAD:
        return tuple(None if seat == viewer else cards for seat, cards in enumerate(state.holdings))
    own_hidden = visibility is Visibility.BLIND and state.phase is Phase.BIDDING
    return tuple(
        cards if seat == viewer and not own_hidden else None
        for seat, cards in enumerate(state.holdings)
    )
