"""Standings and season leaderboards, derived from the logs.

A table's result is read from its game's stream, and only from the two kinds of
event that carry scores (``HandScored``, ``GameFinished``), never from the cards.
The read models keep each table's figures with the game version they were read at,
so an update after one hand re-reads that one game; the standings are then totalled
from the tables' figures, with the event's corrections.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction

from games.domain import stream_of
from games.models import Game, StoredEvent
from tournaments import points, rating
from tournaments.apps import SCORE_EVENTS
from tournaments.domain import Championship, decode, event_stream, fold
from tournaments.models import Entry, Event, RatingChange, SeasonStanding, Standing, TableResult


@dataclass(frozen=True)
class GameFigures:
    scores: tuple[int, ...]
    exact_bids: tuple[int, ...]
    hands_scored: int
    finished: bool
    version: int


def read_figures(game_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, GameFigures]:
    """Each game's scores and exact bids so far, from its log, in one query."""
    by_stream = {stream_of(game_id): game_id for game_id in game_ids}
    if not by_stream:
        return {}
    rows = (
        StoredEvent.objects.filter(stream__in=list(by_stream), type__in=SCORE_EVENTS)
        .order_by("stream", "sequence")
        .values_list("stream", "sequence", "type", "payload")
    )
    figures: dict[uuid.UUID, GameFigures] = {}
    scores: dict[uuid.UUID, tuple[int, ...]] = {}
    exact: dict[uuid.UUID, list[int]] = {}
    hands: dict[uuid.UUID, int] = defaultdict(int)
    finished: set[uuid.UUID] = set()
    last: dict[uuid.UUID, int] = {}
    for stream, sequence, kind, payload in rows:
        game_id = by_stream[stream]
        last[game_id] = sequence
        if kind == "HandScored":
            bids, tricks = payload["bids"], payload["tricks"]
            made = exact.setdefault(game_id, [0] * len(bids))
            for seat, (bid, won) in enumerate(zip(bids, tricks, strict=True)):
                made[seat] += bid == won
            scores[game_id] = tuple(payload["totals"])
            hands[game_id] += 1
        else:
            scores[game_id] = tuple(payload["scores"])
            finished.add(game_id)
    for game_id in by_stream.values():
        if game_id in scores:
            figures[game_id] = GameFigures(
                scores[game_id],
                tuple(exact[game_id]),
                hands[game_id],
                game_id in finished,
                last[game_id],
            )
    return figures


def _counted(method: points.PointsMethod, finished: bool, hands_scored: int) -> bool:
    # Matchpoints compare tables deal by deal, so only finished games compare fairly;
    # the other methods count a game in play by its score so far (live standings).
    if method is points.PointsMethod.MATCHPOINTS:
        return finished
    return hands_scored > 0


def compute_standings(
    championship: Championship, tables: Sequence[TableResult]
) -> list[points.Standing]:
    """The standings from the tables' figures and the event's corrections."""
    settings = championship.settings
    method = points.PointsMethod(settings.points)
    # A duplicate deal set is compared only once all its tables are over: a partial
    # comparison would change later and tell of deals still in play.
    unfinished_sets = {(row.round, len(row.players)) for row in tables if not row.finished}
    by_round: dict[int, list[points.TableResult]] = defaultdict(list)
    for row in tables:
        if method is points.PointsMethod.MATCHPOINTS and (
            (row.round, len(row.players)) in unfinished_sets
        ):
            continue
        if _counted(method, row.finished, row.hands_scored):
            by_round[row.round].append(
                points.TableResult(
                    tuple(row.players), tuple(row.scores), tuple(row.exact_bids), row.number
                )
            )
    scored: list[tuple[points.TableResult, Sequence[float]]] = []
    for number in sorted(by_round):
        scored += points.round_points(by_round[number], method)
    adjustments: dict[int, float] = defaultdict(float)
    for correction in championship.corrections:
        adjustments[correction.player_id] += correction.points
    return points.standings(scored, settings.tie_breaks, adjustments=adjustments)


def event_standings(event_id: uuid.UUID, championship: Championship) -> list[points.Standing]:
    """The standings as the logs have them now, read straight from the games' streams
    (for seating a round: it must not wait for the read models)."""
    rows = [
        TableResult(
            game_id=uuid.UUID(game_id),
            event_id=event_id,
            round=played.number,
            number=number + 1,
            players=list(players),
        )
        for played in championship.rounds
        for number, (players, game_id) in enumerate(zip(played.tables, played.games, strict=True))
    ]
    figures = read_figures(row.game_id for row in rows)
    for row in rows:
        _fill(row, figures.get(row.game_id))
    return compute_standings(championship, rows)


def _fill(row: TableResult, figures: GameFigures | None) -> None:
    if figures is None:
        row.scores = [0] * len(row.players)
        row.exact_bids = [0] * len(row.players)
        row.hands_scored, row.finished, row.version = 0, False, 0
    else:
        row.scores = list(figures.scores)
        row.exact_bids = list(figures.exact_bids)
        row.hands_scored, row.finished, row.version = (
            figures.hands_scored,
            figures.finished,
            figures.version,
        )


