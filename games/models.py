"""The games' own tables beside the event log (:mod:`eventlog`): command receipts,
the vault of unrevealed deal secrets, the game read model, and what is said at the
tables (kept out of the log: decision 3506)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class CommandReceipt(models.Model):
    """The events a command produced, so that a retry with the same idempotency key
    gets the original answer instead of a second event."""

    stream = models.CharField(max_length=80)
    key = models.CharField(max_length=100)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    command = models.JSONField()
    first_sequence = models.PositiveIntegerField()
    last_sequence = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("command receipt")
        verbose_name_plural = _("command receipts")
        constraints = [
            models.UniqueConstraint(fields=["stream", "key"], name="receipt_stream_key"),
        ]

    def __str__(self) -> str:
        return f"{self.stream} command {self.key}"


class DealSecret(models.Model):
    """A hand's shuffle secret, kept here until the hand ends and the secret is
    revealed in the log; its SHA-256 is in the log from the start."""

    stream = models.CharField(max_length=80)
    hand = models.PositiveSmallIntegerField()
    secret = models.BinaryField(max_length=32)

    class Meta:
        verbose_name = _("deal secret")
        verbose_name_plural = _("deal secrets")
        constraints = [
            models.UniqueConstraint(fields=["stream", "hand"], name="deal_secret_stream_hand"),
        ]

    def __str__(self) -> str:
        return f"{self.stream} hand {self.hand} secret"


class Game(models.Model):
    """Read model of a game, projected from its stream; rebuildable at any time."""

    class Status(models.TextChoices):
        OPEN = "open"
        PLAYING = "playing"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    id = models.UUIDField(primary_key=True)
    code = models.CharField(max_length=8, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, db_index=True)
    # Which game the table plays: "romanian" or "classic" (games.table.GAME_KINDS).
    kind = models.CharField(max_length=10, default="romanian")
    # "online" (played here) or "room" (played with real cards, its deals recorded here).
    place = models.CharField(max_length=6, default="online")
    player_count = models.PositiveSmallIntegerField()
    preset = models.CharField(max_length=40, blank=True)
    options = models.JSONField()
    creator_id = models.BigIntegerField(null=True)
    # [{"seat": 0, "alias": "Ana", "user_id": 3}, ...] for the seats taken.
    seats = models.JSONField(default=list)
    hand = models.PositiveSmallIntegerField(default=0)
    hands_total = models.PositiveSmallIntegerField(default=0)
    scores = models.JSONField(default=list)
    places = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=0)
    # Seconds its spectators lag behind the play (games.visibility.held_back).
    spectator_delay = models.PositiveIntegerField(default=0)
    # The duplicate deal set the game plays, if any (see games.write.vault.Vault.may_reveal).
    deal_set = models.CharField(max_length=80, blank=True, db_index=True)
    paused = models.BooleanField(default=False)
    # The finished game this one plays again (same players, same rules), if any; a
    # finished game has at most one rematch.
    rematch_of = models.UUIDField(null=True, blank=True, unique=True)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"game {self.code}"


class TableMessage(models.Model):
    """A word said at a table by the player in ``seat``: a quick phrase (its key in
    :data:`games.read.chat.PHRASES`, said to each reader in their language) or a line
    of free text. Not an event of the game's log (decision 3506): it changes nothing
    of the game, and a player's words go with their account (CASCADE)."""

    game_id = models.UUIDField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    # The seat's alias when it was said.
    name = models.CharField(max_length=24)
    phrase = models.CharField(max_length=20, blank=True)
    text = models.CharField(max_length=200, blank=True)
    said_at = models.DateTimeField(default=timezone.now)
    # The author's idempotency key ("": none): a word sent again after a lost answer is
    # said once.
    key = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        verbose_name = _("table message")
        verbose_name_plural = _("table messages")
        indexes = [models.Index(fields=["game_id", "id"], name="table_message_game")]
        constraints = [
            models.UniqueConstraint(
                fields=["game_id", "author", "key"],
                condition=~models.Q(key=""),
                name="table_message_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.phrase or self.text}"


class MessageReport(models.Model):
    """A viewer's report of a word said at a table, for the site's staff to read (the
    admin); a viewer reports a message once."""

    message = models.ForeignKey(TableMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("message report")
        verbose_name_plural = _("message reports")
        ordering = ["-reported_at"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="report_once"),
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id}"


class GameAnalysis(models.Model):
    """A finished game's analysis by the strong bot (games.bots.analysis), a read model
    derived from the game's log alone: rebuilt from it, it comes out the same
    (``manage.py rebuild_analyses --check``)."""

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE)
    # The log's version analysed: a game's log no longer grows once it has finished.
    version = models.PositiveIntegerField()
    review = models.JSONField()
    analysed_at = models.DateTimeField(default=timezone.now)
    # The analysis' CPU time, to size the analysis workers by.
    seconds = models.FloatField(default=0.0)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"
