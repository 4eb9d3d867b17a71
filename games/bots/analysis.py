"""A finished game reviewed by the strong bot: each bid and card compared with what
the bot would have done from the same seat, seeing what that seat saw, and each
seat's luck in the cards it was dealt.

The review walks the game's rule events, folding the state as
:func:`games.rules.apply` does. At each bid and card a player chose, it builds the
acting seat's :class:`BotView` from the state before it, as a bot playing the
seat live gets it, and has the sampling bot evaluate every legal choice
(:meth:`SamplingBot.bid_values`, :meth:`SamplingBot.card_values`): the bot's
choice is the ``best``, and a decision's ``loss`` is the seat's own expected
points given up by deciding otherwise. Each decision draws from its own
generator, seeded from the review's seed and the decision's place in the game,
so a review repeats exactly and does not depend on the order it is computed in.

    review = review_game(events, seed=str(game_id))
    json.dumps(review.as_dict())
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

from games.bots.sampling import LEVELS, Level, SamplingBot, Values, best
from games.bots.view import BotView, bot_view
from games.rules import (
    BidPlaced,
    Card,
    CardPlayed,
    Event,
    GameStarted,
    GameState,
    HandDealt,
    HandScored,
    Visibility,
    evolve,
    parse_card,
)

# The strong level's samples, with no time budget: a review must not depend on how
# busy the machine was when it ran.
ANALYSIS: Level = replace(LEVELS["strong"], budget=None)
# A decision is flagged as a mistake when it costs at least this many expected points.
FLAG_POINTS = 1.0
VERSION = 1

# A bid or a card.
_Choice = TypeVar("_Choice", bound=int)


@dataclass(frozen=True, slots=True)
class BidReview:
    seat: int
    bid: int
    # The bot's bid (by its own measure, a share of the others' points included).
    best: int
    # The seat's own expected points for each legal bid, in the order of the bids.
    expected: tuple[tuple[int, float], ...]
    loss: float
    flagged: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bid": self.bid,
            "best": self.best,
            "expected": {str(bid): points for bid, points in self.expected},
            "loss": self.loss,
            "flagged": self.flagged,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BidReview:
        return cls(
            seat=data["seat"],
            bid=data["bid"],
            best=data["best"],
            expected=tuple((int(bid), points) for bid, points in data["expected"].items()),
            loss=data["loss"],
            flagged=data["flagged"],
        )


@dataclass(frozen=True, slots=True)
class PlayReview:
    seat: int
    # The trick's number within the hand, from 0.
    trick: int
    card: Card
    best: Card
    # The seat's own expected points for each legal card, in the order of the cards.
    expected: tuple[tuple[Card, float], ...]
    loss: float
    flagged: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "trick": self.trick,
            "card": str(self.card),
            "best": str(self.best),
            "expected": {str(card): points for card, points in self.expected},
            "loss": self.loss,
            "flagged": self.flagged,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlayReview:
        return cls(
            seat=data["seat"],
            trick=data["trick"],
            card=parse_card(data["card"]),
            best=parse_card(data["best"]),
            expected=tuple((parse_card(card), points) for card, points in data["expected"].items()),
            loss=data["loss"],
            flagged=data["flagged"],
        )


@dataclass(frozen=True, slots=True)
class HandReview:
    hand: int
    cards: int
    dealer: int
    # By seat: the tricks its cards were worth, less the table's average.
    luck: tuple[float, ...]
    # By seat: the points its cards were worth played plainly, less the table's average.
    luck_points: tuple[float, ...]
    # In the order made; a decision with one legal choice is not listed.
    bids: tuple[BidReview, ...]
    plays: tuple[PlayReview, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "cards": self.cards,
            "dealer": self.dealer,
            "luck": list(self.luck),
            "luck_points": list(self.luck_points),
            "bids": [bid.as_dict() for bid in self.bids],
            "plays": [play.as_dict() for play in self.plays],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandReview:
        return cls(
            hand=data["hand"],
            cards=data["cards"],
            dealer=data["dealer"],
            luck=tuple(data["luck"]),
            luck_points=tuple(data["luck_points"]),
            bids=tuple(BidReview.from_dict(bid) for bid in data["bids"]),
            plays=tuple(PlayReview.from_dict(play) for play in data["plays"]),
        )


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    # The seat's luck over the hands reviewed (sums of the hands' luck).
    luck_tricks: float
    luck_points: float
    # Minus the sum of the losses of the seat's bids and cards.
    decision_points: float
    # Of the hands reviewed and scored, those in which the seat made its bid exactly.
    exact_bids: int
    hands: int
    # Flagged decisions.
    bid_mistakes: int
    play_mistakes: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "luck_tricks": self.luck_tricks,
            "luck_points": self.luck_points,
            "decision_points": self.decision_points,
            "exact_bids": self.exact_bids,
            "hands": self.hands,
            "mistakes": {"bid": self.bid_mistakes, "play": self.play_mistakes},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatSummary:
        return cls(
            seat=data["seat"],
            luck_tricks=data["luck_tricks"],
            luck_points=data["luck_points"],
            decision_points=data["decision_points"],
            exact_bids=data["exact_bids"],
            hands=data["hands"],
            bid_mistakes=data["mistakes"]["bid"],
            play_mistakes=data["mistakes"]["play"],
        )


@dataclass(frozen=True, slots=True)
class GameReview:
    players: int
    hands: tuple[HandReview, ...]
    summary: tuple[SeatSummary, ...]
    version: int = VERSION

    def as_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data: points rounded to hundredths, cards in the
        compact notation."""
        return {
            "version": self.version,
            "players": self.players,
            "hands": [hand.as_dict() for hand in self.hands],
            "summary": [seat.as_dict() for seat in self.summary],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameReview:
        """The review :meth:`as_dict` wrote. Raises ValueError for another version."""
        if data["version"] != VERSION:
            raise ValueError(f"review version {data['version']!r}, this code reads {VERSION}")
        return cls(
            players=data["players"],
            hands=tuple(HandReview.from_dict(hand) for hand in data["hands"]),
            summary=tuple(SeatSummary.from_dict(seat) for seat in data["summary"]),
        )


def review_game(events: Sequence[Event], *, seed: str, level: Level = ANALYSIS) -> GameReview:
    """The review of the game whose rule events (in log order) are ``events``.

    A game unfinished is reviewed as far as it went. ``seed`` makes the review
    repeatable: the same events and seed give the same review.
    """
    bot = SamplingBot("analysis", level)
    hands: list[_Hand] = []
    for step in _walk(events):
        if isinstance(step, Decision):
            hands[-1].judge(bot, step, seed)
        elif isinstance(step, _Dealt):
            hands.append(_Hand(step.hand, step.cards, step.dealer, _luck(bot, step, seed)))
        elif hands and hands[-1].hand == step.hand:
            # (A recorded deal scored again after a correction was never reviewed.)
            hands[-1].exact = tuple(b == t for b, t in zip(step.bids, step.tricks, strict=True))
    players = next((e.player_count for e in events if isinstance(e, GameStarted)), 0)
    reviewed = tuple(hand.reviewed() for hand in hands)
    scored = [hand.exact for hand in hands if hand.exact is not None]
    summary = tuple(_summary(seat, reviewed, scored) for seat in range(players))
    return GameReview(players=players, hands=reviewed, summary=summary)


@dataclass(frozen=True, slots=True)
class Decision:
    """A bid or card a player chose, and the view of the seat it was chosen from (as
    a bot playing the seat would have been given it)."""

    hand: int
    seat: int
    kind: Literal["bid", "play"]
    # A card's trick within the hand; 0 for a bid.
    index: int
    view: BotView
    # The bid, or the card.
    chosen: int

    def rng(self, seed: str) -> random.Random:
        """The decision's own generator in the review seeded ``seed``."""
        return _rng(seed, self.hand, self.seat, self.kind, self.index)


def decisions(events: Sequence[Event]) -> Iterator[Decision]:
    """The decisions a review of the game evaluates, in order: every bid and card a
    seat chose among more than one (a bid a special hand forces, a card played
    unseen on the forehead and a single legal choice are none)."""
    return (step for step in _walk(events) if isinstance(step, Decision))


@dataclass(frozen=True, slots=True)
class _Dealt:
    """A hand dealt, and each seat's view of its own cards before any bid is chosen."""

    hand: int
    cards: int
    dealer: int
    views: tuple[BotView, ...]


def _walk(events: Sequence[Event]) -> Iterator[_Dealt | Decision | HandScored]:
    """The game's hands, decisions and scores, folding ``events`` in order."""
    state = GameState()
    # The cards played so far in the hand, in order: what a bot playing live is
    # given with the state (games.table.Table.played).
    played: list[Card] = []
    dealt = False
    for event in events:
        # Luck is the cards' as dealt, before any bid a player chose: the bids a zero
        # or eight bid hand forces come with the deal.
        forced = isinstance(event, BidPlaced) and event.forced
        if dealt and not forced:
            dealt = False
            yield _dealt(state)
        if isinstance(event, BidPlaced) and not forced:
            view = bot_view(state, event.seat, played)
            if len(view.legal_bids) > 1:
                yield Decision(state.hand, event.seat, "bid", 0, view, event.bid)
        elif isinstance(event, CardPlayed):
            view = bot_view(state, event.seat, played)
            # On the forehead the one card is played unseen: there is no choice.
            if view.own is not None and len(view.legal_cards) > 1:
                trick = state.trick_number
                yield Decision(state.hand, event.seat, "play", trick, view, event.card)
        state = evolve(state, [event], in_place=True)
        if isinstance(event, HandDealt):
            played.clear()
            dealt = True
        elif isinstance(event, CardPlayed):
            played.append(event.card)
        elif isinstance(event, HandScored):
            yield event
    if dealt:
        yield _dealt(state)


def _dealt(state: GameState) -> _Dealt:
    """Each seat's cards seen open, whether the hand is played open, blind or on the
    forehead: it is the cards that are valued, not a decision. And no run of exact
    or missed bids behind any seat: a streak is not luck."""
    n = state.player_count
    views = tuple(
        bot_view(
            replace(state, visibility=Visibility.OPEN, turn=seat, hits=(0,) * n, misses=(0,) * n),
            seat,
            (),
        )
        for seat in range(n)
    )
    return _Dealt(state.hand, state.cards, state.dealer, views)


def _luck(
    bot: SamplingBot, dealt: _Dealt, seed: str
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """By seat, the tricks and the points its cards are worth played out by the fast
    policy, every bid guessed, less the table's average of each."""
    values = [
        bot.hand_values(view, _rng(seed, dealt.hand, seat, "luck", 0))
        for seat, view in enumerate(dealt.views)
    ]
    tricks = [value.mean_tricks for value in values]
    points = [value.mean_points for value in values]
    n = len(values)
    return (
        tuple(_rounded(t - sum(tricks) / n) for t in tricks),
        tuple(_rounded(p - sum(points) / n) for p in points),
    )


def _rng(seed: str, hand: int, seat: int, kind: str, index: int) -> random.Random:
    text = f"{seed}:{hand}:{seat}:{kind}:{index}"
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest(), "big"))


