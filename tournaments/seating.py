"""Seating for championship rounds: who sits at which table.

Pure functions over player ids (ints): no Django, no database, no clock. The
caller passes whoever is to be seated this round (checked-in players, late
entries, bots — all just ids; withdrawn players are simply not passed), the
table sizes from :func:`table_sizes`, and for later rounds the standings and
the count of earlier meetings of every pair (see :func:`record_meetings`).

Round 1 is seated at random, or by rating (the strongest together); later
rounds Swiss-style with :func:`swiss_round`: players of similar standing
together, avoiding tablemates who already met.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from coded import CodedError, gettext_noop

MIN_TABLE = 3
MAX_TABLE = 6
DEFAULT_TABLE = 4

# Swiss rounds with at most this many ways to split the players into tables are
# solved exactly (12 players at tables of 4: 5,775 ways); larger ones by local search.
_EXACT_LIMIT = 6000

# Tabu search (see _Search._tabu): how far a swap may reach, in tables; how many
# fruitless steps it tries (plus 4 a table); how many swaps it may evaluate.
_TABU_WINDOW = 5
_TABU_PATIENCE = 100
_TABU_EVALUATIONS = 100_000


class SeatingError(CodedError):
    """A seating request that breaks a seating rule."""

    code = "seating_error"
    text = gettext_noop("The players cannot be seated that way.")


class TooFewPlayers(SeatingError):
    code = "too_few_players"
    text = gettext_noop("There are too few players to seat.")

    def __init__(self, count: int) -> None:
        super().__init__(f"a round needs at least {MIN_TABLE} players to fill a table, not {count}")
        self.count = count


class InvalidTableSize(SeatingError):
    code = "invalid_table_size"
    text = gettext_noop("Tables seat 3 to 6 players.")

    def __init__(self, size: int) -> None:
        super().__init__(f"a table seats {MIN_TABLE} to {MAX_TABLE} players, not {size}")
        self.size = size


class SizesMismatch(SeatingError):
    code = "sizes_mismatch"
    text = gettext_noop("The tables' sizes do not add up to the players present.")

    def __init__(self, seats: int, players: int) -> None:
        super().__init__(
            f"every player sits at exactly one table: the tables seat {seats}, "
            f"but {players} players are to be seated"
        )
        self.seats = seats
        self.players = players


class DuplicatePlayer(SeatingError):
    code = "duplicate_player"
    text = gettext_noop("A player cannot sit at two seats.")

    def __init__(self, player: int) -> None:
        super().__init__(f"every player sits at exactly one table: player {player} is listed twice")
        self.player = player


# --- Table sizes ----------------------------------------------------------------------------


def table_sizes(players: int, preferred: int = DEFAULT_TABLE) -> list[int]:
    """The sizes of the tables that seat ``players``, largest first.

    Every table seats 3 to 6 players (never 1 or 2), and the sizes are chosen by,
    in order:

    1. as many tables of the ``preferred`` size as possible;
    2. then the other tables as close to the preferred size as possible (the
       largest difference from it is as small as possible);
    3. then as few tables not of the preferred size as possible;
    4. then (never needed for 3..6, kept for determinism) the smallest total
       difference, then larger tables first.

    With tables of 4: 5 → [5], 6 → [3, 3], 7 → [4, 3], 9 → [5, 4],
    10 → [4, 3, 3], 11 → [4, 4, 3]; one table of 5 when the count is one more
    than a multiple of 4, otherwise only 4s and 3s.

    Raises :class:`TooFewPlayers` below 3 players and :class:`InvalidTableSize`
    for a preferred size outside 3..6.
    """
    if not MIN_TABLE <= preferred <= MAX_TABLE:
        raise InvalidTableSize(preferred)
    if players < MIN_TABLE:
        raise TooFewPlayers(players)
    others = [size for size in range(MAX_TABLE, MIN_TABLE - 1, -1) if size != preferred]
    for count in range(players // preferred, -1, -1):
        rest = _best_rest(players - count * preferred, others, preferred)
        if rest is not None:
            return sorted([preferred] * count + rest, reverse=True)
    raise AssertionError(f"unreachable: {players} players fit at tables of 3 to 6")


def _best_rest(total: int, others: list[int], preferred: int) -> list[int] | None:
    """The best way to seat ``total`` players at tables of the ``others`` sizes."""
    best: list[int] | None = None
    best_key: tuple[int, int, int, list[int]] | None = None
    for split in _splits(total, others):
        deviations = [abs(size - preferred) for size in split]
        key = (max(deviations, default=0), len(split), sum(deviations), [-s for s in split])
        if best_key is None or key < best_key:
            best, best_key = split, key
    return best


def _splits(total: int, sizes: list[int]) -> Iterable[list[int]]:
    """Every multiset of ``sizes`` (descending) that sums to ``total``, largest sizes first."""
    if total == 0:
        yield []
        return
    for index, size in enumerate(sizes):
        if size <= total:
            for rest in _splits(total - size, sizes[index:]):
                yield [size, *rest]


# --- Meetings -------------------------------------------------------------------------------


def pairs(tables: Iterable[Sequence[int]]) -> list[frozenset[int]]:
    """Every pair of tablemates, table by table."""
    return [frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)]


def record_meetings(met: Counter[frozenset[int]], tables: Iterable[Sequence[int]]) -> None:
    """Add a round's tablemate pairs to ``met`` (each pair counts once per round)."""
    met.update(pairs(tables))


