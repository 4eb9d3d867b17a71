"""Errors of championships; each maps to one HTTP status."""

from __future__ import annotations

from coded import gettext_noop
from runtime.errors import DomainError


class EventError(DomainError):
    code = "event_error"
    text = gettext_noop("That was not accepted in this event.")


class EventNotFound(EventError):
    code = "event_not_found"
    text = gettext_noop("There is no such championship event.")
    status = 404

    def __init__(self, reference: object) -> None:
        super().__init__(f"there is no championship event {reference}")


class SeasonNotFound(EventError):
    code = "season_not_found"
    text = gettext_noop("There is no such season.")
    status = 404

    def __init__(self, reference: object) -> None:
        super().__init__(f"there is no season {reference}")


class PlayerNotFound(EventError):
    """No player page: no such account, or a guest's or a bot's."""

    code = "player_not_found"
    text = gettext_noop("There is no such player.")
    status = 404

    def __init__(self, reference: object) -> None:
        super().__init__(f"there is no player page {reference}")


class GamesPageNotFound(EventError):
    """A page of a player's games past the last."""

    code = "page_not_found"
    text = gettext_noop("There is no such page of games.")
    status = 404

    def __init__(self, page: int) -> None:
        super().__init__(f"there is no page {page} of this player's games")


class NotOrganizer(EventError):
    code = "not_organizer"
    text = gettext_noop("Only the event's organizer or their deputies may do that.")
    status = 403

    def __init__(self, message: str = "only the event's organizer may do that") -> None:
        super().__init__(message)


class MayNotOrganize(EventError):
    """An account the site's staff has not let organize events."""

    code = "may_not_organize"
    text = gettext_noop("This account may not organize events: ask the site's staff.")
    status = 403

    def __init__(self, message: str = "this account may not organize events") -> None:
        super().__init__(message)


class NotDirector(NotOrganizer):
    """Someone who directs no part of the event (neither its organizer nor a deputy):
    the organizer's refusal, as its callers know it."""

    text = NotOrganizer.text

    def __init__(
        self, message: str = "only the event's organizer or their deputies may do that"
    ) -> None:
        super().__init__(message)


class OrganizerOnly(EventError):
    """A deputy asking what only the organizer may: naming or removing deputies."""

    code = "organizer_only"
    text = gettext_noop("Only the event's organizer may do that, not a deputy.")
    status = 403

    def __init__(self, message: str = "only the event's organizer may do that") -> None:
        super().__init__(message)


class NoSuchAccount(EventError):
    code = "no_such_account"
    text = gettext_noop("There is no account with that username or e-mail address.")
    status = 404

    def __init__(self, reference: object) -> None:
        super().__init__(f"there is no account {reference!r}")


class AlreadyDeputy(EventError):
    code = "already_deputy"
    text = gettext_noop("That account already directs this event.")
    status = 409

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} already directs this event")


class NotDeputy(EventError):
    code = "not_deputy"
    text = gettext_noop("That account is not a deputy of this event.")
    status = 404

    def __init__(self, user_id: object) -> None:
        super().__init__(f"user {user_id} is not a deputy of this event")


class NotEntered(EventError):
    code = "not_entered"
    text = gettext_noop("That player is not entered in this event.")
    status = 409

    def __init__(self, player_id: int) -> None:
        super().__init__(f"player {player_id} is not entered in this event")


class AlreadyEntered(EventError):
    code = "already_entered"
    text = gettext_noop("That player is already entered in this event.")
    status = 409

    def __init__(self, player_id: int) -> None:
        super().__init__(f"player {player_id} is already entered in this event")


class EntryPlayed(EventError):
    """A guest's entry in an event whose rounds have begun: it is a line of the rounds'
    seating and of the standings under the guest, and stays theirs (decision 3508)."""

    code = "entry_played"
    text = gettext_noop("This event's rounds have begun: the entry stays whose it is.")
    status = 409

    def __init__(self) -> None:
        super().__init__("the event's rounds have begun: the entry stays whose it is")


