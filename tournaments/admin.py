"""The championships in Django's admin, read-only: every row here is a projection of
the event log (rebuilt by ``rebuild_standings`` and ``rebuild_player_games``), so it is
changed through the services and the organizer's pages, never edited here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import (
    Entry,
    Event,
    PlayerGame,
    Season,
    SeasonStanding,
    Standing,
    TableResult,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("name", "organizer_id", "created_at")
    search_fields = ("name",)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = (
        "name",
        "code",
        "status",
        "rounds_started",
        "rounds_total",
        "points",
        "public",
        "created_at",
    )
    list_filter = ("status", "points", "public")
    search_fields = ("name", "code")


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("name", "event_id", "player_id", "checked_in", "withdrawn")
    list_filter = ("checked_in", "withdrawn")
    search_fields = ("name", "event_id")


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ("rank", "name", "points", "exact_bids", "games", "event_id")
    search_fields = ("name", "event_id")


@admin.register(TableResult)
class TableResultAdmin(ReadOnlyAdmin):
    list_display = ("event_id", "round", "number", "game_id", "hands_scored", "finished")
    list_filter = ("finished",)
    search_fields = ("event_id", "game_id")


@admin.register(SeasonStanding)
class SeasonStandingAdmin(ReadOnlyAdmin):
    list_display = ("rank", "name", "points", "rating", "events", "season_id")
    search_fields = ("name", "season_id")


@admin.register(PlayerGame)
class PlayerGameAdmin(ReadOnlyAdmin):
    list_display = ("player_id", "code", "place", "points", "deals", "exact", "finished_at")
    list_filter = ("kind", "player_count")
    search_fields = ("code", "game_id")
