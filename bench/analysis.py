"""Benchmark of a game's review by the strong bot (``games.bots.analysis``): run
``python -m bench.analysis``.

What it measures, in CPU time (``time.process_time``: one core's work, however busy
the machine), as medians over ``--repeat`` runs made in the same process:

1. One seeded 4-player "championship" game (32 deals) is played once, by ``--bot``
   at every seat (the arena's game, ``bench.arena.play``); the review covers its
   first ``--deals`` deals.
2. Each run times ``review_game`` of those deals at the ``ANALYSIS`` level, and
   the baseline: the necessary work, the strong bot at the same level (the same
   samples, no time budget) deciding once each decision the review evaluates,
   from the same views with the same generators (``choose_bid`` and
   ``choose_card``; the views built beforehand, outside the timing).
   It prints the decisions evaluated, both CPU times and their ratio.
   Target: the review within 1.5 times the baseline (a review costs deciding each
   move once, plus each seat's luck, plus the walk).
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import time
from collections.abc import Sequence

from bench.arena import Task, play
from bench.timing import verdict
from games.bots import BOTS
from games.bots.analysis import ANALYSIS, Decision, decisions, review_game
from games.bots.sampling import SamplingBot
from games.rules import Event, HandScored

PRESET = "championship"
PLAYERS = 4
SEED = "bench-analysis"
TARGET_RATIO = 1.5


def played_game(bot: str, deals: int) -> list[Event]:
    """The events of the game's first ``deals`` deals."""
    events: list[Event] = []
    play(Task(PRESET, PLAYERS, 0, 0, (bot,) * PLAYERS, SEED), events)
    scored = [index for index, event in enumerate(events) if isinstance(event, HandScored)]
    return events[: scored[min(deals, len(scored)) - 1] + 1]


def review_cpu(events: Sequence[Event]) -> float:
    start = time.process_time()
    review_game(events, seed=SEED)
    return time.process_time() - start


def baseline_cpu(chosen: Sequence[Decision]) -> float:
    bot = SamplingBot("strong", ANALYSIS)
    start = time.process_time()
    for decision in chosen:
        rng = decision.rng(SEED)
        if decision.kind == "bid":
            bot.choose_bid(decision.view, rng)
        else:
            bot.choose_card(decision.view, rng)
    return time.process_time() - start


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Benchmark of a game's review by the strong bot.")
    parser.add_argument("--bot", default="heuristic", help="the bot playing every seat")
    parser.add_argument("--deals", type=int, default=32, help="deals reviewed (default 32)")
    parser.add_argument("--repeat", type=int, default=3, help="runs (default 3)")
    args = parser.parse_args(argv)
    if args.bot not in BOTS:
        parser.error(f"unknown bot {args.bot!r}; choose from {', '.join(BOTS)}")
    if not 1 <= args.deals <= 32 or args.repeat < 1:
        parser.error("--deals must be 1 to 32 and --repeat at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"Analysis benchmark: Python {python}, CPU time, gc enabled")
    events = played_game(args.bot, args.deals)
    chosen = list(decisions(events))
    reviews: list[float] = []
    baselines: list[float] = []
    for _ in range(args.repeat):
        gc.collect()
        reviews.append(review_cpu(events))
        gc.collect()
        baselines.append(baseline_cpu(chosen))
    bids = sum(decision.kind == "bid" for decision in chosen)
    print(
        f"{args.deals} deal(s) of a seeded {PLAYERS}-player {PRESET!r} game played by "
        f"{args.bot} x {args.repeat} runs"
    )
    print(f"  decisions evaluated: {len(chosen)} ({bids} bids, {len(chosen) - bids} cards)")
    review, baseline = statistics.median(reviews), statistics.median(baselines)
    print(f"  review_game: median {review:.2f} s of CPU (fastest {min(reviews):.2f})")
    print(
        f"  baseline, the strong bot deciding each once: median {baseline:.2f} s of CPU "
        f"(fastest {min(baselines):.2f})"
    )
    ratio = statistics.median(r / b for r, b in zip(reviews, baselines, strict=True))
    print(
        f"    target: review within {TARGET_RATIO:g}x the baseline -> "
        f"{verdict(ratio <= TARGET_RATIO)} ({ratio:.2f}x, median of the runs' ratios)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
