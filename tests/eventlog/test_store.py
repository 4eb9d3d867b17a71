from dataclasses import asdict, dataclass
from typing import Any

import pytest
from django.db import transaction

from eventlog.models import StoredEvent
from eventlog.store import (
    Codec,
    append,
    codec_of,
    read,
    read_streams,
    register,
    stream_with,
    streams,
    tally,
    version,
)
from games import table
from games.errors import VersionConflict
from games.table import DealRevealed, PlayerSeated
from tests.accounts.factories import UserFactory
from tournaments import championship

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


# A stream kind of these tests' own, at schema version 3: version 1 called its one
# event "Sat", version 2 renamed it "Seated", version 3 renamed its "name" "alias".
@dataclass(frozen=True)
class Seated:
    seat: int
    alias: str


def encode_seated(event: Seated) -> tuple[str, dict[str, Any]]:
    return "Seated", asdict(event)


def decode_seated(type_name: str, payload: dict[str, Any]) -> Seated:
    assert type_name == "Seated", type_name
    return Seated(**payload)


def renamed_type(type_name: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("Seated" if type_name == "Sat" else type_name), payload


def renamed_field(type_name: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    kept = {key: value for key, value in payload.items() if key != "name"}
    return type_name, {**kept, "alias": payload["name"]}


register(
    "seats:",
    Codec(
        encode_seated,
        decode_seated,
        VersionConflict,
        version=3,
        upcasters={1: renamed_type, 2: renamed_field},
    ),
)
SEATS = "seats:table"


def stored(sequence: int, type_name: str, payload: dict[str, Any], schema_version: int) -> None:
    """A record as an older version of the code wrote it."""
    StoredEvent.objects.create(
        stream=SEATS,
        sequence=sequence,
        type=type_name,
        schema_version=schema_version,
        payload=payload,
    )


def test_records_written_with_older_schemas_are_read_as_the_current_one() -> None:
    # Given a stream holding a record of each schema version its kind has had
    stored(1, "Sat", {"seat": 0, "name": "Ana"}, schema_version=1)
    stored(2, "Seated", {"seat": 1, "name": "Bob"}, schema_version=2)
    append(SEATS, 2, [Seated(2, "Cleo")], None)

    # When the stream is read, alone or with others
    records = read(SEATS)
    across = read_streams([SEATS], types=["Sat", "Seated"])

    # Then every record reads as the current version writes it
    assert [(r.type, r.payload) for r in records] == [
        ("Seated", {"seat": 0, "alias": "Ana"}),
        ("Seated", {"seat": 1, "alias": "Bob"}),
        ("Seated", {"seat": 2, "alias": "Cleo"}),
    ]
    assert [r.event for r in records] == [Seated(0, "Ana"), Seated(1, "Bob"), Seated(2, "Cleo")]
    assert across == [(SEATS, record) for record in records]
    # And the log keeps each as it was written, stamped with its version
    assert list(StoredEvent.objects.filter(stream=SEATS).values_list("type", "schema_version")) == [
        ("Sat", 1),
        ("Seated", 2),
        ("Seated", 3),
    ]


def test_the_championships_streams_are_written_with_their_own_schema_version() -> None:
    assert codec_of("event:1").version == championship.SCHEMA_VERSION == 1
    assert codec_of("season:1").version == 1
    assert codec_of("game:1").version == table.SCHEMA_VERSION


def test_a_stream_of_no_registered_kind_is_neither_written_nor_read() -> None:
    with pytest.raises(LookupError, match="no codec is registered for the stream 'nokind:1'"):
        append("nokind:1", 0, [seated(0)], None)
    with pytest.raises(LookupError):
        read("nokind:1")


def test_a_codec_whose_upcasters_skip_a_version_is_refused() -> None:
    with pytest.raises(ValueError, match="one version at a time up to version 3"):
        Codec(encode_seated, decode_seated, VersionConflict, version=3, upcasters={1: renamed_type})
    with pytest.raises(ValueError):
        Codec(encode_seated, decode_seated, VersionConflict, upcasters={1: renamed_type})


def test_a_kind_registered_twice_with_another_codec_is_refused() -> None:
    with pytest.raises(ValueError, match="have a codec already"):
        register("seats:", Codec(encode_seated, decode_seated, VersionConflict, version=1))


def test_a_tally_counts_the_records_of_some_types_and_names_the_last() -> None:
    append(
        STREAM,
        0,
        [seated(0), DealRevealed(0, "ab" * 32), seated(1), DealRevealed(1, "cd" * 32)],
        None,
    )

    assert tally(STREAM, types=["PlayerSeated"]) == (2, 3)
    assert tally(STREAM, types=["GameFinished"]) == (0, 0)
    assert [r.sequence for r in read(STREAM, types=["DealRevealed"])] == [2, 4]


def test_streams_are_listed_by_prefix_and_found_by_a_payload_value() -> None:
    append("test:b", 0, [seated(0)], None)
    append("test:a", 0, [seated(1), seated(2)], None)
    append(SEATS, 0, [Seated(0, "Ana")], None)

    assert streams("test:") == ["test:a", "test:b"]
    assert stream_with("PlayerSeated", seat=2) == "test:a"
    assert stream_with("PlayerSeated", seat=3) is None
