"""What the championships tell of themselves, to whoever listens."""

from django.dispatch import Signal

# Sent after the commit that marked an event finished (its last round's last table
# over): ``event_id``.
event_finished = Signal()
