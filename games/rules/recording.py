"""Tables in the room: deals played with real cards, recorded rather than played.

A recorded deal is each seat's bid and the tricks each made. It is checked against
the rules a played deal obeys (bids in range and in the bidding order, the dealer's
forbidden bid, a deal's set bids, tricks that add up to the cards dealt, the deal the
schedule holds next) and scored by the same functions as a played one, so a table
in the room and a table online that had the same deals score alike.

A correction writes a deal anew and scores it and every later deal again (streaks
run across deals); a confirmation is another seat's (or the director's) agreement.
``by`` names the seat that acts; None is the director.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.rules.bidding import check_bid
from games.rules.commands import ConfirmDeal, CorrectDeal, RecordDeal
from games.rules.errors import (
    ConfirmedByAnother,
    CorrectionNeedsReason,
    DealAlreadyConfirmed,
    DealNotRecorded,
    DealOutOfSchedule,
    ForcedBidBroken,
    GameOver,
    InvalidDeal,
    NoSuchSeat,
    NothingToCorrect,
    PlayedTable,
    TableClosed,
    TricksDoNotAddUp,
    TricksOutOfRange,
    WrongPhase,
)
from games.rules.events import (
    DealConfirmed,
    DealCorrected,
    DealRecorded,
    Event,
    HandScored,
)
from games.rules.scoring import game_finished, scored_hand, streaks_before
from games.rules.state import GameState, Phase

MAX_REASON_LENGTH = 200


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _require_recorded(state: GameState) -> None:
    if state.phase is Phase.NOT_STARTED:
        raise WrongPhase("the game has not started")
    if not state.recorded:
        raise PlayedTable()


def _require_actor(state: GameState, by: int | None) -> None:
    if by is not None and (not _whole(by) or not 0 <= by < state.player_count):
        raise NoSuchSeat(by, state.player_count)


def _require_recorded_hand(state: GameState, hand: int) -> None:
    if not _whole(hand) or not 0 <= hand < len(state.results):
        raise DealNotRecorded(hand if _whole(hand) else -1)


def check_deal(
    state: GameState, hand: int, bids: Sequence[int], tricks: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``bids`` and ``tricks`` (by seat) as deal ``hand`` of the schedule may have
    them, or the rule they break; bids are checked in the order they are made."""
    n = state.player_count
    if not (
        isinstance(bids, list | tuple)
        and isinstance(tricks, list | tuple)
        and len(bids) == n
        and len(tricks) == n
    ):
        raise InvalidDeal(f"a deal at this table has {n} bids and {n} trick counts, by seat")
    spec = state.schedule[hand]
    cards, dealer = spec.cards, (state.first_dealer + hand) % n
    before = 0
    for turn in range(n):
        seat = (dealer + 1 + turn) % n
        bid = bids[seat]
        if spec.forced_bid is not None:
            if bid != spec.forced_bid or not _whole(bid):
                raise ForcedBidBroken(bid, spec.forced_bid)
        else:
            check_bid(bid, cards, before, seat == dealer)
        before += bid
    for made in tricks:
        if not _whole(made) or not 0 <= made <= cards:
            raise TricksOutOfRange(made, cards)
    if sum(tricks) != cards:
        raise TricksDoNotAddUp(sum(tricks), cards)
    return tuple(bids), tuple(tricks)


def record(state: GameState, command: RecordDeal) -> tuple[Event, ...]:
    _require_recorded(state)
    if state.phase is Phase.FINISHED:
        raise GameOver()
    if not _whole(command.hand) or command.hand != state.hand:
        raise DealOutOfSchedule(command.hand if _whole(command.hand) else -1, state.hand)
    _require_actor(state, command.by)
    bids, tricks = check_deal(state, state.hand, command.bids, command.tricks)
    recorded = DealRecorded(state.hand, state.dealer, state.cards, bids, tricks, command.by)
    scored = scored_hand(
        state.options, state.cards, state.hand, bids, tricks, state.scores, state.hits, state.misses
    )
    if state.hand + 1 < state.deals_to_play:
        return (recorded, scored)
    return (recorded, scored, game_finished(scored.totals, state.zero_play))


def rescored(
    state: GameState, hand: int, bids: tuple[int, ...], tricks: tuple[int, ...]
) -> list[HandScored]:
    """The scores of deal ``hand`` and every later recorded deal once ``hand`` has
    ``bids`` and ``tricks``: each deal's score and streaks follow the deals before it."""
    deals = [
        (bids, tricks) if number == hand else (result.bids, result.tricks)
        for number, result in enumerate(state.results)
    ]
    cards = [state.schedule[number].cards for number in range(len(deals))]
    streaks = streaks_before(state.options, cards, deals)
    totals: tuple[int, ...] = (0,) * state.player_count
    scores = []
    for number, deal in enumerate(deals):
        scored = scored_hand(state.options, cards[number], number, *deal, totals, *streaks[number])
        totals = scored.totals
        if number >= hand:
            scores.append(scored)
    return scores


def correct(state: GameState, command: CorrectDeal) -> tuple[Event, ...]:
    _require_recorded(state)
    _require_recorded_hand(state, command.hand)
    _require_actor(state, command.by)
    hand = command.hand
    if state.phase is Phase.FINISHED and command.by is not None:
        raise TableClosed()
    bids, tricks = check_deal(state, hand, command.bids, command.tricks)
    before = state.results[hand]
    if before.bids == bids and before.tricks == tricks:
        raise NothingToCorrect(hand)
    reason = command.reason.strip() if isinstance(command.reason, str) else ""
    if len(reason) > MAX_REASON_LENGTH:
        raise InvalidDeal(f"a reason is at most {MAX_REASON_LENGTH} characters")
    if state.confirmed[hand] and not reason:
        raise CorrectionNeedsReason(hand)
    scores = rescored(state, hand, bids, tricks)
    events: list[Event] = [DealCorrected(hand, bids, tricks, reason, command.by), *scores]
    if state.phase is Phase.FINISHED:
        events.append(game_finished(scores[-1].totals, state.zero_play))
    return tuple(events)


def confirm(state: GameState, command: ConfirmDeal) -> tuple[Event, ...]:
    _require_recorded(state)
    _require_recorded_hand(state, command.hand)
    _require_actor(state, command.by)
    hand = command.hand
    if state.confirmed[hand]:
        raise DealAlreadyConfirmed(hand)
    writer = state.entered_by[hand]
    if command.by is not None and command.by == writer:
        raise ConfirmedByAnother(hand, writer)
    return (DealConfirmed(hand, command.by),)
