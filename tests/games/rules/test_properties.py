"""Property tests: random legal games by the thousand, every rule recomputed here.

Each game is played to its end by random legal moves
(:func:`games.rules.simulate.play_random_game`), then a referee written in this
file walks its events and checks them against the rules, recomputed from the
events alone and never through the engine's own helpers: the deck and the deal,
the dealer's rotation and the order of bidding, the forbidden bid and the forced
bids, following suit and trumping, who wins each trick, the points of each
scoring formula, streak bonuses and penalties, the final scores and places, and
zero play. Then the log is replayed three ways (``replay``, a fold of ``apply``,
the states recorded while playing) and round-tripped through JSON.

A run plays about 1,600 games: 150 per preset, 900 under random rule options,
and the few that show every checked situation is reached. The examples are
derandomized, so that the suite is reproducible and its running time stable.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    EVENT_TYPES,
    PRESETS,
    BidPlaced,
    Card,
    CardPlayed,
    Event,
    GameFinished,
    GameStarted,
    GameState,
    HandDealt,
    HandScored,
    OneCardMode,
    OneCardModeChosen,
    OneCardRuns,
    RuleOptions,
    Schedule,
    Scoring,
    SpecialHand,
    Streak,
    TrickTaken,
    Visibility,
    ZeroPlayAnnounced,
    ZeroPlayDeadline,
    apply,
    build_schedule,
    deck,
    event_type,
    from_payload,
    parse_card,
    replay,
    to_payload,
)
from games.rules.simulate import PlayedGame, play_random_game

CARDS_PER_PLAYER = 8
SUIT_LETTERS = "CDHS"
RANKS_HIGH_TO_LOW = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")

# Each card's suit letter and strength (ace 13, two 1), read from its name
# rather than from how the engine encodes it.
FACES: dict[Card, tuple[str, int]] = {
    parse_card(rank + suit): (suit, len(RANKS_HIGH_TO_LOW) - strength)
    for suit in SUIT_LETTERS
    for strength, rank in enumerate(RANKS_HIGH_TO_LOW)
}


def expected_deck(player_count: int) -> frozenset[Card]:
    """8 cards per player: in each suit the ``2 * n`` highest ranks, ace down."""
    return frozenset(
        parse_card(rank + suit)
        for suit in SUIT_LETTERS
        for rank in RANKS_HIGH_TO_LOW[: 2 * player_count]
    )


def suit_of(card: Card) -> str:
    return FACES[card][0]


def trick_winner(cards: Sequence[Card], trump_suit: str | None) -> int:
    """Position (in play order) of the highest trump, else of the highest card
    of the suit led."""
    faces = [FACES[card] for card in cards]
    for wanted in (trump_suit, faces[0][0]):
        contenders = [
            (strength, pos) for pos, (suit, strength) in enumerate(faces) if suit == wanted
        ]
        if contenders:
            return max(contenders)[1]
    raise AssertionError("the suit led is always in its own trick")


EXACT_REWARD: dict[Scoring, Callable[[int, int], int]] = {
    Scoring.FIVE_PLUS_BID: lambda bid, cards: 5 + bid,
    Scoring.ONE_PLUS_BID: lambda bid, cards: 1 + bid,
    Scoring.BID_PLUS_CARDS: lambda bid, cards: bid + cards,
    Scoring.TRIANGULAR: lambda bid, cards: 5 + sum(range(bid + 1)),
}


def expected_points(scoring: Scoring, bid: int, tricks: int, cards: int) -> int:
    """5 + bid / 1 + bid / bid + cards / 5 + n(n+1)/2 for an exact bid; else
    minus the difference, or minus d(d+1)/2 in the triangular scoring."""
    if bid == tricks:
        return EXACT_REWARD[scoring](bid, cards)
    difference = max(bid, tricks) - min(bid, tricks)
    if scoring is Scoring.TRIANGULAR:
        return -sum(range(difference + 1))
    return -difference


def trailing(outcomes: list[bool], value: bool) -> int:
    return sum(1 for _ in itertools.takewhile(lambda o: o is value, reversed(outcomes)))


class StreakReferee:
    """Bonuses and penalties for runs of exact (missed) bids, from each player's
    history of counted deals since their last bonus (penalty)."""

    def __init__(self, options: RuleOptions, player_count: int) -> None:
        self.options = options
        self.since_bonus: list[list[bool]] = [[] for _ in range(player_count)]
        self.since_penalty: list[list[bool]] = [[] for _ in range(player_count)]

    def points(self, cards: int, made: Sequence[bool]) -> list[int]:
        bonus, penalty = self.options.streak_bonus, self.options.streak_penalty
        if cards == 1 and not self.options.streaks_count_one_card_deals:
            return [0] * len(made)
        earned = []
        for seat, exact in enumerate(made):
            points = 0
            history = self.since_bonus[seat]
            history.append(exact)
            if bonus is not None and trailing(history, True) == bonus.length:
                points += bonus.points
                history.clear()
            history = self.since_penalty[seat]
            history.append(exact)
            if penalty is not None and trailing(history, False) == penalty.length:
                points += penalty.points
                history.clear()
            earned.append(points)
        return earned


def zero_play_deadline(options: RuleOptions, card_counts: Sequence[int]) -> int:
    """The most hands that may have been dealt when zero play is announced."""
    if options.zero_play is None:
        return -1
    if options.zero_play is ZeroPlayDeadline.START:
        return 0
    if options.zero_play is ZeroPlayDeadline.TEN_BEFORE_END:
        return max(0, len(card_counts) - 10)
    # Before the first 8-card deal (1-8-1, each-dealer-once) or before the
    # first 1-card deal (8-1-8).
    middle = 1 if options.schedule is Schedule.EIGHT_ONE_EIGHT else CARDS_PER_PLAYER
    return list(card_counts).index(middle)


def one_card_mode_hands(runs: OneCardRuns, card_counts: Sequence[int]) -> set[int]:
    """The one-card hands the one-card mode applies to, by the runs it names."""
    blocks = [
        [index for index, _ in block]
        for is_one, block in itertools.groupby(enumerate(card_counts), lambda ic: ic[1] == 1)
        if is_one
    ]
    chosen = {
        OneCardRuns.ALL: range(len(blocks)),
        OneCardRuns.FIRST: {0},
        OneCardRuns.LAST: {len(blocks) - 1},
        OneCardRuns.FIRST_AND_LAST: {0, len(blocks) - 1},
    }[runs]
    return {index for number in chosen for index in blocks[number]}


def expected_places(scores: Sequence[int], winners: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking (10, 7, 7, 3 -> 1, 2, 2, 4), zero-play winners first."""
    keys = [(seat in winners, score) for seat, score in enumerate(scores)]
    ranked = sorted(keys, reverse=True)
    return tuple(ranked.index(key) + 1 for key in keys)