# --- Rounds ---------------------------------------------------------------------------------


def first_round(
    players: Sequence[int],
    *,
    sizes: Sequence[int],
    rng: random.Random,
    ratings: Mapping[int, float] | None = None,
) -> list[list[int]]:
    """Seat round 1: tables of the given ``sizes``, in order.

    Without ``ratings``, at random: the players are shuffled (the same seating
    for a given ``rng`` state, whatever the order of ``players``) and cut into
    the tables. With ``ratings`` (``rng`` is then unused), the players by rating,
    highest first, ties by id, are cut into the tables in order: the strongest
    sit together at the first table. Players missing from ``ratings`` (unrated)
    come after every rated player, by id.
    """
    order = _checked(players, sizes)
    if ratings is None:
        rng.shuffle(order)
    else:
        rated = ratings
        order.sort(key=lambda p: (0, -rated[p], p) if p in rated else (1, 0.0, p))
    return _cut(order, sizes)


def swiss_round(
    players: Sequence[int],
    *,
    sizes: Sequence[int],
    standing: Mapping[int, float],
    met: Mapping[frozenset[int], int],
    rng: random.Random,
) -> list[list[int]]:
    """Seat a later round Swiss-style: tables of the given ``sizes``, in order.

    The players by standing (higher first, ties by id; a player missing from
    ``standing`` — a late entry — counts 0) are cut into the tables, top table
    first: each table's *level* is the mean standing of the players this cut
    seats there. The seating is then improved by swapping players between
    tables, nearest tables (similar standing) first, to minimise first the
    repeated tablemates — every pair that already met, weighted by how often
    (``met``) — then the spread of standing: the sum over players of the squared
    difference between their standing and their table's level. The plain cut
    has the least spread, so without earlier meetings it is the seating, top
    players at the top table. Small rounds (up to 12 players at tables of 4)
    are solved exactly, larger ones by local search (greedy swaps, then a tabu
    search while repeats remain, then swaps between nearby tables that lower
    the spread).

    Tables of the same size are listed by mean standing, highest first; at each
    table, players by standing. The same ``rng`` state gives the same seating,
    whatever the order of ``players``.
    """
    order = _checked(players, sizes)
    order.sort(key=lambda p: (-standing.get(p, 0.0), p))
    score = {p: float(standing.get(p, 0.0)) for p in order}
    meetings = _meetings_of(order, met)
    cut = _cut(order, sizes)
    levels = [sum(score[p] for p in table) / len(table) for table in cut]
    if _partition_count(sizes) <= _EXACT_LIMIT:
        tables = _exact(order, sizes, score, levels, meetings)
    else:
        search = _Search(cut, score, levels, meetings, rng)
        search.run()
        tables = search.tables
    return _arrange(tables, sizes, score)


def _checked(players: Sequence[int], sizes: Sequence[int]) -> list[int]:
    if len(players) < MIN_TABLE:
        raise TooFewPlayers(len(players))
    seen: set[int] = set()
    for player in players:
        if player in seen:
            raise DuplicatePlayer(player)
        seen.add(player)
    for size in sizes:
        if not MIN_TABLE <= size <= MAX_TABLE:
            raise InvalidTableSize(size)
    if sum(sizes) != len(players):
        raise SizesMismatch(sum(sizes), len(players))
    return sorted(players)


