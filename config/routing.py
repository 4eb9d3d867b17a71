"""WebSocket URL patterns, the counterpart of config/urls.py for the "websocket" protocol."""

from django.urls import path

from config.health import HealthConsumer

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
]
