"""A championship's stream and a season's: their events and the championship's fold.

The games a championship seats keep their own streams; a championship's stream records
what the organizer and the players decided about the championship itself (entries,
check-in, the seating of each round, corrections, announcements, calls to the
director), so the standings can be replayed
from the log. Its stored names say "event" (the ``event:`` prefix, ``EventCreated``,
``EventFinished``): the log is append-only, so they stay (decision 3201).
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # A pure fold: the log's record is only a type here.
    from eventlog.store import Recorded

CHAMPIONSHIP_STREAM_PREFIX = "event:"
SEASON_STREAM_PREFIX = "season:"
# The payload schema the championships' streams are written with, their own (not the
# rules' version the games' streams have): bumped when a payload's shape changes, with
# an upcaster from the version before (eventlog.store.Codec).
SCHEMA_VERSION = 1


def championship_stream(championship_id: object) -> str:
    return f"{CHAMPIONSHIP_STREAM_PREFIX}{championship_id}"


def season_stream(season_id: object) -> str:
    return f"{SEASON_STREAM_PREFIX}{season_id}"


@dataclass(frozen=True, slots=True)
class SeasonCreated:
    name: str
    organizer_id: int


@dataclass(frozen=True, slots=True)
class EventCreated:
    name: str
    code: str
    organizer_id: int
    season_id: str | None
    preset: str
    # The rules every table plays: the preset's options with the championship's changes.
    options: dict[str, Any]
    # Tables are of this size where the count allows, otherwise 3 to 6.
    table_size: int
    rounds: int
    # How a table's result becomes tournament points (tournaments.points.PointsMethod).
    points: str
    tie_breaks: tuple[str, ...]
    public: bool
    # Seconds spectators of the championship's tables lag behind the play.
    spectator_delay: int
    # Every table of a size in a round plays the same deals, compared by matchpoints.
    duplicate: bool
    # Round 1: "random", or "rating" (tables of similar rating).
    first_round: str
    # Seeds the random draws of the seating, so a round's tables follow from the log.
    seed: str
    turn_seconds: int | None = None
    # The next round starts by itself once every table of the last one is over.
    auto_advance: bool = False
    # The game every table plays: "romanian", or "classic" (a whist drive).
    kind: str = "romanian"
    # How a whist drive's players change tables between rounds: "progressive" (the
    # winning pair moves up a table and partners change), or "swiss" as in Romanian
    # events; empty for a Romanian event.
    movement: str = ""
    # The bot that plays its bot entrants' seats (games.bots.LEVEL_NAMES). Championships
    # recorded before the organizer chose it keep the bot they began with.
    bot_level: str = "heuristic"
    # Where its tables are played: "online", "room" (real cards, deals written down
    # here), or "both" (each player says at check-in whether they are in the room).
    place: str = "online"
    # The schedule (decision 3404); an event recorded without one is unscheduled: its
    # entries and check-in stay open and its organizer starts round 1.
    # When round 1 starts, ISO 8601 in UTC, and the IANA zone it is shown in.
    starts_at: str | None = None
    time_zone: str = ""
    description: str = ""
    # At most this many entries not withdrawn (None: no limit).
    entry_limit: int | None = None
    # Players enter themselves until then (ISO 8601 in UTC; None: until the last round).
    entry_deadline: str | None = None
    # Players check themselves in from this many seconds before the start until it.
    check_in_seconds: int = 0
    # What becomes of an entrant not checked in at the start: "withdraw", or "bot" (a
    # bot plays their seat until they take it).
    no_shows: str = "withdraw"

    @property
    def start(self) -> datetime | None:
        return datetime.fromisoformat(self.starts_at) if self.starts_at else None

    @property
    def deadline(self) -> datetime | None:
        return datetime.fromisoformat(self.entry_deadline) if self.entry_deadline else None

    @property
    def check_in_opens(self) -> datetime | None:
        start = self.start
        return None if start is None else start - timedelta(seconds=self.check_in_seconds)

    # Minutes the published results stay provisional (open to protest and correction)
    # before they are final; 0: final once published, as before there was a window.
    protest_minutes: int = 0
    # Minutes each round may last (0: no limit), and what happens when they are up
    # (AT_TIME_RULES): "none", the clock is only shown; "finish-deal", every table
    # finishes the deal in progress and plays no more (decision 3405).
    round_minutes: int = 0
    at_time: str = "none"
    # Seconds of a person's turn after which a bot stands in for them at their table,
    # until they come back; 0: never (as before there was the choice).
    absent_seconds: int = 0
    # What the players may say at its tables (games.read.selectors.HOME_CHAT_MODES):
    # "off", nothing (as before there was the choice), or "phrases", the quick
    # phrases only (decision 3506).
    table_chat: str = "off"


# What happens at a round's time limit (EventCreated.at_time).
AT_TIME_NONE = "none"
AT_TIME_FINISH_DEAL = "finish-deal"
AT_TIME_RULES = (AT_TIME_NONE, AT_TIME_FINISH_DEAL)


@dataclass(frozen=True, slots=True)
class PlayerRegistered:
    player_id: int
    name: str


@dataclass(frozen=True, slots=True)
class PlayerCheckedIn:
    player_id: int
    # At an event played both online and in the room: the player is in the room.
    in_room: bool = False


@dataclass(frozen=True, slots=True)
class PlayerWithdrew:
    player_id: int


@dataclass(frozen=True, slots=True)
class EntryHandedOver:
    """The guest ``from_player``, entered before any round, signed in to their account
    ``to_player`` (decision 3508): the entry is the account's, under the name it was
    entered with, checked in or withdrawn as it was."""

    from_player: int
    to_player: int


@dataclass(frozen=True, slots=True)
class CheckInClosed:
    """A scheduled event's start: the entrants not checked in by then (the no-shows)
    are withdrawn, or seated with a bot playing for them, as the organizer chose."""

    withdrawn: tuple[int, ...] = ()
    bots: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundStarted:
    number: int
    # Each table's players by seat, and the game (id) it plays.
    tables: tuple[tuple[int, ...], ...]
    games: tuple[str, ...]
    # Where each table is played ("online" or "room"); empty: all online (rounds
    # started before tables in the room).
    places: tuple[str, ...] = ()
    # When the round's time is up (ISO), at an event with a time limit: a deadline
    # stored as the round starts, so the log says it whatever the settings later.
    ends_at: str | None = None


@dataclass(frozen=True, slots=True)
class RoundTimeUp:
    """The round's time limit came: under the "finish-deal" rule, its tables were
    told to finish the deal in progress and play no more (each game's TimeCalled).
    Or the director called time by hand (``called_at``, ISO: when; with the reason),
    with the same effect whatever the event's rule (decision 3407): the round's
    deadline is then that moment, if it was later or there was none."""

    round: int
    reason: str = ""
    called_at: str | None = None


@dataclass(frozen=True, slots=True)
class RoundExtended:
    """The director gave round ``round`` ``minutes`` more, with the reason: its
    deadline is now ``ends_at`` (ISO), stored as RoundStarted's is (decision 3407)."""

    round: int
    minutes: int
    reason: str
    ends_at: str


@dataclass(frozen=True, slots=True)
class TableMoved:
    """A table of the current round moved between the room and online before play
    began there: its game called off, the same players seated at ``game``."""

    round: int
    # The table's index in its round.
    table: int
    place: str
    game: str


@dataclass(frozen=True, slots=True)
class ResultCorrected:
    """Tournament points added to (or taken from) a player's result, with the reason."""

    round: int
    player_id: int
    points: float
    reason: str


@dataclass(frozen=True, slots=True)
class SeatSubstituted:
    """The director seated ``player_id`` (a reserve, or the seat's own player back),
    or a bot (None), in seat ``seat`` of table ``table`` (its index) of round
    ``round``. Who plays each deal is read from the table's log (decision 3406)."""

    round: int
    table: int
    seat: int
    player_id: int | None


@dataclass(frozen=True, slots=True)
class PlayerDisqualified:
    """The director disqualified a player, with the reason: out of the rounds to come,
    their results so far kept and marked in the standings."""

    player_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class EventFinished:
    """Every round played: the last round's last table has finished."""


@dataclass(frozen=True, slots=True)
class ResultsPublished:
    """The standings published: provisional until ``final_at`` (an ISO time), final
    from then on; None (as every publication recorded before the window was): final
    at once. A deadline, not a later event: the log and the clock say when the results
    are final, with nothing left to record (decision 3401)."""

    final_at: str | None = None


@dataclass(frozen=True, slots=True)
class Announced:
    """The director's word to the room: shown on the room's screen and the event's
    page until withdrawn. Announcements are numbered 1, 2, ... in the order made."""

    text: str


@dataclass(frozen=True, slots=True)
class AnnouncementWithdrawn:
    number: int


@dataclass(frozen=True, slots=True)
class DirectorCalled:
    """A player at a table of the event calls the director, with a reason (one of
    CALL_REASONS) and what they add. Calls are numbered 1, 2, ...
    in the order made."""

    round: int
    # The table's index in its round, its game (id) and the caller's seat there.
    table: int
    game: str
    seat: int
    player_id: int
    reason: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class CallAnswered:
    """The director is on the way to call ``number``'s table."""

    number: int


@dataclass(frozen=True, slots=True)
class CallClosed:
    """Call ``number`` dealt with, with the director's note of what was decided."""

    number: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class DeputyNamed:
    """The organizer named a co-director: they may run the event as the organizer
    does, but not name deputies (nor, were there such commands, delete the event or
    change its rules)."""

    user_id: int
    # The account's name when named, for the organizer's list.
    name: str = ""


@dataclass(frozen=True, slots=True)
class DeputyRemoved:
    user_id: int
    # Their name as named, for the audit trail.
    name: str = ""


ChampionshipEvent = (
    SeasonCreated
    | EventCreated
    | PlayerRegistered
    | PlayerCheckedIn
    | PlayerWithdrew
    | EntryHandedOver
    | CheckInClosed
    | RoundStarted
    | RoundTimeUp
    | RoundExtended
    | TableMoved
    | ResultCorrected
    | SeatSubstituted
    | PlayerDisqualified
    | EventFinished
    | ResultsPublished
    | Announced
    | AnnouncementWithdrawn
    | DirectorCalled
    | CallAnswered
    | CallClosed
    | DeputyNamed
    | DeputyRemoved
)
# The fields of a championship's events that name a person or say something of them,
# with the field naming whose it is and what each reads as once that person is erased:
# the log keeps them beside its rows (eventlog.store.Personal, decision 3503).
ERASED_NAME = "Deleted player"
# A disqualification's reason is never empty (empty: not disqualified).
ERASED_REASON = "(erased)"
PERSONAL_FIELDS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "PlayerRegistered": (("name", "player_id", ERASED_NAME),),
    "DeputyNamed": (("name", "user_id", ""),),
    "DeputyRemoved": (("name", "user_id", ""),),
    "DirectorCalled": (("text", "player_id", ""),),
    "ResultCorrected": (("reason", "player_id", ""),),
    "PlayerDisqualified": (("reason", "player_id", ERASED_REASON),),
}
EVENT_TYPES: dict[str, type[ChampionshipEvent]] = {
    cls.__name__: cls for cls in typing.get_args(ChampionshipEvent)
}


