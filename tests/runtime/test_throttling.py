"""The API's rates: per address for anonymous clients, per account for signed-in users,
counted atomically in the throttle cache, answered 429 ``throttled`` with ``Retry-After``;
budgets of failed attempts by key (a table's PIN, a sign-in), spent only by failures."""

from __future__ import annotations

import asyncio
import math
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.conf import settings
from django.test import RequestFactory
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_token
from runtime import throttling
from runtime.errors import TooManyAttempts
from runtime.throttling import (
    REDIS_CACHE,
    SOCKET_COUNTS,
    THROTTLE_CACHE,
    AttemptKey,
    LoginThrottle,
    Opened,
    SocketClient,
    take_attempt,
)
from tests.accounts.factories import UserFactory
from tests.games.live.test_two_processes import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings: Any) -> Any:
    """Set the API's rates for one test: ``rates(anon=..., user=..., login=...)``."""

    def set_rates(**scopes: str | None) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "login": None, **scopes},
        }

    return set_rates


def token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=user)}")
    return client


def test_anonymous_requests_over_the_rate_are_429_throttled_with_retry_after(rates: Any) -> None:
    rates(anon="3/min")
    client = APIClient()

    answers = [client.get("/api/presets/") for _ in range(4)]

    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert answers[3].json() == {
        "code": "throttled",
        "message": "Request was throttled. Expected available in 60 seconds.",
    }
    assert answers[3]["Retry-After"] == "60"


def test_a_signed_in_user_has_a_budget_of_their_own_not_their_addresses(rates: Any) -> None:
    rates(anon="2/min", user="3/min")
    ana, bo = UserFactory.create_batch(2)
    as_ana, as_bo = token_client(ana), token_client(bo)

    by_ana = [as_ana.get("/api/auth/me/").status_code for _ in range(4)]
    by_bo = as_bo.get("/api/auth/me/").status_code
    anonymous = [APIClient().get("/api/presets/").status_code for _ in range(3)]

    assert by_ana == [200, 200, 200, 429]
    assert by_bo == 200
    assert anonymous == [200, 200, 429]


def test_retry_after_counts_from_the_first_request_of_the_window(rates: Any) -> None:
    rates(anon="2/min")
    client = APIClient()

    opened = time.monotonic()
    client.get("/api/presets/")
    time.sleep(1.5)
    client.get("/api/presets/")
    refused = client.get("/api/presets/")
    elapsed = time.monotonic() - opened

    assert refused.status_code == 429
    assert math.floor(60 - elapsed) <= int(refused["Retry-After"]) <= 59


def test_a_new_window_opens_once_the_last_one_closes(rates: Any) -> None:
    rates(anon="2/s")
    client = APIClient()

    first = [client.get("/api/presets/").status_code for _ in range(3)]
    time.sleep(1.1)
    second = [client.get("/api/presets/").status_code for _ in range(3)]

    assert first == [200, 200, 429]
    assert second == [200, 200, 429]


def test_concurrent_requests_are_each_counted(rates: Any) -> None:
    """Requests at once must not each see the count before the others (as DRF's own
    throttles do): of 40 at once, exactly the rate's 10 get through."""
    rates(login="10/min")
    request = RequestFactory().post("/api/auth/login/", REMOTE_ADDR="198.51.100.1")

    with ThreadPoolExecutor(max_workers=8) as pool:
        allowed = list(pool.map(lambda _: LoginThrottle().allow_request(request, None), range(40)))

    assert allowed.count(True) == 10


