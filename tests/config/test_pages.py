import pytest
from django.test import Client

from tests.accounts.factories import UserFactory


@pytest.mark.django_db
@pytest.mark.django_db
def test_home_page_names_the_platform_and_links_admin_and_health_for_staff_only(
    client: Client,
) -> None:
    # Given a visitor, then a member of the site's staff
    visitor = client.get("/").content.decode()
    client.force_login(UserFactory.create(is_staff=True))
    staff = client.get("/").content.decode()

    # Then both see the platform named; only the staff the admin and health links
    assert "<title>Romanian Whist championships — Atu</title>" in visitor
    assert 'href="/admin/"' not in visitor
    assert 'href="/healthz"' not in visitor
    assert 'href="/admin/"' in staff
    assert 'href="/healthz"' in staff


@pytest.mark.django_db
def test_admin_login_page_is_served(client: Client) -> None:
    response = client.get("/admin/login/")

    assert response.status_code == 200


def test_admin_css_is_served_without_collectstatic(client: Client) -> None:
    response = client.get("/static/admin/css/base.css")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")


@pytest.mark.django_db
def test_home_page_offers_visitors_sign_in_register_and_the_api_docs_not_its_schema(
    client: Client,
) -> None:
    content = client.get("/").content.decode()

    assert 'href="/accounts/login/"' in content
    assert 'href="/accounts/register/"' in content
    assert 'href="/api/docs/"' in content
    # The machine-readable schema is for operators: the staff's footer links it.
    assert 'href="/api/schema/"' not in content
    assert 'action="/accounts/logout/"' not in content


@pytest.mark.django_db
def test_home_page_names_the_signed_in_user_links_their_account_and_offers_sign_out(
    client: Client,
) -> None:
    user = UserFactory.create(display_name="Ana Pop")
    client.force_login(user)

    content = client.get("/").content.decode()

    assert "Signed in as <strong>Ana Pop</strong>" in content
    assert '<a class="who" id="my-account" href="/accounts/account/">Ana Pop</a>' in content
    assert '<form method="post" action="/accounts/logout/">' in content
    assert 'href="/accounts/login/"' not in content