FORCED_BIDS = {SpecialHand.ZERO_BID: 0, SpecialHand.EIGHT_BID: CARDS_PER_PLAYER}
ONE_CARD_VISIBILITY = {
    OneCardMode.NORMAL: Visibility.OPEN,
    OneCardMode.FOREHEAD: Visibility.FOREHEAD,
    OneCardMode.BLIND: Visibility.BLIND,
}


# Situations the referee notes when it meets them, so that a test can show the
# random games really reach what the referee checks.
FEATURES = frozenset(
    {
        "one-card mode chosen",
        "forehead hand",
        "blind hand",
        "forced zero bids",
        "forced eight bids",
        "dealer restricted",
        "trick trumped",
        "discard while holding trumps",
        "streak bonus",
        "streak penalty",
        "zero play announced",
        "zero-play winner",
        "shared place",
    }
)


class Referee:
    """Follows a game's events one by one, checking each against the rules."""

    def __init__(self, options: RuleOptions, player_count: int) -> None:
        n = player_count
        self.options, self.n = options, n
        self.schedule = build_schedule(options, n)
        self.counts = [spec.cards for spec in self.schedule]
        self.first_special = len(self.schedule) - len(options.special_hands)
        self.deck = expected_deck(n)
        self.deadline = zero_play_deadline(options, self.counts)
        self.moded = one_card_mode_hands(options.one_card_runs, self.counts)
        self.streaks = StreakReferee(options, n)
        self.totals = [0] * n
        self.announced: set[int] = set()
        self.hands_dealt = 0
        self.first_dealer = -1
        # The hand being played, or the next to be dealt.
        self.hand = 0
        self.stage = "start"
        self.finished: GameFinished | None = None
        self.seen: set[str] = set()
        self.chosen: Visibility | None = None
        self.forced_bid: int | None = None
        self.dealer = 0
        self.trump_suit: str | None = None
        self.holdings: list[set[Card]] = []
        self.bids: list[int | None] = []
        self.turn = 0
        self.leader = 0
        self.trick: list[Card] = []
        self.trick_number = 0
        self.tricks: list[int] = []

    @property
    def cards(self) -> int:
        return self.counts[self.hand]

    def check(self, events: Sequence[Event]) -> None:
        for index, event in enumerate(events):
            assert self.finished is None, f"event {index} comes after the game finished"
            self.step(event)
        assert self.finished is not None, "the game never finished"
        assert self.hand == len(self.schedule) == self.hands_dealt, "not every hand was played"

    def step(self, event: Event) -> None:
        if self.stage == "start":
            assert isinstance(event, GameStarted), "a game starts with GameStarted"
        match event:
            case GameStarted():
                self.started(event)
            case OneCardModeChosen():
                self.mode_chosen(event)
            case HandDealt():
                self.dealt(event)
            case BidPlaced():
                self.bid(event)
            case CardPlayed():
                self.played(event)
            case TrickTaken():
                self.trick_taken(event)
            case HandScored():
                self.scored(event)
            case ZeroPlayAnnounced():
                self.zero_play(event)
            case GameFinished():
                self.game_finished(event)
            case _:
                raise AssertionError(f"unknown event {event!r}")

    def started(self, event: GameStarted) -> None:
        assert self.stage == "start", "the game starts only once"
        assert event.player_count == self.n
        assert event.options == self.options
        assert 0 <= event.first_dealer < self.n, "the first dealer sits at the table"
        self.first_dealer = event.first_dealer
        self.stage = "deal"

    def mode_chosen(self, event: OneCardModeChosen) -> None:
        assert self.stage == "deal", "the one-card mode is chosen before dealing"
        assert self.options.one_card_mode is OneCardMode.DEALER_CHOICE, "mode chosen unasked"
        assert self.hand in self.moded, "the mode is chosen only for the hands it applies to"
        assert self.chosen is None, "the mode is chosen once per hand"
        assert event.hand == self.hand
        assert event.seat == (self.first_dealer + self.hand) % self.n, "the dealer chooses"
        self.chosen = event.visibility
        self.seen.add("one-card mode chosen")

    def dealt(self, event: HandDealt) -> None:
        n, cards = self.n, self.cards
        assert self.stage == "deal", "a hand is dealt after the previous one is scored"
        assert event.hand == self.hand
        assert event.dealer == (self.first_dealer + self.hand) % n, "the deal rotates clockwise"
        assert event.cards == cards, "the schedule's number of cards is dealt"
        special = None
        if self.hand >= self.first_special:
            special = self.options.special_hands[self.hand - self.first_special]
            assert cards == CARDS_PER_PLAYER, "special hands deal 8 cards"
        self.check_visibility(event, special)
        assert len(event.hands) == n
        dealt = [card for hand in event.hands for card in hand]
        assert all(len(hand) == cards for hand in event.hands), "everyone gets the cards dealt"
        assert len(set(dealt)) == len(dealt), "a card was dealt twice"
        assert set(dealt) <= self.deck, "a card from outside the deck was dealt"
        if cards == CARDS_PER_PLAYER:
            assert event.trump_card is None, "no trump when every card is dealt"
            assert set(dealt) == self.deck, "all the deck is dealt in an 8-card hand"
            self.trump_suit = None
        else:
            assert event.trump_card is not None, "a trump is turned when cards are left"
            assert event.trump_card in self.deck, "the trump card comes from the deck"
            assert event.trump_card not in dealt, "the trump card was also dealt"
            self.trump_suit = suit_of(event.trump_card)
        self.hands_dealt += 1
        self.dealer = event.dealer
        self.holdings = [set(hand) for hand in event.hands]
        self.bids = [None] * n
        self.tricks = [0] * n
        self.turn = (event.dealer + 1) % n
        self.trick_number = 0
        self.trick = []
        self.forced_bid = None if special is None else FORCED_BIDS.get(special)
        self.stage = "bid"
        if event.visibility is not Visibility.OPEN:
            self.seen.add(f"{event.visibility.value} hand")

    def check_visibility(self, event: HandDealt, special: SpecialHand | None) -> None:
        mode = self.options.one_card_mode
        chosen, self.chosen = self.chosen, None
        if self.hand not in self.moded:
            assert chosen is None, "a one-card mode was chosen for a hand without a choice"
            blind = special is SpecialHand.BLIND_BID
            assert event.visibility is (Visibility.BLIND if blind else Visibility.OPEN)
        elif mode is OneCardMode.DEALER_CHOICE:
            assert chosen is not None, "the dealer chooses before dealing"
            assert event.visibility is chosen, "the hand is played as the dealer chose"
        else:
            assert event.visibility is ONE_CARD_VISIBILITY[mode]

    def bid(self, event: BidPlaced) -> None:
        assert self.stage == "bid", "bids come between the deal and the play"
        assert event.hand == self.hand
        assert event.seat == self.turn, "bids go clockwise from the dealer's left"
        assert 0 <= event.bid <= self.cards, "a bid is between 0 and the cards dealt"
        forced = self.forced_bid is not None
        assert event.forced is forced, "only zero-bid and eight-bid hands force bids"
        if forced:
            assert event.bid == self.forced_bid, "the forced bid was not made"
            self.seen.add(f"forced {'zero' if event.bid == 0 else 'eight'} bids")
        self.bids[event.seat] = event.bid
        self.turn = (event.seat + 1) % self.n
        if event.seat == self.dealer:
            total = sum(bid for bid in self.bids if bid is not None)
            assert None not in self.bids, "someone did not bid"
            if not forced:
                assert total != self.cards, "the bids add up to the cards dealt"
                if total - event.bid <= self.cards:
                    self.seen.add("dealer restricted")
            self.stage = "play"
            self.leader = self.turn

    def played(self, event: CardPlayed) -> None:
        assert self.stage == "play", "cards are played after the bidding, trick by trick"
        assert event.hand == self.hand
        assert event.seat == self.turn, "cards are played clockwise from the leader"
        holding = self.holdings[event.seat]
        card = event.card
        assert card in holding, f"{card} is not in seat {event.seat}'s hand"
        if self.trick:
            led = suit_of(self.trick[0])
            suits = {suit_of(c) for c in holding}
            if led in suits:
                assert suit_of(card) == led, "must follow suit"
            elif self.trump_suit in suits:
                if self.options.must_trump:
                    assert suit_of(card) == self.trump_suit, "must trump when void in the suit led"
                elif suit_of(card) != self.trump_suit:
                    self.seen.add("discard while holding trumps")
        holding.remove(card)
        self.trick.append(card)
        self.turn = (event.seat + 1) % self.n
        if len(self.trick) == self.n:
            self.stage = "trick"

    def trick_taken(self, event: TrickTaken) -> None:
        assert self.stage == "trick", "a trick is taken once everyone has played to it"
        assert event.hand == self.hand
        assert event.trick == self.trick_number, "tricks are numbered from 0 in each hand"
        assert event.leader == self.leader, "left of the dealer leads first, then the winner"
        assert event.cards == tuple(self.trick), "the trick holds the cards played to it"
        position = trick_winner(self.trick, self.trump_suit)
        winner = (self.leader + position) % self.n
        assert event.winner == winner, "the trick went to the wrong player"
        if suit_of(self.trick[position]) != suit_of(self.trick[0]):
            self.seen.add("trick trumped")
        self.tricks[winner] += 1
        self.turn = self.leader = winner
        self.trick = []
        self.trick_number += 1
        self.stage = "play"
        if self.trick_number == self.cards:
            assert not any(self.holdings), "every card is played"
            self.stage = "score"

    def scored(self, event: HandScored) -> None:
        assert self.stage == "score", "a hand is scored once all its tricks are taken"
        cards, scoring = self.cards, self.options.scoring
        assert event.hand == self.hand
        assert event.bids == tuple(self.bids), "the hand is scored on the bids made"
        assert event.tricks == tuple(self.tricks), "the hand is scored on the tricks taken"
        assert sum(event.tricks) == cards, "as many tricks as cards dealt"
        bids = [bid for bid in self.bids if bid is not None]
        points = [
            expected_points(scoring, b, t, cards) for b, t in zip(bids, self.tricks, strict=True)
        ]
        assert event.points == tuple(points), "wrong points for the hand"
        made = [b == t for b, t in zip(bids, self.tricks, strict=True)]
        streak = self.streaks.points(cards, made)
        assert event.streak_points == tuple(streak), "wrong streak bonus or penalty"
        self.totals = [t + p + s for t, p, s in zip(self.totals, points, streak, strict=True)]
        assert event.totals == tuple(self.totals), "wrong running totals"
        if any(points > 0 for points in streak):
            self.seen.add("streak bonus")
        if any(points < 0 for points in streak):
            self.seen.add("streak penalty")
        self.hand += 1
        self.stage = "over" if self.hand == len(self.schedule) else "deal"

    def zero_play(self, event: ZeroPlayAnnounced) -> None:
        assert self.stage in ("deal", "bid", "play"), "zero play announced mid-step"
        assert self.options.zero_play is not None, "zero play is not played here"
        assert 0 <= event.seat < self.n
        assert event.seat not in self.announced, "zero play announced twice"
        assert event.hands_dealt == self.hands_dealt, "wrong count of hands dealt"
        assert event.hands_dealt <= self.deadline, "zero play announced too late"
        self.announced.add(event.seat)
        self.seen.add("zero play announced")

    def game_finished(self, event: GameFinished) -> None:
        assert self.stage == "over", "the game finishes after its last hand"
        assert event.scores == tuple(self.totals), "the final scores are the last totals"
        winners = tuple(sorted(seat for seat in self.announced if self.totals[seat] == 0))
        assert event.zero_play_winners == winners, "wrong zero-play winners"
        assert event.places == expected_places(self.totals, winners), "wrong places"
        assert all(event.places[seat] == 1 for seat in winners), "zero players win"
        if winners:
            self.seen.add("zero-play winner")
        if len(set(event.places)) < self.n:
            self.seen.add("shared place")
        self.finished = event
        self.stage = "finished"