class GuestEntry(EventError):
    """A guest's entry: an entry is a line of the standings and the season's
    leaderboard under an account, which a guest who later signs in to their account
    could not take along (decision 3507)."""

    code = "guest_entry"
    text = gettext_noop("A guest cannot enter an event: register or sign in first.")
    status = 403

    def __init__(self) -> None:
        super().__init__("a guest cannot enter an event: register or sign in first")


class RoundInProgress(EventError):
    code = "round_in_progress"
    text = gettext_noop("The current round is still being played.")
    status = 409

    def __init__(self, number: int, playing: int) -> None:
        super().__init__(f"round {number} is still being played at {playing} table(s)")


class EventOver(EventError):
    code = "event_over"
    text = gettext_noop("Every round of this event has been played.")
    status = 409

    def __init__(self, message: str = "every round of this event has been played") -> None:
        super().__init__(message)


class NotEnoughPlayers(EventError):
    code = "not_enough_players"
    text = gettext_noop("A round needs at least 3 checked-in players.")
    status = 409

    def __init__(self, present: int) -> None:
        super().__init__(f"a round needs at least 3 checked-in players, not {present}")


class PlayersNotInFours(EventError):
    code = "players_not_in_fours"
    text = gettext_noop(
        "A whist drive seats its players in fours: a round needs a multiple of 4 checked-in "
        "players."
    )
    status = 409

    def __init__(self, present: int) -> None:
        super().__init__(
            f"a whist drive seats its players in fours, and {present} are checked in: "
            "the round needs a multiple of 4, at least 4"
        )


class InvalidEventInput(EventError):
    code = "invalid_input"
    text = gettext_noop("That input is not valid.")
    reasoned = gettext_noop("Not accepted: %(reason)s")


class TooFewInPlace(EventError):
    """An event played both online and in the room, with 1 or 2 players on one side."""

    code = "too_few_in_place"
    text = gettext_noop(
        "A table needs at least 3 players: check the few who play on one side in on the "
        "other, or withdraw them."
    )
    status = 409

    def __init__(self, place: str, present: int) -> None:
        where = "in the room" if place == "room" else "online"
        super().__init__(
            f"{present} checked-in player(s) play {where}, and a table needs at least 3: "
            "check them in on the other side, or withdraw them"
        )


class RoundNotFound(EventError):
    code = "round_not_found"
    text = gettext_noop("That round of the event has not started.")
    status = 404

    def __init__(self, number: object) -> None:
        super().__init__(f"round {number} has not started")


class AnnouncementNotFound(EventError):
    code = "announcement_not_found"
    text = gettext_noop("There is no such announcement: it may have been withdrawn already.")
    status = 404

    def __init__(self, number: object) -> None:
        super().__init__(f"there is no current announcement {number}")


class TooManyAnnouncements(EventError):
    code = "too_many_announcements"
    text = gettext_noop("Too many announcements are shown: withdraw one first.")
    status = 409

    def __init__(self, shown: int) -> None:
        super().__init__(f"{shown} announcements are shown, the most there may be")


class NotAtTable(EventError):
    code = "not_at_table"
    text = gettext_noop("Only a player seated at this table may call the director from it.")
    status = 403

    def __init__(self, player_id: int) -> None:
        super().__init__(f"player {player_id} is not seated at this table")


class CallStillOpen(EventError):
    """One call at a time from a seat: the director has not closed the last one."""

    code = "call_open"
    text = gettext_noop("You have already called the director: the call is still open.")
    status = 409

    def __init__(self, number: int) -> None:
        super().__init__(f"call {number} from this seat is still open")


class CallNotFound(EventError):
    code = "call_not_found"
    text = gettext_noop("There is no such call to the director.")
    status = 404

    def __init__(self, number: object) -> None:
        super().__init__(f"there is no call {number}")


class CallOver(EventError):
    code = "call_closed"
    text = gettext_noop("That call to the director is closed already.")
    status = 409

    def __init__(self, number: int) -> None:
        super().__init__(f"call {number} is closed already")


