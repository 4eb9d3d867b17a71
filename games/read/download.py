"""A finished game's full record: everything needed to check it, built from its log.

The record is read from the event log alone (never from the read model): the
table, the seed and first dealer, and for every deal the cards as dealt, the
bids, the tricks, the scores, and the commitment and secret that let anyone
recompute the deal (see "Checking a game" in the README). Cards are written in
the compact notation (``"10H"``).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from eventlog import store
from games.errors import GameNotFound, RecordNotKept, RecordNotReady
from games.rules import (
    BidPlaced,
    Card,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    OneCardModeChosen,
    Phase,
    SpecialHand,
    TrickTaken,
    ZeroPlayAnnounced,
    build_schedule,
)
from games.table import (
    DealRevealed,
    DealsCommitted,
    PlayerLeft,
    PlayerSeated,
    Table,
    fold,
    stream_of,
)

# Bumped when the record's shape changes.
RECORD_FORMAT = "atu-game-record/1"


def game_record(game_id: uuid.UUID) -> dict[str, Any]:
    """The full record of a finished game, as a JSON-ready dict.

    Raises :class:`GameNotFound` for an unknown game and :class:`RecordNotReady`
    while it is still open or in play (its deals' secrets are not all out yet).
    """
    records = store.read(stream_of(game_id))
    if not records:
        raise GameNotFound(game_id)
    return build_record(game_id, records)


def record_filename(code: str) -> str:
    return f"atu-game-{code}.json"


def dump_record(record: dict[str, Any]) -> str:
    """The record as pretty-printed JSON text, ending with a newline."""
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def build_record(game_id: uuid.UUID, records: Sequence[store.Recorded]) -> dict[str, Any]:
    """The record of the game whose whole log is ``records``."""
    events = [record.event for record in records]
    table = fold(Table(), events)
    if table.is_classic:
        raise RecordNotKept()
    if table.game.phase is not Phase.FINISHED:
        raise RecordNotReady()
    n = table.player_count
    schedule = build_schedule(table.romanian_options, n)
    players: list[dict[str, Any]] = []
    seed = ""
    commitments: tuple[str, ...] = ()
    secrets: dict[int, str] = {}
    first_dealer: int | None = None
    deals: dict[int, dict[str, Any]] = {}
    chosen_by: dict[int, int] = {}
    zero_play: list[dict[str, int]] = []
    finished: GameFinished | None = None

    for event in events:
        if isinstance(event, PlayerSeated):
            players.append({"seat": event.seat, "alias": event.alias})
        elif isinstance(event, PlayerLeft):
            players = [player for player in players if player["seat"] != event.seat]
        elif isinstance(event, DealsCommitted):
            seed, commitments = event.seed, event.commitments
        elif isinstance(event, DealRevealed):
            secrets[event.hand] = event.secret
        elif isinstance(event, GameStarted):
            first_dealer = event.first_dealer
        elif isinstance(event, OneCardModeChosen):
            chosen_by[event.hand] = event.seat
        elif isinstance(event, HandDealt):
            deals[event.hand] = {
                "hand": event.hand,
                "dealer": event.dealer,
                "cards": event.cards,
                "special": _special(schedule[event.hand].special),
                "visibility": event.visibility.value,
                "visibility_chosen_by": chosen_by.get(event.hand),
                "trump_card": None if event.trump_card is None else str(event.trump_card),
                "hands": [_cards(cards) for cards in event.hands],
                "bids": [],
                "tricks": [],
            }
        elif isinstance(event, BidPlaced):
            deals[event.hand]["bids"].append(
                {"seat": event.seat, "bid": event.bid, "forced": event.forced}
            )
        elif isinstance(event, TrickTaken):
            deals[event.hand]["tricks"].append(
                {
                    "trick": event.trick,
                    "leader": event.leader,
                    "cards": [
                        {"seat": (event.leader + offset) % n, "card": str(card)}
                        for offset, card in enumerate(event.cards)
                    ],
                    "winner": event.winner,
                }
            )
        elif isinstance(event, HandScored):
            deals[event.hand].update(_scores(event))
        elif isinstance(event, ZeroPlayAnnounced):
            zero_play.append({"seat": event.seat, "hands_dealt": event.hands_dealt})
        elif isinstance(event, GameFinished):
            finished = event

    assert finished is not None  # a finished table has folded its GameFinished
    for hand, deal in deals.items():
        deal["commitment"] = commitments[hand] if hand < len(commitments) else None
        deal["secret"] = secrets.get(hand)
    return {
        "format": RECORD_FORMAT,
        "id": str(game_id),
        "code": table.code,
        "preset": table.preset,
        "options": table.options.to_dict(),
        "player_count": n,
        "players": sorted(players, key=lambda player: player["seat"]),
        "seed": seed,
        "first_dealer": first_dealer,
        "created_at": records[0].recorded_at.isoformat(),
        "finished_at": records[-1].recorded_at.isoformat(),
        "version": records[-1].sequence,
        "deals": [deals[hand] for hand in sorted(deals)],
        "zero_play": zero_play,
        "scores": list(finished.scores),
        "places": list(finished.places),
        "zero_play_winners": list(finished.zero_play_winners),
        "winners": [seat for seat, place in enumerate(finished.places) if place == 1],
    }


def _scores(event: HandScored) -> dict[str, list[int]]:
    return {
        "tricks_taken": list(event.tricks),
        "points": list(event.points),
        "streak_points": list(event.streak_points),
        "totals": list(event.totals),
    }


def _special(special: SpecialHand | None) -> str | None:
    return None if special is None else special.value
