"""The player page's reads: a person's finished games, events, seasons and rating,
their figures and their record against another player, from the read models
(``PlayerGame``, ``Standing``, ``SeasonStanding``, ``RatingChange``, ``Game``); nothing
here writes.

Every figure is counted by the database, and only a page of games is read: a player
of 10,000 games costs a handful of queries (bench/player.py). What a viewer sees is
what the site shows them elsewhere: a game once its spectator delay is over (its row's
``shown_at``), never a private event's table they may not see
(:func:`tournaments.selectors.hidden_tables`), an event's placing once its finish is
out to them (:func:`tournaments.selectors.seen_status`).
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connections
from django.db.models import (
    Avg,
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber

from accounts.guests import accounts_of, people_at
from accounts.models import User
from games.models import Game
from tournaments.errors import GamesPageNotFound, PlayerNotFound
from tournaments.models import Event, PlayerGame, RatingChange, Season, SeasonStanding, Standing
from tournaments.selectors import (
    events_list,
    hidden_tables,
    linked_players,
    season_standings,
    statuses_seen,
)

GAMES_PER_PAGE = 20
EVENTS_SHOWN = 20
OPPONENTS_SHOWN = 20
# The rating chart's last tables (a season of more shows its latest).
CHART_TABLES = 200
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 640, 240, 12
# Games (and the finished game's ties) newest first.
NEWEST_FIRST = ("-finished_at", "-game_id")


# The largest account id there may be (a 64-bit key): anything above is no account.
MAX_ACCOUNT_ID = 2**63 - 1


def find_player(player_id: int) -> User:
    """The person whose page this is: an active account, neither a guest's nor a bot's
    (they have no page)."""
    if not 0 < player_id <= MAX_ACCOUNT_ID:
        raise PlayerNotFound(player_id)
    user = User.objects.filter(pk=player_id, is_active=True, is_bot=False, is_guest=False).first()
    if user is None:
        raise PlayerNotFound(player_id)
    return user


def shown_games(player_id: int, viewer_id: int | None, now: datetime) -> QuerySet[PlayerGame]:
    """The player's finished games the viewer may see at ``now``: once their spectator
    delay is over, and none of a private event's tables hidden from the viewer."""
    # NOT EXISTS, not NOT IN: PostgreSQL turns only the first into an anti-join, and a
    # NOT IN nested in the frequent opponents' IN took 1.6 s over 10,000 games.
    hidden = hidden_tables(viewer_id).filter(game_id=OuterRef("game_id"))
    return PlayerGame.objects.filter(player_id=player_id, shown_at__lte=now).exclude(Exists(hidden))


# --- Figures -----------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    games: int
    wins: int
    # Deals the player bid, and made exactly.
    deals: int
    exact: int
    # The longest run of exact bids in a game (as its rules count a streak), the
    # streak bonuses earned, the most games won in a row.
    best_run: int
    bonuses: int
    win_streak: int

    @property
    def exact_rate(self) -> float | None:
        """Deals bid exactly over deals played, in percent; None before any deal."""
        return round(100 * self.exact / self.deals, 1) if self.deals else None


def figures(games: QuerySet[PlayerGame]) -> Figures:
    """The player's figures over ``games``, counted by the database."""
    totals = games.aggregate(
        games=Count("id"),
        wins=Count("id", filter=Q(place=1)),
        deals=Sum("deals"),
        exact=Sum("exact"),
        best_run=Max("best_run"),
        bonuses=Sum("bonuses"),
    )
    return Figures(
        totals["games"],
        totals["wins"],
        totals["deals"] or 0,
        totals["exact"] or 0,
        totals["best_run"] or 0,
        totals["bonuses"] or 0,
        win_streak(games) if totals["wins"] else 0,
    )


def win_streak(games: QuerySet[PlayerGame]) -> int:
    """The most of ``games`` won (place 1) one after the other, in the order they
    finished: counted by the database (each game's number among all, less its number
    among those won or among those not, is the same along a run)."""
    order = [F("finished_at").asc(), F("game_id").asc()]
    won = Case(When(place=1, then=Value(1)), default=Value(0), output_field=IntegerField())
    numbered = games.order_by().annotate(
        won=won,
        island=Window(RowNumber(), order_by=order)
        - Window(RowNumber(), partition_by=[won], order_by=order),
    )
    inner, params = numbered.values("won", "island").query.sql_with_params()
    # On the database the games are read from: the replica, for a page that allows it.
    with connections[games.db].cursor() as cursor:
        cursor.execute(
            f"SELECT MAX(run_length) FROM (SELECT COUNT(*) AS run_length FROM ({inner}) numbered "
            "WHERE won = 1 GROUP BY island) runs",
            params,
        )
        row = cursor.fetchone()
    return int(row[0] or 0) if row else 0


