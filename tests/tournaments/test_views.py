"""The championship pages through Django's test client: creating an event, the
organizer's page and its commands, a player's own page and commands, results (CSV
and printable), privacy, seasons and the read-only admin."""

from __future__ import annotations

import html
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.templatetags.static import static
from django.test import Client

from accounts.models import User
from accounts.services import user_create_guest
from games.models import Game
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import (
    SHORT_RULES,
    Clock,
    bot_event,
    organizer,
    play_round,
    played_event,
    private_event_round,
    stopped_clock,
    wait_until,
)
from tournaments import services
from tournaments.championship import ResultCorrected
from tournaments.models import Entry, Event, Season, SeasonStanding, Standing, TableResult
from tournaments.services import load_championship
from tournaments.tasks import update_standings

VALID_EVENT = {
    "name": "Cupa Atu",
    "preset": "championship",
    "table_size": "4",
    "rounds": "3",
    "points": "relative",
    "first_round": "random",
    "public": "on",
    "spectator_delay": "0",
}


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response: Any) -> str:
    content: bytes = response.content
    return content.decode()


def new_event(creator: User | None = None, **options: Any) -> Event:
    return services.event_create(
        organizer=creator or organizer(), name="Cupa Atu", options=SHORT_RULES, **options
    )


def entrant(event: Event, *, checked_in: bool = True) -> User:
    player: User = UserFactory.create()
    services.event_register(event_id=event.id, actor=player)
    if checked_in:
        services.event_check_in(event_id=event.id, actor=player)
    return player


def manage_url(event: Event, rest: str = "") -> str:
    return f"/events/{event.code}/manage/{rest}"


# --- Creating an event ---------------------------------------------------------------


@pytest.mark.django_db
def test_an_organizer_creates_an_event_and_is_sent_to_its_manage_page() -> None:
    # Given an account that may organize
    creator = organizer()

    # When it sends the create form
    response = signed_in(creator).post(
        "/events/new/", {**VALID_EVENT, "turn_seconds": "30", "schedule": "1-8-1", "step": "2"}
    )

    # Then the event exists as asked, and the organizer lands on its page
    event = Event.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.code}/manage/"
    assert (event.name, event.organizer_id, event.status) == (
        "Cupa Atu",
        creator.pk,
        "registration",
    )
    assert (event.table_size, event.rounds_total, event.points, event.public) == (
        4,
        3,
        "relative",
        True,
    )
    assert event.options["schedule"] == "1-8-1"
    assert event.options["step"] == 2
    assert load_championship(event.id).settings.turn_seconds == 30


@pytest.mark.django_db
def test_the_create_form_sets_the_tie_break_order_and_rounds_that_start_by_themselves() -> None:
    # Given the create page, which offers both
    client = signed_in(organizer())
    page = text(client.get("/events/new/"))
    assert 'name="tie_breaks"' in page
    assert 'name="auto_advance"' in page

    # When an organizer puts best game first and lets rounds start by themselves
    client.post(
        "/events/new/",
        {**VALID_EVENT, "tie_breaks": "best_game,exact_bids,head_to_head", "auto_advance": "on"},
    )

    # Then the event keeps that order and advances by itself
    settings = load_championship(Event.objects.get().id).settings
    assert settings.tie_breaks == ("best_game", "exact_bids", "head_to_head")
    assert settings.auto_advance is True


@pytest.mark.django_db
def test_an_event_created_without_the_new_fields_keeps_the_defaults() -> None:
    signed_in(organizer()).post("/events/new/", VALID_EVENT)

    settings = load_championship(Event.objects.get().id).settings
    assert settings.tie_breaks == ("exact_bids", "head_to_head", "best_game")
    assert settings.auto_advance is False
    assert settings.bot_level == "medium"


@pytest.mark.django_db
def test_the_create_form_sets_the_level_of_the_bots_that_fill_the_tables() -> None:
    # Given the create page, which offers the three levels, medium first chosen
    client = signed_in(organizer())
    page = text(client.get("/events/new/"))
    assert '<option value="medium" selected>medium</option>' in page
    assert '<option value="strong">strong</option>' in page

    # When an organizer chooses strong bots
    client.post("/events/new/", {**VALID_EVENT, "bot_level": "strong"})

    # Then the event's bots play strong
    assert load_championship(Event.objects.get().id).settings.bot_level == "strong"
    # And a Romanian reader is offered them in Romanian
    romanian = text(client.get("/events/new/", HTTP_ACCEPT_LANGUAGE="ro"))
    assert "Nivelul boților" in romanian
    assert '<option value="strong">puternic</option>' in romanian


@pytest.mark.django_db
def test_the_create_page_offers_the_presets_and_the_organizers_seasons() -> None:
    creator = organizer()
    season = services.season_create(organizer=creator, name="Sezonul 2026")
    services.season_create(organizer=organizer(), name="Someone else's season")

    content = text(signed_in(creator).get(f"/events/new/?season={season.id}"))

    assert '<option value="championship" selected>Championship</option>' in content
    assert f'<option value="{season.id}" selected>Sezonul 2026</option>' in content
    assert "Someone else&#x27;s season" not in content


