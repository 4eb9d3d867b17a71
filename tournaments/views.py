"""The championship pages: the events list, creating an event, its public page, the
organizer's page and printouts, a player's "my table", results (printable and CSV) and
seasons.

Views parse a form and call one service each (reads go through
``tournaments.selectors``, the organizer's printouts through ``tournaments.paper``); a
refused command comes back as the page it was sent from, with the reason and the
error's 4xx status. The live parts are drawn in the
browser from the event's WebSocket (tournaments/static/tournaments/event.js).
"""

from __future__ import annotations

import csv
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from coded import CodedError
from games.commands import actions as games
from games.visibility import seen_games
from games.web.forms import KIND_LABELS, PRESET_LABELS, preset_label
from runtime.error_text import refusal
from runtime.replica import tolerates_staleness
from tournaments import comparison, desk, paper, players, selectors, services
from tournaments.championship import MAX_CALL_NOTE_LENGTH
from tournaments.errors import (
    EventNotFound,
    GamesPageNotFound,
    MayNotOrganize,
    NotEnoughPlayers,
    NotOrganizer,
    PlayerNotFound,
    PlayersNotInFours,
    RoundInProgress,
    SeasonNotFound,
    TooFewInPlace,
)
from tournaments.forms import (
    POINTS_LABELS,
    AnnouncementForm,
    BotsForm,
    CallTimeForm,
    CloseCallForm,
    CorrectionForm,
    DeputyForm,
    DisqualifyForm,
    EventForm,
    ExtendRoundForm,
    PauseForm,
    PlayerPageForm,
    PublishForm,
    RegisterPlayerForm,
    SeasonForm,
    StartRoundForm,
    SubstituteForm,
)
from tournaments.models import Entry, Event, Season

# Pausing a table is the games' own service; it may not exist in older trees.
CAN_PAUSE = hasattr(games, "game_pause") and hasattr(games, "game_resume")


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def _may_organize(request: HttpRequest) -> bool:
    user = request.user
    return isinstance(user, User) and user.may_organize


# --- The words the pages and their script show ----------------------------------------


def status_labels() -> dict[str, str]:
    return {
        Event.Status.REGISTRATION: _("Registration open"),
        Event.Status.RUNNING: _("In play"),
        Event.Status.FINISHED: _("Finished"),
        Event.Status.PUBLISHED: _("Results published"),
    }


# Published results in their protest window (%(time)s: when they become final).
PROVISIONAL_UNTIL = gettext_lazy(
    "Provisional until %(time)s: the director may still correct the results."
)


def event_text() -> dict[str, Any]:
    """What event.js writes, in the reader's language."""
    return {
        "status": status_labels(),
        "round_of": _("Round %(round)s of %(total)s"),
        "no_round": _("No round has started yet."),
        "provisional": _("Provisional: tables are still playing."),
        "provisional_until": str(PROVISIONAL_UNTIL),
        "final": _("Final standings."),
        "no_standings": _("No hand has been scored yet."),
        "screened": _(
            "Duplicate deals: the standings show once every table of the round has finished."
        ),
        "table": _("Table %(number)s"),
        "deal_of": _("Deal %(hand)s of %(total)s"),
        "waiting_start": _("Starting"),
        "playing": _("Playing"),
        "finished": _("Finished"),
        "paused": _("Paused"),
        "watch": _("Watch"),
        "replay": _("Replay"),
        "record": _("Record (JSON)"),
        "to_act": _("%(name)s to act for %(seconds)s s"),
        "no_tables": _("No table is playing."),
        "round": _("Round %(round)s"),
        "checked_in": _("checked in"),
        "checked_in_room": _("checked in, in the room"),
        "in_room": _("In the room"),
        "move_to_room": _("Move to the room"),
        "move_online": _("Move online"),
        "score": _("Write deals down"),
        "checked_in_online": _("checked in, online"),
        "check_in_room": _("Check in: in the room"),
        "check_in_online": _("Check in: online"),
        "withdrawn": _("withdrawn"),
        # A disqualified player's line of the leaderboard (%(reason)s: the director's).
        "disqualified": _("disqualified: %(reason)s"),
        "registered": _("registered"),
        "check_in": _("Check in"),
        "withdraw": _("Withdraw"),
        "withdraw_question": _("Withdraw %(name)s from the rounds to come?"),
        "withdraw_confirm": _("Yes, withdraw"),
        "pause": _("Pause"),
        "resume": _("Resume"),
        "reconnecting": _("Connection lost; reconnecting…"),
        "catching_up": _("Catching up…"),
        "too_many_sockets": _(
            "Too many connections at once: close another tab of the site, then reload."
        ),
        "no_seat": _("You have no seat yet: the page shows it as soon as the round starts."),
        "not_entered": _("You are not entered in this event."),
        "seat_title": _("Round %(round)s: table %(table)s, seat %(seat)s"),
        "tablemates": _("At your table: %(names)s"),
        "go_to_table": _("Go to your table"),
        "seated_banner": _("Round %(round)s has started: you sit at table %(table)s."),
        "tables_in_play": _("Tables in play"),
        "tables_of_round": _("Tables of round %(round)s"),
        "start_round": _("Start round %(round)s"),
        # Why the next round may not start yet (tournaments.rounds), by the refusal's code.
        "start_waits": {
            code: _(text)
            for code, text in (
                (RoundInProgress.code, RoundInProgress.text),
                (NotEnoughPlayers.code, NotEnoughPlayers.text),
                (PlayersNotInFours.code, PlayersNotInFours.text),
                (TooFewInPlace.code, TooFewInPlace.text),
            )
        },
        "notify_title": _("Your table is ready"),
        # The calls to the director, on the organizer's page.
        "reasons": desk.call_reasons(),
        "call_from": _("%(name)s, table %(table)s, seat %(seat)s"),
        "call_waiting": _("Waiting %(time)s"),
        "call_answered": _("Answered %(time)s ago: on the way"),
        "answer_call": _("Answer: I am coming"),
        "close_call": _("Close"),
        "call_note": _("Note (what was decided)"),
        "open_table": _("Open the table"),
        "no_calls": _("No call is waiting."),
    }


