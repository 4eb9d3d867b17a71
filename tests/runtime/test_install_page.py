"""The installable site in a real browser, at a phone's size and a laptop's: a page
links the manifest and registers the service worker, which then answers a page load
without the network with the offline page, and serves the live state only from the
network; all of it under the site's content security policy."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser import chromium, live_server

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = [(360, 740), (1366, 768)]


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_worker_shows_the_offline_page_when_the_network_is_gone(
    size: tuple[int, int],
) -> None:
    errors: list[str] = []
    refused: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            width, height = size
            context = await browser.new_context(viewport={"width": width, "height": height})
            page = await context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on(
                "console",
                lambda message: (
                    refused.append(message.text)
                    if "Content Security Policy" in message.text
                    else None
                ),
            )

            # Given a visitor on the site: its manifest linked, its worker active
            await page.goto(f"{base}/rules/")
            manifest = await page.evaluate(
                "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
            )
            assert (manifest["short_name"], manifest["display"]) == ("Atu", "standalone")
            worker = await page.evaluate(
                "navigator.serviceWorker.ready.then((ready) => ready.active.scriptURL)"
            )
            assert worker == f"{base}/sw.js"
            # It answers from the next page load on.
            await page.reload()
            assert await page.evaluate("navigator.serviceWorker.controller !== null")

            # When the network is gone and they open a table
            await context.set_offline(True)
            await page.goto(f"{base}/games/ABCDEF/")

            # Then the worker answers with the offline page, in place of the table
            await expect(page.locator("h1")).to_have_text("You are offline")
            await expect(page).to_have_url(f"{base}/games/ABCDEF/")
            # And the live state is never answered from a cache
            fetched = await page.evaluate(
                "fetch('/api/games/').then(() => 'answered', () => 'failed')"
            )
            assert fetched == "failed"

            # When the network is back, the page loads as it is
            await context.set_offline(False)
            await page.goto(f"{base}/rules/")
            await expect(page.locator("h1")).not_to_have_text("You are offline")
            await context.close()
    assert errors == []
    # Under the site's content security policy, as every page is
    assert refused == []
