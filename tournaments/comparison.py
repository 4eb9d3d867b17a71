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

from eventlog import store
from games.models import Game, GameAnalysis
from games.read.analysis import card_label, request_analysis
from games.read.download import game_record
from tournaments.championship import Championship, championship_stream, fold_records
from tournaments.models import Event


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


def round_games(event: Event, round_number: int) -> list[Game]:
    """The round's games in the order of its tables (none for a round not started), as
    the championship's stream seated them."""
    championship = fold_records(Championship(), store.read(championship_stream(event.id)))
    if not 1 <= round_number <= len(championship.rounds):
        return []
    ids = championship.rounds[round_number - 1].games
    games = {str(pk): game for pk, game in Game.objects.in_bulk(ids).items()}
    return [games[str(game_id)] for game_id in ids]


def round_deals(games: list[Game]) -> int:
    """How many deals each of a duplicate round's tables plays (0: none): they all play
    the event's rules for their size."""
    return max((game.hands_total for game in games), default=0)


def compare_deal(games: list[Game], hand: int) -> list[DealSet]:
    """Deal ``hand`` (from 0) of the round whose tables' games are ``games``, for each
    table size, smallest first."""
    by_size: dict[int, list[tuple[int, Game]]] = defaultdict(list)
    for number, game in enumerate(games, start=1):
        by_size[game.player_count].append((number, game))
    return [_deal_set(size, by_size[size], hand) for size in sorted(by_size)]


def _deal_set(size: int, tables: list[tuple[int, Game]], hand: int) -> DealSet:
    numbers = tuple(number for number, _ in tables)
    if not all(game.status == Game.Status.FINISHED for _, game in tables):
        return DealSet(size, numbers)
    # Each table's record and bot's bids once, read by every seat's line.
    records = [(number, game_record(game.id), _bot_bids(game.id, hand)) for number, game in tables]
    deal = records[0][1]["deals"][hand]
    seats = tuple(
        Seat(
            seat,
            tuple(card_label(card) for card in deal["hands"][seat]),
            tuple(
                _line(number, record, hand, seat, bot_bids) for number, record, bot_bids in records
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
    table: int,
    record: dict[str, Any],
    hand: int,
    seat: int,
    bot_bids: dict[int, int] | None,
) -> Line:
    deal = record["deals"][hand]
    bid = next(made["bid"] for made in deal["bids"] if made["seat"] == seat)
    names = {player["seat"]: player["alias"] for player in record["players"]}
    return Line(
        table=table,
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
        request_analysis(game_id)
        return None
    reviewed = analysis.review["hands"][hand]
    return {bid["seat"]: bid["best"] for bid in reviewed["bids"]}
