"""What the championships' write path tells, without knowing who listens."""

from django.dispatch import Signal

# Sent after the commit of every command that recorded an event's events:
# ``event_id``, the ``version`` the event reached, and the recorded ``events``.
event_recorded = Signal()
