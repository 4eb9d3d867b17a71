"""The heuristic bot: it bids what its cards are worth, respects the dealer rule,
plays to make its bid exactly, and beats random play by a wide margin."""

from __future__ import annotations

import random
import statistics

import pytest

from games.bots import BOTS, choose_command, played_in_hand
from games.rules import (
    ChooseOneCardMode,
    Event,
    GameState,
    HandScored,
    OneCardMode,
    PlaceBid,
    PlayCard,
    RuleOptions,
    SpecialHand,
    Visibility,
    decide,
    format_cards,
    legal_bids,
    parse_card,
    preset,
)
from games.rules.errors import DealerBidForbidden
from tests.games.bots.matches import play_bot_game
from tests.games.rules.builders import dealt, run, started

CHAMPIONSHIP = preset("championship")
# Championship hands for 4 players: 1 card for hands 0-3, 2 for 4-7, 3 for 8-11 ...
THREE_CARDS, FIVE_CARDS = 8, 16


def bids(state: GameState, *values: int) -> GameState:
    for value in values:
        state, _ = run(state, PlaceBid(state.turn, value))
    return state


def play(state: GameState, *cards: str) -> GameState:
    for text in cards:
        state, _ = run(state, PlayCard(state.turn, parse_card(text)))
    return state


def three_cards(*hands: str, trump: str = "7S") -> GameState:
    """A 3-card hand of 4 players dealt by seat 3: seat 0 bids and leads first."""
    return dealt(started(4, CHAMPIONSHIP, dealer=3, hand=THREE_CARDS), *hands, trump=trump)


def played_card(state: GameState, seat: int) -> str:
    command = choose_command(state, seat)
    assert isinstance(command, PlayCard)
    decide(state, command)  # the engine accepts it
    return str(command.card)


def bid_of(state: GameState, seat: int) -> int:
    command = choose_command(state, seat)
    assert isinstance(command, PlaceBid)
    decide(state, command)
    return command.bid


# Bidding


def test_a_hand_of_top_trumps_and_aces_bids_every_trick() -> None:
    state = dealt(
        started(4, CHAMPIONSHIP, dealer=3, hand=FIVE_CARDS),
        "AS KS QS AH AD",
        "7C 8C 9C 10C JC",
        "7D 8D 9D 10D JD",
        "7H 8H 9H 10H JH",
        trump="7S",
    )

    assert bid_of(state, 0) == 5


def test_a_hand_of_low_cards_without_trumps_bids_zero() -> None:
    state = dealt(
        started(4, CHAMPIONSHIP, dealer=3, hand=FIVE_CARDS),
        "7C 8C 7D 8D 7H",
        "AC KC AD KD AH",
        "9C 10C 9D 10D 8H",
        "QS KS QH KH 9H",
        trump="AS",
    )

    assert bid_of(state, 0) == 0


def test_the_dealer_never_makes_the_forbidden_bid_and_bids_the_nearest_allowed() -> None:
    # The dealer holds two sure trumps (worth 2), but 0 + 1 + 0 + 2 would make 3.
    state = bids(three_cards("7C 8C 9C", "7D 8D 9D", "7H 8H 9H", "AS KS 10C"), 0, 1, 0)
    with pytest.raises(DealerBidForbidden):
        decide(state, PlaceBid(3, 2))

    # 1 and 3 are as near; 3 is the better, as the ten of clubs may yet win.
    assert legal_bids(state) == (0, 1, 3)
    assert bid_of(state, 3) == 3


def test_a_dealer_whose_zero_is_forbidden_bids_one_not_more() -> None:
    state = bids(three_cards("AS KC AD", "AH KS QS", "KD KH QC", "7C 8D 7H"), 1, 1, 1)
    with pytest.raises(DealerBidForbidden):
        decide(state, PlaceBid(3, 0))

    assert bid_of(state, 3) == 1


def test_in_a_one_card_hand_only_a_card_likely_to_win_the_trick_bids_one() -> None:
    # Seat 0 leads the ace of trumps: a sure trick. The jack of clubs wins only
    # if clubs are led and nobody trumps: it bids 0, unless 0 is forbidden.
    hands = ("AS", "7H", "8D", "JC")
    state = dealt(started(4, CHAMPIONSHIP, dealer=3), *hands, trump="7S")

    assert bid_of(state, 0) == 1
    assert bid_of(bids(state, 1, 1, 0), 3) == 0
    assert bid_of(bids(state, 1, 0, 0), 3) == 1  # 1 + 0 + 0 + 0 would make 1


