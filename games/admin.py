"""What the site's staff read of the games in Django's admin: the reports of words said
at the tables (decision 3506), each with the words and who said them. Read and
removed, never written here: a word is said at its table."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.models import MessageReport, TableMessage


@admin.register(MessageReport)
class MessageReportAdmin(admin.ModelAdmin):
    list_display = ("reported_at", "words", "said_by", "reporter", "game")
    list_select_related = ("message", "message__author", "reporter")
    ordering = ("-reported_at",)

    @admin.display(description=_("words"))
    def words(self, report: MessageReport) -> str:
        return report.message.phrase or report.message.text

    @admin.display(description=_("said by"))
    def said_by(self, report: MessageReport) -> str:
        message = report.message
        return f"{message.name} ({message.author})"

    @admin.display(description=_("game"))
    def game(self, report: MessageReport) -> str:
        return str(report.message.game_id)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TableMessage)
class TableMessageAdmin(admin.ModelAdmin):
    list_display = ("said_at", "name", "author", "phrase", "text", "game_id")
    search_fields = ("text", "name", "game_id")
    ordering = ("-said_at",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
