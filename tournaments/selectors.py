"""Reads of championship events and seasons for the pages and the event socket.

Everything here reads the read models (and, for whose turn it is at a table, the
games' cached tables; for the audit trail, the event's own log); nothing writes.
:func:`event_live` is the one picture of an event that the event page, its socket and
``live.json`` all show.
"""

from __future__ import annotations

import math
import re
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings as django_settings
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from eventlog import store
from games.errors import GameNotFound
from games.models import Game
from games.read.selectors import PlayerEvent, TableHome
from games.table import ONLINE
from games.visibility import MAX_SPECTATOR_DELAY, record_public
from games.write.tables import load_table
from tournaments import desk, points, rounds
from tournaments.championship import (
    ANSWERED,
    CLOSED,
    Announced,
    AnnouncementWithdrawn,
    CallClosed,
    Championship,
    DeputyNamed,
    DeputyRemoved,
    DirectorCalled,
    EventCreated,
    EventFinished,
    PlayerDisqualified,
    PlayerWithdrew,
    ResultCorrected,
    ResultsPublished,
    RoundExtended,
    RoundStarted,
    RoundTimeUp,
    SeatSubstituted,
    TableMoved,
    championship_stream,
    fold_records,
)
from tournaments.errors import EventNotFound, NotDirector, SeasonNotFound
from tournaments.models import (
    Deputy,
    Entry,
    Event,
    RatingChange,
    Season,
    SeasonStanding,
    Standing,
    TableResult,
)
from tournaments.projections import seasons, standings

# An event's share code (or anything that could be one); the rest is no event of ours.
EVENT_CODE = re.compile(r"[0-9A-Za-z]{1,8}")
# How many players the season page charts.
CHART_PLAYERS = 5
CHART_COLOURS = ("#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a")


def points_text(value: float) -> str:
    """Tournament points as people read them: 12, 12.5, -3.25 (never -0)."""
    if abs(value) < 0.005:
        return "0"
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text


# --- Finding events, and who may see them ------------------------------------------


def find_event(code: str) -> Event:
    if not isinstance(code, str) or not EVENT_CODE.fullmatch(code):
        raise EventNotFound(code)
    try:
        return Event.objects.get(code=code.upper())
    except Event.DoesNotExist:
        raise EventNotFound(code) from None


def is_entrant(event: Event, user_id: int | None) -> bool:
    return (
        user_id is not None and Entry.objects.filter(event_id=event.id, player_id=user_id).exists()
    )


def may_view(event: Event, user_id: int | None) -> bool:
    """A public event: anyone; a private one: who directs it and its entrants."""
    return event.public or directs_event(event, user_id) or is_entrant(event, user_id)


def directs_event(event: Event, user_id: int | None) -> bool:
    """Whether ``user_id`` directs the event: its organizer or one of their deputies
    (the fold's twin of this rule: Championship.directed_by, which the services
    decide by). Who directs an event manages it (:func:`managed_event`), sees its
    tables' play as it happens, despite its spectator delay, everywhere, and has the
    organizer's rights at its tables (:func:`directs_table`), and sees whose turn it
    is at each table."""
    return user_id is not None and (
        event.organizer_id == user_id
        or Deputy.objects.filter(event_id=event.id, user_id=user_id).exists()
    )


def deputies(event: Event) -> list[Deputy]:
    return list(Deputy.objects.filter(event_id=event.id))


def directed_events(events: Iterable[Event], user_id: int | None) -> set[uuid.UUID]:
    """Which of ``events`` ``user_id`` directs (:func:`directs_event`), asked at once."""
    events = list(events)
    if user_id is None:
        return set()
    deputized = set(
        Deputy.objects.filter(
            user_id=user_id, event_id__in=[event.id for event in events]
        ).values_list("event_id", flat=True)
    )
    return {event.id for event in events if event.organizer_id == user_id} | deputized


def seen_status(event: Event, user_id: int | None, now: datetime) -> str:
    """The event's status as the viewer ``user_id`` sees it at ``now``: an event whose
    last table's finish its spectator delay still holds back from them is running."""
    return _status_seen(event, directs=directs_event(event, user_id), now=now)


def statuses_seen(
    events: Iterable[Event], user_id: int | None, now: datetime
) -> dict[uuid.UUID, str]:
    """Each of ``events``' status as the viewer ``user_id`` sees it at ``now``
    (:func:`seen_status`), whom they direct asked at once."""
    events = list(events)
    directed = directed_events(events, user_id)
    return {
        event.id: _status_seen(event, directs=event.id in directed, now=now) for event in events
    }


def _status_seen(event: Event, *, directs: bool, now: datetime) -> str:
    if (
        event.status == Event.Status.FINISHED
        and event.spectator_delay
        and not directs
        and now < event.updated_at + timedelta(seconds=event.spectator_delay)
    ):
        return Event.Status.RUNNING
    return event.status


def directs_table(game_id: uuid.UUID, user_id: int) -> bool:
    """Whether ``user_id`` directs the game of an event's table: who directs its event
    (registered with games.visibility's Audience: they see its play live on every
    route that shows it, and have its creator's rights, to pause it, seat a bot or
    write its deals down from the room)."""
    event_id = event_of_game(game_id)
    if event_id is None:
        return False
    event = Event.objects.filter(pk=event_id).first()
    return event is not None and directs_event(event, user_id)


def viewable_event(code: str, user_id: int | None) -> Event:
    """The event, if this viewer may see it; otherwise it does not exist for them."""
    event = find_event(code)
    if not may_view(event, user_id):
        raise EventNotFound(code)
    return event