@dataclass
class _Hand:
    """A hand's review while the game is walked."""

    hand: int
    cards: int
    dealer: int
    luck: tuple[tuple[float, ...], tuple[float, ...]]
    bids: list[BidReview] = field(default_factory=list)
    plays: list[PlayReview] = field(default_factory=list)
    # By seat, once the hand is scored: whether the seat made its bid exactly.
    exact: tuple[bool, ...] | None = None

    def judge(self, bot: SamplingBot, decision: Decision, seed: str) -> None:
        view, rng, seat = decision.view, decision.rng(seed), decision.seat
        if decision.kind == "bid":
            bids = bot.bid_values(view, rng)
            expected, loss = _judged(bids, decision.chosen)
            flagged = loss >= FLAG_POINTS
            self.bids.append(BidReview(seat, decision.chosen, best(bids), expected, loss, flagged))
            return
        cards = bot.card_values(view, rng)
        card = Card(decision.chosen)
        expected_cards, loss = _judged(cards, card)
        self.plays.append(
            PlayReview(
                seat,
                decision.index,
                card,
                best(cards),
                expected_cards,
                loss,
                loss >= FLAG_POINTS,
            )
        )

    def reviewed(self) -> HandReview:
        return HandReview(
            self.hand,
            self.cards,
            self.dealer,
            self.luck[0],
            self.luck[1],
            tuple(self.bids),
            tuple(self.plays),
        )


