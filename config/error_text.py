"""Every error code's words for a reader, in the reader's language.

The services, the rules and the sockets word their errors in English, with the
particulars, for the API's clients and the logs; a page says them again by their
stable code. Each code has a text here, so no page falls back to the English message;
a page may say a code more precisely where it knows the context (its overrides).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from config.errors import DomainError
from games.rules import RuleError


def error_texts() -> dict[str, str]:
    return {
        # Any platform, rule or socket error without a more precise code.
        "error": _("That was not accepted."),
        "game_error": _("That was not accepted at this table."),
        "event_error": _("That was not accepted in this event."),
        "account_error": _("That was not accepted for this account."),
        "rule_error": _("The rules do not allow that."),
        "seating_error": _("The players cannot be seated that way."),
        # The tables.
        "game_not_found": _("There is no table with that code or id."),
        "version_conflict": _("The table moved on before your move arrived; look again."),
        "not_your_seat": _("That seat is not yours."),
        "already_seated": _("You already sit at this table."),
        "table_full": _("Every seat at this table is taken."),
        "idempotency_key_reused": _("That request was already made for another move."),
        "game_not_finished": _("A game's full record is published once the game is finished."),
        "deal_set_in_play": _(
            "Other tables still play the same deals: this table's record is published "
            "once they have all finished."
        ),
        "record_not_kept": _("A checkable game record is kept for Romanian Whist only."),
        "game_over": _("The game is over."),
        "game_paused": _("The game is paused by its organizer."),
        "invalid_input": _("That input is not valid."),
        "alias_invalid": _(
            "An alias is 1 to 24 characters of one alphabet, with no invisible or control "
            "characters."
        ),
        "alias_taken": _("A player at this table has this alias, or one that looks like it."),
        "not_a_player": _("Only the players of this game may ask for a rematch."),
        "event_game": _("A championship's organizer seats its tables: no rematch here."),
        "no_rematch": _("No rematch of this game has been asked for."),
        "unknown_bot": _("There is no bot of that level: choose easy, medium or strong."),
        "not_the_creator": _("Only the table's creator may do that."),
        "game_started": _("The game has started: that can only be done before."),
        "not_seated": _("You have no seat at this table."),
        "table_cancelled": _("This table was cancelled by its creator."),
        # The rules.
        "invalid_card": _("That is not a card: write rank then suit, like AS, 10H or 7D."),
        "not_in_this_game": _("This game is not played that way."),
        "invalid_options": _("These rules do not go together."),
        "invalid_player_count": _("Romanian Whist is played by 3 to 6 players."),
        "wrong_phase": _("That cannot be done now."),
        "not_your_turn": _("It is not your turn."),
        "no_such_seat": _("There is no such seat at this table."),
        "bid_out_of_range": _("A bid is between 0 and the number of cards dealt."),
        "dealer_bid_forbidden": _(
            "The dealer may not make the bids add up to the number of cards dealt."
        ),
        "card_not_in_hand": _("That card is not in your hand."),
        "must_follow_suit": _("You must follow suit."),
        "must_trump": _("You have none of the suit led: you must trump."),
        "not_the_dealer": _("Only the dealer chooses how a one-card deal is played."),
        "invalid_one_card_mode": _("A one-card deal is played open, on the forehead or blind."),
        "zero_play_not_allowed": _("Playing for zero is not allowed at this table now."),
        "invalid_secret": _("That is not the secret this deal was committed to."),
        # The championships.
        "event_not_found": _("There is no such championship event."),
        "season_not_found": _("There is no such season."),
        "not_organizer": _("Only the event's organizer may do that."),
        "not_entered": _("That player is not entered in this event."),
        "already_entered": _("That player is already entered in this event."),
        "round_in_progress": _("The current round is still being played."),
        "event_over": _("Every round of this event has been played."),
        "not_enough_players": _("A round needs at least 3 checked-in players."),
        "players_not_in_fours": _(
            "A whist drive seats its players in fours: a round needs a multiple of 4 "
            "checked-in players."
        ),
        "too_few_players": _("There are too few players to seat."),
        "invalid_table_size": _("Tables seat 3 to 6 players."),
        "sizes_mismatch": _("The tables' sizes do not add up to the players present."),
        "duplicate_player": _("A player cannot sit at two seats."),
        # Accounts.
        "invalid_credentials": _("The username and password do not match an active account."),
        "not_authenticated": _("Sign in to play."),
        # The sockets and the API.
        "server_error": _("Something went wrong on our side; try again."),
        "too_many_messages": _("Too many messages at once: the connection was closed."),
        "message_too_large": _("That message is too large: the connection was closed."),
        "too_deep": _("That message is nested too deeply."),
        "request_too_large": _("The request is too large."),
        "database_unavailable": _("The database is not answering; try again shortly."),
        "not_found": _("There is no such page."),
        "throttled": _("Too many requests: wait a moment and try again."),
    }


def refusal(error: DomainError | RuleError, overrides: dict[str, str] | None = None) -> str:
    """A refusal in the reader's language: the page's own words for its code if it has
    them, else this module's; the generic refusal for a code not known here."""
    if overrides and error.code in overrides:
        return overrides[error.code]
    # Invalid input and options are told by what was wrong with them, which only the
    # refusing service knows.
    reasoned = {
        "invalid_input": _("Not accepted: %(reason)s"),
        "invalid_options": _("These rules do not go together: %(reason)s"),
    }
    if error.code in reasoned:
        return reasoned[error.code] % {"reason": error.message}
    texts = error_texts()
    return texts.get(error.code, texts["error"])
