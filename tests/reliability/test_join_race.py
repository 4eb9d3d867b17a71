"""Thirty users racing for the four seats of one table, over HTTP against two served
processes on PostgreSQL (production mode): exactly four sit, the others are told
the table is full, nobody gets a 5xx, and the game that starts deals from the
secret it committed to.

Each user has a token of their own, as real players do (and so the per-user API
throttle, not one shared budget, is what each of them meets).
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_token
from games.commands import actions
from games.read.verification import verify_game
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import next_move
from tests.games.live.test_two_processes import post_json, production_only, servers

pytestmark = [pytest.mark.django_db(transaction=True), production_only]

ROUNDS = 20
RACERS = 30
SEATS = 4
# Generous for 600 joins on two cores; the race itself takes well under a second a round.
BUDGET_SECONDS = 240


def race_to_join(addresses: list[str], game_id: object, tokens: list[str]) -> list[Any]:
    """Every token joins the table at once, spread over the servers; their answers."""
    barrier = threading.Barrier(len(tokens))
    answers: list[Any] = [None] * len(tokens)

    def join(index: int) -> None:
        address = addresses[index % len(addresses)]
        barrier.wait()
        answers[index] = post_json(
            f"http://{address}/api/games/{game_id}/join/",
            {"alias": f"Racer {index}"},
            tokens[index],
        )

    threads = [threading.Thread(target=join, args=(i,)) for i in range(len(tokens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_of_thirty_users_racing_for_four_seats_four_sit_and_the_rest_hear_the_table_is_full(
    tmp_path: Path,
) -> None:
    started = time.monotonic()
    with servers(2, tmp_path) as addresses:
        for round_number in range(ROUNDS):
            creator = UserFactory.create()
            game = actions.game_create(creator=creator, player_count=SEATS, preset="championship")
            users = UserFactory.create_batch(RACERS)
            tokens = [user_token(user=user) for user in users]

            answers = race_to_join(addresses, game.id, tokens)

            outcomes = Counter(
                (status, answer.get("code")) if status != 200 else (200, None)
                for status, answer in answers
            )
            assert outcomes == {(200, None): SEATS, (409, "table_full"): RACERS - SEATS}, (
                f"round {round_number}: {outcomes}; logs in {tmp_path}"
            )
            table = load_table(game.id)
            assert table.status == "playing"
            seated = {seat.user_id for seat in table.seats if seat is not None}
            assert len(seated) == SEATS
            assert seated == {
                user.pk for (status, _), user in zip(answers, users, strict=True) if status == 200
            }

            # Play the first hand out: its secret is revealed in the log, and the deal
            # is dealt again from it and checked against the commitment made at the start.
            rng = random.Random(round_number)
            while not load_table(game.id).revealed:
                assert next_move(game.id, users, rng)
            report = verify_game(game.id)
            assert report.problems == []
            assert report.checked["deals"] == 1
    assert time.monotonic() - started < BUDGET_SECONDS
