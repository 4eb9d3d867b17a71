"""A table: the events around the rules (creation, seating, deal commitments) and the
fold of a game's whole stream, table and rules events alike, into one state.

The rules themselves stay in :mod:`games.rules`; this module only knows who sits
where and which deal secrets were promised and revealed, and which of the two
games a table plays: Romanian Whist (:mod:`games.rules`) or classic partnership
Whist (:mod:`games.rules.classic`).
"""

from __future__ import annotations

import typing
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games import rules
from games.rules import Card, GameState, Phase, RuleOptions, classic, options_from_dict
from games.rules.classic import ClassicOptions, ClassicState

if TYPE_CHECKING:
    from eventlog.store import Recorded

STREAM_PREFIX = "game:"
# The phases, in both games, in which a player must act (the others are the server's).
ACTING_PHASES = frozenset({"choosing-mode", "bidding", "playing"})
ROMANIAN = "romanian"
CLASSIC = "classic"
GAME_KINDS = (ROMANIAN, CLASSIC)
# Where a table is played: here, in the browser, or in the room with real cards, its
# deals recorded here (a Romanian Whist table only).
ONLINE = "online"
ROOM = "room"
PLACES = (ONLINE, ROOM)
# Stored type names of classic Whist's own events carry this prefix, since some
# share a name with Romanian events (HandDealt, HandScored); the events of the
# shared trick-taking core (CardPlayed, TrickTaken) are the same in both games.
CLASSIC_TYPE_PREFIX = "classic."
_CLASSIC_ONLY = tuple(
    cls for cls in classic.EVENT_TYPES.values() if cls not in (rules.CardPlayed, rules.TrickTaken)
)
CLASSIC_STORED_TYPES = frozenset(CLASSIC_TYPE_PREFIX + cls.__name__ for cls in _CLASSIC_ONLY)


def stream_of(game_id: object) -> str:
    if type(game_id) is uuid.UUID:
        return _stream_of(game_id.int)
    return f"{STREAM_PREFIX}{game_id}"


# A UUID writes itself out in Python: each live move named its game's stream in each
# process several times over.
@lru_cache(maxsize=4096)
def _stream_of(key: int) -> str:
    return f"{STREAM_PREFIX}{uuid.UUID(int=key)}"


def game_key(game_id: uuid.UUID | str) -> int:
    """The game id's integer, for what a process keeps by game: hashed in C, where a
    UUID hashes in Python; a caller holding the id as text (from a URL or a JSON body)
    finds the same."""
    return game_id.int if type(game_id) is uuid.UUID else uuid.UUID(str(game_id)).int


@dataclass(frozen=True, slots=True)
class GameCreated:
    code: str
    player_count: int
    options: dict[str, Any]
    preset: str
    creator_id: int | None
    # Seconds a seat has to act before a bot acts for it; None: no turn timer.
    turn_seconds: int | None = None
    # Seconds spectators lag behind the play (a championship's option).
    spectator_delay: int = 0
    # Tables of one deal set play the same deals (a duplicate championship round).
    deal_set: str | None = None
    # Which game the table plays: ROMANIAN or CLASSIC.
    kind: str = ROMANIAN
    # The finished game whose players asked to play again here (its id, as text).
    rematch_of: str | None = None
    # ONLINE or ROOM.
    place: str = ONLINE
    # Seconds of a person's turn after which a bot stands in for them, playing their
    # seat until they come back; None: never (a championship's option).
    stand_in_seconds: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerSeated:
    seat: int
    user_id: int
    alias: str
    # Zero play announced on joining: where it must be announced at the very start,
    # the game announces it right after starting, before the first deal.
    zero_play: bool = False


@dataclass(frozen=True, slots=True)
class SeatAutomated:
    """A bot plays the seat from now on (``bot`` names it), or no longer (None)."""

    seat: int
    bot: str | None


@dataclass(frozen=True, slots=True)
class DealsCommitted:
    """The seed that draws the first dealer, and the SHA-256 of every hand's secret,
    recorded before any hand is dealt."""

    seed: str
    commitments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DealRevealed:
    """A hand's secret, published once the hand is over."""

    hand: int
    secret: str


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """A substitute took over a seat in play (the director's choice): they play it,
    and see it, from then on; the player who left no longer does."""

    seat: int
    user_id: int
    alias: str


