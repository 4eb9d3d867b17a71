"""The admin, as a superuser made by ``createsuperuser`` sees it: no page shows an API
token, which would let its reader act as that token's user."""

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.db.models import Model
from django.test import Client, override_settings
from django.urls import reverse

from accounts.services import user_token
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import bot_event
from tournaments import services

pytestmark = pytest.mark.django_db


def admin_pages(model: type[Model]) -> list[str]:
    """The changelist and add form of a registered model, and the change form of each
    of its rows."""
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    rows = model._default_manager.values_list("pk", flat=True)
    return [
        reverse(f"{name}_changelist"),
        reverse(f"{name}_add"),
        *(reverse(f"{name}_change", args=[pk]) for pk in rows),
    ]


@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are not this test's
def test_no_admin_page_shows_an_api_token(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given players who logged in through the API, a championship, and an admin made
    # as the README says
    keys = [user_token(user=user) for user in UserFactory.create_batch(3)]
    event, organizer = bot_event(players=3, rounds=1)
    services.event_start_round(event_id=event.id, actor=organizer)
    keys.append(user_token(user=organizer))
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "admin-of-the-site")
    call_command("createsuperuser", "--noinput", username="root", email="root@example.com")
    browser = Client()
    assert browser.login(username="root", password="admin-of-the-site")

    # When the admin opens its index and every page of every model it lists
    pages = ["/admin/"] + [page for model in admin.site._registry for page in admin_pages(model)]
    answers = {page: browser.get(page) for page in pages}

    # Then every page answers, no token key appears in any, and tokens have no pages
    # (the championships' rows and the words said at the tables are added elsewhere)
    assert [
        (page, key) for page, answer in answers.items() for key in keys if key in answer.text
    ] == []
    read_only = ("/tournaments/", "/games/")
    assert {page: answer.status_code for page, answer in answers.items()} == {
        page: 403 if page.endswith("/add/") and any(app in page for app in read_only) else 200
        for page in pages
    }
    assert "authtoken" not in answers["/admin/"].text
    assert browser.get("/admin/authtoken/tokenproxy/").status_code == 404
