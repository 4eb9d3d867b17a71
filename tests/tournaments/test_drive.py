"""A whist drive: classic Whist's tournament form at tables of four, the winning pair
moving up a table and partners changing between rounds, individual totals as the
standings."""

from __future__ import annotations

import itertools
import uuid
from collections import defaultdict
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from eventlog import store
from games.table import stream_of
from tests.tournaments.drivers import organizer, play_round, wait_until
from tests.tournaments.projections.test_standings import read_models, standing_rows
from tournaments import services
from tournaments.championship import championship_stream
from tournaments.errors import InvalidEventInput, PlayersNotInFours
from tournaments.models import Event
from tournaments.seating import progressive_movement

pytestmark = pytest.mark.django_db(transaction=True)

# Two deals a table keep each round to seconds; trumps rotate as at a drive.
DRIVE_RULES = {"deals": 2}


def logged_rounds(event_id: uuid.UUID) -> list[tuple[list[list[int]], list[tuple[int, int]]]]:
    """Each round's tables by seat, and each table's side totals, read from the raw logs."""
    rounds = []
    for record in store.read(championship_stream(event_id)):
        if record.type != "RoundStarted":
            continue
        totals = []
        for game_id in record.payload["games"]:
            finished = [
                r.payload["points"]
                for r in store.read(stream_of(game_id))
                if r.type == "classic.MatchFinished"
            ]
            assert len(finished) == 1, f"game {game_id} did not finish once"
            totals.append(tuple(finished[0]))
        rounds.append((record.payload["tables"], totals))
    return rounds


@pytest.mark.usefixtures("bots_play")
def test_an_8_player_drive_moves_winners_up_changes_partners_and_totals_each_players_odd_tricks() -> (  # noqa: E501
    None
):
    # Given a progressive whist drive of 8 bots over 4 rounds: 2 tables, 3 movements
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Whist drive",
        kind="classic",
        options=DRIVE_RULES,
        rounds=4,
        points="raw",
    )
    services.event_add_bots(event_id=event.id, actor=creator, count=8)

    # When every round is played by the bots
    for _ in range(4):
        play_round(event.id, creator)
    wait_until(
        lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED,
        60,
        "the standings caught up with the last table",
    )

    # Then each round after the first follows the movement from the last one's
    # winners, and no player keeps their partner from one round to the next
    rounds = logged_rounds(event.id)
    assert len(rounds) == 4
    for (tables, totals), (after, _) in itertools.pairwise(rounds):
        assert all(len(players) == 4 for players in tables + after)
        # A tied table's winners are drawn by lot: either side may have moved up.
        possible = [[0 if a > b else 1] if a != b else [0, 1] for a, b in totals]
        assert after in [
            progressive_movement(tables, winners) for winners in itertools.product(*possible)
        ]
        partners = {frozenset((t[s], t[s + 2])) for t in tables for s in (0, 1)}
        assert partners.isdisjoint({frozenset((t[s], t[s + 2])) for t in after for s in (0, 1)})

    # And each player's standing is the total of their side's odd tricks, every round
    expected: dict[int, int] = defaultdict(int)
    for tables, totals in rounds:
        for players, (a, b) in zip(tables, totals, strict=True):
            for seat, player in enumerate(players):
                expected[player] += a if seat % 2 == 0 else b
    rows = standing_rows(event.id)
    assert {row["player_id"]: row["points"] for row in rows} == expected
    assert [row["points"] for row in rows] == sorted(expected.values(), reverse=True)
    assert all(row["games"] == 4 for row in rows)

    # And its pages show no exact-bids column (a drive has no bids), and link each
    # table's replay and its game record
    client = Client()
    client.force_login(creator)
    code = Event.objects.get(pk=event.id).code
    live = client.get(f"/events/{code}/live.json").json()
    assert live["kind"] == "classic"
    assert [table["record"] for round in live["rounds"] for table in round["tables"]] == [True] * 8
    for page, columns in [
        (f"/events/{code}/", "<th>Points</th><th>Games</th>"),
        (f"/events/{code}/results/", "<th>Points</th><th>Best game</th>"),
    ]:
        content = client.get(page).content.decode()
        assert columns in content
        assert "Exact bids" not in content
    content = client.get(f"/events/{code}/").content.decode()
    assert "Replay</a>" in content
    assert '/record/">Record (JSON)</a>' in content

    # And rebuilding the read models from the log gives them again, identically
    before = read_models(event.id)
    call_command("rebuild_standings", stdout=StringIO())
    assert read_models(event.id) == before


def test_a_drive_seats_fours_plays_a_fixed_number_of_deals_and_no_duplicate() -> None:
    creator = organizer()
    for arguments, message in [
        ({"table_size": 5}, "a whist drive seats its players in fours"),
        ({"options": {"deals": None}}, "a whist drive plays a fixed number of deals"),
        ({"preset_name": "american"}, "a whist drive plays a fixed number of deals"),
        ({"movement": "howell"}, "a whist drive moves players by progressive or swiss"),
        ({"duplicate": True, "points": "matchpoints"}, "does not play duplicate deals"),
        ({"kind": "bridge"}, "an event plays romanian or classic, not 'bridge'"),
    ]:
        given = {"kind": "classic", **arguments}
        with pytest.raises(InvalidEventInput, match=message):
            services.event_create(organizer=creator, name="Drive", **given)
    assert not Event.objects.exists()


def test_a_drive_round_refuses_players_not_in_fours_and_starts_no_table() -> None:
    # Given a drive with 6 players checked in
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Drive", kind="classic", options=DRIVE_RULES
    )
    services.event_add_bots(event_id=event.id, actor=creator, count=6)

    # When the organizer starts a round, then it is refused with the reason
    with pytest.raises(PlayersNotInFours) as refused:
        services.event_start_round(event_id=event.id, actor=creator)
    assert refused.value.message == (
        "a whist drive seats its players in fours, and 6 are checked in: "
        "the round needs a multiple of 4, at least 4"
    )
    assert Event.objects.get(pk=event.id).rounds_started == 0
