"""docker/nginx.conf filled in as a deployment fills it: its port and its server
processes (used by bench/live.py --front nginx and by the front's test)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[1] / "docker" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
# The two places the shipped file leaves to the deployment.
SHIPPED_LISTEN = "listen 8000;"
SHIPPED_SERVERS = "server 127.0.0.1:8001;\n        server 127.0.0.1:8002;"


def nginx_config(port: int, upstreams: Sequence[str]) -> str:
    """The shipped configuration listening on ``port`` of 127.0.0.1, in front of
    ``upstreams`` (host:port each)."""
    text = CONFIG.read_text()
    if text.count(SHIPPED_LISTEN) != 1 or text.count(SHIPPED_SERVERS) != 1:
        raise ValueError(f"{CONFIG} no longer has one {SHIPPED_LISTEN!r} and one server list")
    servers = "\n        ".join(f"server {address};" for address in upstreams)
    return text.replace(SHIPPED_LISTEN, f"listen 127.0.0.1:{port};").replace(
        SHIPPED_SERVERS, servers
    )


def nginx_command(config: Path) -> list[str]:
    """nginx in the foreground on ``config``, its pid file and temporary files beside it."""
    return [NGINX, "-p", str(config.parent), "-c", str(config), "-g", "daemon off;"]
