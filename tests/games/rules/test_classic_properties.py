"""Property tests for classic Whist: random legal matches under every option
combination, each checked by a referee that recomputes the rules from the
events alone (and the deal secrets), never through the engine's helpers.

The referee checks the deal (the documented shuffle of the 52-card pack, 13
each from the dealer's left, the dealer's last card turned or the fixed
rotation), the dealer's rotation, the order of play, following suit, who wins
each trick, 13 tricks a hand with each card played once, odd tricks, honours and
their exceptions, game, rubber and tournament ends. Then the log is replayed
(``replay``, a fold of ``apply``, the states recorded while playing) and every
event round-trips through JSON. Examples are derandomized for a stable suite.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.cards import Card, parse_card
from games.rules.classic import (
    CardPlayed,
    ClassicEvent,
    ClassicOptions,
    ClassicState,
    Command,
    DealHand,
    GameWon,
    HandDealt,
    HandScored,
    MatchFinished,
    MatchStarted,
    Phase,
    PlayCard,
    StartMatch,
    TrickTaken,
    TrumpMethod,
    apply,
    decide,
    event_type,
    evolve,
    from_payload,
    legal_plays,
    replay,
    to_payload,
    visible_hands,
)
from games.rules.shuffle import derive_secret
from tests.games.rules.test_shuffle import documented_shuffle

SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PACK = [rank + suit for suit in SUITS for rank in RANKS]
STRENGTH = {name: RANKS.index(name[:-1]) for name in PACK}


def suit_of(card: Card) -> str:
    return str(card)[-1]


def trick_winner(cards: Sequence[Card], trump: str | None) -> int:
    """Position of the highest trump, else of the highest card of the suit led."""
    for wanted in (trump, suit_of(cards[0])):
        contenders = [
            (STRENGTH[str(c)], pos) for pos, c in enumerate(cards) if suit_of(c) == wanted
        ]
        if contenders:
            return max(contenders)[1]
    raise AssertionError("the suit led is always in its trick")


def rotation_trump(options: ClassicOptions, hand: int) -> str | None:
    if options.no_trump_every_fifth:
        return "HDSC "[hand % 5].strip() or None
    return "HDSC"[hand % 4]


# Every valid combination of options: 3 ways to choose trumps, honours or not,
# one game or a rubber to 5, 7 or 9, or a tournament of a few deals.
TRUMPS = (
    {"trumps": TrumpMethod.TURNED},
    {"trumps": TrumpMethod.ROTATION},
    {"trumps": TrumpMethod.ROTATION, "no_trump_every_fifth": True},
)
COMBINATIONS = tuple(
    [
        ClassicOptions(**trumps, honours=honours, target=target, rubber=rubber)
        for trumps in TRUMPS
        for honours in (False, True)
        for target in (5, 7, 9)
        for rubber in (False, True)
    ]
    + [ClassicOptions(**trumps, deals=deals) for trumps in TRUMPS for deals in (1, 6)]
)

FEATURES = frozenset(
    {
        "trick trumped",
        "discard while holding trumps",
        "no-trump hand",
        "four honours scored",
        "three honours scored",
        "honours barred one point short",
        "honours barred by tricks reaching game",
        "game won by honours",
        "rubber in two games",
        "rubber in three games",
        "tied tournament",
    }
)


@dataclass
class Played:
    events: list[ClassicEvent]
    secrets: list[bytes]
    # The state after each command, with the number of events so far.
    states: list[tuple[int, ClassicState]]


def play_random_match(options: ClassicOptions, seed: bytes) -> Played:
    rng = random.Random(seed)
    state = ClassicState()
    events: list[ClassicEvent] = []
    secrets: list[bytes] = []
    states: list[tuple[int, ClassicState]] = []
    command: Command = StartMatch(options, seed)
    for _ in range(100_000):
        new = decide(state, command)
        events.extend(new)
        state = evolve(state, new)
        states.append((len(events), state))
        if state.phase is Phase.FINISHED:
            return Played(events, secrets, states)
        if state.phase is Phase.DEALING:
            secrets.append(derive_secret(seed, f"hand-{state.hand}"))
            command = DealHand(secrets[-1])
        else:
            command = PlayCard(state.turn, rng.choice(legal_plays(state)))
    raise AssertionError("the match never finished")


class Referee:
    def __init__(self, options: ClassicOptions, secrets: Sequence[bytes]) -> None:
        self.options, self.secrets = options, secrets
        self.stage = "start"
        self.seen: set[str] = set()
        self.first_dealer = 0
        self.hand = 0
        self.game = 0
        self.scores = [0, 0]
        self.points = [0, 0]
        self.games = [0, 0]
        self.finished = False

    def check(self, events: Sequence[ClassicEvent]) -> None:
        for event in events:
            assert not self.finished, "an event after the match finished"
            self.step(event)
        assert self.finished, "the match never finished"
        assert self.hand == len(self.secrets), "a deal was never played"

    def step(self, event: ClassicEvent) -> None:
        match event:
            case MatchStarted():
                assert self.stage == "start"
                assert event.options == self.options
                assert 0 <= event.first_dealer < 4
                self.first_dealer = event.first_dealer
                self.stage = "deal"
            case HandDealt():
                self.dealt(event)
            case CardPlayed():
                self.played(event)
            case TrickTaken():
                self.taken(event)
            case HandScored():
                self.scored(event)
            case GameWon():
                self.game_won(event)
            case MatchFinished():
                self.match_finished(event)

    def dealt(self, event: HandDealt) -> None:
        assert self.stage == "deal", "a hand is dealt once the last is scored"
        dealer = (self.first_dealer + self.hand) % 4
        assert event.hand == self.hand and event.dealer == dealer, "the deal rotates clockwise"
        order = documented_shuffle(PACK, self.secrets[self.hand])
        for seat in range(4):
            expected = sorted(order[(seat - dealer - 1) % 4 :: 4], key=PACK.index)
            assert [str(c) for c in event.hands[seat]] == expected, "dealt from the dealer's left"
        if self.options.trumps is TrumpMethod.TURNED:
            assert str(event.trump_card) == order[51], "the dealer's last card is turned"
            self.trump: str | None = order[51][-1]
        else:
            assert event.trump_card is None
            self.trump = rotation_trump(self.options, self.hand)
        trump = None if event.trump is None else event.trump.letter
        assert trump == self.trump, "wrong trump suit"
        if self.trump is None:
            self.seen.add("no-trump hand")
        self.holdings = [set(hand) for hand in event.hands]
        self.dealt_hands = event.hands
        self.played_cards: list[Card] = []
        self.turn = self.leader = (dealer + 1) % 4
        self.trick: list[Card] = []
        self.trick_number = 0
        self.tricks = [0, 0]
        self.stage = "play"

    def played(self, event: CardPlayed) -> None:
        assert self.stage == "play" and event.hand == self.hand
        assert event.seat == self.turn, "play goes clockwise from the leader"
        holding = self.holdings[event.seat]
        assert event.card in holding, "the card is in the player's hand"
        if self.trick:
            led = suit_of(self.trick[0])
            suits = {suit_of(c) for c in holding}
            if led in suits:
                assert suit_of(event.card) == led, "must follow suit"
            elif self.trump in suits and suit_of(event.card) != self.trump:
                self.seen.add("discard while holding trumps")
        holding.remove(event.card)
        self.played_cards.append(event.card)
        self.trick.append(event.card)
        self.turn = (event.seat + 1) % 4
        if len(self.trick) == 4:
            self.stage = "trick"

    def taken(self, event: TrickTaken) -> None:
        assert self.stage == "trick"
        assert event.trick == self.trick_number and event.leader == self.leader
        assert event.cards == tuple(self.trick)
        position = trick_winner(self.trick, self.trump)
        winner = (self.leader + position) % 4
        assert event.winner == winner, "the trick went to the wrong player"
        if suit_of(self.trick[position]) != suit_of(self.trick[0]):
            self.seen.add("trick trumped")
        self.tricks[winner % 2] += 1
        self.turn = self.leader = winner
        self.trick = []
        self.trick_number += 1
        self.stage = "play"
        if self.trick_number == 13:
            assert not any(self.holdings), "every card is played"
            assert len(set(self.played_cards)) == 52, "each card is played once"
            self.stage = "score"

    def scored(self, event: HandScored) -> None:
        assert self.stage == "score", "a hand is scored after its 13 tricks"
        assert event.tricks == tuple(self.tricks) and sum(event.tricks) == 13
        taker = 0 if self.tricks[0] > self.tricks[1] else 1
        trick_points = [0, 0]
        trick_points[taker] = self.tricks[taker] - 6
        assert event.trick_points == tuple(trick_points), "one point per odd trick"
        honours = [0, 0]
        if self.trump is not None:
            for seat, hand in enumerate(self.dealt_hands):
                honours[seat % 2] += sum(
                    1 for c in hand if suit_of(c) == self.trump and str(c)[:-1] in "AKQJ"
                )
        assert event.honours == tuple(honours)
        target = self.options.target
        honour_points = [0, 0]
        if self.options.honours:
            for team in (0, 1):
                value = {4: 4, 3: 2}.get(honours[team], 0)
                if not value:
                    continue
                if self.scores[team] == target - 1:
                    self.seen.add("honours barred one point short")
                elif self.scores[taker] + trick_points[taker] >= target:
                    self.seen.add("honours barred by tricks reaching game")
                else:
                    honour_points[team] = value
                    self.seen.add("four honours scored" if value == 4 else "three honours scored")
        assert event.honour_points == tuple(honour_points), "wrong honours"
        for team in (0, 1):
            self.scores[team] += trick_points[team] + honour_points[team]
            self.points[team] += trick_points[team] + honour_points[team]
        assert event.totals == tuple(self.scores), "wrong running totals"
        self.hand += 1
        self.last_honours = honour_points
        tournament = self.options.deals is not None
        if tournament:
            assert max(self.scores) <= 7 * self.hand
            self.stage = "over" if self.hand == self.options.deals else "deal"
        elif max(self.scores) >= target:
            self.stage = "game"
        else:
            self.stage = "deal"

    def game_won(self, event: GameWon) -> None:
        assert self.stage == "game", "a game is won when a side reaches its target"
        team = 0 if self.scores[0] >= self.options.target else 1
        assert self.scores[1 - team] < self.options.target, "only one side reaches game"
        assert event.game == self.game and event.side == team
        assert event.scores == tuple(self.scores)
        if (
            self.last_honours[team]
            and self.scores[team] - self.last_honours[team] < self.options.target
        ):
            self.seen.add("game won by honours")
        self.games[team] += 1
        assert event.games == tuple(self.games)
        self.game += 1
        self.scores = [0, 0]
        needed = 2 if self.options.rubber else 1
        self.stage = "over" if self.games[team] == needed else "deal"

    def match_finished(self, event: MatchFinished) -> None:
        assert self.stage == "over", "the match ends after its last game or deal"
        assert event.points == tuple(self.points) and event.games == tuple(self.games)
        if self.options.deals is not None:
            assert self.points == self.scores, "a tournament scores its odd tricks"
            a, b = self.points
            assert event.winner == (None if a == b else (0 if a > b else 1))
            if a == b:
                self.seen.add("tied tournament")
        else:
            assert event.winner is not None and self.games[event.winner] == max(self.games)
            assert self.game <= (3 if self.options.rubber else 1), "a rubber is best of three"
            if self.options.rubber:
                self.seen.add(f"rubber in {'two' if self.game == 2 else 'three'} games")
        self.finished = True


def check_random_match(options: ClassicOptions, seed: bytes) -> Referee:
    played = play_random_match(options, seed)
    referee = Referee(options, played.secrets)
    referee.check(played.events)

    final = played.states[-1][1]
    assert replay(played.events) == final, "replay gives the state played"
    folded = ClassicState()
    for event in played.events:
        folded = apply(folded, event)
    assert folded == final
    # Every state recorded while playing is the fold of the events up to it.
    state, done = ClassicState(), 0
    for count, recorded in played.states:
        state = evolve(state, played.events[done:count])
        done = count
        assert state == recorded, "a recorded state differs from the fold of its events"

    for event in played.events:
        text = json.dumps(to_payload(event))
        assert from_payload(event_type(event), json.loads(text)) == event, "JSON round trip"

    # The partnership scores match the tricks; seats share their side's score.
    assert final.seat_points == (*final.points, *final.points)
    assert final.points == tuple(
        sum(r.trick_points[t] + r.honour_points[t] for r in final.results) for t in (0, 1)
    )
    # The state keeps each hand's trump, as dealt.
    assert final.trumps == tuple(e.trump for e in played.events if isinstance(e, HandDealt))
    assert len(final.trumps) == len(final.results)
    return referee


def check_turned_trump_visibility(options: ClassicOptions, seed: bytes) -> None:
    """The turned trump is visible to everyone until the dealer plays to the first trick."""
    played = play_random_match(options, seed)
    for _, state in played.states:
        if state.phase is not Phase.PLAYING:
            continue
        dealer = state.dealer
        dealer_played = state.trick_number > 0 or (
            len(state.trick) > (dealer - state.trick_leader) % 4
        )
        for viewer in (None, 0, 1, 2, 3):
            view = visible_hands(state, viewer)
            for seat in range(4):
                if seat == viewer:
                    assert view[seat] == state.holdings[seat]
                elif seat == dealer and not dealer_played and state.trump_card is not None:
                    assert view[seat] == (state.trump_card,)
                else:
                    assert view[seat] == ()


@settings(max_examples=400, deadline=None, derandomize=True)
@given(options=st.sampled_from(COMBINATIONS), seed=st.binary(min_size=1, max_size=8))
def test_random_legal_matches_keep_every_rule(options: ClassicOptions, seed: bytes) -> None:
    check_random_match(options, seed)


@pytest.mark.parametrize("options", COMBINATIONS, ids=lambda o: str(o.to_dict()))
def test_every_option_combination_plays_to_a_valid_end(options: ClassicOptions) -> None:
    check_random_match(options, b"combination")


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.binary(min_size=1, max_size=8))
def test_the_turned_trump_stays_visible_until_the_dealer_plays(seed: bytes) -> None:
    check_turned_trump_visibility(ClassicOptions(rubber=True), seed)


def test_random_matches_reach_every_situation_the_referee_checks() -> None:
    seen: set[str] = set()
    for number in range(300):
        for options in COMBINATIONS:
            seen |= check_random_match(options, b"cover %d" % number).seen
        if seen >= FEATURES:
            break
    assert not FEATURES - seen, f"never reached: {sorted(FEATURES - seen)}"


def test_the_referee_notices_a_misdirected_trick() -> None:
    played = play_random_match(ClassicOptions(), b"tamper")
    index = next(i for i, e in enumerate(played.events) if isinstance(e, TrickTaken))
    trick = played.events[index]
    assert isinstance(trick, TrickTaken)
    events = list(played.events)
    events[index] = replace(trick, winner=(trick.winner + 1) % 4)
    with pytest.raises(AssertionError, match="the trick went to the wrong player"):
        Referee(ClassicOptions(), played.secrets).check(events)


def test_the_referee_notices_wrong_honours() -> None:
    options = ClassicOptions(honours=True)
    played = play_random_match(options, b"tamper")
    index = next(i for i, e in enumerate(played.events) if isinstance(e, HandScored))
    scored = played.events[index]
    assert isinstance(scored, HandScored)
    events = list(played.events)
    events[index] = replace(scored, honour_points=(scored.honour_points[0] + 2, 0))
    with pytest.raises(AssertionError, match="wrong honours"):
        Referee(options, played.secrets).check(events)


def test_the_referee_reads_cards_by_name() -> None:
    assert trick_winner([parse_card(c) for c in ("10C", "2H", "AC", "3H")], "H") == 3
    assert trick_winner([parse_card(c) for c in ("10C", "2S", "AC", "3D")], "H") == 2
