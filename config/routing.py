"""WebSocket URL patterns, the counterpart of config/urls.py for the "websocket" protocol."""

from django.urls import path

from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from runtime.health import HealthConsumer
from tournaments.routing import websocket_urlpatterns as tournaments_websocket_urlpatterns

# Channels routes ASGI apps with Django's path(), as its documentation does; django-stubs'
# path() takes only views, and types-channels' URLRouter wants its own kind of pattern:
# the two stubs do not meet, so each such path() and the router ignore arg-type.
websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),  # type: ignore[arg-type]
    *games_websocket_urlpatterns,
    *tournaments_websocket_urlpatterns,
]
