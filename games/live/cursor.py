"""What one socket has sent of one game, and the messages that bring it up to date.

A :class:`Watch` is one socket's cursor in a game's log: the table folded up to the
last event it sent, and who watches. A broadcast carries its new records, and the
sockets of one process that are at the version they follow share the work of
showing them (:class:`Step`): the records are folded once, each viewer's message is
built and encoded once (a seat's sockets and all the spectators get the same), and
the state's members that every viewer shares are encoded once; what each viewer may
see is still decided by :mod:`games.visibility`, viewer by viewer. Every ``events``
message, whichever way it comes, is built by :func:`events_message`.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from django.utils import timezone

from eventlog import store
from games.read.selectors import scored_game
from games.signals import game_recorded
from games.table import Table, fold, fold_records, stream_of
from games.visibility import (
    HandParts,
    Viewer,
    event_views,
    event_views_for,
    event_views_from,
    hand_parts,
    released,
    seen_table,
    shared_state_view,
    state_view,
    viewer_of,
    viewer_state_view,
)
from games.write.tables import load_table, offer_table
from games.write.vault import keep_vault


def json_text(value: Any) -> str:
    # orjson: it encodes a move's messages faster than the standard library, faster
    # even than telling which members of a view are unchanged and reusing their JSON
    # (decision 1801).
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def members(view: dict[str, Any]) -> str:
    """The members of ``view`` as JSON, without the braces."""
    return json_text(view)[1:-1]


def _changed(view: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """The members of ``view`` that ``before`` lacks or holds otherwise: another value,
    or the same of another type (``0 == False``, but not in JSON). A member lent by the
    view before (visibility's ``_Lender``) is the same object. One expression, not a
    function per member: this runs for every member at every move."""
    missing = object()
    return {
        key: value
        for key, value in view.items()
        if (old := before.get(key, missing)) is not value
        and (type(old) is not type(value) or old != value)
    }


def events_message(version: int, views: list[dict[str, Any]], state: str | None = None) -> str:
    """The ``events`` message that brings a viewer to ``version`` with ``views`` (their
    events, as :mod:`games.visibility` shows them), JSON; ``state``: the members of
    the view it carries too (:func:`members`), if any. Every path that sends events
    builds them here, so that the message is the same whichever way it is built."""
    text = f'{{"type":"events","version":{version},{members({"events": views})}'
    if state is not None:
        text += f',"state":{{{state}}}'
    return text + "}"


@dataclass
class Step:
    """What one broadcast brings a game to in this process, for all its sockets
    here: the records read once, the table they bring the game to folded once (and
    offered to the write path, see ``games.write.tables``), the members of the state
    that every viewer shares encoded once, and each viewer's ``events`` message
    built once (every spectator, every socket of one player, get the same).

    ``before`` and ``table`` are never changed: sockets share them."""

    game_id: uuid.UUID
    before: Table
    records: list[store.Recorded]
    table: Table
    # Each viewer's events, as event_views_from shows them.
    views: dict[Viewer, list[dict[str, Any]]]
    # The members of the state that every viewer shares at ``before``, when the step
    # before this one built them (so that a message may carry only the changes), with
    # the table they were built from (which lends what did not change).
    prior: tuple[Table, dict[str, Any]] | None = None
    # Each viewer's message, by viewer and what it carries of the state (Watch.with_state).
    messages: dict[tuple[Viewer, str], str] = field(default_factory=dict)
    # The members of the state that every viewer shares: as they are, as JSON (no
    # braces), and those that changed since ``prior``, as JSON.
    shared_view: dict[str, Any] | None = None
    shared: str | None = None
    changes: str | None = None
    # The members of the hand in play that the viewers share (visibility.hand_parts).
    parts: HandParts | None = None

    @classmethod
    def fold(
        cls,
        game_id: uuid.UUID,
        before: Table,
        rows: list[Any],
        viewers: list[Viewer],
        prior: tuple[Table, dict[str, Any]] | None,
    ) -> Step:
        """Fold the broadcast ``rows`` once, showing them to each of ``viewers`` on
        the way (others are shown them on demand, folding them again)."""
        stream = stream_of(game_id)
        records = [store.record_from_message(stream, row) for row in rows]
        table = before.clone()
        shown = event_views_for(table, records, viewers)
        offer_table(game_id, table, records[-1])
        views = dict(zip(viewers, shown, strict=True))
        return cls(game_id, before, records, table, views, prior)

    def message(self, viewer: Viewer, with_state: str) -> str:
        """The ``events`` message ``viewer`` gets (with the whole state, as
        :meth:`Watch.catch_up` sends it, or with only the state's changes), JSON."""
        key = (viewer, with_state)
        text = self.messages.get(key)
        if text is None:
            views = self.views.get(viewer)
            if views is None:
                views = self.views[viewer] = event_views_from(
                    self.before.clone(), self.records, viewer
                )
            state = None
            if with_state:
                if self.parts is None:
                    self.parts = hand_parts(self.table)
                mine = members(viewer_state_view(self.table, viewer, self.parts))
                state = f"{self._shared(with_state)},{mine}"
            text = self.messages[key] = events_message(self.table.version, views, state)
        return text

    def _shared(self, with_state: str) -> str:
        """The shared members a message carries, as JSON: all of them, or (when the
        step before built them) those that changed since."""
        if self.shared_view is None:
            self.shared_view = shared_state_view(self.game_id, self.table, self.prior)
        if with_state == "changes" and self.prior is not None:
            if self.changes is None:
                # Never empty: the version changes.
                self.changes = members(_changed(self.shared_view, self.prior[1]))
            return self.changes
        if self.shared is None:
            self.shared = members(self.shared_view)
        return self.shared


@dataclass(eq=False)
class Watch:
    """What one socket has sent of one game: the table folded up to the last event
    it sent (its cursor), and who watches. Runs in a worker thread: it reads the log.

    The table may be shared with other sockets (see :class:`Step`): it is replaced,
    never changed in place."""

    game_id: uuid.UUID
    user_id: int | None
    table: Table
    # What each events message carries of the view it brings the client to: "" none,
    # "full" all of it, "changes" what changed (games.live.consumer' _state_mode).
    with_state: str = ""
    viewer: Viewer = field(init=False)
    # Seconds this watcher lags behind the play (a delayed table's spectator, but for
    # whoever sees it live: games.visibility.held_back), and when the next event held
    # back from them becomes visible.
    lag: int = field(init=False)
    due: datetime | None = None
    # The seat a scorer who gave the PIN of a table in the room scores from.
    scorer: int | None = None

    def __post_init__(self) -> None:
        self.viewer = viewer_of(self.game_id, self.table, self.user_id, scorer=self.scorer)
        self.lag = self.viewer.lag

    @classmethod
    def open(
        cls,
        reference: str,
        user_id: int | None,
        *,
        with_state: str = "",
        session: Mapping[str, Any] | None = None,
    ) -> Watch:
        game, scorer = scored_game(reference, viewer_id=user_id, session=session)
        game_id = game.id
        watch = cls(game_id, user_id, load_table(game_id), with_state, scorer=scorer)
        # A delayed spectator starts where the delay puts them, not at the end.
        watch.table, watch.due = seen_table(game_id, watch.table, watch.viewer, timezone.now())
        if watch.viewer.seat is not None and watch.table.status == "playing":
            # The player's moves are decided on the server's event loop, which may not
            # read the vault (games.write.path): read now, in this thread, rather than
            # when the first hand they end here needs its secrets; and what the
            # receivers of a scored hand read of the game, for the same reason
            # (decision 1801).
            keep_vault(game_id, watch.table)
            game_recorded.prepare(game_id)
        return watch

    def _released(self, records: Sequence[store.Recorded]) -> list[store.Recorded]:
        shown, self.due = released(records, self.lag, timezone.now())
        return shown

    def _refresh_viewer(self) -> None:
        # The viewer as the table now makes them: a duplicate table's spectator is
        # unscreened once the whole deal set is over.
        self.viewer = viewer_of(self.game_id, self.table, self.user_id, scorer=self.scorer)

    @property
    def stream(self) -> str:
        return stream_of(self.game_id)

    @property
    def version(self) -> int:
        return self.table.version

    def state(self) -> str:
        """The whole state, as a ``state`` message (JSON)."""
        return json_text(
            {
                "type": "state",
                "version": self.version,
                "state": state_view(self.game_id, self.table, self.viewer),
            }
        )

    def _events(self, events: list[dict[str, Any]]) -> str:
        state = None
        if self.with_state:
            state = members(state_view(self.game_id, self.table, self.viewer))
        return events_message(self.version, events, state)

    def _seat_new(self, records: Sequence[store.Recorded]) -> None:
        # Seats are taken only while the table is open: a user watching it may sit
        # down, and then sees the game as that player from the first deal on.
        if records and self.user_id is not None and self.table.status == "open":
            after = fold(self.table.clone(), [record.event for record in records])
            self.viewer = viewer_of(self.game_id, after, self.user_id, scorer=self.scorer)

    def catch_up(self) -> str | None:
        """The events after the cursor, as an ``events`` message; None if there are none."""
        records = self._released(store.read(self.stream, after=self.version))
        if not records:
            return None
        self._seat_new(records)
        self.table = self.table.clone()
        views = event_views_from(self.table, records, self.viewer)
        self._refresh_viewer()
        return self._events(views)

    def follows(self, rows: list[Any]) -> bool:
        """Whether the records a broadcast carried are exactly what comes next for this
        socket, and nothing in them may change who its viewer is: then the step they
        bring the game to may be shared with the other sockets here
        (:func:`games.live.fanout.next_message`); otherwise :meth:`catch_up_from`, or
        :meth:`catch_up`."""
        if self.lag or self.table.deal_set or self.table.status == "open":
            return False
        return bool(rows) and rows[0][0] == self.version + 1

    def take(self, step: Step) -> str:
        """Move this socket's cursor by ``step`` (which :meth:`follows` allowed): its
        ``events`` message, JSON text. It runs on the event loop."""
        self.table = step.table
        return step.message(self.viewer, self.with_state)

    def catch_up_from(self, rows: list[Any]) -> str | None:
        """The records a broadcast carried, as an ``events`` message, when they are
        exactly what comes next and showing them needs no database (no delay, no deal
        set); None otherwise, and :meth:`catch_up` reads the log. It may run on the
        event loop."""
        if self.lag or self.table.deal_set:
            return None
        records = [store.record_from_message(self.stream, row) for row in rows]
        if not records or records[0].sequence != self.version + 1:
            return None
        self._seat_new(records)
        self.table = self.table.clone()
        return self._events(event_views_from(self.table, records, self.viewer))

    def resync(self) -> str:
        """The whole state as the log has it now (a lost broadcast is caught up too)."""
        records = self._released(store.read(self.stream, after=self.version))
        self._seat_new(records)
        self.table = fold_records(self.table.clone(), records)
        self._refresh_viewer()
        return self.state()

    def resume(self, after: int) -> str:
        """The events after ``after`` as one ``events`` message, up to the log's end;
        a fresh ``state`` if the client claims a version the log has not reached."""
        records = self._released(store.read(self.stream))
        # A stream is numbered from 1 without gaps: what the socket has not sent yet.
        new = records[self.version :]
        self._seat_new(new)
        self.table = fold_records(self.table.clone(), new)
        self._refresh_viewer()
        if after > self.version:
            return self.state()
        return self._events(event_views(records, self.viewer, after=after))
