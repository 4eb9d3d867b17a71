"""The games app's WebSocket URL patterns, included by config/routing.py."""

from django.urls import path

from games.live.consumer import GameConsumer

websocket_urlpatterns = [
    # A game id or share code; the consumer closes with 4404 when there is no such game.
    # An ASGI app, not a view: the stubs' path() does not know Channels' use of it.
    path("ws/games/<str:ref>/", GameConsumer.as_asgi()),  # type: ignore[arg-type]
]