def refresh_tables(event_id: uuid.UUID) -> list[TableResult]:
    """The event's table rows, each re-read from its game's log if the game moved on
    since it was last read; returns them all."""
    rows = list(TableResult.objects.filter(event_id=event_id))
    # A finished game never changes again: only the others are asked for their version.
    playing = [row.game_id for row in rows if not row.finished]
    versions = dict(Game.objects.filter(pk__in=playing).values_list("id", "version"))
    stale = [
        row for row in rows if not row.finished and versions.get(row.game_id, 0) != row.version
    ]
    figures = read_figures(row.game_id for row in stale)
    changed = []
    for row in stale:
        before = (row.scores, row.exact_bids, row.hands_scored, row.finished, row.version)
        _fill(row, figures.get(row.game_id))
        row.version = versions.get(row.game_id, 0)
        if (row.scores, row.exact_bids, row.hands_scored, row.finished, row.version) != before:
            changed.append(row)
    TableResult.objects.bulk_update(
        changed, ["scores", "exact_bids", "hands_scored", "finished", "version"]
    )
    return rows


def write_standings(event_id: uuid.UUID, ranked: Sequence[points.Standing]) -> bool:
    """Bring the event's standing rows to ``ranked``; whether anything changed.

    One result moves the ranks of many players, so when anything changed the rows
    are written afresh: one DELETE and one INSERT beat an UPDATE per row."""
    names = dict(Entry.objects.filter(event_id=event_id).values_list("player_id", "name"))
    fields = ("player_id", "name", "rank", "points", "exact_bids", "best_game", "games")
    wanted = [
        (
            line.player,
            names.get(line.player, str(line.player)),
            line.rank,
            line.points,
            line.exact_bids,
            line.best_game,
            line.games,
        )
        for line in ranked
    ]
    stored = Standing.objects.filter(event_id=event_id).order_by("rank", "player_id")
    if list(stored.values_list(*fields)) == sorted(wanted, key=lambda row: (row[2], row[0])):
        return False
    stored.delete()
    Standing.objects.bulk_create(
        Standing(event_id=event_id, **dict(zip(fields, row, strict=True))) for row in wanted
    )
    return True


# What the standings need of an event's stream: not its entries and check-ins, which
# are most of it in a large event (the names come from the entries' read model).
STANDINGS_EVENTS = ("EventCreated", "RoundStarted", "ResultCorrected")


def _standings_view(event_id: uuid.UUID) -> Championship:
    rows = (
        StoredEvent.objects.filter(stream=event_stream(event_id), type__in=STANDINGS_EVENTS)
        .order_by("sequence")
        .values_list("type", "payload")
    )
    return fold(Championship(), [decode(kind, payload) for kind, payload in rows])


def update_event_standings(event_id: uuid.UUID) -> bool:
    """Re-read the tables that moved on and rewrite the standings; whether they
    changed. Idempotent: a second run finds nothing to do."""
    with transaction.atomic():
        championship = _standings_view(event_id)
        rows = refresh_tables(event_id)
        changed = write_standings(event_id, compute_standings(championship, rows))
        # The last table of the last round finishing ends the event.
        if (
            len(championship.rounds) == championship.settings.rounds
            and all(row.finished for row in rows)
            and Event.objects.filter(pk=event_id, status=Event.Status.RUNNING).update(
                status=Event.Status.FINISHED
            )
        ):
            changed = True
    return changed


# --- Seasons ------------------------------------------------------------------------------


def season_leaderboard(season_id: uuid.UUID) -> tuple[list[SeasonStanding], list[RatingChange]]:
    """A season's leaderboard (points for placings in its finished events) and its
    rating history (every table of those events, in order), from the read models of
    its events."""
    events = list(
        Event.objects.filter(
            season_id=season_id, status__in=[Event.Status.FINISHED, Event.Status.PUBLISHED]
        ).order_by("created_at", "id")
    )
    season_points: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    tables: list[rating.RatedTable] = []
    for event in events:
        ranked = list(Standing.objects.filter(event_id=event.id))
        for line in ranked:
            season_points[line.player_id] += rating.season_points(line.rank, len(ranked))
            played[line.player_id] += 1
            names[line.player_id] = line.name
        for row in TableResult.objects.filter(event_id=event.id, finished=True):
            tables.append(
                rating.RatedTable(
                    players=tuple(row.players),
                    scores=tuple(row.scores),
                    event=str(event.id),
                    round=str(row.round),
                    table=str(row.number),
                )
            )
    history = rating.rate_tables(tables)
    ratings = rating.current_ratings(history)
    order = sorted(
        season_points,
        key=lambda player: (
            -season_points[player],
            -ratings.get(player, rating.INITIAL_RATING),
            player,
        ),
    )
    leaderboard = []
    for player in order:
        rank = 1 + sum(1 for other in order if season_points[other] > season_points[player])
        leaderboard.append(
            SeasonStanding(
                season_id=season_id,
                player_id=player,
                name=names[player],
                rank=rank,
                points=season_points[player],
                rating=round(ratings.get(player, rating.INITIAL_RATING), 1),
                events=played[player],
            )
        )
    changes = [
        RatingChange(
            season_id=season_id,
            player_id=change.player,
            event_id=uuid.UUID(change.event),
            round=int(change.round),
            order=index,
            before=round(change.before, 2),
            after=round(change.after, 2),
        )
        for index, change in enumerate(history)
    ]
    return leaderboard, changes


def update_season(season_id: uuid.UUID) -> None:
    with transaction.atomic():
        leaderboard, changes = season_leaderboard(season_id)
        SeasonStanding.objects.filter(season_id=season_id).delete()
        RatingChange.objects.filter(season_id=season_id).delete()
        SeasonStanding.objects.bulk_create(leaderboard)
        RatingChange.objects.bulk_create(changes)
