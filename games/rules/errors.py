"""Typed rule errors: each has a stable machine-readable ``code``, a message that
names the rule that was broken, and its ``text``: words for a reader, which the edge
says in the reader's language (``gettext(error.text)``)."""

from __future__ import annotations

from coded import CodedError, gettext_noop


class RuleError(CodedError):
    """A command that the rules do not allow in the current state."""

    code = "rule_error"
    text = gettext_noop("The rules do not allow that.")


class InvalidCard(RuleError):
    code = "invalid_card"
    text = gettext_noop("That is not a card: write rank then suit, like AS, 10H or 7D.")

    def __init__(self, text: str) -> None:
        super().__init__(f"{text!r} is not a card: write rank then suit, like AS, 10H or 7D")


class NotInThisGame(RuleError):
    """A command of the other game: a bid or a one-card choice in classic Whist."""

    code = "not_in_this_game"
    text = gettext_noop("This game is not played that way.")


class InvalidOptions(RuleError):
    code = "invalid_options"
    text = gettext_noop("These rules do not go together.")
    reasoned = gettext_noop("These rules do not go together: %(reason)s")


class InvalidPlayerCount(RuleError):
    code = "invalid_player_count"
    text = gettext_noop("Romanian Whist is played by 3 to 6 players.")

    def __init__(self, count: int) -> None:
        super().__init__(f"Romanian Whist is played by 3 to 6 players, not {count}")


class WrongPhase(RuleError):
    code = "wrong_phase"
    text = gettext_noop("That cannot be done now.")


class GameOver(WrongPhase):
    code = "game_over"
    text = gettext_noop("The game is over.")

    def __init__(self) -> None:
        super().__init__("the game is over")


class NotYourTurn(RuleError):
    code = "not_your_turn"
    text = gettext_noop("It is not your turn.")

    def __init__(self, seat: int, expected: int) -> None:
        super().__init__(f"it is seat {expected}'s turn, not seat {seat}'s")
        self.seat = seat
        self.expected = expected


class NoSuchSeat(RuleError):
    code = "no_such_seat"
    text = gettext_noop("There is no such seat at this table.")

    def __init__(self, seat: int, player_count: int) -> None:
        super().__init__(f"there is no seat {seat} at a table of {player_count}")


class BidOutOfRange(RuleError):
    code = "bid_out_of_range"
    text = gettext_noop("A bid is between 0 and the number of cards dealt.")

    def __init__(self, bid: int, cards: int) -> None:
        super().__init__(f"a bid must be between 0 and the {cards} cards dealt, not {bid}")


class DealerBidForbidden(RuleError):
    code = "dealer_bid_forbidden"
    text = gettext_noop("The dealer may not make the bids add up to the number of cards dealt.")

    def __init__(self, bid: int, cards: int) -> None:
        super().__init__(
            f"the dealer may not bid {bid}: the bids would add up to the {cards} cards dealt"
        )
        self.bid = bid


class CardNotInHand(RuleError):
    code = "card_not_in_hand"
    text = gettext_noop("That card is not in your hand.")

    def __init__(self, text: str) -> None:
        super().__init__(f"{text} is not in your hand")


class MustFollowSuit(RuleError):
    code = "must_follow_suit"
    text = gettext_noop("You must follow suit.")

    def __init__(self, suit_name: str) -> None:
        super().__init__(f"must follow suit: you hold {suit_name}, which were led")


class MustTrump(RuleError):
    code = "must_trump"
    text = gettext_noop("You have none of the suit led: you must trump.")

    def __init__(self, suit_name: str) -> None:
        super().__init__(f"must trump: you cannot follow suit and you hold {suit_name}, trumps")


class NotTheDealer(RuleError):
    code = "not_the_dealer"
    text = gettext_noop("Only the dealer chooses how a one-card deal is played.")

    def __init__(self, seat: int, dealer: int) -> None:
        super().__init__(
            f"only the dealer (seat {dealer}) chooses how a one-card deal is played, "
            f"not seat {seat}"
        )


class InvalidOneCardMode(RuleError):
    code = "invalid_one_card_mode"
    text = gettext_noop("A one-card deal is played open, on the forehead or blind.")

    def __init__(self, value: object) -> None:
        super().__init__(
            f"{value!r} is not a way to play a one-card hand: choose open, forehead or blind"
        )