def managed_event(code: str, user_id: int | None) -> Event:
    """The event, for who directs it only (404 to those who may not even see it)."""
    event = viewable_event(code, user_id)
    if not directs_event(event, user_id):
        raise NotDirector()
    return event


def events_list(user_id: int | None) -> QuerySet[Event]:
    """Public events, and the viewer's own (organized, deputized or entered)."""
    visible = Q(public=True)
    if user_id is not None:
        entered = Entry.objects.filter(player_id=user_id).values_list("event_id", flat=True)
        deputized = Deputy.objects.filter(user_id=user_id).values_list("event_id", flat=True)
        visible |= Q(organizer_id=user_id) | Q(id__in=[*entered, *deputized])
    return Event.objects.filter(visible)


def schedule_group(event: Event) -> str:
    """Where the event list puts ``event``: "upcoming" (no round started), "running",
    or "finished" (published too)."""
    if event.status == Event.Status.REGISTRATION:
        return "upcoming"
    if event.status == Event.Status.RUNNING:
        return "running"
    return "finished"


def check_in_state(event: Event, now: datetime) -> str:
    """Where a scheduled event's check-in stands at ``now``: "before" its window,
    "open", "closed" (the start has come, round 1 not started yet), or "unscheduled"
    (no start, or round 1 started: check-in as at an unscheduled event)."""
    if event.starts_at is None or event.check_in_opens_at is None or event.rounds_started:
        return "unscheduled"
    if now < event.check_in_opens_at:
        return "before"
    return "open" if now < event.starts_at else "closed"


def entries_state(event: Event, now: datetime) -> str:
    """Whether a player may enter ``event`` themself at ``now``: "open", "full",
    "deadline" (passed) or "closed" (every round started)."""
    if event.rounds_started >= event.rounds_total:
        return "closed"
    if event.entry_limit is not None and event.entered >= event.entry_limit:
        return "full"
    if event.entry_deadline is not None and now > event.entry_deadline:
        return "deadline"
    return "open"


# Which event a game is played in never changes, and is known from its first event on:
# an event's table row commits with its game's first events (event_start_round), and
# a rebuild replaces the rows in one transaction. So it is read once per game, not
# once per hand scored or per viewer (most games are in no event).
@lru_cache(maxsize=16384)
def event_of_game(game_id: uuid.UUID) -> uuid.UUID | None:
    """The event whose table ``game_id`` is; None for a game of no event."""
    return TableResult.objects.filter(game_id=game_id).values_list("event_id", flat=True).first()


def may_view_table(game_id: uuid.UUID, user_id: int | None) -> bool:
    """Whether this viewer may see the game of an event's table: anyone, unless the
    event is private (see :func:`may_view`)."""
    event_id = event_of_game(game_id)
    if event_id is None:
        return True
    event = Event.objects.filter(pk=event_id).first()
    return event is not None and may_view(event, user_id)


def table_home(game_id: uuid.UUID) -> TableHome | None:
    """The event, round and table of the game ``game_id``; None for a game of no event."""
    event_id = event_of_game(game_id)
    if event_id is None:
        return None
    row = TableResult.objects.get(game_id=game_id)
    event = Event.objects.get(pk=event_id)
    game = Game.objects.get(pk=game_id)
    url = reverse("tournaments:event", args=[event.code])
    home = TableHome(
        event.name,
        row.round,
        row.number,
        f"{url}#table-{game.code}",
        desk_template=desk.TEMPLATE,
        desk=desk.config(event.code, game.code),
        chat=event.table_chat,
    )
    if row.round != event.rounds_started:
        return home
    # The round in play: the table counts down to its limit, if it has one; its desk
    # brings a deadline extended or time called (decision 3407).
    return replace(
        home,
        ends_at=event.round_ends_at.isoformat() if event.round_ends_at else None,
        warnings=round_warnings(),
        at_time=event.at_time,
        time_called=event.round_time_called,
    )


class _PlayerEvents(Sequence[PlayerEvent]):
    """A player's events told as the games' pages list them, read a slice at a time."""

    def __init__(self, events: QuerySet[Event], user_id: int, finished: bool) -> None:
        self.events, self.user_id, self.finished = events, user_id, finished

    def __len__(self) -> int:
        return self.events.count()

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self._told(list(self.events[index]))
        return self._told([self.events[index]])[0]

    def _told(self, events: list[Event]) -> list[PlayerEvent]:
        ranks = (
            dict(
                Standing.objects.filter(
                    player_id=self.user_id, event_id__in=[event.id for event in events]
                ).values_list("event_id", "rank")
            )
            if self.finished
            else {}
        )
        told = []
        for event in events:
            started = event.status != Event.Status.REGISTRATION
            told.append(
                PlayerEvent(
                    code=event.code,
                    name=event.name,
                    url=reverse("tournaments:event", args=[event.code]),
                    finished=self.finished,
                    started=started,
                    entrants=event.entered,
                    # In play: the player's table of the round (the event's as a whole
                    # between rounds, or held back), on the page that leads to it.
                    table_url=(
                        reverse("tournaments:my-table", args=[event.code])
                        if started and not self.finished
                        else None
                    ),
                    place=ranks.get(event.id),
                )
            )
        return told


def player_events(user_id: int, finished: bool) -> Sequence[PlayerEvent]:
    """The events ``user_id`` entered and has not withdrawn from, the last changed
    first: those taking entries or in play, or (``finished``) those over, as the
    player sees them (an event whose finish its spectator delay still holds back from
    them is in play: :func:`seen_status`). For the games' My games page."""
    now = timezone.now()
    entered = Entry.objects.filter(player_id=user_id, withdrawn=False).values("event_id")
    events = Event.objects.filter(id__in=entered)
    recent = events.filter(
        status=Event.Status.FINISHED,
        spectator_delay__gt=0,
        updated_at__gt=now - timedelta(seconds=MAX_SPECTATOR_DELAY),
    )
    held = [event.id for event in recent if seen_status(event, user_id, now) != event.status]
    over = (Event.Status.FINISHED, Event.Status.PUBLISHED)
    if finished:
        events = events.filter(status__in=over).exclude(id__in=held)
    else:
        events = events.filter(~Q(status__in=over) | Q(id__in=held))
    return _PlayerEvents(events.order_by("-updated_at", "-pk"), user_id, finished)