def encode(event: ChampionshipEvent) -> tuple[str, dict[str, Any]]:
    return type(event).__name__, asdict(event)


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def decode(type_name: str, payload: dict[str, Any]) -> ChampionshipEvent:
    event_type = EVENT_TYPES[type_name]
    # A field added since the event was stored takes its default.
    values = {f.name: payload[f.name] for f in fields(event_type) if f.name in payload}
    for name in ("tie_breaks", "tables", "games", "places", "withdrawn", "bots"):
        if name in values:
            values[name] = _tuples(values[name])
    return event_type(**values)


@dataclass(frozen=True, slots=True)
class Entry:
    player_id: int
    name: str
    checked_in: bool = False
    withdrawn: bool = False
    in_room: bool = False
    # A no-show seated at the start: a bot plays their seat until they check in.
    bot_plays: bool = False
    # Why the director disqualified the player; empty: not disqualified.
    disqualified: str = ""


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[tuple[int, ...], ...]
    games: tuple[str, ...]
    places: tuple[str, ...] = ()
    # When its RoundStarted was recorded (None when folded from events alone).
    started_at: datetime | None = None
    # When its time is up (None: no limit), and whether the clock's rule was applied.
    ends_at: datetime | None = None
    time_up: bool = False

    def place_of(self, table: int) -> str:
        return self.places[table] if self.places else "online"


