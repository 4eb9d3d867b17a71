"""A championship's standings, derived from the logs.

A table's result is read from its game's stream, and only from the events that
carry scores (``HandScored``, ``GameFinished``, and in a whist drive classic Whist's
``classic.HandScored`` and ``classic.MatchFinished``), never from the cards.
The read models keep each table's figures with the game version they were read at,
so an update after one hand re-reads that one game; the standings are then totalled
from the tables' figures, with the championship's corrections.
"""

from __future__ import annotations

import threading
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from cachetools import LRUCache
from django.db import transaction

from accounts.models import User
from eventlog import store
from games import rules
from games.models import Game
from games.rules import classic
from games.table import PlayerSeated, SeatAutomated, SeatTaken, stream_of
from tournaments import points
from tournaments.championship import Championship, championship_stream, fold
from tournaments.models import Entry, Standing, TableResult

# The events whose arrival changes an event's standings.
SCORE_EVENTS = ("HandScored", "GameFinished", "classic.HandScored", "classic.MatchFinished")
# The events that say who plays each seat when a deal is scored: its player, a
# substitute, or a bot standing in once the game has begun (decision 3406).
SEAT_EVENTS = ("GameStarted", "classic.MatchStarted", "PlayerSeated", "SeatTaken", "SeatAutomated")


@dataclass(frozen=True)
class GameFigures:
    scores: tuple[int, ...]
    exact_bids: tuple[int, ...]
    hands_scored: int
    finished: bool
    version: int
    # Who played each seat's deals, when anyone but its player did (points.TableResult).
    played: tuple[tuple[tuple[int | None, int, int], ...], ...] = ()


class SeatHolders:
    """Who plays each seat of one game as its log goes: its player, a substitute, or
    nobody (None) while a bot stands in for them."""

    def __init__(self, bot_accounts: frozenset[int]) -> None:
        self.bot_accounts = bot_accounts
        self.started = False
        self.users: dict[int, int] = {}
        self.standing_in: set[int] = set()
        # Seats a bot played from before the game began: for its bot entrant, or in
        # place of a person (a no-show at a scheduled start).
        self.automated: set[int] = set()
        self.first: dict[int, int] = {}

    def follow(self, event: object) -> None:
        if isinstance(event, PlayerSeated):
            self.users[event.seat] = self.first[event.seat] = event.user_id
        elif isinstance(event, SeatTaken):
            self.users[event.seat] = event.user_id
        elif isinstance(event, SeatAutomated):
            seated = self.standing_in if self.started else self.automated
            if event.bot is not None:
                seated.add(event.seat)
            else:
                self.standing_in.discard(event.seat)
                self.automated.discard(event.seat)
        else:
            self.started = True

    def holders(self, count: int) -> tuple[int | None, ...]:
        return tuple(self._holder(seat) for seat in range(count))

    def _holder(self, seat: int) -> int | None:
        user = self.users.get(seat)
        stands_in = seat in self.standing_in or (
            seat in self.automated and user not in self.bot_accounts
        )
        return None if stands_in else user


def _played(
    holders: Sequence[tuple[int | None, ...]],
    exact: Sequence[Sequence[bool]],
    players: Sequence[int | None],
) -> tuple[tuple[tuple[int | None, int, int], ...], ...]:
    """By seat, ``(who, deals, exact bids)`` of each who played its deals (``holders``
    and ``exact`` by deal), or () for a seat its player played throughout; () for a
    table where nobody stood in."""
    seats: list[tuple[tuple[int | None, int, int], ...]] = []
    for seat, player in enumerate(players):
        shares: dict[int | None, list[int]] = {}
        for held, made in zip(holders, exact, strict=True):
            share = shares.setdefault(held[seat], [0, 0])
            share[0] += 1
            share[1] += made[seat]
        alone = list(shares) in ([], [player])
        seats.append(() if alone else tuple((who, d, e) for who, (d, e) in shares.items()))
    return tuple(seats) if any(seats) else ()