@dataclass(frozen=True, slots=True)
class SeatHandedOver:
    """The seat's player, a guest, signed in to the account they had: the same person
    plays the seat on under that account (decision 3507), under the same alias.
    Unlike a substitute's :class:`SeatTaken`, nobody else took the seat: the deals
    played at it are the account's, which the read models of persons read through the
    guest's record beside the log."""

    seat: int
    from_user: int
    to_user: int


@dataclass(frozen=True, slots=True)
class GamePaused:
    """Nobody may move, and no bot or timer acts, until the game is resumed."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class GameResumed:
    pass


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """The player of ``seat`` got up before the game started: the seat is free again,
    and no bot plays it."""

    seat: int


@dataclass(frozen=True, slots=True)
class TableCancelled:
    """The creator called the table off before it started: nobody may sit or play."""


TableEvent = (
    GameCreated
    | PlayerSeated
    | SeatAutomated
    | DealsCommitted
    | DealRevealed
    | GamePaused
    | GameResumed
    | SeatTaken
    | SeatHandedOver
    | PlayerLeft
    | TableCancelled
)
AnyEvent = TableEvent | rules.Event | classic.ClassicEvent

TABLE_EVENT_TYPES: dict[str, type[TableEvent]] = {
    cls.__name__: cls for cls in typing.get_args(TableEvent)
}
# The fields of a game's events that name a person, with the field naming whose it is
# and what each reads as once that person is erased: the log keeps them beside its
# rows, not in them (eventlog.store.Personal, decision 3503). Names are not rules: the
# fold, the deciders and the verification never read an alias.
ERASED_NAME = "Deleted player"
PERSONAL_FIELDS: dict[str, tuple[tuple[str, str, str], ...]] = {
    PlayerSeated.__name__: (("alias", "user_id", ERASED_NAME),),
    SeatTaken.__name__: (("alias", "user_id", ERASED_NAME),),
}
# The payload schema a game's stream is written with: bumped when a payload's shape
# changes, with an upcaster from the version before (eventlog.store.Codec).
SCHEMA_VERSION = rules.SCHEMA_VERSION


def encode(event: AnyEvent) -> tuple[str, dict[str, Any]]:
    """The stored type name and JSON payload of an event."""
    if isinstance(event, TableEvent):
        payload = asdict(event)
        if isinstance(event, DealsCommitted):
            payload["commitments"] = list(event.commitments)
        return type(event).__name__, payload
    # Romanian Whist's events and the shared core's (CardPlayed, TrickTaken) first:
    # what is left is classic Whist's own, which are stored under the prefix.
    if isinstance(event, rules.Event):
        return rules.event_type(event), rules.to_payload(event)
    return CLASSIC_TYPE_PREFIX + classic.event_type(event), classic.to_payload(event)


# The events that end a game, Romanian or classic: as classes, and as stored type names
# (what the receivers of games.signals are told).
FINISHING = (rules.GameFinished, classic.MatchFinished)
FINISH_EVENTS = frozenset(
    {rules.GameFinished.__name__, CLASSIC_TYPE_PREFIX + classic.MatchFinished.__name__}
)


def decode(type_name: str, payload: dict[str, Any]) -> AnyEvent:
    table_type = TABLE_EVENT_TYPES.get(type_name)
    if type_name.startswith(CLASSIC_TYPE_PREFIX):
        return classic.from_payload(type_name.removeprefix(CLASSIC_TYPE_PREFIX), payload)
    if table_type is None:
        return rules.from_payload(type_name, payload)
    # A field added to an event type since it was stored takes its default.
    values = {f.name: payload[f.name] for f in fields(table_type) if f.name in payload}
    if table_type is DealsCommitted:
        values["commitments"] = tuple(values["commitments"])
    return table_type(**values)


@dataclass(frozen=True, slots=True)
class Seat:
    user_id: int
    alias: str
    zero_play: bool = False


@dataclass
class Table:
    """Everything a game's stream says, folded: the lobby and the rules state."""

    code: str = ""
    kind: str = ROMANIAN
    place: str = ONLINE
    player_count: int = 0
    options: RuleOptions | ClassicOptions = field(default_factory=RuleOptions)
    preset: str = ""
    creator_id: int | None = None
    turn_seconds: int | None = None
    stand_in_seconds: int | None = None
    spectator_delay: int = 0
    deal_set: str | None = None
    rematch_of: str | None = None
    paused: bool = False
    cancelled: bool = False
    seats: tuple[Seat | None, ...] = ()
    # The bot playing each seat, if any.
    bots: tuple[str | None, ...] = ()
    seed: str = ""
    commitments: tuple[str, ...] = ()
    revealed: tuple[str, ...] = ()
    game: GameState | ClassicState = field(default_factory=GameState)
    # The cards played so far in the current hand, in order (what bots may know).
    played: tuple[Card, ...] = ()
    version: int = 0
    # When the log recorded the event at ``version`` (None: folded from events alone):
    # the turn timer of the seat to act runs from it.
    moved_at: datetime | None = None

    @property
    def is_full(self) -> bool:
        return all(seat is not None for seat in self.seats)

    @property
    def status(self) -> str:
        if self.cancelled:
            return "cancelled"
        # Both games name their phases alike. ``_value_``: the member's own attribute;
        # ``value`` is a descriptor that runs Python code, several times a move.
        phase = self.game.phase._value_
        if phase == "not-started":
            return "open"
        return "finished" if phase == "finished" else "playing"

    @property
    def begun(self) -> bool:
        """Whether anything has been played here: a bid (not one a deal sets), a card,
        a deal scored or written down."""
        game = self.game
        if self.played or game.results:
            return True
        if isinstance(game, ClassicState):
            return False
        return game.phase is Phase.PLAYING or (
            game.phase is Phase.BIDDING and game.turn != (game.dealer + 1) % self.player_count
        )

    @property
    def in_room(self) -> bool:
        return self.place == ROOM

    @property
    def is_classic(self) -> bool:
        return self.kind == CLASSIC

    @property
    def romanian_game(self) -> GameState:
        """The rules state of a Romanian Whist table, for what only that game has
        (bids, a schedule of deals); a TypeError on a classic table."""
        if isinstance(self.game, ClassicState):
            raise TypeError(f"table {self.code!r} plays classic Whist, not Romanian Whist")
        return self.game

    @property
    def romanian_options(self) -> RuleOptions:
        """The options of a Romanian Whist table; a TypeError on a classic table."""
        if isinstance(self.options, ClassicOptions):
            raise TypeError(f"table {self.code!r} plays classic Whist, not Romanian Whist")
        return self.options

    @property
    def hands_to_commit(self) -> int:
        """How many deal secrets the table commits to when it starts: its schedule's
        deals, or at classic Whist as many as the match can take (a game to points has
        no set number of hands)."""
        if isinstance(self.options, ClassicOptions):
            return classic.max_hands(self.options)
        return len(rules.build_schedule(self.options, self.player_count))

    @property
    def timer_seconds(self) -> int | None:
        """Seconds a person's turn lasts before a bot acts for them: the shorter of the
        turn timer and the stand-in time, if either runs."""
        timers = [seconds for seconds in (self.turn_seconds, self.stand_in_seconds) if seconds]
        return min(timers) if timers else None

    @property
    def to_act(self) -> int | None:
        """The seat whose move the game waits for (a choice, a bid or a card), if any."""
        return self.game.turn if self.game.phase._value_ in ACTING_PHASES else None

    def clone(self) -> Table:
        # Every field but the rules state holds an immutable value, so a shallow copy
        # is a full copy (and, made without __init__, a fraction of its cost).
        copy = object.__new__(Table)
        copy.__dict__.update(self.__dict__)
        copy.game = self.game.clone()
        return copy

    def seat_of(self, user_id: int | None) -> int | None:
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return number
        return None


