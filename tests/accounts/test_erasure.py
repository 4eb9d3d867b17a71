"""Deleting an account: every name, alias and other personal datum of the player gone
from every table of the database, every page, API answer and export, while their
games and standings stay valid and verifiable from the log (decision 3503)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_token
from games.commands import actions
from games.commands.chat import game_say
from games.models import CommandReceipt, Game
from games.read.verification import verify_game
from games.write.projection import rebuild_game_projections
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games
from tournaments import services
from tournaments.models import Entry, Event, RatingChange, Season, SeasonStanding, Standing
from tournaments.projections import seasons, standings
from tournaments.projections.rebuild import rebuild_standings

pytestmark = pytest.mark.django_db

NAME = "Ioana Vasilescu"
USERNAME = "ioana.vasilescu"
EMAIL = "ioana.vasilescu@example.org"
ALIAS = "Zmeoaica"
WORDS = "Zmeoaica cere arbitrul la masa"
# What must be found nowhere: her names, her alias, her address (ASCII, so that a JSON
# column that escapes what is not ASCII hides none of them).
NEEDLES = ("ioana", "vasilescu", "zmeoaica")


def _text(value: Any) -> str:
    if isinstance(value, memoryview | bytes):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def database_naming(needles: Iterable[str]) -> dict[str, set[str]]:
    """Where in the database ``needles`` are found (case aside): each table's rows as
    stored (every column, JSON as its text), each model's rows as Django reads them
    (JSON decoded), and every session's data decoded. Table or model -> needles."""
    needles = [needle.casefold() for needle in needles]
    found: dict[str, set[str]] = {}

    def look(where: str, values: Iterable[Any]) -> None:
        text = " ".join(_text(value) for value in values).casefold()
        hits = {needle for needle in needles if needle in text}
        if hits:
            found.setdefault(where, set()).update(hits)

    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                look(table, row)
    for model in apps.get_models(include_auto_created=True):
        for values in model._default_manager.values():
            look(model._meta.label, values.values())
    for session in Session.objects.all():
        look("session data", session.get_decoded().values())
    return found


def answers_naming(client: Client, urls: Iterable[str], needles: Iterable[str]) -> list[str]:
    """The pages and API answers among ``urls`` that name any of ``needles``."""
    named = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode().casefold()
        if any(needle in text for needle in needles):
            named.append(url)
    return named


def game_figures(game_id: uuid.UUID) -> dict[str, Any]:
    """A game's read model but for its seats' aliases."""
    values = Game.objects.filter(pk=game_id).values().get()
    values["seats"] = [(seat["seat"], seat["user_id"]) for seat in values["seats"]]
    return values


def standing_figures() -> list[tuple[Any, ...]]:
    return (
        sorted(
            Standing.objects.values_list(
                "event_id", "player_id", "rank", "points", "exact_bids", "best_game", "games"
            )
        )
        + sorted(
            SeasonStanding.objects.values_list(
                "season_id", "player_id", "rank", "points", "rating", "events"
            )
        )
        + sorted(RatingChange.objects.values_list("player_id", "round", "before", "after"))
    )


def named_rows() -> list[tuple[Any, ...]]:
    return (
        sorted(Standing.objects.values_list("event_id", "player_id", "name"))
        + sorted(SeasonStanding.objects.values_list("season_id", "player_id", "name"))
        + sorted(Entry.objects.values_list("event_id", "player_id", "name"))
    )


