"""The pages: the lobby, a table (for its players and spectators alike), the scorer
page of a table in the room, and the rules.

Views parse the forms and call one service each; the table itself is drawn in the
browser from what the table's WebSocket sends (games/static/games/table.js), and so is
the scorer page (games/static/games/score.js), which writes deals down through the API.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from accounts.services import user_create_guest
from accounts.views import throttled
from coded import CodedError
from games.bots import DEFAULT_LEVEL, LEVEL_NAMES
from games.commands import actions
from games.commands.aliases import fitting_alias
from games.errors import DealSetInPlay, GameNotFound, RecordNotReady
from games.models import Game
from games.read.analysis import analysis_page, analysis_view
from games.read.chat import MAX_TEXT_LENGTH, PHRASES, home_chat
from games.read.pins import PIN_DIGITS
from games.read.selectors import (
    CHAT_OFF,
    PlayerGame,
    bot_seats,
    find_game,
    game_summaries,
    games_list,
    person_ids,
    player_events,
    player_games,
    player_seats,
    rematch_game,
    room_game,
    rule_presets,
    scorer_of,
    set_bids,
    table_home,
)
from games.rules import classic, options_from_dict
from games.table import CLASSIC, ROMANIAN, ROOM
from games.visibility import (
    deal_set_over,
    directs_game,
    game_seat,
    may_see_game,
    require_public_record,
)
from games.web.forms import (
    KIND_LABELS,
    TABLE_FORMS,
    BotLevelForm,
    GuestSeatForm,
    JoinForm,
    PlayNowForm,
    ScoreTableForm,
    TableForm,
    preset_label,
)
from games.web.script_texts import rules_summary, score_text, table_text
from games.write.tables import load_table
from runtime.error_text import refusal
from runtime.replica import tolerates_staleness
from runtime.throttling import login_wait

LOBBY_LIST_LENGTH = 20
# My games: the most shown in play (a player has a few at once), and finished per page.
IN_PLAY_LENGTH = 50
FINISHED_PAGE = 20


def rules(request: HttpRequest) -> HttpResponse:
    presets = [(preset, rules_summary(ROMANIAN, preset.options)) for preset in rule_presets()]
    return render(request, "games/rules.html", {"presets": presets})


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def _alias(request: HttpRequest) -> str:
    user = request.user
    name = (
        str(getattr(user, "display_name", "") or user.get_username())
        if user.is_authenticated
        else ""
    )
    return fitting_alias(name.split()[0], set()) if name.strip() else ""


def _lobby(
    request: HttpRequest,
    *,
    new_form: TableForm | None = None,
    join_form: JoinForm | None = None,
    play_form: PlayNowForm | None = None,
    status: int = 200,
) -> HttpResponse:
    alias = _alias(request)
    # One form per game a table may play; the one just sent comes back as it was sent.
    table_forms = [
        new_form
        if new_form is not None and new_form.kind == kind
        else form(initial={"alias": alias})
        for kind, form in TABLE_FORMS.items()
    ]
    context = {
        "play_form": play_form or PlayNowForm(),
        "table_forms": table_forms,
        "join_form": join_form or JoinForm(initial={"alias": alias}),
        "open_games": _listed(Game.Status.OPEN, _user_id(request)),
        "live_games": _listed(Game.Status.PLAYING, _user_id(request)),
    }
    return render(request, "games/lobby.html", context, status=status)


def _listed(status: str, viewer_id: int | None) -> list[Game]:
    games = game_summaries(
        games_list(status, viewer_id=viewer_id)[:LOBBY_LIST_LENGTH], viewer_id=viewer_id
    )
    for game in games:
        _label(game)
    return games


def _label(game: Game) -> None:
    """Name the game's kind and rules for a list of games."""
    game.kind_label = KIND_LABELS.get(game.kind, game.kind)  # type: ignore[attr-defined]
    game.rules_label = preset_label(game.kind, game.preset, game.options)  # type: ignore[attr-defined]


@tolerates_staleness
def lobby(request: HttpRequest) -> HttpResponse:
    return _lobby(request)


def _refused(form: forms.Form, error: CodedError) -> int:
    form.add_error(None, refusal(error))
    return error.status


def _table_url(game: Game) -> str:
    return reverse("games:table", args=[game.code])


@require_http_methods(["GET", "POST"])
@login_required
def game_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "GET":
        # Where a refused form was answered: switching the language reloads it.
        return redirect("home")
    # Either lobby form: it says which game the table plays (Romanian Whist by default).
    form = TABLE_FORMS.get(request.POST.get("kind", ""), TABLE_FORMS[ROMANIAN])(request.POST)
    if not form.is_valid():
        return _lobby(request, new_form=form, status=400)
    try:
        # The creator sits down at once; a refused alias must not leave an orphan table.
        with transaction.atomic():
            game = actions.game_create(creator=request.user, **form.table())
            actions.game_join(game_id=game.id, user=request.user, alias=form.cleaned_data["alias"])
    except CodedError as error:
        return _lobby(request, new_form=form, status=_refused(form, error))
    return redirect(_table_url(game))


