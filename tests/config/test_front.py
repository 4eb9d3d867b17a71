"""The front keeps nginx to the server processes that say they are ready: a server
whose /readyz fails is left out of nginx's list, and put back once it answers again
(python -m config.front, with Debian's nginx, before two upstreams whose answers the
test sets)."""

from __future__ import annotations

import http.server
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from config.front import BASE_DIR, NGINX, STEADY, Readiness, probe_host
from tests.games.live.test_two_processes import STARTUP_SECONDS, TIMEOUT, free_port

needs_nginx = pytest.mark.skipif(
    not Path(NGINX).exists(), reason="needs Debian's nginx (make test installs it)"
)


def test_a_server_leaves_the_list_after_failing_twice_in_a_row_and_comes_back_likewise() -> None:
    # Given two servers, both listed
    readiness = Readiness(["a:1", "b:1"])

    # When b fails once, then answers, then fails twice
    once = readiness.heard({"a:1": True, "b:1": False})
    listed_after_once = readiness.listed()
    readiness.heard({"a:1": True, "b:1": True})
    readiness.heard({"a:1": True, "b:1": False})
    twice = readiness.heard({"a:1": True, "b:1": False})

    # Then one failure changed nothing, two in a row took b out
    assert (once, listed_after_once) == (False, ["a:1", "b:1"])
    assert (twice, readiness.listed()) == (True, ["a:1"])
    # And b comes back after answering as many times
    assert [readiness.heard({"a:1": True, "b:1": True}) for _ in range(STEADY)] == [False, True]
    assert readiness.listed() == ["a:1", "b:1"]


def test_with_no_server_ready_the_front_keeps_sending_to_all_of_them() -> None:
    readiness = Readiness(["a:1", "b:1"])

    for _ in range(STEADY):
        readiness.heard({"a:1": False, "b:1": False})

    assert readiness.listed() == ["a:1", "b:1"]


def test_the_probe_names_the_first_allowed_host() -> None:
    assert probe_host("atu.example, www.atu.example") == "atu.example"
    assert probe_host(".atu.example") == "atu.example"
    assert probe_host("*") == "localhost"
    assert probe_host("") == "localhost"


class Upstream(http.server.ThreadingHTTPServer):
    """A server process's stand-in: /readyz answers 200 or 503 as the test says, and
    every other path its own name."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.is_ready = True

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(handler) -> None:
                if handler.path == "/readyz":
                    status, body = (200, b"ok") if self.is_ready else (503, b"unavailable")
                else:
                    status, body = 200, self.name.encode()
                handler.send_response(status)
                handler.send_header("Content-Length", str(len(body)))
                handler.end_headers()
                handler.wfile.write(body)

            def log_message(handler, *args: object) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.server_address[1]}"


@contextmanager
def upstreams(*names: str) -> Iterator[list[Upstream]]:
    servers = [Upstream(name) for name in names]
    threads = [threading.Thread(target=server.serve_forever) for server in servers]
    for thread in threads:
        thread.start()
    try:
        yield servers
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def answered_by(address: str, paths: int = 24) -> set[str]:
    """Which upstreams answered ``paths`` different paths through the front."""
    names = set()
    for number in range(paths):
        with urllib.request.urlopen(f"http://{address}/page-{number}", timeout=TIMEOUT) as answer:
            names.add(answer.read().decode())
    return names


def eventually(condition: object, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


@needs_nginx
def test_the_front_stops_sending_to_a_server_whose_readiness_fails_and_resumes_when_it_answers(
    tmp_path: Path,
) -> None:
    # Given the front (python -m config.front) before two servers, both ready
    with upstreams("a", "b") as (a, b):
        port = free_port()
        address = f"127.0.0.1:{port}"
        log = tmp_path / "front.log"
        with log.open("wb") as output:
            front = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "config.front",
                    "--directory",
                    str(tmp_path / "front"),
                    address,
                    a.address,
                    b.address,
                ],
                cwd=BASE_DIR,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        try:
            assert eventually(lambda: _answers(address), STARTUP_SECONDS), log.read_text()
            assert answered_by(address) == {"a", "b"}

            # When b's readiness fails (its process still answers everything else)
            b.is_ready = False
            # Then the front sends everything to a
            assert eventually(lambda: answered_by(address) == {"a"}), log.read_text()

            # When b is ready again
            b.is_ready = True
            # Then the front sends to both again
            assert eventually(lambda: answered_by(address) == {"a", "b"}), log.read_text()
        finally:
            front.terminate()
            # Then its nginx stops with it
            assert front.wait(timeout=TIMEOUT) == 0
        assert not _answers(address)
        assert f"not ready: ['{b.address}']" in log.read_text()


def _answers(address: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://{address}/x", timeout=1) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False
