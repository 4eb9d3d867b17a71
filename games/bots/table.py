"""Whole games played by bots at every seat: for tests, benchmarks and demo tables."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.bots import choose_command
from games.rules import (
    Card,
    CardPlayed,
    Command,
    DealHand,
    Event,
    GameState,
    HandDealt,
    Phase,
    RuleOptions,
    StartGame,
    decide,
    evolve,
)
from games.rules.shuffle import derive_secret


@dataclass(frozen=True)
class BotGame:
    events: list[Event]
    final: GameState


def play_bot_game(
    options: RuleOptions, bots: Sequence[str], seed: bytes, *, rng: random.Random | None = None
) -> BotGame:
    """Play a game to its end with the bot ``bots[seat]`` at each seat.

    Deals are shuffled from secrets derived from ``seed``, as in
    :func:`games.rules.simulate.play_random_game`; ``rng`` (seeded from ``seed``
    by default) breaks the bots' ties.
    """
    rng = rng or random.Random(seed)
    state = GameState()
    events: list[Event] = []
    played: list[Card] = []
    command: Command = StartGame(len(bots), options, seed)
    while True:
        new_events = decide(state, command)
        events.extend(new_events)
        state = evolve(state, new_events, in_place=True)
        if state.phase is Phase.FINISHED:
            return BotGame(events, state)
        for event in new_events:
            if isinstance(event, HandDealt):
                played.clear()
            elif isinstance(event, CardPlayed):
                played.append(event.card)
        if state.phase is Phase.DEALING:
            command = DealHand(derive_secret(seed, f"hand-{state.hand}"))
            continue
        seat = state.dealer if state.phase is Phase.CHOOSING_MODE else state.turn
        command = choose_command(state, seat, rng, bot=bots[seat], played=played)
