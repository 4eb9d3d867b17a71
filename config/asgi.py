"""ASGI entry point: Django for HTTP, Channels consumers for WebSockets, and the
lifespan hook that resumes automatic moves when a server process starts."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Set up Django before importing anything that imports models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from runtime.lifespan import lifespan  # noqa: E402
from runtime.origins import OriginValidator  # noqa: E402
from runtime.sockets import socket_auth_stack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "lifespan": lifespan,
        # Only the site's own pages, and the origins trusted for its forms, may open
        # a socket: it is signed in by the session cookie (runtime/origins.py).
        # The patterns' type: config/routing.py.
        "websocket": OriginValidator(
            socket_auth_stack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]
        ),
    }
)
