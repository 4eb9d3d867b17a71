"""Whole games played by bots at every seat, for the bots' tests: a Romanian Whist game
(:func:`play_bot_game`) and a classic whist match (:func:`play_classic_match`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.bots import choose_command
from games.bots.classic import CLASSIC_BOTS, choose_classic_command
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
    classic,
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


def play_classic_match(
    options: classic.ClassicOptions, bots: Sequence[str], seed: bytes
) -> tuple[list[classic.ClassicEvent], classic.ClassicState]:
    """Play a match to its end with the bot ``bots[seat]`` at each seat: its
    events and final state.

    The first dealer is drawn from ``seed``, each hand is shuffled from
    ``derive_secret(seed, f"hand-{n}")`` and the random bot draws from a
    ``random.Random(seed)``, so a seed always plays the same match.
    """
    if len(bots) != classic.PLAYERS:
        raise ValueError(f"classic whist has {classic.PLAYERS} seats, not {len(bots)} bots")
    unknown = [name for name in bots if name not in CLASSIC_BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; choose one of {', '.join(CLASSIC_BOTS)}")
    rng = random.Random(seed)
    state = classic.ClassicState()
    events: list[classic.ClassicEvent] = []
    played: list[Card] = []
    command: classic.Command = classic.StartMatch(options, seed)
    while True:
        new = classic.decide(state, command)
        events.extend(new)
        state = classic.evolve(state, new, in_place=True)
        if state.phase is classic.Phase.FINISHED:
            return events, state
        for event in new:
            if isinstance(event, classic.HandDealt):
                played.clear()
            elif isinstance(event, classic.CardPlayed):
                played.append(event.card)
        if state.phase is classic.Phase.DEALING:
            command = classic.DealHand(derive_secret(seed, f"hand-{state.hand}"))
            continue
        seat = state.turn
        command = choose_classic_command(state, seat, rng, bot=bots[seat], played=played)
