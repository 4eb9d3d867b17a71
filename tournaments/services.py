"""Business actions on seasons and championships: their one write path.

command -> load the event's stream -> decide -> append at the expected version ->
project -> publish and derive after commit. Starting a round also opens its tables
through the games' own services, in the same transaction: a round is recorded with
all its games or not at all.
"""

from __future__ import annotations

import random
import secrets
import uuid
import zoneinfo
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from django.conf import settings as django_settings
from django.db import transaction
from django.utils import timezone

from accounts.guests import ENTERED_THERE, EVENT_BEGUN, Kept
from accounts.models import User
from accounts.services import (
    user_bot_name,
    user_demo_lock,
    user_demo_organizer,
    user_ensure_bot_players,
)
from eventlog import store
from games.commands import actions as games
from games.commands.actions import DEFAULT_LEVEL, LEVEL_NAMES
from games.commands.aliases import fitting_alias
from games.errors import GameNotFound, UnknownBot, VersionConflict
from games.models import Game
from games.read.selectors import CHAT_OFF, HOME_CHAT_MODES
from games.rules import RuleOptions, build_schedule, classic, options_from_dict, preset
from games.rules.errors import RuleError
from games.table import CLASSIC, GAME_KINDS, ONLINE, ROMANIAN, ROOM
from runtime import outbox
from runtime.transactions import after_commit
from tournaments import rounds, seating
from tournaments.championship import (
    ANSWERED,
    AT_TIME_FINISH_DEAL,
    AT_TIME_NONE,
    AT_TIME_RULES,
    CALL_REASONS,
    CHAMPIONSHIP_STREAM_PREFIX,
    ERASED_NAME,
    MAX_CALL_NOTE_LENGTH,
    MAX_CALL_TEXT_LENGTH,
    Announced,
    AnnouncementWithdrawn,
    Call,
    CallAnswered,
    CallClosed,
    Championship,
    ChampionshipEvent,
    CheckInClosed,
    DeputyNamed,
    DeputyRemoved,
    DirectorCalled,
    EntryHandedOver,
    EventCreated,
    EventFinished,
    PlayerCheckedIn,
    PlayerDisqualified,
    PlayerRegistered,
    PlayerWithdrew,
    ResultCorrected,
    ResultsPublished,
    Round,
    RoundExtended,
    RoundStarted,
    RoundTimeUp,
    SeasonCreated,
    SeatSubstituted,
    TableMoved,
    championship_stream,
    fold_records,
    season_stream,
)
from tournaments.errors import (
    AlreadyDeputy,
    AlreadyEntered,
    AnnouncementNotFound,
    CallNotFound,
    CallOver,
    CallStillOpen,
    CheckInClosedError,
    CheckInNotOpen,
    Disqualified,
    EntryDeadlinePassed,
    EntryPlayed,
    EventError,
    EventFull,
    EventNotFound,
    EventOver,
    ExtensionOutOfRange,
    GuestEntry,
    InvalidEventInput,
    MayNotOrganize,
    NoRoundInPlay,
    NoSuchAccount,
    NotAtTable,
    NotDeputy,
    NotDirector,
    NotEntered,
    NoTimeLimit,
    NotOrganizer,
    OrganizerOnly,
    PlaysEveryDeal,
    ReserveSeated,
    ResultsFinal,
    RoundInProgress,
    SeasonNotFound,
    SeatNotFound,
    TableOver,
    TimeAlreadyCalled,
    TooManyAnnouncements,
    WrongRound,
)
from tournaments.models import Deputy, Entry, Event, Season, SeasonStanding, Standing
from tournaments.points import PointsMethod
from tournaments.projections.event import project_event
from tournaments.projections.standings import event_standings, read_figures
from tournaments.signals import championship_recorded

DEFAULT_TIE_BREAKS = ("exact_bids", "head_to_head", "best_game")
FIRST_ROUND_METHODS = ("random", "rating")
# How a whist drive's players change tables between rounds (see EventCreated.movement).
MOVEMENTS = ("progressive", "swiss")
# Where an event's tables are played: each player says at check-in for BOTH.
BOTH = rounds.BOTH
EVENT_PLACES = (ONLINE, ROOM, BOTH)
MAX_ROUNDS = 20
MAX_SPECTATOR_DELAY = 3600
MAX_NAME_LENGTH = 120
# The schedule (decision 3404).
MAX_DESCRIPTION_LENGTH = 2000
MAX_ENTRY_LIMIT = 1000
MAX_CHECK_IN_SECONDS = 24 * 3600
DEFAULT_CHECK_IN_SECONDS = 30 * 60
# What becomes of an entrant not checked in at a scheduled start (EventCreated.no_shows).
NO_SHOWS = ("withdraw", "bot")
# The longest protest window after publishing: a week.
MAX_PROTEST_MINUTES = 7 * 24 * 60
# The longest time limit of a round: a day.
MAX_ROUND_MINUTES = 24 * 60
# The most a director extends a round by at once, and how long their reason may be.
MAX_EXTENSION_MINUTES = 60
MAX_CLOCK_REASON_LENGTH = 500


@dataclass(frozen=True)
class EventResult:
    event_id: uuid.UUID
    version: int


def event_group(event_id: uuid.UUID) -> str:
    return f"event.{event_id.hex}"


# --- Reading the streams --------------------------------------------------------------


def load_championship(event_id: uuid.UUID) -> Championship:
    records = store.read(championship_stream(event_id))
    if not records:
        raise EventNotFound(event_id)
    return fold_records(Championship(), records)


def _season(season_id: uuid.UUID) -> Season:
    try:
        return Season.objects.get(pk=season_id)
    except Season.DoesNotExist:
        raise SeasonNotFound(season_id) from None


# --- Seasons --------------------------------------------------------------------------


def season_create(*, organizer: User, name: str) -> Season:
    """A season: the championship whose events make one leaderboard and one rating."""
    _require_organizer_account(organizer)
    name = _name(name)
    season_id = uuid.uuid4()
    with transaction.atomic():
        recorded = store.append(
            season_stream(season_id),
            0,
            [SeasonCreated(name, organizer.pk)],
            organizer,
        )
        return Season.objects.create(
            id=season_id, name=name, organizer_id=organizer.pk, created_at=recorded[0].recorded_at
        )


# --- Events ---------------------------------------------------------------------------


