"""Deciding classic Whist's commands: a command is checked against a state and
yields events, or raises a typed :class:`~games.rules.errors.RuleError`.

``decide`` never changes the state; fold its events with
:func:`games.rules.classic.state.evolve`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.rules.cards import SUITS, Card, Suit
from games.rules.classic.commands import Command, StartMatch
from games.rules.classic.events import (
    ClassicEvent,
    GameWon,
    HandDealt,
    HandScored,
    MatchFinished,
    MatchStarted,
)
from games.rules.classic.options import ClassicOptions, TrumpMethod
from games.rules.classic.scoring import honours_held, score_hand
from games.rules.classic.state import ClassicState, Phase
from games.rules.classic.table import DECK, PLAYERS, TRICKS, add_sides, side
from games.rules.commands import DealHand, PlayCard
from games.rules.errors import (
    GameOver,
    InvalidOptions,
    InvalidSecret,
    NoSuchSeat,
    NotInThisGame,
    NotYourTurn,
    WrongPhase,
)
from games.rules.events import CardPlayed, TrickTaken
from games.rules.play import check_play, legal_cards, winning_index
from games.rules.shuffle import draw, shuffled

MIN_SECRET_BYTES = 16
# "for the first deal hearts are trumps, for the second deal diamonds, then
# spades, then clubs, then hearts again"
TRUMP_ROTATION = (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)


def deal_trump(options: ClassicOptions, hand: int) -> Suit | None:
    """The trump suit of ``hand`` under the fixed rotation (None: no trumps)."""
    if options.no_trump_every_fifth:
        position = hand % 5
        return None if position == 4 else TRUMP_ROTATION[position]
    return TRUMP_ROTATION[hand % 4]


_PHASE_RULES = {
    Phase.NOT_STARTED: "the match has not started",
    Phase.DEALING: "the next hand has not been dealt",
    Phase.PLAYING: "the hand is being played",
}


def _require_phase(state: ClassicState, phase: Phase) -> None:
    if state.phase is phase:
        return
    if state.phase is Phase.FINISHED:
        raise GameOver()
    raise WrongPhase(_PHASE_RULES[state.phase])


def _start(state: ClassicState, command: StartMatch) -> tuple[ClassicEvent, ...]:
    if state.phase is not Phase.NOT_STARTED:
        raise WrongPhase("the match has already started")
    if not isinstance(command.options, ClassicOptions):
        raise InvalidOptions("classic whist needs ClassicOptions")
    return (MatchStarted(command.options, draw(PLAYERS, command.seed)),)


def _deal(state: ClassicState, command: DealHand) -> tuple[ClassicEvent, ...]:
    _require_phase(state, Phase.DEALING)
    if not isinstance(command.secret, bytes) or len(command.secret) < MIN_SECRET_BYTES:
        raise InvalidSecret(f"a deal secret must be at least {MIN_SECRET_BYTES} bytes")
    dealer = state.dealer
    cards = shuffled(DECK, command.secret)
    # One at a time from the dealer's left: card i to seat dealer + 1 + i.
    hands = tuple(
        tuple(sorted(cards[(seat - dealer - 1) % PLAYERS :: PLAYERS])) for seat in range(PLAYERS)
    )
    if state.options.trumps is TrumpMethod.TURNED:
        trump_card: Card | None = cards[-1]
        trump: Suit | None = SUITS[cards[-1] >> 4]
    else:
        trump_card, trump = None, deal_trump(state.options, state.hand)
    return (HandDealt(state.hand, dealer, hands, trump, trump_card),)


def _play(state: ClassicState, command: PlayCard) -> tuple[ClassicEvent, ...]:
    _require_phase(state, Phase.PLAYING)
    seat = command.seat
    if seat != state.turn or type(seat) is not int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise NoSuchSeat(seat, PLAYERS)
        raise NotYourTurn(seat, state.turn)
    trick, trump = state.trick, state.trump
    led = trick[0] >> 4 if trick else None
    check_play(state.holdings[seat], command.card, led, trump, False)
    played = CardPlayed(state.hand, seat, command.card)
    trick += (command.card,)
    if len(trick) < PLAYERS:
        return (played,)
    leader = state.trick_leader
    winner = (leader + winning_index(trick, trump)) % PLAYERS
    taken = TrickTaken(state.hand, state.trick_number, leader, trick, winner)
    if state.trick_number + 1 < TRICKS:
        return (played, taken)
    tricks = list(state.tricks)
    tricks[side(winner)] += 1
    return (played, taken, *_end_of_hand(state, (tricks[0], tricks[1])))


def _end_of_hand(state: ClassicState, tricks: tuple[int, int]) -> tuple[ClassicEvent, ...]:
    options = state.options
    honours = honours_held(state.dealt, state.trump)
    trick_points, honour_points, totals = score_hand(options, state.scores, tricks, honours)
    scored = HandScored(state.hand, tricks, trick_points, honours, honour_points, totals)
    points = add_sides(add_sides(state.points, trick_points), honour_points)
    if options.deals is not None:
        if state.hand + 1 < options.deals:
            return (scored,)
        winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        return (scored, MatchFinished(winner, state.games, points))
    if max(totals) < options.target:
        return (scored,)
    # Only one side can reach game in a hand: tricks are scored first and end it.
    game_winner = 0 if totals[0] >= options.target else 1
    games = list(state.games)
    games[game_winner] += 1
    won = GameWon(state.game, game_winner, totals, (games[0], games[1]))
    if games[game_winner] < (2 if options.rubber else 1):
        return (scored, won)
    return (scored, won, MatchFinished(game_winner, won.games, points))


_DECIDERS: dict[type[Any], Callable[[ClassicState, Any], tuple[ClassicEvent, ...]]] = {
    StartMatch: _start,
    DealHand: _deal,
    PlayCard: _play,
}


def decide(state: ClassicState, command: Command) -> tuple[ClassicEvent, ...]:
    """The events that ``command`` produces, or the :class:`RuleError` it breaks."""
    decider = _DECIDERS.get(type(command))
    if decider is None:
        raise NotInThisGame(
            f"classic whist has no {type(command).__name__}: players only play cards"
        )
    return decider(state, command)


def legal_plays(state: ClassicState) -> tuple[Card, ...]:
    """The cards the player to play may play now (none outside the play)."""
    if state.phase is not Phase.PLAYING:
        return ()
    return legal_cards(state.holdings[state.turn], state.led, state.trump, False)


def visible_hands(state: ClassicState, seat: int | None) -> tuple[tuple[Card, ...], ...]:
    """The cards of each seat's hand that ``seat`` can see (None: a spectator).

    A player sees their own hand; everyone sees the turned trump in the dealer's
    hand while it lies face up, until the dealer plays to the first trick.
    """
    if not state.holdings:
        return ((),) * PLAYERS
    dealer, turned = state.dealer, state.turned_up
    return tuple(
        cards if owner == seat else ((turned,) if owner == dealer and turned is not None else ())
        for owner, cards in enumerate(state.holdings)
    )