# Events that complete the command whose first event precedes them.
_SAME_COMMAND = (TrickTaken, HandScored, GameFinished)


def command_ends(events: Sequence[Event]) -> list[int]:
    """For each command of a game, the length of the log once it was applied."""
    ends: list[int] = []
    for index, event in enumerate(events, 1):
        follows = isinstance(event, _SAME_COMMAND) or (
            isinstance(event, BidPlaced) and event.forced
        )
        if follows and ends:
            ends[-1] = index
        else:
            ends.append(index)
    return ends


def apply_leaving_input_alone(state: GameState, event: Event) -> GameState:
    before = dict(vars(state))
    after = apply(state, event)
    assert after is not state, "apply returned the state it was given"
    assert vars(state) == before, f"apply changed its input state ({event_type(event)})"
    return after


def check_replay(game: PlayedGame, rng: random.Random, samples: int = 3) -> None:
    events, final, states = game.events, game.final, game.states
    assert final == replay(events), "replaying the log gives another state"
    folded = functools.reduce(apply_leaving_input_alone, events, GameState())
    assert folded == final, "folding apply over the log gives another state"
    ends = command_ends(events)
    assert len(ends) == len(states), "one recorded state per command"
    assert states[-1] == final
    for index in rng.sample(range(len(ends)), min(samples, len(ends))):
        prefix = events[: ends[index]]
        assert replay(prefix) == states[index], f"replaying {len(prefix)} events differs"


