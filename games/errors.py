"""Errors of the platform around the rules; each maps to one HTTP status.

Rule errors (:class:`games.rules.RuleError`) are 400s and carry their own codes.
"""

from collections.abc import Iterable

from config.errors import DomainError


class GameError(DomainError):
    code = "game_error"


class GameNotFound(GameError):
    code = "game_not_found"
    status = 404

    def __init__(self, game_id: object) -> None:
        super().__init__(f"there is no game {game_id}")


class VersionConflict(GameError):
    code = "version_conflict"
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
    status = 403


class AlreadySeated(GameError):
    code = "already_seated"
    status = 409

    def __init__(self, seat: int) -> None:
        super().__init__(f"you already sit at this table, in seat {seat}")


class TableFull(GameError):
    code = "table_full"
    status = 409

    def __init__(self) -> None:
        super().__init__("every seat at this table is taken")


class IdempotencyKeyReused(GameError):
    code = "idempotency_key_reused"
    status = 409

    def __init__(self, key: str) -> None:
        super().__init__(f"idempotency key {key!r} was already used for another command")


class RecordNotReady(GameError):
    code = "game_not_finished"
    status = 409

    def __init__(self) -> None:
        super().__init__("a game's full record is published once the game is finished")


class DealSetInPlay(GameError):
    """A duplicate table that finished while other tables of its deal set still play:
    its record would show them their cards."""

    code = "deal_set_in_play"
    status = 409

    def __init__(self) -> None:
        super().__init__(
            "this table has finished, but other tables still play the same deals: its "
            "record is published once every table of the deal set has finished",
        )


class RecordNotKept(GameError):
    code = "record_not_kept"
    status = 409

    def __init__(self) -> None:
        super().__init__(
            "a checkable game record is kept for Romanian Whist; "
            "a classic Whist game's log is read through its events"
        )


class GameIsOver(GameError):
    """Any account's command on a finished game: its record is published and final.

    The code is the rules' own (:class:`games.rules.GameOver`), so a client hears one
    code for a finished game whatever the command was."""

    code = "game_over"

    def __init__(self) -> None:
        super().__init__("the game is over: its record is final")


class InvalidInput(GameError):
    code = "invalid_input"


class UnknownBot(InvalidInput):
    code = "unknown_bot"

    def __init__(self, name: object, choices: Iterable[str]) -> None:
        super().__init__(f"there is no bot {name!r}; choose one of {', '.join(choices)}")


class AliasInvalid(InvalidInput):
    """An alias that could not be read as what it is (see :mod:`games.aliases`)."""

    code = "alias_invalid"


class AliasTaken(InvalidInput):
    """An alias another seat's may be mistaken for (see :mod:`games.aliases`)."""

    code = "alias_taken"

    def __init__(self, alias: str) -> None:
        super().__init__(f"the alias {alias!r} is taken at this table")


class GamePausedError(GameError):
    code = "game_paused"
    status = 409

    def __init__(self) -> None:
        super().__init__("the game is paused by its organizer; wait until it is resumed")


class NotTheCreator(GameError):
    code = "not_the_creator"
    status = 403


class GameAlreadyStarted(GameError):
    """A change only a table waiting for its players allows (seats filled, the table
    cancelled, a player getting up), asked of a game that has started."""

    code = "game_started"
    status = 409

    def __init__(self) -> None:
        super().__init__("the game has started: that can only be done before")


class NotSeated(GameError):
    code = "not_seated"
    status = 409

    def __init__(self) -> None:
        super().__init__("you have no seat at this table")


class TableCancelledError(GameError):
    code = "table_cancelled"
    status = 409

    def __init__(self) -> None:
        super().__init__("this table was cancelled by its creator")


class NotAPlayer(GameError):
    code = "not_a_player"
    status = 403

    def __init__(self) -> None:
        super().__init__("only a player of the game may ask for a rematch")


class GameNotFinished(GameError):
    code = "game_not_finished"
    status = 409

    def __init__(self) -> None:
        super().__init__("a rematch is played once the game is finished")


class EventGameNoRematch(GameError):
    """An event's table: its organizer seats the next round, not its players."""

    code = "event_game"
    status = 409

    def __init__(self) -> None:
        super().__init__("a championship's table has no rematch: its organizer seats the rounds")


class NoRematch(GameError):
    code = "no_rematch"
    status = 404

    def __init__(self) -> None:
        super().__init__("no player of this game has asked for a rematch yet")