@dataclass(frozen=True)
class RoundClock:
    """A round's countdown at a moment: when it ends, the whole seconds left, and the
    warning reached (minutes left: 10, then 5; None before the first and at time)."""

    ends_at: datetime
    seconds_left: int
    warning: int | None

    @property
    def time_up(self) -> bool:
        return self.seconds_left == 0


def round_warnings() -> tuple[tuple[int, int], ...]:
    """The warnings before a round's time is up, first to last: the seconds left at
    each, and the minutes it says (10, then 5: ``ATU_ROUND_WARNING_MINUTES``)."""
    minute = django_settings.ATU_ROUND_MINUTE_SECONDS
    said = sorted(django_settings.ATU_ROUND_WARNING_MINUTES, reverse=True)
    return tuple((int(minutes * minute), minutes) for minutes in said)


def round_clock(ends_at: datetime | None, now: datetime) -> RoundClock | None:
    """The round's countdown at ``now`` (the pages' first drawing: their scripts count
    on from the same deadline and :func:`round_warnings`); None without a limit."""
    if ends_at is None:
        return None
    left = max(0, math.ceil((ends_at - now).total_seconds()))
    reached = [minutes for seconds, minutes in round_warnings() if 0 < left <= seconds]
    return RoundClock(ends_at, left, reached[-1] if reached else None)


def hidden_tables(user_id: int | None) -> QuerySet[TableResult, uuid.UUID]:
    """The game ids of the private events' tables this viewer may not see."""
    events = Event.objects.filter(public=False)
    if user_id is not None:
        entered = Entry.objects.filter(player_id=user_id).values("event_id")
        deputized = Deputy.objects.filter(user_id=user_id).values("event_id")
        events = (
            events.exclude(organizer_id=user_id).exclude(pk__in=entered).exclude(pk__in=deputized)
        )
    tables = TableResult.objects.filter(event_id__in=events.values("pk"))
    return tables.values_list("game_id", flat=True)


def organizer_seasons(user_id: int) -> QuerySet[Season]:
    return Season.objects.filter(organizer_id=user_id)


def season_names(season_ids: Iterable[uuid.UUID | None]) -> dict[uuid.UUID, str]:
    ids = {season_id for season_id in season_ids if season_id is not None}
    return dict(Season.objects.filter(pk__in=ids).values_list("id", "name"))


def event_game(event: Event, game_code: str) -> Game:
    """A game of one of the event's tables, by its share code."""
    game_ids = TableResult.objects.filter(event_id=event.id).values_list("game_id", flat=True)
    game = Game.objects.filter(pk__in=list(game_ids), code=str(game_code).upper()).first()
    if game is None:
        raise GameNotFound(game_code)
    return game


# --- The live picture of an event ---------------------------------------------------


def _turn(game: Game, names: list[str], now: Any) -> dict[str, Any] | None:
    """Who is to act at a table in play, and for how long the table has waited."""
    if game.status != Game.Status.PLAYING:
        return None
    seat = load_table(game.id).to_act
    if seat is None:
        return None
    return {
        "seat": seat,
        "name": names[seat] if seat < len(names) else "",
        "idle_seconds": max(0, int((now - game.updated_at).total_seconds())),
    }


def _table(
    row: TableResult,
    game: Game | None,
    names: dict[int, str],
    now: Any,
    *,
    turns: bool,
    delayed: bool,
) -> dict[str, Any]:
    """A table as the event page shows it: live from its game, or, ``delayed``, from
    ``row``'s figures as they stood when the viewer's delay began."""
    players = [int(player) for player in row.players]
    # Live, a seat the director handed to a reserve shows who plays it now.
    held = {} if delayed or game is None else {s["seat"]: s["user_id"] for s in game.seats}
    seat_names = [
        names.get(held.get(seat, player), str(player)) for seat, player in enumerate(players)
    ]
    status = game.status if game is not None else Game.Status.OPEN
    total = game.hands_total if game is not None else row.hands_total
    if delayed:
        scores = list(row.scores)
        if row.finished:
            status = Game.Status.FINISHED
        elif status == Game.Status.FINISHED:
            status = Game.Status.PLAYING
        hand = min(row.hands_scored + 1, total)
    else:
        scores = list(game.scores) if game is not None and game.scores else list(row.scores)
        hand = 0 if game is None else min(game.hand + 1, total) if total else 0
    if len(scores) != len(players):
        scores = [0] * len(players)
    if status == Game.Status.FINISHED:
        hand = total
    return {
        "round": row.round,
        "number": row.number,
        "game_id": str(row.game_id),
        "game_code": game.code if game is not None else "",
        # "online", or "room": played with real cards, its deals recorded by hand.
        "place": game.place if game is not None else ONLINE,
        "status": status,
        "paused": bool(getattr(game, "paused", False)),
        "hand": hand,
        "hands_total": total,
        "hands_scored": row.hands_scored,
        "finished": status == Game.Status.FINISHED,
        # Whether the game's record may be read; see live_event for a duplicate round's.
        "record": status == Game.Status.FINISHED,
        "screened": False,
        "players": [
            {
                "seat": seat,
                "player_id": player,
                "name": seat_names[seat],
                "score": scores[seat],
                "exact_bids": row.exact_bids[seat] if seat < len(row.exact_bids) else 0,
            }
            for seat, player in enumerate(players)
        ],
        "turn": _turn(game, seat_names, now) if turns and game is not None else None,
    }


