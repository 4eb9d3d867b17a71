"""Scoring: points for a hand, streak bonuses and penalties, the final ranking."""

from __future__ import annotations

from collections.abc import Sequence

from games.rules.events import GameFinished, HandScored
from games.rules.options import RuleOptions, Scoring


def hand_points(scoring: Scoring, bid: int, tricks: int, cards: int) -> int:
    """Points for one player's hand: a reward for an exact bid, else a loss
    that grows with the difference."""
    difference = abs(tricks - bid)
    if scoring is Scoring.TRIANGULAR:
        return 5 + bid * (bid + 1) // 2 if difference == 0 else -difference * (difference + 1) // 2
    if difference:
        return -difference
    if scoring is Scoring.FIVE_PLUS_BID:
        return 5 + bid
    if scoring is Scoring.ONE_PLUS_BID:
        return 1 + bid
    return bid + cards


def advance_streaks(
    options: RuleOptions,
    cards: int,
    made: Sequence[bool],
    hits: Sequence[int],
    misses: Sequence[int],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Streak counts after a hand, and the bonus or penalty each player earned.

    A count starts again after it earns its bonus or penalty; an excluded
    one-card deal neither extends nor breaks a run.
    """
    bonus, penalty = options.streak_bonus, options.streak_penalty
    if (bonus is None and penalty is None) or (
        cards == 1 and not options.streaks_count_one_card_deals
    ):
        return tuple(hits), tuple(misses), (0,) * len(made)
    new_hits, new_misses, points = [], [], []
    for exact, hit, miss in zip(made, hits, misses, strict=True):
        earned = 0
        if exact:
            hit, miss = hit + 1, 0
            if bonus is not None and hit == bonus.length:
                earned, hit = bonus.points, 0
        else:
            hit, miss = 0, miss + 1
            if penalty is not None and miss == penalty.length:
                earned, miss = penalty.points, 0
        new_hits.append(hit)
        new_misses.append(miss)
        points.append(earned)
    return tuple(new_hits), tuple(new_misses), tuple(points)


Deal = tuple[Sequence[int], Sequence[int]]


def streaks_before(
    options: RuleOptions, cards: Sequence[int], deals: Sequence[Deal]
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The streak counts (hits, misses) before each of ``deals`` (bids and tricks of
    deals of ``cards`` cards, in order) and, last, after them all."""
    players = len(deals[0][0]) if deals else 0
    hits: tuple[int, ...] = (0,) * players
    misses: tuple[int, ...] = (0,) * players
    counts = [(hits, misses)]
    for dealt, (bids, tricks) in zip(cards, deals, strict=True):
        made = [bid == took for bid, took in zip(bids, tricks, strict=True)]
        hits, misses, _ = advance_streaks(options, dealt, made, hits, misses)
        counts.append((hits, misses))
    return counts


def scored_hand(
    options: RuleOptions,
    cards: int,
    hand: int,
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    totals: Sequence[int],
    hits: Sequence[int],
    misses: Sequence[int],
) -> HandScored:
    """The score of a hand, played or recorded, after ``totals`` and the streak
    counts ``hits`` and ``misses`` the earlier hands left."""
    pairs = list(zip(bids, tricks, strict=True))
    points = tuple(hand_points(options.scoring, b, t, cards) for b, t in pairs)
    made = [b == t for b, t in pairs]
    _, _, streak = advance_streaks(options, cards, made, hits, misses)
    new_totals = tuple(total + p + s for total, p, s in zip(totals, points, streak, strict=True))
    return HandScored(hand, bids, tricks, points, streak, new_totals)


def places(scores: Sequence[int], winners: Sequence[int] = ()) -> tuple[int, ...]:
    """Place by seat (1 = first), ties sharing a place: 10, 7, 7, 3 -> 1, 2, 2, 4.

    ``winners`` (successful zero players) rank above everyone else.
    """
    winner_set = set(winners)
    keys = [(seat in winner_set, score) for seat, score in enumerate(scores)]
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def game_finished(totals: tuple[int, ...], zero_play: Sequence[bool]) -> GameFinished:
    """The end of a game: its totals, places, and the zero players who made zero."""
    winners = tuple(seat for seat, total in enumerate(totals) if zero_play[seat] and total == 0)
    return GameFinished(totals, places(totals, winners), winners)
