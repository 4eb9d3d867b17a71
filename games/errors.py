"""Errors of the platform around the rules; each maps to one HTTP status.

Rule errors (:class:`games.rules.RuleError`) are 400s and carry their own codes.
"""

from collections.abc import Iterable
from typing import ClassVar

from coded import CodedError, gettext_noop
from runtime.errors import DomainError, TooManyAttempts


class GameError(DomainError):
    code = "game_error"
    text = gettext_noop("That was not accepted at this table.")


class GameNotFound(GameError):
    code = "game_not_found"
    text = gettext_noop("There is no table with that code or id.")
    status = 404

    def __init__(self, game_id: object) -> None:
        super().__init__(f"there is no game {game_id}")


class VersionConflict(GameError):
    code = "version_conflict"
    text = gettext_noop("The table moved on before your move arrived; look again.")
    status = 409

    def __init__(self, expected: int, actual: int | None = None) -> None:
        if actual is None:
            message = f"the game moved on past version {expected}: reload and try again"
        else:
            message = f"the game is at version {actual}, not {expected}: reload and try again"
        super().__init__(message)
        self.expected = expected
        self.actual = actual


class NotYourSeat(GameError):
    code = "not_your_seat"
    text = gettext_noop("That seat is not yours.")
    status = 403


class AlreadySeated(GameError):
    code = "already_seated"
    text = gettext_noop("You already sit at this table.")
    status = 409

    def __init__(self, seat: int) -> None:
        super().__init__(f"you already sit at this table, in seat {seat}")


class TableFull(GameError):
    code = "table_full"
    text = gettext_noop("Every seat at this table is taken.")
    status = 409

    def __init__(self) -> None:
        super().__init__("every seat at this table is taken")


class IdempotencyKeyReused(GameError):
    code = "idempotency_key_reused"
    text = gettext_noop("That request was already made for another move.")
    status = 409

    def __init__(self, key: str) -> None:
        super().__init__(f"idempotency key {key!r} was already used for another command")


class RecordNotReady(GameError):
    code = "game_not_finished"
    text = gettext_noop("A game's full record is published once the game is finished.")
    status = 409

    def __init__(self) -> None:
        super().__init__("a game's full record is published once the game is finished")


class DealSetInPlay(GameError):
    """A duplicate table that finished while other tables of its deal set still play:
    its record would show them their cards."""

    code = "deal_set_in_play"
    text = gettext_noop(
        "Other tables still play the same deals: this table's record is published once they "
        "have all finished."
    )
    status = 409

    def __init__(self) -> None:
        super().__init__(
            "this table has finished, but other tables still play the same deals: its "
            "record is published once every table of the deal set has finished",
        )


class AnalysisNotKept(GameError):
    code = "analysis_not_kept"
    text = gettext_noop(
        "The strong bot analyses Romanian Whist games played online: a classic Whist game "
        "is not analysed, and a table in the room records no cards."
    )
    status = 409

    def __init__(self) -> None:
        super().__init__("the game is not analysed: classic Whist, or a table in the room")


class GameIsOver(GameError):
    """Any account's command on a finished game: its record is published and final.

    The code is the rules' own (:class:`games.rules.GameOver`), so a client hears one
    code for a finished game whatever the command was."""

    code = "game_over"
    text = gettext_noop("The game is over.")

    def __init__(self) -> None:
        super().__init__("the game is over: its record is final")


class InvalidInput(GameError):
    code = "invalid_input"
    text = gettext_noop("That input is not valid.")
    # What was wrong with it, which only the refusing service knows.
    reasoned: ClassVar[str | None] = gettext_noop("Not accepted: %(reason)s")


class UnknownBot(InvalidInput):
    code = "unknown_bot"
    text = gettext_noop("There is no bot of that level: choose easy, medium or strong.")
    # Its own words say what was wrong, as do the aliases' below.
    reasoned = None

    def __init__(self, name: object, choices: Iterable[str]) -> None:
        super().__init__(f"there is no bot {name!r}; choose one of {', '.join(choices)}")


class AliasInvalid(InvalidInput):
    """An alias that could not be read as what it is (see :mod:`games.commands.aliases`)."""

    code = "alias_invalid"
    text = gettext_noop(
        "An alias is 1 to 24 characters of one alphabet, with no invisible or control characters."
    )
    reasoned = None


class AliasTaken(InvalidInput):
    """An alias another seat's may be mistaken for (see :mod:`games.commands.aliases`)."""

    code = "alias_taken"
    text = gettext_noop("A player at this table has this alias, or one that looks like it.")
    reasoned = None

    def __init__(self, alias: str) -> None:
        super().__init__(f"the alias {alias!r} is taken at this table")


class GamePausedError(GameError):
    code = "game_paused"
    text = gettext_noop("The game is paused by its organizer.")
    status = 409

    def __init__(self) -> None:
        super().__init__("the game is paused by its organizer; wait until it is resumed")


class NotTheCreator(GameError):
    code = "not_the_creator"
    text = gettext_noop("Only the table's creator may do that.")
    status = 403


