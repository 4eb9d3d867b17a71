"""The sampling bot: deals the cards it cannot see many times, plays each deal
out, and makes the bid or plays the card with the best expected score.

What a seat knows (:class:`BotView`) narrows the deals it samples: the cards it
holds or sees, the cards played, the turned trump, the suits a player showed to
be void in by not following (and, where trumping is compulsory, not trumping),
and the bids: a deal in which a player's hand is far from what they bid is kept
less often than one that matches it. Each sampled deal is played to the end of
the hand by every seat with a fast policy that plays to make its bid exactly
(win cheaply while tricks are missing, duck otherwise). A candidate is scored
by the table's scoring and streak rules, less a share of the others' points, so
that an opponent who needs one trick is denied it when that costs nothing.

The levels differ in how many deals they sample; a
time budget per decision caps the work on a busy machine. Decisions depend only
on the view and the random generator given, so a seeded generator repeats them.
The evaluation (each candidate's :class:`Values`) is apart from the choice, so
that a game's review (:mod:`games.bots.analysis`) judges by the bot's own numbers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from math import exp
from typing import Generic, TypeVar

from games.bots.view import BotView
from games.rules import Card, Visibility
from games.rules.bidding import forbidden_bid
from games.rules.play import winning_index
from games.rules.scoring import hand_points

# How much a point of another player's counts against one of the bot's own.
SPITE = 0.4
# How far (in tricks) a sampled hand may be from its owner's bid and still be
# kept half as often as one that matches it.
BID_SPREAD = 0.8
# A sampled hand's chance of taking a trick with a card that many ranks below the
# top of its suit (the rest: the last value), by whether the suit is trumps.
_SIDE_CHANCE = (0.85, 0.45, 0.15, 0.05)
_TRUMP_CHANCE = (0.95, 0.8, 0.6, 0.45, 0.35)
# Attempts at dealing the unseen cards around the voids before ignoring them.
_DEAL_ATTEMPTS = 20

NO_TRUMP = -1

# A bid or a card.
_Candidate = TypeVar("_Candidate", bound=int)
_Key = TypeVar("_Key")


@dataclass(frozen=True, slots=True)
class Level:
    """How hard a sampling bot thinks.

    ``samples``: deals sampled per card played (``bid_samples`` per bid).
    ``budget``: seconds after which it stops sampling (None: never), having
    sampled at least ``min_samples``.
    """

    samples: int
    budget: float | None
    min_samples: int = 4
    # Deals sampled for a bid, where an exact bid is won or lost: more than
    # for a card, as a bid is made once per hand.
    bid_samples: int | None = None


@dataclass(frozen=True, slots=True)
class Values:
    """What a candidate is worth over ``samples`` sampled deals, as sums over them:
    ``value`` is what the bot maximizes (the seat's points less a share of the
    others', :data:`SPITE`); ``points`` and ``tricks`` are the seat's own."""

    samples: int
    value: float
    points: float
    tricks: float

    @property
    def mean_points(self) -> float:
        return self.points / self.samples if self.samples else 0.0

    @property
    def mean_tricks(self) -> float:
        return self.tricks / self.samples if self.samples else 0.0


def best(values: dict[_Candidate, Values]) -> _Candidate:
    """The candidate the bot chooses: the highest value; of equals, the lower bid
    or card, so that a tie always goes the same way."""
    return max(values, key=lambda candidate: (values[candidate].value, -candidate))


class SamplingBot:
    def __init__(self, name: str, level: Level) -> None:
        self.name = name
        self.level = level

    def choose_mode(self, view: BotView, rng: random.Random) -> Visibility:
        # Seeing its own card is worth more to the dealer, who bids last under
        # the forbidden-bid rule, than hiding the others' cards from it.
        return Visibility.OPEN

    def choose_bid(self, view: BotView, rng: random.Random) -> int:
        legal = view.legal_bids
        if len(legal) == 1:
            return legal[0]
        return best(self.bid_values(view, rng))

    def choose_card(self, view: BotView, rng: random.Random) -> Card:
        legal = view.legal_cards
        if len(legal) == 1:
            return legal[0]
        return best(self.card_values(view, rng))

    def bid_values(self, view: BotView, rng: random.Random) -> dict[int, Values]:
        """What each legal bid is worth to the seat, over the deals sampled: the one
        evaluation the bot bids by and a game's review compares a bid with."""
        legal = view.legal_bids
        table = _Table(view)
        tally = _Tally(legal)
        start = (view.dealer + 1) % view.player_count
        level = self.level
        count = level.samples if level.bid_samples is None else level.bid_samples
        deals = self._deals(view, table, rng, count)
        for hands, bids in deals:
            for bid in legal:
                bids[view.seat] = bid
                tricks = table.play_out([list(h) for h in hands], [], start, bids)
                tally.add(bid, table, bids, tricks)
        return tally.values(len(deals))

    def card_values(self, view: BotView, rng: random.Random) -> dict[Card, Values]:
        """What each legal card is worth to the seat, over the deals sampled (see
        :meth:`bid_values`)."""
        legal = view.legal_cards
        table = _Table(view)
        tally = _Tally(legal)
        seat, trick = view.seat, list(view.trick)
        deals = self._deals(view, table, rng, self.level.samples)
        for hands, bids in deals:
            for card in legal:
                copy = [list(h) for h in hands]
                copy[seat].remove(card)
                tricks = table.play_out(copy, [*trick, card], view.trick_leader, bids)
                tally.add(card, table, bids, tricks)
        return tally.values(len(deals))

    def hand_values(self, view: BotView, rng: random.Random) -> Values:
        """The seat's hand as the view shows it, played out from here by every seat
        with the fast policy, the bids not made guessed from the sampled hands (its
        own too): no candidate, the worth of the cards themselves."""
        table = _Table(view)
        tally = _Tally((None,))
        level = self.level
        count = level.samples if level.bid_samples is None else level.bid_samples
        deals = self._deals(view, table, rng, count)
        for hands, bids in deals:
            copy = [list(h) for h in hands]
            tricks = table.play_out(copy, list(view.trick), view.trick_leader, bids)
            tally.add(None, table, bids, tricks)
        return tally.values(len(deals))[None]

    def _deals(
        self, view: BotView, table: _Table, rng: random.Random, count: int
    ) -> list[tuple[list[list[int]], list[int]]]:
        """Sampled deals (each seat's cards) with every seat's bid, those not
        made yet guessed from the sampled hand; stops early past the budget."""
        level = self.level
        deadline = None if level.budget is None else time.perf_counter() + level.budget
        deals: list[tuple[list[list[int]], list[int]]] = []
        # Twice the deals wanted are drawn, and kept in proportion to how well
        # they match the bids made.
        candidates: list[tuple[float, list[list[int]]]] = []
        for _ in range(2 * count):
            hands = table.deal(rng)
            candidates.append((table.bid_weight(hands), hands))
        weights = [weight for weight, _ in candidates]
        picks = rng.choices(
            range(len(candidates)), weights=weights if sum(weights) > 0 else None, k=count
        )
        for number, pick in enumerate(picks):
            if (
                deadline is not None
                and number >= level.min_samples
                and time.perf_counter() > deadline
            ):
                break
            hands = candidates[pick][1]
            deals.append((hands, table.guess_bids(hands)))
        return deals


class _Tally(Generic[_Key]):
    """The sums of :class:`Values` per candidate, a play-out at a time."""

    def __init__(self, candidates: Sequence[_Key]) -> None:
        self.value = dict.fromkeys(candidates, 0.0)
        self.points = dict.fromkeys(candidates, 0.0)
        self.tricks = dict.fromkeys(candidates, 0)

    def add(
        self, candidate: _Key, table: _Table, bids: Sequence[int], tricks: Sequence[int]
    ) -> None:
        seat = table.seat
        self.value[candidate] += table.value(bids, tricks)
        self.points[candidate] += table.points[bids[seat]][tricks[seat]]
        self.tricks[candidate] += tricks[seat]

    def values(self, samples: int) -> dict[_Key, Values]:
        return {
            candidate: Values(samples, value, self.points[candidate], self.tricks[candidate])
            for candidate, value in self.value.items()
        }


class _Table:
    """What the seat knows, in plain ints for speed, and the play-out policy."""

    def __init__(self, view: BotView) -> None:
        n = view.player_count
        self.n, self.seat, self.cards = n, view.seat, view.cards
        self.trump = NO_TRUMP if view.trump is None else int(view.trump)
        self.must_trump = view.options.must_trump
        self.bids = view.bids
        self.dealer = view.dealer
        self.tricks = list(view.tricks)
        self.known: list[list[int] | None] = [
            None if cards is None else [int(c) for c in cards] for cards in view.holdings
        ]
        self.held = view.held
        self.pool = sorted(int(c) for c in view.unseen)
        self.hidden = [s for s in range(n) if self.known[s] is None]
        self.voids: list[set[int]] = [set() for _ in range(n)]
        self.played_by: list[list[int]] = [[] for _ in range(n)]
        self._read_play(view)
        # By suit, the hidden seats that may hold a card of it.
        self.allowed = [[s for s in self.hidden if suit not in self.voids[s]] for suit in range(4)]
        self.points = _points(view)
        self.plain = [
            [
                float(hand_points(view.options.scoring, bid, tricks, self.cards))
                for tricks in range(self.cards + 1)
            ]
            for bid in range(self.cards + 1)
        ]

    def _read_play(self, view: BotView) -> None:
        """Who played each card of the hand, and the voids that shows."""
        sequence, n = view.sequence, self.n
        if not sequence:
            return
        trump = None if self.trump == NO_TRUMP else self.trump
        leader = (view.dealer + 1) % n
        done = len(sequence) - len(view.trick)
        for start in range(0, done + len(view.trick), n):
            group = sequence[start : start + n]
            if start >= done and leader != view.trick_leader:
                return  # the caller's order does not match the table: ignore it
            led = group[0] >> 4
            for index, card in enumerate(group):
                seat = (leader + index) % n
                self.played_by[seat].append(card)
                suit = card >> 4
                if suit != led:
                    self.voids[seat].add(led)
                    if self.must_trump and trump is not None and suit != trump:
                        self.voids[seat].add(trump)
            if len(group) == n:
                leader = (leader + winning_index(group, trump)) % n

    def deal(self, rng: random.Random) -> list[list[int]]:
        """Each seat's cards: the known ones, and the unseen dealt at random
        around the voids shown (ignored when no deal fits them)."""
        hands = [[] if cards is None else list(cards) for cards in self.known]
        hidden, held = self.hidden, self.held
        pool = list(self.pool)
        constrained = any(self.voids[s] for s in hidden)
        for _ in range(_DEAL_ATTEMPTS if constrained else 0):
            dealt = self._deal_around_voids(pool, rng)
            if dealt is not None:
                for s in hidden:
                    hands[s] = sorted(dealt[s])
                return hands
        rng.shuffle(pool)
        at = 0
        for s in hidden:
            hands[s] = sorted(pool[at : at + held[s]])
            at += held[s]
        return hands

    def _deal_around_voids(self, pool: list[int], rng: random.Random) -> list[list[int]] | None:
        rng.shuffle(pool)
        room = [self.held[s] if s in self.hidden else 0 for s in range(self.n)]
        spare = len(pool) - sum(room)
        dealt: list[list[int]] = [[] for _ in range(self.n)]
        allowed = self.allowed
        # The cards fewest seats may hold go first, so they are not left over.
        order = sorted(pool, key=lambda c: len(allowed[c >> 4]))
        for card in order:
            seats = [s for s in allowed[card >> 4] if room[s]]
            total = sum(room[s] for s in seats) + spare
            if not total:
                return None
            pick = rng.randrange(total)
            for s in seats:
                if pick < room[s]:
                    dealt[s].append(card)
                    room[s] -= 1
                    break
                pick -= room[s]
            else:
                spare -= 1
        return dealt

    def strength(self, cards: Sequence[int]) -> float:
        """The tricks a hand is worth at a glance, to weigh a sample by the bids."""
        trump = self.trump
        total = 0.0
        for card in cards:
            # How many ranks below the ace.
            below = 14 - (card & 15)
            table = _TRUMP_CHANCE if card >> 4 == trump else _SIDE_CHANCE
            total += table[min(below, len(table) - 1)]
        return total * (1.0 if self.cards > 1 else 0.8)

    def bid_weight(self, hands: list[list[int]]) -> float:
        weight = 0.0
        for s in self.hidden:
            bid = self.bids[s]
            if bid is None or s == self.seat:
                continue
            gap = self.strength(hands[s] + self.played_by[s]) - bid
            weight += gap * gap
        return exp(-0.69 * weight / (BID_SPREAD * BID_SPREAD))

    def guess_bids(self, hands: list[list[int]]) -> list[int]:
        """The bids made, and a guess at those to come from the sampled hands."""
        made = 0
        order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
        guessed = dict.fromkeys(range(self.n), 0)
        for s in order:
            bid = self.bids[s]
            if bid is None:
                bid = min(self.cards, round(self.strength(hands[s] + self.played_by[s])))
                if s == self.dealer and bid == forbidden_bid(self.cards, made):
                    bid = bid + 1 if bid < self.cards else bid - 1
            guessed[s] = bid
            made += bid
        return [guessed[s] for s in range(self.n)]

    def value(self, bids: Sequence[int], tricks: Sequence[int]) -> float:
        """The seat's points, less a share of the others' average."""
        seat, plain = self.seat, self.plain
        others = sum(plain[bids[s]][tricks[s]] for s in range(self.n) if s != seat)
        return self.points[bids[seat]][tricks[seat]] - SPITE * others / (self.n - 1)

    def play_out(
        self, hands: list[list[int]], trick: list[int], leader: int, bids: Sequence[int]
    ) -> list[int]:
        """The tricks each seat ends the hand with, every seat playing the fast
        policy from this position (``hands`` are used up)."""
        n, trump, must_trump = self.n, self.trump, self.must_trump
        tricks = list(self.tricks)
        policy = _policy
        while True:
            size = len(trick)
            turn = (leader + size) % n
            best_index, best = 0, trick[0] if trick else -1
            for index in range(1, size):
                if _beats(trick[index], best, trump):
                    best_index, best = index, trick[index]
            while size < n:
                hand = hands[turn]
                if len(hand) == 1:
                    card = hand.pop()
                else:
                    card = policy(
                        hand,
                        trick,
                        best,
                        size == n - 1,
                        tricks[turn] < bids[turn],
                        trump,
                        must_trump,
                    )
                    hand.remove(card)
                if not size or _beats(card, best, trump):
                    best, best_index = card, size
                trick.append(card)
                size += 1
                turn = turn + 1 if turn + 1 < n else 0
            winner = (leader + best_index) % n
            tricks[winner] += 1
            if not hands[winner]:
                return tricks
            leader, trick = winner, []


def _beats(card: int, best: int, trump: int) -> bool:
    if card >> 4 == best >> 4:
        return card > best
    return card >> 4 == trump


def _policy(
    hand: list[int],
    trick: list[int],
    best: int,
    last: bool,
    wants: bool,
    trump: int,
    must_trump: bool,
) -> int:
    """The fast policy's card: win cheaply while tricks are missing, else duck
    with the highest card that loses. (Plain loops rather than keyed min/max: this
    runs for every card of every play-out; the first of equals is kept.)"""
    if not trick:
        return _highest(hand, trump) if wants else _cheapest(hand, trump)
    led = trick[0] >> 4
    legal = [c for c in hand if c >> 4 == led]
    if not legal and must_trump and trump != NO_TRUMP:
        legal = [c for c in hand if c >> 4 == trump]
    if not legal:
        legal = hand
    if len(legal) == 1:
        return legal[0]
    best_suit = best >> 4
    trumped = best_suit == trump
    winners: list[int] = []
    losers: list[int] = []
    for c in legal:
        suit = c >> 4
        if (suit == best_suit and c > best) or (suit == trump and not trumped):
            winners.append(c)
        else:
            losers.append(c)
    if wants:
        if winners:
            return min(winners) if last else max(winners)
        return _cheapest(legal, trump)
    if losers:
        return _highest(losers, trump)
    return max(winners) if last else min(winners)


def _highest(cards: list[int], trump: int) -> int:
    """The highest rank, a side suit before trumps."""
    chosen, top = cards[0], -1
    for c in cards:
        key = (c & 15) * 2 + (c >> 4 != trump)
        if key > top:
            chosen, top = c, key
    return chosen


def _cheapest(cards: list[int], trump: int) -> int:
    """The lowest rank of a side suit, else the lowest trump."""
    chosen, low = cards[0], 99
    for c in cards:
        key = (c & 15) + (16 if c >> 4 == trump else 0)
        if key < low:
            chosen, low = c, key
    return chosen


def _points(view: BotView) -> list[list[float]]:
    """The seat's points by bid and tricks taken, streak bonus or penalty included."""
    options, cards, seat = view.options, view.cards, view.seat
    counts = cards > 1 or options.streaks_count_one_card_deals
    hits = view.hits[seat] if view.hits else 0
    misses = view.misses[seat] if view.misses else 0
    bonus = options.streak_bonus
    penalty = options.streak_penalty
    table: list[list[float]] = []
    for bid in range(cards + 1):
        row: list[float] = []
        for tricks in range(cards + 1):
            points = float(hand_points(options.scoring, bid, tricks, cards))
            if counts and bid == tricks and bonus is not None and hits + 1 == bonus.length:
                points += bonus.points
            if counts and bid != tricks and penalty is not None and misses + 1 == penalty.length:
                points += penalty.points
            row.append(points)
        table.append(row)
    return table


LEVELS = {
    "medium": Level(samples=6, budget=0.02, min_samples=2, bid_samples=10),
    "strong": Level(samples=96, budget=0.25, min_samples=8, bid_samples=256),
}
