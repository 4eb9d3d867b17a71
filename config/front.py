"""The front: docker/nginx.conf filled in as a deployment fills it (the address it
listens on, its server processes, the largest body: ``ATU_MAX_REQUEST_BYTES``, as the
servers read it), then nginx run on it in the foreground.

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

from config.settings.environment import Limits, read_limits

BASE_DIR = Path(__file__).resolve().parents[1]
CONFIG = BASE_DIR / "docker" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
# The two places the shipped file leaves to the deployment.
SHIPPED_LISTEN = "listen 8000;"
SHIPPED_SERVERS = "server 127.0.0.1:8001;\n        server 127.0.0.1:8002;"
# The largest body, where nginx refuses it and where its answer says so.
SHIPPED_BODY_LIMIT = ("client_max_body_size {};", "the request body is over {} bytes")


def nginx_config(
    listen: str,
    upstreams: Sequence[str],
    *,
    max_request_bytes: int = Limits.max_request_bytes,
) -> str:
    """The shipped configuration listening on ``listen`` (host:port), in front of
    ``upstreams`` (host:port each), refusing bodies over ``max_request_bytes``."""
    text = CONFIG.read_text()
    shipped = [SHIPPED_LISTEN, SHIPPED_SERVERS] + [
        form.format(Limits.max_request_bytes) for form in SHIPPED_BODY_LIMIT
    ]
    if any(text.count(part) != 1 for part in shipped):
        raise ValueError(f"{CONFIG} no longer has one each of {shipped!r}")
    servers = "\n        ".join(f"server {address};" for address in upstreams)
    filled = [f"listen {listen};", servers] + [
        form.format(max_request_bytes) for form in SHIPPED_BODY_LIMIT
    ]
    for part, value in zip(shipped, filled, strict=True):
        text = text.replace(part, value)
    return text


def nginx_command(config: Path) -> list[str]:
    """nginx in the foreground on ``config``, its pid file and temporary files beside it."""
    return [NGINX, "-p", str(config.parent), "-c", str(config), "-g", "daemon off;"]


def main(arguments: Sequence[str]) -> None:
    if len(arguments) < 2:
        sys.exit("usage: python -m config.front LISTEN UPSTREAM... (each host:port)")
    listen, *upstreams = arguments
    config = BASE_DIR / "var" / "front" / "nginx.conf"
    config.parent.mkdir(parents=True, exist_ok=True)
    limits = read_limits(os.environ)
    config.write_text(nginx_config(listen, upstreams, max_request_bytes=limits.max_request_bytes))
    command = nginx_command(config)
    # nginx in this process's place: the process manager's signals reach it directly.
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