# Events already round-tripped: random games repeat many small events (the same
# card played by the same seat in the same hand), and decoding is deterministic.
_ROUND_TRIPPED: set[Event] = set()


def check_json_round_trip(events: Sequence[Event]) -> None:
    """Every event survives ``json.dumps`` / ``json.loads`` of its payload."""
    new = [event for event in dict.fromkeys(events) if event not in _ROUND_TRIPPED]
    payloads = [(event_type(event), to_payload(event)) for event in new]
    decoded = json.loads(json.dumps(payloads, allow_nan=False))
    for event, (type_name, payload) in zip(new, decoded, strict=True):
        assert type_name in EVENT_TYPES
        assert from_payload(type_name, payload) == event, f"{type_name} changed through JSON"
    _ROUND_TRIPPED.update(new)


def check_random_game(
    options: RuleOptions, player_count: int, seed: bytes, zero_play_chance: float = 0.0
) -> Referee:
    """Play one random game, then check every rule, replay and round trip."""
    game = play_random_game(
        options, player_count, seed, zero_play_chance=zero_play_chance, keep_states=True
    )
    referee = Referee(options, player_count)
    referee.check(game.events)
    check_replay(game, random.Random(seed))
    check_json_round_trip(game.events)
    return referee


def streaks(sign: int) -> st.SearchStrategy[Streak | None]:
    points = st.integers(1, 50).map(lambda p: sign * p)
    return st.none() | st.builds(Streak, st.integers(1, 10), points)


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
    streak_bonus=streaks(+1),
    streak_penalty=streaks(-1),
    streaks_count_one_card_deals=st.booleans(),
    zero_play=st.none() | st.sampled_from(ZeroPlayDeadline),
)
player_counts = st.integers(3, 6)
seeds = st.binary(max_size=16)


