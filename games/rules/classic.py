"""Classic partnership Whist (rules text 003) as a pure library: no Django, no I/O.

Four players in fixed partnerships, partners facing: seats 0 and 2 are side 0,
seats 1 and 3 are side 1 (``side(seat) == seat % 2``). All 52 cards are dealt
one at a time clockwise from the dealer's left, so the last card goes to the
dealer; it is turned for trump (or the trump follows a fixed rotation). The
player left of the dealer leads; follow suit if you can, else play anything
(:mod:`games.rules.play` with ``must_trump=False``); the trick's winner leads.
The side with more tricks scores one point per trick over six.

The match is one game to 5, 7 or 9 points, a rubber (best of three games), or,
in the tournament form, a fixed number of deals. The same shape as the Romanian
engine: ``decide(state, command)`` yields events or raises a typed
:class:`~games.rules.errors.RuleError`; ``apply``/``evolve``/``replay`` fold
events into a :class:`ClassicState`. Hand and trick numbers count from 0 over the
whole match (a rubber's hands run on across its games).

Checking a deal: the deck is the 52 cards in the canonical order (clubs,
diamonds, hearts, spades, each from the 2 up to the ace), shuffled from the
hand's secret by :func:`games.rules.shuffle.shuffled`; card ``i`` of the
shuffled deck goes to seat ``(dealer + 1 + i) % 4``, and card 51 (the dealer's
last) is the turned trump.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from games.rules import payloads
from games.rules.cards import SUITS, Card, Suit, card
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
from games.rules.payloads import EventCodec
from games.rules.play import check_play, legal_cards, winning_index
from games.rules.shuffle import draw, shuffled

__all__ = [
    "DECK",
    "EVENT_TYPES",
    "GAME_TARGETS",
    "HONOUR_RANKS",
    "PLAYERS",
    "PRESETS",
    "PRESET_TITLES",
    "TRICKS",
    "TRUMP_ROTATION",
    "CardPlayed",
    "ClassicEvent",
    "ClassicOptions",
    "ClassicState",
    "Command",
    "DealHand",
    "GameWon",
    "HandDealt",
    "HandScored",
    "MatchFinished",
    "MatchStarted",
    "Phase",
    "PlayCard",
    "StartMatch",
    "TrickTaken",
    "TrumpMethod",
    "apply",
    "deal_trump",
    "decide",
    "event_type",
    "evolve",
    "from_payload",
    "honours_held",
    "legal_plays",
    "max_hands",
    "options_from_dict",
    "preset",
    "replay",
    "score_hand",
    "side",
    "to_payload",
    "visible_hands",
]

PLAYERS = 4
TRICKS = 13
# Tricks over this many are "odd tricks", one point each.
BOOK = 6
MIN_SECRET_BYTES = 16
GAME_TARGETS = (5, 7, 9)
# The honours: the top four trumps, A K Q J.
HONOUR_RANKS = (14, 13, 12, 11)
# "for the first deal hearts are trumps, for the second deal diamonds, then
# spades, then clubs, then hearts again"
TRUMP_ROTATION = (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)
# The standard 52-card pack in the canonical order of :func:`games.rules.cards.deck`.
DECK = tuple(card(rank, suit) for suit in Suit for rank in range(2, 15))


def side(seat: int) -> int:
    """The partnership of ``seat``: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


# --- options ------------------------------------------------------------------


class TrumpMethod(StrEnum):
    # The dealer's last card is turned face up for trump.
    TURNED = "turned"
    # Hearts, diamonds, spades, clubs, then hearts again (whist drives).
    ROTATION = "rotation"


@dataclass(frozen=True, slots=True)
class ClassicOptions:
    trumps: TrumpMethod = TrumpMethod.TURNED
    # With the rotation: every fifth hand is played without trumps.
    no_trump_every_fifth: bool = False
    # A K Q J of trumps: all four held by a side score it 4, three of them 2.
    honours: bool = False
    # Points for game: 5 (British), 7 (American) or 9 (Long Whist).
    target: int = 5
    # Best of three games rather than one game.
    rubber: bool = False
    # The tournament form: this many deals, each side scoring its odd tricks.
    deals: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.trumps, TrumpMethod):
            raise InvalidOptions(f"{self.trumps!r} is not a way to choose trumps")
        if self.no_trump_every_fifth and self.trumps is not TrumpMethod.ROTATION:
            raise InvalidOptions(
                "no-trump every fifth hand needs the fixed rotation of trumps, not the turned card"
            )
        if self.target not in GAME_TARGETS or isinstance(self.target, bool):
            raise InvalidOptions(f"game is 5, 7 or 9 points, not {self.target!r}")
        if self.deals is not None:
            if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
                raise InvalidOptions(
                    f"a tournament plays a fixed number of deals, at least 1, not {self.deals!r}"
                )
            if self.rubber:
                raise InvalidOptions("a tournament plays a fixed number of deals, not a rubber")
            if self.honours:
                raise InvalidOptions(
                    "in a tournament each player's score is the odd tricks of their side: "
                    "honours are not scored"
                )

    @property
    def tournament(self) -> bool:
        return self.deals is not None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict that :func:`options_from_dict` reads back."""
        return {
            "trumps": self.trumps.value,
            "no_trump_every_fifth": self.no_trump_every_fifth,
            "honours": self.honours,
            "target": self.target,
            "rubber": self.rubber,
            "deals": self.deals,
        }


_OPTION_NAMES = frozenset(f.name for f in fields(ClassicOptions))


def options_from_dict(
    data: Mapping[str, Any], base: ClassicOptions | None = None
) -> ClassicOptions:
    """Read options from a JSON-like mapping; absent keys keep ``base``'s values."""
    unknown = sorted(set(data) - _OPTION_NAMES)
    if unknown:
        raise InvalidOptions(f"unknown rule option {unknown[0]!r}")
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "trumps":
            try:
                values[key] = TrumpMethod(value)
            except ValueError as error:
                raise InvalidOptions(f"invalid value {value!r} for rule option 'trumps'") from error
        elif key in ("no_trump_every_fifth", "honours", "rubber"):
            if not isinstance(value, bool):
                raise InvalidOptions(f"invalid value {value!r} for rule option {key!r}")
            values[key] = value
        else:
            if value is None and key == "deals":
                values[key] = None
            elif isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(f"invalid value {value!r} for rule option {key!r}")
            else:
                values[key] = value
    return replace(base or ClassicOptions(), **values)


