"""The bot arena: bots play each other on duplicate deals. Run ``python -m bench.arena``.

A duplicate set is one game's deals (the first dealer and every hand's secret,
derived from the set's seed) played once for each distinct rotation of the
lineup through the seats, so every bot holds every seat's cards and luck
cancels. The lineup is ``--bots`` repeated around the table: ``strong,heuristic``
at four seats is strong, heuristic, strong, heuristic. Only the rules library
and the bots are used: no Django, no database.

Printed per bot: points per game (the mean of its seats' final totals) with a
95% confidence interval over the duplicate sets, the rate of exact bids, and
the CPU time per decision (bids and cards, p50/p95, in the process that played
it: one core's time, however busy the machine). Then each bot against the last
one named, per game, with its interval: the sets are the independent samples,
so the interval is honest about the rotations of one set being correlated.

    python -m bench.arena --bots strong,heuristic --presets championship \\
        --players 4 --sets 500 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool

from bench.timing import percentile
from games.bots import BOTS, choose_command
from games.rules import (
    PRESETS,
    Card,
    CardPlayed,
    Command,
    DealHand,
    Event,
    GameState,
    HandDealt,
    HandScored,
    Phase,
    StartGame,
    decide,
    evolve,
)
from games.rules.shuffle import derive_secret

# The normal quantile of a two-sided 95% interval.
Z95 = 1.96


@dataclass(frozen=True)
class Task:
    preset: str
    players: int
    set_number: int
    rotation: int
    lineup: tuple[str, ...]
    seed: str


@dataclass
class Result:
    task: Task
    # By seat: the final total, exact bids, hands played.
    totals: tuple[int, ...]
    exact: tuple[int, ...]
    hands: int
    # Seconds per decision, by bot name.
    times: dict[str, list[float]] = field(default_factory=dict)


def lineup_for(bots: Sequence[str], players: int) -> tuple[str, ...]:
    return tuple(bots[seat % len(bots)] for seat in range(players))


def rotations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The distinct rotations of ``lineup`` through the seats."""
    seen: list[tuple[str, ...]] = []
    for shift in range(len(lineup)):
        rotated = lineup[shift:] + lineup[:shift]
        if rotated not in seen:
            seen.append(rotated)
    return seen


def tasks(
    bots: Sequence[str], presets: Sequence[str], players: Sequence[int], sets: int, seed: str
) -> Iterator[Task]:
    for set_number in range(sets):
        for preset_name in presets:
            for count in players:
                for rotation, lineup in enumerate(rotations(lineup_for(bots, count))):
                    yield Task(preset_name, count, set_number, rotation, lineup, seed)


def play(task: Task, record: list[Event] | None = None) -> Result:
    """One game of the set: the deals come from the set's seed alone, the bots'
    random choices from the game's. ``record``: a list the game's events are
    appended to."""
    deal_seed = f"{task.seed}/{task.preset}/{task.players}/{task.set_number}".encode()
    rng = random.Random(f"{deal_seed!r}/{task.rotation}")
    times: dict[str, list[float]] = defaultdict(list)
    exact = [0] * task.players
    hands = 0
    state = GameState()
    played: list[Card] = []
    command: Command = StartGame(task.players, PRESETS[task.preset], deal_seed)
    # CPU time of this process: what a decision costs on one core, whatever
    # else the machine runs.
    clock = time.process_time
    while True:
        events = decide(state, command)
        if record is not None:
            record.extend(events)
        state = evolve(state, events, in_place=True)
        for event in events:
            if isinstance(event, HandDealt):
                played.clear()
            elif isinstance(event, CardPlayed):
                played.append(event.card)
            elif isinstance(event, HandScored):
                hands += 1
                for seat, (bid, tricks) in enumerate(zip(event.bids, event.tricks, strict=True)):
                    exact[seat] += bid == tricks
        if state.phase is Phase.FINISHED:
            return Result(task, state.scores, tuple(exact), hands, dict(times))
        if state.phase is Phase.DEALING:
            command = DealHand(derive_secret(deal_seed, f"hand-{state.hand}"))
            continue
        seat = state.dealer if state.phase is Phase.CHOOSING_MODE else state.turn
        bot = task.lineup[seat]
        start = clock()
        command = choose_command(state, seat, rng, bot=bot, played=tuple(played))
        if state.phase is not Phase.CHOOSING_MODE:
            times[bot].append(clock() - start)


def complete(results: Sequence[Result]) -> list[Result]:
    """The results of the sets whose every rotation has been played."""
    played: dict[tuple[str, int, int], int] = defaultdict(int)
    for result in results:
        task = result.task
        played[task.preset, task.players, task.set_number] += 1
    return [
        r
        for r in results
        if played[r.task.preset, r.task.players, r.task.set_number] == len(rotations(r.task.lineup))
    ]


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, Z95 * statistics.stdev(values) / len(values) ** 0.5