def test_requests_are_let_through_uncounted_while_redis_does_not_answer(
    rates: Any, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    rates(anon="1/min")
    settings.CACHES = {
        **settings.CACHES,
        THROTTLE_CACHE: {"BACKEND": REDIS_CACHE, "LOCATION": f"redis://127.0.0.1:{free_port()}/0"},
    }
    client = APIClient()

    answers = [client.get("/api/presets/").status_code for _ in range(3)]

    assert answers == [200, 200, 200]
    assert caplog.messages.count("request not counted: the throttle store is unavailable") == 3


# --- Failed attempts: budgets by key, spent by failures only -----------------------------

TABLE = AttemptKey("table-pin", "4f6c1f0e-table-one")
OTHER_TABLE = AttemptKey("table-pin", "9a0d2b7c-table-two")
CHECKED = "checked"


def attempted(*keys: AttemptKey, succeeds: bool = False) -> str | int:
    """One attempt: ``CHECKED`` if it was let through (and failed, unless it
    ``succeeds``), else the seconds its refusal says to wait."""
    try:
        attempt = take_attempt(*keys)
    except TooManyAttempts as refused:
        assert refused.status == 429
        assert refused.code == "too_many_attempts"
        return refused.retry_after
    if succeeds:
        attempt.succeeded()
    return CHECKED


def test_failures_spend_a_keys_budget_and_past_it_nothing_is_checked(rates: Any) -> None:
    rates(**{"table-pin": "3/5min"})

    answers = [attempted(TABLE) for _ in range(5)]

    assert answers[:3] == [CHECKED] * 3
    assert answers[3] == answers[4]
    assert 299 <= int(answers[3]) <= 300


def test_a_success_gives_its_place_back(rates: Any) -> None:
    rates(**{"table-pin": "2/min"})

    successes = [attempted(TABLE, succeeds=True) for _ in range(10)]
    failures = [attempted(TABLE) for _ in range(2)]
    then = attempted(TABLE, succeeds=True)

    assert successes == [CHECKED] * 10
    assert failures == [CHECKED] * 2
    assert isinstance(then, int)


def test_a_tables_budget_is_its_own(rates: Any) -> None:
    rates(**{"table-pin": "2/min"})

    first = [attempted(TABLE) for _ in range(3)]
    other = attempted(OTHER_TABLE)

    assert first[:2] == [CHECKED, CHECKED]
    assert isinstance(first[2], int)
    assert other == CHECKED


def test_an_attempt_refused_by_one_budget_spends_none_of_the_others(rates: Any) -> None:
    rates(**{"login": "1/hour", "table-pin": "3/min"})
    address = AttemptKey("login", "198.51.100.1")

    together = [attempted(address, TABLE) for _ in range(3)]
    table_alone = [attempted(TABLE) for _ in range(3)]

    assert together[0] == CHECKED
    assert 3599 <= int(together[1]) <= 3600
    assert together[2] == together[1]
    assert table_alone[:2] == [CHECKED, CHECKED]
    assert isinstance(table_alone[2], int)


def test_concurrent_attempts_each_take_a_place(rates: Any) -> None:
    """Of 40 failing attempts at once, exactly the budget's 10 are checked."""
    rates(**{"table-pin": "10/min"})

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda _: attempted(TABLE), range(40)))

    assert answers.count(CHECKED) == 10


def test_a_window_opens_again_once_its_period_is_over(rates: Any) -> None:
    rates(**{"table-pin": "1/s"})

    first = [attempted(TABLE) for _ in range(2)]
    time.sleep(1.1)
    second = [attempted(TABLE) for _ in range(2)]

    assert first == [CHECKED, 1]
    assert second == [CHECKED, 1]


def test_a_success_whose_window_closed_meanwhile_gives_nothing_back(rates: Any) -> None:
    rates(**{"table-pin": "1/s"})
    slow = take_attempt(TABLE)

    time.sleep(1.1)
    slow.succeeded()
    answers = [attempted(TABLE) for _ in range(2)]

    assert answers == [CHECKED, 1]


def test_without_a_rate_or_a_key_nothing_is_counted(rates: Any) -> None:
    rates()
    unrated = [attempted(TABLE) for _ in range(20)]
    rates(**{"table-pin": "1/min"})
    keyless = [attempted(AttemptKey("table-pin", None)) for _ in range(20)]

    assert unrated == [CHECKED] * 20
    assert keyless == [CHECKED] * 20