def _refusal(error: CodedError, overrides: dict[str, str] | None = None) -> str:
    """A refusal in the reader's language, said as an event's page says it."""
    return refusal(
        error,
        {
            "event_over": _("Every round of this event has started: entries are closed."),
            "version_conflict": _(
                "The event changed since this page was loaded: check it and try again."
            ),
            "game_not_found": _("There is no such table in this event."),
            "not_your_seat": _("Only the organizer may pause or resume a table."),
            **(overrides or {}),
        },
    )


def _refused(request: HttpRequest, error: CodedError) -> HttpResponse:
    """A page that says no, when there is no form to show the reason beside."""
    return render(
        request,
        "tournaments/refused.html",
        {"message": _refusal(error)},
        status=error.status,
    )


def _page_config(
    request: HttpRequest, event: Event, live: dict[str, Any], mode: str
) -> dict[str, Any]:
    config: dict[str, Any] = {
        "mode": mode,
        "socket": f"/ws/events/{event.code}/",
        "live": live,
        "text": event_text(),
        "game_url": reverse("games:table", args=["CODE"]),
        "record_url": reverse("api-game-record", args=["CODE"]),
        # A player's page, its id 0 replaced by the leaderboard's.
        "player_url": reverse("tournaments:player", args=[0]),
    }
    if mode == "manage":
        config["csrf"] = get_token(request)
        config["poll"] = reverse("tournaments:live", args=[event.code])
        config["check_in_url"] = reverse("tournaments:check-in-player", args=[event.code, 0])
        config["withdraw_url"] = reverse("tournaments:withdraw-player", args=[event.code, 0])
        config["move_url"] = reverse("tournaments:move-table", args=[event.code, 0])
        config["score_url"] = reverse("games:score", args=["CODE"])
        config["unannounce_url"] = reverse("tournaments:unannounce", args=[event.code, 0])
        config["answer_call_url"] = reverse("tournaments:answer-call", args=[event.code, 0])
        config["close_call_url"] = reverse("tournaments:close-call", args=[event.code, 0])
        config["max_note"] = MAX_CALL_NOTE_LENGTH
        if CAN_PAUSE:
            config["pause_url"] = reverse("tournaments:pause", args=[event.code, "CODE"])
            config["resume_url"] = reverse("tournaments:resume", args=[event.code, "CODE"])
    return config


def _event_context(event: Event) -> dict[str, Any]:
    season = Season.objects.filter(pk=event.season_id).first() if event.season_id else None
    return {
        "event": event,
        "season": season,
        "status_label": status_labels().get(event.status, event.status),
        "points_label": POINTS_LABELS.get(event.points, event.points),
        "preset_label": PRESET_LABELS.get(event.preset, event.preset or _("custom rules")),
        "rounds_left": event.rounds_started < event.rounds_total,
        # The warnings of the round's clock, for its countdown.
        "clock_warnings": selectors.round_warnings(),
        # While published results may still be corrected: when they become final.
        "provisional_until": selectors.results_provisional_until(event, timezone.now()),
    }


# --- The list, and creating events and seasons ----------------------------------------


def countdown_config() -> dict[str, Any]:
    """What countdown.js reads: the server's time, and its words."""
    return {
        "now": timezone.now().isoformat(),
        "reload_ms": 1500,
        "text": {"now": _("now"), "days": _("%(days)s d %(time)s")},
    }


def _upcoming_order(event: Event) -> tuple[bool, Any]:
    # The soonest first; unscheduled ones after, newest first as the list is.
    return (event.starts_at is None, event.starts_at or 0)


@require_GET
@tolerates_staleness
def events_list(request: HttpRequest) -> HttpResponse:
    events = [_as_seen(request, event) for event in selectors.events_list(_user_id(request))]
    names = selectors.season_names(event.season_id for event in events)
    labels = status_labels()
    directed = selectors.directed_events(events, _user_id(request))
    groups: dict[str, list[Event]] = {"upcoming": [], "running": [], "finished": []}
    for event in events:
        event.directed = event.id in directed  # type: ignore[attr-defined]
        event.season_name = names.get(event.season_id, "")  # type: ignore[arg-type, attr-defined]
        event.status_label = labels.get(event.status, event.status)  # type: ignore[attr-defined]
        groups[selectors.schedule_group(event)].append(event)
    groups["upcoming"].sort(key=_upcoming_order)
    titles = {"upcoming": _("Upcoming"), "running": _("In play"), "finished": _("Finished")}
    return render(
        request,
        "tournaments/events_list.html",
        {
            "groups": [(key, titles[key], found) for key, found in groups.items() if found],
            "may_organize": _may_organize(request),
            "countdown": countdown_config(),
        },
    )


