"""Fixtures of the accounts' tests."""

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def rates(settings: Any) -> Callable[..., None]:
    """Set the budgets for one test, by scope; those not named are off."""

    def set_rates(**scopes: str | None) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                "anon": None,
                "user": None,
                **{scope.replace("_", "-"): rate for scope, rate in scopes.items()},
            },
        }

    return set_rates