def test_attempts_are_let_through_uncounted_while_redis_does_not_answer(
    rates: Any, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    rates(**{"table-pin": "1/min"})
    settings.CACHES = {
        **settings.CACHES,
        THROTTLE_CACHE: {"BACKEND": REDIS_CACHE, "LOCATION": f"redis://127.0.0.1:{free_port()}/0"},
    }

    answers = [attempted(TABLE, succeeds=True), attempted(TABLE), attempted(TABLE)]

    assert answers == [CHECKED] * 3
    assert caplog.messages == ["attempt not counted: the throttle store is unavailable"] * 3


# --- Sockets: the counts behind the caps and budgets, in Redis or this process ---------

ANA = SocketClient(session="user:1", address="198.51.100.1")
BO = SocketClient(session="user:2", address="198.51.100.1")
CLUB = "198.51.100.1"
redis_only = pytest.mark.skipif(
    settings.CACHES[THROTTLE_CACHE]["BACKEND"] != REDIS_CACHE,
    reason="embedded: the counts are this process's memory, and die with it",
)


@pytest.fixture
def caps(settings: Any) -> Any:
    def set_caps(*, session: int | None = None, address: int | None = None) -> None:
        settings.ATU_SOCKETS_PER_SESSION = session
        settings.ATU_SOCKETS_PER_ADDRESS = address

    return set_caps


async def opened(client: SocketClient, count: int) -> list[tuple[str, Opened]]:
    """``count`` sockets of ``client`` opened: each one's id, and its answer."""
    ids = [uuid.uuid4().hex for _ in range(count)]
    return [(socket_id, await SOCKET_COUNTS.open(socket_id, client)) for socket_id in ids]


async def test_a_session_holds_sockets_up_to_its_cap_and_a_closed_one_frees_its_place(
    caps: Any,
) -> None:
    caps(session=2)

    first = await opened(ANA, 3)
    await SOCKET_COUNTS.close(first[0][0], ANA, 0.0)
    after_one_closed = await opened(ANA, 2)
    bo = await opened(BO, 1)

    assert [answer.refused_by for _, answer in first] == [None, None, ("session", 2)]
    assert [answer.refused_by for _, answer in after_one_closed] == [None, ("session", 2)]
    assert bo[0][1].refused_by is None


async def test_an_address_holds_sockets_up_to_its_cap_whatever_their_sessions(caps: Any) -> None:
    caps(session=5, address=3)
    anonymous = SocketClient(session=None, address=CLUB)
    elsewhere = SocketClient(session=None, address="203.0.113.9")

    answers = [*await opened(ANA, 2), *await opened(BO, 1), *await opened(anonymous, 1)]
    other_address = await opened(elsewhere, 1)

    assert [answer.refused_by for _, answer in answers] == [None, None, None, ("address", 3)]
    assert other_address[0][1].refused_by is None


async def test_without_caps_nothing_is_counted(caps: Any) -> None:
    caps(session=None, address=None)

    answers = await opened(ANA, 200)

    assert {answer.refused_by for _, answer in answers} == {None}


async def test_a_socket_starts_with_the_budget_its_clients_last_socket_left(caps: Any) -> None:
    caps(session=5, address=5)
    [(socket_id, _)] = await opened(ANA, 1)

    await SOCKET_COUNTS.close(socket_id, ANA, 30.0)
    [(_, ana_again)] = await opened(ANA, 1)
    [(_, bo)] = await opened(BO, 1)

    assert 29.0 <= ana_again.refill_seconds <= 30.0
    assert bo.refill_seconds == 0.0


async def test_a_budget_is_kept_as_low_as_any_socket_of_the_client_left_it(caps: Any) -> None:
    caps(session=5)
    sockets = await opened(ANA, 2)

    await SOCKET_COUNTS.keep_budget(ANA, 40.0)
    await SOCKET_COUNTS.close(sockets[0][0], ANA, 10.0)
    await SOCKET_COUNTS.close(sockets[1][0], ANA, 0.0)
    [(_, next_socket)] = await opened(ANA, 1)

    assert 39.0 <= next_socket.refill_seconds <= 40.0


async def test_an_anonymous_client_spends_its_addresss_budget_a_signed_in_one_its_own() -> None:
    assert SocketClient(session="session:ab12", address=CLUB).budget == f"address:{CLUB}"
    assert SocketClient(session=None, address=CLUB).budget == f"address:{CLUB}"
    assert ANA.budget == "user:1"
    assert SocketClient(session=None, address=None).budget is None


@pytest.fixture
def one_place_a_second(caps: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """One socket a session, whose place lapses a second after its last renewal."""
    caps(session=1)
    monkeypatch.setattr(throttling, "PLACE_SECONDS", 1)


@redis_only
@pytest.mark.usefixtures("one_place_a_second")
async def test_a_socket_whose_process_died_frees_its_place_at_its_deadline() -> None:
    """A process killed with its sockets open never closes them: their places lapse."""
    [(socket_id, _)] = await opened(ANA, 1)
    SOCKET_COUNTS.renewed.pop(socket_id)  # Its process is gone: nobody renews it.

    at_once = await opened(ANA, 1)
    await asyncio.sleep(1.2)
    after_the_deadline = await opened(ANA, 1)

    assert at_once[0][1].refused_by == ("session", 1)
    assert after_the_deadline[0][1].refused_by is None


@redis_only
@pytest.mark.usefixtures("one_place_a_second")
async def test_an_open_socket_keeps_its_place_past_its_deadline_by_its_processs_renewals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(throttling, "RENEW_SECONDS", 0.2)
    [(socket_id, _)] = await opened(ANA, 1)

    await asyncio.sleep(1.5)
    while_open = await opened(ANA, 1)
    await SOCKET_COUNTS.close(socket_id, ANA, 0.0)
    after_close = await opened(ANA, 1)

    assert while_open[0][1].refused_by == ("session", 1)
    assert after_close[0][1].refused_by is None


async def test_sockets_are_let_in_uncounted_while_redis_does_not_answer(
    caps: Any, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caps(session=1)
    settings.CACHES = {
        **settings.CACHES,
        THROTTLE_CACHE: {"BACKEND": REDIS_CACHE, "LOCATION": f"redis://127.0.0.1:{free_port()}/0"},
    }

    answers = await opened(ANA, 2)
    await SOCKET_COUNTS.close(answers[0][0], ANA, 5.0)

    assert [answer for _, answer in answers] == [Opened(None), Opened(None)]
    assert caplog.messages == [
        "socket not counted: the throttle store is unavailable",
        "socket not counted: the throttle store is unavailable",
        "socket not forgotten: the throttle store is unavailable",
    ]
