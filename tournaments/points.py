"""Tournament points: how a championship turns table results into points and standings.

Pure functions, no Django. A round of a championship seats its players at tables
of three to six; each table plays one game of Romanian Whist and reports its
final scores. This module turns those scores into tournament points, by one of
the :class:`PointsMethod` choices, and totals them into :func:`standings`.

- **raw**: the final game score itself.
- **placement**: points for the place at the table, scaled so that every table
  size hands out the same points per player (:func:`placement_points`).
- **relative**: the score minus the table's average (:func:`relative_points`).
- **matchpoints**: for duplicate events, where the tables of one size in a round
  play the same deals seat by seat: each result is compared with the others who
  held the same cards (:func:`matchpoints`, :func:`matchpoint_percentages`).

Points are exact (:class:`~fractions.Fraction`) from a table's result to a
player's total, and are ranked exactly: two totals that are equal share a place
before the tie-breaks, however their tables' points would have printed (83⅓ + 83⅓
and 100 + 66⅔ are both 166⅔). They are rounded once, for display
(:func:`displayed`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

PLACEMENT_TOP = 60
"""Placement points for first place at any table; last place gets 0.

60 is divisible by 2, 3, 4 and 5, so places at tables of 3 to 6 (and ties
sharing two places) come out as whole or half points.
"""

TIE_BREAKS = ("exact_bids", "head_to_head", "best_game")
"""The tie-breaks :func:`standings` knows, in their default order."""


class PointsMethod(StrEnum):
    RAW = "raw"
    PLACEMENT = "placement"
    RELATIVE = "relative"
    MATCHPOINTS = "matchpoints"


@dataclass(frozen=True)
class TableResult:
    """One table's finished game: by seat, who sat there, their final score and
    how many of their bids they made exactly.

    ``table`` is the table's number in its round, for display only.

    ``played``: by seat, who played its deals when someone other than its player did
    (a substitute's id, or None for a bot standing in), as ``(who, deals, exact bids)``
    for each who played any, its player included; empty for a seat its player played
    throughout, and for a table with no substitute at all (decision 3406).
    """

    players: tuple[int, ...]
    scores: tuple[int, ...]
    exact_bids: tuple[int, ...]
    table: int = 0
    played: tuple[tuple[tuple[int | None, int, int], ...], ...] = ()

    def __post_init__(self) -> None:
        if not self.players:
            raise ValueError("a table needs at least one player")
        if not len(self.players) == len(self.scores) == len(self.exact_bids):
            raise ValueError("players, scores and exact_bids must have one entry per seat")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player can sit at a table only once")

    @property
    def size(self) -> int:
        return len(self.players)

    def shares(self, seat: int) -> tuple[tuple[int | None, int, int], ...]:
        """Who played seat ``seat``'s deals: ``(who, deals, exact bids)``, one share
        for its player alone when nobody stood in."""
        if self.played and self.played[seat]:
            return self.played[seat]
        return ((self.players[seat], 1, self.exact_bids[seat]),)

    def whole(self, seat: int) -> int | None:
        """Who played every one of ``seat``'s deals, if one person did, else None: the
        tie-breaks compare only games a player played whole."""
        shares = self.shares(seat)
        return shares[0][0] if len(shares) == 1 else None


def displayed(value: Fraction | int) -> float:
    """Points as shown and stored for reading: rounded to 2 decimals, once."""
    return float(round(Fraction(value), 2))


def placement_points(scores: Sequence[int], size: int | None = None) -> list[Fraction]:
    """Points for each seat's place at a table, by seat.

    At a table of ``n``, place ``p`` (1 = highest score) earns
    ``PLACEMENT_TOP * (n - p) / (n - 1)``: first always gets 60, last always 0,
    and the places between are evenly spaced (3-table: 60, 30, 0; 4-table: 60,
    40, 20, 0; 5-table: 60, 45, 30, 15, 0; 6-table: 60, 48, 36, 24, 12, 0).
    Players with equal scores share the average of the places they cover: two
    tied for first at a 4-table get (60 + 40) / 2 = 50 each.

    Normalised, not "n - 1 down to 0", so that tables of different sizes are
    fair to each other: every table hands out an average of 30 per player, and
    winning or losing a table is worth the same whatever its size. (With
    n - 1 ... 0, the winner of a 6-table would get 5 and of a 3-table only 2,
    so the draw of table sizes would decide the standings.)

    ``size``, if given, must be ``len(scores)``; a table needs two players.
    """
    n = len(scores)
    if size is not None and size != n:
        raise ValueError(f"{n} scores for a table of {size}")
    if n < 2:
        raise ValueError("placement needs a table of at least two players")
    points = []
    for score in scores:
        higher = sum(1 for other in scores if other > score)
        equal = sum(1 for other in scores if other == score)
        # The average of the places higher + 1 ... higher + equal.
        place = Fraction(2 * higher + equal + 1, 2)
        points.append(PLACEMENT_TOP * (n - place) / (n - 1))
    return points


def relative_points(scores: Sequence[int]) -> list[Fraction]:
    """Each score minus the table's average, by seat; they sum to zero at every
    table (scores 1, 0, 0 give ⅔, -⅓, -⅓)."""
    if not scores:
        raise ValueError("a table needs at least one score")
    average = Fraction(sum(scores), len(scores))
    return [score - average for score in scores]


def _matchpoint_totals(
    groups: Iterable[Sequence[tuple[int, int]]],
) -> tuple[dict[int, int], dict[int, int]]:
    """Matchpoints and the top (most matchpoints possible) of each player."""
    scored: dict[int, int] = {}
    tops: dict[int, int] = {}
    for group in groups:
        players = [player for player, _ in group]
        if len(set(players)) != len(players):
            raise ValueError("a player appears twice in one group")
        for player, score in group:
            won = sum(1 for _, other in group if other < score)
            tied = sum(1 for _, other in group if other == score) - 1
            scored[player] = scored.get(player, 0) + 2 * won + tied
            tops[player] = tops.get(player, 0) + 2 * (len(group) - 1)
    return scored, tops


def matchpoints(groups: Sequence[Sequence[tuple[int, int]]]) -> dict[int, float]:
    """Matchpoints of each player: 2 for each other in their group they beat,
    1 for each they tied with (the bridge convention).

    A group is the ``(player, score)`` pairs of everyone who held the same cards:
    the same seat at the tables of the same size in one round of a duplicate
    event (see :func:`duplicate_groups`). The top of a group of ``g`` is
    ``2 * (g - 1)``. Alone in a group (a table size played at only one table),
    a player has nobody to compare with and gets 0 matchpoints of a top of 0;
    :func:`matchpoint_percentages` counts that as 50%.

    A player found in several groups (say, several rounds) gets the sum.
    """
    scored, _ = _matchpoint_totals(groups)
    return {player: float(points) for player, points in scored.items()}


def matchpoint_percentages(
    groups: Sequence[Sequence[tuple[int, int]]],
) -> dict[int, Fraction]:
    """Matchpoints as a percentage of the top:
    ``matchpoints / (2 * (group size - 1)) * 100``.

    Percentages are what compare fairly across group sizes (a top is 2 in a group
    of two, 4 in a group of three), so they are what :func:`round_points` gives
    for :attr:`PointsMethod.MATCHPOINTS`. A player alone in a group gets 50%,
    the average, neither rewarded nor punished for the lack of a comparison.
    Over several groups, the percentage is of the summed tops.
    """
    scored, tops = _matchpoint_totals(groups)
    return {
        player: Fraction(100 * scored[player], top) if top else Fraction(50)
        for player, top in tops.items()
    }


def duplicate_groups(results: Sequence[TableResult]) -> list[list[tuple[int, int]]]:
    """The matchpoint groups of one duplicate round: for each table size and
    seat, the ``(player, score)`` of everyone who sat in that seat at a table of
    that size. Groups come in order of table size, then seat."""
    by_deal: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for result in results:
        for seat, (player, score) in enumerate(zip(result.players, result.scores, strict=True)):
            by_deal[result.size, seat].append((player, score))
    return [by_deal[key] for key in sorted(by_deal)]


def table_points(result: TableResult, method: PointsMethod) -> list[Fraction]:
    """Tournament points of each seat at one table, by a per-table method.

    Matchpoints compare tables with each other, so they are not per table: use
    :func:`round_points` (or :func:`matchpoints`) for them.
    """
    if method is PointsMethod.RAW:
        return [Fraction(score) for score in result.scores]
    if method is PointsMethod.PLACEMENT:
        return placement_points(result.scores, result.size)
    if method is PointsMethod.RELATIVE:
        return relative_points(result.scores)
    raise ValueError("matchpoints compare tables with each other: use round_points")


def round_points(
    results: Sequence[TableResult], method: PointsMethod
) -> list[tuple[TableResult, list[Fraction]]]:
    """Tournament points of every seat at every table of one round, ready for
    :func:`standings`. Matchpoints come as percentages
    (:func:`matchpoint_percentages`) of the round's :func:`duplicate_groups`."""
    if method is not PointsMethod.MATCHPOINTS:
        return [(result, table_points(result, method)) for result in results]
    percentages = matchpoint_percentages(duplicate_groups(results))
    return [(result, [percentages[player] for player in result.players]) for result in results]


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings: totals over their tables, and a rank
    shared with anyone still tied after every tie-break."""

    player: int
    points: Fraction
    exact_bids: int
    best_game: int
    games: int
    rank: int


@dataclass
class _Totals:
    points: Fraction = Fraction(0)
    exact_bids: int = 0
    best_game: int | None = None
    games: int = 0


def standings(
    results: Sequence[tuple[TableResult, Sequence[Fraction | int]]],
    tie_breaks: Sequence[str] = TIE_BREAKS,
    adjustments: Mapping[int, Fraction | int] | None = None,
) -> list[Standing]:
    """Totals per player, best first.

    ``results`` pairs each table with its points by seat (from
    :func:`table_points` or :func:`round_points`). Players are ordered by their
    exact total points, then by ``tie_breaks`` in order:

    - ``"exact_bids"``: more bids made exactly, in total;
    - ``"head_to_head"``: among the players still tied, who finished ahead of
      whom at the tables they shared: each player scores +1 for every tied rival
      they outscored at a shared table and -1 for every one who outscored them
      (a mini-league). Players who never met count as even. When this splits a
      group, each part still tied is looked at again on its own, head-to-head
      among its own members only;
    - ``"best_game"``: the highest single game score.

    Players still tied after them share a rank (1, 2, 2, 4), listed by player id.

    ``adjustments`` adds points to players' totals (an organizer's corrections)
    before they are ranked.

    A seat played in part by someone else (:attr:`TableResult.played`) shares its
    points among those who played it, in proportion to the deals each played; a
    bot's share goes to nobody. Each counts their own exact bids and the table among
    their games; a seat's score counts for the best game and head-to-head only for a
    player who played it whole (decision 3406).
    """
    unknown = [name for name in tie_breaks if name not in TIE_BREAKS]
    if unknown:
        raise ValueError(f"unknown tie-breaks: {', '.join(unknown)}")
    totals: dict[int, _Totals] = defaultdict(_Totals)
    for result, points in results:
        if len(points) != result.size:
            raise ValueError(f"{len(points)} points for a table of {result.size}")
        for seat, (player, score, earned) in enumerate(
            zip(result.players, result.scores, points, strict=True)
        ):
            # A seated player has a line even when others played all their deals.
            totals.setdefault(player, _Totals())
            shares = result.shares(seat)
            deals = sum(count for _, count, _ in shares)
            for who, count, exact in shares:
                if who is None or not count:
                    continue
                line = totals[who]
                line.points += earned * Fraction(count, deals)
                line.exact_bids += exact
                line.games += 1
            whole = result.whole(seat)
            if whole is not None:
                line = totals[whole]
                line.best_game = score if line.best_game is None else max(line.best_game, score)
    for player, extra in (adjustments or {}).items():
        totals[player].points += extra
    # Each player's own tables: head-to-head looks at those only, not at every table.
    tables_of: dict[int, list[TableResult]] = defaultdict(list)
    for result, _ in results:
        for seat in range(result.size):
            whole = result.whole(seat)
            if whole is not None:
                tables_of[whole].append(result)

    def key(name: str, player: int, group: Sequence[int]) -> int:
        if name == "exact_bids":
            return totals[player].exact_bids
        if name == "best_game":
            return totals[player].best_game or 0
        return _head_to_head(tables_of[player], player, group)

    def order(group: list[int]) -> list[list[int]]:
        """Split a group tied on points into ranked classes."""
        for name in tie_breaks:
            values = {player: key(name, player, group) for player in group}
            classes = _partition(group, values.__getitem__)
            if len(classes) > 1:
                return [tied for part in classes for tied in order(part)]
        return [sorted(group)]

    by_points = _partition(list(totals), lambda player: totals[player].points)
    ranked: list[Standing] = []
    for group in by_points:
        for tied in order(group):
            rank = len(ranked) + 1
            for player in tied:
                line = totals[player]
                ranked.append(
                    Standing(
                        player=player,
                        points=line.points,
                        exact_bids=line.exact_bids,
                        best_game=line.best_game or 0,
                        games=line.games,
                        rank=rank,
                    )
                )
    return ranked


def _partition(players: list[int], key: Callable[[int], Fraction | int]) -> list[list[int]]:
    """Players grouped by equal key, highest key first."""
    classes: dict[Fraction | int, list[int]] = defaultdict(list)
    for player in players:
        classes[key(player)].append(player)
    return [classes[value] for value in sorted(classes, reverse=True)]


def _head_to_head(tables: Sequence[TableResult], player: int, group: Sequence[int]) -> int:
    """Wins minus losses of ``player`` against the rest of ``group``, one for
    each rival at each table they shared."""
    rivals = set(group) - {player}
    balance = 0
    for table in tables:
        wholes = [table.whole(seat) for seat in range(table.size)]
        if player not in wholes:
            continue  # Callers may pass every table, or only the player's own.
        mine = table.scores[wholes.index(player)]
        for other, score in zip(wholes, table.scores, strict=True):
            if other in rivals:
                balance += (mine > score) - (mine < score)
    return balance
