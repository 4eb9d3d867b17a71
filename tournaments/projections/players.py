"""Each player's part in each finished game (``PlayerGame``), read from the game's log
and nothing else: the seat they held at its end, their place and score, and of the
deals they bid themself how many they made exactly, their longest run of exact bids
and the streak bonuses they earned.

Written when a game finishes (the task ``record_player_games``, which only derives:
run twice, it writes the same rows), and dropped and derived again from the log by
``manage.py rebuild_player_games`` (:func:`rebuild_player_games`).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta

from django.db import transaction

from accounts.guests import Kept, accounts_of, people_at
from accounts.models import User
from eventlog import store
from eventlog.store import Recorded
from games import rules
from games.read.selectors import game_streams
from games.rules import classic
from games.table import (
    CLASSIC,
    FINISH_EVENTS,
    GameCreated,
    PlayerSeated,
    SeatTaken,
    stream_of,
)
from tournaments.models import PlayerGame
from tournaments.projections.standings import SEAT_EVENTS, SeatHolders

# What a player's part in a game is read from: the table, who holds each seat, each
# deal as last scored, and the end.
PLAYER_EVENTS = ("GameCreated", *SEAT_EVENTS, "HandScored", *sorted(FINISH_EVENTS))
# Games read from the log at once by a rebuild.
REBUILD_BATCH = 500


def player_games(
    game_id: uuid.UUID,
    records: Sequence[Recorded],
    bot_accounts: frozenset[int],
    accounts: Mapping[int, int],
) -> list[PlayerGame]:
    """The rows of a game's players (``records``: its records of ``PLAYER_EVENTS``, in
    order); none for a game not finished, or with nobody but bots at its end. A guest
    who signed in to their account (``accounts``: :func:`accounts.guests.accounts_of`)
    is that account: the row is its (decision 3507)."""
    created: GameCreated | None = None
    finished: Recorded | None = None
    seats = SeatHolders(bot_accounts)
    deals: dict[int, rules.HandScored] = {}
    # Who held each seat as each deal was first scored (None: a bot stood in).
    held: dict[int, tuple[int | None, ...]] = {}
    for record in records:
        event = record.event
        if isinstance(event, GameCreated):
            created = event
        elif record.type in SEAT_EVENTS:
            seats.follow(event)
        elif isinstance(event, rules.HandScored):
            deals[event.hand] = event
            held.setdefault(event.hand, seats.holders(len(event.bids)))
        elif isinstance(event, rules.GameFinished | classic.MatchFinished):
            finished = record
    if created is None or finished is None:
        return []
    ending = finished.event
    if isinstance(ending, classic.MatchFinished):
        scores, places = _classic_result(ending)
    else:
        scores, places = ending.scores, ending.places
    counts = _streak_counts(created)
    people = people_at(seats.users.values(), accounts)
    rows = []
    for seat in range(created.player_count):
        player = seats.users.get(seat)
        if player is None or player in bot_accounts:
            continue
        figures = _deal_figures(seat, player, deals, held, counts)
        rows.append(
            PlayerGame(
                game_id=game_id,
                seat=seat,
                player_id=people[player],
                code=created.code,
                kind=created.kind,
                preset=created.preset,
                player_count=created.player_count,
                place=places[seat],
                points=scores[seat],
                deals=figures[0],
                exact=figures[1],
                best_run=figures[2],
                bonuses=figures[3],
                finished_at=finished.recorded_at,
                shown_at=finished.recorded_at + timedelta(seconds=created.spectator_delay),
            )
        )
    return rows


def _classic_result(ending: classic.MatchFinished) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's points and place at the end of a classic match, as its state has
    them: its side's points; 1 for the side ahead, 2 for the other, level sides 1."""
    if ending.winner is not None:
        ahead: int | None = ending.winner
    else:
        a, b = (ending.games[0], ending.points[0]), (ending.games[1], ending.points[1])
        ahead = None if a == b else (0 if a > b else 1)
    first = (1, 2) if ahead == 0 else (2, 1) if ahead == 1 else (1, 1)
    return tuple(ending.points[seat % 2] for seat in range(4)), tuple(
        first[seat % 2] for seat in range(4)
    )