def read_figures(
    game_ids: Iterable[uuid.UUID], *, until: datetime | None = None
) -> dict[uuid.UUID, GameFigures]:
    """Each game's scores and exact bids so far (or as they stood at ``until``), from
    its log, in one query."""
    by_stream = {stream_of(game_id): game_id for game_id in game_ids}
    if not by_stream:
        return {}
    scored = store.read_streams(list(by_stream), types=SCORE_EVENTS + SEAT_EVENTS, until=until)
    figures: dict[uuid.UUID, GameFigures] = {}
    seated = {
        record.event.user_id for _, record in scored if isinstance(record.event, PlayerSeated)
    }
    bot_accounts = frozenset(
        User.objects.filter(pk__in=seated, is_bot=True).values_list("pk", flat=True)
    )
    seats: dict[uuid.UUID, SeatHolders] = defaultdict(lambda: SeatHolders(bot_accounts))
    # Who played each deal, by seat, as it was first scored; and whether each seat
    # made its bid exactly (none in classic Whist).
    held: dict[uuid.UUID, dict[int, tuple[int | None, ...]]] = defaultdict(dict)
    classic_held: dict[uuid.UUID, list[tuple[int | None, ...]]] = defaultdict(list)
    scores: dict[uuid.UUID, tuple[int, ...]] = {}
    exact: dict[uuid.UUID, list[int]] = {}
    hands: dict[uuid.UUID, int] = defaultdict(int)
    # A table in the room's deals as last scored: a correction scores a deal again.
    deals: dict[uuid.UUID, dict[int, rules.HandScored]] = defaultdict(dict)
    finished: set[uuid.UUID] = set()
    last: dict[uuid.UUID, int] = {}
    for stream, record in scored:
        game_id = by_stream[stream]
        event = record.event
        if record.type in SEAT_EVENTS:
            seats[game_id].follow(event)
            continue
        last[game_id] = record.sequence
        if isinstance(event, rules.HandScored):
            deals[game_id][event.hand] = event
            held[game_id].setdefault(event.hand, seats[game_id].holders(len(event.totals)))
            scores[game_id] = event.totals
        elif isinstance(event, rules.GameFinished):
            scores[game_id] = event.scores
            finished.add(game_id)
        else:
            # Classic Whist's tournament form: each player scores their side's odd
            # tricks (sides by seat: 0 and 2, 1 and 3); there are no bids.
            a, b = event.totals if isinstance(event, classic.HandScored) else event.points
            scores[game_id] = (a, b, a, b)
            exact.setdefault(game_id, [0] * 4)
            if isinstance(event, classic.HandScored):
                hands[game_id] += 1
                classic_held[game_id].append(seats[game_id].holders(4))
            else:
                finished.add(game_id)
    for game_id, scored_deals in deals.items():
        made = exact[game_id] = [0] * len(scores[game_id])
        for deal in scored_deals.values():
            for seat, (bid, won) in enumerate(zip(deal.bids, deal.tricks, strict=True)):
                made[seat] += bid == won
        hands[game_id] = len(scored_deals)
    for game_id in by_stream.values():
        if game_id in scores:
            count = len(scores[game_id])
            players = [seats[game_id].first.get(seat) for seat in range(count)]
            if game_id in deals:
                ordered = sorted(deals[game_id].items())
                by_deal = [held[game_id][hand] for hand, _ in ordered]
                hit = [[b == w for b, w in zip(d.bids, d.tricks, strict=True)] for _, d in ordered]
            else:
                by_deal = classic_held[game_id]
                hit = [[False] * count for _ in by_deal]
            figures[game_id] = GameFigures(
                scores[game_id],
                tuple(exact[game_id]),
                hands[game_id],
                game_id in finished,
                last[game_id],
                _played(by_deal, hit, players),
            )
    return figures


# Each table's tournament points, by (game, version read, method): a table that did
# not move on is not scored again (per process; the figures come from the log).
_TABLE_POINTS: dict[tuple[uuid.UUID, int, str], tuple[points.TableResult, list[Fraction]]] = {}
_TABLE_POINTS_LIMIT = 50_000