def test_on_the_forehead_it_bids_one_when_the_cards_it_sees_are_weak() -> None:
    forehead = dealt(
        started(3, RuleOptions(one_card_mode=OneCardMode.FOREHEAD)),
        "9C",
        "10C",
        "AS",
        trump="9S",
        visibility=Visibility.FOREHEAD,
    )
    # Seat 1 leads: it sees the nine of clubs and the ace of trumps, which beats all.
    assert bid_of(forehead, 1) == 0
    weak = dealt(
        started(3, RuleOptions(one_card_mode=OneCardMode.FOREHEAD)),
        "9C",
        "10C",
        "JC",
        trump="9S",
        visibility=Visibility.FOREHEAD,
    )
    # Seat 1 leads and sees only the nine and jack of clubs: most cards beat them.
    assert bid_of(weak, 1) == 1


def test_on_the_forehead_its_own_card_does_not_change_its_bid() -> None:
    options = RuleOptions(one_card_mode=OneCardMode.FOREHEAD)
    # Seat 1 leads and sees the ten and jack of clubs, whatever its own card.
    bids_made = [
        bid_of(
            dealt(
                started(3, options), "10C", own, "JC", trump="9S", visibility=Visibility.FOREHEAD
            ),
            1,
        )
        for own in ("9C", "AS", "QD", "KH")
    ]

    assert bids_made == [1, 1, 1, 1]


def test_blind_it_bids_the_average_share_of_tricks() -> None:
    options = RuleOptions(special_hands=(SpecialHand.BLIND_BID,))
    # The blind 8-card hand closes a 4-player 1-8-1 game: hand 24.
    state = started(4, options, dealer=3, hand=24)
    state = dealt(
        state,
        "AC KC QC JC AD KD QD JD",
        "AH KH QH JH AS KS QS JS",
        "10C 9C 8C 7C 10D 9D 8D 7D",
        "10H 9H 8H 7H 10S 9S 8S 7S",
        visibility=Visibility.BLIND,
    )

    # It sees none of its cards: 8 cards / 4 players, whatever it holds.
    assert bid_of(state, 0) == 2


# Playing


def test_needing_a_trick_and_last_to_play_it_wins_with_the_lowest_winning_card() -> None:
    state = bids(three_cards("10H 7C 8D", "JH 7D 9S", "9H 8C 9D", "AH KH QH"), 0, 1, 0, 1)

    state = play(state, "10H", "JH", "9H")

    assert played_card(state, 3) == "QH"


def test_with_its_tricks_made_it_plays_the_highest_card_that_does_not_win() -> None:
    state = bids(three_cards("10H 7C 8D", "QH 7D 9S", "9H 8C 9D", "AH JH 8H"), 0, 1, 1, 0)

    state = play(state, "10H", "QH", "9H")

    assert played_card(state, 3) == "JH"


def test_when_every_card_wins_and_it_wants_none_it_wins_with_its_most_dangerous() -> None:
    state = bids(three_cards("8H 7C 8D", "9H 7D 9S", "7H 8C 9D", "AH KH JH"), 0, 1, 1, 0)

    state = play(state, "8H", "9H", "7H")

    # Bid 0 and about to take the trick anyway: shed the ace rather than the jack.
    assert played_card(state, 3) == "AH"


def test_second_to_play_and_needing_a_trick_it_plays_a_winner_that_will_hold() -> None:
    state = bids(three_cards("10H 7C 8D", "AH QH 8H", "JH 7D 9S", "9H 8C 9D"), 0, 1, 0, 1)

    state = play(state, "10H")

    # The queen would lose to the jack or king still out: the ace holds.
    assert played_card(state, 1) == "AH"


def test_it_leads_a_sure_winner_when_it_needs_tricks_and_low_when_it_does_not() -> None:
    hands = ("AH 7C 8D", "JH 7D 9S", "9H 8C 9D", "10H QH 8H")

    assert played_card(bids(three_cards(*hands), 1, 0, 0, 1), 0) == "AH"
    assert played_card(bids(three_cards(*hands), 0, 0, 0, 0), 0) == "7C"


def test_the_cards_played_earlier_in_the_hand_tell_it_which_card_is_now_highest() -> None:
    # An 8-card hand of 3 players: no trump, every card dealt. Seat 0 leads.
    state = dealt(
        started(3, preset("romanian-standard"), dealer=2, hand=9),
        "AH QH 9D 9C 10C 9S 10S JS",
        "KH 9H AD 10D JC QC QS KS",
        "10H JH JD QD KD KC AC AS",
    )
    state = bids(state, 1, 3, 3)
    events: list[Event] = []
    for card in ("AH", "9H", "10H", "9D", "AD", "JD"):
        state, new = run(state, PlayCard(state.turn, parse_card(card)))
        events.extend(new)
    played = played_in_hand(events, state.hand)
    assert format_cards(played) == "AH 9H 10H 9D AD JD"

    # Seat 1 took the second trick and needs two more. Told of the first trick,
    # it knows the ace of hearts is gone and leads its king, now the highest.
    assert choose_command(state, 1, played=played) == PlayCard(1, parse_card("KH"))
    # From the state alone it sees only the last trick: the guarded king of
    # spades is its best chance.
    assert choose_command(state, 1) == PlayCard(1, parse_card("KS"))