def _new_event_page(
    request: AuthenticatedHttpRequest,
    *,
    form: EventForm | None = None,
    season_form: SeasonForm | None = None,
    status: int = 200,
) -> HttpResponse:
    seasons = list(selectors.organizer_seasons(request.user.pk))
    if form is None:
        chosen = request.GET.get("season", "")
        initial = {"season": chosen} if any(str(s.id) == chosen for s in seasons) else {}
        form = EventForm(seasons=seasons, initial=initial)
    context = {"form": form, "season_form": season_form or SeasonForm()}
    return render(request, "tournaments/event_new.html", context, status=status)


@login_required
def event_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not _may_organize(request):
        return _refused(request, MayNotOrganize())
    if request.method != "POST":
        return _new_event_page(request)
    seasons = list(selectors.organizer_seasons(request.user.pk))
    form = EventForm(request.POST, seasons=seasons)
    if not form.is_valid():
        return _new_event_page(request, form=form, status=400)
    data = form.cleaned_data
    try:
        event = services.event_create(
            organizer=request.user,
            name=data["name"],
            season_id=form.season_id(),
            # A whist drive plays classic Whist's whist-drive preset.
            preset_name=None if form.is_drive else data["preset"],
            options=form.options(),
            kind=data["game"],
            movement=data["movement"],
            table_size=data["table_size"],
            rounds=data["rounds"],
            points=data["points"],
            tie_breaks=data["tie_breaks"],
            auto_advance=data["auto_advance"],
            public=data["public"],
            spectator_delay=data["spectator_delay"],
            duplicate=data["duplicate"],
            first_round=data["first_round"],
            turn_seconds=data["turn_seconds"],
            bot_level=data["bot_level"],
            place=data["place"],
            **form.timing(),
            protest_minutes=data["protest_minutes"],
            round_minutes=data["round_minutes"],
            at_time=data["at_time"],
            absent_seconds=data["absent_seconds"],
            table_chat=data["table_chat"],
        )
    except CodedError as error:
        form.add_error(None, _refusal(error))
        return _new_event_page(request, form=form, status=error.status)
    return redirect("tournaments:manage", event.code)


@require_POST
@login_required
def season_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not _may_organize(request):
        return _refused(request, MayNotOrganize())
    form = SeasonForm(request.POST)
    if not form.is_valid():
        return _new_event_page(request, season_form=form, status=400)
    try:
        season = services.season_create(organizer=request.user, name=form.cleaned_data["name"])
    except CodedError as error:
        form.add_error(None, _refusal(error))
        return _new_event_page(request, season_form=form, status=error.status)
    messages.success(request, _("Season %(name)s created.") % {"name": season.name})
    return redirect(f"{reverse('tournaments:new')}?season={season.id}")


# --- The public page, its live picture and a player's own page --------------------------


def _viewable(request: HttpRequest, code: str) -> Event:
    try:
        return _as_seen(request, selectors.viewable_event(code, _user_id(request)))
    except EventNotFound:
        raise Http404(_("There is no such championship event.")) from None


def _as_seen(request: HttpRequest, event: Event) -> Event:
    """``event`` with the status this viewer sees: not finished while its spectator
    delay still holds its last table's finish back from them (never saved)."""
    event.status = selectors.seen_status(event, _user_id(request), timezone.now())
    return event


def _event_page(
    request: HttpRequest, event: Event, *, error: str = "", status: int = 200
) -> HttpResponse:
    user_id = _user_id(request)
    live = selectors.event_live(event.id, user_id)
    now = timezone.now()
    context = {
        **_event_context(event),
        "live": live,
        "me": live["me"],
        "directs": selectors.directs_event(event, user_id),
        "error": error,
        "page": _page_config(request, event, live, "public"),
        "check_in": selectors.check_in_state(event, now),
        "entries": selectors.entries_state(event, now),
        "countdown": countdown_config(),
    }
    return render(request, "tournaments/event.html", context, status=status)


@require_GET
def event_page(request: HttpRequest, code: str) -> HttpResponse:
    return _event_page(request, _viewable(request, code))


@require_GET
def event_live(request: HttpRequest, code: str) -> JsonResponse:
    event = _viewable(request, code)
    return JsonResponse(selectors.event_live(event.id, _user_id(request)))