def _scored_table(
    row: TableResult, method: points.PointsMethod
) -> tuple[points.TableResult, list[Fraction]]:
    key = (row.game_id, row.version, method.value)
    scored = _TABLE_POINTS.get(key)
    if scored is None:
        result = _result(row)
        scored = (result, points.table_points(result, method))
        if len(_TABLE_POINTS) >= _TABLE_POINTS_LIMIT:
            _TABLE_POINTS.clear()
        _TABLE_POINTS[key] = scored
    return scored


def _result(row: TableResult) -> points.TableResult:
    played = tuple(
        tuple((who, deals, exact) for who, deals, exact in seat) for seat in row.played or ()
    )
    return points.TableResult(
        tuple(row.players), tuple(row.scores), tuple(row.exact_bids), row.number, played
    )


def compute_standings(
    championship: Championship, tables: Sequence[TableResult]
) -> list[points.Standing]:
    """The standings from the tables' figures and the event's corrections."""
    settings = championship.settings
    method = points.PointsMethod(settings.points)
    scored: list[tuple[points.TableResult, Sequence[Fraction]]] = []
    if method is points.PointsMethod.MATCHPOINTS:
        # A duplicate deal set is compared only once all its tables are over: a
        # partial comparison would change later and tell of deals still in play.
        unfinished = {(row.round, len(row.players)) for row in tables if not row.finished}
        by_round: dict[int, list[points.TableResult]] = defaultdict(list)
        for row in tables:
            if (row.round, len(row.players)) not in unfinished:
                by_round[row.round].append(_result(row))
        for number in sorted(by_round):
            scored += points.round_points(by_round[number], method)
    else:
        # A game in play counts by its score so far: live standings.
        scored = [_scored_table(row, method) for row in tables if row.hands_scored > 0]
    adjustments: dict[int, Fraction] = defaultdict(Fraction)
    for correction in championship.corrections:
        # Entered as a decimal of 2 places and logged as a float: its shortest
        # decimal spelling is what the organizer typed.
        adjustments[correction.player_id] += Fraction(str(correction.points))
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
        row.played = []
    else:
        row.scores = list(figures.scores)
        row.exact_bids = list(figures.exact_bids)
        row.hands_scored, row.finished, row.version = (
            figures.hands_scored,
            figures.finished,
            figures.version,
        )
        row.played = [[list(share) for share in seat] for seat in figures.played]


# The events whose memos a process keeps: above the events in play at once; an event
# evicted (or over) is read from its read models again.
EVENTS_KEPT = 256

# Each event's table rows as last read, by event, with the standings events they go
# with (count, last sequence): a new round or correction reads them all again. Finished
# tables never change; the others are checked against their game's version each time.
_ROWS: LRUCache[uuid.UUID, tuple[tuple[int, int], dict[uuid.UUID, TableResult]]] = LRUCache(
    maxsize=EVENTS_KEPT
)
_ROWS_LOCK = threading.Lock()


def forget_tables() -> None:
    """Drop this process's memo of table rows (their read models are being rebuilt)."""
    with _ROWS_LOCK:
        _ROWS.clear()
        _VIEWS.clear()


def refresh_tables(event_id: uuid.UUID, marker: tuple[int, int] | None = None) -> list[TableResult]:
    """The event's table rows, each re-read from its game's log if the game moved on
    since it was last read (and saved so); returns them all."""
    with _ROWS_LOCK:
        memo = _ROWS.get(event_id)
    if marker is not None and memo is not None and memo[0] == marker:
        by_game = memo[1]
    else:
        by_game = {row.game_id: row for row in TableResult.objects.filter(event_id=event_id)}
    playing = [game_id for game_id, row in by_game.items() if not row.finished]
    games = {
        game_id: (version, hands_total)
        for game_id, version, hands_total in Game.objects.filter(pk__in=playing).values_list(
            "id", "version", "hands_total"
        )
    }
    stale = [
        by_game[game_id]
        for game_id in playing
        if games.get(game_id, (0, 0))[0] != by_game[game_id].version
    ]
    figures = read_figures(row.game_id for row in stale)
    for row in stale:
        _fill(row, figures.get(row.game_id))
        version, row.hands_total = games.get(row.game_id, (0, 0))
        # A finished table is read at its last score: the events a finished table's
        # log may still gain (a deal set's secrets, revealed when its last table
        # finishes) must not make a rebuild differ from the row read as it finished.
        if not row.finished:
            row.version = version
    TableResult.objects.bulk_update(
        stale,
        ["scores", "exact_bids", "hands_scored", "hands_total", "finished", "version", "played"],
    )
    if marker is not None:
        with _ROWS_LOCK:
            _ROWS[event_id] = (marker, by_game)
    return sorted(by_game.values(), key=lambda row: (row.round, row.number))


