"""The site as an app a phone adds to its home screen: the web app manifest, the
service worker, and the page it shows when the network is gone.

The worker (``/sw.js``, served from the site's root so that its scope is the whole
site) keeps only the offline page and what that page needs (its style sheet and the
icon) in the browser's cache. A page load (a navigation) goes to the network, and only
when the network fails is it answered with the offline page; nothing else is touched:
no API answer, no socket, no table's page or state is ever cached, so a table is
always as the server has it now, or not shown at all.
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from runtime.icons import FELT

THEME_COLOUR = "#{:02x}{:02x}{:02x}".format(*FELT)
BACKGROUND_COLOUR = "#fafafa"
MANIFEST_TYPE = "application/manifest+json"
WORKER_TYPE = "text/javascript; charset=utf-8"


def _icons() -> list[dict[str, str]]:
    return [
        {"src": static("atu/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("atu/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("atu/icon-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("atu/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the reader's language."""
    data = {
        "id": "/",
        "name": _("Atu — Romanian Whist"),
        "short_name": "Atu",
        "description": _("Romanian Whist tables and championships, live in the browser."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": _icons(),
    }
    return JsonResponse(data, content_type=MANIFEST_TYPE, json_dumps_params={"ensure_ascii": False})


def offline_assets() -> list[str]:
    """What the worker keeps: the offline page and what it shows."""
    return [reverse("offline"), static("atu/site.css"), static("atu/icon.svg")]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, for the whole site. Its cache is named after what it keeps
    (hashed static names change with their files), so a new one replaces the old."""
    assets = offline_assets()
    version = hashlib.sha256("\n".join(assets).encode()).hexdigest()[:12]
    response = render(
        request,
        "atu/sw.js",
        {
            "assets": json.dumps(assets),
            "offline": json.dumps(reverse("offline")),
            "version": version,
        },
        content_type=WORKER_TYPE,
    )
    # Always asked again: a browser checks its worker for updates, never from a cache.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows when a page cannot be loaded for want of the network."""
    return render(request, "atu/offline.html")