def fold(table: Table, events: list[AnyEvent]) -> Table:
    """``table`` after ``events``, changed in place: the caller owns it."""
    for event in events:
        if isinstance(event, GameCreated):
            table.code = event.code
            table.kind = event.kind
            table.place = event.place
            table.player_count = event.player_count
            if event.kind == CLASSIC:
                table.options = classic.options_from_dict(event.options)
                table.game = ClassicState()
            else:
                table.options = options_from_dict(event.options)
            table.preset = event.preset
            table.creator_id = event.creator_id
            table.turn_seconds = event.turn_seconds
            table.stand_in_seconds = event.stand_in_seconds
            table.spectator_delay = event.spectator_delay
            table.deal_set = event.deal_set
            table.rematch_of = event.rematch_of
            table.seats = (None,) * event.player_count
            table.bots = (None,) * event.player_count
        elif isinstance(event, PlayerSeated):
            seats = list(table.seats)
            seats[event.seat] = Seat(event.user_id, event.alias, event.zero_play)
            table.seats = tuple(seats)
        elif isinstance(event, SeatAutomated):
            bots = list(table.bots)
            bots[event.seat] = event.bot
            table.bots = tuple(bots)
        elif isinstance(event, DealsCommitted):
            table.seed = event.seed
            table.commitments = event.commitments
        elif isinstance(event, DealRevealed):
            table.revealed += (event.secret,)
        elif isinstance(event, SeatTaken):
            seats = list(table.seats)
            left = seats[event.seat]
            seats[event.seat] = Seat(event.user_id, event.alias, left.zero_play if left else False)
            table.seats = tuple(seats)
        elif isinstance(event, SeatHandedOver):
            seats = list(table.seats)
            held = seats[event.seat]
            if held is None or held.user_id != event.from_user:
                raise ValueError(f"seat {event.seat} is not user {event.from_user}'s to hand over")
            seats[event.seat] = Seat(event.to_user, held.alias, held.zero_play)
            table.seats = tuple(seats)
        elif isinstance(event, GamePaused | GameResumed):
            table.paused = isinstance(event, GamePaused)
        elif isinstance(event, PlayerLeft):
            seats, bots = list(table.seats), list(table.bots)
            seats[event.seat], bots[event.seat] = None, None
            table.seats, table.bots = tuple(seats), tuple(bots)
        elif isinstance(event, TableCancelled):
            table.cancelled = True
        else:
            if isinstance(event, rules.HandDealt | classic.HandDealt):
                table.played = ()
            elif isinstance(event, rules.CardPlayed):
                table.played += (event.card,)
            if isinstance(table.game, ClassicState) and isinstance(event, classic.ClassicEvent):
                classic.evolve(table.game, [event], in_place=True)
            elif isinstance(table.game, GameState) and isinstance(event, rules.Event):
                table.game = rules.evolve(table.game, [event], in_place=True)
            else:
                raise ValueError(f"{type(event).__name__} is not an event of a {table.kind} table")
        table.version += 1
    return table


