"""A finished game's full record: everything needed to check it, built from its log.

The record is read from the event log alone (never from the read model): the
table, the seed and first dealer, and for every deal the cards as dealt, the
bids (Romanian Whist), the tricks, the scores, and the commitment and secret that
let anyone recompute the deal (see docs/checking.md). Romanian and classic Whist
share its shape but for what only one game has: bids, one-card modes and zero play
at Romanian Whist, sides, honours and the games of a rubber at classic Whist. Cards
are written in the compact notation (``"10H"``).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from eventlog import store
from games.errors import GameNotFound, RecordNotReady
from games.rules import (
    BidPlaced,
    Card,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    OneCardModeChosen,
    SpecialHand,
    TrickTaken,
    ZeroPlayAnnounced,
    build_schedule,
    classic,
)
from games.table import (
    CLASSIC,
    ROMANIAN,
    DealRevealed,
    DealsCommitted,
    PlayerLeft,
    PlayerSeated,
    Table,
    fold,
    stream_of,
)

# Each game's record, named by its shape: bumped when that shape changes.
RECORD_FORMATS = {ROMANIAN: "atu-game-record/1", CLASSIC: "atu-classic-record/1"}


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
    if table.status != "finished":
        raise RecordNotReady()
    n = table.player_count
    schedule = None if table.is_classic else build_schedule(table.romanian_options, n)
    players: list[dict[str, Any]] = []
    seed: str | None = None
    commitments: tuple[str, ...] = ()
    secrets: dict[int, str] = {}
    first_dealer: int | None = None
    deals: dict[int, dict[str, Any]] = {}
    chosen_by: dict[int, int] = {}
    zero_play: list[dict[str, int]] = []
    games: list[dict[str, Any]] = []
    finished: GameFinished | classic.MatchFinished | None = None

    for event in events:
        if isinstance(event, PlayerSeated):
            players.append({"seat": event.seat, "alias": event.alias})
        elif isinstance(event, PlayerLeft):
            players = [player for player in players if player["seat"] != event.seat]
        elif isinstance(event, DealsCommitted):
            seed, commitments = event.seed, event.commitments
        elif isinstance(event, DealRevealed):
            secrets[event.hand] = event.secret
        elif isinstance(event, GameStarted | classic.MatchStarted):
            first_dealer = event.first_dealer
        elif isinstance(event, OneCardModeChosen):
            chosen_by[event.hand] = event.seat
        elif isinstance(event, HandDealt):
            assert schedule is not None  # a Romanian deal is dealt at a Romanian table
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
        elif isinstance(event, classic.HandDealt):
            deals[event.hand] = {
                "hand": event.hand,
                "dealer": event.dealer,
                # The game of the rubber it is played in (0 in a game or a tournament).
                "game": len(games),
                "trump": None if event.trump is None else event.trump.letter,
                "trump_card": None if event.trump_card is None else str(event.trump_card),
                "hands": [_cards(cards) for cards in event.hands],
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
        elif isinstance(event, HandScored | classic.HandScored):
            deals[event.hand].update(_scores(event))
        elif isinstance(event, ZeroPlayAnnounced):
            zero_play.append({"seat": event.seat, "hands_dealt": event.hands_dealt})
        elif isinstance(event, classic.GameWon):
            games.append(
                {
                    "game": event.game,
                    "side": event.side,
                    "scores": list(event.scores),
                    "games_won": list(event.games),
                }
            )
        elif isinstance(event, GameFinished | classic.MatchFinished):
            finished = event

    for hand, deal in deals.items():
        # A game logged without commitments (none is known) has neither, and says so.
        deal["commitment"] = commitments[hand] if hand < len(commitments) else None
        deal["secret"] = secrets.get(hand)
    record: dict[str, Any] = {
        "format": RECORD_FORMATS[table.kind],
        "id": str(game_id),
        "code": table.code,
        "kind": table.kind,
        "preset": table.preset,
        "options": table.options.to_dict(),
        "player_count": n,
        "players": sorted(players, key=lambda player: player["seat"]),
        "seed": seed,
        "first_dealer": first_dealer,
        # Every commitment the log recorded before the first deal: a classic match to
        # points commits to as many deals as it could take, and plays fewer.
        "commitments": list(commitments),
        "created_at": records[0].recorded_at.isoformat(),
        "finished_at": records[-1].recorded_at.isoformat(),
        "version": records[-1].sequence,
        "deals": [deals[hand] for hand in sorted(deals)],
    }
    if isinstance(finished, classic.MatchFinished):
        outcome = _classic_outcome(table, finished, games)
    else:
        assert finished is not None  # a finished table has folded its GameFinished
        outcome = _romanian_outcome(finished, zero_play)
    return record | outcome


def _romanian_outcome(finished: GameFinished, zero_play: list[dict[str, int]]) -> dict[str, Any]:
    return {
        "zero_play": zero_play,
        "scores": list(finished.scores),
        "places": list(finished.places),
        "zero_play_winners": list(finished.zero_play_winners),
        "winners": _winners(finished.places),
    }


def _classic_outcome(
    table: Table, finished: classic.MatchFinished, games: list[dict[str, Any]]
) -> dict[str, Any]:
    """How a classic match ended: by side (0: seats 0 and 2, 1: seats 1 and 3), and
    each seat's points and place, those of its side."""
    game = table.game
    assert isinstance(game, classic.ClassicState)
    return {
        "games": games,
        "winner": finished.winner,
        "games_won": list(finished.games),
        "points": list(finished.points),
        "scores": list(game.seat_points),
        "places": list(game.places),
        "winners": _winners(game.places),
    }


def _winners(places: Sequence[int]) -> list[int]:
    return [seat for seat, place in enumerate(places) if place == 1]


def _scores(event: HandScored | classic.HandScored) -> dict[str, list[int]]:
    if isinstance(event, classic.HandScored):
        # By side; the honours as dealt, scored after the tricks.
        return {
            "tricks_taken": list(event.tricks),
            "trick_points": list(event.trick_points),
            "honours": list(event.honours),
            "honour_points": list(event.honour_points),
            "totals": list(event.totals),
        }
    return {
        "tricks_taken": list(event.tricks),
        "points": list(event.points),
        "streak_points": list(event.streak_points),
        "totals": list(event.totals),
    }


def _special(special: SpecialHand | None) -> str | None:
    return None if special is None else special.value