def test_the_deck_holds_the_eight_highest_ranks_per_player_in_every_suit() -> None:
    for n in range(3, 7):
        assert len(deck(n)) == len(set(deck(n))) == 8 * n
        assert set(deck(n)) == expected_deck(n)


@pytest.mark.parametrize("preset_name", sorted(PRESETS))
@settings(max_examples=150, deadline=None, derandomize=True)
@given(player_count=player_counts, seed=seeds)
def test_random_games_of_every_preset_deal_bid_play_score_and_replay_by_the_rules(
    preset_name: str, player_count: int, seed: bytes
) -> None:
    check_random_game(PRESETS[preset_name], player_count, seed)


@settings(max_examples=900, deadline=None, derandomize=True)
@given(
    options=rule_options,
    player_count=player_counts,
    seed=seeds,
    zero_play_chance=st.floats(0.0, 1.0),
)
def test_random_games_under_any_rule_options_deal_bid_play_score_and_replay_by_the_rules(
    options: RuleOptions, player_count: int, seed: bytes, zero_play_chance: float
) -> None:
    check_random_game(options, player_count, seed, zero_play_chance)


# Options under which random games reach every situation in FEATURES quickly.
COVERAGE_GAMES = (
    (
        RuleOptions(
            schedule=Schedule.EIGHT_ONE_EIGHT,
            special_hands=tuple(SpecialHand),
            one_card_mode=OneCardMode.DEALER_CHOICE,
            must_trump=False,
            streak_bonus=Streak(2, 5),
            streak_penalty=Streak(2, -5),
            zero_play=ZeroPlayDeadline.MIDDLE,
        ),
        4,
        0.05,
    ),
    # Short and low-scoring, with everyone free to announce zero play at the start.
    (
        RuleOptions(
            repeat_one_card_deals=False,
            repeat_eight_card_deals=False,
            step=2,
            scoring=Scoring.ONE_PLUS_BID,
            zero_play=ZeroPlayDeadline.START,
        ),
        3,
        1.0,
    ),
)