def report(results: Sequence[Result], bots: Sequence[str], elapsed: float, jobs: int) -> None:
    names = list(dict.fromkeys(bots))
    # Per set (preset, players, set number): each bot's points per game.
    per_set: dict[tuple[str, int, int], dict[str, list[float]]] = defaultdict(
        lambda: defaultdict(list)
    )
    exact: dict[str, int] = defaultdict(int)
    bids: dict[str, int] = defaultdict(int)
    times: dict[str, list[float]] = defaultdict(list)
    for result in results:
        task = result.task
        key = (task.preset, task.players, task.set_number)
        for name in names:
            seats = [s for s, bot in enumerate(task.lineup) if bot == name]
            per_set[key][name].append(statistics.fmean(result.totals[s] for s in seats))
            exact[name] += sum(result.exact[s] for s in seats)
            bids[name] += result.hands * len(seats)
        for name, spent in result.times.items():
            times[name].extend(spent)
    set_points = {
        name: [statistics.fmean(points[name]) for points in per_set.values()] for name in names
    }
    print(
        f"{len(results)} games in {len(per_set)} duplicate sets "
        f"({len(results) / max(1, len(per_set)):.1f} rotations per set), "
        f"{elapsed:.0f} s wall with {jobs} process(es)"
    )
    print(
        f"  {'bot':<10} {'points/game':>12} {'95% CI':>18} {'exact':>7} {'p50 ms':>8} {'p95 ms':>8}"
    )
    for name in names:
        mean, half = interval(set_points[name])
        rate = exact[name] / bids[name] if bids[name] else float("nan")
        p50 = percentile(times[name], 0.5) * 1000
        p95 = percentile(times[name], 0.95) * 1000
        print(
            f"  {name:<10} {mean:>12.1f} [{mean - half:>7.1f}, {mean + half:>7.1f}] "
            f"{rate:>6.1%} {p50:>8.2f} {p95:>8.2f}"
        )
    baseline = names[-1]
    for name in names[:-1]:
        gaps = [
            mine - theirs
            for mine, theirs in zip(set_points[name], set_points[baseline], strict=True)
        ]
        mean, half = interval(gaps)
        print(
            f"  {name} - {baseline}: {mean:+.1f} points per game, "
            f"95% CI [{mean - half:+.1f}, {mean + half:+.1f}] over {len(gaps)} sets"
        )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Bots against each other on duplicate deals.")
    parser.add_argument(
        "--bots",
        default="strong,heuristic",
        help="bots around the table, repeated to fill it; the last is the baseline",
    )
    parser.add_argument(
        "--presets", default=",".join(PRESETS), help="comma-separated presets (default: all)"
    )
    parser.add_argument("--players", default="4", help="comma-separated player counts (3-6)")
    parser.add_argument("--sets", type=int, default=4, help="duplicate sets per preset and count")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", default="arena", help="the seed the deals derive from")
    parser.add_argument(
        "--report-every", type=int, default=0, help="print the figures so far every N games"
    )
    args = parser.parse_args(argv)
    args.bots = args.bots.split(",")
    args.presets = args.presets.split(",")
    args.players = [int(count) for count in args.players.split(",")]
    for name in args.bots:
        if name not in BOTS:
            parser.error(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    for name in args.presets:
        if name not in PRESETS:
            parser.error(f"unknown preset {name!r}; choose from {', '.join(PRESETS)}")
    if any(not 3 <= count <= 6 for count in args.players):
        parser.error("--players must be between 3 and 6")
    if args.sets < 1 or args.jobs < 1:
        parser.error("--sets and --jobs must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = list(tasks(args.bots, args.presets, args.players, args.sets, args.seed))
    print(
        f"Arena: {', '.join(args.bots)} over {', '.join(args.presets)}, "
        f"{', '.join(map(str, args.players))} players, {args.sets} duplicate set(s) each"
    )
    start = time.perf_counter()
    results: list[Result] = []
    with Pool(args.jobs) as pool:
        for result in pool.imap_unordered(play, work, chunksize=1):
            results.append(result)
            if args.report_every and len(results) % args.report_every == 0:
                print(f"\nSo far (complete sets only, {len(results)} of {len(work)} games):")
                report(complete(results), args.bots, time.perf_counter() - start, args.jobs)
    elapsed = time.perf_counter() - start
    for preset_name in args.presets:
        for count in args.players:
            print(f"\n{preset_name}, {count} players:")
            report(
                [r for r in results if r.task.preset == preset_name and r.task.players == count],
                args.bots,
                elapsed,
                args.jobs,
            )
    if len(args.presets) * len(args.players) > 1:
        print("\nAll together:")
        report(results, args.bots, elapsed, args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
