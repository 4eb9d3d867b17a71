"""The account's own pages: its email, a changed password, a forgotten one reset by
mail (Django's own views, the site's templates), and the data export; each throttled
as registering is (decision 3504)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from games.commands import actions
from games.commands.chat import game_say
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games
from tournaments import services
from tournaments.projections import seasons, standings

pytestmark = pytest.mark.django_db

STRONG = "walnut-orbit-harbor"
EMAIL = "ana.pop@example.org"


def signed_in(**fields: Any) -> tuple[Client, User]:
    user: User = UserFactory.create(**fields)
    client = Client()
    client.force_login(user)
    return client, user


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/account/",
        "/accounts/account/export/",
        "/accounts/account/delete/",
        "/accounts/password/change/",
    ],
)
def test_the_account_pages_send_a_visitor_to_sign_in(client: Client, path: str) -> None:
    response = client.get(path)

    assert (response.status_code, response["Location"]) == (302, f"/accounts/login/?next={path}")


def test_the_account_page_saves_the_email_reset_links_go_to() -> None:
    client, user = signed_in(display_name="Ana Pop", username="ana")

    page = client.get("/accounts/account/").content.decode()
    saved = client.post("/accounts/account/", {"email": f"  {EMAIL} "})
    refused = client.post("/accounts/account/", {"email": "not an address"})

    assert 'href="/accounts/password/change/"' in page
    assert 'href="/accounts/account/export/"' in page
    assert 'href="/accounts/account/delete/"' in page
    assert "email-saved" in saved.content.decode()
    assert "Enter a valid email address." in refused.content.decode()
    user.refresh_from_db()
    assert user.email == EMAIL


def test_changing_the_password_asks_the_old_one_and_keeps_the_session() -> None:
    client, user = signed_in()

    wrong = client.post(
        "/accounts/password/change/",
        {"old_password": "not-it", "new_password1": STRONG, "new_password2": STRONG},
    )
    right = client.post(
        "/accounts/password/change/",
        {"old_password": DEFAULT_PASSWORD, "new_password1": STRONG, "new_password2": STRONG},
    )

    assert wrong.status_code == 200
    assert "Your old password was entered incorrectly." in wrong.content.decode()
    assert (right.status_code, right["Location"]) == (302, "/accounts/password/change/done/")
    user.refresh_from_db()
    assert user.check_password(STRONG)
    assert "password-changed" in client.get("/accounts/password/change/done/").content.decode()


def test_a_reset_link_is_mailed_to_the_accounts_address_and_sets_a_new_password() -> None:
    user: User = UserFactory.create(username="ana", display_name="Ana Pop", email=EMAIL)
    client = Client()

    sent = client.post("/accounts/password/reset/", {"email": EMAIL})

    assert (sent.status_code, sent["Location"]) == (302, "/accounts/password/reset/sent/")
    (message,) = mail.outbox
    assert (message.subject, message.to, message.from_email) == (
        "Your Atu password",
        [EMAIL],
        "Atu <noreply@localhost>",
    )
    assert "Hello Ana Pop," in message.body
    assert "Your username: ana" in message.body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/\S+/)", message.body)
    assert link is not None
    form = client.get(link[1], follow=True)
    assert 'name="new_password1"' in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": STRONG, "new_password2": STRONG}
    )
    assert (done.status_code, done["Location"]) == (302, "/accounts/password/reset/done/")
    user.refresh_from_db()
    assert user.check_password(STRONG)
    # The link works once.
    assert "reset-invalid" in client.get(link[1], follow=True).content.decode()


def test_a_reset_for_an_unknown_address_says_the_same_and_mails_nothing(client: Client) -> None:
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})

    assert (response.status_code, response["Location"]) == (302, "/accounts/password/reset/sent/")
    assert mail.outbox == []


def test_reset_requests_spend_the_addresss_budget(client: Client, rates: Any) -> None:
    rates(login="2/min")

    answers = [
        client.post("/accounts/password/reset/", {"email": f"n{n}@example.org"}).status_code
        for n in range(3)
    ]

    assert answers == [302, 302, 429]


def test_password_changes_spend_the_addresss_budget(rates: Any) -> None:
    rates(login="2/min")
    client, _ = signed_in()
    wrong = {"old_password": "guess", "new_password1": STRONG, "new_password2": STRONG}

    answers = [client.post("/accounts/password/change/", wrong).status_code for _ in range(3)]

    assert answers == [200, 200, 429]


def test_wrong_passwords_to_delete_an_account_spend_the_sign_in_budgets(rates: Any) -> None:
    rates(login_account_address="2/min")
    client, user = signed_in()

    answers = [
        client.post("/accounts/account/delete/", {"password": "guess"}).status_code
        for _ in range(2)
    ]
    right = client.post("/accounts/account/delete/", {"password": DEFAULT_PASSWORD})

    assert (*answers, right.status_code) == (200, 200, 429)
    user.refresh_from_db()
    assert user.deleted_at is None


def test_the_data_export_holds_the_account_its_games_championships_and_seasons() -> None:
    # Given a player with a table of their own and a season's championship
    client, player = signed_in(username="ana", display_name="Ana Pop", email=EMAIL)
    others = UserFactory.create_batch(3)
    game = actions.game_create(
        creator=player, player_count=4, preset="championship", options=SHORT_RULES
    )
    for number, user in enumerate([player, *others]):
        actions.game_join(game_id=game.id, user=user, alias=f"Ana{number}")
    said = game_say(game_id=game.id, actor=player, text="Noroc la toți")
    game_say(game_id=game.id, actor=others[0], phrase="thanks")
    play_to_end(game.id, [player, *others])
    creator = organizer()
    season = services.season_create(organizer=creator, name="Sezonul 2026")
    event = services.event_create(
        organizer=creator, name="Cupa Atu", rounds=1, options=SHORT_RULES, season_id=season.id
    )
    for entrant in [player, *others]:
        services.event_register(event_id=event.id, actor=entrant)
        services.event_check_in(event_id=event.id, actor=entrant)
    services.event_start_round(event_id=event.id, actor=creator)
    (table,) = round_games(event.id, 1)
    play_to_end(table.id, [player, *others])
    standings.update_event_standings(event.id)
    services.event_finish(event_id=event.id)
    seasons.update_season(season.id)

    # When they download their data
    response = client.get("/accounts/account/export/")

    # Then it is one JSON file of everything held about them
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert re.fullmatch(
        r'attachment; filename="atu-account-\d{4}-\d{2}-\d{2}\.json"',
        response["Content-Disposition"],
    )
    exported = json.loads(response.content)
    assert exported["format"] == "atu-account-export/2"
    assert {
        key: exported["account"][key] for key in ("id", "username", "display_name", "email")
    } == {
        "id": player.pk,
        "username": "ana",
        "display_name": "Ana Pop",
        "email": EMAIL,
    }
    own, championship_table = exported["games"]
    assert (own["code"], own["status"], own["seats"]) == (
        game.code,
        "finished",
        [{"seat": 0, "alias": "Ana0"}],
    )
    assert own["bids"] and {bid["seat"] for bid in own["bids"]} == {0}
    assert len(own["scores"]) == 4
    assert championship_table["seats"] == [
        {"seat": championship_table["seats"][0]["seat"], "alias": "Ana Pop"}
    ]
    (entry,) = exported["championships"]["entries"]
    assert (entry["event"], entry["event_name"], entry["name"]) == (
        event.code,
        "Cupa Atu",
        "Ana Pop",
    )
    assert entry["standing"]["games"] == 1
    (in_season,) = exported["championships"]["seasons"]
    assert (in_season["season_name"], in_season["name"], in_season["events"]) == (
        "Sezonul 2026",
        "Ana Pop",
        1,
    )
    assert [change["round"] for change in exported["championships"]["ratings"]] == [1]
    assert exported["table words"] == [
        {
            "game": game.code,
            "said_at": said.said_at.isoformat(),
            "seat": 0,
            "name": "Ana0",
            "phrase": "",
            "text": "Noroc la toți",
        }
    ]
