"""What other apps may hear of games, without the games app knowing them."""

from collections.abc import Callable, Iterable
from typing import Any

from django.dispatch import Signal


class GameRecorded(Signal):
    """Sent after the commit of a command that recorded events: ``game_id``, the
    ``version`` the game reached, and the ``types`` of the events recorded, in order.

    Each receiver names the event types it acts on (:meth:`listen`), and a command
    that recorded none of them sends nothing: most moves concern no receiver, and a
    live move's write on the event loop then needs no worker thread for it
    (:func:`games.writepath.execute_move_on_loop`)."""

    def __init__(self) -> None:
        super().__init__()
        self.types: set[str] = set()

    def listen(
        self, receiver: Callable[..., Any], *, types: Iterable[str], dispatch_uid: str
    ) -> None:
        self.types.update(types)
        self.connect(receiver, dispatch_uid=dispatch_uid)

    def wanted(self, types: Iterable[str]) -> bool:
        """Whether a command that recorded events of ``types`` is sent."""
        return not self.types.isdisjoint(types)


game_recorded = GameRecorded()

# The events that end a game, Romanian or classic.
FINISH_EVENTS = ("GameFinished", "classic.MatchFinished")