@pytest.mark.django_db
def test_duplicate_deals_without_matchpoints_are_refused_with_400_and_the_reason() -> None:
    response = signed_in(organizer()).post("/events/new/", {**VALID_EVENT, "duplicate": "on"})

    assert response.status_code == 400
    assert "Duplicate deals are scored by matchpoints, and matchpoints need them." in text(response)
    assert not Event.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("table_size", "7", "Select a valid choice. 7 is not one of the available choices."),
        ("rounds", "0", "Ensure this value is greater than or equal to 1."),
        ("name", "", "This field is required."),
        ("points", "golf", "Select a valid choice. golf is not one of the available choices."),
        ("turn_seconds", "2", "Ensure this value is greater than or equal to 5."),
        (
            "bot_level",
            "grandmaster",
            "Select a valid choice. grandmaster is not one of the available choices.",
        ),
    ],
)
def test_an_invalid_create_form_is_answered_400_with_the_fields_error(
    field: str, value: str, message: str
) -> None:
    response = signed_in(organizer()).post("/events/new/", {**VALID_EVENT, field: value})

    assert response.status_code == 400
    assert message in text(response)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_a_season_of_someone_else_is_refused_by_the_service_with_403() -> None:
    # Given a season of another organizer, posted by hand
    other = services.season_create(organizer=organizer(), name="Theirs")
    client = signed_in(organizer())

    response = client.post("/events/new/", {**VALID_EVENT, "season": str(other.id)})

    # Then the form refuses it as not one of the choices (the service would, too)
    assert response.status_code == 400
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_an_account_that_may_not_organize_gets_403_from_the_create_page() -> None:
    client = signed_in(UserFactory.create())

    shown = client.get("/events/new/")
    sent = client.post("/events/new/", VALID_EVENT)

    assert shown.status_code == 403
    assert sent.status_code == 403
    assert "This account may not organize events: ask the site&#x27;s staff." in text(sent)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in_before_creating(client: Client) -> None:
    response = client.get("/events/new/")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/events/new/"


@pytest.mark.django_db
def test_an_organizer_creates_a_season_and_comes_back_to_the_create_form_with_it() -> None:
    creator = organizer()

    response = signed_in(creator).post("/seasons/new/", {"name": "Sezonul 2026"})

    season = Season.objects.get()
    assert (season.name, season.organizer_id) == ("Sezonul 2026", creator.pk)
    assert response.status_code == 302
    assert response["Location"] == f"/events/new/?season={season.id}"


@pytest.mark.django_db
def test_a_season_without_a_name_is_answered_400() -> None:
    response = signed_in(organizer()).post("/seasons/new/", {"name": "  "})

    assert response.status_code == 400
    assert "This field is required." in text(response)
    assert not Season.objects.exists()


# --- The organizer's page --------------------------------------------------------------


@pytest.mark.django_db
def test_the_manage_page_is_for_the_organizer_only(client: Client) -> None:
    event = new_event()
    owner = signed_in(User.objects.get(pk=event.organizer_id))

    assert owner.get(manage_url(event)).status_code == 200
    assert signed_in(UserFactory.create()).get(manage_url(event)).status_code == 403
    assert client.get(manage_url(event)).status_code == 302


@pytest.mark.django_db
def test_a_private_events_manage_page_does_not_exist_for_strangers() -> None:
    event = new_event(public=False)

    response = signed_in(UserFactory.create()).get(manage_url(event))

    assert response.status_code == 404


@pytest.mark.django_db
def test_the_organizer_enters_checks_in_and_withdraws_a_player_through_the_page() -> None:
    event = new_event()
    owner = signed_in(User.objects.get(pk=event.organizer_id))
    player: User = UserFactory.create(username="ana", display_name="Ana Pop")

    # When the organizer enters the player by username
    entered = owner.post(manage_url(event, "players/"), {"username": "ANA"})
    assert entered.status_code == 302
    assert entered["Location"] == manage_url(event)
    row = Entry.objects.get(event_id=event.id)
    assert (row.player_id, row.name, row.checked_in, row.withdrawn) == (
        player.pk,
        "Ana Pop",
        False,
        False,
    )

    # And checks them in
    checked = owner.post(manage_url(event, f"players/{player.pk}/check-in/"))
    assert checked.status_code == 302
    assert Entry.objects.get(event_id=event.id).checked_in is True

    # And withdraws them
    withdrawn = owner.post(manage_url(event, f"players/{player.pk}/withdraw/"))
    assert withdrawn.status_code == 302
    assert Entry.objects.get(event_id=event.id).withdrawn is True

    # Then the page lists them as withdrawn, with a button to check them in again
    content = text(owner.get(manage_url(event)))
    assert "Player withdrawn from the rounds to come." in content
    assert f'action="/events/{event.code}/manage/players/{player.pk}/check-in/"' in content


@pytest.mark.django_db
def test_entering_an_unknown_username_is_answered_400() -> None:
    event = new_event()
    owner = signed_in(User.objects.get(pk=event.organizer_id))

    response = owner.post(manage_url(event, "players/"), {"username": "nobody"})

    assert response.status_code == 400
    assert "There is no account named nobody." in text(response)


@pytest.mark.django_db
def test_entering_a_player_twice_is_answered_409_with_the_reason() -> None:
    event = new_event()
    owner = signed_in(User.objects.get(pk=event.organizer_id))
    player = entrant(event)

    response = owner.post(manage_url(event, "players/"), {"username": player.username})

    assert response.status_code == 409
    assert "That player is already entered in this event." in text(response)


@pytest.mark.django_db
def test_checking_in_someone_not_entered_is_answered_409() -> None:
    event = new_event()
    owner = signed_in(User.objects.get(pk=event.organizer_id))

    response = owner.post(manage_url(event, "players/999999/check-in/"))

    assert response.status_code == 409
    assert "That player is not entered in this event." in text(response)


@pytest.mark.django_db
def test_the_organizer_adds_bots_through_the_page() -> None:
    event = new_event()
    owner = signed_in(User.objects.get(pk=event.organizer_id))

    response = owner.post(manage_url(event, "bots/"), {"count": "5"})

    assert response.status_code == 302
    entries = Entry.objects.filter(event_id=event.id)
    assert sorted(entry.name for entry in entries) == [f"Bot00{n} (bot)" for n in range(1, 6)]
    assert all(entry.checked_in for entry in entries)
    assert "5 bots entered and checked in." in text(owner.get(manage_url(event)))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("count", "message"),
    [
        ("0", "Ensure this value is greater than or equal to 1."),
        ("201", "Ensure this value is less than or equal to 200."),
        ("many", "Enter a whole number."),
    ],
)
def test_a_bad_number_of_bots_is_answered_400(count: str, message: str) -> None:
    event = new_event()
    owner = signed_in(User.objects.get(pk=event.organizer_id))

    response = owner.post(manage_url(event, "bots/"), {"count": count})

    assert response.status_code == 400
    assert message in text(response)
    assert not Entry.objects.filter(event_id=event.id).exists()