def test_void_in_the_suit_led_it_trumps_when_it_must_even_when_it_wants_no_trick() -> None:
    state = bids(three_cards("10H 7C 8D", "JH 7D 9S", "9H 8C 9D", "8S 9C 10D"), 0, 1, 0, 0)

    state = play(state, "10H", "JH", "9H")

    assert played_card(state, 3) == "8S"


def test_it_always_plays_a_legal_card_following_suit_before_anything_else() -> None:
    state = bids(three_cards("10H 7C 8D", "JH 7D 9S", "9H 8C 9D", "AS AC 8H"), 0, 1, 0, 0)

    state = play(state, "10H", "JH", "9H")

    assert played_card(state, 3) == "8H"


# The API


def test_the_dealer_of_a_dealer_choice_one_card_hand_chooses_open_play() -> None:
    state = started(4, RuleOptions(one_card_mode=OneCardMode.DEALER_CHOICE), dealer=2)

    command = choose_command(state, 2)

    assert command == ChooseOneCardMode(2, Visibility.OPEN)
    with pytest.raises(ValueError, match="seat 1 does not choose: seat 2 deals"):
        choose_command(state, 1)


def test_it_refuses_to_act_out_of_turn_or_when_nobody_acts() -> None:
    state = three_cards("10H 7C 8D", "JH 7D 9S", "9H 8C 9D", "AH KH QH")

    with pytest.raises(ValueError, match="it is seat 0's turn, not seat 2's"):
        choose_command(state, 2)
    with pytest.raises(ValueError, match="no player acts in phase dealing"):
        choose_command(started(4), 0)
    with pytest.raises(
        ValueError,
        match="unknown bot 'clever'; choose one of heuristic, random, easy, medium, strong",
    ):
        choose_command(state, 0, bot="clever")


def test_the_registry_names_the_heuristic_the_random_bot_and_the_levels() -> None:
    assert list(BOTS) == ["heuristic", "random", "easy", "medium", "strong"]
    assert all(name == bot.name for name, bot in BOTS.items())


def test_the_same_position_always_gets_the_same_command() -> None:
    state = bids(three_cards("10H 7C 8D", "JH 7D 9S", "9H 8C 9D", "AH KH QH"), 0, 1, 0)

    commands = {choose_command(state, 3, random.Random(seed)) for seed in range(20)}

    assert commands == {choose_command(state, 3)}


# Against random play


def test_over_200_championship_games_it_makes_its_bid_far_more_often_than_random_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    exact = {"heuristic": 0, "random": 0}
    hands = {"heuristic": 0, "random": 0}
    totals: dict[str, list[int]] = {"heuristic": [], "random": []}
    for number in range(200):
        # The heuristic bot sits at each seat in turn.
        lineup = ["random"] * 4
        lineup[number % 4] = "heuristic"
        game = play_bot_game(CHAMPIONSHIP, lineup, b"versus-%d" % number)
        for event in game.events:
            if isinstance(event, HandScored):
                for seat, (bid, tricks) in enumerate(zip(event.bids, event.tricks, strict=True)):
                    exact[lineup[seat]] += bid == tricks
                    hands[lineup[seat]] += 1
        for seat, total in enumerate(game.final.scores):
            totals[lineup[seat]].append(total)

    rate = {name: exact[name] / hands[name] for name in exact}
    mean = {name: statistics.mean(scores) for name, scores in totals.items()}
    with capsys.disabled():
        print(
            f"\n200 championship games, 1 heuristic vs 3 random bots: exact bids "
            f"{rate['heuristic']:.1%} vs {rate['random']:.1%}, mean final score "
            f"{mean['heuristic']:.1f} vs {mean['random']:.1f}"
        )
    assert hands == {"heuristic": 200 * 32, "random": 3 * 200 * 32}
    assert rate["heuristic"] > rate["random"] + 0.25
    assert mean["heuristic"] > mean["random"] + 75
    # It finishes ahead of every random bot in most games.
    assert (
        sum(
            scores_h > max(totals["random"][3 * i : 3 * i + 3])
            for i, scores_h in enumerate(totals["heuristic"])
        )
        > 0.9 * 200
    )
