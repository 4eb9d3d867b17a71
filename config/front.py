"""The front: docker/nginx.conf filled in as a deployment fills it (the address it
listens on, its server processes), then nginx run on it in the foreground.

`make serve` runs it as the Procfile's ``front``; bench.live --front nginx and the
front's tests fill the file in the same way::

    python -m config.front 127.0.0.1:8000 127.0.0.1:8001 127.0.0.1:8002
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
CONFIG = BASE_DIR / "docker" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
# The two places the shipped file leaves to the deployment.
SHIPPED_LISTEN = "listen 8000;"
SHIPPED_SERVERS = "server 127.0.0.1:8001;\n        server 127.0.0.1:8002;"


def nginx_config(listen: str, upstreams: Sequence[str]) -> str:
    """The shipped configuration listening on ``listen`` (host:port), in front of
    ``upstreams`` (host:port each)."""
    text = CONFIG.read_text()
    if text.count(SHIPPED_LISTEN) != 1 or text.count(SHIPPED_SERVERS) != 1:
        raise ValueError(f"{CONFIG} no longer has one {SHIPPED_LISTEN!r} and one server list")
    servers = "\n        ".join(f"server {address};" for address in upstreams)
    return text.replace(SHIPPED_LISTEN, f"listen {listen};").replace(SHIPPED_SERVERS, servers)


def nginx_command(config: Path) -> list[str]:
    """nginx in the foreground on ``config``, its pid file and temporary files beside it."""
    return [NGINX, "-p", str(config.parent), "-c", str(config), "-g", "daemon off;"]


def main(arguments: Sequence[str]) -> None:
    if len(arguments) < 2:
        sys.exit("usage: python -m config.front LISTEN UPSTREAM... (each host:port)")
    listen, *upstreams = arguments
    config = BASE_DIR / "var" / "front" / "nginx.conf"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(nginx_config(listen, upstreams))
    command = nginx_command(config)
    # nginx in this process's place: the process manager's signals reach it directly.
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
