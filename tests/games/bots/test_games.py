"""Whole games played by bots at every seat, and what a bot may know.

Every command a bot makes must be accepted by the rules, in every preset, for 3
to 6 players, under any options (forehead, blind and dealer's-choice one-card
hands, special hands). And a bot's decision must not change when the cards its
seat cannot see are dealt otherwise: it never reads another seat's hidden cards
(nor its own on the forehead, nor any in a blind hand before the bidding ends).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import BOTS, SamplingBot, bot_view, choose_command
from games.rules import (
    PRESETS,
    Card,
    CardPlayed,
    Command,
    DealHand,
    GameState,
    HandDealt,
    HandScored,
    OneCardMode,
    OneCardRuns,
    Phase,
    PlaceBid,
    RuleOptions,
    Schedule,
    Scoring,
    SpecialHand,
    StartGame,
    Visibility,
    decide,
    deck,
    evolve,
    format_cards,
    parse_card,
    preset,
    replay,
    visible_holdings,
)
from games.rules.shuffle import derive_secret
from tests.games.bots.matches import play_bot_game
from tests.games.rules.builders import dealt, started

rule_options = st.builds(
    RuleOptions,
    schedule=st.sampled_from(Schedule),
    repeat_one_card_deals=st.booleans(),
    repeat_eight_card_deals=st.booleans(),
    step=st.sampled_from((1, 2)),
    special_hands=st.lists(st.sampled_from(SpecialHand), unique=True).map(tuple),
    one_card_mode=st.sampled_from(OneCardMode),
    one_card_runs=st.sampled_from(OneCardRuns),
    must_trump=st.booleans(),
    scoring=st.sampled_from(Scoring),
)
player_counts = st.integers(3, 6)
# The sampling levels play hundreds of deals per decision: their whole games and
# their knowledge are tested in test_sampling, on fewer positions.
QUICK_BOTS = sorted(name for name, bot in BOTS.items() if not isinstance(bot, SamplingBot))
bot_names = st.sampled_from(QUICK_BOTS)
seeds = st.binary(min_size=1, max_size=8)


def lineups(player_count: int) -> st.SearchStrategy[list[str]]:
    return st.lists(bot_names, min_size=player_count, max_size=player_count)


def check_bot_game(options: RuleOptions, lineup: list[str], seed: bytes) -> None:
    # play_bot_game decides every command: a RuleError would end the test.
    game = play_bot_game(options, lineup, seed)

    assert game.final.phase is Phase.FINISHED
    scored = [event for event in game.events if isinstance(event, HandScored)]
    assert len(scored) == len(game.final.schedule)
    assert replay(game.events) == game.final


@pytest.mark.parametrize("preset_name", sorted(PRESETS))
@settings(max_examples=30, deadline=None, derandomize=True)
@given(data=st.data(), player_count=player_counts, seed=seeds)
def test_bots_play_whole_games_of_every_preset_by_the_rules(
    preset_name: str, data: st.DataObject, player_count: int, seed: bytes
) -> None:
    lineup = data.draw(lineups(player_count))
    check_bot_game(PRESETS[preset_name], lineup, seed)


@settings(max_examples=120, deadline=None, derandomize=True)
@given(data=st.data(), options=rule_options, player_count=player_counts, seed=seeds)
def test_bots_play_whole_games_under_any_rule_options_by_the_rules(
    data: st.DataObject, options: RuleOptions, player_count: int, seed: bytes
) -> None:
    lineup = data.draw(lineups(player_count))
    check_bot_game(options, lineup, seed)


@pytest.mark.parametrize("player_count", [3, 4, 5, 6])
@pytest.mark.parametrize("bot", QUICK_BOTS)
def test_a_table_of_one_bot_plays_forehead_blind_and_special_hands_to_the_end(
    player_count: int, bot: str
) -> None:
    options = RuleOptions(one_card_mode=OneCardMode.DEALER_CHOICE, special_hands=tuple(SpecialHand))
    for number in range(3):
        check_bot_game(options, [bot] * player_count, b"alike-%d" % number)


# What a bot may know


def redealt(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with every card ``seat`` cannot see dealt again at random: the
    hidden holdings (others', or its own on the forehead or blind) and the cards
    not dealt change places; what has been played stays."""
    shown = visible_holdings(state, seat)
    hidden = [s for s, cards in enumerate(shown) if cards is None]
    dealt_cards = {card for cards in state.dealt for card in cards}
    undealt = set(deck(state.player_count)) - dealt_cards - {state.trump_card}
    pool = sorted(undealt | {card for s in hidden for card in state.holdings[s]})
    rng.shuffle(pool)
    holdings = list(state.holdings)
    dealt_hands = list(state.dealt)
    for s in hidden:
        new, pool = tuple(sorted(pool[: len(holdings[s])])), pool[len(holdings[s]) :]
        played = tuple(card for card in state.dealt[s] if card not in state.holdings[s])
        holdings[s], dealt_hands[s] = new, tuple(sorted(new + played))
    return replace(state, holdings=tuple(holdings), dealt=tuple(dealt_hands))


