"""WebSocket URL patterns, the counterpart of config/urls.py for the "websocket" protocol."""

from django.urls import path

from config.health import HealthConsumer
from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from tournaments.routing import websocket_urlpatterns as tournaments_websocket_urlpatterns

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
    *games_websocket_urlpatterns,
    *tournaments_websocket_urlpatterns,
]