@pytest.mark.django_db
def test_another_account_may_not_command_the_event() -> None:
    event, _ = bot_event(players=4, rounds=1)
    stranger = signed_in(UserFactory.create())

    for rest, data in [
        ("bots/", {"count": "2"}),
        ("rounds/", {}),
        ("publish/", {}),
        ("players/", {"username": "x"}),
    ]:
        response = stranger.post(manage_url(event, rest), data)
        assert response.status_code == 403, rest
    assert Event.objects.get(pk=event.id).version == event.version


@pytest.mark.django_db
def test_the_organizer_starts_a_round_and_the_page_shows_its_tables() -> None:
    # Given an event of 8 bots
    event, creator = bot_event(players=8, rounds=2)
    owner = signed_in(creator)

    # When the organizer starts the round from the page
    response = owner.post(manage_url(event, "rounds/"), {"expected_version": str(event.version)})

    # Then two tables of four play, each linked to its game's page
    assert response.status_code == 302
    assert Event.objects.get(pk=event.id).rounds_started == 1
    rows = list(TableResult.objects.filter(event_id=event.id))
    assert [len(row.players) for row in rows] == [4, 4]
    content = text(owner.get(manage_url(event)))
    assert "Round 1 started." in content
    for row in rows:
        game = Game.objects.get(pk=row.game_id)
        assert game.status == "playing"
        assert f'href="/games/{game.code}/"' in content
    assert "Deal 1 of 9" in content
    assert "Start round 2" in content


@pytest.mark.django_db
def test_a_second_click_on_start_round_is_refused_with_409() -> None:
    event, creator = bot_event(players=4, rounds=2)
    owner = signed_in(creator)
    seen = {"expected_version": str(event.version)}
    owner.post(manage_url(event, "rounds/"), seen)

    again = owner.post(manage_url(event, "rounds/"), seen)
    unversioned = owner.post(manage_url(event, "rounds/"))

    assert again.status_code == 409
    assert "The event changed since this page was loaded: check it and try again." in text(again)
    assert unversioned.status_code == 409
    assert "The current round is still being played." in text(unversioned)
    assert Event.objects.get(pk=event.id).rounds_started == 1


@pytest.mark.django_db
def test_a_round_with_too_few_players_is_refused_with_409() -> None:
    event, creator = bot_event(players=2, rounds=1)

    response = signed_in(creator).post(manage_url(event, "rounds/"))

    assert response.status_code == 409
    assert "A round needs at least 3 checked-in players." in text(response)


@pytest.mark.django_db
def test_publishing_before_the_rounds_are_played_is_refused_with_409() -> None:
    event, creator = bot_event(players=4, rounds=1)

    response = signed_in(creator).post(manage_url(event, "publish/"))

    assert response.status_code == 409
    assert "Every round must be played before the results are published." in text(response)
    assert Event.objects.get(pk=event.id).status == "registration"


@pytest.mark.django_db
def test_the_organizer_corrects_a_result_with_a_reason() -> None:
    event, creator = bot_event(players=4, rounds=1)
    owner = signed_in(creator)
    owner.post(manage_url(event, "rounds/"))
    player = Entry.objects.filter(event_id=event.id).first()
    assert player is not None

    response = owner.post(
        manage_url(event, "corrections/"),
        {"round": "1", "player": str(player.player_id), "points": "-2.5", "reason": "late"},
    )

    assert response.status_code == 302
    assert load_championship(event.id).corrections == [
        ResultCorrected(1, player.player_id, -2.5, "late")
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"round": "1", "points": "2", "reason": ""}, 400, "This field is required."),
        (
            {"round": "1", "points": "0", "reason": "x"},
            400,
            "A correction is a number of points other than 0.",
        ),
        ({"round": "2", "points": "2", "reason": "x"}, 400, "Not accepted: there is no round 2"),
    ],
)
def test_a_bad_correction_is_refused_with_the_reason(
    data: dict[str, str], status: int, message: str
) -> None:
    event, creator = bot_event(players=4, rounds=2)
    owner = signed_in(creator)
    owner.post(manage_url(event, "rounds/"))
    player = Entry.objects.filter(event_id=event.id).first()
    assert player is not None

    response = owner.post(
        manage_url(event, "corrections/"), {**data, "player": str(player.player_id)}
    )

    assert response.status_code == status
    assert message in text(response)
    assert load_championship(event.id).corrections == []


@pytest.mark.django_db
def test_the_organizer_pauses_and_resumes_a_table_from_the_page() -> None:
    event, creator = bot_event(players=4, rounds=1)
    owner = signed_in(creator)
    owner.post(manage_url(event, "rounds/"))
    game = Game.objects.get(pk=TableResult.objects.get(event_id=event.id).game_id)
    assert f'action="/events/{event.code}/manage/tables/{game.code}/pause/"' in text(
        owner.get(manage_url(event))
    )

    paused = owner.post(manage_url(event, f"tables/{game.code}/pause/"), {"reason": "a break"})
    assert paused.status_code == 302
    assert Game.objects.get(pk=game.id).paused is True
    assert f'action="/events/{event.code}/manage/tables/{game.code}/resume/"' in text(
        owner.get(manage_url(event))
    )

    resumed = owner.post(manage_url(event, f"tables/{game.code}/resume/"))
    assert resumed.status_code == 302
    assert Game.objects.get(pk=game.id).paused is False


