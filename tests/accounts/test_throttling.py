"""Signing in at a venue and password guessing (decision 3301): a sign-in that succeeds
spends nothing, so a room full of players behind one address all sign in; failures
spend the address's budget (with registering), the account's from anywhere, and the
account's from that address, on the API and the pages alike. Past one, 429 with
``Retry-After``, and not even the right password is checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from games.commands import actions
from runtime.limits import parse_rate
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

ATTEMPTS = 60
STRONG = "walnut-orbit-harbor"
VENUE = "192.0.2.10"
GUESSER = "203.0.113.7"
SIGN_IN_PATHS = ["/api/auth/login/", "/api/auth/token/", "/accounts/login/"]
# One sign-in: (address, username, password) -> the answer.
SignIn = Callable[[str, str, str], Any]


def limit_of(scope: str) -> int:
    """The configured budget of ``scope``, which the tests here must exceed."""
    rate = parse_rate(django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope])
    assert rate is not None, f"the {scope} rate is configured"
    assert rate[0] < ATTEMPTS, "the tests make more attempts than the budget allows"
    return rate[0]


def sign_in_at(path: str) -> SignIn:
    """A sign-in from a new browser or API client at ``path``."""

    def sign_in(address: str, username: str, password: str) -> Any:
        client = Client if path.startswith("/accounts/") else APIClient
        return client(REMOTE_ADDR=address).post(path, {"username": username, "password": password})

    return sign_in


def succeeded(path: str, answer: Any) -> bool:
    """A page signs in with a redirect; the API answers 200."""
    return bool(answer.status_code == (302 if path.startswith("/accounts/") else 200))


def refused(path: str) -> int:
    """A wrong password's status: the page shows its form again, the API says 400."""
    return 200 if path.startswith("/accounts/") else 400


def statuses(responses: list[Any]) -> list[int]:
    return [response.status_code for response in responses]


def assert_too_many_attempts_api(response: Any, *, within: int) -> None:
    seconds = int(response["Retry-After"])
    assert response.status_code == 429
    assert response.json() == {
        "code": "too_many_attempts",
        "message": f"too many attempts; try again in {seconds} seconds",
    }
    assert 1 <= seconds <= within


def signed_in_as(client: Client) -> int | None:
    user_id = client.session.get("_auth_user_id")
    return None if user_id is None else int(user_id)


@pytest.mark.parametrize("path", SIGN_IN_PATHS)
def test_forty_players_behind_one_address_all_sign_in_within_a_minute(path: str) -> None:
    assert limit_of("login") < 40
    players = UserFactory.create_batch(40)
    sign_in = sign_in_at(path)

    answers = [sign_in(VENUE, player.username, DEFAULT_PASSWORD) for player in players]

    assert [succeeded(path, answer) for answer in answers] == [True] * 40


def test_a_venue_where_every_fourth_player_mistypes_once_signs_everyone_in() -> None:
    players = UserFactory.create_batch(40)
    sign_in = sign_in_at("/api/auth/login/")

    mistyped = [sign_in(VENUE, player.username, "typo") for player in players[::4]]
    answers = [sign_in(VENUE, player.username, DEFAULT_PASSWORD) for player in players]

    assert statuses(mistyped) == [400] * 10
    assert statuses(answers) == [200] * 40


@pytest.mark.parametrize("path", SIGN_IN_PATHS)
def test_one_accounts_wrong_passwords_from_many_addresses_are_stopped_after_its_budget(
    path: str, user: User
) -> None:
    limit = limit_of("login-account")
    sign_in = sign_in_at(path)

    # Each from an address of its own: no address's budget is spent.
    wrong = [sign_in(f"203.0.113.{n}", user.username, f"guess-{n}") for n in range(limit + 1)]
    right = sign_in("198.51.100.200", user.username, DEFAULT_PASSWORD)

    assert statuses(wrong) == [refused(path)] * limit + [429]
    assert right.status_code == 429


