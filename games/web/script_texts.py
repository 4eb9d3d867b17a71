"""The words the table page's script shows, in the reader's language.

Errors keep the services' English message for the API; the page shows its error
class's text (runtime.error_text) instead, found by its code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import SocketError
from games.read.chat import PHRASES
from games.read.pins import PIN_DIGITS
from games.rules import OneCardMode, RuleOptions, Schedule, Scoring, build_schedule
from games.rules.classic import ClassicOptions, TrumpMethod
from games.web.forms import LEVEL_LABELS
from runtime.error_text import error_texts


def table_text() -> dict[str, Any]:
    return {
        "waiting": _("Waiting for players: %(seated)s of %(total)s seated."),
        "hand_of": _("Deal %(hand)s of %(total)s"),
        "cards_dealt": _("%(cards)s cards"),
        "one_card": _("1 card"),
        "dealer": _("dealer"),
        "trump": _("Trump"),
        "no_trump": _("No trump"),
        "your_turn": _("Your turn"),
        "to_bid": _("%(alias)s to bid"),
        "to_play": _("%(alias)s to play"),
        "to_choose": _("%(alias)s chooses how the one-card deal is played"),
        "game_over": _("Game over"),
        "winner": _("Winner: %(names)s"),
        "shared_win": _("Shared win: %(names)s"),
        "paused": _("Paused by the organizer"),
        # Where a replay stands: "Deal 5 of 21 · trick 3 of 6 · step 250 of 649".
        "trick_of": _("trick %(trick)s of %(total)s"),
        "replay_bidding": _("bidding"),
        "replay_scored": _("scored"),
        "step_of": _("step %(at)s of %(last)s"),
        # The replay's panel of a deal: the points each player made in it.
        "hand_points": _("points"),
        "replay": _("Replay the game, move by move"),
        "screened": _("Duplicate deals: the cards are shown once every table has played them."),
        "bid": _("bid"),
        "tricks": _("tricks"),
        "score": _("score"),
        "your_bid": _("Your bid"),
        "current_trick": _("Trick in progress"),
        "last_trick": _("Last trick"),
        "won_by": _("won by %(alias)s"),
        "your_hand": _("Your hand"),
        "play_hidden": _("Play your card"),
        "forehead": _("On the forehead: you see everyone's card but your own."),
        "blind": _("Blind deal: you bid without seeing your cards; they show after the last bid."),
        "watching": _("You are watching this table."),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost; reconnecting…"),
        "catching_up": _("Catching up…"),
        "too_many_sockets": _(
            "Too many connections at once: close another tab of the site, then reload."
        ),
        "choose_mode": _("Choose how this one-card deal is played:"),
        "modes": {"open": _("open"), "forehead": _("on the forehead"), "blind": _("blind")},
        "bot": _("bot"),
        # A bot's name wherever no badge beside it says so (the winner, the ranking).
        "bot_name": _("%(alias)s (bot)"),
        "empty_seat": _("free seat"),
        "bot_for_me": _("Let a bot play for me"),
        "bot_level": _("Bot level"),
        "levels": {name: str(label) for name, label in LEVEL_LABELS.items()},
        "cancelled": _("This table was cancelled by its creator."),
        "seat_back": _("Take my seat back"),
        "bot_seat": _("Bot"),
        "unbot_seat": _("Remove bot"),
        "confirm_bot_seat": _(
            "Give %(alias)s's seat to a bot? It plays their turns until the seat is handed back."
        ),
        "confirm_bot_for_me": _(
            "Let a bot play your seat? It plays your turns until you take your seat back."
        ),
        "confirm_unbot_seat": _(
            "Take the bot off %(alias)s's seat? The table then waits for %(alias)s to play."
        ),
        "timed_out": _("Time ran out: a bot played for you."),
        "seconds_left": _("%(seconds)s s left"),
        "scoreboard": _("Scoreboard"),
        "cards": _("Cards"),
        "final_ranking": _("Final ranking"),
        "place": _("Place"),
        "player": _("Player"),
        "points": _("Points"),
        "points_count": plural_forms(
            lambda n: ngettext("%(points)s point", "%(points)s points", n)
        ),
        "scores_now": _("Scores"),
        "chart": _("Cumulative score by deal"),
        "streak_bonus": _("streak bonus"),
        "streak_penalty": _("streak penalty"),
        "missed": _("missed bid"),
        "bids_total": plural_forms(
            lambda n: ngettext(
                "Bids: %(bids)s for %(cards)s card", "Bids: %(bids)s for %(cards)s cards", n
            )
        ),
        "title_turn": _("● Your turn — Atu"),
        "trick_taken": _("%(alias)s takes the trick."),
        "card_label": _("%(rank)s of %(suit)s"),
        "bid_label": _("Bid %(bid)s"),
        "classic": classic_text(),
        "chat": chat_text(),
        "analysis": analysis_text(),
        "errors": {**error_texts(), **error_texts(SocketError)},
        # The refusals the page words itself, knowing the bid refused and the cards dealt:
        # by the number of cards.
        "counted_errors": {
            "dealer_bid_forbidden": plural_forms(
                lambda n: ngettext(
                    "The dealer may not bid %(bid)s: "
                    "the bids would add up to the %(cards)s card dealt.",
                    "The dealer may not bid %(bid)s: "
                    "the bids would add up to the %(cards)s cards dealt.",
                    n,
                )
            ),
        },
    }


def analysis_text() -> dict[str, Any]:
    """The words of the strong bot's analysis on the replay (decision 3602): a mark on the
    slider's track, a line of the deal's flagged decisions, what the bot thinks of the
    move just made (flagged, or under a point), each for a bid and for a card."""
    return {
        "mark": {
            "bid": _("Deal %(deal)s: %(name)s bid %(made)s (the bot: %(best)s, %(loss)s points)"),
            "play": _(
                "Deal %(deal)s, trick %(trick)s: %(name)s played %(made)s "
                "(the bot: %(best)s, %(loss)s points)"
            ),
        },
        # The analysis page's words for the same.
        "flag": {
            "bid": _(
                "%(name)s bid %(made)s; the strong bot would have bid %(best)s: "
                "%(loss)s points expected more."
            ),
            "play": _(
                "Trick %(trick)s: %(name)s played %(made)s; the strong bot would have played "
                "%(best)s: %(loss)s points expected more."
            ),
        },
        "flagged": {
            "bid": _("The strong bot would have bid %(best)s: %(loss)s points expected more."),
            "play": _("The strong bot would have played %(best)s: %(loss)s points expected more."),
        },
        "close": {
            "bid": _("The strong bot would have bid %(best)s: less than a point expected more."),
            "play": _(
                "The strong bot would have played %(best)s: less than a point expected more."
            ),
        },
        "agrees": _("The strong bot agrees."),
    }


def chat_text() -> dict[str, Any]:
    """The words of the table's talk (games/static/games/chat.js): each quick phrase in
    the reader's language, and the mute and report of a player's words."""
    return {
        "phrases": {key: _(label) for key, label in PHRASES.items()},
        "mute": _("Mute"),
        "mute_label": _("Mute %(name)s: hide their words on this device"),
        "unmute": _("Unmute %(name)s"),
        "report": _("Report"),
        "report_label": _("Report these words of %(name)s to the site's staff"),
        "reported": _("Reported"),
    }


# A number of each plural category of the page's languages (Unicode CLDR's, as the
# browser's Intl.PluralRules names them): English has one and other, Romanian one, few
# (2 to 19: "5 puncte") and other (20 on: "20 de puncte").
PLURAL_SAMPLES = {"one": 1, "few": 2, "other": 20}


def plural_forms(words: Callable[[int], str]) -> dict[str, str]:
    """A text's plural forms in the reader's language, by plural category, for the
    page's script to choose from with Intl.PluralRules: ``words`` is the text's
    ``ngettext`` of a number."""
    return {category: words(number) for category, number in PLURAL_SAMPLES.items()}


def score_text() -> dict[str, Any]:
    """The words of the scorer page of a table in the room (games/static/games/score.js)."""
    return {
        "hand_of": _("Deal %(hand)s of %(total)s"),
        "cards_dealt": _("%(cards)s cards"),
        "one_card": _("1 card"),
        "dealer_is": _("dealer: %(alias)s"),
        "seat": _("Seat %(seat)s"),
        "scoring_for": _("You write the deals down for %(alias)s (seat %(seat)s)."),
        "directing": _("You direct this table: the deals you write down stand confirmed."),
        "bids": _("Bids, starting left of the dealer"),
        "tricks": _("Tricks made"),
        "bid_of": _("%(alias)s bids"),
        "made_by": _("%(alias)s made"),
        "tricks_sum": _("Tricks made: %(sum)s of %(cards)s"),
        "forbidden": _(
            "%(alias)s, the dealer, may not bid %(bid)s: the bids may not add up to %(cards)s."
        ),
        "set_bid": _("In this deal everyone bids %(bid)s."),
        "send": _("Send"),
        "cancel": _("Cancel"),
        "correcting": _("Correcting deal %(hand)s"),
        "reason": _("Why it is corrected"),
        "reason_needed": _("This deal is confirmed: say why it is corrected."),
        "rescored": _("The deals after it will be scored again."),
        "deal": _("Deal"),
        "bid_made": _("bid / made"),
        "points": _("points"),
        "total": _("total"),
        "awaiting": _("awaiting confirmation"),
        "confirmed": _("confirmed"),
        "waiting_to_send": _("waiting to send"),
        "written_by": _("written down by %(alias)s"),
        "the_director": _("the director"),
        "confirm": _("Confirm"),
        "correct": _("Correct"),
        "confirm_label": _("Confirm deal %(hand)s"),
        "correct_label": _("Correct deal %(hand)s"),
        "game_over": _("Game over"),
        "all_written": _("Every deal is written down."),
        "time_called_last": _("Time called: last deal"),
        "deal_taken": _("Deal %(hand)s was written down on another phone."),
        "sent": _("Deal %(hand)s is written down."),
        "offline": _(
            "No connection: what you enter waits on this phone and is sent when it returns."
        ),
        "queued": _("Waiting to send: %(count)s"),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost; reconnecting…"),
        "too_many_sockets": _(
            "Too many connections at once: close another tab of the site, then reload."
        ),
        "pin_digits": _("The PIN is the %(digits)s digits on the table card.")
        % {"digits": PIN_DIGITS},
        "choose_seat": _("Choose the seat you sit in."),
        "errors": error_texts(),
    }


def classic_text() -> dict[str, Any]:
    """The words of a classic Whist table: partnerships, trumps, odd tricks, rubbers."""
    return {
        "hand": _("Hand %(hand)s"),
        "rubber_game": _("Game %(game)s of the rubber"),
        "game_to": _("Game to %(target)s points"),
        "dealing": _("Dealing the next hand…"),
        "your_side": _("Your side"),
        "opponents": _("Opponents"),
        "side_seats": _("Seats %(first)s & %(second)s"),
        "partner": _("partner"),
        "held": _("in hand: %(cards)s"),
        "turned_up": _("turned trump"),
        "trump": _("Trump: %(suit)s"),
        "suits": {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")},
        "tricks_this_hand": _("Tricks this hand"),
        "match_rubber": _("A rubber: the best of three games to %(target)s points"),
        "match_game": _("One game to %(target)s points"),
        "match_deals": _(
            "The tournament form: each side scores its odd tricks over a fixed number "
            "of deals (%(deals)s)"
        ),
        "side": _("Side"),
        "players": _("Players"),
        "games": _("Games"),
        "game_score": _("This game"),
        "match_points": _("Total points"),
        "games_score": _("Games: %(score)s"),
        "hand_column": _("Hand"),
        "trump_column": _("Trump"),
        "tricks": _("Tricks"),
        "odd_tricks": _("Odd tricks"),
        "honours": _("Honours"),
        "honours_held": _("%(held)s honours held"),
        "totals": _("Score"),
        "game_won": _("Game %(game)s won by %(side)s, %(score)s"),
        "final_result": _("Final result"),
        "winner": _("Winners: %(side)s"),
        "tie": _("A tie: both sides scored %(points)s."),
    }


def rules_summary(
    kind: str,
    options: RuleOptions | ClassicOptions,
    *,
    player_count: int | None = None,
    turn_seconds: int | None = None,
    timer: bool = False,
) -> list[tuple[str, str]]:
    """A table's rules as (term, description) pairs, in the reader's language: the
    deals (their sequence, for ``player_count`` players), one-card deals, trumping,
    scoring and streaks, or classic Whist's match and trumps; with ``timer``, the
    turn timer of ``turn_seconds`` too."""
    if isinstance(options, ClassicOptions):
        rows = _classic_rules(options)
    else:
        rows = _romanian_rules(options, player_count)
    if timer:
        rows.append(
            (
                _("Turn timer"),
                _("%(seconds)s s a move; then a bot plays it") % {"seconds": turn_seconds}
                if turn_seconds
                else _("no timer"),
            )
        )
    return rows


def _romanian_rules(options: RuleOptions, player_count: int | None) -> list[tuple[str, str]]:
    schedules = {
        Schedule.ONE_EIGHT_ONE: _("1 to 8 and back to 1"),
        Schedule.EIGHT_ONE_EIGHT: _("8 to 1 and back to 8"),
        Schedule.EACH_DEALER_ONCE: _("each dealer deals each number once"),
    }
    deals = schedules[options.schedule]
    if options.step == 2:
        deals += ", " + _("increment 2")
    rows = [(_("Deals"), deals)]
    if player_count is not None:
        cards = [str(spec.cards) for spec in build_schedule(options, player_count)]
        count = ngettext("(%(count)s deal)", "(%(count)s deals)", len(cards)) % {
            "count": len(cards)
        }
        rows.append((_("Cards dealt, hand by hand"), f"{' '.join(cards)} {count}"))
    modes = {
        OneCardMode.NORMAL: _("played normally"),
        OneCardMode.FOREHEAD: _("on the forehead"),
        OneCardMode.BLIND: _("blind"),
        OneCardMode.DEALER_CHOICE: _("the dealer chooses"),
    }
    scorings = {
        Scoring.FIVE_PLUS_BID: _("5 + bid"),
        Scoring.ONE_PLUS_BID: _("1 + bid"),
        Scoring.BID_PLUS_CARDS: _("bid + cards"),
        Scoring.TRIANGULAR: _("triangular"),
    }
    rows += [
        (_("One-card deals"), modes[options.one_card_mode]),
        (_("When void"), _("must trump") if options.must_trump else _("may discard")),
        (_("Scoring"), scorings[options.scoring]),
    ]
    if options.streak_bonus:
        bonus = options.streak_bonus
        rows.append(
            (
                _("Streak bonus"),
                _("+%(points)s for %(length)s exact bids in a row")
                % {"points": bonus.points, "length": bonus.length},
            )
        )
    if options.streak_penalty:
        penalty = options.streak_penalty
        text = _("%(points)s for %(length)s missed bids in a row") % {
            "points": penalty.points,
            "length": penalty.length,
        }
        if not options.streaks_count_one_card_deals:
            text += " " + _("(one-card deals not counted)")
        rows.append((_("Streak penalty"), text))
    return rows


def _classic_rules(options: ClassicOptions) -> list[tuple[str, str]]:
    words = classic_text()
    if options.deals is not None:
        match = words["match_deals"] % {"deals": options.deals}
    elif options.rubber:
        match = words["match_rubber"] % {"target": options.target}
    else:
        match = words["match_game"] % {"target": options.target}
    trumps = {
        TrumpMethod.TURNED: _("the dealer's last card, turned"),
        TrumpMethod.ROTATION: _("in turn: hearts, diamonds, spades, clubs"),
    }[options.trumps]
    if options.no_trump_every_fifth:
        trumps += "; " + _("every fifth hand without trumps")
    return [
        (_("Match"), match),
        (_("Trumps"), trumps),
        (_("Honours scored (A K Q J of trumps)"), _("yes") if options.honours else _("no")),
    ]