def test_random_games_reach_every_situation_the_referee_checks() -> None:
    seen: set[str] = set()
    for number in range(400):
        for options, player_count, chance in COVERAGE_GAMES:
            seen |= check_random_game(options, player_count, b"%d" % number, chance).seen
        if seen >= FEATURES:
            break
    assert not FEATURES - seen, f"never reached: {sorted(FEATURES - seen)}"


# One real game, then logs that each break one rule, to show that the referee
# notices; options with trumps, no-trump hands, streaks and zero play.
TAMPER_OPTIONS = replace(PRESETS["online-room"], zero_play=ZeroPlayDeadline.START)
TAMPER_PLAYERS = 4


@functools.cache
def untouched_log() -> tuple[Event, ...]:
    return tuple(play_random_game(TAMPER_OPTIONS, TAMPER_PLAYERS, b"tamper").events)


Log = Sequence[Event]


def swap_in(events: Log, index: int, *new: Event) -> list[Event]:
    return [*events[:index], *new, *events[index + 1 :]]


def change_first(kind: type, change: Callable[[Any], Event | None]) -> Callable[[Log], Log]:
    """Replace the first event of ``kind`` that ``change`` maps to a new event."""

    def tamper(events: Log) -> Log:
        for index, event in enumerate(events):
            if isinstance(event, kind) and (new := change(event)) is not None:
                return swap_in(events, index, new)
        raise LookupError(f"no {kind.__name__} to tamper with")

    return tamper