def test_one_address_guessing_one_account_is_stopped_but_the_player_still_signs_in_elsewhere(
    user: User,
) -> None:
    limit = limit_of("login-account-address")
    assert limit < limit_of("login-account"), "one address cannot lock a player out"
    sign_in = sign_in_at("/api/auth/login/")

    wrong = [sign_in(GUESSER, user.username, f"guess-{n}") for n in range(ATTEMPTS)]
    right_from_the_guesser = sign_in(GUESSER, user.username, DEFAULT_PASSWORD)
    right_at_the_venue = sign_in(VENUE, user.username, DEFAULT_PASSWORD)

    assert statuses(wrong) == [400] * limit + [429] * (ATTEMPTS - limit)
    assert {answer.json()["code"] for answer in wrong[:limit]} == {"invalid_credentials"}
    assert_too_many_attempts_api(wrong[-1], within=15 * 60)
    assert_too_many_attempts_api(right_from_the_guesser, within=15 * 60)
    assert right_at_the_venue.status_code == 200


@pytest.mark.parametrize("path", SIGN_IN_PATHS)
def test_an_address_guessing_many_accounts_is_stopped_after_its_budget(path: str) -> None:
    limit = limit_of("login")
    bystander = UserFactory.create()
    sign_in = sign_in_at(path)

    wrong = [sign_in(GUESSER, f"someone{n}", "123456") for n in range(limit + 1)]
    right = sign_in(GUESSER, bystander.username, DEFAULT_PASSWORD)
    elsewhere = sign_in(VENUE, bystander.username, DEFAULT_PASSWORD)

    assert statuses(wrong) == [refused(path)] * limit + [429]
    assert right.status_code == 429
    assert succeeded(path, elsewhere)


def test_a_correct_sign_in_after_another_accounts_failures_from_the_same_address_works() -> None:
    ana, bo = UserFactory.create_batch(2)
    limit = limit_of("login-account-address")
    sign_in = sign_in_at("/api/auth/login/")

    anas = [sign_in(VENUE, ana.username, "forgot-it") for _ in range(limit + 1)]
    bos = sign_in(VENUE, bo.username, DEFAULT_PASSWORD)

    assert statuses(anas) == [400] * limit + [429]
    assert bos.status_code == 200
    assert bos.json()["user"]["username"] == bo.username


def test_successes_between_failures_spend_nothing(rates: Callable[..., None], user: User) -> None:
    rates(login_account_address="3/min")
    sign_in = sign_in_at("/api/auth/login/")

    answers = []
    for n in range(4):
        answers.append(sign_in(VENUE, user.username, DEFAULT_PASSWORD))
        answers.append(sign_in(VENUE, user.username, f"guess-{n}"))

    assert statuses(answers) == [200, 400, 200, 400, 200, 400, 429, 429]


def test_the_accounts_budget_is_one_whatever_the_case_of_its_name(
    rates: Callable[..., None], user: User
) -> None:
    rates(login_account="2/min")
    sign_in = sign_in_at("/api/auth/login/")
    names = [user.username, user.username.upper(), user.username.title()]

    answers = [sign_in(f"203.0.113.{n}", name, "guess") for n, name in enumerate(names)]

    assert statuses(answers) == [400, 400, 429]