@dataclass(frozen=True, slots=True)
class Announcement:
    number: int
    text: str
    # When it was recorded (None when folded from events alone).
    at: datetime | None = None


# Why a player calls the director (the pages name each in the reader's language), and
# how much the caller and the director's note may say.
CALL_REASONS = ("irregularity", "score", "technical", "conduct", "other")
MAX_CALL_TEXT_LENGTH = 200
MAX_CALL_NOTE_LENGTH = 500
# A call's states, in order.
WAITING = "waiting"
ANSWERED = "answered"
CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Call:
    number: int
    called: DirectorCalled
    state: str = WAITING
    note: str = ""
    # When it was made, answered and closed (None when folded from events alone).
    at: datetime | None = None
    answered_at: datetime | None = None
    closed_at: datetime | None = None

    @property
    def open(self) -> bool:
        return self.state != CLOSED


@dataclass
class Championship:
    """A championship's stream, folded."""

    created: EventCreated | None = None
    entries: dict[int, Entry] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    corrections: list[ResultCorrected] = field(default_factory=list)
    # Who holds each seat the director handed to someone else, by (round, table,
    # seat): a reserve's id, or None for a bot.
    substituted: dict[tuple[int, int, int], int | None] = field(default_factory=dict)
    finished: bool = False
    published: bool = False
    # A scheduled event's start has come: check-in is over, the no-shows dealt with.
    check_in_closed: bool = False
    # When the published results become final (None: final once published).
    final_at: datetime | None = None
    # The announcements not withdrawn, newest first; and how many were ever made.
    announcements: list[Announcement] = field(default_factory=list)
    announced: int = 0
    # Every call to the director, in the order made (call n is calls[n - 1]).
    calls: list[Call] = field(default_factory=list)
    # The organizer's deputies: user id -> name, in the order named.
    deputies: dict[int, str] = field(default_factory=dict)
    version: int = 0

    @property
    def settings(self) -> EventCreated:
        assert self.created is not None, (
            "the championship's stream does not start with EventCreated"
        )
        return self.created

    def directed_by(self, user_id: int | None) -> bool:
        """Whether ``user_id`` directs the event: its organizer or one of their deputies
        (the read model's twin of this rule: tournaments.selectors.directs_event)."""
        return user_id is not None and (
            user_id == self.settings.organizer_id or user_id in self.deputies
        )

    @property
    def present(self) -> list[int]:
        """The players to seat in the next round: checked in and not withdrawn."""
        return sorted(
            entry.player_id
            for entry in self.entries.values()
            if entry.checked_in and not entry.withdrawn
        )

    @property
    def entered(self) -> int:
        """How many entries are not withdrawn: what an entry limit counts."""
        return sum(not entry.withdrawn for entry in self.entries.values())

    def results_final(self, now: datetime) -> bool:
        """Whether the results are final at ``now``: published, and their protest
        window (if any) over."""
        return self.published and (self.final_at is None or now >= self.final_at)

    def holders(self, number: int) -> list[list[int | None]]:
        """Who holds each seat of each table of round ``number`` now, by the
        director's word: its player, a reserve, or None for a bot."""
        played = self.rounds[number - 1]
        return [
            [
                self.substituted.get((number, table, seat), player)
                for seat, player in enumerate(players)
            ]
            for table, players in enumerate(played.tables)
        ]

    def seat_of(self, player_id: int) -> tuple[int, int, int] | None:
        """The round, table and seat of ``player_id`` in the latest round, if seated."""
        if not self.rounds:
            return None
        latest = self.rounds[-1]
        for table, players in enumerate(latest.tables):
            if player_id in players:
                return latest.number, table, players.index(player_id)
        return None