def change_first_play(
    change: Callable[[GameState, CardPlayed], Card | None],
) -> Callable[[Log], Log]:
    """Replace the card of the first play for which ``change`` picks another."""

    def tamper(events: Log) -> Log:
        state = GameState()
        for index, event in enumerate(events):
            if isinstance(event, CardPlayed) and (card := change(state, event)) is not None:
                return swap_in(events, index, replace(event, card=card))
            state = apply(state, event)
        raise LookupError("no play to tamper with")

    return tamper


def bump(values: tuple[int, ...], by: int = 1) -> tuple[int, ...]:
    return (values[0] + by, *values[1:])


def other_suit_while_following(state: GameState, play: CardPlayed) -> Card | None:
    hand = state.holdings[play.seat]
    if not state.trick or suit_of(play.card) != suit_of(state.trick[0]):
        return None
    return next((c for c in hand if suit_of(c) != suit_of(play.card)), None)


def discard_instead_of_trumping(state: GameState, play: CardPlayed) -> Card | None:
    if not state.trick or state.trump_card is None:
        return None
    trump, led = suit_of(state.trump_card), suit_of(state.trick[0])
    if suit_of(play.card) != trump or trump == led:
        return None
    return next((c for c in state.holdings[play.seat] if suit_of(c) != trump), None)


def card_of_the_next_seat(state: GameState, play: CardPlayed) -> Card | None:
    return state.holdings[(play.seat + 1) % state.player_count][0]


def forbidden_dealer_bid(events: Log) -> Log:
    cards, dealer, total = 0, -1, 0
    for index, event in enumerate(events):
        if isinstance(event, HandDealt):
            cards, dealer, total = event.cards, event.dealer, 0
        elif isinstance(event, BidPlaced) and event.seat != dealer:
            total += event.bid
        elif isinstance(event, BidPlaced) and total <= cards:
            return swap_in(events, index, replace(event, bid=cards - total))
    raise LookupError("no dealer bid to tamper with")


