"""A championship's row of the read model (``Event``), its entries and a row per table,
brought up to its stream. The standings come from the games' logs
(:mod:`tournaments.projections.standings`)."""

from __future__ import annotations

import uuid
from typing import Any

from tournaments.championship import Call, Championship
from tournaments.models import Deputy, Entry, Event, TableResult


def project_event(
    event_id: uuid.UUID,
    championship: Championship,
    *,
    updated_at: Any,
    created_at: Any | None = None,
) -> None:
    """Bring the championship's read models up to its stream: its ``Event`` row, its
    entries, its deputies and a row per table."""
    settings = championship.settings
    values = {
        "code": settings.code,
        "name": settings.name,
        "season_id": uuid.UUID(settings.season_id) if settings.season_id else None,
        "organizer_id": settings.organizer_id,
        "status": _status(championship),
        "preset": settings.preset,
        "options": settings.options,
        "kind": settings.kind,
        "place": settings.place,
        "table_size": settings.table_size,
        "rounds_total": settings.rounds,
        "rounds_started": len(championship.rounds),
        "points": settings.points,
        "public": settings.public,
        "duplicate": settings.duplicate,
        "spectator_delay": settings.spectator_delay,
        "round_started_at": championship.rounds[-1].started_at if championship.rounds else None,
        "round_ends_at": championship.rounds[-1].ends_at if championship.rounds else None,
        "at_time": settings.at_time,
        "round_time_called": championship.rounds[-1].time_up if championship.rounds else False,
        "table_chat": settings.table_chat,
        "announcements": [
            {
                "number": made.number,
                "text": made.text,
                "at": made.at.isoformat() if made.at else None,
            }
            for made in championship.announcements
        ],
        "calls": _calls(championship),
        "starts_at": settings.start,
        "time_zone": settings.time_zone,
        "description": settings.description,
        "entry_limit": settings.entry_limit,
        "entry_deadline": settings.deadline,
        "check_in_opens_at": settings.check_in_opens,
        "entered": championship.entered,
        "results_final_at": championship.final_at,
        "version": championship.version,
        "updated_at": updated_at,
    }
    if not Event.objects.filter(pk=event_id).update(**values):
        Event.objects.create(pk=event_id, created_at=created_at or updated_at, **values)
    known = {entry.player_id: entry for entry in Entry.objects.filter(event_id=event_id)}
    # An entry handed over to an account (EntryHandedOver) is no longer its guest's.
    if gone := set(known) - set(championship.entries):
        Entry.objects.filter(event_id=event_id, player_id__in=gone).delete()
    for entry in championship.entries.values():
        row = known.get(entry.player_id)
        fields = {
            "name": entry.name,
            "checked_in": entry.checked_in,
            "withdrawn": entry.withdrawn,
            "in_room": entry.in_room,
            "bot_plays": entry.bot_plays,
        }
        if row is None:
            Entry.objects.create(event_id=event_id, player_id=entry.player_id, **fields)
        elif any(getattr(row, key) != value for key, value in fields.items()):
            Entry.objects.filter(pk=row.pk).update(**fields)
    named = set(Deputy.objects.filter(event_id=event_id).values_list("user_id", flat=True))
    Deputy.objects.filter(
        event_id=event_id, user_id__in=named - set(championship.deputies)
    ).delete()
    for user_id, name in championship.deputies.items():
        if user_id not in named:
            Deputy.objects.create(event_id=event_id, user_id=user_id, name=name)
    tabled = set(TableResult.objects.filter(event_id=event_id).values_list("game_id", flat=True))
    playing = {uuid.UUID(game_id) for played in championship.rounds for game_id in played.games}
    # A table moved between the room and online: its called-off game is no table.
    TableResult.objects.filter(event_id=event_id, game_id__in=tabled - playing).delete()
    for played in championship.rounds:
        for number, (players, game_id) in enumerate(zip(played.tables, played.games, strict=True)):
            if uuid.UUID(game_id) not in tabled:
                TableResult.objects.create(
                    game_id=game_id,
                    event_id=event_id,
                    round=played.number,
                    number=number + 1,
                    players=list(players),
                    scores=[0] * len(players),
                    exact_bids=[0] * len(players),
                )


def _status(championship: Championship) -> str:
    if championship.published:
        return Event.Status.PUBLISHED
    if championship.finished:
        return Event.Status.FINISHED
    if not championship.rounds:
        return Event.Status.REGISTRATION
    return Event.Status.RUNNING


def _calls(championship: Championship) -> list[dict[str, Any]]:
    """The calls to the director the pages show: every open one, and the last call
    from each seat of the current round, closed, so its player sees how it ended."""
    current = championship.rounds[-1].number if championship.rounds else 0
    last = {_seat(call): call.number for call in championship.calls}
    return [
        _call(call)
        for call in championship.calls
        if call.open or (call.called.round == current and last[_seat(call)] == call.number)
    ]


def _seat(call: Call) -> tuple[str, int]:
    return call.called.game, call.called.seat


def _call(call: Call) -> dict[str, Any]:
    called = call.called
    return {
        "number": call.number,
        "round": called.round,
        "table": called.table + 1,
        "game_id": called.game,
        "seat": called.seat,
        "player_id": called.player_id,
        "reason": called.reason,
        "text": called.text,
        "state": call.state,
        "note": call.note,
        "at": _iso(call.at),
        "answered_at": _iso(call.answered_at),
        "closed_at": _iso(call.closed_at),
    }


def _iso(at: Any) -> str | None:
    return at.isoformat() if at else None