def player_with_a_history() -> dict[str, Any]:
    """Ioana: a table of her own played under an alias (joined with an idempotency
    key), a season's championship played under her name (calling the director, her
    result corrected), a deputy of another event, signed in on two browsers, with an
    API token, and an entry of the admin's log about her account."""
    player = UserFactory.create(
        username=USERNAME,
        display_name=NAME,
        email=EMAIL,
        first_name="Ioana",
        last_name="Vasilescu",
    )
    others = UserFactory.create_batch(3)
    game = actions.game_create(
        creator=player, player_count=4, preset="championship", options=SHORT_RULES
    )
    actions.game_join(game_id=game.id, user=player, alias=ALIAS, idempotency_key="sit-1")
    for number, other in enumerate(others):
        actions.game_join(game_id=game.id, user=other, alias=f"Player {number + 2}")
    game_say(game_id=game.id, actor=player, text=f"Noroc de la {NAME}")
    game_say(game_id=game.id, actor=others[0], text="Mulțumesc")
    play_to_end(game.id, [player, *others])

    creator = organizer()
    season = services.season_create(organizer=creator, name="Sezonul 2026")
    event = services.event_create(
        organizer=creator,
        name="Cupa Atu",
        rounds=1,
        options=SHORT_RULES,
        public=True,
        season_id=season.id,
    )
    for entrant in [player, *others]:
        services.event_register(event_id=event.id, actor=entrant)
        services.event_check_in(event_id=event.id, actor=entrant)
    services.event_start_round(event_id=event.id, actor=creator)
    (table,) = round_games(event.id, 1)
    services.event_call_director(
        event_id=event.id, actor=player, game_id=table.id, reason="other", text=WORDS
    )
    play_to_end(table.id, [player, *others])
    services.event_correct_result(
        event_id=event.id,
        actor=creator,
        round_number=1,
        player_id=player.pk,
        points=1,
        reason="Ioana a jucat cu cărțile la vedere",
    )
    standings.update_event_standings(event.id)
    services.event_finish(event_id=event.id)
    services.event_publish_results(event_id=event.id, actor=creator)
    seasons.update_season(season.id)

    # She directs another event of the organizer's, as a deputy.
    other_event = services.event_create(organizer=creator, name="Cupa de toamnă", rounds=1)
    services.event_name_deputy(event_id=other_event.id, actor=creator, who=USERNAME)

    user_token(user=player)
    admin_user = UserFactory.create(is_staff=True, is_superuser=True)
    LogEntry.objects.create(
        user=admin_user,
        content_type=ContentType.objects.get_for_model(User),
        object_id=str(player.pk),
        object_repr=str(player),
        action_flag=CHANGE,
        change_message=f"Changed {NAME}'s email.",
    )
    return {
        "player": player,
        "others": others,
        "creator": creator,
        "admin": admin_user,
        "game": Game.objects.get(pk=game.id),
        "table": Game.objects.get(pk=table.id),
        "event": Event.objects.get(pk=event.id),
        "season": Season.objects.get(pk=season.id),
        "other_event": Event.objects.get(pk=other_event.id),
    }


def public_urls(history: dict[str, Any]) -> list[str]:
    game, table, event = history["game"], history["table"], history["event"]
    urls = ["/", "/events/", "/api/games/", f"/seasons/{history['season'].pk}/"]
    for played in (game, table):
        urls += [
            f"/games/{played.code}/",
            f"/api/games/{played.code}/",
            f"/api/games/{played.code}/events/",
            f"/api/games/{played.code}/record/",
            f"/api/games/{played.code}/record.json",
        ]
    urls += [
        f"/events/{event.code}/",
        f"/events/{event.code}/live.json",
        f"/events/{event.code}/standings.csv",
        f"/events/{event.code}/results/",
        f"/events/{event.code}/screen/",
    ]
    return urls


def organizer_urls(history: dict[str, Any]) -> list[str]:
    event = history["event"]
    manage = f"/events/{event.code}/manage/"
    return [
        manage,
        f"{manage}rounds/1/seating/",
        f"{manage}rounds/1/cards/",
        f"{manage}rounds/1/sheets/",
        f"/events/{history['other_event'].code}/manage/",
    ]


def admin_urls() -> list[str]:
    return [
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
    ]