@pytest.mark.django_db
def test_pausing_a_game_of_another_event_is_answered_404() -> None:
    event, creator = bot_event(players=4, rounds=1)
    other, other_creator = bot_event(players=4, rounds=1, creator=creator)
    services.event_start_round(event_id=other.id, actor=other_creator)
    foreign = Game.objects.get(pk=TableResult.objects.get(event_id=other.id).game_id)

    response = signed_in(creator).post(manage_url(event, f"tables/{foreign.code}/pause/"))

    assert response.status_code == 404
    assert "There is no such table in this event." in text(response)
    assert Game.objects.get(pk=foreign.id).paused is False


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rest", "data", "status"),
    [
        ("rounds/", {"expected_version": "yesterday"}, 400),
        ("rounds/", {"expected_version": "-1"}, 400),
        ("corrections/", {"round": "x", "player": "abc", "points": "NaN", "reason": "r"}, 400),
        ("corrections/", {"round": "1", "player": "1", "points": "1e400", "reason": "r"}, 400),
        ("players/", {}, 400),
        ("players/", {"username": "x" * 1000}, 400),
        ("bots/", {"count": "1e3"}, 400),
        ("players/99999999999999999999/check-in/", {}, 409),
        ("players/0/withdraw/", {}, 409),
        ("tables/NOPE/pause/", {}, 404),
        ("tables/../resume/", {}, 404),
    ],
)
def test_bad_input_to_the_organizers_commands_is_a_4xx_never_a_500(
    rest: str, data: dict[str, str], status: int
) -> None:
    event, creator = bot_event(players=4, rounds=1)

    response = signed_in(creator).post(manage_url(event, rest), data)

    assert response.status_code == status
    assert Event.objects.get(pk=event.id).version == event.version


# --- The public page and a player's own page -------------------------------------------


@pytest.mark.django_db
def test_a_private_event_is_404_for_strangers_and_shown_to_its_entrants(client: Client) -> None:
    event = new_event(public=False)
    player = entrant(event)
    owner = User.objects.get(pk=event.organizer_id)
    stranger = signed_in(UserFactory.create())
    pages = ["", "live.json", "results/", "standings.csv", "my-table/"]

    for page in pages:
        url = f"/events/{event.code}/{page}"
        assert stranger.get(url).status_code == 404, url
        assert signed_in(player).get(url).status_code == 200, url
        assert signed_in(owner).get(url).status_code == 200, url
    assert client.get(f"/events/{event.code}/").status_code == 404
    assert stranger.post(f"/events/{event.code}/register/").status_code == 404


@pytest.mark.django_db
def test_an_unknown_event_code_is_404(client: Client) -> None:
    assert client.get("/events/ZZZZZZ/").status_code == 404
    assert client.get("/events/not-a-code/").status_code == 404


@pytest.mark.django_db
def test_the_events_list_shows_public_events_and_the_viewers_own() -> None:
    mine = new_event()
    public = new_event()
    hidden = new_event(public=False)
    entered_private = new_event(public=False)
    viewer: User = UserFactory.create(can_organize=True)
    own_private = new_event(creator=viewer, public=False)
    services.event_register(
        event_id=entered_private.id,
        actor=User.objects.get(pk=entered_private.organizer_id),
        player=viewer,
    )

    content = text(signed_in(viewer).get("/events/"))

    for shown in (mine, public, entered_private, own_private):
        assert f'data-code="{shown.code}"' in content
    assert f'data-code="{hidden.code}"' not in content
    assert 'href="/events/new/"' in content
    assert f'href="/events/{own_private.code}/manage/"' in content


@pytest.mark.django_db
def test_a_player_enters_and_checks_in_from_the_event_page() -> None:
    event = new_event()
    player: User = UserFactory.create(display_name="Ana Pop")
    client = signed_in(player)
    assert 'id="register"' in text(client.get(f"/events/{event.code}/"))

    entered = client.post(f"/events/{event.code}/register/")
    assert entered.status_code == 302
    assert entered["Location"] == f"/events/{event.code}/"
    assert 'id="check-in"' in text(client.get(f"/events/{event.code}/"))

    checked = client.post(f"/events/{event.code}/check-in/")
    assert checked.status_code == 302
    entry = Entry.objects.get(event_id=event.id, player_id=player.pk)
    assert (entry.name, entry.checked_in) == ("Ana Pop", True)
    content = text(client.get(f"/events/{event.code}/"))
    assert "You are entered and checked in." in content
    assert 'id="withdraw"' in content

    again = client.post(f"/events/{event.code}/register/")
    assert again.status_code == 409
    assert "That player is already entered in this event." in text(again)


@pytest.mark.django_db
def test_a_guest_is_sent_to_register_or_sign_in_to_enter_an_event() -> None:
    # Given a guest on the page of an event taking entries
    event = new_event()
    client = signed_in(user_create_guest(display_name="Maria"))

    # Then the page offers registering or signing in, back to it, and no entry
    content = text(client.get(f"/events/{event.code}/"))
    page = f"?next=/events/{event.code}/"
    assert 'id="register"' not in content
    assert (
        f'<p id="guest-entry"><a href="/accounts/register/{page}">Register</a> or '
        f'<a href="/accounts/login/{page}">sign in</a> to enter this event: your games as a '
        "guest stay yours.</p>"
    ) in html.unescape(content)
    # and an entry posted all the same is refused, with the reason
    refused = client.post(f"/events/{event.code}/register/")
    assert refused.status_code == 403
    assert "A guest cannot enter an event: register or sign in first." in text(refused)
    assert not Entry.objects.filter(event_id=event.id).exists()


@pytest.mark.django_db
def test_checking_in_without_an_entry_is_answered_409() -> None:
    event = new_event()

    response = signed_in(UserFactory.create()).post(f"/events/{event.code}/check-in/")

    assert response.status_code == 409
    assert "That player is not entered in this event." in text(response)