def _cut(order: list[int], sizes: Sequence[int]) -> list[list[int]]:
    tables = []
    start = 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def _meetings_of(
    players: list[int], met: Mapping[frozenset[int], int]
) -> dict[int, dict[int, int]]:
    """Each player's earlier meetings with the others seated this round."""
    meetings: dict[int, dict[int, int]] = {p: {} for p in players}
    for pair, count in met.items():
        if count <= 0 or len(pair) != 2:
            continue
        first, second = pair
        if first in meetings and second in meetings:
            meetings[first][second] = count
            meetings[second][first] = count
    return meetings


def _spread(
    tables: Sequence[Sequence[int]], score: Mapping[int, float], levels: Sequence[float]
) -> float:
    return sum(
        (score[p] - level) ** 2 for table, level in zip(tables, levels, strict=True) for p in table
    )


def _arrange(
    tables: list[list[int]], sizes: Sequence[int], score: Mapping[int, float]
) -> list[list[int]]:
    """Tables in the order of ``sizes``; tables of one size by mean standing."""

    def player_key(p: int) -> tuple[float, int]:
        return (-score[p], p)

    groups: dict[int, list[list[int]]] = {}
    for table in tables:
        groups.setdefault(len(table), []).append(sorted(table, key=player_key))
    for same_size in groups.values():
        same_size.sort(key=lambda t: (-sum(score[p] for p in t) / len(t), player_key(t[0])))
    taken = Counter[int]()
    arranged = []
    for size in sizes:
        arranged.append(groups[size][taken[size]])
        taken[size] += 1
    return arranged


def _partition_count(sizes: Sequence[int]) -> int:
    """How many ways to split the players into tables of these sizes (tables unordered)."""
    count = math.factorial(sum(sizes))
    for size in sizes:
        count //= math.factorial(size)
    for same in Counter(sizes).values():
        count //= math.factorial(same)
    return count


def _exact(
    order: list[int],
    sizes: Sequence[int],
    score: Mapping[int, float],
    levels: Sequence[float],
    meetings: Mapping[int, Mapping[int, int]],
) -> list[list[int]]:
    """The best seating by (weighted repeats, spread), by exhaustive search.

    Each split into tables is visited once: the first unseated player (in
    standing order) opens the next table. A split's tables of one size go to
    that size's places by mean standing (which gives them the least spread).
    A table's spread is at least its spread at the best place of its size,
    which bounds the search. Among equally good seatings the first found is
    kept, which favours the plain cut.
    """
    left = Counter(sizes)
    size_order = list(dict.fromkeys(sizes))
    places = {
        size: [lvl for s, lvl in zip(sizes, levels, strict=True) if s == size] for size in left
    }
    eps = _tolerance(score)
    best_cost = (math.inf, math.inf)
    best: list[list[int]] = []
    chosen: list[list[int]] = []

    def repeats_of(group: list[int]) -> int:
        return sum(meetings[p].get(q, 0) for p, q in itertools.combinations(group, 2))

    def least_spread(group: list[int]) -> float:
        return min(sum((score[p] - level) ** 2 for p in group) for level in places[len(group)])

    def visit(remaining: list[int], repeats: int, bound: float) -> None:
        nonlocal best_cost, best
        if not remaining:
            tables = _arrange(chosen, sizes, score)
            spread = _spread(tables, score, levels)
            if repeats < best_cost[0] or (repeats == best_cost[0] and spread < best_cost[1] - eps):
                best_cost, best = (repeats, spread), tables
            return
        first, rest = remaining[0], remaining[1:]
        for size in size_order:
            if left[size] == 0:
                continue
            for others in itertools.combinations(rest, size - 1):
                group = [first, *others]
                total = repeats + repeats_of(group)
                if total > best_cost[0]:
                    continue
                total_bound = bound + least_spread(group)
                if total == best_cost[0] and total_bound >= best_cost[1] - eps:
                    continue
                taken = set(others)
                left[size] -= 1
                chosen.append(group)
                visit([p for p in rest if p not in taken], total, total_bound)
                chosen.pop()
                left[size] += 1

    visit(order, 0, 0.0)
    return best


def _tolerance(score: Mapping[int, float]) -> float:
    """Spread differences below this are rounding noise."""
    return 1e-9 * (1.0 + sum(value * value for value in score.values()))


