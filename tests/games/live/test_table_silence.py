"""The table page notices a dead link, in a real browser: a socket that goes silent
(a phone that slept, a proxy that dropped it without a close) is pinged, then given up
and opened again, resuming after the version the page holds (runtime/static/atu/silence.js).

The page's clock is Playwright's, moved on by hand: the 20 s and 8 s of silence pass
at once. The socket goes through a route that can stop handing the server's messages on.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import WebSocketRoute, expect

from games.models import Game
from tests.browser import chromium, live_server
from tests.games.drivers import seated_game

pytestmark = pytest.mark.django_db(transaction=True)


async def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not reached in 10 s: {what}")


@sync_to_async
def a_started_table() -> tuple[str, int]:
    game_id, _ = seated_game(4, "championship")
    game = Game.objects.get(pk=game_id)
    return game.code, game.version


async def test_a_silent_socket_is_pinged_then_opened_again_after_the_pages_version() -> None:
    code, version = await a_started_table()
    opened: list[str] = []
    sent: list[dict[str, object]] = []
    # The first socket's link goes silent (the server's messages dropped) once set.
    silent = False

    def route(page_side: WebSocketRoute) -> None:
        first = not opened
        opened.append(page_side.url)
        server_side = page_side.connect_to_server()

        def to_server(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server_side.send(message)

        def to_page(message: str | bytes) -> None:
            if not (first and silent):
                page_side.send(message)

        page_side.on_message(to_server)
        server_side.on_message(to_page)

    with live_server() as base:
        async with chromium() as browser:
            page = await browser.new_page()
            await page.clock.install()
            await page.route_web_socket("**/ws/games/**", route)
            await page.goto(f"{base}/games/{code}/")
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")
            await expect(page.locator("#connection")).to_have_text("")

            # The link goes silent: 20 s later the page asks whether it lives.
            silent = True
            await page.clock.run_for(21_000)
            await until(lambda: bool(sent), "a ping")
            assert sent == [{"type": "ping"}]
            assert len(opened) == 1

            # No answer 8 s more: given up, and opened again after the page's version.
            await page.clock.run_for(8_000)
            await until(lambda: len(opened) == 2, "the socket opened again")
            assert opened[1].endswith(f"?with_state=changes&after={version}")
            await expect(page.locator("#connection")).to_have_text("")
            await page.close()
