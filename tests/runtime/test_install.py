"""The installable site over HTTP: the web app manifest, the service worker served
from the root with what it keeps, the offline page, and the icons they name."""

from __future__ import annotations

import json
import struct

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client

from runtime import icons

pytestmark = pytest.mark.django_db

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_the_manifest_names_the_app_its_icons_and_colours_in_the_readers_language() -> None:
    english = Client().get("/manifest.webmanifest")
    romanian = Client().get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="ro")

    assert english.status_code == 200
    assert english["Content-Type"] == "application/manifest+json"
    manifest = json.loads(english.content)
    assert {key: manifest[key] for key in ("short_name", "start_url", "scope", "display")} == {
        "short_name": "Atu",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
    }
    assert (manifest["theme_color"], manifest["background_color"]) == ("#1f5e3a", "#fafafa")
    assert [(icon["src"], icon["sizes"], icon.get("purpose")) for icon in manifest["icons"]] == [
        (static("atu/icon-192.png"), "192x192", None),
        (static("atu/icon-512.png"), "512x512", None),
        (static("atu/icon-512.png"), "512x512", "maskable"),
        (static("atu/icon.svg"), "any", None),
    ]
    assert manifest["name"] == "Atu — Romanian Whist"
    assert json.loads(romanian.content)["lang"] == "ro"


def test_the_service_worker_is_served_from_the_root_and_keeps_only_the_offline_page() -> None:
    response = Client().get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    kept = json.dumps(["/offline/", static("atu/site.css"), static("atu/icon.svg")])
    assert f"const KEPT = {kept};" in script
    assert 'const OFFLINE = "/offline/";' in script
    # The API and the sockets are left to the network, and nothing else is ever put
    # in the cache but what it keeps at install.
    assert 'url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")' in script
    assert script.count("cache.addAll(") == 1
    assert ".put(" not in script


def test_every_page_links_the_manifest_and_registers_the_worker() -> None:
    page = Client().get("/rules/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert f'<script src="{static("atu/install.js")}" data-worker="/sw.js" defer></script>' in page
    assert '<meta name="theme-color" content="#1f5e3a">' in page


def test_the_offline_page_says_so_in_the_readers_language_with_no_form() -> None:
    response = Client().get("/offline/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>You are offline</h1>" in page
    assert "<form" not in page
    assert Client().post("/offline/").status_code == 405


def test_the_icons_are_the_drawing_at_their_sizes() -> None:
    svg = finders.find("atu/icon.svg")
    assert svg is not None
    with open(svg) as drawn:
        assert drawn.read() == icons.svg()
    for pixels in (192, 512):
        found = finders.find(f"atu/icon-{pixels}.png")
        assert found is not None
        with open(found, "rb") as image:
            data = image.read()
        assert data[:8] == PNG_SIGNATURE
        width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
        assert (width, height, depth, colour) == (pixels, pixels, 8, 6)
