import pytest
from django.db import transaction

from games.domain import DealRevealed, PlayerSeated
from games.errors import VersionConflict
from games.eventstore import append, read, version
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

STREAM = "test:stream"


def seated(seat: int) -> PlayerSeated:
    return PlayerSeated(seat, 1, f"Player {seat}")


def test_appends_are_numbered_from_one_within_their_stream() -> None:
    actor = UserFactory.create()

    append(STREAM, 0, [seated(0), seated(1)], actor)
    append(STREAM, 2, [seated(2)], None)
    append("test:other", 0, [seated(0)], None)

    records = read(STREAM)
    assert [(r.sequence, r.type, r.payload["seat"]) for r in records] == [
        (1, "PlayerSeated", 0),
        (2, "PlayerSeated", 1),
        (3, "PlayerSeated", 2),
    ]
    assert [r.actor_id for r in records] == [actor.pk, actor.pk, None]
    assert version(STREAM) == 3
    assert version("test:other") == 1
    assert version("test:empty") == 0


def test_reading_after_a_sequence_returns_only_the_later_events() -> None:
    append(STREAM, 0, [seated(0), seated(1), seated(2)], None)

    assert [r.sequence for r in read(STREAM, after=1)] == [2, 3]
    assert read(STREAM, after=3) == []


def test_records_decode_back_to_their_events() -> None:
    append(STREAM, 0, [seated(4), DealRevealed(0, "ab" * 32)], None)

    assert [r.event for r in read(STREAM)] == [seated(4), DealRevealed(0, "ab" * 32)]


def test_a_writer_holding_a_stale_version_gets_a_conflict_and_writes_nothing() -> None:
    append(STREAM, 0, [seated(0), seated(1)], None)

    with pytest.raises(VersionConflict) as error:
        append(STREAM, 1, [seated(2), seated(3)], None)

    assert error.value.status == 409
    assert error.value.code == "version_conflict"
    assert [r.payload["seat"] for r in read(STREAM)] == [0, 1]


def test_an_append_returns_the_records_exactly_as_the_log_reads_them_back() -> None:
    actor = UserFactory.create()

    appended = append(STREAM, 0, [seated(0), DealRevealed(0, "ab" * 32)], actor)
    appended += append(STREAM, 2, [seated(1)], None)

    # Caches compare a record they were given with the one the log holds.
    assert read(STREAM) == appended


def test_an_append_without_a_savepoint_leaves_a_conflict_to_its_transaction() -> None:
    append(STREAM, 0, [seated(0)], None)

    with pytest.raises(VersionConflict), transaction.atomic():
        append(STREAM, 1, [seated(1)], None, savepoint=False)
        append(STREAM, 1, [seated(2)], None, savepoint=False)

    # The whole transaction was rolled back, the append that landed in it too.
    assert [(r.sequence, r.payload["seat"]) for r in read(STREAM)] == [(1, 0)]