def _screen(table: dict[str, Any]) -> None:
    """A duplicate table's scores, kept from view while tables of its round still
    play the same deals."""
    for player in table["players"]:
        player["score"] = None
        player["exact_bids"] = None
    table["screened"] = True


def linked_players(player_ids: Sequence[int]) -> set[int]:
    """Which of ``player_ids`` have a page, in one query: what the pages link names by."""
    return set(
        User.objects.filter(
            pk__in=set(player_ids), is_active=True, is_bot=False, is_guest=False
        ).values_list("pk", flat=True)
    )


def _leaderboard(event_id: uuid.UUID, disqualified: dict[int, str]) -> list[dict[str, Any]]:
    return [
        _line(
            row.rank,
            row.player_id,
            row.name,
            row.points,
            row.exact_bids,
            row.best_game,
            row.games,
            disqualified.get(row.player_id, ""),
        )
        for row in Standing.objects.filter(event_id=event_id)
    ]


def _held_back_leaderboard(
    ranked: Sequence[points.Standing], names: dict[int, str], disqualified: dict[int, str]
) -> list[dict[str, Any]]:
    lines = [
        _line(
            line.rank,
            line.player,
            names.get(line.player, str(line.player)),
            points.displayed(line.points),
            line.exact_bids,
            line.best_game,
            line.games,
            disqualified.get(line.player, ""),
        )
        for line in ranked
    ]
    # In the read model's order: rank, then name.
    return sorted(lines, key=lambda line: (line["rank"], line["name"], line["player_id"]))