class EventFull(EventError):
    code = "event_full"
    text = gettext_noop("This event is full: it takes no more entries.")
    status = 409

    def __init__(self, limit: int) -> None:
        super().__init__(f"this event takes at most {limit} entries, and has them")


class EntryDeadlinePassed(EventError):
    code = "entry_deadline_passed"
    text = gettext_noop("The entry deadline has passed: ask the organizer to enter you.")
    status = 409

    def __init__(self, deadline: object) -> None:
        super().__init__(f"entries closed at {deadline}")


class CheckInNotOpen(EventError):
    code = "check_in_not_open"
    text = gettext_noop("Check-in is not open yet.")
    status = 409

    def __init__(self, opens: object) -> None:
        super().__init__(f"check-in opens at {opens}")


class CheckInClosedError(EventError):
    code = "check_in_closed"
    text = gettext_noop("Check-in has closed: ask the organizer to check you in.")
    status = 409

    def __init__(self, closed: object) -> None:
        super().__init__(f"check-in closed at {closed}")


class ResultsFinal(EventError):
    """A correction after the published results' protest window closed."""

    code = "results_final"
    text = gettext_noop("The results are final: they may no longer be corrected.")
    status = 409

    def __init__(self) -> None:
        super().__init__("the results are final: their protest window is over")


class SeatNotFound(EventError):
    code = "seat_not_found"
    text = gettext_noop("There is no such seat at this event's round in play.")
    status = 404

    def __init__(self, table: object, seat: object) -> None:
        super().__init__(f"the round in play has no table {table} seat {seat}")


class ReserveSeated(EventError):
    code = "reserve_seated"
    text = gettext_noop("That player already holds a seat in this round.")
    status = 409

    def __init__(self, player_id: int, table: int) -> None:
        super().__init__(f"player {player_id} already holds a seat at table {table} this round")


class TableOver(EventError):
    code = "table_over"
    text = gettext_noop("That table's game is over: its seats are no longer handed over.")
    status = 409

    def __init__(self, table: int) -> None:
        super().__init__(f"table {table}'s game is over")


class Disqualified(EventError):
    code = "disqualified"
    text = gettext_noop("That player was disqualified from this event.")
    status = 409

    def __init__(self, player_id: int) -> None:
        super().__init__(f"player {player_id} was disqualified from this event")


class NoRoundInPlay(EventError):
    """The round clock's commands, with no table of a round still playing."""

    code = "no_round_in_play"
    text = gettext_noop("No round is in play: there is no time to call or extend.")
    status = 409

    def __init__(self, message: str = "no round is in play") -> None:
        super().__init__(message)


class WrongRound(EventError):
    """A page sent for a round other than the one in play (it was drawn before)."""

    code = "wrong_round"
    text = gettext_noop("That round is no longer in play: reload the page.")
    status = 409

    def __init__(self, asked: object, playing: int) -> None:
        super().__init__(f"round {asked} is not in play: round {playing} is")


class TimeAlreadyCalled(EventError):
    code = "time_called"
    text = gettext_noop("Time has already been called in this round.")
    status = 409

    def __init__(self, number: int) -> None:
        super().__init__(f"time has already been called in round {number}")


class NoTimeLimit(EventError):
    code = "no_time_limit"
    text = gettext_noop("This round has no time limit to extend.")
    status = 409

    def __init__(self, number: int) -> None:
        super().__init__(f"round {number} has no time limit")


class ExtensionOutOfRange(EventError):
    code = "extension_out_of_range"
    text = gettext_noop("A round is extended by 1 to 60 minutes.")
    status = 400

    def __init__(self, minutes: object, low: int, high: int) -> None:
        super().__init__(f"a round is extended by {low} to {high} minutes, not {minutes!r}")


class PlaysEveryDeal(EventError):
    """Calling time at a whist drive or with duplicate deals: their results need
    every deal (decision 3405)."""

    code = "plays_every_deal"
    text = gettext_noop(
        "This event's tables play every deal (a whist drive, or duplicate deals): time is "
        "not called there."
    )
    status = 409

    def __init__(self) -> None:
        super().__init__("a whist drive's or duplicate deals' tables play every deal")
