import pytest
from django.test import Client


def test_home_page_names_the_platform_and_links_admin_and_health(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    content = response.content.decode()
    assert "<title>Atu — Romanian Whist championships</title>" in content
    assert 'href="/admin/"' in content
    assert 'href="/healthz"' in content


@pytest.mark.django_db
def test_admin_login_page_is_served(client: Client) -> None:
    response = client.get("/admin/login/")

    assert response.status_code == 200


def test_admin_css_is_served_without_collectstatic(client: Client) -> None:
    response = client.get("/static/admin/css/base.css")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
