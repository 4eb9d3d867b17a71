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
