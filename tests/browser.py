"""A real server and a real browser for the page tests.

The server is uvicorn serving the ASGI application in a thread of the test process,
so it shares the test's database and channel layer (in-memory when embedded, Redis in
production mode). The browser is Debian's chromium, driven by Playwright; `make test`
installs it.
"""

from __future__ import annotations

import json
import shutil
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from playwright.async_api import Browser, Page, WebSocket, async_playwright

from config.settings.environment import BASE_DIR

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = BASE_DIR / "test-artifacts"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--no-first-run",
]
STARTUP_SECONDS = 30


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def live_server() -> Iterator[str]:
    """The platform served on a free port; its base URL."""
    from config.asgi import application

    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(application, host="127.0.0.1", port=port, lifespan="on", log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(STARTUP_SECONDS * 20):
        if server.started:
            break
        if not thread.is_alive():
            raise RuntimeError("the server thread died while starting")
        threading.Event().wait(0.05)
    else:
        raise RuntimeError(f"the server did not start in {STARTUP_SECONDS} s")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    if shutil.which(CHROMIUM) is None:
        raise RuntimeError(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class Frames:
    """Every WebSocket message a page received, decoded."""

    received: list[dict[str, Any]] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        def on_socket(socket: WebSocket) -> None:
            socket.on("framereceived", lambda payload: self.received.append(json.loads(payload)))

        page.on("websocket", on_socket)


def screenshot_path(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name