def test_a_deleted_player_is_named_nowhere_and_their_games_and_standings_still_verify(
    client: Client,
) -> None:
    # Given a player with games, a championship and a season, signed in twice
    history = player_with_a_history()
    player: User = history["player"]
    client.force_login(player)
    Client().force_login(player)
    game, table = history["game"], history["table"]
    games_before = {played.pk: game_figures(played.pk) for played in (game, table)}
    standings_before = standing_figures()
    viewers = {
        "anonymous": Client(),
        "organizer": Client(),
        "admin": Client(),
        "opponent": Client(),
    }
    viewers["organizer"].force_login(history["creator"])
    viewers["admin"].force_login(history["admin"])
    viewers["opponent"].force_login(history["others"][0])
    urls = {
        "anonymous": public_urls(history),
        "organizer": organizer_urls(history),
        "admin": admin_urls(),
        "opponent": [
            "/accounts/account/export/",
            f"/games/{game.code}/",
            f"/games/{table.code}/",
            f"/events/{history['event'].code}/",
        ],
    }
    # (The searches find her before: they can fail. The log's own rows never held
    # her names: they are kept beside it.)
    assert "games_storedevent" not in database_naming(NEEDLES)
    assert set(database_naming(NEEDLES)) >= {
        "eventlog_personaldatum",
        "accounts_user",
        "games_game",
        "games_commandreceipt",
        "tournaments_entry",
        "tournaments_standing",
        "tournaments_seasonstanding",
        "tournaments_event",
        "tournaments_deputy",
        "django_admin_log",
        "games_tablemessage",
    }
    assert answers_naming(viewers["anonymous"], urls["anonymous"], NEEDLES)
    assert answers_naming(viewers["organizer"], urls["organizer"], NEEDLES)

    # When she deletes her account, her password confirming it
    response = client.post("/accounts/account/delete/", {"password": DEFAULT_PASSWORD})

    # Then she is signed out everywhere, and named in no table of the database
    assert response.status_code == 200
    assert "account-deleted" in response.content.decode()
    assert database_naming(NEEDLES) == {}
    assert [
        session
        for session in Session.objects.all()
        if session.get_decoded().get("_auth_user_id") == str(player.pk)
    ] == []
    # Nor in any page, API answer or export, whoever asks
    for viewer, asked in urls.items():
        assert answers_naming(viewers[viewer], asked, NEEDLES) == [], viewer
    # And her account is the id the log names, with nothing of her
    erased = User.objects.get(pk=player.pk)
    assert (
        erased.username,
        erased.display_name,
        erased.email,
        erased.first_name,
        erased.last_name,
        erased.is_active,
        erased.has_usable_password(),
        erased.last_login,
        erased.display,
    ) == (
        f"deleted-{player.pk}",
        "",
        "",
        "",
        "",
        False,
        False,
        None,
        "Deleted player",
    )
    assert not CommandReceipt.objects.filter(actor=player).exists()
    # And her seats read as "Deleted player" in the read models
    assert Game.objects.get(pk=game.pk).seats[0] == {
        "seat": 0,
        "alias": "Deleted player",
        "user_id": player.pk,
    }
    assert {row[2] for row in named_rows() if row[1] == player.pk} == {"Deleted player"}
    # And every game still verifies from the log, with the figures it had
    for played in (game, table):
        assert verify_game(played.pk).ok
        assert game_figures(played.pk) == games_before[played.pk]
    assert standing_figures() == standings_before
    # And a rebuild from the log derives exactly what the erasure left
    games_after = {
        played.pk: Game.objects.filter(pk=played.pk).values().get() for played in (game, table)
    }
    names_after = named_rows()
    rebuild_game_projections()
    rebuild_standings()
    assert {
        played.pk: Game.objects.filter(pk=played.pk).values().get() for played in (game, table)
    } == games_after
    assert standing_figures() == standings_before
    assert named_rows() == names_after


def test_a_wrong_password_deletes_nothing_and_says_so(client: Client) -> None:
    player = UserFactory.create(username=USERNAME, display_name=NAME)
    client.force_login(player)

    response = client.post("/accounts/account/delete/", {"password": "not-my-password"})

    assert response.status_code == 200
    assert "This is not your password." in response.content.decode()
    player.refresh_from_db()
    assert (player.username, player.display_name, player.deleted_at) == (USERNAME, NAME, None)


def test_the_delete_page_asks_for_the_password_and_a_guest_is_sent_to_register(
    client: Client,
) -> None:
    client.force_login(UserFactory.create())
    page = client.get("/accounts/account/delete/").content.decode()
    assert 'name="password"' in page
    assert 'autocomplete="current-password"' in page

    guest = Client()
    guest.force_login(UserFactory.create(is_guest=True))
    response = guest.get("/accounts/account/delete/")
    assert (response.status_code, response["Location"]) == (
        302,
        "/accounts/register/?next=/accounts/account/delete/",
    )


def test_a_deleted_players_entry_in_an_event_to_come_is_withdrawn_and_nameless(
    client: Client,
) -> None:
    # Given a player entered in an event whose rounds are still to come
    player = UserFactory.create(username=USERNAME, display_name=NAME)
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa Atu", rounds=2)
    services.event_register(event_id=event.id, actor=player)
    services.event_check_in(event_id=event.id, actor=player)
    client.force_login(player)

    # When they delete their account
    client.post("/accounts/account/delete/", {"password": DEFAULT_PASSWORD})

    # Then they are out of the rounds to come, under no name
    entry = Entry.objects.get(event_id=event.id, player_id=player.pk)
    assert (entry.name, entry.withdrawn) == ("Deleted player", True)
    assert services.load_championship(event.id).entries[player.pk].withdrawn