def _streak_counts(created: GameCreated) -> dict[int, bool]:
    """By hand, whether a deal counts in a streak (the table's rules may leave its
    one-card deals out: they neither extend nor break a run); empty in classic Whist."""
    if created.kind == CLASSIC:
        return {}
    options = rules.options_from_dict(created.options)
    schedule = rules.build_schedule(options, created.player_count)
    return {
        hand: spec.cards != 1 or options.streaks_count_one_card_deals
        for hand, spec in enumerate(schedule)
    }


def _deal_figures(
    seat: int,
    player: int,
    deals: dict[int, rules.HandScored],
    held: dict[int, tuple[int | None, ...]],
    counts: dict[int, bool],
) -> tuple[int, int, int, int]:
    """Of the deals ``player`` bid at ``seat``: how many, how many exactly, the
    longest run of exact bids and the streak bonuses earned. A deal someone else
    played at the seat breaks a run."""
    played = exact = run = best = bonuses = 0
    for hand in sorted(deals):
        deal = deals[hand]
        mine = held[hand][seat] == player
        made = mine and deal.bids[seat] == deal.tricks[seat]
        if mine:
            played += 1
            exact += made
            bonuses += deal.streak_points[seat] > 0
        if not counts.get(hand, True):
            continue
        run = run + 1 if made else 0
        best = max(best, run)
    return played, exact, best, bonuses


def _seated(records: Iterable[Recorded]) -> set[int]:
    return {
        record.event.user_id
        for record in records
        if record.type in (PlayerSeated.__name__, SeatTaken.__name__)
    }


def _bot_accounts(seated: set[int]) -> frozenset[int]:
    """The bots' accounts among the users ``seated``, in one query."""
    if not seated:
        return frozenset()
    return frozenset(User.objects.filter(pk__in=seated, is_bot=True).values_list("pk", flat=True))


def update_player_games(game_id: uuid.UUID) -> int:
    """Write the rows of a finished game's players from its log, in place of any it
    had; how many. Idempotent: run again, it writes the same rows."""
    records = store.read(stream_of(game_id), types=PLAYER_EVENTS)
    seated = _seated(records)
    rows = player_games(game_id, records, _bot_accounts(seated), accounts_of(seated))
    with transaction.atomic():
        PlayerGame.objects.filter(game_id=game_id).delete()
        PlayerGame.objects.bulk_create(rows)
    return len(rows)


def rebuild_player_games() -> tuple[int, int]:
    """Drop every ``PlayerGame`` row and derive them all again from the games' logs,
    as the task did; how many games were read and rows written."""
    games = game_streams()
    written = 0
    with transaction.atomic():
        PlayerGame.objects.all().delete()
        for start in range(0, len(games), REBUILD_BATCH):
            batch = {stream: game_id for game_id, stream in games[start : start + REBUILD_BATCH]}
            by_stream: dict[str, list[Recorded]] = defaultdict(list)
            for stream, record in store.read_streams(list(batch), types=PLAYER_EVENTS):
                by_stream[stream].append(record)
            seated = _seated(record for records in by_stream.values() for record in records)
            bots, accounts = _bot_accounts(seated), accounts_of(seated)
            rows = [
                row
                for stream, records in by_stream.items()
                for row in player_games(batch[stream], records, bots, accounts)
            ]
            PlayerGame.objects.bulk_create(rows)
            written += len(rows)
    return len(games), written


def absorb_guest(guest_id: int, account_id: int) -> list[Kept]:
    """A guest signed in to their account (decision 3507): the rows of the guest's
    finished games derived again, the account's now (``user_absorb_guest`` has written
    the guest's record beside the log), as a rebuild derives them. Nothing is kept to
    tell of: a game where the account sat too keeps the guest's row, and the games'
    part names the tables kept already."""
    games = PlayerGame.objects.filter(player_id=guest_id).values_list("game_id", flat=True)
    for game_id in list(games):
        update_player_games(game_id)
    return []
