"""What the championships' write path tells, without knowing who listens."""

from django.dispatch import Signal

# Sent after the commit of every command that recorded a championship's events:
# ``championship_id``, the ``version`` its stream reached, and the recorded ``events``.
championship_recorded = Signal()