@require_http_methods(["GET", "POST"])
@login_required
def game_join(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "GET":
        # Where a refused form was answered: switching the language reloads it.
        return redirect("home")
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _lobby(request, join_form=form, status=400)
    try:
        game = find_game(form.cleaned_data["reference"].strip(), viewer_id=request.user.pk)
        actions.game_join(game_id=game.id, user=request.user, alias=form.cleaned_data["alias"])
    except CodedError as error:
        return _lobby(request, join_form=form, status=_refused(form, error))
    return redirect(_table_url(game))


@require_http_methods(["POST"])
def play_now(request: HttpRequest) -> HttpResponse:
    """A table against bots, at once; a visitor without an account plays as a guest,
    made now and signed in (counted against the sign-in budget: each is an account)."""
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        return _lobby(request, play_form=form, status=400)
    user = request.user if isinstance(request.user, User) else None
    if user is None:
        wait = login_wait(request)
        if wait is not None:
            return throttled(request, wait)
    try:
        # A table refused leaves no guest behind.
        with transaction.atomic():
            player = user or user_create_guest()
            game = actions.game_play_now(user=player, **form.play())
    except CodedError as error:
        return _lobby(request, play_form=form, status=_refused(form, error))
    if user is None:
        login(request, player)
    return redirect(_table_url(game))


@require_http_methods(["GET", "POST"])
def sit_as_guest(request: HttpRequest, ref: str) -> HttpResponse:
    """A share link's one tap for a visitor without an account: a guest made now and
    seated under the alias given, then signed in (counted against the sign-in budget,
    as Play now's guests are: each is an account). A signed-in visitor is sent back to
    the table, to sit down under their own account; so is a GET (a refused form's
    address reloaded, by the language switch say)."""
    game = _visible_game(request, ref)
    if request.method == "GET" or request.user.is_authenticated:
        return redirect(_table_url(game))
    form = GuestSeatForm(request.POST, auto_id="id_guest_%s")
    if not form.is_valid():
        return _table_page(request, game, guest_form=form, status=400)
    wait = login_wait(request)
    if wait is not None:
        return throttled(request, wait)
    try:
        guest = actions.game_join_as_guest(game_id=game.id, alias=form.cleaned_data["alias"])
    except CodedError as error:
        return _table_page(
            request, game, guest_form=form, refused=refusal(error), status=error.status
        )
    login(request, guest)
    return redirect(_table_url(game))


def _waiting_room_action(
    request: AuthenticatedHttpRequest, ref: str, act: Callable[[Game, User], object]
) -> HttpResponse:
    """Run ``act`` on the table for the signed-in user and go back to it; a refusal
    is said on the table page, with its status."""
    game = _visible_game(request, ref)
    try:
        act(game, request.user)
    except CodedError as error:
        return _table_page(request, game, refused=refusal(error), status=error.status)
    return redirect(_table_url(game))


@require_http_methods(["POST"])
@login_required
def fill_with_bots(request: AuthenticatedHttpRequest, ref: str) -> HttpResponse:
    # The service names the levels there are.
    level = request.POST.get("level", DEFAULT_LEVEL)
    return _waiting_room_action(
        request,
        ref,
        lambda game, user: actions.game_fill_with_bots(game_id=game.id, actor=user, level=level),
    )


@require_http_methods(["POST"])
@login_required
def cancel(request: AuthenticatedHttpRequest, ref: str) -> HttpResponse:
    return _waiting_room_action(
        request, ref, lambda game, user: actions.game_cancel(game_id=game.id, actor=user)
    )


@require_http_methods(["POST"])
@login_required
def leave(request: AuthenticatedHttpRequest, ref: str) -> HttpResponse:
    return _waiting_room_action(
        request, ref, lambda game, user: actions.game_leave(game_id=game.id, actor=user)
    )


def _visible_game(request: HttpRequest, ref: str) -> Game:
    try:
        return find_game(ref, viewer_id=_user_id(request))
    except GameNotFound as error:
        raise Http404(error.message) from None


def table(request: HttpRequest, ref: str) -> HttpResponse:
    game = _visible_game(request, ref)
    if game.place == ROOM:
        # Its cards are dealt in the room: nothing to play here, its deals are written
        # down on the scorer page.
        return render(request, "games/room_table.html", {"game": game, "home": table_home(game.id)})
    return _table_page(request, game)


def analysis(request: HttpRequest, ref: str) -> HttpResponse:
    """A finished game's analysis by the strong bot, as far as the viewer may see it
    (games.read.analysis); while it is computed, a page that looks again by itself."""
    game = _visible_game(request, ref)
    context: dict[str, Any] = {"game": game}
    try:
        shown = analysis_view(game, load_table(game.id), _user_id(request))
    except CodedError as error:
        context["refusal"] = refusal(error)
        return render(request, "games/analysis.html", context, status=error.status)
    context.update(analysis_page(game, shown))
    return render(request, "games/analysis.html", context)


def score_table(request: HttpRequest) -> HttpResponse:
    """The code typed from a table card leads to that table's scorer page."""
    form = ScoreTableForm(request.GET or None)
    if form.is_valid():
        try:
            game = room_game(form.cleaned_data["code"].strip())
        except GameNotFound as error:
            words = {"game_not_found": _("No table in the room has that code.")}
            form.add_error("code", refusal(error, words))
        else:
            return redirect("games:score", game.code)
    return render(request, "games/score_table.html", {"form": form})


# The PIN a table card's QR code puts in the address: its digits prefill the PIN form.
QR_PIN = re.compile(rf"\d{{{PIN_DIGITS}}}")


@ensure_csrf_cookie  # The page's script sends the PIN and the deals with its token.
def score(request: HttpRequest, ref: str) -> HttpResponse:
    """The scorer page of a table in the room, for whoever may write its deals down (a
    player at it, its director, a session that gave its PIN), else its PIN form."""
    try:
        game = room_game(ref)
    except GameNotFound as error:
        raise Http404(error.message) from None
    user_id = _user_id(request)
    scorer = scorer_of(game, user_id=user_id, session=request.session)
    pin = request.GET.get("pin", "").strip()
    page = {
        "game": str(game.id),
        "code": game.code,
        "socket": f"/ws/games/{game.id}/",
        "api": {
            "state": reverse("api-game", args=[game.code]),
            "scorer": reverse("api-game-scorer", args=[game.code]),
            "deals": reverse("api-game-deals", args=[game.code]),
            "confirm": reverse("api-game-deals-confirm", args=[game.code]),
            "correct": reverse("api-game-deals-correct", args=[game.code]),
        },
        "seat": scorer.seat,
        "director": scorer.director,
        "set_bids": set_bids(game),
        "pin_digits": PIN_DIGITS,
        "text": score_text(),
    }
    context = {
        "game": game,
        "page": page,
        "needs_pin": scorer.seat is None and not scorer.director,
        "seats": _seat_choices(game, user_id),
        "pin": pin if QR_PIN.fullmatch(pin) else "",
        "pin_digits": PIN_DIGITS,
        "home": table_home(game.id),
        "seated": _seated(game, user_id),
    }
    return render(request, "games/score.html", context)


def _seat_choices(game: Game, user_id: int | None) -> list[tuple[int, str]]:
    """The seats a scorer chooses from, by number; by name too for whoever may see the
    table (a private event's players are not named to a phone before its PIN)."""
    named = may_see_game(game, user_id)
    aliases = {seat["seat"]: seat.get("alias", "") for seat in game.seats} if named else {}
    return [
        (
            number,
            _("Seat %(seat)s: %(alias)s") % {"seat": number + 1, "alias": aliases[number]}
            if aliases.get(number)
            else _("Seat %(seat)s") % {"seat": number + 1},
        )
        for number in range(game.player_count)
    ]


def _table_page(
    request: HttpRequest,
    game: Game,
    *,
    refused: str = "",
    status: int = 200,
    guest_form: GuestSeatForm | None = None,
) -> HttpResponse:
    user_id = _user_id(request)
    # The page says what the table's socket shows this viewer: a delayed table's end
    # only once the delay has released it.
    [game] = game_summaries([game], viewer_id=user_id)
    seated = _seated(game, user_id)
    home = table_home(game.id)
    rematch = rematch_game(game.id) if game.status == Game.Status.FINISHED else None
    bots = bot_seats(game)
    # Only another person may open the rematch this page should hear of: against bots
    # alone there is nothing to ask the server for.
    others = len(game.seats) - len(bots) > 1
    # A replay shows every hand as dealt: only a game whose record is public has one;
    # otherwise the page says why and shows the table as this viewer may see it.
    replay = "replay" in request.GET
    if replay:
        try:
            require_public_record(game, user_id)
        except (DealSetInPlay, RecordNotReady) as error:
            refused, status, replay = refusal(error), error.status, False
    page: dict[str, Any] = {
        "game": str(game.id),
        "code": game.code,
        "socket": f"/ws/games/{game.id}/",
        # Who directs the table (its creator, an event's deputy) has its creator's controls.
        "creator": directs_game(game.id, game.creator_id, user_id),
        "text": table_text(),
        # The levels a seat may be handed to a bot at from this page, and the one chosen
        # until the player picks another.
        "levels": list(LEVEL_NAMES),
        "level": DEFAULT_LEVEL,
        # The seats bots' accounts hold: named as bots, never handed back to nobody
        # (the page reads them from the bots at its start if it is still open).
        "bot_seats": bots,
        "status": game.status,
        "replay": replay,
        # Whether the end of the game links its replay: a duplicate table's waits for
        # its deal set, whose deals it would show.
        "replayable": not game.deal_set or deal_set_over(game.deal_set),
        # Where a player's end screen hears of a rematch another player opened.
        # Asked of the game list, which answers a page of none until the rematch opens;
        # only where another person sits (bots ask for no rematch).
        "rematch": (
            f"{reverse('api-games')}?{urlencode({'rematch_of': str(game.id)})}"
            if seated and home is None and others
            else None
        ),
    }
    # A replay has no talk: it is read from the record.
    chat = CHAT_OFF if "replay" in request.GET else home_chat(home)
    if chat != CHAT_OFF:
        # Words at the table (chat.js): what may be said, where they are read, and who
        # reads them (their own words are not theirs to mute or report).
        page["chat"] = {
            "mode": chat,
            "api": reverse("api-game-chat", args=[game.code]),
            "seat": game_seat(game, user_id),
            "signed_in": user_id is not None,
        }
    options = (
        classic.options_from_dict(game.options)
        if game.kind == CLASSIC
        else options_from_dict(game.options)
    )
    turn_seconds = load_table(game.id).turn_seconds
    context = {
        "game": game,
        "page": page,
        "seated": seated,
        "creator": page["creator"],
        "join_form": JoinForm(initial={"reference": game.code, "alias": _alias(request)}),
        "guest_form": guest_form or GuestSeatForm(auto_id="id_guest_%s"),
        "home": home,
        "rematch": rematch,
        "in_rematch": rematch is not None and _seated(rematch, user_id),
        # The record, like the replay, of a duplicate table waits for its deal set.
        "record": page["replayable"],
        "replayable": page["replayable"],
        "rules": rules_summary(
            game.kind,
            options,
            player_count=game.player_count,
            turn_seconds=turn_seconds,
            timer=True,
        ),
        "rules_title": preset_label(game.kind, game.preset, game.options),
        "level_form": BotLevelForm(auto_id="id_fill_%s"),
        "share_url": request.build_absolute_uri(_table_url(game)),
        "refusal": refused,
        "chat": "" if chat == CHAT_OFF else chat,
        "phrases": [(key, _(label)) for key, label in PHRASES.items()],
        "chat_length": MAX_TEXT_LENGTH,
    }
    return render(request, "games/table.html", context, status=status)


def _seated(game: Game, user_id: int | None) -> bool:
    return game_seat(game, user_id) is not None


@require_http_methods(["POST"])
@login_required
def game_rematch(request: AuthenticatedHttpRequest, ref: str) -> HttpResponse:
    """The end screen's Rematch (and Join rematch): the new table, or the finished
    one again with the reason it was refused."""
    game = _visible_game(request, ref)
    try:
        rematch = actions.game_rematch(game_id=game.id, actor=request.user)
    except CodedError as error:
        rematch_words = {"game_not_finished": _("A rematch is played once the game is over.")}
        messages.error(request, refusal(error, rematch_words))
        return redirect(_table_url(game))
    return redirect(_table_url(rematch))


@login_required
def my_games(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The signed-in player's (or guest's) games and events: those in play first, each
    with the way back to its table, then those over, with their result and replay, a
    page at a time (``page`` for the games, ``events`` for the events)."""
    user_id = request.user.pk
    # With the games of the guests who signed in to this account (decision 3507).
    people = person_ids(user_id)
    in_play = player_games(people, finished=False)[:IN_PLAY_LENGTH]
    finished = Paginator(player_games(people, finished=True), FINISHED_PAGE).get_page(
        request.GET.get("page")
    )
    finished_events = Paginator(player_events(user_id, finished=True), FINISHED_PAGE).get_page(
        request.GET.get("events")
    )
    context = {
        "in_play": _labelled(player_seats(in_play, people)),
        "events_in_play": player_events(user_id, finished=False)[:IN_PLAY_LENGTH],
        "finished": finished,
        "finished_games": _labelled(player_seats(finished, people)),
        "finished_events": finished_events,
    }
    return render(request, "games/my_games.html", context)


def _labelled(seats: list[PlayerGame]) -> list[PlayerGame]:
    for seat in seats:
        _label(seat.game)
    return seats