def _linked(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``lines`` each saying whether its player has a page to link their name to."""
    linked = linked_players([line["player_id"] for line in lines])
    return [{**line, "linked": line["player_id"] in linked} for line in lines]


def _line(
    rank: int,
    player_id: int,
    name: str,
    value: float,
    exact_bids: int,
    best_game: int | None,
    games: int,
    disqualified: str,
) -> dict[str, Any]:
    return {
        "rank": rank,
        "player_id": player_id,
        "name": name,
        "points": value,
        "points_text": points_text(value),
        "exact_bids": exact_bids,
        "best_game": best_game,
        "games": games,
        # Why the director disqualified the player ("": not disqualified), as the
        # results page marks them.
        "disqualified": disqualified,
    }


def _me(
    user_id: int, entries: list[dict[str, Any]], current: list[dict[str, Any]]
) -> dict[str, Any]:
    entry = next((entry for entry in entries if entry["player_id"] == user_id), None)
    me: dict[str, Any] = {
        "player_id": user_id,
        "entered": entry is not None,
        "checked_in": bool(entry and entry["checked_in"]),
        "withdrawn": bool(entry and entry["withdrawn"]),
        "in_room": bool(entry and entry["in_room"]),
        "bot_plays": bool(entry and entry["bot_plays"]),
        "seat": None,
    }
    for table in current:
        for player in table["players"]:
            if player["player_id"] == user_id:
                me["seat"] = {
                    "round": table["round"],
                    "table": table["number"],
                    "seat": player["seat"] + 1,
                    "game_code": table["game_code"],
                    "status": table["status"],
                    "tablemates": [
                        other["name"] for other in table["players"] if other["player_id"] != user_id
                    ],
                }
    return me


def event_live(event_id: uuid.UUID, viewer_id: int | None = None) -> dict[str, Any]:
    """The event as its page and the room's screen show it: status, when the round
    started, leaderboard, entries, the director's announcements, the tables of every
    round so far (the current one's with their progress, online or in the room) and,
    for a signed-in viewer, where they sit. JSON-ready.

    Only the organizer sees whose turn it is at each table (the slow seats) and the
    calls to the director waiting (``calls``; no other picture has the key). In a
    duplicate event, while the current round plays, everyone else sees neither the
    tables' scores nor the standings: they would tell the tables still playing how
    the same deals went elsewhere (``screened``).

    An event's spectator delay holds everyone but the organizer back: the tables'
    progress and scores and the leaderboard are shown as the games' logs stood
    ``delay`` seconds ago, as a table's own page shows its play."""
    event = Event.objects.get(pk=event_id)
    return seen_by(event_picture(event, directs=directs_event(event, viewer_id)), viewer_id)


def seen_by(picture: dict[str, Any], viewer_id: int | None) -> dict[str, Any]:
    """:func:`event_picture` with where the viewer ``viewer_id`` sits (``me``)."""
    if viewer_id is None:
        return picture
    return {**picture, "me": _me(viewer_id, picture["entries"], picture["tables"])}


def event_picture(event: Event, *, directs: bool) -> dict[str, Any]:
    """:func:`event_live` as every viewer who directs the event (``directs``), or every
    other viewer, sees it at this moment, but for where each sits (``me``: None)."""
    event_id = event.id
    organizer = directs
    entries = {entry.player_id: entry for entry in Entry.objects.filter(event_id=event_id)}
    names = {player: entry.name for player, entry in entries.items()}
    now = timezone.now()
    delay = 0 if organizer else event.spectator_delay
    ranked: list[points.Standing] = []
    if delay:
        rows, ranked = standings.standings_until(event_id, now - timedelta(seconds=delay))
    else:
        rows = list(TableResult.objects.filter(event_id=event_id))
    games = Game.objects.in_bulk([row.game_id for row in rows])
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        current = row.round == event.rounds_started
        table = _table(
            row,
            games.get(row.game_id),
            names,
            now,
            turns=organizer and current,
            delayed=bool(delay),
        )
        by_round[row.round].append(table)
    current_tables = by_round.get(event.rounds_started, [])
    round_playing = any(not table["finished"] for table in current_tables)
    screened = event.duplicate and round_playing and not organizer
    status = _status_seen(event, directs=directs, now=now)
    provisional_until = results_provisional_until(event, now)
    # Marked on the leaderboard as on the results page (a director's action, no play).
    disqualified = event_disqualified(event_id)
    for table in current_tables:
        table["record"] = table["record"] and record_public(
            finished=table["finished"], deal_set_playing=event.duplicate and round_playing
        )
        if screened:
            _screen(table)
    live = {
        "id": str(event.id),
        "code": event.code,
        "name": event.name,
        "status": status,
        "version": event.version,
        "kind": event.kind,
        "place": event.place,
        "public": event.public,
        "points": event.points,
        "round": event.rounds_started,
        "rounds_total": event.rounds_total,
        # When the current round's RoundStarted was recorded (ISO), if one has.
        "round_started_at": (
            event.round_started_at.isoformat() if event.round_started_at else None
        ),
        # When its time is up (ISO; None: no limit), the warnings the pages give before
        # (seconds left) and the rule then (championship.AT_TIME_RULES).
        "round_ends_at": event.round_ends_at.isoformat() if event.round_ends_at else None,
        "round_warnings": [seconds for seconds, _ in round_warnings()],
        "at_time": event.at_time,
        # Time was called in the round (at its limit, or by the director): its tables
        # finish the deal in progress and play no more.
        "round_time_called": event.round_time_called,
        # Tables still playing, or published results whose protest window is open.
        "provisional": status in (Event.Status.REGISTRATION, Event.Status.RUNNING)
        or provisional_until is not None,
        # When the published results become final, while they may still be corrected (ISO).
        "final_at": provisional_until.isoformat() if provisional_until else None,
        "round_playing": round_playing,
        # For who directs it: the next round, and why it may not start now (an error's
        # code; None: it may), by the rule its service decides by. None: none is left.
        "next_round": _next_round(event, entries.values(), current_tables) if directs else None,
        "screened": screened,
        # Seconds this viewer is held behind the play (the organizer: none).
        "delay": delay,
        "leaderboard": _linked(
            []
            if screened
            else _held_back_leaderboard(ranked, names, disqualified)
            if delay
            else _leaderboard(event_id, disqualified)
        ),
        "entries": [
            {
                "player_id": entry.player_id,
                "name": entry.name,
                "checked_in": entry.checked_in and not entry.withdrawn,
                "withdrawn": entry.withdrawn,
                "in_room": entry.in_room,
                "bot_plays": entry.bot_plays,
            }
            for entry in entries.values()
        ],
        # The director's word to the room, newest first: no play in it, so no delay.
        "announcements": event.announcements,
        # The calls to the director waiting for them, oldest first: for who directs it.
        **({"calls": _open_calls(event, games, names, now)} if directs else {}),
        "tables": current_tables,
        "rounds": [{"number": number, "tables": by_round[number]} for number in sorted(by_round)],
        # Whether this picture is the one for who directs the event: a deputy named or
        # removed while their page is open finds it changed (decision 3407).
        "directs": directs,
        # Last: a socket adds each viewer's to the picture's text (tournaments.consumers).
        "me": None,
    }
    return live


def _open_calls(
    event: Event, games: dict[Any, Game], names: dict[int, str], now: datetime
) -> list[dict[str, Any]]:
    calls = []
    for call in event.calls:
        if call["state"] == CLOSED:
            continue
        game = games.get(uuid.UUID(call["game_id"]))
        calls.append(
            {
                key: call[key]
                for key in ("number", "round", "table", "seat", "player_id", "reason", "text")
            }
            | {
                "state": call["state"],
                "name": names.get(call["player_id"], str(call["player_id"])),
                "game_code": game.code if game is not None else "",
                "place": game.place if game is not None else ONLINE,
                "at": call["at"],
                # Since the call (or, answered, since the answer): the page counts on.
                "waited_seconds": _since(
                    call["answered_at"] if call["state"] == ANSWERED else call["at"], now
                ),
            }
        )
    return calls


def _since(at: str | None, now: datetime) -> int:
    if at is None:
        return 0
    return max(0, int((now - datetime.fromisoformat(at)).total_seconds()))


def _next_round(
    event: Event, entries: Iterable[Entry], current: list[dict[str, Any]]
) -> dict[str, Any] | None:
    if event.rounds_started >= event.rounds_total:
        return None
    present = [(e.player_id, e.in_room) for e in entries if e.checked_in and not e.withdrawn]
    refusal = rounds.next_round_refusal(
        kind=event.kind,
        started=event.rounds_started,
        total=event.rounds_total,
        unfinished=sum(not table["finished"] for table in current),
        seated=rounds.groups(event.place, present),
    )
    return {
        "number": event.rounds_started + 1,
        "refusal": None if refusal is None else refusal.code,
    }


def event_settings(event_id: uuid.UUID) -> EventCreated:
    """The organizer's choices for the event (its ``EventCreated``): what the manage
    page's schedule says beyond the read model (the no-show rule, the round's time
    limit, the protest window)."""
    (record,) = store.read(championship_stream(event_id), types=("EventCreated",))
    assert isinstance(record.event, EventCreated)
    return record.event


# --- A table's desk: what its players hear of their event ----------------------------


def desk_source(event_id: uuid.UUID) -> dict[str, Any]:
    """What every table of the event is told, read once for all of them: the event's
    announcements and calls (:func:`desk_seen_by` picks each viewer's)."""
    read = Event.objects.filter(pk=event_id).values(
        "version",
        "status",
        "announcements",
        "calls",
        "rounds_started",
        "round_ends_at",
        "round_time_called",
    )
    source: dict[str, Any] = dict(read.get())
    in_play: int = source.pop("rounds_started")
    tables = TableResult.objects.filter(event_id=event_id, round=in_play)
    # The round in play's clock, for its tables alone (decision 3407).
    source["clock"] = {
        "ends_at": source.pop("round_ends_at"),
        "called": source.pop("round_time_called"),
        "games": {str(game_id) for game_id in tables.values_list("game_id", flat=True)},
    }
    return source


def desk_seen_by(
    source: dict[str, Any], game_id: uuid.UUID, players: Sequence[int], viewer_id: int | None
) -> dict[str, Any]:
    """What the viewer ``viewer_id`` at the event's table ``game_id`` (played by
    ``players``, by seat) hears of the event: its announcements, newest first, and, for
    a player seated there, whether they may call the director and their last call from
    this seat. Nothing else of the event: no standings, no other table, no one else's
    call."""
    seated = viewer_id is not None and viewer_id in players
    call = None
    if viewer_id is not None and seated:
        seat = list(players).index(viewer_id)
        mine = [
            made
            for made in source["calls"]
            if made["game_id"] == str(game_id) and made["seat"] == seat
        ]
        if mine:
            last = mine[-1]
            call = {key: last[key] for key in ("number", "reason", "text", "state", "note", "at")}
    clock = source["clock"]
    playing = str(game_id) in clock["games"] and clock["ends_at"] is not None
    return {
        "type": "desk",
        "announcements": source["announcements"],
        "may_call": seated and source["status"] != Event.Status.PUBLISHED,
        "call": call,
        # The round's deadline while this table's round is in play (ISO; None: no
        # clock), and whether time was called there: its countdown follows them.
        "ends_at": clock["ends_at"].isoformat() if playing else None,
        "time_called": playing and clock["called"],
    }


def table_players(event: Event, game_code: str) -> tuple[uuid.UUID, list[int]]:
    """The game (id) of the event's table ``game_code`` and its players by seat."""
    game = event_game(event, game_code)
    row = TableResult.objects.get(game_id=game.id)
    return game.id, [int(player) for player in row.players]


# --- The audit trail and the results' corrections ---------------------------------


@dataclass(frozen=True)
class AuditLine:
    """One director's action, as the event's log recorded it: who (the actor's name;
    "" for the site itself), when, what and why. A correction says its round, player
    and points apart, for the results' list of them."""

    at: datetime
    actor: str
    action: str
    reason: str = ""
    kind: str = ""
    round: int | None = None
    player: str = ""
    points: str = ""


@dataclass(frozen=True)
class _Said:
    """What a describer makes of a record: what was done and why."""

    action: str
    reason: str = ""
    round: int | None = None
    player: str = ""
    points: str = ""


# A record's event, its actor's id and the entrants' names -> what it says, or None
# for no director's action (a player withdrawing themself).
Describer = Callable[[Any, int | None, dict[int, str]], _Said | None]


def _signed(value: float) -> str:
    return f"+{points_text(value)}" if value > 0 else points_text(value)


def _corrected(event: ResultCorrected, actor: int | None, names: dict[int, str]) -> _Said:
    player = names.get(event.player_id, str(event.player_id))
    return _Said(
        _("Corrected %(player)s's round %(round)s by %(points)s points")
        % {"player": player, "round": event.round, "points": _signed(event.points)},
        event.reason,
        event.round,
        player,
        _signed(event.points),
    )


def _withdrawn(event: PlayerWithdrew, actor: int | None, names: dict[int, str]) -> _Said | None:
    if actor == event.player_id:
        return None
    return _Said(_("Withdrew %(player)s") % {"player": names.get(event.player_id, "?")})


def _moved(event: TableMoved, actor: int | None, names: dict[int, str]) -> _Said:
    where = (
        _("Moved table %(table)s of round %(round)s to the room")
        if event.place == "room"
        else _("Moved table %(table)s of round %(round)s online")
    )
    return _Said(where % {"table": event.table + 1, "round": event.round})


def _substituted(event: SeatSubstituted, actor: int | None, names: dict[int, str]) -> _Said:
    where = {"table": event.table + 1, "seat": event.seat + 1, "round": event.round}
    if event.player_id is None:
        return _Said(_("Seated a bot in table %(table)s seat %(seat)s of round %(round)s") % where)
    return _Said(
        _("Seated %(player)s in table %(table)s seat %(seat)s of round %(round)s")
        % {**where, "player": names.get(event.player_id, str(event.player_id))},
        round=event.round,
        player=names.get(event.player_id, ""),
    )


def _disqualified(event: PlayerDisqualified, actor: int | None, names: dict[int, str]) -> _Said:
    player = names.get(event.player_id, str(event.player_id))
    return _Said(_("Disqualified %(player)s") % {"player": player}, event.reason, player=player)


def _published(event: ResultsPublished, actor: int | None, names: dict[int, str]) -> _Said:
    if event.final_at is None:
        return _Said(_("Published the results, final at once"))
    until = timezone.localtime(datetime.fromisoformat(event.final_at))
    return _Said(
        _("Published the results, provisional until %(time)s")
        % {"time": formats.date_format(until, "DATETIME_FORMAT")}
    )


def _called(event: DirectorCalled, actor: int | None, names: dict[int, str]) -> _Said:
    player = names.get(event.player_id, str(event.player_id))
    reason = desk.call_reasons().get(event.reason, event.reason)
    return _Said(
        _("%(player)s called the director to table %(table)s")
        % {
            "player": player,
            "table": event.table + 1,
        },
        f"{reason}: {event.text}" if event.text else reason,
        event.round,
        player,
    )


def _call_closed(event: CallClosed, actor: int | None, names: dict[int, str]) -> _Said:
    return _Said(_("Closed call %(number)s") % {"number": event.number}, event.note)


def _time_up(event: RoundTimeUp, actor: int | None, names: dict[int, str]) -> _Said:
    if event.called_at is None:
        return _Said(
            _("Round %(round)s's time was up: each table finished its deal and played no more")
            % {"round": event.round}
        )
    return _Said(
        _("Called time in round %(round)s: each table finishes its deal and plays no more")
        % {"round": event.round},
        event.reason,
        event.round,
    )


def _extended(event: RoundExtended, actor: int | None, names: dict[int, str]) -> _Said:
    until = timezone.localtime(datetime.fromisoformat(event.ends_at))
    return _Said(
        ngettext(
            "Extended round %(round)s by %(minutes)s minute, to %(time)s",
            "Extended round %(round)s by %(minutes)s minutes, to %(time)s",
            event.minutes,
        )
        % {
            "round": event.round,
            "minutes": event.minutes,
            "time": formats.time_format(until, "H:i"),
        },
        event.reason,
        event.round,
    )


# Each director's action the event's stream records, and how the audit trail says it:
# a new kind of action is one more describer here.
AUDITED: dict[type, Describer] = {
    ResultCorrected: _corrected,
    PlayerWithdrew: _withdrawn,
    TableMoved: _moved,
    SeatSubstituted: _substituted,
    PlayerDisqualified: _disqualified,
    RoundStarted: lambda event, actor, names: _Said(
        _("Started round %(round)s") % {"round": event.number}
    ),
    Announced: lambda event, actor, names: _Said(_("Announced: %(text)s") % {"text": event.text}),
    AnnouncementWithdrawn: lambda event, actor, names: _Said(
        _("Withdrew announcement %(number)s") % {"number": event.number}
    ),
    EventFinished: lambda event, actor, names: _Said(_("Recorded the last table's finish")),
    DeputyNamed: lambda event, actor, names: _Said(
        _("Named %(name)s a deputy") % {"name": event.name}
    ),
    DeputyRemoved: lambda event, actor, names: _Said(
        _("Removed %(name)s as a deputy") % {"name": event.name}
    ),
    RoundTimeUp: _time_up,
    RoundExtended: _extended,
    ResultsPublished: _published,
    # The calls: the day's record of what the director was asked and decided.
    DirectorCalled: _called,
    CallClosed: _call_closed,
}


def event_audit(event_id: uuid.UUID, kinds: Iterable[type] | None = None) -> list[AuditLine]:
    """The director's actions in the event's log, oldest first, with who did each,
    when and why (only those of ``kinds``, if given): the audit trail the manage page
    lists, read from the log itself rather than a read model."""
    describers = AUDITED if kinds is None else {kind: AUDITED[kind] for kind in kinds}
    names = dict(Entry.objects.filter(event_id=event_id).values_list("player_id", "name"))
    said: list[tuple[store.Recorded, _Said]] = []
    for record in store.read(championship_stream(event_id)):
        event = record.event
        describe = describers.get(type(event))
        line = describe(event, record.actor_id, names) if describe else None
        if line is not None:
            said.append((record, line))
    actors = User.objects.in_bulk({record.actor_id for record, _said in said} - {None})
    return [
        AuditLine(
            at=record.recorded_at,
            actor=actors[record.actor_id].display if record.actor_id in actors else "",
            kind=record.type,
            **asdict(line),
        )
        for record, line in said
    ]


@dataclass(frozen=True)
class SeatLine:
    """A seat of the round in play, for the director: who holds it by the championship
    (its player, a reserve, or nobody for a bot), whether a bot plays it for a person
    now (seated by the director, or standing in for an absent player), and whose seat
    it was."""

    seat: int
    player: str
    holder: str
    bot: bool


@dataclass(frozen=True)
class SeatsTable:
    number: int
    game_code: str
    playing: bool
    seats: list[SeatLine]


def event_seats(event_id: uuid.UUID) -> list[SeatsTable]:
    """Every seat of the round in play, as the manage page offers them to substitutes:
    read from the championship's stream and each table's log."""
    championship = fold_records(Championship(), store.read(championship_stream(event_id)))
    if not championship.rounds:
        return []
    played = championship.rounds[-1]
    names = {entry.player_id: entry.name for entry in championship.entries.values()}
    codes = dict(Game.objects.filter(pk__in=played.games).values_list("id", "code"))
    bots = set(
        User.objects.filter(
            pk__in=[player for players in played.tables for player in players], is_bot=True
        ).values_list("pk", flat=True)
    )
    tables = []
    for index, holders in enumerate(championship.holders(played.number)):
        game_id = uuid.UUID(played.games[index])
        table = load_table(game_id)
        tables.append(
            SeatsTable(
                number=index + 1,
                game_code=codes.get(game_id, ""),
                playing=table.status == "playing",
                seats=[
                    SeatLine(
                        seat=seat,
                        player=names.get(player, str(player)),
                        holder="" if holder is None else names.get(holder, str(holder)),
                        # A bot entrant's own bot is no stand-in.
                        bot=table.bots[seat] is not None and player not in bots,
                    )
                    for seat, (player, holder) in enumerate(
                        zip(played.tables[index], holders, strict=True)
                    )
                ],
            )
        )
    return tables


def event_substitutions(event_id: uuid.UUID) -> list[AuditLine]:
    """The director's substitutions and disqualifications, oldest first, with their
    reasons: what the results page lists under the rule that counts their deals."""
    return event_audit(event_id, [SeatSubstituted, PlayerDisqualified])


def event_disqualified(event_id: uuid.UUID) -> dict[int, str]:
    """The disqualified players of the event, with the director's reason."""
    records = store.read(championship_stream(event_id), types=("PlayerDisqualified",))
    return {
        record.event.player_id: record.event.reason
        for record in records
        if isinstance(record.event, PlayerDisqualified)
    }


def event_corrections(event_id: uuid.UUID) -> list[AuditLine]:
    """The corrections of the event's results, oldest first, with their reasons."""
    return event_audit(event_id, [ResultCorrected])


def results_provisional_until(event: Event, now: datetime) -> datetime | None:
    """When the event's published results become final, while they are provisional at
    ``now`` (their protest window open); None otherwise."""
    final_at = event.results_final_at
    if event.status == Event.Status.PUBLISHED and final_at is not None and now < final_at:
        return final_at
    return None


# --- Seasons ----------------------------------------------------------------------


@dataclass(frozen=True)
class ChartLine:
    name: str
    colour: str
    points: str
    last_rating: float


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    lines: list[ChartLine]
    low: float
    high: float
    games: int


def find_season(season_id: uuid.UUID) -> Season:
    try:
        return Season.objects.get(pk=season_id)
    except Season.DoesNotExist:
        raise SeasonNotFound(season_id) from None


def season_events(season_id: uuid.UUID, viewer_id: int | None) -> list[Event]:
    return [
        event
        for event in Event.objects.filter(season_id=season_id).order_by("created_at")
        if may_view(event, viewer_id)
    ]


def season_standings(
    season_id: uuid.UUID, viewer_id: int | None
) -> tuple[list[SeasonStanding], list[RatingChange]]:
    """The season's leaderboard and the rating history of its charted players (all of
    it, when counted again) as the viewer ``viewer_id`` sees
    them: without an event whose finish its spectator delay still holds back from
    them (:func:`seen_status`), counted again without it (rarely: only then)."""
    now = timezone.now()
    finished = Event.objects.filter(season_id=season_id, status=Event.Status.FINISHED)
    held = [event.id for event in finished if seen_status(event, viewer_id, now) != event.status]
    if held:
        return seasons.season_leaderboard(season_id, without=held)
    leaders = list(SeasonStanding.objects.filter(season_id=season_id))
    charted = [row.player_id for row in leaders[:CHART_PLAYERS]]
    return leaders, list(RatingChange.objects.filter(season_id=season_id, player_id__in=charted))


def rating_chart(
    leaders: list[SeasonStanding],
    changes: Iterable[RatingChange],
    width: int = 640,
    height: int = 240,
) -> RatingChart | None:
    """Each of the top players' rating, table by table (``changes``: the season's
    rating history, in order), as SVG polylines."""
    top = leaders[:CHART_PLAYERS]
    players = {row.player_id for row in top}
    history: dict[int, list[float]] = defaultdict(list)
    for change in changes:
        if change.player_id not in players:
            continue
        if not history[change.player_id]:
            history[change.player_id].append(change.before)
        history[change.player_id].append(change.after)
    values = [value for series in history.values() for value in series]
    if not values:
        return None
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    games = max(len(series) for series in history.values()) - 1
    pad = 8
    lines = []
    for row, colour in zip(top, CHART_COLOURS, strict=False):
        series = history.get(row.player_id, [])
        if not series:
            continue
        coordinates = []
        for index, value in enumerate(series):
            x = pad + (width - 2 * pad) * (index / games if games else 0)
            y = pad + (height - 2 * pad) * (1 - (value - low) / (high - low))
            coordinates.append(f"{x:.1f},{y:.1f}")
        lines.append(ChartLine(row.name, colour, " ".join(coordinates), series[-1]))
    return RatingChart(width, height, lines, round(low), round(high), games)


def player_championships(user_id: int) -> dict[str, Any]:
    """What the championships hold of the user ``user_id``, for their data export:
    their entries (with each event's name and code), standings, season standings and
    rating changes, from the read models."""
    entries = list(Entry.objects.filter(player_id=user_id).order_by("event_id"))
    events = {
        event.pk: event
        for event in Event.objects.filter(pk__in=[entry.event_id for entry in entries])
    }
    placed = {row.event_id: row for row in Standing.objects.filter(player_id=user_id)}
    season_rows = list(SeasonStanding.objects.filter(player_id=user_id).order_by("season_id"))
    names = season_names(row.season_id for row in season_rows)
    return {
        "entries": [
            {
                "event": events[entry.event_id].code if entry.event_id in events else None,
                "event_name": events[entry.event_id].name if entry.event_id in events else None,
                "name": entry.name,
                "checked_in": entry.checked_in,
                "withdrawn": entry.withdrawn,
                "standing": _exported_standing(placed.get(entry.event_id)),
            }
            for entry in entries
        ],
        "seasons": [
            {
                "season": str(row.season_id),
                "season_name": names.get(row.season_id),
                "name": row.name,
                "rank": row.rank,
                "points": row.points,
                "rating": row.rating,
                "events": row.events,
            }
            for row in season_rows
        ],
        "ratings": [
            {
                "season": str(change.season_id),
                "event": str(change.event_id),
                "round": change.round,
                "before": change.before,
                "after": change.after,
            }
            for change in RatingChange.objects.filter(player_id=user_id).order_by(
                "season_id", "order"
            )
        ],
    }


def _exported_standing(row: Standing | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "rank": row.rank,
        "points": row.points,
        "exact_bids": row.exact_bids,
        "best_game": row.best_game,
        "games": row.games,
    }
