"""Errors of championships; each maps to one HTTP status."""

from __future__ import annotations

from config.errors import DomainError


class EventError(DomainError):
    code = "event_error"


class EventNotFound(EventError):
    code = "event_not_found"
    status = 404

    def __init__(self, reference: object) -> None:
        super().__init__(f"there is no championship event {reference}")


class SeasonNotFound(EventError):
    code = "season_not_found"
    status = 404

    def __init__(self, reference: object) -> None:
        super().__init__(f"there is no season {reference}")


class NotOrganizer(EventError):
    code = "not_organizer"
    status = 403

    def __init__(self, message: str = "only the event's organizer may do that") -> None:
        super().__init__(message)


class NotEntered(EventError):
    code = "not_entered"
    status = 409

    def __init__(self, player_id: int) -> None:
        super().__init__(f"player {player_id} is not entered in this event")


class AlreadyEntered(EventError):
    code = "already_entered"
    status = 409

    def __init__(self, player_id: int) -> None:
        super().__init__(f"player {player_id} is already entered in this event")


class RoundInProgress(EventError):
    code = "round_in_progress"
    status = 409

    def __init__(self, number: int, playing: int) -> None:
        super().__init__(f"round {number} is still being played at {playing} table(s)")


class EventOver(EventError):
    code = "event_over"
    status = 409

    def __init__(self, message: str = "every round of this event has been played") -> None:
        super().__init__(message)


class NotEnoughPlayers(EventError):
    code = "not_enough_players"
    status = 409

    def __init__(self, present: int) -> None:
        super().__init__(f"a round needs at least 3 checked-in players, not {present}")


class PlayersNotInFours(EventError):
    code = "players_not_in_fours"
    status = 409

    def __init__(self, present: int) -> None:
        super().__init__(
            f"a whist drive seats its players in fours, and {present} are checked in: "
            "the round needs a multiple of 4, at least 4"
        )


class InvalidEventInput(EventError):
    code = "invalid_input"
