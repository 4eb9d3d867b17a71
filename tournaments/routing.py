"""The championships' WebSocket URL patterns, included by config/routing.py."""

from django.urls import path

from tournaments.consumers import EventConsumer, TableDeskConsumer

websocket_urlpatterns = [
    # An event's share code; the consumer closes with 4404 when there is no such event
    # or the viewer may not see it.
    # An ASGI app, not a view: the stubs' path() does not know Channels' use of it.
    path("ws/events/<str:code>/", EventConsumer.as_asgi()),  # type: ignore[arg-type]
    # What one of its tables hears of it (announcements, the player's call).
    path(
        "ws/events/<str:code>/tables/<str:game_code>/",
        TableDeskConsumer.as_asgi(),  # type: ignore[arg-type]
    ),
]
