"""The ASGI lifespan of a server process: on startup it resumes the automatic moves
(bot seats, turn timers) that a restart would otherwise leave waiting."""

import logging
from typing import Any

from asgiref.sync import sync_to_async

logger = logging.getLogger("atu.lifespan")


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    from games.turns import resume_automatic_moves

    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                resumed = await sync_to_async(resume_automatic_moves)()
                logger.info("resumed automatic moves in %d games", resumed)
            except Exception:
                # A server that cannot resume bots (say, before migrating) still serves.
                logger.exception("could not resume automatic moves")
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
