"""Benchmark of the rules engine (``games.rules``): run ``python -m bench.rules``.

What it measures, on one core when the OS allows pinning, with the garbage
collector left enabled (real conditions), after a warm-up, as medians over
``--repeat`` runs made in the same process so that they share the machine's load:

1. Whole random games of 4 players under the "championship" preset (32 deals).
   The commands of ``--games`` seeded random games are recorded once; each run
   then decides and applies every game's commands from a fresh ``GameState``
   through the owner path ``evolve(state, events, in_place=True)``.
   Target: a median under 5 ms per game. The copying path
   ``evolve(state, events)`` and whole games played by
   ``games.rules.simulate.play_random_game`` (random move choice included) are
   reported for information.
2. Events applied per second by ``replay(events)`` of each game's whole event
   list, beside a bare Python loop over as many plain dicts
   ``{"type": <event type name>, "seq": <index>}``, which for each dict adds one
   to ``acc[type]`` and stores ``seq`` in ``acc["seq"]`` of one accumulator dict.
   Target: replay within 20 times the bare loop's time per item.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench.timing import on_one_core, time_each, verdict
from games.rules import (
    PRESETS,
    Command,
    Event,
    GameState,
    Phase,
    StartGame,
    decide,
    event_type,
    evolve,
    replay,
)
from games.rules.simulate import play_random_game, random_command

PRESET = "championship"
PLAYERS = 4
GAME_TARGET_MS = 5.0
REPLAY_TARGET_RATIO = 20.0


@dataclass(frozen=True)
class RecordedGame:
    seed: bytes
    commands: tuple[Command, ...]
    events: tuple[Event, ...]
    final: GameState


def record_game(seed: bytes) -> RecordedGame:
    """Play one random game and keep its commands (as ``play_random_game`` does)."""
    options = PRESETS[PRESET]
    rng = random.Random(seed)
    state = GameState()
    commands: list[Command] = []
    events: list[Event] = []
    command: Command = StartGame(PLAYERS, options, seed)
    while True:
        new_events = decide(state, command)
        commands.append(command)
        events.extend(new_events)
        state = evolve(state, new_events, in_place=True)
        if state.phase is Phase.FINISHED:
            return RecordedGame(seed, tuple(commands), tuple(events), state)
        command = random_command(state, rng, seed)


def decide_and_apply(commands: Sequence[Command], in_place: bool) -> GameState:
    state = GameState()
    for command in commands:
        state = evolve(state, decide(state, command), in_place=in_place)
    return state


def play_through(seed: bytes) -> GameState:
    return play_random_game(PRESETS[PRESET], PLAYERS, seed).final


def bare_items(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [{"type": event_type(event), "seq": seq} for seq, event in enumerate(events)]


def bare_fold(items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The baseline: a plain loop folding dicts into one accumulator dict."""
    acc: dict[str, Any] = {}
    for item in items:
        kind = item["type"]
        acc[kind] = acc.get(kind, 0) + 1
        acc["seq"] = item["seq"]
    return acc


@dataclass
class Samples:
    """Per-run totals (seconds) and, for whole games, every game's time."""

    runs: list[float]
    each: list[float]

    def add(self, timings: list[float]) -> None:
        self.runs.append(sum(timings))
        self.each.extend(timings)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Benchmark of the rules engine.")
    parser.add_argument(
        "--games", type=int, default=200, help="seeded random games per run (default 200)"
    )
    parser.add_argument(
        "--repeat", type=int, default=7, help="runs to take the median of (default 7)"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    with on_one_core() as cpu:
        where = f"on one core (CPU {cpu})" if cpu is not None else "not pinned to a core"
        print(f"Rules engine benchmark: Python {python}, {where}, gc enabled")
        measure(args.games, args.repeat)
    return 0


def measure(game_count: int, repeat: int) -> None:
    seeds = [b"bench-%d" % number for number in range(game_count)]
    games = [record_game(seed) for seed in seeds]
    for game in games:
        assert decide_and_apply(game.commands, in_place=True) == game.final
        assert replay(game.events) == game.final
    commands = [game.commands for game in games]
    event_lists = [game.events for game in games]
    item_lists = [bare_items(events) for events in event_lists]
    events_per_game = statistics.mean(len(events) for events in event_lists)
    commands_per_game = statistics.mean(len(c) for c in commands)

    def owner(cs: Sequence[Command]) -> GameState:
        return decide_and_apply(cs, in_place=True)

    def copying(cs: Sequence[Command]) -> GameState:
        return decide_and_apply(cs, in_place=False)

    # Warm-up: caches, the interpreter's specialisations, the allocator.
    warm = max(1, min(10, game_count))
    time_each(owner, commands[:warm])
    time_each(copying, commands[:warm])
    time_each(play_through, seeds[:warm])
    time_each(replay, event_lists[:warm])
    time_each(bare_fold, item_lists[:warm])

    owner_s, copying_s, random_s, replay_s, bare_s = (Samples([], []) for _ in range(5))
    for _ in range(repeat):
        gc.collect()
        owner_s.add(time_each(owner, commands))
        copying_s.add(time_each(copying, commands))
        random_s.add(time_each(play_through, seeds))
        replay_s.add(time_each(replay, event_lists))
        bare_s.add(time_each(bare_fold, item_lists))

    print(
        f"Whole games: {PLAYERS} players, preset {PRESET!r} ({len(games[0].final.schedule)} "
        f"deals), {game_count} seeded random games x {repeat} runs; "
        f"{commands_per_game:.0f} commands and {events_per_game:.0f} events per game on average"
    )

    def game_line(label: str, samples: Samples) -> float:
        rates = [game_count / total for total in samples.runs]
        median_ms = statistics.median(samples.each) * 1000
        print(
            f"  {label}: {statistics.median(rates):,.0f} games/s, median {median_ms:.2f} ms "
            f"per game (runs {min(rates):,.0f} to {max(rates):,.0f} games/s)"
        )
        return median_ms

    owner_ms = game_line("decide + apply, owner path evolve(in_place=True)", owner_s)
    print(
        f"    target: median under {GAME_TARGET_MS:g} ms per game -> "
        f"{verdict(owner_ms < GAME_TARGET_MS)} ({owner_ms:.2f} ms)"
    )
    game_line("decide + apply, copying path evolve(state, events) (for information)", copying_s)
    game_line("play_random_game end to end, random move choice included (information)", random_s)

    total_events = sum(len(events) for events in event_lists)
    replay_rate = statistics.median(total_events / total for total in replay_s.runs)
    bare_rate = statistics.median(total_events / total for total in bare_s.runs)
    ratios = [r / b for r, b in zip(replay_s.runs, bare_s.runs, strict=True)]
    ratio = statistics.median(ratios)
    print(
        f"Replay: replay(events) of each game's whole log, {total_events:,} events per run "
        f"x {repeat} runs"
    )
    print(f"  replay(events): {replay_rate:,.0f} events/s ({1e6 / replay_rate:.3f} us per event)")
    print(
        f"  bare loop over as many dicts: {bare_rate:,.0f} items/s "
        f"({1e6 / bare_rate:.3f} us per item)"
    )
    print("    (per dict: acc[d['type']] = acc.get(d['type'], 0) + 1; acc['seq'] = d['seq'])")
    print(
        f"  ratio replay/bare (median of per-run ratios): {ratio:.1f}x "
        f"(runs {min(ratios):.1f}x to {max(ratios):.1f}x); "
        f"target: within {REPLAY_TARGET_RATIO:g}x -> {verdict(ratio <= REPLAY_TARGET_RATIO)}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
