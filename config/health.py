"""Liveness checks over HTTP and WebSocket that touch the database and the channel layer."""

from typing import Any

from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from config.limits import BudgetedJsonConsumer

HEALTH_GROUP = "health"


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse(
        {
            "status": "ok",
            "database": connection.vendor,
            "channel_layer": type(get_channel_layer()).__name__,
        }
    )


class HealthConsumer(BudgetedJsonConsumer):
    """Answers a ping through a group send, so the reply crosses the channel layer."""

    groups = (HEALTH_GROUP,)

    async def connect(self) -> None:
        await self.accept()
        user = self.scope["user"]
        await self.send_json(
            {"type": "hello", "user": user.get_username() if user.is_authenticated else None}
        )

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.channel_layer.group_send(HEALTH_GROUP, {"type": "health.pong"})
        else:
            await self.send_json({"type": "error", "error": "unknown message type"})

    async def health_pong(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})