@dataclass(frozen=True)
class ResultLine:
    kind: str
    preset: str
    player_count: int
    games: int
    wins: int
    average_place: float


def results_by_preset(games: QuerySet[PlayerGame]) -> list[ResultLine]:
    """Games, wins and the average place by game, preset and table size."""
    grouped = (
        games.order_by()
        .values("kind", "preset", "player_count")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(place=1)), average=Avg("place"))
        .order_by("kind", "preset", "player_count")
    )
    return [
        ResultLine(
            line["kind"],
            line["preset"],
            line["player_count"],
            line["games"],
            line["wins"],
            round(line["average"], 2),
        )
        for line in grouped
    ]


# --- Games ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Opponent:
    player_id: int
    name: str
    linked: bool


@dataclass(frozen=True)
class GameLine:
    code: str
    finished_at: datetime
    kind: str
    preset: str
    options: dict[str, object]
    player_count: int
    place: int
    points: int
    deals: int
    exact: int
    opponents: list[Opponent]


@dataclass(frozen=True)
class GamesPage:
    number: int
    pages: int
    lines: list[GameLine]

    @property
    def newer(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def older(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None


def pages_of(count: int) -> int:
    return max(1, math.ceil(count / GAMES_PER_PAGE))


def games_page(games: QuerySet[PlayerGame], count: int, number: int) -> GamesPage | None:
    """Page ``number`` of ``games`` (``count`` of them), newest first, with each game's
    other players as its table named them; None past the last page."""
    pages = pages_of(count)
    if not 1 <= number <= pages:
        return None
    start = (number - 1) * GAMES_PER_PAGE
    rows = list(games.order_by(*NEWEST_FIRST)[start : start + GAMES_PER_PAGE])
    tables = {
        game_id: (seats, options)
        for game_id, seats, options in Game.objects.filter(
            pk__in=[row.game_id for row in rows]
        ).values_list("id", "seats", "options")
    }
    others = {
        seat["user_id"]
        for seats, _ in tables.values()
        for seat in seats
        if seat.get("user_id") is not None
    }
    # A guest who signed in to their account is named by it (decision 3507).
    accounts = accounts_of(others)
    linked = linked_players(sorted(others | set(accounts.values())))
    lines = []
    for row in rows:
        seats, options = tables.get(row.game_id, ([], {}))
        people = people_at((seat["user_id"] for seat in seats), accounts)
        lines.append(
            GameLine(
                row.code,
                row.finished_at,
                row.kind,
                row.preset,
                options,
                row.player_count,
                row.place,
                row.points,
                row.deals,
                row.exact,
                [
                    Opponent(
                        people[seat["user_id"]], seat["alias"], people[seat["user_id"]] in linked
                    )
                    for seat in seats
                    if seat["seat"] != row.seat
                ],
            )
        )
    return GamesPage(number, pages, lines)


# --- Events and seasons --------------------------------------------------------------


@dataclass(frozen=True)
class EventLine:
    code: str
    name: str
    at: datetime
    rank: int
    entrants: int
    points: float


def player_events(player_id: int, viewer_id: int | None, now: datetime) -> list[EventLine]:
    """The player's latest finished events the viewer may see, with their placing: an
    event whose finish its spectator delay still holds back from the viewer is left out."""
    placed = Standing.objects.filter(player_id=player_id).values("event_id")
    events = list(
        events_list(viewer_id)
        .filter(status__in=[Event.Status.FINISHED, Event.Status.PUBLISHED], pk__in=placed)
        .order_by("-created_at", "id")[:EVENTS_SHOWN]
    )
    seen = statuses_seen(events, viewer_id, now)
    events = [event for event in events if seen[event.id] == event.status]
    ids = [event.id for event in events]
    standings = {
        row.event_id: row for row in Standing.objects.filter(player_id=player_id, event_id__in=ids)
    }
    entrants = dict(
        Standing.objects.filter(event_id__in=ids)
        .order_by()
        .values("event_id")
        .annotate(count=Count("id"))
        .values_list("event_id", "count")
    )
    return [
        EventLine(
            event.code,
            event.name,
            event.created_at,
            standings[event.id].rank,
            entrants[event.id],
            standings[event.id].points,
        )
        for event in events
    ]


@dataclass(frozen=True)
class SeasonLine:
    season_id: uuid.UUID
    name: str
    rank: int
    points: int
    rating: float
    events: int


@dataclass(frozen=True)
class ChartRow:
    """One table of the rating chart: its event, round, and the rating after it."""

    number: int
    event: str
    round: int
    rating: float


@dataclass(frozen=True)
class PlayerChart:
    width: int
    height: int
    # The polyline's points, and the last one's (its dot).
    points: str
    last_x: float
    last_y: float
    low: int
    high: int
    # The y of the low and high grid lines.
    low_y: float
    high_y: float
    first: float
    last: float
    # The tables charted, and of how many in the season.
    tables: int
    total: int
    rows: list[ChartRow]


def _held_seasons(
    season_ids: Sequence[uuid.UUID], viewer_id: int | None, now: datetime
) -> set[uuid.UUID | None]:
    """The seasons with an event whose finish its spectator delay still holds back from
    the viewer: their figures are counted again without it (rarely: only then)."""
    finished = list(
        Event.objects.filter(
            season_id__in=season_ids, status=Event.Status.FINISHED, spectator_delay__gt=0
        )
    )
    seen = statuses_seen(finished, viewer_id, now)
    return {event.season_id for event in finished if seen[event.id] != event.status}


def player_seasons(player_id: int, viewer_id: int | None, now: datetime) -> list[SeasonLine]:
    """The seasons the player is ranked in, newest first, as the viewer sees them."""
    rows = {row.season_id: row for row in SeasonStanding.objects.filter(player_id=player_id)}
    seasons = list(Season.objects.filter(pk__in=list(rows)).order_by("-created_at", "id"))
    held = _held_seasons([season.id for season in seasons], viewer_id, now)
    lines = []
    for season in seasons:
        row: SeasonStanding | None = rows[season.id]
        if season.id in held:
            leaders, _ = season_standings(season.id, viewer_id)
            row = next((line for line in leaders if line.player_id == player_id), None)
        if row is not None:
            lines.append(
                SeasonLine(season.id, season.name, row.rank, row.points, row.rating, row.events)
            )
    return lines


def rating_history(
    player_id: int, season_id: uuid.UUID, viewer_id: int | None, now: datetime
) -> tuple[list[RatingChange], int]:
    """The player's last ``CHART_TABLES`` rating changes of the season, in order, and
    how many they have there, as the viewer sees the season."""
    if season_id in _held_seasons([season_id], viewer_id, now):
        _, changes = season_standings(season_id, viewer_id)
        mine = [change for change in changes if change.player_id == player_id]
        return mine[-CHART_TABLES:], len(mine)
    latest = list(
        RatingChange.objects.filter(season_id=season_id, player_id=player_id).order_by("-order")[
            : CHART_TABLES + 1
        ]
    )
    total = len(latest)
    if total > CHART_TABLES:
        total = RatingChange.objects.filter(season_id=season_id, player_id=player_id).count()
    return latest[:CHART_TABLES][::-1], total


def rating_chart(changes: Sequence[RatingChange], total: int) -> PlayerChart | None:
    """The player's rating table by table (``changes``, in order) as an SVG polyline
    in a box of ``CHART_WIDTH`` by ``CHART_HEIGHT``; None without a table."""
    if not changes:
        return None
    series = [changes[0].before, *(change.after for change in changes)]
    low, high = math.floor(min(series)), math.ceil(max(series))
    if high - low < 2:
        low, high = low - 1, high + 1
    inner_width, inner_height = CHART_WIDTH - 2 * CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    steps = len(series) - 1

    def y_of(value: float) -> float:
        return round(CHART_PAD + inner_height * (1 - (value - low) / (high - low)), 1)

    coordinates = [
        (round(CHART_PAD + inner_width * index / steps, 1), y_of(value))
        for index, value in enumerate(series)
    ]
    names = dict(
        Event.objects.filter(pk__in={change.event_id for change in changes}).values_list(
            "id", "name"
        )
    )
    first_number = total - len(changes) + 1
    return PlayerChart(
        CHART_WIDTH,
        CHART_HEIGHT,
        " ".join(f"{x},{y}" for x, y in coordinates),
        coordinates[-1][0],
        coordinates[-1][1],
        low,
        high,
        y_of(low),
        y_of(high),
        round(series[0], 1),
        round(series[-1], 1),
        len(changes),
        total,
        [
            ChartRow(
                first_number + index,
                names.get(change.event_id, ""),
                change.round,
                round(change.after, 1),
            )
            for index, change in enumerate(changes)
        ],
    )


# --- Head to head --------------------------------------------------------------------


@dataclass(frozen=True)
class HeadToHead:
    other: Opponent
    games: int
    # Games where the player placed ahead of the other, behind, level.
    ahead: int
    behind: int
    level: int


def frequent_opponents(
    player_id: int, viewer_id: int | None, now: datetime
) -> list[tuple[Opponent, int]]:
    """The people (with a page) the player met most in the games the viewer sees, and
    how many games each."""
    mine = shown_games(player_id, viewer_id, now).values("game_id")
    people = User.objects.filter(is_active=True, is_bot=False, is_guest=False).values("pk")
    met = list(
        PlayerGame.objects.filter(game_id__in=mine, player_id__in=people)
        .exclude(player_id=player_id)
        .order_by()
        .values("player_id")
        .annotate(games=Count("id"))
        .order_by("-games", "player_id")[:OPPONENTS_SHOWN]
    )
    names = {
        user.pk: user.display for user in User.objects.filter(pk__in=[m["player_id"] for m in met])
    }
    return [(Opponent(m["player_id"], names[m["player_id"]], True), m["games"]) for m in met]


def head_to_head(player_id: int, other: User, viewer_id: int | None, now: datetime) -> HeadToHead:
    """The games the viewer sees in which both played, and who placed ahead how often:
    the two players' rows of those games, paired by game (one GROUP BY), counted."""
    seen = shown_games(player_id, viewer_id, now).values("game_id")
    pairs = (
        PlayerGame.objects.filter(game_id__in=seen, player_id__in=[player_id, other.pk])
        .order_by()
        .values("game_id")
        .annotate(
            mine=Max(Case(When(player_id=player_id, then=F("place")))),
            theirs=Max(Case(When(player_id=other.pk, then=F("place")))),
        )
        .filter(mine__isnull=False, theirs__isnull=False)
    )
    counts = pairs.aggregate(
        games=Count("game_id"),
        ahead=Count("game_id", filter=Q(mine__lt=F("theirs"))),
        behind=Count("game_id", filter=Q(mine__gt=F("theirs"))),
        level=Count("game_id", filter=Q(mine=F("theirs"))),
    )
    return HeadToHead(
        Opponent(other.pk, other.display, True),
        counts["games"],
        counts["ahead"],
        counts["behind"],
        counts["level"],
    )


# --- The whole page ------------------------------------------------------------------

# What a page's address may ask that it cannot show, by the field that asked it.
NO_RATING_THERE = "no_rating_in_season"
SAME_PLAYER = "same_player"
NO_SUCH_PLAYER = "no_such_player"


@dataclass(frozen=True)
class PlayerPicture:
    """Everything a player page shows, as the viewer sees it at a moment: the page and
    the API's ``/api/players/<id>/`` alike."""

    player: User
    figures: Figures
    page: GamesPage
    results: list[ResultLine]
    events: list[EventLine]
    seasons: list[SeasonLine]
    # The season charted (the one asked for, else the latest), and its chart.
    season: SeasonLine | None
    chart: PlayerChart | None
    opponents: list[tuple[Opponent, int]]
    versus: HeadToHead | None
    # What was asked that cannot be shown, by field: "season" (NO_RATING_THERE), "vs"
    # (SAME_PLAYER, NO_SUCH_PLAYER); the picture is as if it had not been asked.
    refused: dict[str, str]


def player_picture(
    player: User,
    viewer_id: int | None,
    now: datetime,
    *,
    page: int = 1,
    season_id: uuid.UUID | None = None,
    other_id: int | None = None,
) -> PlayerPicture:
    """The player's page as ``viewer_id`` sees it at ``now``: page ``page`` of their
    games (GamesPageNotFound past the last), the chart of season ``season_id`` (else the
    latest), and their record against ``other_id``, if asked."""
    refused: dict[str, str] = {}
    games = shown_games(player.pk, viewer_id, now)
    counted = figures(games)
    shown = games_page(games, counted.games, page)
    if shown is None:
        raise GamesPageNotFound(page)
    seasons = player_seasons(player.pk, viewer_id, now)
    season = next((line for line in seasons if line.season_id == season_id), None)
    if season_id is not None and season is None:
        refused["season"] = NO_RATING_THERE
    season = season or (seasons[0] if seasons else None)
    chart = None
    if season is not None:
        chart = rating_chart(*rating_history(player.pk, season.season_id, viewer_id, now))
    opponents = frequent_opponents(player.pk, viewer_id, now)
    versus = None
    if other_id is not None:
        versus = _versus(player, other_id, viewer_id, now, refused)
    if versus is not None and all(met.player_id != other_id for met, _ in opponents):
        opponents.append((versus.other, versus.games))
    return PlayerPicture(
        player,
        counted,
        shown,
        results_by_preset(games),
        player_events(player.pk, viewer_id, now),
        seasons,
        season,
        chart,
        opponents,
        versus,
        refused,
    )


def _versus(
    player: User, other_id: int, viewer_id: int | None, now: datetime, refused: dict[str, str]
) -> HeadToHead | None:
    if other_id == player.pk:
        refused["vs"] = SAME_PLAYER
        return None
    try:
        other = find_player(other_id)
    except PlayerNotFound:
        refused["vs"] = NO_SUCH_PLAYER
        return None
    return head_to_head(player.pk, other, viewer_id, now)
