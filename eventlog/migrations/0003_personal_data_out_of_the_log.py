"""The personal data the log's rows held, brought out of them once (decision 3503).

Every stored event of a type that names a person (a seat's alias, an entrant's name,
a deputy's name, a player's words to the director, what a correction or a
disqualification says of a player) loses those fields; each value goes into
``PersonalDatum``, under the event and the person it belongs to, from where the store
reads it back. Nothing else in a row changes: its type, sequence, schema version,
actor and time stay, and so does every field of its payload that is no personal
datum, so every game and standing replays and verifies as before.

This is the one time rows of the log are rewritten. The migration runs as the
database's owner (``manage.py migrate_as_owner``), which lifts the log's append-only
guard for this transaction alone and puts it back before committing; the
application's role, which may only read and append, could not. The fields are listed
here as they were at the time, not imported: a migration must mean tomorrow what it
means today.
"""

from django.db import migrations

from eventlog.appendonly import EVENT_LOG, install, uninstall

# (stream kind, stored type name) -> ((field, the field naming whose it is, placeholder), ...)
PERSONAL = {
    ("game:", "PlayerSeated"): (("alias", "user_id", "Deleted player"),),
    ("game:", "SeatTaken"): (("alias", "user_id", "Deleted player"),),
    ("event:", "PlayerRegistered"): (("name", "player_id", "Deleted player"),),
    ("event:", "DeputyNamed"): (("name", "user_id", ""),),
    ("event:", "DeputyRemoved"): (("name", "user_id", ""),),
    ("event:", "DirectorCalled"): (("text", "player_id", ""),),
    ("event:", "ResultCorrected"): (("reason", "player_id", ""),),
    ("event:", "PlayerDisqualified"): (("reason", "player_id", "(erased)"),),
}
TYPES = sorted({type_name for _, type_name in PERSONAL})
# The test suite's own kind shares the games' events.
KINDS = {"game:": "game:", "test:": "game:", "event:": "event:"}


def _personal(stream, type_name):
    kind = KINDS.get(stream.partition(":")[0] + ":")
    return PERSONAL.get((kind, type_name), ())


# Rows read and rewritten, and data written, per statement.
BATCH = 1000


def bring_out(apps, schema_editor):
    StoredEvent = apps.get_model("eventlog", "StoredEvent")
    PersonalDatum = apps.get_model("eventlog", "PersonalDatum")
    # The rows' ids first: the rows are rewritten while they are read, batch by batch.
    ids = list(
        StoredEvent.objects.filter(type__in=TYPES).order_by("pk").values_list("pk", flat=True)
    )
    connection = schema_editor.connection
    lifted = False
    for start in range(0, len(ids), BATCH):
        changed, data = [], []
        for row in StoredEvent.objects.filter(pk__in=ids[start : start + BATCH]):
            payload = dict(row.payload)
            for field, subject, erased in _personal(row.stream, row.type):
                if field not in payload:
                    continue
                value = payload.pop(field)
                if value is not None and value != erased:
                    data.append(
                        PersonalDatum(
                            stream=row.stream,
                            sequence=row.sequence,
                            field=field,
                            subject_id=payload.get(subject),
                            value=str(value),
                        )
                    )
            if payload != row.payload:
                row.payload = payload
                changed.append(row)
        if changed and not lifted:
            uninstall(connection, EVENT_LOG)
            lifted = True
        StoredEvent.objects.bulk_update(changed, ["payload"], batch_size=BATCH)
        PersonalDatum.objects.bulk_create(data, batch_size=BATCH)
    if lifted:
        install(connection, EVENT_LOG)


def put_back(apps, schema_editor):
    StoredEvent = apps.get_model("eventlog", "StoredEvent")
    PersonalDatum = apps.get_model("eventlog", "PersonalDatum")
    rows = StoredEvent.objects.filter(type__in=TYPES).order_by("pk")
    kept = {
        (datum.stream, datum.sequence, datum.field): datum.value
        for datum in PersonalDatum.objects.all()
    }
    connection = schema_editor.connection
    uninstall(connection, EVENT_LOG)
    for row in list(rows):
        personal = _personal(row.stream, row.type)
        if not personal:
            continue
        payload = dict(row.payload)
        for field, _, erased in personal:
            payload[field] = kept.get((row.stream, row.sequence, field), erased)
        StoredEvent.objects.filter(pk=row.pk).update(payload=payload)
    install(connection, EVENT_LOG)
    PersonalDatum.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("eventlog", "0002_personal_datum"),
    ]

    operations = [
        migrations.RunPython(bring_out, put_back),
    ]
