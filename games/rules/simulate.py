"""Whole games played by random legal moves: for property tests, benchmarks
and demo tables."""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.rules.commands import (
    AnnounceZeroPlay,
    ChooseOneCardMode,
    Command,
    DealHand,
    PlaceBid,
    PlayCard,
    StartGame,
)
from games.rules.engine import decide, legal_bids, legal_plays
from games.rules.errors import RuleError
from games.rules.events import Event
from games.rules.options import RuleOptions, Visibility
from games.rules.shuffle import derive_secret
from games.rules.state import GameState, Phase, evolve


def random_command(state: GameState, rng: random.Random, seed: bytes) -> Command:
    """A legal command for whoever is to act, chosen by ``rng``."""
    phase = state.phase
    if phase is Phase.PLAYING:
        return PlayCard(state.turn, rng.choice(legal_plays(state)))
    if phase is Phase.BIDDING:
        return PlaceBid(state.turn, rng.choice(legal_bids(state)))
    if phase is Phase.DEALING:
        return DealHand(derive_secret(seed, f"hand-{state.hand}"))
    if phase is Phase.CHOOSING_MODE:
        return ChooseOneCardMode(state.dealer, rng.choice(list(Visibility)))
    raise ValueError(f"nobody acts in phase {phase.value}")


@dataclass(frozen=True)
class PlayedGame:
    events: list[Event]
    final: GameState
    # The state after each command, when asked for.
    states: list[GameState]


def play_random_game(
    options: RuleOptions,
    player_count: int,
    seed: bytes,
    *,
    zero_play_chance: float = 0.0,
    keep_states: bool = False,
) -> PlayedGame:
    """Play a game to its end by random legal commands.

    With ``zero_play_chance``, before each move a random player tries to announce
    zero play; announcements the rules refuse are simply not made.
    """
    rng = random.Random(seed)
    events: list[Event] = []
    states: list[GameState] = []
    state = GameState()
    command: Command = StartGame(player_count, options, seed)
    while True:
        new_events = decide(state, command)
        events.extend(new_events)
        state = evolve(state, new_events, in_place=not keep_states)
        if keep_states:
            states.append(state)
        if state.phase is Phase.FINISHED:
            return PlayedGame(events, state, states)
        command = random_command(state, rng, seed)
        if options.zero_play is not None and rng.random() < zero_play_chance:
            announcement = AnnounceZeroPlay(rng.randrange(player_count))
            try:
                decide(state, announcement)
            except RuleError:
                continue
            command = announcement
