"""Read models of seasons and championship events, projected from their streams and
from their games' streams; ``rebuild_standings`` drops and rebuilds them all."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Season(models.Model):
    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=120)
    organizer_id = models.BigIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration"
        RUNNING = "running"
        FINISHED = "finished"
        PUBLISHED = "published"

    id = models.UUIDField(primary_key=True)
    code = models.CharField(max_length=8, unique=True)
    name = models.CharField(max_length=120)
    season_id = models.UUIDField(null=True, db_index=True)
    organizer_id = models.BigIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, db_index=True)
    preset = models.CharField(max_length=40)
    options = models.JSONField()
    # Which game its tables play: "romanian" or "classic" (a whist drive).
    kind = models.CharField(max_length=16, default="romanian")
    # "online", "room" or "both" (tournaments.championship.EventCreated.place).
    place = models.CharField(max_length=6, default="online")
    table_size = models.PositiveSmallIntegerField()
    rounds_total = models.PositiveSmallIntegerField()
    rounds_started = models.PositiveSmallIntegerField(default=0)
    points = models.CharField(max_length=12)
    public = models.BooleanField()
    duplicate = models.BooleanField()
    spectator_delay = models.PositiveIntegerField()
    # When the latest round started (its RoundStarted recorded); none before round 1.
    round_started_at = models.DateTimeField(null=True)
    # When the latest round's time is up (RoundStarted.ends_at); none: no time limit.
    round_ends_at = models.DateTimeField(null=True)
    # What happens then (tournaments.championship.AT_TIME_RULES).
    at_time = models.CharField(max_length=12, default="none")
    # The latest round's time was called (RoundTimeUp: at its limit, or by the
    # director's hand): its tables finish the deal in progress and play no more.
    round_time_called = models.BooleanField(default=False)
    # What the players may say at its tables (EventCreated.table_chat).
    table_chat = models.CharField(max_length=8, default="off")
    # The director's announcements not withdrawn, newest first:
    # [{"number": 2, "text": "...", "at": "<ISO time>"}, ...].
    announcements = models.JSONField(default=list)
    # The calls to the director still open, and the last from each seat of the current
    # round (tournaments.projections.event._calls), oldest first: only who directs the
    # event sees them all, a player only their own.
    calls = models.JSONField(default=list)
    # The schedule (tournaments.championship.EventCreated): none for an unscheduled event.
    starts_at = models.DateTimeField(null=True, db_index=True)
    time_zone = models.CharField(max_length=64, default="")
    description = models.TextField(default="", blank=True)
    entry_limit = models.PositiveIntegerField(null=True)
    entry_deadline = models.DateTimeField(null=True)
    check_in_opens_at = models.DateTimeField(null=True)
    # Entries not withdrawn.
    entered = models.PositiveIntegerField(default=0)
    # When the published results become final (their protest window's end); none:
    # final once published, or not published yet.
    results_final_at = models.DateTimeField(null=True)
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    event_id = models.UUIDField()
    player_id = models.BigIntegerField()
    name = models.CharField(max_length=64)
    checked_in = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    # Checked in as present in the room (an event played both online and in the room).
    in_room = models.BooleanField(default=False)
    # A no-show seated at a scheduled start: a bot plays for them until they check in.
    bot_plays = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event_id", "player_id"], name="one_entry_per_player")
        ]
        ordering = ["name", "player_id"]

    def __str__(self) -> str:
        return self.name


class Deputy(models.Model):
    """A co-director the organizer named (tournaments.championship.DeputyNamed)."""

    event_id = models.UUIDField()
    user_id = models.BigIntegerField(db_index=True)
    name = models.CharField(max_length=64)

    class Meta:
        verbose_name = _("deputy")
        verbose_name_plural = _("deputies")
        constraints = [
            models.UniqueConstraint(fields=["event_id", "user_id"], name="one_deputy_per_user")
        ]
        ordering = ["name", "user_id"]

    def __str__(self) -> str:
        return self.name


class TableResult(models.Model):
    """One table of one round and what its game's log says of it so far: only the
    scores, not the cards."""

    game_id = models.UUIDField(primary_key=True)
    event_id = models.UUIDField(db_index=True)
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    # Player ids by seat, and by seat their score so far and bids made exactly.
    players = models.JSONField()
    scores = models.JSONField()
    exact_bids = models.JSONField()
    # By seat, [who, deals, exact bids] of each who played its deals when anyone but
    # its player did (a bot: who is null); empty otherwise (decision 3406).
    played = models.JSONField(default=list)
    hands_scored = models.PositiveSmallIntegerField(default=0)
    hands_total = models.PositiveSmallIntegerField(default=0)
    finished = models.BooleanField(default=False)
    # The game's version these figures were read at.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("table result")
        verbose_name_plural = _("table results")
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"round {self.round} table {self.number}"


class Standing(models.Model):
    event_id = models.UUIDField()
    player_id = models.BigIntegerField()
    name = models.CharField(max_length=64)
    rank = models.PositiveIntegerField()
    points = models.FloatField()
    exact_bids = models.PositiveIntegerField()
    best_game = models.IntegerField(null=True)
    games = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["event_id", "player_id"], name="one_standing_per_player"
            )
        ]
        # A player's events (the player page).
        indexes = [models.Index(fields=["player_id"], name="standing_by_player")]
        ordering = ["rank", "name", "player_id"]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name}"


class SeasonStanding(models.Model):
    season_id = models.UUIDField()
    player_id = models.BigIntegerField()
    name = models.CharField(max_length=64)
    rank = models.PositiveIntegerField()
    points = models.IntegerField()
    rating = models.FloatField()
    events = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        constraints = [
            models.UniqueConstraint(
                fields=["season_id", "player_id"], name="one_season_standing_per_player"
            )
        ]
        ordering = ["rank", "name", "player_id"]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name}"


class RatingChange(models.Model):
    """The rating history of a season: one row per player per table played."""

    season_id = models.UUIDField(db_index=True)
    player_id = models.BigIntegerField()
    event_id = models.UUIDField()
    round = models.PositiveSmallIntegerField()
    order = models.PositiveIntegerField()
    before = models.FloatField()
    after = models.FloatField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        # A player's rating over a season (the player page).
        indexes = [
            models.Index(fields=["player_id", "season_id", "order"], name="rating_change_by_player")
        ]
        ordering = ["order", "player_id"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.before:.0f} -> {self.after:.0f}"


class PlayerGame(models.Model):
    """One player's part in one finished game, read from the game's log: the player
    page's read model (tournaments.projections.players, tournaments.players). A row
    for each person (no bot) holding a seat when the game finished."""

    game_id = models.UUIDField()
    seat = models.PositiveSmallIntegerField()
    player_id = models.BigIntegerField()
    code = models.CharField(max_length=8)
    # "romanian" or "classic" (games.table.GAME_KINDS).
    kind = models.CharField(max_length=10)
    preset = models.CharField(max_length=40, blank=True)
    player_count = models.PositiveSmallIntegerField()
    # The seat's place (1 = first; tied seats share it) and final score.
    place = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    # Of the deals this player bid at the seat (not those a bot played for them): how
    # many, how many made exactly, the longest run of exact bids as the table's rules
    # count a streak, and the streak bonuses earned. None in classic Whist.
    deals = models.PositiveSmallIntegerField()
    exact = models.PositiveSmallIntegerField()
    best_run = models.PositiveSmallIntegerField()
    bonuses = models.PositiveSmallIntegerField()
    # When the log recorded the game's end, and when its spectators saw it (its
    # spectator delay later): the row is shown from then on.
    finished_at = models.DateTimeField()
    shown_at = models.DateTimeField()

    class Meta:
        verbose_name = _("player's game")
        verbose_name_plural = _("players' games")
        constraints = [
            models.UniqueConstraint(fields=["game_id", "seat"], name="one_player_game_per_seat")
        ]
        indexes = [
            models.Index(fields=["player_id", "-finished_at"], name="player_game_recent"),
            models.Index(fields=["game_id", "player_id"], name="player_game_by_game"),
        ]
        ordering = ["-finished_at", "game_id", "seat"]

    def __str__(self) -> str:
        return f"player {self.player_id} in game {self.code}: place {self.place}"
