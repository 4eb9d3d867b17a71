"""The sampling bot (the medium and strong levels): it plays by the rules under
any options, decides from what its seat may know only, and makes the exact bid
a position lets it force."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import bot_view, choose_command
from games.bots.sampling import LEVELS, Level, SamplingBot
from games.rules import (
    Card,
    CardPlayed,
    Command,
    DealHand,
    GameState,
    HandDealt,
    OneCardMode,
    Phase,
    PlaceBid,
    PlayCard,
    RuleOptions,
    Schedule,
    SpecialHand,
    StartGame,
    Streak,
    ZeroPlayDeadline,
    decide,
    deck,
    evolve,
    parse_card,
    parse_cards,
    preset,
)
from games.rules.bidding import forbidden_bid
from games.rules.shuffle import derive_secret
from games.rules.simulate import random_command
from tests.games.bots.test_games import redealt, rule_options
from tests.games.rules.builders import dealt, started

# The levels without their time budget, so that a busy machine cannot change
# how many deals they sample, and a level cheap enough for thousands of positions.
UNHURRIED = {name: SamplingBot(name, replace(level, budget=None)) for name, level in LEVELS.items()}
QUICK = SamplingBot("quick", Level(samples=2, budget=None, min_samples=1))


def positions(
    options: RuleOptions, player_count: int, seed: bytes
) -> Iterator[tuple[GameState, int, tuple[Card, ...]]]:
    """Every position of a game played by random legal moves in which a player
    bids or plays, with the cards played so far in the hand, in order."""
    rng = random.Random(seed)
    state = GameState()
    played: list[Card] = []
    command: Command = StartGame(player_count, options, seed)
    while True:
        events = decide(state, command)
        state = evolve(state, events)
        for event in events:
            if isinstance(event, HandDealt):
                played.clear()
            elif isinstance(event, CardPlayed):
                played.append(event.card)
        if state.phase is Phase.FINISHED:
            return
        if state.phase in (Phase.BIDDING, Phase.PLAYING):
            yield state, state.turn, tuple(played)
        if state.phase is Phase.DEALING:
            command = DealHand(derive_secret(seed, f"hand-{state.hand}"))
        else:
            command = random_command(state, rng, seed)


def decision(bot: SamplingBot, state: GameState, seat: int, played: tuple[Card, ...]) -> Command:
    view = bot_view(state, seat, played)
    rng = random.Random(7)
    if state.phase is Phase.BIDDING:
        return PlaceBid(seat, bot.choose_bid(view, rng))
    return PlayCard(seat, bot.choose_card(view, rng))


def is_legal(state: GameState, command: Command) -> bool:
    # decide raises the RuleError the command breaks; the forbidden bid among them.
    decide(state, command)
    if isinstance(command, PlaceBid) and state.turn == state.dealer:
        made = sum(bid for bid in state.bids if bid is not None)
        return command.bid != forbidden_bid(state.cards, made)
    return True


options_with_everything = rule_options.flatmap(
    lambda options: st.builds(
        replace,
        st.just(options),
        special_hands=st.lists(st.sampled_from(SpecialHand), unique=True).map(tuple),
        streak_bonus=st.sampled_from((None, Streak(1, 3), Streak(3, 10))),
        streak_penalty=st.sampled_from((None, Streak(2, -5))),
        zero_play=st.sampled_from((None, *ZeroPlayDeadline)),
    )
)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(options=options_with_everything, player_count=st.integers(3, 6), seed=st.binary(max_size=8))
def test_it_never_plays_an_illegal_card_nor_the_forbidden_bid_under_any_rule_options(
    options: RuleOptions, player_count: int, seed: bytes
) -> None:
    checked = 0
    for state, seat, played in positions(options, player_count, seed):
        if state.phase is Phase.PLAYING and not state.holdings[seat]:
            continue
        if state.phase is Phase.PLAYING and bot_view(state, seat, played).own is None:
            continue  # on the forehead the one card is played unseen: no choice
        assert is_legal(state, decision(QUICK, state, seat, played))
        checked += 1
    assert checked > 20


@settings(max_examples=6, deadline=None, derandomize=True)
@given(
    player_count=st.integers(3, 6),
    seed=st.binary(max_size=8),
    name=st.sampled_from(["medium", "strong"]),
)
def test_the_levels_as_registered_play_legal_moves_in_every_one_card_mode(
    player_count: int, seed: bytes, name: str
) -> None:
    options = RuleOptions(
        one_card_mode=OneCardMode.DEALER_CHOICE,
        special_hands=(SpecialHand.BLIND_BID,),
        schedule=Schedule.EIGHT_ONE_EIGHT,
        repeat_eight_card_deals=False,
        must_trump=bool(player_count % 2),
    )
    rng = random.Random(seed)
    for number, (state, seat, played) in enumerate(positions(options, player_count, seed)):
        if rng.random() < 0.15 or number < 3:
            assert is_legal(state, choose_command(state, seat, rng, bot=name, played=played))


@settings(max_examples=10, deadline=None, derandomize=True)
@given(player_count=st.integers(3, 6), seed=st.binary(max_size=8))
def test_cards_a_seat_cannot_see_never_change_its_decision(player_count: int, seed: bytes) -> None:
    options = RuleOptions(
        one_card_mode=OneCardMode.DEALER_CHOICE,
        special_hands=(SpecialHand.BLIND_BID,),
        repeat_eight_card_deals=False,
    )
    rng = random.Random(seed)
    checked = 0
    for state, seat, played in positions(options, player_count, seed):
        if rng.random() > 0.08:
            continue
        view = bot_view(state, seat, played)
        if state.phase is Phase.PLAYING and (view.own is None or len(view.legal_cards) < 2):
            continue
        other = redealt(state, seat, rng)
        for bot in UNHURRIED.values():
            first = decision(bot, state, seat, played)
            again = decision(bot, other, seat, played)
            assert first == again, f"the {bot.name} level read a card it may not see"
        checked += 1
    assert checked >= 3


# Constructed endgames: three players, the last two tricks of an eight-card hand
# (no trump, every card dealt), so the unseen cards are exactly the two others'.


def endgame(own: str, others: tuple[str, str], bid: int) -> tuple[GameState, frozenset[Card]]:
    """Seat 0 to lead the seventh trick with ``own`` left, having taken two tricks
    and bid ``bid``; the cards played so far are the rest of the deck."""
    options = preset("championship")
    state = started(3, options, dealer=2, hand=21)
    left = [parse_cards(own), *(parse_cards(cards) for cards in others)]
    rest = sorted(set(deck(3)) - {card for cards in left for card in cards})
    hands = [" ".join(str(c) for c in (*left[s], *rest[s * 6 : s * 6 + 6])) for s in range(3)]
    state = dealt(state, *hands)
    state = replace(
        state,
        phase=Phase.PLAYING,
        holdings=tuple(tuple(sorted(cards)) for cards in left),
        bids=(bid, 1, 2),
        tricks=(2, 1, 3),
        trick_number=6,
        turn=0,
        trick_leader=0,
    )
    return state, frozenset(rest)


def test_needing_one_trick_it_cashes_the_master_before_its_loser() -> None:
    # Leading 9C first, 10C takes it and hearts follow: AS would be thrown away.
    state, played = endgame("AS 9C", ("10C JH", "QH KH"), bid=3)

    for name in ("medium", "strong"):
        command = choose_command(state, 0, random.Random(1), bot=name, played=played)
        assert command == PlayCard(0, parse_card("AS")), name


def test_needing_no_more_tricks_it_ducks_with_the_card_that_must_lose() -> None:
    # AC would win; 9S loses to 10S, and the ace is thrown on the hearts led next.
    state, played = endgame("AC 9S", ("10S JH", "QH KH"), bid=2)

    for name in ("medium", "strong"):
        command = choose_command(state, 0, random.Random(1), bot=name, played=played)
        assert command == PlayCard(0, parse_card("9S")), name


def test_with_the_ace_of_trumps_in_a_one_card_hand_it_bids_the_trick_it_must_take() -> None:
    state = dealt(started(4, preset("championship"), dealer=3), "AS", "7D", "8H", "9C", trump="7S")

    for name in ("medium", "strong"):
        assert choose_command(state, 0, random.Random(1), bot=name) == PlaceBid(0, 1), name


def test_the_dealer_bids_the_nearest_allowed_bid_when_the_exact_one_is_forbidden() -> None:
    # The dealer's two top trumps take both tricks, but the others bid 0: 2 is
    # forbidden, and 1 loses less than 0.
    state = dealt(
        started(4, preset("championship"), dealer=3, hand=4),
        "7D 8D",
        "8H 9H",
        "9C 10C",
        "AS KS",
        trump="7S",
    )
    for seat in range(3):
        state = evolve(state, decide(state, PlaceBid(seat, 0)))

    for name in ("medium", "strong"):
        assert choose_command(state, 3, random.Random(1), bot=name) == PlaceBid(3, 1), name
