import pytest
from django.core.exceptions import ValidationError
from rest_framework.authtoken.models import Token

from accounts.errors import InvalidCredentials
from accounts.models import User
from accounts.services import (
    user_authenticate,
    user_create_guest,
    user_ensure_bot_players,
    user_ensure_demo_organizer,
    user_register,
    user_token,
    user_token_for_credentials,
)
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

STRONG_PASSWORD = "walnut-orbit-harbor"
ADDRESS = "198.51.100.1"


def test_creates_an_organizer_named_demo_who_is_no_admin_when_missing() -> None:
    user, password = user_ensure_demo_organizer()

    assert password is not None
    assert user.username == "demo"
    assert user.display_name == "Demo Organizer"
    assert user.can_organize is True
    assert user.is_staff is False
    assert user.is_superuser is False
    assert user.is_bot is False


def test_the_demo_organizer_logs_in_with_the_password_drawn_for_it_and_no_fixed_one() -> None:
    _, password = user_ensure_demo_organizer()

    user = User.objects.get(username="demo")

    assert password is not None
    assert user.check_password(password) is True
    assert user.check_password("demo-organizer") is False


def test_second_call_returns_the_same_user_and_no_password() -> None:
    first, _ = user_ensure_demo_organizer()

    second, password = user_ensure_demo_organizer()

    assert password is None
    assert second.pk == first.pk
    assert User.objects.filter(username="demo").count() == 1


def test_existing_user_named_demo_is_left_untouched() -> None:
    UserFactory.create(username="demo", display_name="Someone", password="their-own-secret")

    user, password = user_ensure_demo_organizer()

    assert password is None
    assert user.display_name == "Someone"
    assert user.can_organize is False
    assert user.check_password("their-own-secret") is True


def test_username_can_be_chosen() -> None:
    user, password = user_ensure_demo_organizer(username="organizer")

    assert user.username == "organizer"
    assert password is not None
    assert user.check_password(password) is True


# --- Bot accounts ---------------------------------------------------------------------


def test_bot_players_are_marked_bots_that_nobody_logs_in_as() -> None:
    bots = user_ensure_bot_players(names=("Ana", "Bo"))

    assert [(bot.username, bot.display_name, bot.is_bot) for bot in bots] == [
        ("bot-ana", "Ana (bot)", True),
        ("bot-bo", "Bo (bot)", True),
    ]
    assert [bot.has_usable_password() for bot in bots] == [False, False]
    assert user_ensure_bot_players(names=("Ana", "Bo")) == bots


def test_a_person_named_like_a_bot_stays_a_person_and_the_bot_takes_the_next_name() -> None:
    person = user_register(username="bot-ana", password="walnut-orbit-harbor")

    (bot,) = user_ensure_bot_players(names=("Ana",))

    assert person.is_bot is False
    assert (bot.username, bot.is_bot) == ("bot-ana-2", True)
    assert User.objects.get(pk=person.pk).is_bot is False
    assert user_ensure_bot_players(names=("Ana",)) == [bot]


def test_registering_stores_the_user_with_a_hashed_password() -> None:
    user = user_register(username=" ana ", password="walnut-orbit-harbor", display_name=" Ana ")

    stored = User.objects.get(pk=user.pk)
    assert stored.username == "ana"
    assert stored.display_name == "Ana"
    assert stored.password != "walnut-orbit-harbor"
    assert stored.check_password("walnut-orbit-harbor") is True
    assert stored.can_organize is False
    assert stored.is_staff is False


def test_registering_reports_every_refused_field_at_once() -> None:
    UserFactory.create(username="ana")

    with pytest.raises(ValidationError) as refused:
        user_register(username="ANA", password="123", display_name="x" * 65)

    assert refused.value.message_dict == {
        "username": ["this username is taken"],
        "display_name": ["Ensure this value has at most 64 characters (it has 65)."],
        "password": [
            "This password is too short. It must contain at least 8 characters.",
            "This password is too common.",
            "This password is entirely numeric.",
        ],
    }
    assert User.objects.count() == 1


def test_credentials_of_an_active_user_authenticate_them() -> None:
    user = UserFactory.create(username="ana")

    assert user_authenticate(username="ana", password=DEFAULT_PASSWORD, address=ADDRESS) == user


@pytest.mark.parametrize(("username", "password"), [("ana", "wrong"), ("bo", DEFAULT_PASSWORD)])
def test_wrong_credentials_or_an_inactive_user_do_not_authenticate(
    username: str, password: str
) -> None:
    UserFactory.create(username="ana")
    UserFactory.create(username="bo", is_active=False)

    with pytest.raises(InvalidCredentials) as refused:
        user_authenticate(username=username, password=password, address=ADDRESS)

    assert refused.value.code == "invalid_credentials"
    assert refused.value.status == 400


def test_a_user_has_one_token_made_on_first_use() -> None:
    user = UserFactory.create()

    first = user_token(user=user)

    assert user_token(user=user) == first
    assert Token.objects.filter(user=user).count() == 1


def test_a_token_for_credentials_is_the_users_token() -> None:
    user = UserFactory.create(username="ana")

    found, token = user_token_for_credentials(
        username="ana", password=DEFAULT_PASSWORD, address=ADDRESS
    )

    assert found == user
    assert token == user_token(user=user)


def test_a_guest_has_a_generated_name_no_usable_password_and_may_not_organize() -> None:
    guest = user_create_guest()

    assert guest.is_guest
    assert guest.username.startswith("guest-")
    assert guest.display_name[: len("Guest ")] == "Guest "
    assert 1000 <= int(guest.display_name.removeprefix("Guest ")) <= 9999
    assert not guest.has_usable_password()
    guest.can_organize = True
    assert not guest.may_organize


def test_a_guest_turned_into_a_full_account_keeps_its_id() -> None:
    guest = user_create_guest()

    user = user_register(username="ion", password=STRONG_PASSWORD, guest=guest)

    assert user.pk == guest.pk
    assert (user.username, user.is_guest, user.display) == ("ion", False, "ion")
    assert user.check_password(STRONG_PASSWORD)


def test_a_guest_refused_a_taken_username_stays_a_guest() -> None:
    UserFactory(username="ion")
    guest = user_create_guest()

    with pytest.raises(ValidationError) as refused:
        user_register(username="ION", password=STRONG_PASSWORD, guest=guest)

    assert refused.value.message_dict == {"username": ["this username is taken"]}
    guest.refresh_from_db()
    assert guest.is_guest
    assert guest.username.startswith("guest-")
