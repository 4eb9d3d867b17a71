import pytest

from accounts.models import User
from tests.accounts.factories import UserFactory


def test_new_user_cannot_organize_and_has_no_display_name() -> None:
    user = User(username="ana")

    assert user.can_organize is False
    assert user.display_name == ""


def test_str_and_display_are_the_display_name_when_set() -> None:
    user = UserFactory.build(username="ana", display_name="Ana Popescu")

    assert str(user) == "Ana Popescu"
    assert user.display == "Ana Popescu"


def test_str_and_display_fall_back_to_username_without_display_name() -> None:
    user = UserFactory.build(username="ana", display_name="")

    assert str(user) == "ana"
    assert user.display == "ana"


@pytest.mark.django_db
def test_custom_fields_are_stored() -> None:
    UserFactory.create(username="ana", display_name="Ana Popescu", can_organize=True)

    stored = User.objects.get(username="ana")

    assert stored.display_name == "Ana Popescu"
    assert stored.can_organize is True
