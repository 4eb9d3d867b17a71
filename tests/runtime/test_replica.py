"""Reads off the primary (decision 3702): with ``DATABASE_REPLICA_URL``, the reads that
tolerate a little staleness come from a streaming replica, and a command never
decides on what the replica says.

The real test starts a PostgreSQL primary and a hot standby of it (tests.pgcluster)
and a uvicorn process of the site on both, and pauses the standby's replay: the lobby
then shows a table as it was, while the commands sent meanwhile are decided on the
primary's state. It needs no database of the test run's own, so it runs embedded
and in production mode alike.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.db import DEFAULT_DB_ALIAS

from runtime.replica import REPLICA, PrimaryRouter, reads_tolerating_staleness
from tests.pgcluster import call as http_call
from tests.pgcluster import (
    caught_up,
    clusters,
    needs_postgresql,
    production_env,
    replay_paused,
    site,
)

TIMEOUT = 10


def call(
    address: str, method: str, path: str, body: dict[str, Any] | None = None, token: str = ""
) -> tuple[int, Any]:
    """Status and body of a request (JSON, or the page's text)."""
    answer = http_call(address, method, path, body, token, timeout=TIMEOUT)
    return answer.status, answer.body


def register(address: str, name: str) -> str:
    """A new account's API token."""
    status, body = call(
        address,
        "POST",
        "/api/auth/register/",
        {"username": name, "password": "a long enough password 1"},
    )
    assert status == 201, body
    return str(body["token"])


def listed(address: str, status: str) -> dict[str, Any]:
    """The games the API lists with ``status``, by code."""
    answer, body = call(address, "GET", f"/api/games/?status={status}")
    assert answer == 200, body
    return {game["code"]: game for game in body["results"]}


def lobby_section(address: str, section: str) -> str:
    """The text of one of the lobby page's lists (``open-games`` or ``live-games``)."""
    status, page = call(address, "GET", "/")
    assert status == 200
    found = re.search(rf'<section class="panel" id="{section}">(.*?)</section>', page, re.S)
    assert found is not None, page
    return found.group(1)


def acting(address: str, game: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    """The token of the player whose turn it is, and the game as they see it."""
    for token in tokens:
        status, state = call(address, "GET", f"/api/games/{game}/", token=token)
        assert status == 200, state
        if state["legal"]["bids"]:
            return token, state
    raise AssertionError("nobody may bid")


@needs_postgresql
def test_a_lagging_replica_serves_the_lobby_stale_and_commands_decide_on_the_primary(
    tmp_path: Path,
) -> None:
    with clusters() as made:
        # Given a site on a primary and its streaming replica, and a table of three
        # with two players seated, which the replica has seen
        primary = made.primary()
        standby = made.standby(primary)
        env = production_env(primary, DATABASE_REPLICA_URL=standby.url())
        with site(env, tmp_path / "server.log") as address:
            tokens = [register(address, name) for name in ("ana", "bogdan", "cristi")]
            status, game = call(
                address, "POST", "/api/games/", {"player_count": 3}, token=tokens[0]
            )
            assert status == 201, game
            code = game["code"]
            for number, token in enumerate(tokens[:2]):
                status, body = call(
                    address, "POST", f"/api/games/{code}/join/", {"alias": f"P{number}"}, token
                )
                assert status in {200, 201}, body
            caught_up(primary, standby)
            assert len(listed(address, "open")[code]["seats"]) == 2

            with replay_paused(standby):
                # When, while the replica replays nothing, the third player sits down
                # (which starts the game) and the first bid is made at the version the
                # primary holds
                status, body = call(
                    address, "POST", f"/api/games/{code}/join/", {"alias": "P2"}, tokens[2]
                )
                assert status in {200, 201}, body
                token, state = acting(address, code, tokens)
                assert state["status"] == "playing"
                bid = {"bid": state["legal"]["bids"][0], "expected_version": state["version"]}
                status, body = call(address, "POST", f"/api/games/{code}/bid/", bid, token)

                # Then the bid is accepted: decided on the primary, where the game has
                # started, not on the replica, where it waits for a player
                assert status == 200, body
                _, after = acting(address, code, tokens)
                assert after["version"] > state["version"]

                # And the lobby, read from the replica, still shows the table waiting
                # for its third player, in the API and on the page
                stale = listed(address, "open")
                assert code in stale
                assert len(stale[code]["seats"]) == 2
                assert stale[code]["version"] < state["version"]
                assert code not in listed(address, "playing")
                assert code in lobby_section(address, "open-games")
                assert code not in lobby_section(address, "live-games")

            # And once the replica has replayed, the lobby shows the game in play
            caught_up(primary, standby)
            playing = listed(address, "playing")
            assert playing[code]["version"] == after["version"]
            assert code not in listed(address, "open")
            assert code in lobby_section(address, "live-games")


def test_the_router_writes_and_migrates_on_the_primary_only() -> None:
    router = PrimaryRouter()

    # Given a block of reads that tolerate staleness, with or without a replica
    with reads_tolerating_staleness():
        # Then what is written goes to the primary, and only the primary is migrated
        assert router.db_for_write(object) == DEFAULT_DB_ALIAS
        assert router.allow_migrate(DEFAULT_DB_ALIAS, "games") is True
        assert router.allow_migrate(REPLICA, "games") is False


def test_without_a_replica_reads_that_tolerate_staleness_read_the_primary() -> None:
    # Given no DATABASE_REPLICA_URL (the test settings name none)
    router = PrimaryRouter()

    # When a block that tolerates staleness reads
    with reads_tolerating_staleness():
        chosen = router.db_for_read(object)

    # Then Django's own choice stands: the primary
    assert chosen is None
