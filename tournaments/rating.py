"""Season ratings and season points: a multiplayer Elo, and points for placings.

Pure functions, no Django.

**Rating.** A table of ``n`` is rated as the ``n * (n - 1) / 2`` games between
each pair of its players, won by whoever finished with the higher score (equal
scores are a draw). Each pairwise game is scored with the usual Elo formula on
the 400-point scale, and K is divided by ``n - 1``, the number of games each
player took part in, so a whole table moves a player at most as far as one
two-player game would (``K``). What one player gains another loses, so the
changes at a table sum to zero. Everybody starts at :data:`INITIAL_RATING`.

**Season points.** See :func:`season_points`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

INITIAL_RATING = 1500.0
DEFAULT_K = 32.0
SEASON_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
"""Points for the top ten places of an event, first to tenth."""


def expected_score(rating: float, opponent: float) -> float:
    """The Elo expectation of a player rated ``rating`` against ``opponent``:
    1 for a sure win, 0.5 between equals."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def rate_table(
    ratings: Mapping[int, float],
    players: Sequence[int],
    scores: Sequence[int],
    k: float = DEFAULT_K,
) -> dict[int, float]:
    """The new ratings of the players of one table, after its final ``scores``
    (by seat, like ``players``).

    A player missing from ``ratings`` starts at :data:`INITIAL_RATING`. A
    player alone at a table has nobody to be compared with and keeps their
    rating. Ratings are not rounded, so that the table stays exactly zero-sum
    up to floating point.
    """
    if len(players) != len(scores):
        raise ValueError("players and scores must have one entry per seat")
    if len(set(players)) != len(players):
        raise ValueError("a player can sit at a table only once")
    before = [ratings.get(player, INITIAL_RATING) for player in players]
    n = len(players)
    if n < 2:
        return dict(zip(players, before, strict=True))
    step = k / (n - 1)
    changes = [0.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            actual = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
            # One number for the pair, added to one and taken from the other,
            # so the pair's changes cancel exactly.
            change = step * (actual - expected_score(before[i], before[j]))
            changes[i] += change
            changes[j] -= change
    return {
        player: rating + change
        for player, rating, change in zip(players, before, changes, strict=True)
    }


@dataclass(frozen=True)
class RatedTable:
    """One table to rate: players and final scores by seat, and labels that say
    where it was played (opaque to this module, kept in the history)."""

    players: tuple[int, ...]
    scores: tuple[int, ...]
    event: str = ""
    round: str = ""
    table: str = ""


@dataclass(frozen=True)
class RatingChange:
    """One player's rating before and after one table."""

    player: int
    before: float
    after: float
    event: str = ""
    round: str = ""
    table: str = ""

    @property
    def change(self) -> float:
        return self.after - self.before


def rate_tables(
    tables: Iterable[RatedTable],
    ratings: Mapping[int, float] | None = None,
    k: float = DEFAULT_K,
) -> list[RatingChange]:
    """Rate ``tables`` in order, starting from ``ratings`` (everybody else at
    :data:`INITIAL_RATING`); the history, one :class:`RatingChange` per player
    per table, in the order played and by seat within a table.

    :func:`current_ratings` turns the history into the ratings after it.
    """
    current = dict(ratings or {})
    history: list[RatingChange] = []
    for table in tables:
        after = rate_table(current, table.players, table.scores, k)
        for player in table.players:
            history.append(
                RatingChange(
                    player=player,
                    before=current.get(player, INITIAL_RATING),
                    after=after[player],
                    event=table.event,
                    round=table.round,
                    table=table.table,
                )
            )
        current.update(after)
    return history


def current_ratings(
    history: Iterable[RatingChange], ratings: Mapping[int, float] | None = None
) -> dict[int, float]:
    """Each player's rating after ``history``, starting from ``ratings``."""
    current = dict(ratings or {})
    for change in history:
        current[change.player] = change.after
    return current


def season_points(rank: int, field_size: int) -> int:
    """Season-leaderboard points for finishing ``rank`` of ``field_size`` in an event.

    The Formula 1 scale, 25-18-15-12-10-8-6-4-2-1 for the top ten: familiar to
    players, it rewards winning well above merely placing, and its fixed top
    keeps one crowded event from outweighing a season of smaller ones. Only the
    top half of the field scores (rounded up: 2 of 3, 3 of 6), so a small event
    doesn't hand out points for turning up. Tied players share the rank, and
    so the points, of the best place they cover (ranks 1, 2, 2, 4).
    """
    if field_size < 1:
        raise ValueError("an event needs at least one player")
    if not 1 <= rank <= field_size:
        raise ValueError(f"rank {rank} is outside a field of {field_size}")
    scoring_places = min(len(SEASON_POINTS), (field_size + 1) // 2)
    return SEASON_POINTS[rank - 1] if rank <= scoring_places else 0