def bids_out_of_turn(events: Log) -> Log:
    first = next(i for i, e in enumerate(events) if isinstance(e, BidPlaced))
    return [*events[:first], events[first + 1], events[first], *events[first + 2 :]]


def late_zero_play(events: Log) -> Log:
    first_deal = next(i for i, e in enumerate(events) if isinstance(e, HandDealt))
    announcement = ZeroPlayAnnounced(seat=0, hands_dealt=1)
    return [*events[: first_deal + 1], announcement, *events[first_deal + 1 :]]


def duplicate_a_card(deal: HandDealt) -> HandDealt:
    first, second, *others = deal.hands
    return replace(deal, hands=(first, (first[0], *second[1:]), *others))


TAMPERINGS: dict[str, tuple[Callable[[Log], Log], str]] = {
    "dealer skipped": (
        change_first(HandDealt, lambda e: replace(e, dealer=(e.dealer + 1) % TAMPER_PLAYERS)),
        "the deal rotates clockwise",
    ),
    "card dealt twice": (change_first(HandDealt, duplicate_a_card), "a card was dealt twice"),
    "trump card also dealt": (
        change_first(
            HandDealt, lambda e: replace(e, trump_card=e.hands[0][0]) if e.trump_card else None
        ),
        "the trump card was also dealt",
    ),
    "trump in a no-trump hand": (
        change_first(
            HandDealt, lambda e: replace(e, trump_card=e.hands[0][0]) if e.cards == 8 else None
        ),
        "no trump when every card is dealt",
    ),
    "bid out of turn": (bids_out_of_turn, "bids go clockwise"),
    "bid above the cards": (
        change_first(BidPlaced, lambda e: replace(e, bid=9)),
        "a bid is between 0 and the cards dealt",
    ),
    "forbidden dealer bid": (forbidden_dealer_bid, "the bids add up to the cards dealt"),
    "card not in hand": (change_first_play(card_of_the_next_seat), "is not in seat"),
    "revoke": (change_first_play(other_suit_while_following), "must follow suit"),
    "discard instead of trumping": (
        change_first_play(discard_instead_of_trumping),
        "must trump when void",
    ),
    "trick to the wrong player": (
        change_first(TrickTaken, lambda e: replace(e, winner=(e.winner + 1) % TAMPER_PLAYERS)),
        "the trick went to the wrong player",
    ),
    "hand points": (
        change_first(HandScored, lambda e: replace(e, points=bump(e.points))),
        "wrong points for the hand",
    ),
    "streak points": (
        change_first(HandScored, lambda e: replace(e, streak_points=bump(e.streak_points, 10))),
        "wrong streak bonus or penalty",
    ),
    "running totals": (
        change_first(HandScored, lambda e: replace(e, totals=bump(e.totals))),
        "wrong running totals",
    ),
    "final scores": (
        change_first(GameFinished, lambda e: replace(e, scores=bump(e.scores))),
        "the final scores are the last totals",
    ),
    "final places": (
        change_first(GameFinished, lambda e: replace(e, places=bump(e.places))),
        "wrong places",
    ),
    "late zero play": (late_zero_play, "zero play announced too late"),
    "unfinished game": (lambda events: events[:-1], "the game never finished"),
    "event after the end": (
        lambda events: [*events, events[-1]],
        "comes after the game finished",
    ),
}


def test_the_untouched_log_satisfies_the_referee() -> None:
    Referee(TAMPER_OPTIONS, TAMPER_PLAYERS).check(untouched_log())


@pytest.mark.parametrize(("tamper", "complaint"), TAMPERINGS.values(), ids=TAMPERINGS.keys())
def test_the_referee_rejects_a_log_that_breaks_a_rule(
    tamper: Callable[[Log], Log], complaint: str
) -> None:
    with pytest.raises(AssertionError, match=complaint):
        Referee(TAMPER_OPTIONS, TAMPER_PLAYERS).check(tamper(untouched_log()))