def event_create(
    *,
    organizer: User,
    name: str,
    season_id: uuid.UUID | None = None,
    preset_name: str | None = None,
    options: Mapping[str, Any] | None = None,
    table_size: int = 4,
    rounds: int = 3,
    points: str = PointsMethod.RELATIVE.value,
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS,
    public: bool = True,
    spectator_delay: int = 0,
    duplicate: bool = False,
    first_round: str = "random",
    turn_seconds: int | None = None,
    auto_advance: bool = False,
    kind: str = ROMANIAN,
    movement: str = "progressive",
    bot_level: str = DEFAULT_LEVEL,
    place: str = ONLINE,
    starts_at: datetime | None = None,
    time_zone: str | None = None,
    description: str = "",
    entry_limit: int | None = None,
    entry_deadline: datetime | None = None,
    check_in_seconds: int = DEFAULT_CHECK_IN_SECONDS,
    no_shows: str = "withdraw",
    protest_minutes: int = 0,
    round_minutes: int = 0,
    at_time: str = AT_TIME_NONE,
    absent_seconds: int = 0,
    table_chat: str = CHAT_OFF,
) -> Event:
    """Open an event for entries; its rounds are started one by one by the organizer.

    ``place``: where its tables are played: "online", "room" (with real cards, each
    table's deals written down here), or "both" (each player says at check-in).

    ``kind="classic"`` makes it a whist drive: tables of four play classic Whist's
    tournament form (a fixed number of deals, from the ``whist-drive`` preset by
    default), players score their side's odd tricks, and between rounds they move by
    ``movement``: "progressive" (the winning pair moves up a table, partners change)
    or "swiss". ``bot_level``: the level (games.bots.LEVEL_NAMES) of the bots that
    play its bot entrants' seats. ``protest_minutes``: how long its published results
    stay provisional, open to correction (0: final at once), unless the publication
    says otherwise. ``round_minutes``: each round's time limit (0: none); ``at_time``:
    what happens when it is up (championship.AT_TIME_RULES): "none", the clock is only
    shown; "finish-deal", each table finishes the deal in progress and plays no more
    (Romanian events without duplicate deals only: the others' results need every deal).
    ``absent_seconds``: how long into a person's turn a bot stands in
    for them at their table, until they come back (0: never).
    ``table_chat``: what its players may say at their tables (decision 3506): nothing
    ("off"), or the quick phrases ("phrases"); never free text.

    The schedule (all optional): ``starts_at`` (an aware time, shown in ``time_zone``,
    the site's by default), when check-in closes and round 1 starts by itself; players
    check themselves in from ``check_in_seconds`` before it; the no-shows then are
    withdrawn or have a bot play for them (``no_shows``: "withdraw" or "bot"). Players
    enter themselves until ``entry_deadline``; at most ``entry_limit`` entries (not
    withdrawn) are taken. ``description``: what the event page says of it."""
    _require_organizer_account(organizer)
    if not isinstance(bot_level, str) or bot_level not in LEVEL_NAMES:
        raise UnknownBot(bot_level, LEVEL_NAMES)
    if season_id is not None and _season(season_id).organizer_id != organizer.pk:
        raise NotOrganizer("only the season's organizer may add events to it")
    if kind == CLASSIC:
        preset_name = preset_name or "whist-drive"
        chosen: RuleOptions | classic.ClassicOptions = _drive_rules(preset_name, options)
        if table_size != seating.PARTNERSHIP_TABLE:
            raise InvalidEventInput("a whist drive seats its players in fours")
        if movement not in MOVEMENTS:
            raise InvalidEventInput(f"a whist drive moves players by {' or '.join(MOVEMENTS)}")
        if duplicate:
            raise InvalidEventInput("a whist drive does not play duplicate deals")
        # Nobody bids in classic Whist: there are no exact bids to break a tie.
        tie_breaks = tuple(name for name in tie_breaks if name != "exact_bids")
    elif kind == ROMANIAN:
        preset_name = preset_name or "championship"
        chosen, movement = _rules(preset_name, options), ""
    else:
        raise InvalidEventInput(f"an event plays {' or '.join(GAME_KINDS)}, not {kind!r}")
    _check_whole(table_size, "the table size", 3, 6)
    _check_whole(rounds, "the number of rounds", 1, MAX_ROUNDS)
    _check_whole(spectator_delay, "the spectator delay", 0, MAX_SPECTATOR_DELAY)
    _check_whole(protest_minutes, "the protest window", 0, MAX_PROTEST_MINUTES)
    if points not in set(PointsMethod):
        raise InvalidEventInput(f"points are one of {', '.join(PointsMethod)}, not {points!r}")
    if duplicate != (points == PointsMethod.MATCHPOINTS):
        raise InvalidEventInput("duplicate deals are scored by matchpoints, and only they are")
    if set(tie_breaks) - set(DEFAULT_TIE_BREAKS) or len(set(tie_breaks)) != len(tie_breaks):
        raise InvalidEventInput(f"tie-breaks are some of {', '.join(DEFAULT_TIE_BREAKS)}")
    if first_round not in FIRST_ROUND_METHODS:
        raise InvalidEventInput("round 1 is seated at random or by rating")
    if turn_seconds is not None:
        _check_whole(turn_seconds, "a turn timer", games.MIN_TURN_SECONDS, games.MAX_TURN_SECONDS)
    if absent_seconds:
        _check_whole(
            absent_seconds, "a stand-in time", games.MIN_TURN_SECONDS, games.MAX_TURN_SECONDS
        )
    if place not in EVENT_PLACES:
        raise InvalidEventInput(f"tables are played {', '.join(EVENT_PLACES)}, not {place!r}")
    if place != ONLINE and kind != ROMANIAN:
        raise InvalidEventInput("only Romanian Whist tables are played in the room here")
    schedule = _schedule(
        starts_at=starts_at,
        time_zone=time_zone,
        description=description,
        entry_limit=entry_limit,
        entry_deadline=entry_deadline,
        check_in_seconds=check_in_seconds,
        no_shows=no_shows,
        place=place,
    )
    _check_whole(round_minutes, "a round's time limit", 0, MAX_ROUND_MINUTES)
    if at_time not in AT_TIME_RULES:
        raise InvalidEventInput(f"at time, the rule is one of {', '.join(AT_TIME_RULES)}")
    if table_chat not in HOME_CHAT_MODES:
        raise InvalidEventInput(
            f"at its tables, players say {' or '.join(HOME_CHAT_MODES)}, not {table_chat!r}"
        )
    if at_time == AT_TIME_FINISH_DEAL and (kind != ROMANIAN or duplicate):
        raise InvalidEventInput(
            "only a Romanian event without duplicate deals stops its tables at time"
        )
    created = EventCreated(
        name=_name(name),
        code=games.new_code(Event),
        organizer_id=organizer.pk,
        season_id=str(season_id) if season_id else None,
        preset=preset_name,
        options=chosen.to_dict(),
        table_size=table_size,
        rounds=rounds,
        points=points,
        tie_breaks=tuple(tie_breaks),
        public=public,
        spectator_delay=spectator_delay,
        duplicate=duplicate,
        first_round=first_round,
        seed=secrets.token_hex(16),
        turn_seconds=turn_seconds,
        auto_advance=bool(auto_advance),
        kind=kind,
        movement=movement,
        bot_level=bot_level,
        place=place,
        **schedule,
        protest_minutes=protest_minutes,
        round_minutes=round_minutes,
        at_time=at_time if round_minutes else AT_TIME_NONE,
        absent_seconds=absent_seconds or 0,
        table_chat=table_chat,
    )
    event_id = uuid.uuid4()
    _execute(event_id, organizer, 0, lambda championship: [created], Championship())
    return Event.objects.get(pk=event_id)


