"""A duplicate round's deals compared: for each deal, what everyone who held the same
cards (the same seat at the tables of one size) bid, made and scored, beside the bid
the strong bot would have made in their place (the game's analysis, decision 3602).

Read from the tables' public records, so only once a deal set's tables have all
finished: before, the comparison would show the cards still in play elsewhere.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from games.models import Game, GameAnalysis
from games.read.analysis import card_label, request_analysis
from games.read.download import game_record
from tournaments.models import Event, TableResult


@dataclass(frozen=True, slots=True)
class Line:
    """One table's player in the seat compared."""

    table: int
    code: str
    name: str
    bid: int
    made: int
    points: int
    # The strong bot's bid from the same view; None while the game's analysis is computed.
    bot_bid: int | None

    @property
    def exact(self) -> bool:
        return self.bid == self.made


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    cards: tuple[str, ...]
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class DealSet:
    """The tables of one size in the round: their deal ``hand`` seat by seat, or None
    while some of them still play."""

    size: int
    tables: tuple[int, ...]
    cards: int | None = None
    trump: str | None = None
    dealer: int | None = None
    seats: tuple[Seat, ...] | None = None


def round_deals(event: Event, round_number: int) -> int:
    """How many deals a table of the round plays (every table of a duplicate round plays
    the same number: the event's rules for its size); 0 for a round not started."""
    first = TableResult.objects.filter(event_id=event.id, round=round_number).first()
    return 0 if first is None else first.hands_total


def compare_deal(event: Event, round_number: int, hand: int) -> list[DealSet]:
    """Deal ``hand`` (from 0) of the round, for each table size, smallest first."""
    tables = TableResult.objects.filter(event_id=event.id, round=round_number).order_by("number")
    by_size: dict[int, list[TableResult]] = defaultdict(list)
    for table in tables:
        by_size[len(table.players)].append(table)
    return [_deal_set(size, by_size[size], hand) for size in sorted(by_size)]


def _deal_set(size: int, tables: list[TableResult], hand: int) -> DealSet:
    numbers = tuple(table.number for table in tables)
    if not all(table.finished for table in tables):
        return DealSet(size, numbers)
    records = [(table, game_record(table.game_id)) for table in tables]
    deal = records[0][1]["deals"][hand]
    bot_bids = {table.game_id: _bot_bids(table.game_id, hand) for table in tables}
    seats = tuple(
        Seat(
            seat,
            tuple(card_label(card) for card in deal["hands"][seat]),
            tuple(
                _line(table, record, hand, seat, bot_bids[table.game_id])
                for table, record in records
            ),
        )
        for seat in range(size)
    )
    trump = deal["trump_card"]
    return DealSet(
        size,
        numbers,
        cards=deal["cards"],
        trump=None if trump is None else card_label(trump),
        dealer=deal["dealer"],
        seats=seats,
    )


def _line(
    table: TableResult,
    record: dict[str, Any],
    hand: int,
    seat: int,
    bot_bids: dict[int, int] | None,
) -> Line:
    deal = record["deals"][hand]
    bid = next(made["bid"] for made in deal["bids"] if made["seat"] == seat)
    names = {player["seat"]: player["alias"] for player in record["players"]}
    return Line(
        table=table.number,
        code=record["code"],
        name=names.get(seat, ""),
        bid=bid,
        made=deal["tricks_taken"][seat],
        points=deal["points"][seat],
        bot_bid=None if bot_bids is None else bot_bids.get(seat, bid),
    )


def _bot_bids(game_id: uuid.UUID, hand: int) -> dict[int, int] | None:
    """The strong bot's bid of each seat whose bid was a choice (a seat with one bid
    allowed made the bot's); None while the analysis is computed, which is asked for."""
    analysis = GameAnalysis.objects.filter(game_id=game_id).first()
    if analysis is None:
        if Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists():
            request_analysis(game_id)
        return None
    reviewed = analysis.review["hands"][hand]
    return {bid["seat"]: bid["best"] for bid in reviewed["bids"]}