def _entry(championship: Championship, player_id: int, **changes: Any) -> None:
    championship.entries[player_id] = replace(championship.entries[player_id], **changes)


def _move(championship: Championship, event: TableMoved) -> None:
    number = event.round - 1
    played = championship.rounds[number]
    games, places = list(played.games), [played.place_of(i) for i in range(len(played.games))]
    games[event.table], places[event.table] = event.game, event.place
    championship.rounds[number] = replace(played, games=tuple(games), places=tuple(places))
    # Its players play there from now on, unless they check in again.
    for player in played.tables[event.table]:
        _entry(championship, player, in_room=event.place == "room")


def fold(
    championship: Championship, events: list[ChampionshipEvent], at: datetime | None = None
) -> Championship:
    """``championship`` after ``events`` (recorded ``at``, if known), changed in place."""
    for event in events:
        if isinstance(event, EventCreated):
            championship.created = event
        elif isinstance(event, PlayerRegistered):
            championship.entries[event.player_id] = Entry(event.player_id, event.name)
        elif isinstance(event, PlayerCheckedIn):
            _entry(
                championship,
                event.player_id,
                checked_in=True,
                withdrawn=False,
                in_room=event.in_room,
                bot_plays=False,
            )
        elif isinstance(event, PlayerWithdrew):
            _entry(championship, event.player_id, withdrawn=True)
        elif isinstance(event, EntryHandedOver):
            # In its place: the entries' order is the order they were made.
            championship.entries = {
                event.to_player if player == event.from_player else player: (
                    replace(entry, player_id=event.to_player)
                    if player == event.from_player
                    else entry
                )
                for player, entry in championship.entries.items()
            }
        elif isinstance(event, CheckInClosed):
            championship.check_in_closed = True
            for player in event.withdrawn:
                _entry(championship, player, withdrawn=True)
            for player in event.bots:
                _entry(championship, player, checked_in=True, withdrawn=False, bot_plays=True)
        elif isinstance(event, RoundStarted):
            ends_at = datetime.fromisoformat(event.ends_at) if event.ends_at else None
            championship.rounds.append(
                Round(event.number, event.tables, event.games, event.places, at, ends_at)
            )
        elif isinstance(event, RoundTimeUp):
            _time_up(championship, event)
        elif isinstance(event, RoundExtended):
            number = event.round - 1
            ends_at = datetime.fromisoformat(event.ends_at)
            championship.rounds[number] = replace(championship.rounds[number], ends_at=ends_at)
        elif isinstance(event, TableMoved):
            _move(championship, event)
        elif isinstance(event, ResultCorrected):
            championship.corrections.append(event)
        elif isinstance(event, SeatSubstituted):
            championship.substituted[event.round, event.table, event.seat] = event.player_id
        elif isinstance(event, PlayerDisqualified):
            _entry(championship, event.player_id, withdrawn=True, disqualified=event.reason)
        elif isinstance(event, EventFinished):
            championship.finished = True
        elif isinstance(event, ResultsPublished):
            championship.published = True
            championship.final_at = (
                datetime.fromisoformat(event.final_at) if event.final_at else None
            )
        elif isinstance(event, Announced):
            championship.announced += 1
            made = Announcement(championship.announced, event.text, at)
            championship.announcements.insert(0, made)
        elif isinstance(event, AnnouncementWithdrawn):
            championship.announcements = [
                made for made in championship.announcements if made.number != event.number
            ]
        elif isinstance(event, DirectorCalled):
            number = len(championship.calls) + 1
            championship.calls.append(Call(number, event, at=at))
        elif isinstance(event, CallAnswered):
            _call(championship, event.number, state=ANSWERED, answered_at=at)
        elif isinstance(event, CallClosed):
            _call(championship, event.number, state=CLOSED, note=event.note, closed_at=at)
        elif isinstance(event, DeputyNamed):
            championship.deputies[event.user_id] = event.name
        elif isinstance(event, DeputyRemoved):
            championship.deputies.pop(event.user_id, None)
        championship.version += 1
    return championship


def _time_up(championship: Championship, event: RoundTimeUp) -> None:
    number = event.round - 1
    played = championship.rounds[number]
    ends_at = played.ends_at
    if event.called_at is not None:
        # Called by hand: time is up from then on.
        called = datetime.fromisoformat(event.called_at)
        ends_at = called if ends_at is None or called < ends_at else ends_at
    championship.rounds[number] = replace(played, ends_at=ends_at, time_up=True)


def _call(championship: Championship, number: int, **changes: Any) -> None:
    championship.calls[number - 1] = replace(championship.calls[number - 1], **changes)


def fold_records(championship: Championship, records: Iterable[Recorded]) -> Championship:
    """``championship`` after ``records``, each folded with when it was recorded (a
    round's start, an announcement's time), changed in place."""
    for record in records:
        fold(championship, [record.event], record.recorded_at)
    return championship