def check_knowledge(state: GameState, seat: int, played: list[Card], rng: random.Random) -> None:
    other = redealt(state, seat, rng)
    assert bot_view(other, seat, played) == bot_view(state, seat, played)
    own_hidden = state.phase is Phase.PLAYING and visible_holdings(state, seat)[seat] is None
    if own_hidden:
        return  # on the forehead the card played is the unseen one: no choice
    for name in QUICK_BOTS:
        first = choose_command(state, seat, random.Random(7), bot=name, played=played)
        again = choose_command(other, seat, random.Random(7), bot=name, played=played)
        assert first == again, f"the {name} bot read a card it may not see"


@settings(max_examples=12, deadline=None, derandomize=True)
@given(data=st.data(), player_count=player_counts, seed=seeds)
def test_cards_a_seat_cannot_see_never_change_its_bots_decision(
    data: st.DataObject, player_count: int, seed: bytes
) -> None:
    options = RuleOptions(
        one_card_mode=data.draw(st.sampled_from(OneCardMode)),
        special_hands=(SpecialHand.BLIND_BID,),
        repeat_eight_card_deals=False,
    )
    lineup = data.draw(lineups(player_count))
    rng = random.Random(seed)
    state = GameState()
    played: list[Card] = []
    command: Command = StartGame(player_count, options, seed)
    checked = 0
    while state.phase is not Phase.FINISHED:
        events = decide(state, command)
        state = evolve(state, events)
        for event in events:
            if isinstance(event, HandDealt):
                played = []
            elif isinstance(event, CardPlayed):
                played.append(event.card)
        if state.phase is Phase.FINISHED:
            break
        if state.phase is Phase.DEALING:
            command = DealHand(derive_secret(seed, f"hand-{state.hand}"))
            continue
        seat = state.dealer if state.phase is Phase.CHOOSING_MODE else state.turn
        if state.phase is not Phase.CHOOSING_MODE:
            check_knowledge(state, seat, played, rng)
            checked += 1
        command = choose_command(state, seat, rng, bot=lineup[seat], played=played)
    assert checked > 100


def test_swapping_two_other_players_hands_changes_nothing_for_the_bidder() -> None:
    hands = ("AS KS 10C", "7D 8D 9D", "AH KH QH", "7C 8C 9C")
    state = dealt(started(4, preset("championship"), dealer=3, hand=8), *hands, trump="7S")
    swapped = dealt(
        started(4, preset("championship"), dealer=3, hand=8),
        hands[0],
        hands[2],
        hands[1],
        hands[3],
        trump="7S",
    )

    assert bot_view(state, 0) == bot_view(swapped, 0)
    assert choose_command(state, 0) == choose_command(swapped, 0) == PlaceBid(0, 2)


def test_in_a_blind_hand_its_own_cards_do_not_change_its_bid() -> None:
    options = RuleOptions(special_hands=(SpecialHand.BLIND_BID,))
    strong = ("AC KC QC JC AD KD QD JD", "AH KH QH JH AS KS QS JS")
    weak = ("10C 9C 8C 7C 10D 9D 8D 7D", "10H 9H 8H 7H 10S 9S 8S 7S")

    def blind(first: tuple[str, str], second: tuple[str, str]) -> GameState:
        state = started(4, options, dealer=3, hand=24)
        return dealt(state, *first, *second, visibility=Visibility.BLIND)

    assert choose_command(blind(strong, weak), 0) == choose_command(blind(weak, strong), 0)


def test_on_the_forehead_the_view_shows_the_others_cards_and_not_its_own() -> None:
    state = dealt(
        started(3, RuleOptions(one_card_mode=OneCardMode.FOREHEAD)),
        "9C",
        "10C",
        "AS",
        trump="9S",
        visibility=Visibility.FOREHEAD,
    )

    view = bot_view(state, 1)

    assert view.own is None
    assert view.holdings == ((parse_card("9C"),), None, (parse_card("AS"),))
    assert parse_card("10C") in view.unseen
    assert view.legal_bids == (0, 1)
    assert view.legal_cards == ()


def test_in_a_blind_hand_the_view_shows_no_card_until_the_bidding_ends() -> None:
    options = RuleOptions(special_hands=(SpecialHand.BLIND_BID,))
    state = dealt(
        started(4, options, dealer=3, hand=24),
        "AC KC QC JC AD KD QD JD",
        "AH KH QH JH AS KS QS JS",
        "10C 9C 8C 7C 10D 9D 8D 7D",
        "10H 9H 8H 7H 10S 9S 8S 7S",
        visibility=Visibility.BLIND,
    )

    assert bot_view(state, 0).holdings == (None, None, None, None)
    assert len(bot_view(state, 0).unseen) == 32

    for _ in range(4):
        state = evolve(state, decide(state, choose_command(state, state.turn)))
    assert format_cards(bot_view(state, 0).own or ()) == "JC QC KC AC JD QD KD AD"
    assert format_cards(bot_view(state, 0).legal_cards) == "JC QC KC AC JD QD KD AD"
