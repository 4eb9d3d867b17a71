from typing import Any

import pytest

from config.asgi import application


@pytest.mark.django_db(transaction=True)
async def test_a_server_process_starts_and_stops_through_the_lifespan_protocol() -> None:
    messages = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await application({"type": "lifespan"}, receive, send)

    assert sent == [{"type": "lifespan.startup.complete"}, {"type": "lifespan.shutdown.complete"}]