def write_standings(event_id: uuid.UUID, ranked: Sequence[points.Standing]) -> bool:
    """Bring the event's standing rows to ``ranked``, rewriting only the rows that
    changed (one DELETE and one INSERT, however many); whether any did."""
    fields = ("player_id", "name", "rank", "points", "exact_bids", "best_game", "games")
    stored = {
        values[1]: (values[0], values[1:])
        for values in Standing.objects.filter(event_id=event_id).values_list("pk", *fields)
    }
    # Names are read only for players new to the standings (an entry's name is fixed).
    names = {player: values[1] for player, (_, values) in stored.items()}
    missing = [line.player for line in ranked if line.player not in names]
    if missing:
        names |= dict(
            Entry.objects.filter(event_id=event_id, player_id__in=missing).values_list(
                "player_id", "name"
            )
        )
    wanted = {
        line.player: (
            line.player,
            names.get(line.player, str(line.player)),
            line.rank,
            points.displayed(line.points),
            line.exact_bids,
            line.best_game,
            line.games,
        )
        for line in ranked
    }
    gone = [pk for player, (pk, values) in stored.items() if wanted.get(player) != values]
    new = [
        values for player, values in wanted.items() if stored.get(player, (0, None))[1] != values
    ]
    if not gone and not new:
        return False
    Standing.objects.filter(pk__in=gone).delete()
    Standing.objects.bulk_create(
        Standing(event_id=event_id, **dict(zip(fields, values, strict=True))) for values in new
    )
    return True


# What the standings need of an event's stream: not its entries and check-ins, which
# are most of it in a large event (the names come from the entries' read model).
STANDINGS_EVENTS = ("EventCreated", "RoundStarted", "ResultCorrected")


_VIEWS: LRUCache[uuid.UUID, tuple[tuple[int, int], Championship]] = LRUCache(maxsize=EVENTS_KEPT)


def _standings_view(event_id: uuid.UUID) -> tuple[Championship, tuple[int, int]]:
    """The event as far as the standings need it, and a marker of those events (how
    many, and the last one's number) that changes whenever they do; decoded again
    only when it does (a round's seating is most of it)."""
    stream = championship_stream(event_id)
    marker = store.tally(stream, types=STANDINGS_EVENTS)
    with _ROWS_LOCK:
        known = _VIEWS.get(event_id)
    if known is not None and known[0] == marker:
        return known[1], marker
    records = store.read(stream, types=STANDINGS_EVENTS)
    championship = fold(Championship(), [record.event for record in records])
    with _ROWS_LOCK:
        _VIEWS[event_id] = (marker, championship)
    return championship, marker


def standings_until(
    event_id: uuid.UUID, until: datetime
) -> tuple[list[TableResult], list[points.Standing]]:
    """The event's tables and standings as the games' logs stood at ``until``: what a
    spectator held back by the event's delay may see. Nothing is saved."""
    championship, _ = _standings_view(event_id)
    rows = list(TableResult.objects.filter(event_id=event_id))
    figures = read_figures((row.game_id for row in rows), until=until)
    for row in rows:
        _fill(row, figures.get(row.game_id))
    return rows, compute_standings(championship, rows)


def update_event_standings(event_id: uuid.UUID) -> bool:
    """Re-read the tables that moved on and rewrite the standings; whether they
    changed. Idempotent: a second run finds nothing to do."""
    with transaction.atomic():
        championship, marker = _standings_view(event_id)
        rows = refresh_tables(event_id, marker)
        return write_standings(event_id, compute_standings(championship, rows))
