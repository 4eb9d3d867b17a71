"""Benchmark of the bots (``games.bots``): run ``python -m bench.bots``.

What it measures, on one core when the OS allows pinning, after a warm-up, as
medians over ``--repeat`` runs made in the same process:

1. The positions of ``--games`` seeded 4-player "championship" games, played by
   two heuristic and two random bots, are recorded once (every bid, card and
   one-card mode choice, with the cards played so far in the hand).
2. Each run times, over every recorded position, ``choose_command`` of the
   heuristic bot, of the random bot, and a bare baseline:
   ``random.choice(legal_plays(state))`` (``legal_bids`` while bidding), the
   least any bot must do. It prints decisions per second, the median time per
   decision, and the ratio of each bot to the baseline.
   Target: the heuristic bot's slowest 1% of decisions under 1 ms each.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.timing import on_one_core, time_each, verdict
from games.bots import choose_command
from games.rules import (
    PRESETS,
    Card,
    CardPlayed,
    Command,
    DealHand,
    GameState,
    HandDealt,
    Phase,
    StartGame,
    Visibility,
    decide,
    evolve,
    legal_bids,
    legal_plays,
)
from games.rules.shuffle import derive_secret

PRESET = "championship"
LINEUP = ("heuristic", "random", "heuristic", "random")
TARGET_MS = 1.0


@dataclass(frozen=True)
class Position:
    state: GameState
    seat: int
    played: tuple[Card, ...]


def record_positions(seed: bytes) -> list[Position]:
    """Every position of one game in which a bot decides."""
    rng = random.Random(seed)
    state = GameState()
    played: list[Card] = []
    positions: list[Position] = []
    command: Command = StartGame(len(LINEUP), PRESETS[PRESET], seed)
    while True:
        events = decide(state, command)
        state = evolve(state, events)
        for event in events:
            if isinstance(event, HandDealt):
                played.clear()
            elif isinstance(event, CardPlayed):
                played.append(event.card)
        if state.phase is Phase.FINISHED:
            return positions
        if state.phase is Phase.DEALING:
            command = DealHand(derive_secret(seed, f"hand-{state.hand}"))
            continue
        seat = state.dealer if state.phase is Phase.CHOOSING_MODE else state.turn
        positions.append(Position(state, seat, tuple(played)))
        command = choose_command(state, seat, rng, bot=LINEUP[seat], played=played)


def bare(position: Position, rng: random.Random) -> object:
    state = position.state
    if state.phase is Phase.PLAYING:
        return rng.choice(legal_plays(state))
    if state.phase is Phase.BIDDING:
        return rng.choice(legal_bids(state))
    return rng.choice(list(Visibility))


def bot(name: str) -> Callable[[Position, random.Random], object]:
    def run(position: Position, rng: random.Random) -> object:
        return choose_command(position.state, position.seat, rng, bot=name, played=position.played)

    return run


def timed(
    decide_one: Callable[[Position, random.Random], object], positions: Sequence[Position]
) -> list[float]:
    """Seconds per decision; every runner draws from the same seeded generator."""
    rng = random.Random(0)
    return time_each(lambda position: decide_one(position, rng), positions)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Benchmark of the bots.")
    parser.add_argument("--games", type=int, default=50, help="seeded games (default 50)")
    parser.add_argument("--repeat", type=int, default=7, help="runs (default 7)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    with on_one_core() as cpu:
        where = f"on one core (CPU {cpu})" if cpu is not None else "not pinned to a core"
        print(f"Bots benchmark: Python {python}, {where}, gc enabled")
        measure(args.games, args.repeat)
    return 0


def measure(game_count: int, repeat: int) -> None:
    positions = [p for n in range(game_count) for p in record_positions(b"bench-bots-%d" % n)]
    runners = {"heuristic": bot("heuristic"), "random": bot("random"), "bare": bare}
    for runner in runners.values():  # warm-up
        timed(runner, positions[:500])
    runs: dict[str, list[float]] = {name: [] for name in runners}
    each: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(repeat):
        gc.collect()
        for name, runner in runners.items():
            timings = timed(runner, positions)
            runs[name].append(sum(timings))
            each[name].extend(timings)

    print(
        f"{len(positions):,} positions from {game_count} seeded 4-player {PRESET!r} games "
        f"({', '.join(LINEUP)}) x {repeat} runs"
    )
    labels = {
        "heuristic": "heuristic bot, choose_command",
        "random": "random bot, choose_command",
        "bare": "bare baseline, random.choice(legal_plays(state))",
    }
    for name, label in labels.items():
        rate = statistics.median(len(positions) / total for total in runs[name])
        median_us = statistics.median(each[name]) * 1e6
        line = f"  {label}: {rate:,.0f} decisions/s, median {median_us:.1f} us per decision"
        if name != "bare":
            ratios = [t / b for t, b in zip(runs[name], runs["bare"], strict=True)]
            line += f", {statistics.median(ratios):.1f}x the baseline"
        print(line)
    slowest = sorted(each["heuristic"])[int(0.99 * (len(each["heuristic"]) - 1))] * 1000
    print(
        f"    target: heuristic p99 under {TARGET_MS:g} ms per decision -> "
        f"{verdict(slowest < TARGET_MS)} ({slowest:.3f} ms)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
