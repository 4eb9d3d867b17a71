"""The random bot: uniform among the legal moves, and only ever legal ones."""

from __future__ import annotations

import random
from collections import Counter

from games.bots import choose_command
from games.rules import (
    ChooseOneCardMode,
    GameState,
    OneCardMode,
    PlaceBid,
    PlayCard,
    RuleOptions,
    Visibility,
    legal_plays,
    parse_card,
    preset,
)
from tests.games.rules.builders import dealt, run, started

TRIES = 600


def choices(state: GameState, seat: int) -> Counter[object]:
    """What the random bot does in ``state`` over many seeds."""
    made: Counter[object] = Counter()
    for seed in range(TRIES):
        command = choose_command(state, seat, random.Random(seed), bot="random")
        if isinstance(command, PlaceBid):
            made[command.bid] += 1
        elif isinstance(command, PlayCard):
            made[str(command.card)] += 1
        else:
            assert isinstance(command, ChooseOneCardMode)
            made[command.visibility] += 1
    return made


def balanced(counts: Counter[object]) -> bool:
    """Every choice made about as often as the others (well within chance)."""
    expected = TRIES / len(counts)
    return all(abs(count - expected) < 0.3 * expected for count in counts.values())


def three_cards(*hands: str) -> GameState:
    return dealt(started(4, preset("championship"), dealer=3, hand=8), *hands, trump="7S")


def test_the_dealer_bids_uniformly_among_the_allowed_bids_never_the_forbidden_one() -> None:
    state = three_cards("7C 8C 9C", "7D 8D 9D", "7H 8H 9H", "AS KS 10C")
    for bid in (0, 1, 0):
        state, _ = run(state, PlaceBid(state.turn, bid))

    made = choices(state, 3)

    assert sorted(made) == [0, 1, 3]  # never 2: the bids would add up to 3
    assert balanced(made)


def test_it_plays_uniformly_among_the_cards_of_the_suit_led() -> None:
    state = three_cards("10H 7C 8D", "JH 7D 9S", "9H 8C 9D", "AH 8H QC")
    for bid in (0, 1, 0, 1):
        state, _ = run(state, PlaceBid(state.turn, bid))
    for card in ("10H", "JH", "9H"):
        state, _ = run(state, PlayCard(state.turn, parse_card(card)))

    made = choices(state, 3)

    assert sorted(made) == ["8H", "AH"]
    assert balanced(made)


def test_void_in_the_suit_led_it_trumps_when_the_rules_say_it_must() -> None:
    state = three_cards("10H 7C 8D", "JH 7D 9S", "9H 8C 9D", "8S 10S QC")
    for bid in (0, 1, 0, 1):
        state, _ = run(state, PlaceBid(state.turn, bid))
    for card in ("10H", "JH", "9H"):
        state, _ = run(state, PlayCard(state.turn, parse_card(card)))

    assert sorted(choices(state, 3)) == ["10S", "8S"]


def test_the_dealer_of_a_dealer_choice_hand_picks_each_mode_alike() -> None:
    state = started(4, RuleOptions(one_card_mode=OneCardMode.DEALER_CHOICE), dealer=1)

    made = choices(state, 1)

    assert set(made) == set(Visibility)
    assert balanced(made)


def test_on_the_forehead_it_plays_the_card_it_cannot_see() -> None:
    state = dealt(
        started(3, RuleOptions(one_card_mode=OneCardMode.FOREHEAD)),
        "9C",
        "10C",
        "AS",
        trump="9S",
        visibility=Visibility.FOREHEAD,
    )
    for bid in (0, 0, 0):
        state, _ = run(state, PlaceBid(state.turn, bid))

    assert legal_plays(state) == (parse_card("10C"),)
    assert choose_command(state, 1, random.Random(1), bot="random") == PlayCard(
        1, parse_card("10C")
    )


def test_the_same_seed_makes_the_same_choice() -> None:
    state = three_cards("7C 8C 9C", "7D 8D 9D", "7H 8H 9H", "AS KS 10C")

    first = [choose_command(state, 0, random.Random(seed), bot="random") for seed in range(50)]
    again = [choose_command(state, 0, random.Random(seed), bot="random") for seed in range(50)]

    assert first == again
    assert len(set(first)) == 4  # bids 0 to 3, all reached
