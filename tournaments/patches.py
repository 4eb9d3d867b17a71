"""What changed between two pictures of an event, as a patch a socket sends instead of
the whole picture (decision 3304), and the patch applied.

A picture's lists of records (the leaderboard, the entries, the tables, each table's
seats, the rounds) change a few records at a time: a patch names each record by its
identity field and carries only the fields that changed, and the list's order of
identities only when it moved. Anything else that changed is carried whole.

    {"set": {field: value, ...},
     "rows": {field: {"id": identity field,
                      "items": [{"id": identity, "set": {...}, "rows": {...}}
                                | {"id": identity, "new": record}, ...],
                      "order": [identity, ...]}}}           # "order" only if it moved

``tournaments/static/tournaments/patch.js`` applies it in the pages, as
:func:`patched` does here.
"""

from __future__ import annotations

from typing import Any

# The fields that name a record of a picture's list, tried in this order: the first
# that every record of the list has, each with its own value, is the list's identity.
IDENTITIES = ("game_id", "player_id", "seat", "number")

Patch = dict[str, Any]


def changes(before: dict[str, Any], after: dict[str, Any]) -> Patch | None:
    """The patch that turns ``before`` into ``after``, or None when none can (their
    fields differ: only the whole picture says what ``after`` is)."""
    if before.keys() != after.keys():
        return None
    return _object_patch(before, after)


def _object_patch(before: dict[str, Any], after: dict[str, Any]) -> Patch:
    values: dict[str, Any] = {}
    rows: dict[str, Any] = {}
    for field, value in after.items():
        old = before[field]
        if old == value:
            continue
        listed = _rows_patch(old, value)
        if listed is None:
            values[field] = value
        else:
            rows[field] = listed
    patch: Patch = {}
    if values:
        patch["set"] = values
    if rows:
        patch["rows"] = rows
    return patch


def _rows_patch(before: Any, after: Any) -> Patch | None:
    identity = _identity(before, after)
    if identity is None:
        return None
    old = {record[identity]: record for record in before}
    items: list[dict[str, Any]] = []
    for record in after:
        name = record[identity]
        was = old.get(name)
        if was is None or was.keys() != record.keys():
            items.append({"id": name, "new": record})
        elif was != record:
            items.append({"id": name, **_object_patch(was, record)})
    patch: Patch = {"id": identity, "items": items}
    order = [record[identity] for record in after]
    if order != [record[identity] for record in before]:
        patch["order"] = order
    return patch


def _identity(before: Any, after: Any) -> str | None:
    if not (isinstance(before, list) and isinstance(after, list) and before and after):
        return None
    records = before + after
    if not all(isinstance(record, dict) for record in records):
        return None
    for field in IDENTITIES:
        if all(isinstance(record.get(field), int | str) for record in records) and all(
            len({record[field] for record in side}) == len(side) for side in (before, after)
        ):
            return field
    return None


def patched(before: dict[str, Any], patch: Patch) -> dict[str, Any]:
    """``before`` with ``patch`` applied; ``before`` itself is left as it was."""
    after = {**before, **patch.get("set", {})}
    for field, rows in patch.get("rows", {}).items():
        after[field] = _patched_rows(before[field], rows)
    return after


def _patched_rows(before: list[dict[str, Any]], patch: Patch) -> list[dict[str, Any]]:
    identity = patch["id"]
    records = {record[identity]: record for record in before}
    for item in patch["items"]:
        name = item["id"]
        records[name] = item["new"] if "new" in item else patched(records[name], item)
    order = patch.get("order", [record[identity] for record in before])
    return [records[name] for name in order]