@require_GET
@login_required
def my_table(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    event = _viewable(request, code)
    live = selectors.event_live(event.id, _user_id(request))
    context = {
        **_event_context(event),
        "me": live["me"],
        "page": _page_config(request, event, live, "my-table"),
    }
    return render(request, "tournaments/my_table.html", context)


def _player_action(
    request: HttpRequest, code: str, run: Callable[[Event], object], done: str
) -> HttpResponse:
    """A player's own command from the event page: back to it, or the page again
    with the reason."""
    event = _viewable(request, code)
    try:
        run(event)
    except CodedError as error:
        return _event_page(request, event, error=_refusal(error), status=error.status)
    messages.success(request, done)
    return redirect("tournaments:event", event.code)


@require_POST
@login_required
def register_self(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    return _player_action(
        request,
        code,
        lambda event: services.event_register(event_id=event.id, actor=request.user),
        _("You are entered. Check in when you are ready to play."),
    )


def _in_room(request: HttpRequest) -> bool:
    """Whether a check-in says the player is in the room (an event played both ways)."""
    return request.POST.get("in_room") == "1"


@require_POST
@login_required
def check_in_self(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    return _player_action(
        request,
        code,
        lambda event: services.event_check_in(
            event_id=event.id, actor=request.user, in_room=_in_room(request)
        ),
        _("You are checked in for the next round."),
    )


@require_POST
@login_required
def withdraw_self(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    return _player_action(
        request,
        code,
        lambda event: services.event_withdraw(event_id=event.id, actor=request.user),
        _("You are withdrawn from the rounds to come."),
    )


# --- The organizer's page -------------------------------------------------------------


def _managed(request: HttpRequest, code: str) -> Event:
    try:
        return selectors.managed_event(code, _user_id(request))
    except EventNotFound:
        raise Http404(_("There is no such championship event.")) from None


def _players(event: Event) -> list[tuple[int, str]]:
    return [(entry.player_id, entry.name) for entry in Entry.objects.filter(event_id=event.id)]


def _manage_page(
    request: HttpRequest,
    event: Event,
    *,
    error: str = "",
    status: int = 200,
    **forms: Any,
) -> HttpResponse:
    live = selectors.event_live(event.id, _user_id(request))
    is_organizer = event.organizer_id == _user_id(request)
    context = {
        **_event_context(event),
        "live": live,
        "entries": Entry.objects.filter(event_id=event.id),
        # Check-in and withdrawal are for the rounds to come: none once it is over.
        "over": event.status in (Event.Status.FINISHED, Event.Status.PUBLISHED),
        "error": error,
        # Only the organizer names and removes deputies.
        "is_organizer": is_organizer,
        "deputies": selectors.deputies(event) if is_organizer else [],
        "deputy_form": forms.get("deputy_form") or DeputyForm(),
        "can_pause": CAN_PAUSE,
        # No results are published while a table plays (the service refuses it too).
        "tables_playing": any(not table["finished"] for table in live["tables"]),
        "bots_form": forms.get("bots_form") or BotsForm(),
        "register_form": forms.get("register_form") or RegisterPlayerForm(),
        "announcement_form": forms.get("announcement_form") or AnnouncementForm(),
        "correction_form": forms.get("correction_form")
        or CorrectionForm(players=_players(event), initial={"round": event.rounds_started or 1}),
        "start_form": StartRoundForm(initial={"expected_version": event.version}),
        # The round clock's commands, for the round in play (event.js keeps it so).
        "call_time_form": CallTimeForm(initial={"round": event.rounds_started}),
        "extend_form": forms.get("extend_form")
        or ExtendRoundForm(initial={"round": event.rounds_started}),
        "start_wait": _start_wait(live["next_round"]),
        "publish_form": forms.get("publish_form")
        or PublishForm(initial={"protest_minutes": _protest_minutes(event)}),
        # The day's schedule, as the organizer chose it.
        "schedule": selectors.event_settings(event.id),
        "audit": selectors.event_audit(event.id),
        "seat_tables": selectors.event_seats(event.id),
        "substitute_players": _players(event),
        "disqualify_form": forms.get("disqualify_form") or DisqualifyForm(players=_players(event)),
        "room_tables": paper.room_tables(event),
        "page": _page_config(request, event, live, "manage"),
    }
    return render(request, "tournaments/manage.html", context, status=status)


def _start_wait(next_round: dict[str, Any] | None) -> str:
    """Why the next round is not offered yet, as event.js says it too."""
    refusal = next_round["refusal"] if next_round else None
    return str(event_text()["start_waits"].get(refusal, "")) if refusal else ""


def _protest_minutes(event: Event) -> int:
    """The protest window chosen when the event was created."""
    return services.load_championship(event.id).settings.protest_minutes


def _organizer_action(
    request: HttpRequest,
    code: str,
    run: Callable[[Event], str],
    *,
    overrides: dict[str, str] | None = None,
) -> HttpResponse:
    """An organizer's command: ``run`` parses its form and calls its one service,
    returning what to tell the organizer; a refusal shows the page again with the
    reason and the error's status."""
    try:
        event = _managed(request, code)
    except NotOrganizer as error:
        return _refused(request, error)
    try:
        done = run(event)
    except InvalidForm as invalid:
        return _manage_page(request, event, error=invalid.message, status=400, **invalid.forms)
    except CodedError as error:
        return _manage_page(
            request,
            Event.objects.get(pk=event.id),
            error=_refusal(error, overrides),
            status=error.status,
        )
    messages.success(request, done)
    return redirect("tournaments:manage", event.code)


class InvalidForm(Exception):
    """A form that did not validate, to show again with its errors."""

    def __init__(self, message: str = "", **forms: Any) -> None:
        super().__init__(message or "invalid form")
        self.message = message
        self.forms = forms


@login_required
@require_GET
def manage(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    try:
        event = _managed(request, code)
    except NotOrganizer as error:
        return _refused(request, error)
    return _manage_page(request, event)


@require_POST
@login_required
def add_bots(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    def run(event: Event) -> str:
        form = BotsForm(request.POST)
        if not form.is_valid():
            raise InvalidForm(bots_form=form)
        count = form.cleaned_data["count"]
        services.event_add_bots(event_id=event.id, actor=request.user, count=count)
        return ngettext(
            "%(count)s bot entered and checked in.",
            "%(count)s bots entered and checked in.",
            count,
        ) % {"count": count}

    return _organizer_action(request, code, run)


@require_POST
@login_required
def register_player(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    def run(event: Event) -> str:
        form = RegisterPlayerForm(request.POST)
        if not form.is_valid():
            raise InvalidForm(register_form=form)
        player = form.cleaned_data["username"]
        services.event_register(event_id=event.id, actor=request.user, player=player)
        return _("%(name)s is entered.") % {"name": player.display}

    return _organizer_action(request, code, run)


@require_POST
@login_required
def check_in_player(request: AuthenticatedHttpRequest, code: str, player_id: int) -> HttpResponse:
    def run(event: Event) -> str:
        services.event_check_in(
            event_id=event.id, actor=request.user, player_id=player_id, in_room=_in_room(request)
        )
        return _("Player checked in.")

    return _organizer_action(request, code, run)


@require_POST
@login_required
def withdraw_player(request: AuthenticatedHttpRequest, code: str, player_id: int) -> HttpResponse:
    def run(event: Event) -> str:
        services.event_withdraw(event_id=event.id, actor=request.user, player_id=player_id)
        return _("Player withdrawn from the rounds to come.")

    return _organizer_action(request, code, run)


@require_POST
@login_required
def start_round(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    def run(event: Event) -> str:
        form = StartRoundForm(request.POST)
        if not form.is_valid():
            raise InvalidForm(_("The page sent a broken form: reload it and try again."))
        result = services.event_start_round(
            event_id=event.id,
            actor=request.user,
            expected_version=form.cleaned_data["expected_version"],
        )
        number = Event.objects.values_list("rounds_started", flat=True).get(pk=result.event_id)
        return _("Round %(round)s started.") % {"round": number}

    return _organizer_action(
        request,
        code,
        run,
        overrides={"event_over": _("Every round of this event has been played.")},
    )


@require_POST
@login_required
def correct_result(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    def run(event: Event) -> str:
        form = CorrectionForm(request.POST, players=_players(event))
        if not form.is_valid():
            raise InvalidForm(correction_form=form)
        data = form.cleaned_data
        services.event_correct_result(
            event_id=event.id,
            actor=request.user,
            round_number=data["round"],
            player_id=data["player"],
            points=data["points"],
            reason=data["reason"],
        )
        return _("Correction recorded.")

    return _organizer_action(
        request,
        code,
        run,
        overrides={"not_entered": _("That player did not play that round.")},
    )


@require_POST
@login_required
def publish_results(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    def run(event: Event) -> str:
        form = PublishForm(request.POST)
        if not form.is_valid():
            raise InvalidForm(publish_form=form)
        services.event_publish_results(
            event_id=event.id,
            actor=request.user,
            protest_minutes=form.cleaned_data["protest_minutes"],
        )
        return _("The results are published.")

    return _organizer_action(
        request,
        code,
        run,
        overrides={"event_over": _("Every round must be played before the results are published.")},
    )


def _table_action(
    request: AuthenticatedHttpRequest, code: str, game_code: str, pause: bool
) -> HttpResponse:
    if not CAN_PAUSE:
        raise Http404(_("Tables cannot be paused here."))

    def run(event: Event) -> str:
        game = selectors.event_game(event, game_code)
        if pause:
            form = PauseForm(request.POST)
            reason = form.cleaned_data["reason"] if form.is_valid() else ""
            games.game_pause(game_id=game.id, actor=request.user, reason=reason)
            return _("Table %(code)s paused.") % {"code": game.code}
        games.game_resume(game_id=game.id, actor=request.user)
        return _("Table %(code)s resumed.") % {"code": game.code}

    return _organizer_action(request, code, run)


@require_POST
@login_required
def pause_table(request: AuthenticatedHttpRequest, code: str, game_code: str) -> HttpResponse:
    return _table_action(request, code, game_code, pause=True)


@require_POST
@login_required
def resume_table(request: AuthenticatedHttpRequest, code: str, game_code: str) -> HttpResponse:
    return _table_action(request, code, game_code, pause=False)


@require_POST
@login_required
def seat_substitute(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """Seat an entrant, an account by username, or a bot in a seat of the round in play."""

    def run(event: Event) -> str:
        form = SubstituteForm(request.POST, players=_players(event))
        if not form.is_valid():
            raise InvalidForm(_("Choose an entrant, type a username, or leave both for a bot."))
        data = form.cleaned_data
        services.event_seat_substitute(
            event_id=event.id,
            actor=request.user,
            table=data["table"],
            seat=data["seat"],
            player_id=data["player"],
            username=data["username"],
        )
        return _("Seat %(seat)s of table %(table)s handed over.") % {
            "seat": data["seat"] + 1,
            "table": data["table"],
        }

    return _organizer_action(request, code, run)


@require_POST
@login_required
def disqualify_player(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    def run(event: Event) -> str:
        form = DisqualifyForm(request.POST, players=_players(event))
        if not form.is_valid():
            raise InvalidForm(disqualify_form=form)
        data = form.cleaned_data
        services.event_disqualify(
            event_id=event.id, actor=request.user, player_id=data["player"], reason=data["reason"]
        )
        return _("Player disqualified.")

    return _organizer_action(request, code, run)


@require_POST
@login_required
def move_table(request: AuthenticatedHttpRequest, code: str, number: int) -> HttpResponse:
    """Move a table of the round in play to the room or online (``place``)."""

    def run(event: Event) -> str:
        place = request.POST.get("place", "")
        services.event_move_table(event_id=event.id, actor=request.user, table=number, place=place)
        if place == "room":
            return _("Table %(number)s now plays in the room.") % {"number": number}
        return _("Table %(number)s now plays online.") % {"number": number}

    return _organizer_action(request, code, run)


@require_POST
@login_required
def call_time(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """Call time in the round in play by hand: each table finishes its deal."""

    def run(event: Event) -> str:
        form = CallTimeForm(request.POST)
        if not form.is_valid():
            raise InvalidForm(_("The page sent a broken form: reload it and try again."))
        data = form.cleaned_data
        services.event_call_time_now(
            event_id=event.id, actor=request.user, round_number=data["round"], reason=data["reason"]
        )
        return _("Time called in round %(round)s: each table finishes its deal.") % {
            "round": data["round"]
        }

    return _organizer_action(request, code, run)


@require_POST
@login_required
def extend_round(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """Give the round in play minutes more, with the reason."""

    def run(event: Event) -> str:
        form = ExtendRoundForm(request.POST)
        if not form.is_valid():
            raise InvalidForm(extend_form=form)
        data = form.cleaned_data
        services.event_extend_round(
            event_id=event.id,
            actor=request.user,
            round_number=data["round"],
            minutes=data["minutes"],
            reason=data["reason"],
        )
        return ngettext(
            "Round %(round)s extended by %(minutes)s minute.",
            "Round %(round)s extended by %(minutes)s minutes.",
            data["minutes"],
        ) % {"round": data["round"], "minutes": data["minutes"]}

    return _organizer_action(request, code, run)


# --- What the organizer prints ------------------------------------------------------


def scorer_url(request: HttpRequest, game_code: str, pin: str) -> str:
    """The absolute address of a table's scorer page, opened with its PIN ("": without)."""
    query = f"?pin={pin}" if pin else ""
    return request.build_absolute_uri(reverse("games:score", args=[game_code]) + query)


def _printout(
    request: HttpRequest, code: str, template: str, read: Callable[[Event], dict[str, Any]]
) -> HttpResponse:
    """An organizer's printable page of the event: what ``read`` finds, or the refusal."""
    try:
        event = _managed(request, code)
        context = read(event)
    except CodedError as error:
        return _refused(request, error)
    return render(request, template, {**_event_context(event), **context})


@login_required
@require_GET
def print_seating(request: AuthenticatedHttpRequest, code: str, number: int) -> HttpResponse:
    return _printout(
        request,
        code,
        "tournaments/paper_seating.html",
        lambda event: {"seating": paper.seating(event, number)},
    )


def _round_papers(
    request: HttpRequest, code: str, number: int, *, cards: bool, sheets: bool
) -> HttpResponse:
    def read(event: Event) -> dict[str, Any]:
        papers = paper.round_papers(event, number, partial(scorer_url, request))
        return {
            "papers": papers,
            "cards": papers.cards if cards else (),
            "sheets": papers.sheets if sheets else (),
        }

    return _printout(request, code, "tournaments/paper_tables.html", read)


@login_required
@require_GET
def print_cards(request: AuthenticatedHttpRequest, code: str, number: int) -> HttpResponse:
    return _round_papers(request, code, number, cards=True, sheets=False)


@login_required
@require_GET
def print_sheets(request: AuthenticatedHttpRequest, code: str, number: int) -> HttpResponse:
    return _round_papers(request, code, number, cards=False, sheets=True)


@login_required
@require_GET
def print_table(request: AuthenticatedHttpRequest, code: str, game_code: str) -> HttpResponse:
    def read(event: Event) -> dict[str, Any]:
        papers = paper.table_papers(event, game_code, partial(scorer_url, request))
        return {"papers": papers, "cards": papers.cards, "sheets": papers.sheets}

    return _printout(request, code, "tournaments/paper_tables.html", read)


# --- Results ------------------------------------------------------------------------


def _csv_text(value: str) -> str:
    """A name a spreadsheet must not take for a formula (players choose their names)."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


@require_GET
@tolerates_staleness
def standings_csv(request: HttpRequest, code: str) -> HttpResponse:
    event = _viewable(request, code)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="atu-{event.code}-standings.csv"'
    writer = csv.writer(response, lineterminator="\n")
    writer.writerow(
        [_("Rank"), _("Player"), _("Points"), _("Exact bids"), _("Best game"), _("Games")]
    )
    # The standings as the event page shows them to this viewer: screened while a
    # duplicate round plays, held back by the spectator delay.
    for row in selectors.event_live(event.id, _user_id(request))["leaderboard"]:
        writer.writerow(
            [
                row["rank"],
                _csv_text(row["name"]),
                row["points_text"],
                row["exact_bids"],
                "" if row["best_game"] is None else row["best_game"],
                row["games"],
            ]
        )
    _csv_afterword(writer, event)
    return response


def _csv_afterword(writer: Any, event: Event) -> None:
    """After the standings: whether they may still change, the corrections folded
    into them, each with its reason, and the substitutions and disqualifications
    that decided whom deals count for."""
    until = selectors.results_provisional_until(event, timezone.now())
    corrections = selectors.event_corrections(event.id)
    if until is not None:
        writer.writerow([])
        writer.writerow([str(PROVISIONAL_UNTIL) % {"time": until.isoformat()}])
    if corrections:
        writer.writerow([])
        writer.writerow([_("Corrections")])
        writer.writerow([_("Round"), _("Player"), _("Points"), _("Reason"), _("Recorded at")])
    for line in corrections:
        writer.writerow(
            [
                line.round,
                _csv_text(line.player),
                line.points,
                _csv_text(line.reason),
                line.at.isoformat(),
            ]
        )
    substitutions = selectors.event_substitutions(event.id)
    if substitutions:
        writer.writerow([])
        writer.writerow([_("Substitutions and disqualifications")])
        writer.writerow([_("What"), _("Reason"), _("Recorded at")])
    for line in substitutions:
        writer.writerow([_csv_text(line.action), _csv_text(line.reason), line.at.isoformat()])


@require_GET
def results(request: HttpRequest, code: str) -> HttpResponse:
    event = _viewable(request, code)
    live = selectors.event_live(event.id, _user_id(request))
    disqualified = selectors.event_disqualified(event.id)
    context = {
        **_event_context(event),
        "standings": [
            {**row, "disqualified": disqualified.get(row["player_id"], "")}
            for row in live["leaderboard"]
        ],
        "linked": selectors.linked_players([row["player_id"] for row in live["leaderboard"]]),
        "substitutions": selectors.event_substitutions(event.id),
        "screened": live["screened"],
        "rounds": live["rounds"],
        "final": event.status in (Event.Status.FINISHED, Event.Status.PUBLISHED),
        "corrections": selectors.event_corrections(event.id),
    }
    return render(request, "tournaments/results.html", context)


@require_GET
def deals(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A duplicate round's deals compared, one deal at a time (``deal``, from 1): each
    seat's cards, and what everyone who held them bid, made and scored, beside the
    strong bot's bid (tournaments.comparison)."""
    event = _viewable(request, code)
    tables = comparison.round_games(event, number) if event.duplicate else []
    # Each table as this viewer sees it: a finish a spectator delay holds back is not one.
    tables = seen_games(tables, _user_id(request), timezone.now())
    total = comparison.round_deals(tables)
    if not total:
        raise Http404(_("This round has no duplicate deals to compare."))
    try:
        deal = min(max(int(request.GET.get("deal", "1")), 1), total)
    except ValueError:
        deal = 1
    context = {
        **_event_context(event),
        "round": number,
        "deal": deal,
        "deals_total": total,
        "deal_numbers": range(1, total + 1),
        "sets": comparison.compare_deal(tables, deal - 1),
    }
    return render(request, "tournaments/deals.html", context)


# --- Seasons ------------------------------------------------------------------------


@require_GET
@tolerates_staleness
def season_page(request: HttpRequest, season_id: uuid.UUID) -> HttpResponse:
    try:
        season = selectors.find_season(season_id)
    except SeasonNotFound:
        raise Http404(_("There is no such season.")) from None
    standings, changes = selectors.season_standings(season.id, _user_id(request))
    events = [
        _as_seen(request, event) for event in selectors.season_events(season.id, _user_id(request))
    ]
    labels = status_labels()
    for event in events:
        event.status_label = labels.get(event.status, event.status)  # type: ignore[attr-defined]
    context = {
        "season": season,
        "standings": standings,
        "linked": selectors.linked_players([row.player_id for row in standings]),
        "chart": selectors.rating_chart(standings, changes),
        "events": events,
        "is_organizer": season.organizer_id == _user_id(request),
    }
    return render(request, "tournaments/season.html", context)


# --- Players --------------------------------------------------------------------------


@require_GET
@tolerates_staleness
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A person's public page (tournaments.players.player_picture). An address asking
    for what the page cannot show is answered 400, with the page as it is without it
    and the reason; a page of games past the last, 404."""
    try:
        player = players.find_player(player_id)
    except PlayerNotFound:
        raise Http404(_("There is no such player.")) from None
    form = PlayerPageForm(request.GET)
    asked = form.cleaned_data if form.is_valid() else {}
    try:
        picture = players.player_picture(
            player,
            _user_id(request),
            timezone.now(),
            page=asked.get("page") or 1,
            season_id=asked.get("season"),
            other_id=asked.get("vs"),
        )
    except GamesPageNotFound:
        raise Http404(_("There is no such page of games.")) from None
    reasons = {
        players.NO_RATING_THERE: _("This player has no rating in that season."),
        players.SAME_PLAYER: _("Choose another player than this one."),
        players.NO_SUCH_PLAYER: _("There is no such player."),
    }
    for field, reason in picture.refused.items():
        form.add_error(field, reasons[reason])
    context = {
        "picture": picture,
        "player": player,
        "form": form,
        "figures": picture.figures,
        "page": picture.page,
        "games": [
            {"line": line, "rules": preset_label(line.kind, line.preset, line.options)}
            for line in picture.page.lines
        ],
        "results": [
            {
                "line": line,
                "game": KIND_LABELS.get(line.kind, line.kind),
                "rules": preset_label(line.kind, line.preset),
            }
            for line in picture.results
        ],
        "events": picture.events,
        "seasons": picture.seasons,
        "season": picture.season,
        "chart": picture.chart,
        "opponents": picture.opponents,
        "versus": picture.versus,
    }
    return render(request, "tournaments/player.html", context, status=400 if form.errors else 200)


# --- Announcements --------------------------------------------------------------------


@require_POST
@login_required
def announce(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    def run(event: Event) -> str:
        form = AnnouncementForm(request.POST)
        if not form.is_valid():
            raise InvalidForm(announcement_form=form)
        services.event_announce(
            event_id=event.id, actor=request.user, text=form.cleaned_data["text"]
        )
        return _("Announced: the room's screen and the event's page show it.")

    return _organizer_action(request, code, run)


@require_POST
@login_required
def unannounce(request: AuthenticatedHttpRequest, code: str, number: int) -> HttpResponse:
    def run(event: Event) -> str:
        services.event_withdraw_announcement(event_id=event.id, actor=request.user, number=number)
        return _("Announcement withdrawn.")

    return _organizer_action(request, code, run)


# --- Calls to the director ------------------------------------------------------------


@require_POST
@login_required
def answer_call(request: AuthenticatedHttpRequest, code: str, number: int) -> HttpResponse:
    def run(event: Event) -> str:
        services.event_answer_call(event_id=event.id, actor=request.user, number=number)
        return _("Call answered: the player sees that you are coming.")

    return _organizer_action(request, code, run)


@require_POST
@login_required
def close_call(request: AuthenticatedHttpRequest, code: str, number: int) -> HttpResponse:
    def run(event: Event) -> str:
        form = CloseCallForm(request.POST)
        if not form.is_valid():
            limit = {"count": MAX_CALL_NOTE_LENGTH}
            raise InvalidForm(_("A note is at most %(count)s characters.") % limit)
        services.event_close_call(
            event_id=event.id, actor=request.user, number=number, note=form.cleaned_data["note"]
        )
        return _("Call closed.")

    return _organizer_action(request, code, run)


@require_POST
@login_required
def name_deputy(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    def run(event: Event) -> str:
        form = DeputyForm(request.POST)
        if not form.is_valid():
            raise InvalidForm(deputy_form=form)
        services.event_name_deputy(
            event_id=event.id, actor=request.user, who=form.cleaned_data["who"]
        )
        return _("%(who)s is a deputy: they may run this event with you.") % {
            "who": form.cleaned_data["who"].strip()
        }

    return _organizer_action(request, code, run)


@require_POST
@login_required
def remove_deputy(request: AuthenticatedHttpRequest, code: str, user_id: int) -> HttpResponse:
    def run(event: Event) -> str:
        services.event_remove_deputy(event_id=event.id, actor=request.user, user_id=user_id)
        return _("The deputy is removed.")

    return _organizer_action(request, code, run)


# --- The room's screen ----------------------------------------------------------------


def screen_text() -> dict[str, Any]:
    """What screen.js writes, in the reader's language."""
    return {
        "status": status_labels(),
        "round_of": _("Round %(round)s of %(total)s"),
        "no_round": _("No round has started yet."),
        "round_time": _("Round %(round)s: time played"),
        "round_over": _("Round %(round)s is over."),
        "provisional": _("Provisional: tables are still playing."),
        "final": _("Final standings."),
        "no_standings": _("No hand has been scored yet."),
        "screened": _(
            "Duplicate deals: the standings show once every table of the round has finished."
        ),
        "standings": _("Standings"),
        "find_your_table": _("Round %(round)s: find your table"),
        "page_of": _("Page %(page)s of %(pages)s"),
        "table": _("Table %(number)s"),
        "deal_of": _("Deal %(hand)s of %(total)s"),
        "waiting_start": _("Starting"),
        "finished": _("Finished"),
        "paused": _("Paused"),
        "room": _("In the room"),
        "online": _("Online"),
        "no_tables": _("No table is playing."),
        "disqualified": _("disqualified: %(reason)s"),
        "reconnecting": _("Connection lost; reconnecting…"),
        "too_many_sockets": _(
            "Too many connections at once: close another tab of the site, then reload."
        ),
    }


def qr_svg(url: str) -> SafeString:
    """``url`` as a QR code, inline SVG markup (no script, no style: the page's
    content security policy allows it)."""
    code = segno.make(url, error="m")
    # The markup is segno's own: the URL is in it as modules, never as text.
    return mark_safe(
        code.svg_inline(scale=1, border=2, svgclass="qr", lineclass=None, omitsize=True)
    )


@require_GET
def screen(request: HttpRequest, code: str) -> HttpResponse:
    """The room's screen: a full-screen page for a projector that runs by itself."""
    event = _viewable(request, code)
    live = selectors.event_live(event.id, _user_id(request))
    url = request.build_absolute_uri(reverse("tournaments:event", args=[event.code]))
    context = {
        **_event_context(event),
        "event_url": url,
        "qr": qr_svg(url),
        "page": {
            "socket": f"/ws/events/{event.code}/",
            "live": live,
            "text": screen_text(),
            # The screen's clock counts from the server's time, whatever the
            # projector's computer thinks the time is.
            "server_now": timezone.now().isoformat(),
            "find_seconds": settings.ATU_SCREEN_SEATING_SECONDS,
            "page_seconds": settings.ATU_SCREEN_PAGE_SECONDS,
        },
    }
    return render(request, "tournaments/screen.html", context)