def _summary(
    seat: int, hands: Sequence[HandReview], scored: Sequence[tuple[bool, ...]]
) -> SeatSummary:
    bids = [bid for hand in hands for bid in hand.bids if bid.seat == seat]
    plays = [play for hand in hands for play in hand.plays if play.seat == seat]
    return SeatSummary(
        seat=seat,
        luck_tricks=_rounded(sum(hand.luck[seat] for hand in hands)),
        luck_points=_rounded(sum(hand.luck_points[seat] for hand in hands)),
        decision_points=_rounded(-sum(bid.loss for bid in bids) - sum(p.loss for p in plays)),
        exact_bids=sum(exact[seat] for exact in scored),
        hands=len(scored),
        bid_mistakes=sum(bid.flagged for bid in bids),
        play_mistakes=sum(play.flagged for play in plays),
    )


def _judged(
    values: dict[_Choice, Values], chosen: _Choice
) -> tuple[tuple[tuple[_Choice, float], ...], float]:
    """Each candidate's expected points for the seat, and what ``chosen`` gave up
    against the bot's choice."""
    expected = tuple(
        (candidate, _rounded(value.mean_points)) for candidate, value in values.items()
    )
    points = dict(expected)
    return expected, _rounded(max(0.0, points[best(values)] - points[chosen]))


def _rounded(number: float) -> float:
    # Adding 0.0 turns a rounded -0.0 into 0.0.
    return round(number, 2) + 0.0
