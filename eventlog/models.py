"""The event log's one table.

Only :mod:`eventlog.store` writes to it; the database itself refuses to change or
remove a row (:mod:`eventlog.appendonly`).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class StoredEvent(models.Model):
    """One immutable fact of a stream: a game's, a championship's, a season's."""

    stream = models.CharField(max_length=80)
    sequence = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    # The payload schema of its stream kind it was written with (eventlog.store.Codec).
    schema_version = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    # Not checked by the database at each append (decision 3704): the check was more
    # than half of a move's statements. Accounts are emptied, never deleted (3503), and
    # Django's PROTECT still refuses to delete a user who acted.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_constraint=False,
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        # The table the games app created, kept: renaming it would take a migration of
        # the live log, the triggers guarding it and the role grants (decision 1501).
        db_table = "games_storedevent"
        verbose_name = _("stored event")
        verbose_name_plural = _("stored events")
        constraints = [
            # Optimistic concurrency: of two writers appending at the same version,
            # exactly one gets the next number.
            models.UniqueConstraint(fields=["stream", "sequence"], name="event_stream_sequence"),
        ]
        indexes = [
            # Standings read a stream's few events of some types (the scores), not
            # the hundreds of cards around them.
            models.Index(fields=["stream", "type"], name="event_stream_type"),
        ]
        ordering = ["stream", "sequence"]

    def __str__(self) -> str:
        return f"{self.stream}#{self.sequence} {self.type}"


class PersonalDatum(models.Model):
    """A person's datum an event names (an alias, an entrant's name, their own words),
    kept beside the log rather than in it: the stored event holds the subject's id
    only, and :mod:`eventlog.store` puts the datum back into the payload on read. An
    ordinary table, so that erasing a person deletes their rows here and leaves the
    log as it was (decision 3503)."""

    stream = models.CharField(max_length=80)
    sequence = models.PositiveIntegerField()
    # The payload field the datum is read into.
    field = models.CharField(max_length=32)
    # Whose datum it is: a user's id (no foreign key: erasing one deletes this row).
    subject_id = models.BigIntegerField(null=True)
    value = models.TextField()

    class Meta:
        verbose_name = _("personal datum")
        verbose_name_plural = _("personal data")
        constraints = [
            models.UniqueConstraint(
                fields=["stream", "sequence", "field"], name="personal_datum_event_field"
            ),
        ]
        indexes = [
            models.Index(fields=["subject_id", "stream"], name="personal_datum_subject"),
        ]

    def __str__(self) -> str:
        return f"{self.stream}#{self.sequence} {self.field}"