class _Search:
    """Local search over swaps of two players between tables (sizes never change).

    ``pull[p][t]`` is how often ``p`` met the players now at table ``t`` (kept
    for the players with earlier meetings only), so that the change of repeats
    of a swap costs a few look-ups.
    """

    def __init__(
        self,
        tables: list[list[int]],
        score: Mapping[int, float],
        levels: Sequence[float],
        meetings: Mapping[int, Mapping[int, int]],
        rng: random.Random,
    ) -> None:
        self.score = score
        self.levels = levels
        self.meetings = meetings
        self.rng = rng
        self.eps = _tolerance(score)
        self.evaluations = 0
        self._load(tables)

    def _load(self, tables: list[list[int]]) -> None:
        self.tables = tables
        self.where = {p: index for index, table in enumerate(tables) for p in table}
        self.pull: dict[int, dict[int, int]] = {p: {} for p in self.where}
        for p, met in self.meetings.items():
            pull = self.pull[p]
            for q, count in met.items():
                table = self.where[q]
                pull[table] = pull.get(table, 0) + count
        self.conflict = {p: self.pull[p].get(self.where[p], 0) for p in self.where}
        self.conflicted = {p for p, count in self.conflict.items() if count}
        self.repeats = sum(self.conflict.values()) // 2
        self.spread = _spread(tables, self.score, levels=self.levels)

    def run(self) -> None:
        self._resolve()
        if self.repeats > 0:
            self._tabu()
        self._polish()

    # Moves

    def _delta(self, p: int, q: int) -> tuple[int, float]:
        """The change of (weighted repeats, spread) if ``p`` and ``q`` swap tables."""
        self.evaluations += 1
        a, b = self.where[p], self.where[q]
        pull_p, pull_q = self.pull[p], self.pull[q]
        repeats = (
            pull_p.get(b, 0)
            + pull_q.get(a, 0)
            - self.conflict[p]
            - self.conflict[q]
            - 2 * self.meetings[p].get(q, 0)
        )
        spread = 2 * (self.score[p] - self.score[q]) * (self.levels[a] - self.levels[b])
        return repeats, spread

    def _swap(self, p: int, q: int, delta: tuple[int, float]) -> None:
        a, b = self.where[p], self.where[q]
        table_a, table_b = self.tables[a], self.tables[b]
        table_a[table_a.index(p)] = q
        table_b[table_b.index(q)] = p
        self.where[p], self.where[q] = b, a
        self.repeats += delta[0]
        self.spread += delta[1]
        touched = {p, q}
        for mover, old, new in ((p, a, b), (q, b, a)):
            for other, count in self.meetings[mover].items():
                pull = self.pull[other]
                pull[old] -= count
                pull[new] = pull.get(new, 0) + count
                touched.add(other)
        for player in touched:
            count = self.pull[player].get(self.where[player], 0)
            self.conflict[player] = count
            if count:
                self.conflicted.add(player)
            else:
                self.conflicted.discard(player)

    def _better(self, delta: tuple[int, float]) -> bool:
        return delta[0] < 0 or (delta[0] == 0 and delta[1] < -self.eps)

    def _by_table(self) -> list[int]:
        return sorted(self.conflicted, key=lambda p: (self.where[p], p))

    # Phases

    def _best_swap(self, p: int) -> tuple[int, tuple[int, float]] | None:
        """The swap that most lowers ``p``'s repeats, from the nearest tables that can."""
        a = self.where[p]
        best: tuple[int, tuple[int, float]] | None = None
        for distance in range(1, len(self.tables)):
            for b in (a - distance, a + distance):
                if not 0 <= b < len(self.tables):
                    continue
                for q in self.tables[b]:
                    delta = self._delta(p, q)
                    if delta[0] < 0 and (best is None or delta < best[1]):
                        best = (q, delta)
            if best is not None:
                return best
        return None

    def _resolve(self) -> None:
        """Greedy descent on repeats: swap conflicted players away while it helps."""
        improved = True
        while improved and self.conflicted:
            improved = False
            for p in self._by_table():
                if self.conflict[p] == 0:
                    continue
                move = self._best_swap(p)
                if move is not None:
                    self._swap(p, *move)
                    improved = True

    def _tabu(self) -> None:
        """Escape local minima of repeats by tabu search.

        Each step makes the best swap of a conflicted player with a player at a
        table at most ``_TABU_WINDOW`` tables away, even a worsening one (ties at
        random); players just moved may not move again for a few steps, unless
        the swap beats the best seating seen, which is kept. Stops at no repeats,
        after ``patience`` steps with nothing better, or when the budget of
        evaluated swaps is spent.
        """
        tables = len(self.tables)
        players = len(self.where)
        best_cost = (self.repeats, self.spread)
        best_tables = [list(table) for table in self.tables]
        frozen_until: dict[int, int] = {}
        patience = _TABU_PATIENCE + 4 * tables
        budget = self.evaluations + _TABU_EVALUATIONS
        step = since_best = 0
        while self.repeats > 0 and since_best < patience and self.evaluations < budget:
            step += 1
            since_best += 1
            moves: list[tuple[int, int, tuple[int, float]]] = []
            move_cost = (math.inf, math.inf)
            for p in self._by_table():
                a = self.where[p]
                p_frozen = frozen_until.get(p, 0) > step
                for b in range(max(0, a - _TABU_WINDOW), min(tables, a + _TABU_WINDOW + 1)):
                    if b == a:
                        continue
                    for q in self.tables[b]:
                        delta = self._delta(p, q)
                        if delta[0] > move_cost[0] or (
                            (p_frozen or frozen_until.get(q, 0) > step)
                            and self.repeats + delta[0] >= best_cost[0]
                        ):
                            continue
                        if delta[0] < move_cost[0] or delta[1] < move_cost[1] - self.eps:
                            moves, move_cost = [(p, q, delta)], delta
                        elif delta[1] <= move_cost[1] + self.eps:
                            moves.append((p, q, delta))
            if not moves:
                break
            p, q, delta = moves[0] if len(moves) == 1 else self.rng.choice(moves)
            self._swap(p, q, delta)
            tenure = 2 + self.rng.randint(0, 2 + players // 10)
            frozen_until[p] = frozen_until[q] = step + tenure
            if self.repeats < best_cost[0] or (
                self.repeats == best_cost[0] and self.spread < best_cost[1] - self.eps
            ):
                best_cost = (self.repeats, self.spread)
                best_tables = [list(table) for table in self.tables]
                since_best = 0
        if (self.repeats, self.spread) != best_cost:
            self._load(best_tables)

    def _polish(self, window: int = 2) -> None:
        """Lower the spread with swaps between nearby tables that add no repeats."""
        tables = len(self.tables)
        improved = True
        while improved:
            improved = False
            for a in range(tables):
                for b in range(a + 1, min(tables, a + window + 1)):
                    while True:
                        best: tuple[int, int, tuple[int, float]] | None = None
                        for p in self.tables[a]:
                            for q in self.tables[b]:
                                delta = self._delta(p, q)
                                if self._better(delta) and (best is None or delta < best[2]):
                                    best = (p, q, delta)
                        if best is None:
                            break
                        self._swap(*best)
                        improved = True


# --- Whist drives --------------------------------------------------------------------------

PARTNERSHIP_TABLE = 4


def progressive_movement(
    tables: Sequence[Sequence[int]], winners: Sequence[int]
) -> list[list[int]]:
    """The next round of a progressive whist drive, from the last one's ``tables``
    (four players each, by seat: partners in seats 0 and 2, and in 1 and 3; table 1
    first) and each table's winning side (0: seats 0 and 2; 1: seats 1 and 3).

    The winning pair moves up a table; the top table's winners stay there and its
    losers go down to the last table; every other losing pair stays. Partners then
    change: at each table a player who stayed partners a player who arrived, so
    nobody keeps their partner of the last round. The stayers take seats 0 and 1,
    the arrivals seats 2 and 3.
    """
    if len(winners) != len(tables):
        raise SeatingError("every table needs its winning side")
    pairs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for players, side in zip(tables, winners, strict=True):
        if len(players) != PARTNERSHIP_TABLE:
            raise SeatingError(f"a whist drive's table seats 4 players, not {len(players)}")
        if side not in (0, 1):
            raise SeatingError(f"a side is 0 or 1, not {side!r}")
        won = (players[side], players[side + 2])
        lost = (players[1 - side], players[3 - side])
        pairs.append((won, lost))
    last = len(tables) - 1
    moved = []
    for number, (won, lost) in enumerate(pairs):
        if number == 0:
            stay, arrive = won, pairs[1][0] if last else lost
        else:
            stay = lost
            arrive = pairs[number + 1][0] if number < last else pairs[0][1]
        moved.append([stay[0], stay[1], arrive[0], arrive[1]])
    return moved
