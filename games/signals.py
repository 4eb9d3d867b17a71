"""What other apps may hear of games, without the games app knowing them."""

import uuid
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from django.dispatch import Signal


class GameRecorded(Signal):
    """Sent after the commit of a command that recorded events: ``game_id``, the
    ``version`` the game reached, and the ``types`` of the events recorded, in order.

    Each receiver names the event types it acts on (:meth:`listen`), and a command
    that recorded none of them sends nothing: most moves concern no receiver, and a
    live move's write on the event loop then needs no worker thread for it
    (:func:`games.writepath.execute_move_on_loop`).

    A receiver that reads something of each game once and keeps it names that read
    (``prepare``): it is run where a server process starts following a game whose
    moves it may decide (:meth:`games.watch.Watch.open`), so that the hand ends of
    hundreds of tables starting together do not each wait in the one worker thread for
    a query, as the first hand each table ended in a process did (decision 1801)."""

    def __init__(self) -> None:
        super().__init__()
        self.types: set[str] = set()
        self._prepares: dict[str, Callable[[uuid.UUID], object]] = {}

    def listen(
        self,
        receiver: Callable[..., Any],
        *,
        types: Iterable[str],
        dispatch_uid: str,
        prepare: Callable[[uuid.UUID], object] | None = None,
    ) -> None:
        self.types.update(types)
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
            self._prepares.pop(dispatch_uid, None)
        return super().disconnect(receiver, sender, dispatch_uid)

    def prepare(self, game_id: uuid.UUID) -> None:
        """Run each receiver's read of ``game_id`` (in a thread: it may query)."""
        for prepare in self._prepares.values():
            prepare(game_id)

    def wanted(self, types: Iterable[str]) -> bool:
        """Whether a command that recorded events of ``types`` is sent."""
        return not self.types.isdisjoint(types)


game_recorded = GameRecorded()

# The events that end a game, Romanian or classic.
FINISH_EVENTS = ("GameFinished", "classic.MatchFinished")
