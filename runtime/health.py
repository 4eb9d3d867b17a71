"""Health over HTTP for the front and the orchestrator (docs/deployment.md): /healthz
says the process lives, /readyz whether what it needs answers; and a WebSocket ping
that crosses the channel layer."""

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import redis
from asgiref.sync import sync_to_async
from celery import current_app as celery_app
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from runtime.limits import BudgetedJsonConsumer

HEALTH_GROUP = "health"
# Each dependency gets this long to answer: a probe must answer sooner than it gives up.
CHECK_SECONDS = 2.0
logger = logging.getLogger("atu.health")


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """The process serves requests; nothing else is asked (a restart would not help
    a database that is down)."""
    return JsonResponse({"status": "ok"})


@require_GET
async def readyz(request: HttpRequest) -> JsonResponse:
    """200 when the database, Redis and a Celery worker all answer, else 503; each
    check's result by name either way."""
    names = ("database", "redis", "celery")
    results = await asyncio.gather(*(_bounded(name, CHECKS[name]) for name in names))
    checks = dict(zip(names, results, strict=True))
    ready = all(result in {"ok", "embedded", "eager"} for result in results)
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )


async def _bounded(name: str, check: Callable[[], str]) -> str:
    # Its own thread, not the one the request's database work shares: a check that
    # hangs must not hold up the others, nor the next request.
    try:
        return await asyncio.wait_for(
            sync_to_async(check, thread_sensitive=False)(), timeout=CHECK_SECONDS
        )
    except TimeoutError:
        logger.warning("readiness check %s took over %s s", name, CHECK_SECONDS)
        return "timeout"
    except Exception:
        logger.warning("readiness check %s failed", name, exc_info=True)
        return "unavailable"


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        # This thread's connection: no request's end will close it.
        connection.close()
    return "ok"


def _redis() -> str:
    if settings.ENV.redis_url is None:
        return "embedded"
    client = redis.Redis.from_url(
        settings.ENV.redis_url, socket_timeout=CHECK_SECONDS, socket_connect_timeout=CHECK_SECONDS
    )
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def _celery() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    with celery_app.connection_for_write() as broker:
        # Once: kombu would otherwise retry a broker that refuses, for ever.
        # celery-types has kombu's timeout an int; kombu takes seconds, a float as well.
        broker.ensure_connection(max_retries=0, timeout=CHECK_SECONDS)  # type: ignore[arg-type]
        replies = celery_app.control.ping(timeout=CHECK_SECONDS / 2, limit=1, connection=broker)
    return "ok" if replies else "unavailable"


CHECKS: dict[str, Callable[[], str]] = {"database": _database, "redis": _redis, "celery": _celery}


class HealthConsumer(BudgetedJsonConsumer):
    """Answers a ping through a group send, so the reply crosses the channel layer."""

    groups = [HEALTH_GROUP]

    async def connect(self) -> None:
        await self.accept()
        user = self.scope["user"]
        name = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json({"type": "hello", "user": name})

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.channel_layer.group_send(HEALTH_GROUP, {"type": "health.pong"})
        else:
            await self.send_json({"type": "error", "error": "unknown message type"})

    async def health_pong(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})