class ZeroPlayNotAllowed(RuleError):
    code = "zero_play_not_allowed"
    text = gettext_noop("Playing for zero is not allowed at this table now.")


class InvalidSecret(RuleError):
    code = "invalid_secret"
    text = gettext_noop("That is not the secret this deal was committed to.")


class RecordedTable(WrongPhase):
    """A command of play at a table in the room, whose deals are played with real
    cards and only recorded here."""

    code = "recorded_table"
    text = gettext_noop(
        "This table plays with real cards: its deals are recorded, not played here."
    )

    def __init__(self) -> None:
        super().__init__("this table plays with real cards: record its deals instead")


class PlayedTable(WrongPhase):
    code = "played_table"
    text = gettext_noop("This table is played here: its deals cannot be recorded by hand.")

    def __init__(self) -> None:
        super().__init__("this table's deals are played here, not recorded")


class DealOutOfSchedule(RuleError):
    code = "deal_out_of_schedule"
    text = gettext_noop("That is not the deal to record next.")

    def __init__(self, hand: int, expected: int) -> None:
        super().__init__(f"deal {hand + 1} cannot be recorded: deal {expected + 1} is next")
        self.expected = expected


class InvalidDeal(RuleError):
    """A recorded deal that no play of the cards could give."""

    code = "invalid_deal"
    text = gettext_noop("A deal needs a bid and a number of tricks for every player.")


class ForcedBidBroken(RuleError):
    code = "forced_bid_broken"
    text = gettext_noop("In this deal everyone makes the same, set bid.")

    def __init__(self, bid: int, forced: int) -> None:
        super().__init__(f"everyone bids {forced} in this deal, not {bid}")


class TricksOutOfRange(RuleError):
    code = "tricks_out_of_range"
    text = gettext_noop("A player makes between 0 and the number of cards dealt.")

    def __init__(self, tricks: object, cards: int) -> None:
        super().__init__(f"a player makes between 0 and the {cards} tricks dealt, not {tricks}")


class TricksDoNotAddUp(RuleError):
    code = "tricks_do_not_add_up"
    text = gettext_noop("The tricks made add up to the number of cards dealt.")

    def __init__(self, total: int, cards: int) -> None:
        super().__init__(f"the tricks made add up to {total}, not to the {cards} cards dealt")
        self.total = total


class DealNotRecorded(RuleError):
    code = "deal_not_recorded"
    text = gettext_noop("That deal has not been recorded yet.")

    def __init__(self, hand: int) -> None:
        super().__init__(f"deal {hand + 1} has not been recorded")


class DealAlreadyConfirmed(RuleError):
    code = "deal_already_confirmed"
    text = gettext_noop("That deal is already confirmed.")

    def __init__(self, hand: int) -> None:
        super().__init__(f"deal {hand + 1} is already confirmed")


class ConfirmedByAnother(RuleError):
    code = "confirmed_by_another"
    text = gettext_noop("Another player than the one who wrote a deal confirms it.")

    def __init__(self, hand: int, seat: int) -> None:
        super().__init__(f"seat {seat} wrote deal {hand + 1}: another player confirms it")


class CorrectionNeedsReason(RuleError):
    code = "correction_needs_reason"
    text = gettext_noop("A confirmed deal is corrected only with a reason.")

    def __init__(self, hand: int) -> None:
        super().__init__(f"deal {hand + 1} is confirmed: say why it is corrected")


class NothingToCorrect(RuleError):
    code = "nothing_to_correct"
    text = gettext_noop("The correction is the deal as it was recorded.")

    def __init__(self, hand: int) -> None:
        super().__init__(f"deal {hand + 1} was recorded with those bids and tricks already")


class TableClosed(RuleError):
    code = "table_closed"
    text = gettext_noop("The table's game is over: only the director corrects its deals.")

    def __init__(self) -> None:
        super().__init__("the game is over: only the director corrects its deals")


class TimeAlreadyCalled(RuleError):
    code = "time_already_called"
    text = gettext_noop("Time has already been called at this table.")

    def __init__(self) -> None:
        super().__init__("time has already been called at this table")
