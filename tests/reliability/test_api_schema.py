"""The REST API against its own OpenAPI schema: schemathesis generates requests from
``/api/schema/`` (valid and invalid bodies, parameters and headers) for every
operation and sends them, signed in with a token, to the Django application
in-process; no answer may be a 5xx or differ from what the schema documents.

The examples are bounded (``MAX_EXAMPLES`` per operation) so the whole run stays
around a minute; the refs are drawn from a game in its lobby, a game in play that
the token's user sits at, and whatever schemathesis makes up, so the game
endpoints are exercised past their 404.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import user_token
from games.commands import actions
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game

# Each request closes its database connection, as in production: the test's data must
# be committed for the next request to see it.
pytestmark = pytest.mark.django_db(transaction=True)

MAX_EXAMPLES = 30


class Refs:
    """The games a request's ``ref`` may name, and the user whose token signs it."""

    def __init__(self) -> None:
        game_id, users = seated_game(3, "championship")
        self.player = users[0]
        creator = UserFactory.create()
        lobby = actions.game_create(creator=creator, player_count=4, preset="championship")
        self.games = [str(game_id), str(lobby.id)]


# Loaded at collection: the schema view reads no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def refs() -> Refs:
    return Refs()


@schema.parametrize()
@schema.given(data=st.data())
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_every_operation_answers_as_its_schema_documents_and_never_with_a_5xx(
    case: Any, data: st.DataObject, refs: Refs
) -> None:
    if "ref" in (case.path_parameters or {}):
        case.path_parameters["ref"] = data.draw(
            st.sampled_from([*refs.games, case.path_parameters["ref"], str(uuid.uuid4())]),
            label="ref",
        )
    # Fetched for each case: a generated logout revokes the token it was sent with.
    headers = {"Authorization": f"Token {user_token(user=refs.player)}"}

    case.call_and_validate(
        headers=headers,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_headers_conformance,
            response_schema_conformance,
        ],
    )
