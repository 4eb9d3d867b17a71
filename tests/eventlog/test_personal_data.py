"""Personal data kept beside the log: an event's alias or name is stored apart from
its row, read back with it, and erased without touching the log (decision 3503)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from eventlog.models import PersonalDatum, StoredEvent
from eventlog.store import (
    append,
    append_with,
    erase,
    erased_values,
    names_personal_data,
    personal_streams,
    read,
    read_streams,
    records_of,
)
from games.table import DealRevealed, PlayerSeated, SeatTaken
from tests.migrations import as_the_migrations_run

pytestmark = pytest.mark.django_db

STREAM = "test:personal"


def test_an_alias_is_kept_beside_the_log_and_read_back_into_its_event() -> None:
    # When two players sit down, one of them twice over at another table
    append(STREAM, 0, [PlayerSeated(0, 7, "Zmeoaica"), PlayerSeated(1, 8, "Ana")], None)
    append("test:other", 0, [PlayerSeated(0, 7, "Zâna")], None)

    # Then the log's rows hold no alias, only whose seat it is
    assert list(StoredEvent.objects.filter(stream=STREAM).values_list("payload", flat=True)) == [
        {"seat": 0, "user_id": 7, "zero_play": False},
        {"seat": 1, "user_id": 8, "zero_play": False},
    ]
    # And the aliases are kept beside it, each under its event and its player
    assert sorted(
        PersonalDatum.objects.values_list("stream", "sequence", "field", "subject_id", "value")
    ) == [
        ("test:other", 1, "alias", 7, "Zâna"),
        (STREAM, 1, "alias", 7, "Zmeoaica"),
        (STREAM, 2, "alias", 8, "Ana"),
    ]
    # And every read gives the events back whole
    assert [r.event for r in read(STREAM)] == [
        PlayerSeated(0, 7, "Zmeoaica"),
        PlayerSeated(1, 8, "Ana"),
    ]
    assert [r.event for _, r in read_streams([STREAM, "test:other"], types=["PlayerSeated"])] == [
        PlayerSeated(0, 7, "Zâna"),
        PlayerSeated(0, 7, "Zmeoaica"),
        PlayerSeated(1, 8, "Ana"),
    ]
    assert personal_streams(7, "test:") == ["test:other", STREAM]


def test_an_erased_players_aliases_read_as_a_deleted_player_and_the_log_is_unchanged() -> None:
    # Given a table where a player sat, and was later replaced by another
    append(
        STREAM,
        0,
        [PlayerSeated(0, 7, "Zmeoaica"), PlayerSeated(1, 8, "Ana"), SeatTaken(0, 9, "Dan")],
        None,
    )
    append(STREAM, 3, [DealRevealed(0, "ab" * 32)], None)
    rows = list(StoredEvent.objects.filter(stream=STREAM).values_list("pk", "payload"))

    # When the first player is erased
    values = erased_values(7, "test:")
    concerned = erase(7, "test:")

    # Then their alias reads as "Deleted player", the others' as they were
    assert values == {"Zmeoaica"}
    assert concerned == [STREAM]
    assert [r.event for r in read(STREAM)] == [
        PlayerSeated(0, 7, "Deleted player"),
        PlayerSeated(1, 8, "Ana"),
        SeatTaken(0, 9, "Dan"),
        DealRevealed(0, "ab" * 32),
    ]
    assert not PersonalDatum.objects.filter(subject_id=7).exists()
    assert personal_streams(7, "test:") == []
    # And the log's rows are those written
    assert list(StoredEvent.objects.filter(stream=STREAM).values_list("pk", "payload")) == rows


def test_an_erasure_erases_only_the_streams_of_its_kind() -> None:
    append(STREAM, 0, [PlayerSeated(0, 7, "Zmeoaica")], None)

    assert erase(7, "game:") == []

    assert [r.event for r in read(STREAM)] == [PlayerSeated(0, 7, "Zmeoaica")]


def test_the_single_statement_append_refuses_personal_data_and_takes_moves() -> None:
    seated = records_of(STREAM, 0, [PlayerSeated(0, 7, "Zmeoaica")], None)
    revealed = records_of(STREAM, 0, [DealRevealed(0, "ab" * 32)], None)

    assert names_personal_data(seated) is True
    assert names_personal_data(revealed) is False
    with pytest.raises(ValueError, match=r"written by store\.append"):
        append_with(STREAM, seated, ("UPDATE games_game SET version = %s WHERE 1 = 0", [0]))
    assert StoredEvent.objects.filter(stream=STREAM).count() == 0


@pytest.mark.django_db(transaction=True)
def test_the_migration_brings_the_names_out_of_rows_written_before_it() -> None:
    # Given rows as the log held them before decision 3503: names in the payloads
    with as_the_migrations_run():
        executor = MigrationExecutor(connection)
        executor.migrate([("eventlog", "0002_personal_datum")])
        before = executor.loader.project_state(("eventlog", "0002_personal_datum")).apps
        OldEvent = before.get_model("eventlog", "StoredEvent")
        for stream, sequence, type_name, payload in [
            ("game:g1", 1, "PlayerSeated", {"seat": 0, "user_id": 7, "alias": "Zmeoaica"}),
            ("game:g1", 2, "DealRevealed", {"hand": 0, "secret": "ab"}),
            ("event:e1", 1, "PlayerRegistered", {"player_id": 7, "name": "Ioana V"}),
            ("event:e1", 2, "DirectorCalled", {"player_id": 7, "text": "", "seat": 0}),
            ("season:s1", 1, "SeasonCreated", {"name": "Sezonul 2026", "organizer_id": 1}),
        ]:
            OldEvent.objects.create(
                stream=stream,
                sequence=sequence,
                type=type_name,
                schema_version=1,
                payload=payload,
            )

        # When the migration runs
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # Then the rows keep everything but the names, which are kept beside them
    assert list(StoredEvent.objects.order_by("stream", "sequence").values_list("payload")) == [
        ({"player_id": 7},),
        ({"player_id": 7, "seat": 0},),
        ({"seat": 0, "user_id": 7},),
        ({"hand": 0, "secret": "ab"},),
        ({"name": "Sezonul 2026", "organizer_id": 1},),
    ]
    assert sorted(
        PersonalDatum.objects.values_list("stream", "sequence", "field", "subject_id", "value")
    ) == [
        ("event:e1", 1, "name", 7, "Ioana V"),
        ("game:g1", 1, "alias", 7, "Zmeoaica"),
    ]
    # And the log reads as it did, and is append-only again
    assert read("game:g1")[0].payload == {"seat": 0, "user_id": 7, "alias": "Zmeoaica"}
    assert read("event:e1")[1].payload == {"player_id": 7, "text": "", "seat": 0}
    # (The application's role may not even try, in production mode.)
    with pytest.raises(Exception, match=r"append-only|permission denied"):
        StoredEvent.objects.filter(stream="game:g1").update(type="X")
