"""What other apps may hear of games, without the games app knowing them."""

from django.dispatch import Signal

# Sent after the commit of every command that recorded events: ``game_id``, the
# ``version`` the game reached, and the ``types`` of the events recorded, in order.
game_recorded = Signal()

# The events that end a game, Romanian or classic.
FINISH_EVENTS = ("GameFinished", "classic.MatchFinished")
