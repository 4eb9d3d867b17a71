"""The API's rates: per address for anonymous clients, per account for signed-in users,
counted atomically in the throttle cache, answered 429 ``throttled`` with ``Retry-After``."""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_token
from config.throttling import REDIS_CACHE, THROTTLE_CACHE, LoginThrottle
from tests.accounts.factories import UserFactory
from tests.games.test_two_processes import free_port

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