@cache
def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def _instant(value: datetime | None, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise InvalidEventInput(f"{what} is a time with its time zone")
    return value.astimezone(UTC).isoformat()


def _schedule(
    *,
    starts_at: datetime | None,
    time_zone: str | None,
    description: str,
    entry_limit: int | None,
    entry_deadline: datetime | None,
    check_in_seconds: int,
    no_shows: str,
    place: str,
) -> dict[str, Any]:
    """EventCreated's schedule fields, checked."""
    zone = time_zone or django_settings.TIME_ZONE
    if not isinstance(zone, str) or zone not in _time_zones():
        raise InvalidEventInput(f"{zone!r} is not a time zone's name (as Europe/Bucharest)")
    description = description.strip() if isinstance(description, str) else ""
    if len(description) > MAX_DESCRIPTION_LENGTH:
        raise InvalidEventInput(f"a description is at most {MAX_DESCRIPTION_LENGTH} characters")
    if entry_limit is not None:
        _check_whole(entry_limit, "the entry limit", seating.MIN_TABLE, MAX_ENTRY_LIMIT)
    start, deadline = _instant(starts_at, "the start"), _instant(entry_deadline, "the deadline")
    if starts_at is not None and starts_at <= _now():
        raise InvalidEventInput("the start is in the past")
    if starts_at is not None and entry_deadline is not None and entry_deadline > starts_at:
        raise InvalidEventInput("the entry deadline is after the start")
    if start is None:
        # Unscheduled: check-in stays open and nobody is a no-show.
        check_in_seconds, no_shows = 0, "withdraw"
    else:
        _check_whole(check_in_seconds, "the check-in window (seconds)", 1, MAX_CHECK_IN_SECONDS)
    if no_shows not in NO_SHOWS:
        raise InvalidEventInput(f"no-shows are {' or '.join(NO_SHOWS)}, not {no_shows!r}")
    if no_shows == "bot" and place == ROOM:
        raise InvalidEventInput("bots play online: this event's tables are in the room")
    return {
        "starts_at": start,
        "time_zone": zone,
        "description": description,
        "entry_limit": entry_limit,
        "entry_deadline": deadline,
        "check_in_seconds": check_in_seconds,
        "no_shows": no_shows,
    }


def _now() -> datetime:
    # The one clock of the schedule's decisions (a test sets it).
    return timezone.now()


def event_register(
    *, event_id: uuid.UUID, actor: User, player: User | None = None, name: str = ""
) -> EventResult:
    """Enter ``player`` (the actor themself by default; only the organizer enters
    others). Entries stay open until the last round starts: a late entry plays the
    rounds still to come. A guest is entered by nobody (:class:`GuestEntry`)."""
    player = player or actor
    if player.is_guest:
        raise GuestEntry()

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        if player.pk != actor.pk:
            _require_director(championship, actor)
        if player.pk in championship.entries:
            raise AlreadyEntered(player.pk)
        _require_rounds_left(championship)
        _require_room(championship, 1)
        deadline = championship.settings.deadline
        # The organizer may still enter a late arrival (decision 3404).
        organizer = actor.pk == championship.settings.organizer_id
        if deadline is not None and _now() > deadline and not organizer:
            raise EntryDeadlinePassed(deadline)
        return [PlayerRegistered(player.pk, _name(name or player.display)[:64])]

    return _execute(event_id, actor, None, decide)


def event_hand_over_entry(*, event_id: uuid.UUID, guest_id: int, account: User) -> EventResult:
    """The entry of the guest ``guest_id``, who signed in to ``account``, becomes the
    account's (``EntryHandedOver``, decision 3508); nothing to write if the guest has
    none there. :class:`AlreadyEntered` when the account is entered there itself (one
    person, two entries), :class:`EntryPlayed` once a round has started: the entry is
    then a line of the seating and the standings under the guest."""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        if guest_id not in championship.entries:
            return []
        if account.pk in championship.entries:
            raise AlreadyEntered(account.pk)
        if championship.rounds or championship.finished:
            raise EntryPlayed()
        return [EntryHandedOver(guest_id, account.pk)]

    return _execute(event_id, account, None, decide)


def event_hand_over_entries(guest_id: int, account_id: int) -> list[Kept]:
    """Every entry of the guest ``guest_id`` handed to the account ``account_id`` they
    signed in to (:func:`event_hand_over_entry`), one event at a time; the entries that
    stay the guest's are returned, with why."""
    account = User.objects.get(pk=account_id)
    entered = Entry.objects.filter(player_id=guest_id).values("event_id")
    kept = []
    for event_id, code in (
        Event.objects.filter(pk__in=entered).order_by("code").values_list("pk", "code")
    ):
        try:
            event_hand_over_entry(event_id=event_id, guest_id=guest_id, account=account)
        except AlreadyEntered:
            kept.append(Kept(code, ENTERED_THERE))
        except EntryPlayed:
            kept.append(Kept(code, EVENT_BEGUN))
    return kept


def event_add_bots(*, event_id: uuid.UUID, actor: User, count: int) -> EventResult:
    """Enter and check in ``count`` bot players (the organizer fills an event)."""
    _check_whole(count, "the number of bots", 1, 1000)

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        _require_rounds_left(championship)
        if championship.settings.place == ROOM:
            raise InvalidEventInput("bots play online: this event's tables are in the room")
        _require_room(championship, count)
        taken = {entry.player_id for entry in championship.entries.values()}
        names = tuple(f"Bot{number:03d}" for number in range(1, 1000))
        events: list[ChampionshipEvent] = []
        for bot in user_ensure_bot_players(names=names[: count + len(taken)]):
            if len(events) == 2 * count:
                break
            if bot.pk not in taken:
                events += [PlayerRegistered(bot.pk, bot.display), PlayerCheckedIn(bot.pk)]
        return events

    return _execute(event_id, actor, None, decide)


def event_check_in(
    *, event_id: uuid.UUID, actor: User, player_id: int | None = None, in_room: bool = False
) -> EventResult:
    """Mark a player present for the next round (a withdrawn player comes back); at an
    event played both online and in the room, ``in_room`` says where they play (checking
    in again changes it, until a round seats them)."""
    return _entry_command(event_id, actor, player_id, PlayerCheckedIn, in_room=bool(in_room))


def event_withdraw(
    *, event_id: uuid.UUID, actor: User, player_id: int | None = None
) -> EventResult:
    """Take a player out of the rounds to come (a no-show, or a player leaving);
    their results so far stay in the standings."""
    return _entry_command(event_id, actor, player_id, PlayerWithdrew)


def _entry_command(
    event_id: uuid.UUID,
    actor: User,
    player_id: int | None,
    make: type[PlayerCheckedIn] | type[PlayerWithdrew],
    *,
    in_room: bool = False,
) -> EventResult:
    target = actor.pk if player_id is None else player_id

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        if target != actor.pk:
            _require_director(championship, actor)
        entry = championship.entries.get(target)
        if entry is None:
            raise NotEntered(target)
        if championship.finished:
            raise EventOver("the event is over: there is no round to come")
        if make is PlayerWithdrew:
            if entry.withdrawn:
                return []
            _leave_table(championship, target)
            return [PlayerWithdrew(target)]
        if entry.disqualified:
            raise Disqualified(target)
        if target == actor.pk != championship.settings.organizer_id:
            _require_check_in_open(championship)
        # Only an event played both ways asks where a player is.
        where = in_room and championship.settings.place == BOTH
        if (
            entry.checked_in
            and not entry.withdrawn
            and not entry.bot_plays
            and entry.in_room == where
        ):
            return []
        return [PlayerCheckedIn(target, where)]

    return _execute(event_id, actor, None, decide)


def event_disqualify(
    *, event_id: uuid.UUID, actor: User, player_id: int, reason: str
) -> EventResult:
    """Disqualify a player, with the reason: out of the rounds to come, a bot in their
    seat if their table still plays; their results so far stay in the standings,
    marked disqualified (decision 3406)."""
    reason = reason.strip() if isinstance(reason, str) else ""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        entry = championship.entries.get(player_id)
        if entry is None:
            raise NotEntered(player_id)
        if not reason:
            raise InvalidEventInput("a disqualification states its reason")
        if entry.disqualified:
            return []
        _leave_table(championship, player_id)
        return [PlayerDisqualified(player_id, reason[:500])]

    return _execute(event_id, actor, None, decide)


def _leave_table(championship: Championship, player_id: int) -> None:
    """A player leaving the event mid-round (withdrawn, disqualified): a bot takes the
    seat they hold at a table of the round in play that is still playing online, so
    the table goes on; the deals it plays count for nobody. The withdrawal or the
    disqualification says why: the championship records no substitution of its own."""
    if not championship.rounds:
        return
    played = championship.rounds[-1]
    organizer = User.objects.get(pk=championship.settings.organizer_id)
    for index, seats in enumerate(championship.holders(played.number)):
        if player_id not in seats or played.place_of(index) == ROOM:
            continue
        game_id = uuid.UUID(played.games[index])
        if Game.objects.filter(pk=game_id, status=Game.Status.PLAYING).exists():
            seat = seats.index(player_id)
            level = championship.settings.bot_level
            games.game_set_seat_bot(game_id=game_id, actor=organizer, seat=seat, bot=level)
            return


def event_seat_substitute(
    *,
    event_id: uuid.UUID,
    actor: User,
    table: int,
    seat: int,
    player_id: int | None = None,
    username: str = "",
) -> EventResult:
    """Seat someone in seat ``seat`` (from 0) of table ``table`` (from 1) of the round in
    play: the entrant ``player_id``, the account ``username`` (or e-mail address;
    entered, unchecked, if not yet), or a bot when neither is given. The organizer or a
    deputy may. A reserve plays the seat from now on and
    the deals they play count for them; a bot's count for nobody; the seat's own player
    seated back plays on for themself (decision 3406)."""
    username = username.strip() if isinstance(username, str) else ""
    person: User | None = None
    if username:
        person = _account(username)
    elif player_id is not None:
        person = User.objects.filter(pk=player_id).first()
        if person is None:
            raise NotEntered(player_id)

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        if not championship.rounds or isinstance(table, bool) or isinstance(seat, bool):
            raise SeatNotFound(table, seat)
        played = championship.rounds[-1]
        if not isinstance(table, int) or not 1 <= table <= len(played.tables):
            raise SeatNotFound(table, seat)
        index = table - 1
        if not isinstance(seat, int) or not 0 <= seat < len(played.tables[index]):
            raise SeatNotFound(table, seat)
        game_id = uuid.UUID(played.games[index])
        if Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists():
            raise TableOver(table)
        holders = championship.holders(played.number)
        events: list[ChampionshipEvent] = []
        if person is None:
            games.game_set_seat_bot(
                game_id=game_id, actor=actor, seat=seat, bot=championship.settings.bot_level
            )
        else:
            for number, seats in enumerate(holders):
                for other, holder in enumerate(seats):
                    if holder == person.pk and (number, other) != (index, seat):
                        raise ReserveSeated(person.pk, number + 1)
            entry = championship.entries.get(person.pk)
            if entry is not None and entry.disqualified:
                raise Disqualified(person.pk)
            if entry is None:
                events.append(PlayerRegistered(person.pk, _name(person.display)[:64]))
            name = _name(person.display) if events else championship.entries[person.pk].name
            game = Game.objects.get(pk=game_id)
            taken = {s["alias"] for s in game.seats if s["seat"] != seat}
            games.game_substitute(
                game_id=game_id, actor=actor, seat=seat, user=person, alias=_alias(name, taken)
            )
        chosen = None if person is None else person.pk
        if holders[index][seat] != chosen:
            events.append(SeatSubstituted(played.number, index, seat, chosen))
        return events

    return _execute(event_id, actor, None, decide)


def event_start_round(
    *, event_id: uuid.UUID, actor: User, expected_version: int | None = None
) -> EventResult:
    """Seat every checked-in player at tables of 3 to 6 and open their games: round 1
    at random (or by rating), later rounds Swiss, avoiding repeated tablemates. A
    whist drive seats fours, and its later rounds follow the event's movement."""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        settings = championship.settings
        groups = _groups(championship)
        refusal = _next_round_refusal(championship, groups)
        if refusal is not None:
            raise refusal
        number = len(championship.rounds) + 1
        rng = random.Random(f"{settings.seed}:{number}")
        tables: list[list[int]] = []
        places: list[str] = []
        for place, present in groups:
            seated = _seat(event_id, championship, present, number, rng)
            tables += seated
            places += [place] * len(seated)
        game_ids = [
            _open_table(event_id, championship, number, players, place)
            for players, place in zip(tables, places, strict=True)
        ]
        return [
            RoundStarted(
                number,
                tuple(map(tuple, tables)),
                tuple(map(str, game_ids)),
                tuple(places) if set(places) != {ONLINE} else (),
                _round_ends_at(settings),
            )
        ]

    return _execute(event_id, actor, expected_version, decide)


def _round_ends_at(settings: EventCreated) -> str | None:
    if not settings.round_minutes:
        return None
    limit = settings.round_minutes * django_settings.ATU_ROUND_MINUTE_SECONDS
    return (timezone.now() + timedelta(seconds=limit)).isoformat()


def event_call_time(*, event_id: uuid.UUID, round_number: int) -> bool:
    """The clock's rule, once round ``round_number``'s time is up: under
    "finish-deal", every table of the round still playing is told to finish the deal
    in progress and play no more (the games' ``TimeCalled``), in the same transaction
    as the round's ``RoundTimeUp``. Whether this call recorded it. Nobody's command but
    the clock's (the task ``call_round_time``): asked early, for another round, under
    another rule, or again, it records nothing."""
    recorded: list[ChampionshipEvent] = []

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        recorded[:] = []
        if not _time_is_up(championship, round_number) or not _unfinished_tables(championship):
            return []
        for game_id in championship.rounds[-1].games:
            games.game_call_time(game_id=uuid.UUID(game_id))
        recorded.append(RoundTimeUp(round_number))
        return recorded

    try:
        _execute(event_id, None, None, decide)
    except VersionConflict:
        _execute(event_id, None, None, decide)
    return bool(recorded)


def event_call_time_now(
    *, event_id: uuid.UUID, actor: User, round_number: int, reason: str = ""
) -> EventResult:
    """The director calls time in round ``round_number`` (the round in play) by hand,
    before its limit or with none: every table still playing finishes the deal in
    progress and plays no more (the games' ``TimeCalled``), as under the
    "finish-deal" rule at the limit, whatever the event's rule; recorded as the
    round's ``RoundTimeUp`` with the director, the time and ``reason``, and the
    round's deadline is now (decision 3407). Refused for a whist drive and duplicate
    deals, whose results need every deal."""
    reason = reason.strip()[:MAX_CLOCK_REASON_LENGTH] if isinstance(reason, str) else ""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        played = _round_in_play(championship, round_number)
        settings = championship.settings
        if settings.kind != ROMANIAN or settings.duplicate:
            raise PlaysEveryDeal()
        for game_id in played.games:
            games.game_call_time(game_id=uuid.UUID(game_id))
        return [RoundTimeUp(played.number, reason, timezone.now().isoformat())]

    return _execute(event_id, actor, None, decide)


def event_extend_round(
    *, event_id: uuid.UUID, actor: User, round_number: int, minutes: int, reason: str
) -> EventResult:
    """The director gives round ``round_number`` (the round in play, with a time
    limit and its time not called) ``minutes`` more (1 to ``MAX_EXTENSION_MINUTES``),
    with the reason: its deadline moves that much later (from now, if it has passed
    already), and every countdown and the clock's task follow it (decision 3407)."""
    reason = reason.strip() if isinstance(reason, str) else ""
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise ExtensionOutOfRange(minutes, 1, MAX_EXTENSION_MINUTES)
    if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
        raise ExtensionOutOfRange(minutes, 1, MAX_EXTENSION_MINUTES)

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        played = _round_in_play(championship, round_number)
        if played.ends_at is None:
            raise NoTimeLimit(played.number)
        if not reason:
            raise InvalidEventInput("an extension states its reason")
        extra = timedelta(seconds=minutes * django_settings.ATU_ROUND_MINUTE_SECONDS)
        ends_at = max(played.ends_at, timezone.now()) + extra
        return [
            RoundExtended(
                played.number, minutes, reason[:MAX_CLOCK_REASON_LENGTH], ends_at.isoformat()
            )
        ]

    return _execute(event_id, actor, None, decide)


def _round_in_play(championship: Championship, round_number: int) -> Round:
    """The round in play, which the director's command names, with a table still
    playing and its time not called."""
    if not championship.rounds or championship.finished or not _unfinished_tables(championship):
        raise NoRoundInPlay()
    played = championship.rounds[-1]
    if isinstance(round_number, bool) or round_number != played.number:
        raise WrongRound(round_number, played.number)
    if played.time_up:
        raise TimeAlreadyCalled(played.number)
    return played


def _time_is_up(championship: Championship, round_number: int) -> bool:
    """Whether the clock's rule is due for round ``round_number`` now: the round in
    play, past its time, under "finish-deal", and not yet applied."""
    if not championship.rounds or championship.finished:
        return False
    played = championship.rounds[-1]
    return (
        championship.settings.at_time == AT_TIME_FINISH_DEAL
        and played.number == round_number
        and not played.time_up
        and played.ends_at is not None
        and timezone.now() >= played.ends_at
    )


def _seat(
    event_id: uuid.UUID,
    championship: Championship,
    present: list[int],
    number: int,
    rng: random.Random,
) -> list[list[int]]:
    """The tables of round ``number`` for the players ``present`` (those of one place):
    round 1 at random (or by rating), later rounds Swiss, avoiding repeated tablemates;
    a whist drive's later rounds follow its movement."""
    settings = championship.settings
    if settings.kind == CLASSIC:
        sizes = [seating.PARTNERSHIP_TABLE] * (len(present) // seating.PARTNERSHIP_TABLE)
    else:
        sizes = seating.table_sizes(len(present), settings.table_size)
    last = championship.rounds[-1] if championship.rounds else None
    if (
        settings.movement == "progressive"
        and last is not None
        and sorted(p for table in last.tables for p in table) == present
    ):
        return seating.progressive_movement(last.tables, _winning_sides(last, rng))
    if number == 1 or settings.movement == "progressive":
        # A drive whose players changed since the last round is drawn afresh.
        ratings = _ratings(settings, present) if settings.first_round == "rating" else None
        return seating.first_round(present, sizes=sizes, rng=rng, ratings=ratings)
    standing = {s.player: float(s.points) for s in event_standings(event_id, championship)}
    met: Counter[frozenset[int]] = Counter()
    for played in championship.rounds:
        seating.record_meetings(met, played.tables)
    return seating.swiss_round(
        present,
        sizes=sizes,
        standing={player: standing.get(player, 0.0) for player in present},
        met=met,
        rng=rng,
    )


def _groups(championship: Championship) -> rounds.Groups:
    """The players to seat in the next round, by where their tables are played."""
    present = championship.present
    return rounds.groups(
        championship.settings.place,
        ((player, championship.entries[player].in_room) for player in present),
    )


def _next_round_refusal(championship: Championship, groups: rounds.Groups) -> EventError | None:
    settings = championship.settings
    return rounds.next_round_refusal(
        kind=settings.kind,
        started=len(championship.rounds),
        total=settings.rounds,
        unfinished=_unfinished_tables(championship),
        seated=groups,
    )


def event_move_table(*, event_id: uuid.UUID, actor: User, table: int, place: str) -> EventResult:
    """Move table ``table`` (counted from 1) of the round in play between the room and
    online, before anyone has bid, played or written a deal down there: its game is
    called off and its players seated, as they were, at a new one in ``place``. Only
    at an event played both ways; its players play there in the rounds to come too,
    unless they check in again."""
    if place not in (ONLINE, ROOM):
        raise InvalidEventInput(f"a table is played {ONLINE} or {ROOM}, not {place!r}")

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        if championship.settings.place != BOTH:
            raise InvalidEventInput("only an event played both online and in the room moves tables")
        if not championship.rounds or isinstance(table, bool) or not isinstance(table, int):
            raise InvalidEventInput("there is no such table in the round in play")
        played = championship.rounds[-1]
        if not 1 <= table <= len(played.tables):
            raise InvalidEventInput(f"the round in play has tables 1 to {len(played.tables)}")
        index = table - 1
        if played.place_of(index) == place:
            return []
        games.game_call_off(game_id=uuid.UUID(played.games[index]), actor=actor)
        players = list(played.tables[index])
        moved = _open_table(event_id, championship, played.number, players, place)
        return [TableMoved(played.number, index, place, str(moved))]

    return _execute(event_id, actor, None, decide)


def event_advance(*, event_id: uuid.UUID) -> EventResult | None:
    """Start the next round of an event that advances by itself, if its last round is
    over and rounds are left; None when there is nothing to start. Run late or twice,
    it starts each round once (the organizer's own command, at the read version)."""
    championship = load_championship(event_id)
    settings = championship.settings
    if (
        not settings.auto_advance
        or not championship.rounds
        or _next_round_refusal(championship, _groups(championship)) is not None
    ):
        return None
    organizer = User.objects.get(pk=settings.organizer_id)
    try:
        return event_start_round(
            event_id=event_id, actor=organizer, expected_version=championship.version
        )
    except (RoundInProgress, EventOver, VersionConflict):
        return None


def event_begin(*, event_id: uuid.UUID) -> EventResult | None:
    """A scheduled event's start, once its time has come: check-in closes (the no-shows
    withdrawn, or seated with a bot playing for them, as the organizer chose) and round
    1 starts, as the organizer's command. None before the start, for an unscheduled
    event, or once round 1 has started; otherwise the event's version after it. Run
    late or twice, it closes check-in once and starts round 1 once; with too few
    players it closes check-in and leaves round 1 to the organizer (asked again, it
    tries again)."""
    championship = load_championship(event_id)
    settings = championship.settings
    start = settings.start
    if start is None or championship.rounds or _now() < start:
        return None
    organizer = User.objects.get(pk=settings.organizer_id)

    def close(championship: Championship) -> list[ChampionshipEvent]:
        if championship.check_in_closed or championship.rounds:
            return []
        absent = tuple(
            entry.player_id
            for entry in championship.entries.values()
            if not entry.checked_in and not entry.withdrawn
        )
        if championship.settings.no_shows == "bot":
            return [CheckInClosed(bots=absent)]
        return [CheckInClosed(withdrawn=absent)]

    try:
        if not championship.check_in_closed:
            # The clock's, not the organizer's: recorded with no actor.
            _execute(event_id, None, None, close)
            championship = load_championship(event_id)
        if (
            championship.rounds
            or _next_round_refusal(championship, _groups(championship)) is not None
        ):
            return EventResult(event_id, championship.version)
        return event_start_round(
            event_id=event_id, actor=organizer, expected_version=championship.version
        )
    except (RoundInProgress, EventOver, VersionConflict):
        return None


def event_correct_result(
    *,
    event_id: uuid.UUID,
    actor: User,
    round_number: int,
    player_id: int,
    points: float,
    reason: str,
) -> EventResult:
    """Add (or take) tournament points to a player's round, with the reason: recorded
    as an event, never as an edit. Refused once the published results are final."""
    reason = (reason or "").strip()

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        if championship.results_final(timezone.now()):
            raise ResultsFinal()
        if not reason:
            raise InvalidEventInput("a correction states its reason")
        if not 1 <= round_number <= len(championship.rounds):
            raise InvalidEventInput(f"there is no round {round_number} yet")
        if not any(player_id in table for table in championship.rounds[round_number - 1].tables):
            raise NotEntered(player_id)
        if isinstance(points, bool) or not isinstance(points, int | float) or points == 0:
            raise InvalidEventInput("a correction is a number of points other than 0")
        return [ResultCorrected(round_number, player_id, float(points), reason[:500])]

    return _execute(event_id, actor, None, decide)


def event_publish_results(
    *, event_id: uuid.UUID, actor: User, protest_minutes: int | None = None
) -> EventResult:
    """Publish the standings, once every round has been played: provisional for
    ``protest_minutes`` (by default the event's window), in which the director may
    still correct them, final from then on (at once for 0)."""
    if protest_minutes is not None:
        _check_whole(protest_minutes, "the protest window", 0, MAX_PROTEST_MINUTES)

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        if championship.published:
            return []
        if len(championship.rounds) < championship.settings.rounds:
            raise EventOver(
                f"{championship.settings.rounds - len(championship.rounds)} round(s) "
                "are still to be played"
            )
        playing = _unfinished_tables(championship)
        if playing:
            raise RoundInProgress(championship.rounds[-1].number, playing)
        minutes = championship.settings.protest_minutes
        if protest_minutes is not None:
            minutes = protest_minutes
        window = timedelta(seconds=minutes * django_settings.ATU_PROTEST_MINUTE_SECONDS)
        final_at = timezone.now() + window if minutes else None
        # Published before the standings task found it over: it is over all the same.
        published = ResultsPublished(final_at.isoformat() if final_at else None)
        return [*_finishing(championship), published]

    return _execute(event_id, actor, None, decide)


def event_finish(*, event_id: uuid.UUID) -> bool:
    """Record that the event is over once its last round's last table has finished;
    whether this call recorded it. Nobody's command: the standings task asks, after
    each update. Asked again, or for an event still in play, it records nothing. Two
    callers racing for the stream's next sequence: the unique (stream, sequence) pair
    refuses the second, which reads the stream again and finds the event over."""
    recorded: list[ChampionshipEvent] = []

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        recorded[:] = _finishing(championship)
        return recorded

    try:
        _execute(event_id, None, None, decide)
    except VersionConflict:
        _execute(event_id, None, None, decide)
    return bool(recorded)


def event_finish_all() -> int:
    """Ask :func:`event_finish` of every championship in the log; how many it recorded
    as over. For a championship whose last table finished with no ``EventFinished``
    in its stream and that the standings task will not ask about (its read model does
    not say it is running): ``manage.py finish_events``. The rebuild of the read models
    only derives, so it records nothing (decision 3201)."""
    streams = store.streams(CHAMPIONSHIP_STREAM_PREFIX)
    return sum(
        event_finish(event_id=uuid.UUID(stream.removeprefix(CHAMPIONSHIP_STREAM_PREFIX)))
        for stream in streams
    )


def _finishing(championship: Championship) -> list[ChampionshipEvent]:
    """The one decision that an event is over: every round started and the last
    one's tables all finished, not recorded yet."""
    if (
        championship.finished
        or len(championship.rounds) < championship.settings.rounds
        or _unfinished_tables(championship)
    ):
        return []
    return [EventFinished()]


DEMO_EVENT_NAME = "Demo Cup"
# Nine quick deals a round (1, 3, 5, 7, 8, 7, 5, 3, 1), so a newcomer sees rounds pass.
DEMO_RULES = {
    "schedule": "1-8-1",
    "step": 2,
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
}


def event_open_demo(*, organizer: User, players: int = 12) -> tuple[Event, bool]:
    """A small championship of bots in progress, advancing round by round by itself,
    unless the organizer already has one running; returns it and whether it is new.
    Its bots play the default level, as an organizer's event's do."""
    with user_demo_lock(organizer):
        running = Event.objects.filter(
            organizer_id=organizer.pk, name=DEMO_EVENT_NAME, status=Event.Status.RUNNING
        ).first()
        if running is not None:
            return running, False
        event = event_create(
            organizer=organizer,
            name=DEMO_EVENT_NAME,
            preset_name="romanian-standard",
            options=DEMO_RULES,
            rounds=3,
            auto_advance=True,
        )
        event_add_bots(event_id=event.id, actor=organizer, count=players)
        event_start_round(event_id=event.id, actor=organizer)
    return Event.objects.get(pk=event.id), True


def event_follow_demo(*, event_id: uuid.UUID) -> tuple[Event, bool] | None:
    """The demo championship that follows ``event_id``, a demo championship that
    finished: started unless one is running already (this run's twin started it), and
    whether it is new. None for any other event."""
    finished = Event.objects.filter(
        pk=event_id, name=DEMO_EVENT_NAME, status=Event.Status.FINISHED
    ).first()
    organizer = None if finished is None else user_demo_organizer(finished.organizer_id)
    if organizer is None:
        return None
    return event_open_demo(organizer=organizer)


# --- The write path -----------------------------------------------------------------


def _execute(
    event_id: uuid.UUID,
    actor: User | None,
    expected_version: int | None,
    decide: Callable[[Championship], list[ChampionshipEvent]],
    championship: Championship | None = None,
) -> EventResult:
    with transaction.atomic():
        if championship is None:
            # Serializes the event's writers on PostgreSQL; the unique (stream,
            # sequence) pair still catches any race.
            Event.objects.select_for_update().filter(pk=event_id).first()
            championship = load_championship(event_id)
        base = championship.version
        if expected_version is not None and expected_version != base:
            raise VersionConflict(expected_version, base)
        events = decide(championship)
        if not events:
            return EventResult(event_id, base)
        recorded = store.append(championship_stream(event_id), base, events, actor)
        fold_records(championship, recorded)
        project_event(event_id, championship, updated_at=recorded[-1].recorded_at)
        # A deputy named or removed: the sockets ask again who directs the event.
        directors = any(isinstance(event, DeputyNamed | DeputyRemoved) for event in events)
        after_commit(publish_event, event_id, championship.version, directors=directors)
        after_commit(
            championship_recorded.send,
            sender=Event,
            championship_id=event_id,
            version=championship.version,
            events=events,
        )
    return EventResult(event_id, championship.version)


def publish_event(event_id: uuid.UUID, version: int, *, directors: bool = False) -> None:
    """Tell the event page's sockets that the event changed (entries, a round, the
    standings): each reads the projection again; ``directors``: who directs it changed
    too (a deputy named or removed), so each socket asks again whether its viewer
    does. Delivered until the layer takes it (:mod:`runtime.outbox`); a newer message
    replacing a waiting one keeps its ``directors``."""
    message: dict[str, Any] = {"type": "event.changed", "version": version}
    if directors:
        message["directors"] = True
    outbox.publish(event_group(event_id), message, _keep_directors)


def _keep_directors(waiting: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
    if waiting.get("directors") and not newer.get("directors"):
        return {**newer, "directors": True}
    return newer


def player_erase(user_id: int) -> None:
    """Erase what the championships' streams name of the user ``user_id`` (an
    entrant's name, a deputy's, their words to the director, what a correction or a
    disqualification says of them), beside the log, and bring the read models to the
    log as it now reads: their entries, standings and season standings say "Deleted
    player"; points, ranks and ratings are the same numbers (decision 3503). An
    entry in an event not over is withdrawn first, by the player: nobody would play
    their seat in the rounds to come."""
    player = User.objects.get(pk=user_id)
    named = {
        uuid.UUID(stream.removeprefix(CHAMPIONSHIP_STREAM_PREFIX))
        for stream in store.personal_streams(user_id, CHAMPIONSHIP_STREAM_PREFIX)
    }
    # An entry handed over from a guest names the guest, not the account, beside the log.
    entered = set(Entry.objects.filter(player_id=user_id).values_list("event_id", flat=True))
    for event_id in sorted(named | entered):
        championship = load_championship(event_id)
        entry = championship.entries.get(user_id)
        if entry is not None and not entry.withdrawn and not championship.finished:
            event_withdraw(event_id=event_id, actor=player)
    streams = store.erase(user_id, CHAMPIONSHIP_STREAM_PREFIX)
    events = []
    for stream in streams:
        records = store.read(stream)
        event_id = uuid.UUID(stream.removeprefix(CHAMPIONSHIP_STREAM_PREFIX))
        championship = fold_records(Championship(), records)
        project_event(event_id, championship, updated_at=records[-1].recorded_at)
        events.append((event_id, championship.version))
    # Names the projections keep once written (an entry's name is fixed), set as a
    # rebuild from the log would set them.
    Standing.objects.filter(player_id=user_id).update(name=ERASED_NAME)
    SeasonStanding.objects.filter(player_id=user_id).update(name=ERASED_NAME)
    Entry.objects.filter(player_id=user_id).update(name=ERASED_NAME)
    Deputy.objects.filter(user_id=user_id).update(name="")
    for event_id, version in events:
        after_commit(publish_event, event_id, version)


# --- Helpers --------------------------------------------------------------------------


def _open_table(
    event_id: uuid.UUID,
    championship: Championship,
    round_number: int,
    players: list[int],
    place: str,
) -> uuid.UUID:
    """The game of one table, every seat taken (bots' seats played by bots). Its
    creator is the event's organizer whoever starts the round: a table is the event's,
    and who directs it is the event's word (tournaments.selectors.directs_table), so a
    deputy removed later keeps no rights at the tables they opened."""
    settings = championship.settings
    organizer = User.objects.get(pk=settings.organizer_id)
    game = games.game_create(
        creator=organizer,
        player_count=len(players),
        preset=settings.preset or None,
        options=settings.options,
        turn_seconds=settings.turn_seconds,
        stand_in_seconds=settings.absent_seconds or None,
        spectator_delay=settings.spectator_delay,
        kind=settings.kind,
        # Duplicate: every table of a size in the round plays the same deals.
        deal_set=f"{event_id}:{round_number}:{len(players)}" if settings.duplicate else None,
        place=place,
    )
    users = User.objects.in_bulk(players)
    aliases: set[str] = set()
    for seat, player_id in enumerate(players):
        # A no-show seated at the start has a bot play for them until they take the seat.
        if users[player_id].is_bot or championship.entries[player_id].bot_plays:
            games.game_set_seat_bot(
                game_id=game.id, actor=organizer, seat=seat, bot=settings.bot_level
            )
    for player_id in players:
        # A bot sits under its name alone: the table marks its seat as a bot's.
        user = users[player_id]
        name = user_bot_name(user) if user.is_bot else championship.entries[player_id].name
        games.game_join(game_id=game.id, user=user, alias=_alias(name, aliases))
    return game.id


def _alias(name: str, taken: set[str]) -> str:
    # An entrant's name may hold what a table's alias may not (games.commands.aliases).
    return fitting_alias(name, taken)


def _unfinished_tables(championship: Championship) -> int:
    if not championship.rounds:
        return 0
    game_ids = [uuid.UUID(game_id) for game_id in championship.rounds[-1].games]
    return Game.objects.filter(pk__in=game_ids).exclude(status=Game.Status.FINISHED).count()


def _ratings(settings: EventCreated, players: list[int]) -> dict[int, float]:
    if settings.season_id is None:
        return {}
    rows = SeasonStanding.objects.filter(season_id=settings.season_id, player_id__in=players)
    return {row.player_id: row.rating for row in rows}


def _require_organizer_account(user: User) -> None:
    if not user.may_organize:
        raise MayNotOrganize()


def _require_organizer(championship: Championship, actor: User) -> None:
    """The organizer's own commands: a deputy may not name or remove deputies."""
    if actor.pk == championship.settings.organizer_id:
        return
    raise OrganizerOnly() if championship.directed_by(actor.pk) else NotDirector()


def _require_director(championship: Championship, actor: User) -> None:
    """Whoever directs the event: its organizer or one of their deputies."""
    if not championship.directed_by(actor.pk):
        raise NotDirector()


def _require_room(championship: Championship, count: int) -> None:
    limit = championship.settings.entry_limit
    if limit is not None and championship.entered + count > limit:
        raise EventFull(limit)


def _require_check_in_open(championship: Championship) -> None:
    """A player checks themself in within a scheduled event's window; the organizer
    checks anyone in at any time (decision 3404)."""
    settings = championship.settings
    opens, start = settings.check_in_opens, settings.start
    if opens is None or start is None or championship.rounds:
        return
    now = _now()
    if now < opens:
        raise CheckInNotOpen(opens)
    if championship.check_in_closed or now >= start:
        raise CheckInClosedError(start)


def _require_rounds_left(championship: Championship) -> None:
    if len(championship.rounds) >= championship.settings.rounds:
        raise EventOver("every round has started: entries are closed")


def _drive_rules(preset_name: str, options: Mapping[str, Any] | None) -> classic.ClassicOptions:
    try:
        chosen = classic.options_from_dict(options or {}, classic.preset(preset_name))
    except RuleError as error:
        raise InvalidEventInput(error.message) from None
    if not chosen.tournament:
        raise InvalidEventInput("a whist drive plays a fixed number of deals at each table")
    return chosen


def _winning_sides(played: Round, rng: random.Random) -> list[int]:
    """The side that won each table of a drive's round (0: seats 0 and 2), from the
    games' logs; a tie is settled by lot, as by cutting cards."""
    figures = read_figures(uuid.UUID(game_id) for game_id in played.games)
    sides = []
    for game_id in played.games:
        a, b = figures[uuid.UUID(game_id)].scores[:2]
        sides.append(0 if a > b else 1 if b > a else rng.randrange(2))
    return sides


def _rules(preset_name: str, options: Mapping[str, Any] | None) -> RuleOptions:
    try:
        base = preset(preset_name) if preset_name else RuleOptions()
        chosen = options_from_dict(options or {}, base)
        build_schedule(chosen, 3)
    except (RuleError, KeyError) as error:
        message = error.message if isinstance(error, RuleError) else f"no preset {preset_name!r}"
        raise InvalidEventInput(message) from None
    return chosen


def _check_whole(value: Any, what: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidEventInput(f"{what} is a whole number from {low} to {high}")


def _name(name: str) -> str:
    name = (name or "").strip()
    if not 1 <= len(name) <= MAX_NAME_LENGTH:
        raise InvalidEventInput(f"a name is 1 to {MAX_NAME_LENGTH} characters")
    return name


# --- Announcements --------------------------------------------------------------------

MAX_ANNOUNCEMENT_LENGTH = 280
# How many announcements may be shown at once: a screen has room for a few, and the
# picture every viewer gets stays small.
MAX_ANNOUNCEMENTS = 20


def event_announce(
    *, event_id: uuid.UUID, actor: User, text: str, expected_version: int | None = None
) -> EventResult:
    """The director's word to the room ("Round 3 starts at 15:00"): shown on the
    room's screen and the event's page, newest first, until withdrawn."""
    text = text.strip() if isinstance(text, str) else ""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        if not 1 <= len(text) <= MAX_ANNOUNCEMENT_LENGTH:
            raise InvalidEventInput(f"an announcement is 1 to {MAX_ANNOUNCEMENT_LENGTH} characters")
        if len(championship.announcements) >= MAX_ANNOUNCEMENTS:
            raise TooManyAnnouncements(len(championship.announcements))
        return [Announced(text)]

    return _execute(event_id, actor, expected_version, decide)


def event_withdraw_announcement(
    *, event_id: uuid.UUID, actor: User, number: int, expected_version: int | None = None
) -> EventResult:
    """Take announcement ``number`` off the screen and the event's page."""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        if not any(made.number == number for made in championship.announcements):
            raise AnnouncementNotFound(number)
        return [AnnouncementWithdrawn(number)]

    return _execute(event_id, actor, expected_version, decide)


# --- Calls to the director -------------------------------------------------------------


@dataclass(frozen=True)
class CallMade(EventResult):
    # The call's number in the event.
    number: int


def event_call_director(
    *, event_id: uuid.UUID, actor: User, game_id: uuid.UUID, reason: str, text: str = ""
) -> CallMade:
    """A player seated at one of the event's tables calls the director to it, with a
    reason and what they add. One call at a time from a seat: a second is refused
    until the director closes the first."""
    text = text.strip() if isinstance(text, str) else ""
    made: list[int] = []

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        if reason not in CALL_REASONS:
            raise InvalidEventInput(f"a call's reason is one of {', '.join(CALL_REASONS)}")
        if len(text) > MAX_CALL_TEXT_LENGTH:
            raise InvalidEventInput(f"a call says at most {MAX_CALL_TEXT_LENGTH} characters")
        if championship.published:
            raise EventOver("the results are published: the director takes no more calls")
        number, table, seat = _seat_at(championship, str(game_id), actor.pk)
        waiting = next(
            (
                call.number
                for call in championship.calls
                if call.open and call.called.game == str(game_id) and call.called.seat == seat
            ),
            None,
        )
        if waiting is not None:
            raise CallStillOpen(waiting)
        made[:] = [len(championship.calls) + 1]
        return [DirectorCalled(number, table, str(game_id), seat, actor.pk, reason, text)]

    result = _execute(event_id, actor, None, decide)
    return CallMade(result.event_id, result.version, made[0])


def event_answer_call(*, event_id: uuid.UUID, actor: User, number: int) -> EventResult:
    """The director is on the way: the caller's table sees it. Answered again, nothing
    changes."""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        call = _open_call(championship, number)
        return [] if call.state == ANSWERED else [CallAnswered(number)]

    return _execute(event_id, actor, None, decide)


def event_close_call(
    *, event_id: uuid.UUID, actor: User, number: int, note: str = ""
) -> EventResult:
    """The director closes a call (answered or not), with a note of what was decided."""
    note = note.strip() if isinstance(note, str) else ""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_director(championship, actor)
        if len(note) > MAX_CALL_NOTE_LENGTH:
            raise InvalidEventInput(f"a call's note is at most {MAX_CALL_NOTE_LENGTH} characters")
        _open_call(championship, number)
        return [CallClosed(number, note)]

    return _execute(event_id, actor, None, decide)


def _seat_at(championship: Championship, game: str, player_id: int) -> tuple[int, int, int]:
    """The round, table index and seat of ``player_id`` at the event's table ``game``."""
    for played in championship.rounds:
        if game in played.games:
            players = played.tables[played.games.index(game)]
            if player_id not in players:
                raise NotAtTable(player_id)
            return played.number, played.games.index(game), players.index(player_id)
    raise GameNotFound(game)


def _open_call(championship: Championship, number: int) -> Call:
    if isinstance(number, bool) or not isinstance(number, int):
        raise CallNotFound(number)
    if not 1 <= number <= len(championship.calls):
        raise CallNotFound(number)
    call = championship.calls[number - 1]
    if not call.open:
        raise CallOver(number)
    return call


# --- Deputies -------------------------------------------------------------------------


def event_name_deputy(*, event_id: uuid.UUID, actor: User, who: str) -> EventResult:
    """Name the account ``who`` (a username, or the e-mail address of one account) a
    deputy: a co-director who may do all the organizer does to run the event (entries,
    check-in, rounds, tables, corrections, announcements, publishing), each command
    recorded as theirs, but not name or remove deputies. Only the organizer may."""
    deputy = _account(who)

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_organizer(championship, actor)
        if championship.directed_by(deputy.pk):
            raise AlreadyDeputy(deputy.pk)
        return [DeputyNamed(deputy.pk, deputy.display[:64])]

    return _execute(event_id, actor, None, decide)


def event_remove_deputy(*, event_id: uuid.UUID, actor: User, user_id: int) -> EventResult:
    """Take a deputy's rights back; what they did stays recorded as theirs. Only the
    organizer may."""

    def decide(championship: Championship) -> list[ChampionshipEvent]:
        _require_organizer(championship, actor)
        if user_id not in championship.deputies:
            raise NotDeputy(user_id)
        return [DeputyRemoved(user_id, championship.deputies[user_id])]

    return _execute(event_id, actor, None, decide)


def _account(who: str) -> User:
    """The person's account named by its username, or by an e-mail address that one
    account has; a bot directs nothing."""
    who = who.strip() if isinstance(who, str) else ""
    found = list(User.objects.filter(username__iexact=who, is_active=True)[:1])
    if not found and "@" in who:
        found = list(User.objects.filter(email__iexact=who, is_active=True)[:2])
    if len(found) != 1 or found[0].is_bot:
        raise NoSuchAccount(who)
    return found[0]