def test_the_throttled_login_page_says_when_to_try_again(
    rates: Callable[..., None], client: Client, user: User
) -> None:
    rates(login_account_address="2/min")
    wrong = {"username": user.username, "password": "nope"}

    failed = [client.post("/accounts/login/", wrong) for _ in range(2)]
    right = client.post(
        "/accounts/login/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )

    seconds = int(right["Retry-After"])
    assert statuses(failed) == [200, 200]
    assert right.status_code == 429
    assert right["Content-Type"] == "text/html; charset=utf-8"
    assert 1 <= seconds <= 60
    content = right.content.decode()
    assert "<h1>Too many attempts</h1>" in content
    expected = f"Too many attempts. Try again in {seconds} second{'' if seconds == 1 else 's'}."
    assert expected in content
    assert signed_in_as(client) is None


def test_the_throttled_login_page_says_so_in_romanian(
    rates: Callable[..., None], client: Client
) -> None:
    rates(login="1/min")
    client.post("/accounts/login/", {"username": "ana", "password": "x"})

    response = client.post(
        "/accounts/login/", {"username": "ana", "password": "x"}, HTTP_ACCEPT_LANGUAGE="ro"
    )

    assert response.status_code == 429
    assert "Prea multe încercări. Încearcă din nou peste" in response.content.decode()


def test_reading_the_login_page_spends_nothing(client: Client) -> None:
    pages = [client.get("/accounts/login/") for _ in range(ATTEMPTS)]

    assert set(statuses(pages)) == {200}


def test_registering_shares_the_addresss_budget_on_the_api_and_the_page() -> None:
    limit = limit_of("login")
    api = APIClient()

    answers = []
    for n in range(limit + 2):
        name = f"farm{n}"
        if n % 2:
            answers.append(api.post("/api/auth/register/", {"username": name, "password": STRONG}))
        else:
            form = {"username": name, "password": STRONG, "password_again": STRONG}
            # A new browser each time: one signed in by registering is sent home.
            answers.append(Client().post("/accounts/register/", form))

    assert [answer.status_code < 400 for answer in answers] == [True] * limit + [False] * 2
    assert statuses(answers[limit:]) == [429, 429]
    assert User.objects.count() == limit


def test_failed_sign_ins_and_registering_spend_one_address_budget(
    rates: Callable[..., None],
) -> None:
    rates(login="3/min")
    api = APIClient(REMOTE_ADDR=GUESSER)

    registered = [
        api.post("/api/auth/register/", {"username": f"farm{n}", "password": STRONG})
        for n in range(2)
    ]
    guessed = api.post("/api/auth/login/", {"username": "ana", "password": "guess"})
    after = [
        api.post("/api/auth/register/", {"username": "farm9", "password": STRONG}),
        api.post("/api/auth/login/", {"username": "bo", "password": "guess"}),
    ]

    assert statuses([*registered, guessed, *after]) == [201, 201, 400, 429, 429]
    assert after[0].json()["code"] == "throttled"
    assert after[1].json()["code"] == "too_many_attempts"


def test_the_pages_and_the_api_spend_one_budget(client: Client, user: User) -> None:
    limit = limit_of("login-account-address")
    wrong = {"username": user.username, "password": "nope"}

    on_the_page = [client.post("/accounts/login/", wrong) for _ in range(limit)]
    on_the_api = APIClient().post("/api/auth/token/", wrong)

    assert set(statuses(on_the_page)) == {200}
    assert_too_many_attempts_api(on_the_api, within=15 * 60)


def test_a_forged_forwarded_for_header_does_not_buy_a_new_budget() -> None:
    limit = limit_of("login")
    client = APIClient()

    answers = [
        client.post(
            "/api/auth/login/",
            {"username": f"someone{n}", "password": "nope"},
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        )
        for n in range(limit + 1)
    ]

    assert answers[-1].status_code == 429


def test_the_budgets_are_the_settings(rates: Callable[..., None], user: User) -> None:
    rates(login="5/min", login_account="4/min", login_account_address="3/min")
    sign_in = sign_in_at("/api/auth/login/")

    from_one = [sign_in(GUESSER, user.username, "nope") for _ in range(4)]
    from_another = [sign_in(VENUE, user.username, "nope") for _ in range(2)]
    others_from_one = [sign_in(GUESSER, f"someone{n}", "nope") for n in range(3)]

    assert statuses(from_one) == [400, 400, 400, 429]
    assert statuses(from_another) == [400, 429]
    assert statuses(others_from_one) == [400, 400, 429]


def test_without_budgets_nothing_is_throttled(rates: Callable[..., None], user: User) -> None:
    rates()
    sign_in = sign_in_at("/api/auth/login/")

    answers = [sign_in(GUESSER, user.username, "nope") for _ in range(ATTEMPTS)]

    assert set(statuses(answers)) == {400}


def test_playing_as_a_guest_spends_the_addresss_budget_and_over_it_makes_no_guest() -> None:
    limit = limit_of("login")
    play = {"preset": "championship", "player_count": "3"}

    # Each guest is a new browser: a client of its own, from the one address
    answers = [Client().post("/games/play-now/", play) for _ in range(limit + 1)]

    assert statuses(answers) == [302] * limit + [429]
    assert 1 <= int(answers[-1]["Retry-After"]) <= 60
    assert User.objects.filter(is_guest=True).count() == limit


def test_guest_seats_from_share_links_spend_the_same_budget_and_over_it_make_no_guest() -> None:
    limit = limit_of("login")
    creator: User = UserFactory.create()
    codes = [
        actions.game_create(creator=creator, player_count=3, preset="championship").code
        for _ in range(limit + 1)
    ]

    # Each guest is a new browser opening another table's share link, from one address
    answers = [Client().post(f"/games/{code}/sit-as-guest/", {"alias": "Maria"}) for code in codes]

    assert statuses(answers) == [302] * limit + [429]
    assert 1 <= int(answers[-1]["Retry-After"]) <= 60
    assert User.objects.filter(is_guest=True).count() == limit
