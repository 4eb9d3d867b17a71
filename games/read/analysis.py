"""A finished game's analysis by the strong bot: computed from the log alone
(:func:`review_from_log`), kept as a read model (:class:`games.models.GameAnalysis`),
and shown to each viewer as far as they may see it (:func:`analysis_view`).

The review (games.bots.analysis) judges each seat from that seat's view, but it names
the better card a seat held and how lucky its hand was: the cards of a hand. So a
player sees their own seat's at once, and everyone sees every seat's once the game's
record is public (for a duplicate table, once its whole deal set has finished).
Decision 3602.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.urls import reverse

from eventlog import store
from games import rules
from games.bots.analysis import review_game
from games.errors import AnalysisNotKept, DealSetInPlay, GameNotFound, RecordNotReady
from games.models import Game, GameAnalysis
from games.table import Table, fold, stream_of
from games.visibility import require_public_record, table_seat

READY, PENDING = "ready", "pending"
ANALYSE_TASK = "games.tasks.analyse_game"
# How long a game's analysis, once asked of the analysis workers, is not asked again.
ASKED_SECONDS = 600


def analysable(table: Table) -> bool:
    """Whether the strong bot can analyse the game: Romanian Whist played with cards
    the log holds (a table in the room records its deals' bids and tricks only)."""
    return not table.is_classic and not table.in_room


def review_from_log(game_id: uuid.UUID) -> tuple[int, dict[str, Any]] | None:
    """The finished game's review, each decision with the version (``at``) of its event
    in the log, and the log's version; None for a game not analysed (not finished, or
    not :func:`analysable`)."""
    records = store.read(stream_of(game_id))
    if not records:
        raise GameNotFound(game_id)
    table = fold(Table(), [record.event for record in records])
    if not analysable(table) or table.game.phase is not rules.Phase.FINISHED:
        return None
    moves = [record for record in records if isinstance(record.event, rules.Event)]
    review = review_game([record.event for record in moves], seed=str(game_id)).as_dict()
    _place(review, moves)
    return len(records), review


def _place(review: dict[str, Any], moves: Sequence[store.Recorded]) -> None:
    """Give each reviewed bid and card the version of its event: a bid is a seat's one
    in its hand, a card its one in a trick of its hand."""
    bids: dict[tuple[int, int], int] = {}
    plays: dict[tuple[int, int, int], int] = {}
    trick = 0
    for record in moves:
        event = record.event
        if isinstance(event, rules.HandDealt):
            trick = 0
        elif isinstance(event, rules.BidPlaced):
            bids[event.hand, event.seat] = record.sequence
        elif isinstance(event, rules.CardPlayed):
            plays[event.hand, event.seat, trick] = record.sequence
        elif isinstance(event, rules.TrickTaken):
            trick += 1
    for hand in review["hands"]:
        for bid in hand["bids"]:
            bid["at"] = bids[hand["hand"], bid["seat"]]
        for play in hand["plays"]:
            play["at"] = plays[hand["hand"], play["seat"], play["trick"]]


def analyse(game_id: uuid.UUID) -> GameAnalysis | None:
    """Compute and keep the game's analysis, unless it is kept already (a task run twice
    or late finds it so); None for a game not analysed."""
    kept = GameAnalysis.objects.filter(game_id=game_id).first()
    if kept is not None:
        return kept
    started = time.process_time()
    reviewed = review_from_log(game_id)
    if reviewed is None:
        return None
    version, review = reviewed
    analysis, _ = GameAnalysis.objects.update_or_create(
        game_id=game_id,
        defaults={
            "version": version,
            "review": review,
            "seconds": round(time.process_time() - started, 3),
        },
    )
    return analysis


def rebuild_analysis(game_id: uuid.UUID, *, check: bool = False) -> bool | None:
    """Compute the game's analysis from its log again: whether it equals the one kept
    (None: none was kept, or the game is not analysed), and unless ``check``, keep the
    new one in its place."""
    reviewed = review_from_log(game_id)
    if reviewed is None:
        return None
    version, review = reviewed
    kept = GameAnalysis.objects.filter(game_id=game_id).first()
    same = None if kept is None else (kept.version, kept.review) == (version, review)
    if not check and not same:
        GameAnalysis.objects.update_or_create(
            game_id=game_id, defaults={"version": version, "review": review}
        )
    return same


# --- asking for an analysis ---------------------------------------------------------

# Embedded (tasks run in place, no worker): the analysis runs in this thread, one game
# at a time, rather than in the request that asked for it.
_EMBEDDED = ThreadPoolExecutor(max_workers=1, thread_name_prefix="atu-analysis")
_embedded_asked: set[uuid.UUID] = set()
_embedded_lock = threading.Lock()


def request_analysis(game_id: uuid.UUID) -> None:
    """Have the game's analysis computed, once: by the analysis workers (asked at most
    once in :data:`ASKED_SECONDS`; the task is routed to their queue), or embedded, by
    this process's analysis thread."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        with _embedded_lock:
            if game_id in _embedded_asked:
                return
            _embedded_asked.add(game_id)
        _EMBEDDED.submit(_analyse_embedded, game_id)
    elif cache.add(f"atu:analysis-asked:{game_id}", 1, ASKED_SECONDS):
        # By name: the task's module reads this one.
        current_app.send_task(ANALYSE_TASK, args=[str(game_id)])


def analysis_due(game_id: uuid.UUID) -> None:
    """A game has just finished: the analysis workers analyse it at once. Embedded, it is
    analysed when first asked for: its one process serves the players meanwhile."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        request_analysis(game_id)


def wait_for_embedded_analyses() -> None:
    """Return once the analyses this process was asked for embedded are done (at once
    when none is): a test's pages ask for analyses, which must not outlive its database."""
    _EMBEDDED.submit(lambda: None).result()


def _analyse_embedded(game_id: uuid.UUID) -> None:
    try:
        analyse(game_id)
    finally:
        with _embedded_lock:
            _embedded_asked.discard(game_id)
        # This thread's own connection, as a task's: closed, not left open.
        connection.close()


# --- what a viewer sees -------------------------------------------------------------


def analysis_view(game: Game, table: Table, user_id: int | None) -> dict[str, Any]:
    """The game's analysis as ``user_id`` may see it: every seat once the record is
    public, else their own seat's if they played it; asked for if not kept yet.

    Raises :class:`RecordNotReady` before the game has finished,
    :class:`AnalysisNotKept` for a game not analysed, and :class:`DealSetInPlay` to a
    viewer without a seat while the record is not public."""
    if not analysable(table):
        raise AnalysisNotKept()
    if game.status != Game.Status.FINISHED:
        raise RecordNotReady()
    seat = table_seat(table, user_id)
    try:
        require_public_record(game, user_id)
        seats = list(range(table.player_count))
    except DealSetInPlay:
        if seat is None:
            raise
        seats = [seat]
    kept = GameAnalysis.objects.filter(game_id=game.id).first()
    if kept is None:
        request_analysis(game.id)
        return {"status": PENDING, "seats": seats, "review": None}
    return {"status": READY, "seats": seats, "review": seen_review(kept.review, seats)}


def seen_review(review: dict[str, Any], seats: Sequence[int]) -> dict[str, Any]:
    """``review`` with only ``seats``' decisions, luck and summaries: another seat's luck
    says how good its cards were."""
    if len(seats) == review["players"]:
        return review
    shown = set(seats)

    def own(values: Sequence[Any]) -> list[Any]:
        return [value if index in shown else None for index, value in enumerate(values)]

    return {
        **review,
        "hands": [
            {
                **hand,
                "luck": own(hand["luck"]),
                "luck_points": own(hand["luck_points"]),
                "bids": [bid for bid in hand["bids"] if bid["seat"] in shown],
                "plays": [play for play in hand["plays"] if play["seat"] in shown],
            }
            for hand in review["hands"]
        ],
        "summary": [line for line in review["summary"] if line["seat"] in shown],
    }


# --- the analysis page --------------------------------------------------------------

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(card: str) -> str:
    """A card of the review (``"10H"``) as the table shows it (``"10♥"``)."""
    return card[:-1] + _SUITS[card[-1]]


def analysis_page(game: Game, shown: dict[str, Any]) -> dict[str, Any]:
    """What the analysis page draws of :func:`analysis_view`'s answer: each seat's
    summary by name, and each hand's flagged decisions with the replay's moment."""
    names = {seat["seat"]: seat["alias"] for seat in game.seats}
    review = shown["review"]
    if review is None:
        return {"status": shown["status"]}
    replay = f"{reverse('games:table', args=[game.code])}?replay"
    hands = []
    for hand in review["hands"]:
        flagged = [
            {
                "kind": "bid",
                "name": names.get(bid["seat"], ""),
                "made": str(bid["bid"]),
                "best": str(bid["best"]),
                "loss": bid["loss"],
                "link": f"{replay}&deal={hand['hand'] + 1}",
            }
            for bid in hand["bids"]
            if bid["flagged"]
        ] + [
            {
                "kind": "play",
                "name": names.get(play["seat"], ""),
                "made": card_label(play["card"]),
                "best": card_label(play["best"]),
                "loss": play["loss"],
                "trick": play["trick"] + 1,
                "link": f"{replay}&deal={hand['hand'] + 1}&trick={play['trick'] + 1}",
            }
            for play in hand["plays"]
            if play["flagged"]
        ]
        hands.append(
            {
                "number": hand["hand"] + 1,
                "cards": hand["cards"],
                "dealer": names.get(hand["dealer"], ""),
                "flagged": flagged,
            }
        )
    summary = [{**line, "name": names.get(line["seat"], "")} for line in review["summary"]]
    return {"status": READY, "summary": summary, "hands": hands, "hands_total": len(hands)}
