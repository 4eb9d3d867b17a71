"""The front: docker/nginx.conf filled in as a deployment fills it (the address it
listens on, its server processes, the largest body: ``ATU_MAX_REQUEST_BYTES``, as the
servers read it), then nginx run on it, kept to the processes that are ready.

`make serve` runs it as the Procfile's ``front``; bench.live --front nginx, bench.nodes
and the front's tests fill the file in the same way::

    python -m config.front 127.0.0.1:8000 127.0.0.1:8001 127.0.0.1:8002

nginx (the open-source one) asks nothing of its servers: it only stops sending to one
that refused a connection, for a while, and then tries it again. So this process asks
each server's ``/readyz`` every ``PROBE_SECONDS`` and lists in the file only those that
answered 200 ``STEADY`` times in a row (all of them while none does: nginx needs a
server, and a request that fails says more than one that is not sent), reloading nginx
when the list changes. A game's sockets are routed by a consistent hash, so a server
taken out moves only its own games, and one put back takes back only those
(decision 3701).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from config.settings.environment import DEFAULT_ALLOWED_HOSTS, Limits, read_limits

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


# How often each server's readiness is asked, how long it has to answer (its own
# checks take up to 2 s each, runtime.health), and how many answers in a row move it
# out of the list or back in: one slow answer must not move a server's games. An
# answer costs its server about 10 ms of CPU (mostly the Celery ping), which every
# server pays every PROBE_SECONDS; nginx's own passive check covers the seconds
# between two probes.
PROBE_SECONDS = 2.0
PROBE_TIMEOUT = 3.0
STEADY = 2


def probe_host(allowed_hosts: str) -> str:
    """The Host a readiness probe names: the first of ``ALLOWED_HOSTS`` (a server answers
    400 to any other), as a client would name it."""
    first = next((host.strip() for host in allowed_hosts.split(",") if host.strip()), "*")
    return "localhost" if first == "*" else first.lstrip(".")


def ready(upstream: str, host: str, timeout: float = PROBE_TIMEOUT) -> bool:
    """Whether the server at ``upstream`` (host:port) answers 200 on /readyz."""
    request = urllib.request.Request(f"http://{upstream}/readyz", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return bool(answer.status == 200)
    except (OSError, urllib.error.URLError):
        # Refused, timed out, or a 503 (an HTTPError, itself an OSError).
        return False


class Readiness:
    """Which of the servers the front sends to: those that answered ready ``STEADY``
    times in a row, until they fail as many times; all of them while none is."""

    def __init__(self, upstreams: Sequence[str]) -> None:
        self.upstreams = list(upstreams)
        self.ready = set(upstreams)
        # Answers in a row that disagree with a server's standing.
        self.against = dict.fromkeys(upstreams, 0)

    def heard(self, answers: dict[str, bool]) -> bool:
        """Take one round of answers; whether the list of servers changed."""
        before = self.listed()
        for upstream, answer in answers.items():
            if answer == (upstream in self.ready):
                self.against[upstream] = 0
                continue
            self.against[upstream] += 1
            if self.against[upstream] >= STEADY:
                self.against[upstream] = 0
                self.ready.symmetric_difference_update({upstream})
        return self.listed() != before

    def listed(self) -> list[str]:
        return [u for u in self.upstreams if u in self.ready] or list(self.upstreams)


def serve(
    listen: str,
    upstreams: Sequence[str],
    config: Path,
    *,
    max_request_bytes: int,
    host: str,
    probe: Callable[[str, str], bool] = ready,
    probe_seconds: float = PROBE_SECONDS,
) -> int:
    """Run nginx on ``config`` in front of ``upstreams``, rewriting the file to those
    ready and reloading nginx as they change, until nginx exits (this process's
    TERM, INT and QUIT are passed on to it); nginx's exit status."""

    def write(listed: Sequence[str]) -> None:
        config.write_text(nginx_config(listen, listed, max_request_bytes=max_request_bytes))

    readiness = Readiness(upstreams)
    write(readiness.listed())
    nginx = subprocess.Popen(nginx_command(config))
    stopping = threading.Event()

    def pass_on(number: int, frame: object) -> None:
        stopping.set()
        nginx.send_signal(number)

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        signal.signal(number, pass_on)
    with ThreadPoolExecutor(max_workers=min(32, len(upstreams))) as pool:
        while nginx.poll() is None and not stopping.wait(probe_seconds):
            answers = dict(
                zip(upstreams, pool.map(lambda u: probe(u, host), upstreams), strict=True)
            )
            if readiness.heard(answers) and nginx.poll() is None and not stopping.is_set():
                listed = readiness.listed()
                left = sorted(set(upstreams) - set(listed))
                print(f"front: sending to {' '.join(listed)}; not ready: {left}", flush=True)
                write(listed)
                nginx.send_signal(signal.SIGHUP)
    return nginx.wait()


def main(arguments: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m config.front")
    parser.add_argument(
        "--directory",
        type=Path,
        default=BASE_DIR / "var" / "front",
        help="where nginx's file, pid and temporary files go (one per front)",
    )
    parser.add_argument("listen", help="host:port")
    parser.add_argument("upstreams", nargs="+", metavar="upstream", help="host:port")
    parsed = parser.parse_args(arguments)
    listen, upstreams = parsed.listen, parsed.upstreams
    config = parsed.directory / "nginx.conf"
    config.parent.mkdir(parents=True, exist_ok=True)
    limits = read_limits(os.environ)
    host = probe_host(os.environ.get("ALLOWED_HOSTS", DEFAULT_ALLOWED_HOSTS))
    sys.exit(
        serve(listen, upstreams, config, max_request_bytes=limits.max_request_bytes, host=host)
    )


if __name__ == "__main__":
    main(sys.argv[1:])
