"""Given/when helpers for rules tests: games built from events and commands."""

from __future__ import annotations

from games.rules import (
    Command,
    Event,
    GameStarted,
    GameState,
    HandDealt,
    RuleOptions,
    Visibility,
    decide,
    evolve,
    parse_card,
    parse_cards,
    replay,
)


def started(
    player_count: int,
    options: RuleOptions | None = None,
    dealer: int = 0,
    *,
    hand: int = 0,
    scores: tuple[int, ...] | None = None,
    recorded: bool = False,
) -> GameState:
    """A game waiting for hand ``hand`` (0: the first) to be dealt by ``dealer``
    (``recorded``: a table in the room, waiting for that deal to be recorded).

    Skipping to a later hand stands in for the hands before it, which the test
    does not care about; ``scores`` are the totals they left.
    """
    first_dealer = (dealer - hand) % player_count
    start = GameStarted(player_count, options or RuleOptions(), first_dealer, recorded)
    state = replay([start])
    state.hand = hand
    if scores is not None:
        state.scores = scores
    return state


def dealt(
    state: GameState,
    *hands: str,
    trump: str | None = None,
    visibility: Visibility = Visibility.OPEN,
) -> GameState:
    """``state`` after the next hand is dealt with the given cards, seat by seat."""
    event = HandDealt(
        state.hand,
        state.dealer,
        state.cards,
        visibility,
        tuple(tuple(sorted(parse_cards(hand))) for hand in hands),
        None if trump is None else parse_card(trump),
    )
    return evolve(state, [event])


def run(state: GameState, *commands: Command) -> tuple[GameState, list[Event]]:
    """Decide and apply each command in turn; the final state and all events."""
    events: list[Event] = []
    for command in commands:
        new = decide(state, command)
        events.extend(new)
        state = evolve(state, new)
    return state, events
