"""What other apps may hear of games, without the games app knowing them."""

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from django.dispatch import Signal

from games.table import game_key


class GameRecorded(Signal):
    """Sent after the commit of a command that recorded events: ``game_id``, the
    ``version`` the game reached, and the ``types`` of the events recorded, in order.

    Each receiver names the event types it acts on (:meth:`listen`), and a command
    that recorded none of them sends nothing: most moves concern no receiver, and a
    live move's write on the event loop then needs no worker thread for it
    (:func:`games.write.path.execute_move_on_loop`).

    A receiver that reads something of each game once and keeps it names that read
    (``prepare``): it is run where a server process starts following a game whose
    moves it may decide (:meth:`games.live.cursor.Watch.open`), so that the hand ends of
    many tables starting together do not each wait in the one worker thread for a
    query at the first hand each table ends in a process (decision 1801). A read that
    answers None says the receiver has nothing to do for that game (the
    championships: a game in no event), and its moves are then sent to no receiver
    for that one's types: a hand end of a game in no event does not hop to the worker
    thread for nothing."""

    # How many games' answers are kept (the one prepared longest ago forgotten first).
    KEPT = 16384

    def __init__(self) -> None:
        super().__init__()
        self._types: dict[str, frozenset[str]] = {}
        self._prepares: dict[str, Callable[[uuid.UUID], object]] = {}
        # By game (its id's integer), the receivers whose read answered None for it.
        self._idle: OrderedDict[int, frozenset[str]] = OrderedDict()
        self._idle_lock = threading.Lock()

    @property
    def types(self) -> frozenset[str]:
        """The event types some receiver acts on."""
        return frozenset().union(*self._types.values())

    def listen(
        self,
        receiver: Callable[..., Any],
        *,
        types: Iterable[str],
        dispatch_uid: str,
        prepare: Callable[[uuid.UUID], object] | None = None,
    ) -> None:
        self._types[dispatch_uid] = frozenset(types)
        self.connect(receiver, dispatch_uid=dispatch_uid)
        if prepare is not None:
            self._prepares[dispatch_uid] = prepare

    def disconnect(
        self,
        receiver: Callable[..., Any] | None = None,
        sender: object | None = None,
        dispatch_uid: Hashable | None = None,
    ) -> bool:
        if isinstance(dispatch_uid, str):
            self._types.pop(dispatch_uid, None)
            self._prepares.pop(dispatch_uid, None)
        return super().disconnect(receiver, sender, dispatch_uid)

    def prepare(self, game_id: uuid.UUID) -> None:
        """Run each receiver's read of ``game_id`` (in a thread: it may query), and keep
        which of them answered that they have nothing to do for it."""
        idle = frozenset(uid for uid, read in self._prepares.items() if read(game_id) is None)
        with self._idle_lock:
            key = game_key(game_id)
            self._idle[key] = idle
            self._idle.move_to_end(key)
            while len(self._idle) > self.KEPT:
                self._idle.popitem(last=False)

    def wanted(self, types: Iterable[str], game_id: uuid.UUID | str | None = None) -> bool:
        """Whether a command that recorded events of ``types`` (at ``game_id``) is sent:
        some receiver acts on one of them, and has not said it has nothing to do there."""
        kinds = frozenset(types)
        idle = frozenset() if game_id is None else self._idle.get(game_key(game_id), frozenset())
        return any(
            not listened.isdisjoint(kinds)
            for uid, listened in self._types.items()
            if uid not in idle
        )


game_recorded = GameRecorded()
