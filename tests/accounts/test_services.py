import pytest

from accounts.models import User
from accounts.services import user_ensure_demo_organizer
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_creates_an_organizer_named_demo_who_may_use_the_whole_admin_when_missing() -> None:
    user, created = user_ensure_demo_organizer()

    assert created is True
    assert user.username == "demo"
    assert user.display_name == "Demo Organizer"
    assert user.can_organize is True
    assert user.is_staff is True
    assert user.is_superuser is True


def test_demo_organizer_logs_in_with_the_demo_password() -> None:
    user_ensure_demo_organizer()

    user = User.objects.get(username="demo")

    assert user.check_password("demo-organizer") is True


def test_second_call_returns_the_same_user_without_creating_another() -> None:
    first, _ = user_ensure_demo_organizer()

    second, created = user_ensure_demo_organizer()

    assert created is False
    assert second.pk == first.pk
    assert User.objects.filter(username="demo").count() == 1


def test_existing_user_named_demo_is_left_untouched() -> None:
    UserFactory.create(username="demo", display_name="Someone", password="their-own-secret")

    user, created = user_ensure_demo_organizer()

    assert created is False
    assert user.display_name == "Someone"
    assert user.can_organize is False
    assert user.check_password("their-own-secret") is True


def test_username_and_password_can_be_chosen() -> None:
    user, created = user_ensure_demo_organizer(username="organizer", password="s3cret-pass")

    assert created is True
    assert user.username == "organizer"
    assert user.check_password("s3cret-pass") is True