@pytest.mark.django_db
def test_my_table_shows_where_to_sit_once_the_round_starts() -> None:
    # Given a player checked in beside three bots
    event, creator = bot_event(players=3, rounds=1)
    player = entrant(event)
    client = signed_in(player)
    waiting = text(client.get(f"/events/{event.code}/my-table/"))
    assert "You have no seat yet: the page shows it as soon as the round starts." in waiting

    # When the round starts
    services.event_start_round(event_id=event.id, actor=creator)

    # Then the player's page names their round, table, seat and tablemates, and links the game
    game = Game.objects.get(pk=TableResult.objects.get(event_id=event.id).game_id)
    seat = next(s["seat"] for s in game.seats if s["user_id"] == player.pk)
    content = text(client.get(f"/events/{event.code}/my-table/"))
    assert f"Round 1: table 1, seat {seat + 1}" in content
    names = dict(Entry.objects.filter(event_id=event.id).values_list("player_id", "name"))
    others = [names[s["user_id"]] for s in game.seats if s["user_id"] != player.pk]
    assert sorted(others) == ["Bot001 (bot)", "Bot002 (bot)", "Bot003 (bot)"]
    assert f"At your table: {', '.join(others)}" in content
    assert (
        f'<a class="button" id="go-to-table" href="/games/{game.code}/">Go to your table</a>'
        in (content)
    )


@pytest.mark.django_db
def test_my_table_asks_to_sign_in(client: Client) -> None:
    event = new_event()

    response = client.get(f"/events/{event.code}/my-table/")

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/events/{event.code}/my-table/"


@pytest.mark.django_db
def test_the_live_json_is_the_events_picture(client: Client) -> None:
    event, creator = bot_event(players=4, rounds=2)
    services.event_start_round(event_id=event.id, actor=creator)

    live = client.get(f"/events/{event.code}/live.json").json()

    row = TableResult.objects.get(event_id=event.id)
    game = Game.objects.get(pk=row.game_id)
    assert (live["code"], live["status"], live["round"], live["rounds_total"]) == (
        event.code,
        "running",
        1,
        2,
    )
    assert live["version"] == Event.objects.get(pk=event.id).version
    assert live["provisional"] is True
    assert live["me"] is None
    [table] = live["tables"]
    assert (table["game_code"], table["status"], table["hand"], table["hands_total"]) == (
        game.code,
        "playing",
        1,
        9,
    )
    assert [p["player_id"] for p in table["players"]] == row.players
    assert [p["score"] for p in table["players"]] == [0, 0, 0, 0]
    assert (table["turn"], table["record"], table["screened"]) == (None, False, False)
    assert [r["number"] for r in live["rounds"]] == [1]


@pytest.mark.django_db
def test_only_the_organizer_sees_whose_turn_it_is_and_for_how_long() -> None:
    event, creator = bot_event(players=4, rounds=1)
    services.event_start_round(event_id=event.id, actor=creator)
    game = Game.objects.get(pk=TableResult.objects.get(event_id=event.id).game_id)
    state = load_table(game.id).game

    [table] = signed_in(creator).get(f"/events/{event.code}/live.json").json()["tables"]

    assert table["turn"]["seat"] == state.turn
    # The bot's entry, named as a bot (its seat bears its name alone)
    alias = next(s["alias"] for s in game.seats if s["seat"] == state.turn)
    assert table["turn"]["name"] == f"{alias} (bot)"
    assert 0 <= table["turn"]["idle_seconds"] <= 5