PRESETS: dict[str, ClassicOptions] = {
    # "In Britain the game was 5 points up, but it was usual to play a rubber";
    # honours "was part of the traditional game".
    "british": ClassicOptions(honours=True, rubber=True),
    # "In America a target of 7 was customary." The text does not say whether
    # honours were counted; they are not here.
    "american": ClassicOptions(target=7),
    # '"Long Whist" in which game was 9 points.'
    "long-whist": ClassicOptions(target=9, honours=True),
    # Fixed trump rotation with a no-trump fifth hand, a fixed number of deals.
    # The text gives no number of deals; 24 is a common whist-drive length.
    "whist-drive": ClassicOptions(trumps=TrumpMethod.ROTATION, no_trump_every_fifth=True, deals=24),
}


PRESET_TITLES: dict[str, str] = {
    "british": "British (5 points, rubber, honours)",
    "american": "American (7 points)",
    "long-whist": "Long Whist (9 points, honours)",
    "whist-drive": "Whist drive (24 deals, rotating trumps)",
}


def max_hands(options: ClassicOptions) -> int:
    """The most hands a match can take: every hand scores at least one odd trick, so
    a game lasts at most ``2 * (target - 1) + 1`` hands, a rubber three games."""
    if options.deals is not None:
        return options.deals
    return (3 if options.rubber else 1) * (2 * options.target - 1)


def preset(name: str) -> ClassicOptions:
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidOptions(
            f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None


# --- commands -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartMatch:
    options: ClassicOptions
    # The first dealer is drawn from it.
    seed: bytes


# DealHand(secret) and PlayCard(seat, card) are the Romanian engine's commands.
Command = StartMatch | DealHand | PlayCard


# --- events -------------------------------------------------------------------


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


# --- state --------------------------------------------------------------------


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
    def player_scores(self) -> tuple[int, int, int, int]:
        """Each seat's score: that of their side."""
        a, b = self.scores
        return (a, b, a, b)

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
    state.points = _add(_add(state.points, event.trick_points), event.honour_points)
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


# --- rules --------------------------------------------------------------------


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


def deal_trump(options: ClassicOptions, hand: int) -> Suit | None:
    """The trump suit of ``hand`` under the fixed rotation (None: no trumps)."""
    if options.no_trump_every_fifth:
        position = hand % 5
        return None if position == 4 else TRUMP_ROTATION[position]
    return TRUMP_ROTATION[hand % 4]


def honours_held(hands: tuple[tuple[Card, ...], ...], trump: Suit | None) -> tuple[int, int]:
    """How many of the A K Q J of trumps each side held as dealt."""
    if trump is None:
        return (0, 0)
    honours = {card(rank, trump) for rank in HONOUR_RANKS}
    held = [0, 0]
    for seat, hand in enumerate(hands):
        held[side(seat)] += sum(1 for c in hand if c in honours)
    return (held[0], held[1])


def _honour_value(held: int) -> int:
    return {4: 4, 3: 2}.get(held, 0)


def score_hand(
    options: ClassicOptions,
    scores: tuple[int, int],
    tricks: tuple[int, int],
    honours: tuple[int, int],
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Trick points, honour points and new totals, from the scores at the start of the hand.

    Tricks are scored first: once they take a side to game, honours are not
    scored; nor are they by a side that started the hand one point short of game.
    """
    taker = 0 if tricks[0] > tricks[1] else 1
    odd = tricks[taker] - BOOK
    trick_points = (odd, 0) if taker == 0 else (0, odd)
    after_tricks = _add(scores, trick_points)
    honour_points = (0, 0)
    if options.honours and max(after_tricks) < options.target:
        honour_points = (
            _honour_value(honours[0]) if scores[0] < options.target - 1 else 0,
            _honour_value(honours[1]) if scores[1] < options.target - 1 else 0,
        )
    return trick_points, honour_points, _add(after_tricks, honour_points)


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
    points = _add(_add(state.points, trick_points), honour_points)
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
