"""Deal schedules: how many cards each hand deals, and how each hand is bid."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.cards import CARDS_PER_PLAYER, MAX_PLAYERS, MIN_PLAYERS
from games.rules.errors import InvalidPlayerCount
from games.rules.options import (
    OneCardMode,
    OneCardRuns,
    RuleOptions,
    Schedule,
    SpecialHand,
    Visibility,
    ZeroPlayDeadline,
)


@dataclass(frozen=True, slots=True)
class DealSpec:
    """One hand of the schedule.

    ``visibility`` is None when the dealer chooses it before dealing;
    ``forced_bid`` is the bid everyone must make in a zero or eight bid hand.
    """

    cards: int
    visibility: Visibility | None = Visibility.OPEN
    forced_bid: int | None = None
    special: SpecialHand | None = None

    @property
    def has_trump(self) -> bool:
        # With every card dealt there is none left to turn up.
        return self.cards < CARDS_PER_PLAYER


def check_player_count(player_count: int) -> None:
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise InvalidPlayerCount(player_count)


def card_counts(options: RuleOptions, player_count: int) -> tuple[int, ...]:
    """The cards dealt per hand, before any special closing hands."""
    check_player_count(player_count)
    n = player_count
    if options.schedule is Schedule.EACH_DEALER_ONCE:
        return tuple(cards for cards in range(1, CARDS_PER_PLAYER + 1) for _ in range(n))
    ones = (1,) * (n if options.repeat_one_card_deals else 1)
    eights = (CARDS_PER_PLAYER,) * (n if options.repeat_eight_card_deals else 1)
    ramp = tuple(range(1 + options.step, CARDS_PER_PLAYER, options.step))
    down = ramp[::-1]
    if options.schedule is Schedule.ONE_EIGHT_ONE:
        return ones + ramp + eights + down + ones
    return eights + down + ones + ramp + eights


_SPECIAL_HANDS = {
    SpecialHand.BLIND_BID: DealSpec(
        CARDS_PER_PLAYER, Visibility.BLIND, None, SpecialHand.BLIND_BID
    ),
    SpecialHand.ZERO_BID: DealSpec(CARDS_PER_PLAYER, Visibility.OPEN, 0, SpecialHand.ZERO_BID),
    SpecialHand.EIGHT_BID: DealSpec(
        CARDS_PER_PLAYER, Visibility.OPEN, CARDS_PER_PLAYER, SpecialHand.EIGHT_BID
    ),
}

_ONE_CARD_VISIBILITY = {
    OneCardMode.NORMAL: Visibility.OPEN,
    OneCardMode.FOREHEAD: Visibility.FOREHEAD,
    OneCardMode.BLIND: Visibility.BLIND,
    OneCardMode.DEALER_CHOICE: None,
}


def _one_card_runs(counts: tuple[int, ...]) -> list[list[int]]:
    runs: list[list[int]] = []
    for index, cards in enumerate(counts):
        if cards != 1:
            continue
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def _moded_one_card_hands(options: RuleOptions, counts: tuple[int, ...]) -> set[int]:
    runs = _one_card_runs(counts)
    chosen = {
        OneCardRuns.ALL: runs,
        OneCardRuns.FIRST: runs[:1],
        OneCardRuns.LAST: runs[-1:],
        OneCardRuns.FIRST_AND_LAST: runs[:1] + runs[1:][-1:],
    }[options.one_card_runs]
    return {index for run in chosen for index in run}


def build_schedule(options: RuleOptions, player_count: int) -> tuple[DealSpec, ...]:
    """Every hand of a game, in order, closing hands included."""
    counts = card_counts(options, player_count)
    moded = _moded_one_card_hands(options, counts)
    one_card_visibility = _ONE_CARD_VISIBILITY[options.one_card_mode]
    specs = [
        DealSpec(cards, one_card_visibility if index in moded else Visibility.OPEN)
        for index, cards in enumerate(counts)
    ]
    specs.extend(_SPECIAL_HANDS[hand] for hand in options.special_hands)
    return tuple(specs)


def zero_play_deadline(options: RuleOptions, schedule: tuple[DealSpec, ...]) -> int:
    """How many hands may have been dealt when a zero play is still announced.

    Before the first 8-card deal in 1-8-1, before the first 1-card deal of the
    middle in 8-1-8 (and before the 8-card deals in each-dealer-once), at least
    ten deals before the end, or before the first deal.
    """
    deadline = options.zero_play
    if deadline is ZeroPlayDeadline.TEN_BEFORE_END:
        return max(0, len(schedule) - 10)
    if deadline is ZeroPlayDeadline.MIDDLE:
        target = 1 if options.schedule is Schedule.EIGHT_ONE_EIGHT else CARDS_PER_PLAYER
        return next(index for index, spec in enumerate(schedule) if spec.cards == target)
    return 0