@pytest.mark.django_db
def test_a_duplicate_rounds_scores_and_standings_are_screened_from_all_but_the_organizer(
    client: Client,
) -> None:
    # Given a duplicate event whose round is in play, with standings so far
    event, creator = bot_event(players=8, rounds=1, points="matchpoints", duplicate=True)
    services.event_start_round(event_id=event.id, actor=creator)
    standing(Event.objects.get(pk=event.id), 1, "Ana", 50.0)

    # Then a spectator sees neither table scores nor standings, nor a record link
    live = client.get(f"/events/{event.code}/live.json").json()
    assert live["screened"] is True
    assert live["leaderboard"] == []
    for table in live["tables"]:
        assert table["screened"] is True
        assert {p["score"] for p in table["players"]} == {None}
    page = text(client.get(f"/events/{event.code}/"))
    assert "Duplicate deals: the standings show once every table of the round has finished." in (
        page
    )
    assert text(client.get(f"/events/{event.code}/standings.csv")) == (
        "Rank,Player,Points,Exact bids,Best game,Games\n"
    )
    assert ">Ana</a></td>" not in text(client.get(f"/events/{event.code}/results/"))

    # And the organizer sees them all
    owner = signed_in(creator).get(f"/events/{event.code}/live.json").json()
    assert owner["screened"] is False
    assert [line["name"] for line in owner["leaderboard"]] == ["Ana"]
    assert all(p["score"] == 0 for t in owner["tables"] for p in t["players"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("bots_play")
def test_a_spectator_delay_holds_back_the_tables_leaderboard_results_and_csv(
    client: Client,
) -> None:
    # Given an event of bots whose spectators are held 10 minutes behind, played
    # to its end
    event, creator = bot_event(players=4, rounds=1, spectator_delay=600)
    play_round(event.id, creator)
    wait_until(lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED)
    game = Game.objects.get(pk=TableResult.objects.get(event_id=event.id).game_id)

    # Then a spectator sees the table as it was 10 minutes ago: dealt, nothing scored
    live = client.get(f"/events/{event.code}/live.json").json()
    [table] = live["tables"]
    assert (live["delay"], table["status"], table["hand"], table["hands_scored"]) == (
        600,
        "playing",
        1,
        0,
    )
    assert [p["score"] for p in table["players"]] == [0, 0, 0, 0]
    assert live["leaderboard"] == []
    assert text(client.get(f"/events/{event.code}/standings.csv")) == (
        "Rank,Player,Points,Exact bids,Best game,Games\n"
    )
    assert "<td>Bot001 (bot)</td>" not in text(client.get(f"/events/{event.code}/results/"))
    notice = "Tables and standings are shown 600 seconds behind the play."
    assert notice in text(client.get(f"/events/{event.code}/"))
    assert notice not in text(signed_in(creator).get(f"/events/{event.code}/manage/"))

    # And the organizer sees the finished table and the standings
    owner = signed_in(creator).get(f"/events/{event.code}/live.json").json()
    [table] = owner["tables"]
    assert (owner["delay"], table["status"], table["hands_scored"]) == (0, "finished", 9)
    assert [p["score"] for p in table["players"]] == game.scores
    assert len(owner["leaderboard"]) == 4


@pytest.mark.django_db
def test_the_event_page_embeds_the_picture_for_its_script(client: Client) -> None:
    event, _ = bot_event(players=4, rounds=1)

    content = text(client.get(f"/events/{event.code}/"))

    start = content.index('<script id="atu-event" type="application/json">') + len(
        '<script id="atu-event" type="application/json">'
    )
    page = json.loads(content[start : content.index("</script>", start)])
    assert page["socket"] == f"/ws/events/{event.code}/"
    assert page["mode"] == "public"
    assert [entry["name"] for entry in page["live"]["entries"]] == [
        f"Bot00{n} (bot)" for n in range(1, 5)
    ]
    assert "csrf" not in page
    assert f'<script src="{static("tournaments/event.js")}"></script>' in content


# --- Results ------------------------------------------------------------------------


def standing(event: Event, rank: int, name: str, points: float, **values: Any) -> None:
    player: User = UserFactory.create(display_name=name)
    Standing.objects.create(
        event_id=event.id,
        player_id=player.pk,
        name=name,
        rank=rank,
        points=points,
        exact_bids=values.get("exact_bids", 0),
        best_game=values.get("best_game"),
        games=values.get("games", 3),
    )


@pytest.mark.django_db
def test_the_standings_csv_lists_rank_name_points_exact_bids_best_game_and_games_safely(
    client: Client,
) -> None:
    event = new_event()
    standing(event, 1, "Ana, Pop", 42.5, exact_bids=20, best_game=130)
    standing(event, 2, "Dorin", 0.0, exact_bids=15, best_game=85)
    standing(event, 3, "Carmen", -42.25, exact_bids=9)
    standing(event, 4, "=HYPERLINK(1)", -50, exact_bids=1, games=2)

    response = client.get(f"/events/{event.code}/standings.csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="atu-{event.code}-standings.csv"'
    )
    assert text(response) == (
        "Rank,Player,Points,Exact bids,Best game,Games\n"
        '1,"Ana, Pop",42.5,20,130,3\n'
        "2,Dorin,0,15,85,3\n"
        "3,Carmen,-42.25,9,,3\n"
        "4,'=HYPERLINK(1),-50,1,,2\n"
    )


@pytest.mark.django_db
def test_the_results_page_is_printable_and_marks_provisional_standings(client: Client) -> None:
    event = new_event()
    standing(event, 1, "Ana", 12.0, exact_bids=5, best_game=60)
    ana = Standing.objects.get(event_id=event.id).player_id

    content = text(client.get(f"/events/{event.code}/results/"))

    assert '<body class="printable">' in content
    assert "Provisional: tables are still playing." in content
    assert (
        f'<td>1</td><td><a href="/players/{ana}/">Ana</a></td><td>12</td><td>5</td><td>60</td>'
        "<td>3</td>"
    ) in content
    assert '<button type="button" id="print">Print</button>' in content
    assert f'<script src="{static("tournaments/print.js")}" defer></script>' in content


@pytest.mark.django_db(transaction=True)
def test_a_finished_event_shows_final_standings_and_links_every_games_replay_and_record(
    bots_play: None, client: Client
) -> None:
    # Given a one-round event of four bots, played to the end
    event, creator = bot_event(players=4, rounds=1)
    play_round(event.id, creator)
    wait_until(
        lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED,
        60,
        "the standings caught up",
    )

    # When the organizer publishes the results
    published = signed_in(creator).post(manage_url(event, "publish/"))
    assert published.status_code == 302
    assert Event.objects.get(pk=event.id).status == "published"

    # Then the event page shows the final standings and links the game's replay and record
    game = Game.objects.get(pk=TableResult.objects.get(event_id=event.id).game_id)
    content = text(client.get(f"/events/{event.code}/"))
    assert "Final standings." in content
    assert "Results published" in content
    assert f'<a href="/games/{game.code}/">Replay</a>' in content
    assert f'<a href="/api/games/{game.code}/record/">Record (JSON)</a>' in content
    assert client.get(f"/api/games/{game.code}/record/").status_code == 200
    assert client.get(f"/games/{game.code}/").status_code == 200
    rows = list(Standing.objects.filter(event_id=event.id))
    assert len(rows) == 4
    csv_lines = text(client.get(f"/events/{event.code}/standings.csv")).splitlines()
    assert len(csv_lines) == 5
    assert [line.split(",")[1] for line in csv_lines[1:]] == [row.name for row in rows]
    results = text(client.get(f"/events/{event.code}/results/"))
    assert "Provisional" not in results
    assert f"<code>{game.code}</code>" in results


# --- Seasons and the admin -----------------------------------------------------------


@pytest.mark.django_db
def test_the_season_page_shows_its_leaderboard_and_a_rating_chart(client: Client) -> None:
    from tournaments.models import RatingChange

    creator = organizer()
    season = services.season_create(organizer=creator, name="Sezonul 2026")
    event = new_event(creator=creator, season_id=season.id)
    players = [UserFactory.create() for _ in range(2)]
    for rank, (player, name, rating) in enumerate(
        zip(players, ["Ana", "Dorin"], [1520.0, 1480.0], strict=True), start=1
    ):
        SeasonStanding.objects.create(
            season_id=season.id,
            player_id=player.pk,
            name=name,
            rank=rank,
            points=30 - rank * 10,
            rating=rating,
            events=1,
        )
        RatingChange.objects.create(
            season_id=season.id,
            player_id=player.pk,
            event_id=event.id,
            round=1,
            order=rank,
            before=1500.0,
            after=rating,
        )

    content = text(client.get(f"/seasons/{season.id}/"))

    assert "<h1>Sezonul 2026</h1>" in content
    ana, dorin = (f'<a href="/players/{player.pk}/">' for player in players)
    assert f"<td>1</td><td>{ana}Ana</a></td><td>20</td><td>1520</td><td>1</td>" in content
    assert f"<td>2</td><td>{dorin}Dorin</a></td><td>10</td><td>1480</td><td>1</td>" in content
    assert content.count("<polyline") == 2
    assert f'href="/events/{event.code}/"' in content


@pytest.mark.django_db
def test_an_unknown_season_is_404(client: Client) -> None:
    assert client.get(f"/seasons/{uuid.uuid4()}/").status_code == 404


@pytest.mark.django_db
def test_the_admin_shows_the_championships_read_only() -> None:
    event, _ = bot_event(players=4, rounds=1)
    admin = signed_in(UserFactory.create(is_staff=True, is_superuser=True))

    for model in ("event", "entry", "standing", "tableresult", "season", "seasonstanding"):
        assert admin.get(f"/admin/tournaments/{model}/").status_code == 200, model
        assert admin.get(f"/admin/tournaments/{model}/add/").status_code == 403, model
    assert admin.get(f"/admin/tournaments/event/{event.id}/change/").status_code == 200
    assert admin.post(f"/admin/tournaments/event/{event.id}/delete/").status_code == 403
    assert Event.objects.filter(pk=event.id).exists()


@pytest.mark.django_db
def test_the_pages_speak_romanian() -> None:
    event = new_event()
    client = signed_in(UserFactory.create())

    content = text(client.get(f"/events/{event.code}/", HTTP_ACCEPT_LANGUAGE="ro"))

    assert "Înscrieri deschise" in content
    assert "Nicio mână nu a fost încă punctată." in content


# --- Whist drives -----------------------------------------------------------------------


@pytest.mark.django_db
def test_an_organizer_creates_a_whist_drive_of_classic_whist_with_its_deals_and_movement() -> None:
    # When an organizer sends the create form for a whist drive of 12 deals a table
    response = signed_in(organizer()).post(
        "/events/new/",
        {**VALID_EVENT, "points": "raw", "game": "classic", "deals": "12", "movement": "swiss"},
    )

    # Then the event plays classic Whist's whist-drive preset with 12 deals
    assert response.status_code == 302
    event = Event.objects.get()
    settings = load_championship(event.id).settings
    assert (settings.kind, settings.movement, settings.preset) == (
        "classic",
        "swiss",
        "whist-drive",
    )
    assert settings.tie_breaks == ("head_to_head", "best_game")
    assert settings.options == {
        "trumps": "rotation",
        "no_trump_every_fifth": True,
        "honours": False,
        "target": 5,
        "rubber": False,
        "deals": 12,
    }


@pytest.mark.django_db
def test_a_whist_drive_at_tables_of_five_is_refused_with_400_and_the_reason() -> None:
    response = signed_in(organizer()).post(
        "/events/new/", {**VALID_EVENT, "game": "classic", "table_size": "5"}
    )

    assert response.status_code == 400
    assert "A whist drive seats its players in fours." in text(response)
    assert not Event.objects.exists()


# --- Actions asked twice ----------------------------------------------------------------


@pytest.mark.django_db
def test_publish_waits_while_a_table_plays_and_then_asks_before_it_publishes() -> None:
    # Given the only round of an event in play
    event, creator, entrants, (game,) = private_event_round(4)
    owner = signed_in(creator)

    playing = text(owner.get(manage_url(event)))
    refused = owner.post(manage_url(event, "publish/"))
    play_to_end(game.id, entrants)
    over = text(owner.get(manage_url(event)))

    # Then while it plays, Publish is a disabled button and the service refuses it too
    assert '<p id="publish-wait"><button type="button" disabled>' in playing
    assert '<div id="publish-ready" hidden>' in playing
    assert refused.status_code == 409
    # And once every table has finished, Publish opens its question before it acts
    assert '<p id="publish-wait" hidden>' in over
    assert '<div id="publish-ready">' in over
    publish = over[over.index('<details class="confirm" id="publish">') :]
    assert '<summary class="button publish">Publish the results</summary>' in publish
    assert "Publish the results? After the protest window they are final." in publish
    assert 'name="protest_minutes" value="0"' in publish
    assert f'action="/events/{event.code}/manage/publish/"' in publish


@pytest.mark.django_db
def test_withdrawing_a_player_or_oneself_asks_first_in_the_readers_language() -> None:
    event = new_event(rounds=2)
    creator = User.objects.get(pk=event.organizer_id)
    player = entrant(event)
    name = Entry.objects.get(event_id=event.id, player_id=player.pk).name

    manage = text(signed_in(creator).get(manage_url(event)))
    own = text(signed_in(player).get(f"/events/{event.code}/", HTTP_ACCEPT_LANGUAGE="ro"))

    assert f"Withdraw {name} from the rounds to come?" in manage
    assert '<button type="submit" class="withdraw confirm-yes">Yes, withdraw</button>' in manage
    assert '<details class="confirm" id="withdraw">' in own
    assert '<summary class="button withdraw">' in own
    assert "Te retragi din rundele următoare?" in own


# --- Corrections, the audit trail and the protest window -------------------------------

NOON = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def corrected_and_published(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Event, User, list[User], Clock]:
    """A played event, a result corrected at 12:05 and the results published at 12:10,
    provisional for 30 minutes."""
    event, creator, entrants = played_event(protest_minutes=30)
    clock = stopped_clock(monkeypatch, NOON + timedelta(minutes=5))
    services.event_correct_result(
        event_id=event.id,
        actor=creator,
        round_number=1,
        player_id=entrants[0].pk,
        points=-5,
        reason="revoke in deal 4",
    )
    clock.now = NOON + timedelta(minutes=10)
    services.event_publish_results(event_id=event.id, actor=creator)
    update_standings(str(event.id))
    return event, creator, entrants, clock


def entry_name(event: Event, player: User) -> str:
    return Entry.objects.get(event_id=event.id, player_id=player.pk).name


@pytest.mark.django_db
def test_the_results_page_and_its_print_list_each_correction_with_its_reason(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a result corrected, and the results published provisional until 12:40
    event, _, entrants, _ = corrected_and_published(monkeypatch)
    name = entry_name(event, entrants[0])

    # When anyone opens the results page (its printable view)
    content = text(client.get(f"/events/{event.code}/results/"))

    # Then it says until when they are provisional and lists the correction with its reason
    assert '<body class="printable">' in content
    assert (
        '<p class="notice" id="provisional">Provisional until May 1, 2026, 12:40 p.m.: '
        "the director may still correct the results.</p>"
    ) in content
    corrections = content[content.index('<section id="corrections">') :]
    assert (
        f"<tr><td>1</td><td>{name}</td><td>-5</td><td>revoke in deal 4</td>"
        '<td><time datetime="2026-05-01T12:05:00+00:00">May 1, 2026, 12:05 p.m.</time></td></tr>'
    ) in corrections


@pytest.mark.django_db
def test_the_standings_csv_ends_with_the_window_and_the_corrections_with_their_reasons(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event, _, entrants, clock = corrected_and_published(monkeypatch)
    name = entry_name(event, entrants[0])

    provisional = text(client.get(f"/events/{event.code}/standings.csv")).splitlines()
    clock.now = NOON + timedelta(minutes=40)
    final = text(client.get(f"/events/{event.code}/standings.csv")).splitlines()

    # Then while the window is open, after the standings: until when, and the corrections
    assert provisional[:1] == ["Rank,Player,Points,Exact bids,Best game,Games"]
    assert provisional[5:] == [
        "",
        "Provisional until 2026-05-01T12:40:00+00:00: the director may still correct the results.",
        "",
        "Corrections",
        "Round,Player,Points,Reason,Recorded at",
        f"1,{name},-5,revoke in deal 4,2026-05-01T12:05:00+00:00",
    ]
    # And once it has closed, the corrections alone
    assert final[5:] == provisional[7:]


@pytest.mark.django_db
def test_the_event_page_says_provisional_until_the_window_ends_then_final(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event, _, _, clock = corrected_and_published(monkeypatch)

    during = text(client.get(f"/events/{event.code}/"))
    live_during = client.get(f"/events/{event.code}/live.json").json()
    clock.now = NOON + timedelta(minutes=40)
    after = text(client.get(f"/events/{event.code}/"))
    live_after = client.get(f"/events/{event.code}/live.json").json()

    note = '<p id="standings-note" class="hint">'
    assert (
        f"{note}Provisional until May 1, 2026, 12:40 p.m.: the director may still correct the "
        "results.</p>"
    ) in during
    assert (live_during["provisional"], live_during["final_at"]) == (
        True,
        "2026-05-01T12:40:00+00:00",
    )
    assert f"{note}Final standings.</p>" in after
    assert (live_after["provisional"], live_after["final_at"]) == (False, None)


@pytest.mark.django_db
def test_a_correction_after_the_window_is_refused_with_409_and_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event, creator, entrants, clock = corrected_and_published(monkeypatch)
    clock.now = NOON + timedelta(minutes=40)

    response = signed_in(creator).post(
        manage_url(event, "corrections/"),
        {"round": "1", "player": str(entrants[1].pk), "points": "2", "reason": "late"},
    )

    assert response.status_code == 409
    assert "The results are final: they may no longer be corrected." in text(response)
    assert len(load_championship(event.id).corrections) == 1


@pytest.mark.django_db
def test_the_manage_page_lists_the_audit_trail_with_actor_names_and_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event, creator, entrants, _ = corrected_and_published(monkeypatch)
    name = entry_name(event, entrants[0])

    content = text(signed_in(creator).get(manage_url(event)))

    trail = content[content.index('<table class="list" tabindex="0" id="audit-trail">') :]
    trail = trail[: trail.index("</table>")]
    assert (
        '<tr data-kind="ResultCorrected"><td><time datetime="2026-05-01T12:05:00+00:00">'
        f"May 1, 2026, 12:05 p.m.</time></td><td>{creator.display}</td>"
        f"<td>Corrected {name}&#x27;s round 1 by -5 points</td><td>revoke in deal 4</td></tr>"
    ) in trail
    assert (
        '<tr data-kind="ResultsPublished"><td><time datetime="2026-05-01T12:10:00+00:00">'
        f"May 1, 2026, 12:10 p.m.</time></td><td>{creator.display}</td>"
        "<td>Published the results, provisional until May 1, 2026, 12:40 p.m.</td><td></td></tr>"
    ) in trail
    assert "The results are published. Provisional until May 1, 2026, 12:40 p.m." in content
    assert [kind for kind in ("RoundStarted", "EventFinished") if kind in trail] == [
        "RoundStarted",
        "EventFinished",
    ]


@pytest.mark.django_db
def test_the_protest_window_is_chosen_when_the_event_is_created_and_defaults_to_none() -> None:
    owner = signed_in(organizer())

    owner.post("/events/new/", {**VALID_EVENT, "protest_minutes": "15"})
    owner.post("/events/new/", {**VALID_EVENT, "name": "Cupa veche"})

    chosen = {
        event.name: load_championship(event.id).settings.protest_minutes
        for event in Event.objects.all()
    }
    assert chosen == {"Cupa Atu": 15, "Cupa veche": 0}