class GameAlreadyStarted(GameError):
    """A change only a table waiting for its players allows (seats filled, the table
    cancelled, a player getting up), asked of a game that has started."""

    code = "game_started"
    text = gettext_noop("The game has started: that can only be done before.")
    status = 409

    def __init__(self) -> None:
        super().__init__("the game has started: that can only be done before")


class NotSeated(GameError):
    code = "not_seated"
    text = gettext_noop("You have no seat at this table.")
    status = 409

    def __init__(self) -> None:
        super().__init__("you have no seat at this table")


class TableCancelledError(GameError):
    code = "table_cancelled"
    text = gettext_noop("This table was cancelled by its creator.")
    status = 409

    def __init__(self) -> None:
        super().__init__("this table was cancelled by its creator")


class NotAPlayer(GameError):
    code = "not_a_player"
    text = gettext_noop("Only the players of this game may ask for a rematch.")
    status = 403

    def __init__(self) -> None:
        super().__init__("only a player of the game may ask for a rematch")


class GameNotFinished(GameError):
    code = "game_not_finished"
    text = gettext_noop("A game's full record is published once the game is finished.")
    status = 409

    def __init__(self) -> None:
        super().__init__("a rematch is played once the game is finished")


class EventGameNoRematch(GameError):
    """An event's table: its organizer seats the next round, not its players."""

    code = "event_game"
    text = gettext_noop("A championship's organizer seats its tables: no rematch here.")
    status = 409

    def __init__(self) -> None:
        super().__init__("a championship's table has no rematch: its organizer seats the rounds")


class NoRematch(GameError):
    code = "no_rematch"
    text = gettext_noop("No rematch of this game has been asked for.")
    status = 404

    def __init__(self) -> None:
        super().__init__("no player of this game has asked for a rematch yet")


class SocketError(CodedError):
    """An error of the socket itself, answered like a service's."""

    code = "error"
    text = gettext_noop("That was not accepted.")


class InvalidMessage(SocketError):
    code = "invalid_input"
    text = gettext_noop("That input is not valid.")


class NotAuthenticated(SocketError):
    code = "not_authenticated"
    text = gettext_noop("Sign in to play.")


class ServerError(SocketError):
    code = "server_error"
    text = gettext_noop("Something went wrong on our side; try again.")


class SeatOfABot(GameError):
    code = "seat_of_a_bot"
    text = gettext_noop("A bot holds this seat: only a bot can play it.")
    status = 409

    def __init__(self, seat: int) -> None:
        super().__init__(
            f"seat {seat} is a bot's own: handed back to nobody, the table would wait for good"
        )


class NoBotsInTheRoom(GameError):
    code = "no_bots_in_the_room"
    text = gettext_noop("A table in the room is played by people with real cards, not bots.")
    status = 409

    def __init__(self) -> None:
        super().__init__("a table in the room is played with real cards: no bot can sit there")


class ScorerOnly(GameError):
    """A deal written, corrected or confirmed by someone the table does not know."""

    code = "scorer_only"
    text = gettext_noop(
        "Only the table's players, its director, or whoever gave the table's PIN may do that."
    )
    status = 403

    def __init__(self) -> None:
        super().__init__(
            "only the table's players, its director, or a scorer who gave its PIN may do that"
        )


class WrongPin(GameError):
    code = "wrong_pin"
    text = gettext_noop("That is not this table's PIN: read it again from the table card.")
    status = 403

    def __init__(self) -> None:
        super().__init__("that is not this table's PIN")


class TableBegun(GameError):
    """A table called off after its first bid, card or deal written down."""

    code = "table_begun"
    text = gettext_noop("Play has begun at this table: it can no longer be called off.")
    status = 409

    def __init__(self) -> None:
        super().__init__("play has begun at this table: a bid, a card or a deal is in its log")


class ChatOff(GameError):
    """Words at a championship's table whose organizer allowed none (decision 3506)."""

    code = "chat_off"
    text = gettext_noop("Nothing is said at this table: its championship keeps it quiet.")
    status = 403

    def __init__(self) -> None:
        super().__init__("nothing may be said at this table: its championship keeps it quiet")


class PhrasesOnly(GameError):
    code = "phrases_only"
    text = gettext_noop("Only the quick phrases are said at this table.")
    status = 403

    def __init__(self) -> None:
        super().__init__("only the quick phrases may be said at this table")


class PlayersOnly(GameError):
    code = "players_only"
    text = gettext_noop("Only the players at this table talk at it.")
    status = 403

    def __init__(self) -> None:
        super().__init__("only a player seated at this table may talk at it")


class MessageNotFound(GameError):
    code = "message_not_found"
    text = gettext_noop("There is no such message at this table.")
    status = 404

    def __init__(self, number: object) -> None:
        super().__init__(f"there is no message {number} at this table for you to read")


class ChatTooFast(TooManyAttempts):
    """A player's budget of words (``table-chat``, across their tables) is spent."""

    code = "chat_too_fast"
    text = gettext_noop("You are talking too fast: wait a moment.")

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.message = f"too many messages; say the next in {retry_after} seconds"
        self.args = (self.message,)
