"""A game reviewed by the strong bot (games.bots.analysis): each bid and card
compared with the bot's, from what the seat could see, and each seat's luck.

Most games here are three players under options whose first hand deals one
card and whose second deals three (with a trump turned): the second hand is the
one a test is about, constructed card by card, after a first hand played by
the heuristic bot."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import choose_command
from games.bots.analysis import FLAG_POINTS, GameReview, HandReview, decisions, review_game
from games.bots.sampling import Level
from games.rules import (
    BidPlaced,
    Card,
    CardPlayed,
    Command,
    Event,
    GameStarted,
    GameState,
    HandDealt,
    HandScored,
    OneCardMode,
    Phase,
    PlaceBid,
    PlayCard,
    RuleOptions,
    SpecialHand,
    Visibility,
    decide,
    deck,
    evolve,
    legal_bids,
    legal_plays,
    parse_card,
    parse_cards,
    replay,
)
from tests.games.bots.matches import play_bot_game

# Hands of 1, 3, 5, 7, 8 ... cards; three players hold 9 to ace.
OPTIONS = RuleOptions(repeat_one_card_deals=False, step=2)
# Enough deals for the constructed positions, whose answers are clear-cut.
LEVEL = Level(samples=48, budget=None, bid_samples=64)
QUICK = Level(samples=3, budget=None, min_samples=1, bid_samples=4)


def hand_dealt(state: GameState, *hands: str, trump: str) -> HandDealt:
    return HandDealt(
        state.hand,
        state.dealer,
        state.cards,
        Visibility.OPEN,
        tuple(tuple(sorted(parse_cards(cards))) for cards in hands),
        parse_card(trump),
    )


def played_on(state: GameState, events: list[Event], *commands: Command) -> GameState:
    """``state`` after each command, its events added to ``events``."""
    for command in commands:
        new = decide(state, command)
        events.extend(new)
        state = evolve(state, new)
    return state


def by_bots(state: GameState, events: list[Event]) -> GameState:
    """``state`` after the heuristic bot played every seat to the end of the hand."""
    hand = state.hand
    while state.hand == hand and state.phase in (Phase.BIDDING, Phase.PLAYING):
        played = [e.card for e in events if isinstance(e, CardPlayed) and e.hand == hand]
        command = choose_command(state, state.turn, random.Random(0), played=played)
        state = played_on(state, events, command)
    return state


def second_hand(*hands: str, trump: str) -> tuple[GameState, list[Event]]:
    """A game whose first hand the heuristic bot played, and whose second (three cards
    each, seat 2 deals, seat 0 bids and leads first) is dealt ``hands``."""
    events: list[Event] = [GameStarted(3, OPTIONS, first_dealer=1)]
    state = replay(events)
    events.append(hand_dealt(state, "9C", "9D", "9H", trump="10S"))
    state = by_bots(replay(events), events)
    events.append(hand_dealt(state, *hands, trump=trump))
    return replay(events), events


def plays(*cards: tuple[int, str]) -> list[PlayCard]:
    return [PlayCard(seat, parse_card(card)) for seat, card in cards]


def bids_of(review: GameReview, hand: int, seat: int) -> list[dict[str, object]]:
    return [bid.as_dict() for bid in review.hands[hand].bids if bid.seat == seat]


def plays_of(review: GameReview, hand: int, seat: int) -> list[dict[str, object]]:
    return [play.as_dict() for play in review.hands[hand].plays if play.seat == seat]


# The master card when one trick is needed. Seat 0 bid 1, lost the first trick and
# plays last to the second, 10H and JH on the table: AH takes it; after 9H, AH
# takes the last trick only if seat 2 leads a heart, which it does not.
def master_game(card: str) -> list[Event]:
    state, events = second_hand("9C 9H AH", "KC 10H QD", "10C JH KD", trump="9S")
    state = played_on(
        state,
        events,
        PlaceBid(0, 1),
        PlaceBid(1, 1),
        PlaceBid(2, 0),
        *plays((0, "9C"), (1, "KC"), (2, "10C")),
        *plays((1, "10H"), (2, "JH"), (0, card)),
    )
    by_bots(state, events)
    return events


def test_playing_low_instead_of_the_master_that_makes_the_bid_is_flagged() -> None:
    review = review_game(master_game("9H"), seed="master", level=LEVEL)

    (second,) = (play for play in plays_of(review, 1, 0) if play["trick"] == 1)
    assert (second["card"], second["best"], second["flagged"]) == ("9H", "AH", True)
    expected = second["expected"]
    assert isinstance(expected, dict)
    assert set(expected) == {"9H", "AH"}
    assert second["loss"] == round(expected["AH"] - expected["9H"], 2) >= FLAG_POINTS


def test_playing_the_master_as_the_bot_would_is_a_good_play_not_flagged() -> None:
    review = review_game(master_game("AH"), seed="master", level=LEVEL)

    (second,) = (play for play in plays_of(review, 1, 0) if play["trick"] == 1)
    assert (second["card"], second["best"], second["loss"], second["flagged"]) == (
        "AH",
        "AH",
        0.0,
        False,
    )


# Ducking when a trick would break an exact bid. Seat 0 bid 0 and plays last to
# the second trick, 10H and JH on the table: QH takes it, 9H cannot.
def test_taking_a_trick_that_breaks_a_bid_already_made_is_flagged_and_the_duck_is_best() -> None:
    state, events = second_hand("9C 9H QH", "KC 10H AD", "10C JH KD", trump="9S")
    state = played_on(
        state,
        events,
        PlaceBid(0, 0),
        PlaceBid(1, 2),
        PlaceBid(2, 0),
        *plays((0, "9C"), (1, "KC"), (2, "10C")),
        *plays((1, "10H"), (2, "JH"), (0, "QH")),
    )
    by_bots(state, events)

    review = review_game(events, seed="duck", level=LEVEL)

    (second,) = (play for play in plays_of(review, 1, 0) if play["trick"] == 1)
    assert (second["card"], second["best"], second["flagged"]) == ("QH", "9H", True)
    expected = second["expected"]
    assert isinstance(expected, dict)
    # Keeping QH loses every trick (+5); taking this one makes at least one (-1 at most).
    assert expected["9H"] == 5.0
    assert second["loss"] >= 6.0


# The dealer's natural bid forbidden. Seat 2 holds the three top trumps and takes
# every trick; the others bid 0, so 3 is forbidden, and 2 (one off) is the best left.
def dealer_with_every_trick(bid: int) -> list[Event]:
    state, events = second_hand("9C 10C 9D", "9H 10H 10D", "AS KS QS", trump="9S")
    state = played_on(state, events, PlaceBid(0, 0), PlaceBid(1, 0), PlaceBid(2, bid))
    by_bots(state, events)
    return events


def test_the_dealer_making_the_bots_alternative_to_the_forbidden_bid_is_not_flagged() -> None:
    review = review_game(dealer_with_every_trick(2), seed="dealer", level=LEVEL)

    assert bids_of(review, 1, 2) == [
        {
            "seat": 2,
            "bid": 2,
            "best": 2,
            "expected": {"0": -3.0, "1": -2.0, "2": -1.0},
            "loss": 0.0,
            "flagged": False,
        }
    ]


def test_the_forbidden_bid_is_never_the_best_and_a_worse_alternative_costs_its_points() -> None:
    review = review_game(dealer_with_every_trick(0), seed="dealer", level=LEVEL)

    (dealer,) = bids_of(review, 1, 2)
    assert (dealer["bid"], dealer["best"], dealer["loss"], dealer["flagged"]) == (0, 2, 2.0, True)


# Only what the seat could see.


def scrambled(events: Sequence[Event], decision: int, rng: random.Random) -> list[Event]:
    """The game up to and including event ``decision`` (a seat's bid or card), with
    the cards the deciding seat cannot see then (the others' cards not played yet,
    and those not dealt) dealt again: within each suit, so that every seat holds as
    many of each suit as before and the play recorded stays legal."""
    prefix = list(events[:decision])
    state = replay(prefix)
    event = events[decision]
    assert isinstance(event, BidPlaced | CardPlayed)
    others = [seat for seat in range(state.player_count) if seat != event.seat]
    dealt_cards = {card for cards in state.dealt for card in cards}
    undealt = set(deck(state.player_count)) - dealt_cards - {state.trump_card}
    hidden = sorted(undealt | {card for seat in others for card in state.holdings[seat]})
    moved: dict[Card, Card] = {}
    for suit in range(4):
        cards = [card for card in hidden if card >> 4 == suit]
        shuffled = rng.sample(cards, len(cards))
        moved.update(zip(cards, shuffled, strict=True))
    index = max(i for i, e in enumerate(prefix) if isinstance(e, HandDealt))
    dealt = prefix[index]
    assert isinstance(dealt, HandDealt)
    hands = tuple(
        cards
        if seat == event.seat
        else tuple(
            sorted(card if card not in state.holdings[seat] else moved[card] for card in cards)
        )
        for seat, cards in enumerate(dealt.hands)
    )
    prefix[index] = replace(dealt, hands=hands)
    return [*prefix, event]


def decisions_of(review: GameReview, seat: int) -> list[object]:
    return [
        (
            hand.hand,
            [b for b in hand.bids if b.seat == seat],
            [p for p in hand.plays if p.seat == seat],
        )
        for hand in review.hands
    ]


@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.binary(min_size=1, max_size=8), data=st.data())
def test_the_cards_a_seat_could_not_see_never_change_the_review_of_its_decisions(
    seed: bytes, data: st.DataObject
) -> None:
    events = play_bot_game(OPTIONS, ["heuristic"] * 3, seed).events
    # The decisions of the first three hands (1, 3 and 5 cards).
    chosen = [
        index
        for index, event in enumerate(events)
        if isinstance(event, BidPlaced | CardPlayed) and event.hand < 3
    ]
    decision = data.draw(st.sampled_from(chosen))
    event = events[decision]
    assert isinstance(event, BidPlaced | CardPlayed)
    other = scrambled(events, decision, random.Random(data.draw(st.integers(0, 2**32))))

    original = review_game(events[: decision + 1], seed="scramble", level=QUICK)
    again = review_game(other, seed="scramble", level=QUICK)

    assert decisions_of(again, event.seat) == decisions_of(original, event.seat)


def test_a_scramble_that_shows_the_test_can_fail_changes_another_seats_review() -> None:
    # The same scramble, reviewed for a seat that did see the cards moved: its own
    # cards changed, and so does what the bot makes of its decisions.
    events = play_bot_game(OPTIONS, ["heuristic"] * 3, b"seen").events
    decision = max(
        index
        for index, event in enumerate(events)
        if isinstance(event, BidPlaced) and event.hand == 2 and not event.forced
    )
    event = events[decision]
    assert isinstance(event, BidPlaced)
    other = scrambled(events, decision, random.Random(1))
    changed = [
        seat
        for seat in range(3)
        if seat != event.seat
        and decisions_of(review_game(other, seed="s", level=QUICK), seat)
        != decisions_of(review_game(events[: decision + 1], seed="s", level=QUICK), seat)
    ]
    assert changed


# Determinism, the shape and the summary.


def whole_game() -> list[Event]:
    return play_bot_game(OPTIONS, ["heuristic", "easy", "random"], b"whole").events


def test_the_same_events_and_seed_give_the_same_review_and_another_seed_another() -> None:
    events = whole_game()

    first = review_game(events, seed="one", level=QUICK)

    assert review_game(events, seed="one", level=QUICK) == first
    assert review_game(events, seed="two", level=QUICK) != first


def test_the_review_goes_to_json_and_back_unchanged() -> None:
    review = review_game(whole_game(), seed="one", level=QUICK)

    data = json.loads(json.dumps(review.as_dict()))

    assert GameReview.from_dict(data) == review
    assert data["version"] == 1 and data["players"] == 3
    assert set(data) == {"version", "players", "hands", "summary"}
    hand = data["hands"][1]
    assert set(hand) == {"hand", "cards", "dealer", "luck", "luck_points", "bids", "plays"}
    assert set(hand["bids"][0]) == {"seat", "bid", "best", "expected", "loss", "flagged"}
    assert set(hand["plays"][0]) == {
        "seat",
        "trick",
        "card",
        "best",
        "expected",
        "loss",
        "flagged",
    }
    assert set(data["summary"][0]) == {
        "seat",
        "luck_tricks",
        "luck_points",
        "decision_points",
        "exact_bids",
        "hands",
        "mistakes",
    }


def test_the_summary_adds_up_each_seats_hands_decisions_and_exact_bids() -> None:
    events = whole_game()
    review = review_game(events, seed="one", level=QUICK)
    scored = [event for event in events if isinstance(event, HandScored)]

    for seat, summary in enumerate(review.summary):
        bids = [bid for hand in review.hands for bid in hand.bids if bid.seat == seat]
        plays = [play for hand in review.hands for play in hand.plays if play.seat == seat]
        assert summary.seat == seat
        assert summary.luck_tricks == round(sum(hand.luck[seat] for hand in review.hands), 2)
        assert summary.luck_points == round(sum(h.luck_points[seat] for h in review.hands), 2)
        losses = sum(d.loss for d in bids) + sum(d.loss for d in plays)
        assert summary.decision_points == round(-losses, 2)
        assert summary.exact_bids == sum(e.bids[seat] == e.tricks[seat] for e in scored)
        assert summary.hands == len(scored) == len(review.hands) == 11
        assert summary.bid_mistakes == sum(bid.flagged for bid in bids)
        assert summary.play_mistakes == sum(play.flagged for play in plays)
    assert sum(s.bid_mistakes + s.play_mistakes for s in review.summary) > 0


def test_every_decision_with_a_choice_is_listed_in_order_and_none_without() -> None:
    events = whole_game()
    review = review_game(events, seed="one", level=QUICK)

    made: list[tuple[int, str, int, int]] = []
    state = GameState()
    for event in events:
        if isinstance(event, BidPlaced) and len(legal_bids(state)) > 1:
            made.append((event.hand, "bid", event.seat, event.bid))
        elif isinstance(event, CardPlayed) and len(legal_plays(state)) > 1:
            made.append((event.hand, "play", event.seat, event.card))
        state = evolve(state, [event])
    listed = [
        *((hand.hand, "bid", bid.seat, bid.bid) for hand in review.hands for bid in hand.bids),
        *((hand.hand, "play", p.seat, p.card) for hand in review.hands for p in hand.plays),
    ]
    # Each hand's bids in the order made, then its cards in the order played.
    assert listed == sorted(
        made, key=lambda decision: (decision[1] == "play", made.index(decision))
    )
    assert [(d.hand, d.kind, d.seat, d.chosen) for d in decisions(events)] == made
    for hand in review.hands:
        for decision in (*hand.bids, *hand.plays):
            assert decision.flagged == (decision.loss >= FLAG_POINTS)


# Luck, and the hands played otherwise.


def test_the_trump_ace_in_a_one_card_hand_is_a_whole_trick_of_luck() -> None:
    events: list[Event] = [GameStarted(3, OPTIONS, first_dealer=1)]
    events.append(hand_dealt(replay(events), "AS", "9D", "9H", trump="10S"))
    by_bots(replay(events), events)

    (hand,) = review_game(events, seed="luck", level=LEVEL).hands

    # Seat 0 takes the trick in every deal it samples; the others see a trick
    # that might be theirs.
    assert hand.luck[0] == max(hand.luck) > 0.5
    assert abs(sum(hand.luck)) <= 0.02
    assert abs(sum(hand.luck_points)) <= 0.02


def test_forehead_blind_and_forced_hands_are_reviewed_as_far_as_each_seat_could_choose() -> None:
    options = RuleOptions(
        one_card_mode=OneCardMode.FOREHEAD,
        special_hands=(SpecialHand.BLIND_BID, SpecialHand.ZERO_BID),
        repeat_eight_card_deals=False,
    )
    events = play_bot_game(options, ["heuristic"] * 4, b"special").events

    review = review_game(events, seed="special", level=QUICK)

    by_hand = {hand.hand: hand for hand in review.hands}
    one_card = [hand for hand in review.hands if hand.cards == 1]
    blind, zero = by_hand[len(by_hand) - 2], by_hand[len(by_hand) - 1]
    # On the forehead a seat plays its one card unseen, and bids by the others'.
    assert one_card and all(not hand.plays and hand.bids for hand in one_card)
    # Blind, every seat bids without its cards (the dealer's forbidden bid aside).
    assert [bid.seat for bid in blind.bids] == [(blind.dealer + 1 + i) % 4 for i in range(4)]
    assert blind.plays
    # Every bid of the zero bid hand is forced: none is a decision.
    assert zero.bids == () and zero.plays
    assert isinstance(zero, HandReview) and len(zero.luck) == 4