def fold_records(table: Table, records: Sequence[Recorded]) -> Table:
    """``table`` after ``records``, changed in place, stamped with when the last was
    recorded."""
    fold(table, [record.event for record in records])
    if records:
        table.moved_at = records[-1].recorded_at
    return table


def projected(table: Table) -> dict[str, Any]:
    """The read model's columns for ``table`` (``options`` as the options object)."""
    game = table.game
    if isinstance(game, classic.ClassicState):
        # Each player scores the points of their side; a match to points has no set
        # number of hands.
        scores, places = list(game.seat_points), list(game.places)
        hands_total = game.options.deals or 0
    else:
        scores, places, hands_total = list(game.scores), list(game.places), game.deals_to_play
    return {
        "code": table.code,
        "kind": table.kind,
        "place": table.place,
        "status": table.status,
        "player_count": table.player_count,
        "preset": table.preset,
        "options": table.options,
        "creator_id": table.creator_id,
        "seats": [
            {"seat": number, "alias": seat.alias, "user_id": seat.user_id}
            for number, seat in enumerate(table.seats)
            if seat is not None
        ],
        "hand": game.hand,
        "hands_total": hands_total,
        "scores": scores,
        "places": places,
        "version": table.version,
        "spectator_delay": table.spectator_delay,
        "deal_set": table.deal_set or "",
        "paused": table.paused,
        "rematch_of": uuid.UUID(table.rematch_of) if table.rematch_of else None,
    }
