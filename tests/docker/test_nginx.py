"""docker/nginx.conf in front of two real server processes: every socket of one game
reaches one process, and everything else is spread over both (production mode); and
the front's own errors under /api/ in the API's JSON shape, the pages' in HTML."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from config.front import NGINX, nginx_command, nginx_config
from tests.games.drivers import seated_game
from tests.games.live.test_two_processes import (
    STARTUP_SECONDS,
    TIMEOUT,
    free_port,
    production_only,
    receive,
    servers,
)

needs_nginx = pytest.mark.skipif(
    not Path(NGINX).exists(), reason="needs Debian's nginx (make test installs it)"
)


@contextmanager
def front(
    upstreams: list[str], directory: Path, *, edit: Callable[[str], str] = str
) -> Iterator[str]:
    """nginx with the shipped configuration (``edit``-ed) in front of ``upstreams``,
    once it listens; its host:port."""
    port = free_port()
    config = directory / "nginx.conf"
    config.write_text(edit(nginx_config(f"127.0.0.1:{port}", upstreams)))
    log = directory / "nginx.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            nginx_command(config),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(f"nginx exited:\n{log.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"nginx did not listen in {STARTUP_SECONDS} s:\n{log.read_text()}")
                time.sleep(0.1)
        yield address
    finally:
        process.terminate()
        process.wait(timeout=TIMEOUT)


def served_by(logs: list[Path], path: str) -> list[int]:
    """Which servers' access logs hold requests for ``path``, by number."""
    return [number for number, log in enumerate(logs) if path in log.read_text()]


@production_only
@pytest.mark.django_db(transaction=True)
@needs_nginx
def test_the_front_routes_every_socket_of_a_game_to_one_process_and_spreads_the_rest(
    tmp_path: Path,
) -> None:
    # Given 16 games, and the shipped front before two server processes
    games: list[uuid.UUID] = [seated_game(4, "championship")[0] for _ in range(16)]
    with servers(2, tmp_path) as upstreams, front(upstreams, tmp_path) as address:
        # When each game is opened by three sockets through the front, one of them a
        # client coming back with its last version
        for game_id in games:
            for query in ("", "", "?with_state=changes&after=1"):
                with connect(
                    f"ws://{address}/ws/games/{game_id}/{query}",
                    origin=Origin(f"http://{address}"),
                    open_timeout=TIMEOUT,
                ) as socket:
                    # The whole state, or what came after the client's version
                    assert receive(socket)["type"] == ("events" if query else "state")
        # And other requests come through it too
        for _ in range(24):
            with urllib.request.urlopen(f"http://{address}/healthz", timeout=TIMEOUT) as answer:
                assert answer.status == 200

    # Then every socket of a game reached one and the same process
    logs = [tmp_path / "server-0.log", tmp_path / "server-1.log"]
    placed = [served_by(logs, f"/ws/games/{game_id}/") for game_id in games]
    assert all(len(servers_of_game) == 1 for servers_of_game in placed), placed
    # And the games, and the other requests, were spread over both processes
    assert {servers_of_game[0] for servers_of_game in placed} == {0, 1}
    assert served_by(logs, "GET /healthz") == [0, 1]


# --- The front's own errors -----------------------------------------------------------


def fetch(url: str, body: bytes | None = None) -> tuple[int, str, str, bytes]:
    """Status, Content-Type, Retry-After ("" if none) and body of a request."""
    request = urllib.request.Request(url, data=body, method="POST" if body else "GET")
    if body:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.headers["Content-Type"], "", answer.read()
    except urllib.error.HTTPError as error:
        headers = error.headers
        return error.code, headers["Content-Type"], headers["Retry-After"] or "", error.read()


@contextmanager
def silent_upstream() -> Iterator[str]:
    """A server process that takes connections and never answers; its host:port."""
    listener = socket.create_server(("127.0.0.1", 0))
    taken: list[socket.socket] = []
    stop = threading.Event()

    def take() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            with suppress(TimeoutError):
                taken.append(listener.accept()[0])

    thread = threading.Thread(target=take)
    thread.start()
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for connection in [*taken, listener]:
            connection.close()


def api_error(status: int, code: str, message: str, retry_after: str = "") -> Any:
    return (status, "application/json", retry_after, {"code": code, "message": message})


def as_read(answer: tuple[int, str, str, bytes]) -> Any:
    status, content_type, retry_after, body = answer
    return (status, content_type, retry_after, json.loads(body))


@needs_nginx
def test_a_body_over_the_limit_is_refused_by_the_front_in_the_apis_json(tmp_path: Path) -> None:
    # Given the front, refusing bodies over 2000 bytes as the servers would
    with front(
        [f"127.0.0.1:{free_port()}"],
        tmp_path,
        edit=lambda text: text.replace("1048576", "2000"),
    ) as address:
        # When a body of 2001 bytes is sent to the API, and one of 2000
        too_large = fetch(f"http://{address}/api/auth/login/", b"x" * 2001)
        within = fetch(f"http://{address}/api/auth/login/", b"x" * 2000)

    # Then the first is refused at the front, in the API's shape; the second went on
    assert as_read(too_large) == api_error(
        413, "request_too_large", "the request body is over 2000 bytes"
    )
    assert within[0] == 502


def test_the_front_refuses_bodies_over_the_servers_limit_with_the_servers_message() -> None:
    text = nginx_config("127.0.0.1:1", ["127.0.0.1:2"], max_request_bytes=4096)

    assert "client_max_body_size 4096;" in text
    assert '"message": "the request body is over 4096 bytes"' in text
    assert "1048576" not in text


@needs_nginx
def test_no_server_answering_is_502_in_json_under_the_api_and_a_page_elsewhere(
    tmp_path: Path,
) -> None:
    # Given the front before a server process that is not running
    with front([f"127.0.0.1:{free_port()}"], tmp_path) as address:
        # When the API and a page are asked for
        api = fetch(f"http://{address}/api/games/")
        page = fetch(f"http://{address}/games/")

    # Then the API's answer is its JSON, with when to try again; the page's is HTML
    assert as_read(api) == api_error(
        502, "server_unavailable", "no server process answered; try again shortly", "5"
    )
    assert page[:2] == (502, "text/html")
    assert b"<html>" in page[3]


@needs_nginx
def test_a_front_that_sheds_load_answers_503_in_json_under_the_api(tmp_path: Path) -> None:
    # Given a front that sheds load (a request a minute; nginx answers 503 past it)
    def shed(text: str) -> str:
        zone = "limit_req_zone $binary_remote_addr zone=test:1m rate=1r/m;\n    "
        text = text.replace("    upstream atu {", f"    {zone}upstream atu {{", 1)
        return text.replace("location /api/ {", "location /api/ {\n limit_req zone=test;", 1)

    with front([f"127.0.0.1:{free_port()}"], tmp_path, edit=shed) as address:
        # When a second request comes within the minute
        fetch(f"http://{address}/api/games/")
        shed_answer = fetch(f"http://{address}/api/games/")

    # Then it is a 503 in the API's shape
    assert as_read(shed_answer) == api_error(
        503, "server_unavailable", "the site is busy; try again shortly", "5"
    )


@needs_nginx
def test_a_server_that_does_not_answer_in_time_is_504_in_json_under_the_api(
    tmp_path: Path,
) -> None:
    # Given the front before a server that never answers, waiting a second, not 60
    def hurry(text: str) -> str:
        assert text.count("proxy_read_timeout 60s;") == 1
        return text.replace("proxy_read_timeout 60s;", "proxy_read_timeout 1s;")

    with silent_upstream() as upstream, front([upstream], tmp_path, edit=hurry) as address:
        # When the API is asked for
        api = fetch(f"http://{address}/api/games/")

    # Then the front answers 504 in the API's shape
    assert as_read(api) == api_error(
        504,
        "server_timeout",
        "the server did not answer in time; "
        "read the resource again before sending the request again",
    )


# --- Behind the front: the servers' own answers, and each client's sockets -------------


def health_socket(address: str, client: str) -> ClientConnection:
    """A health socket to ``address`` for a client at ``client``, as the front forwards
    it (uvicorn trusts X-Forwarded-For from this machine, as from the front)."""
    return connect(
        f"ws://{address}/ws/health/",
        origin=Origin(f"http://{address}"),
        additional_headers={"X-Forwarded-For": client},
        open_timeout=TIMEOUT,
    )


def closing(socket: ClientConnection) -> tuple[dict[str, Any], int]:
    """The last message of a socket the server closes, and its close code."""
    message = receive(socket)
    with pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None
    return message, closed.value.rcvd.code


def ping(socket: ClientConnection) -> str:
    socket.send('{"type": "ping"}')
    answer = receive(socket)
    return str(answer.get("code", answer["type"]))


@production_only
@pytest.mark.django_db(transaction=True)
@needs_nginx
def test_behind_the_front_the_servers_own_api_errors_pass_as_they_are(tmp_path: Path) -> None:
    with servers(1, tmp_path) as upstreams, front(upstreams, tmp_path) as address:
        missing = fetch(f"http://{address}/api/no-such-thing/")
        too_large = fetch(f"http://{address}/api/auth/login/", b"x" * 2_000_000)

    assert as_read(missing) == api_error(
        404, "not_found", "there is no /api/no-such-thing/ in the API"
    )
    assert as_read(too_large) == api_error(
        413, "request_too_large", "the request body is over 1048576 bytes"
    )


@production_only
@pytest.mark.django_db(transaction=True)
@needs_nginx
def test_a_clients_sockets_are_capped_and_its_budget_kept_across_server_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given two server processes behind the front, 3 sockets an address, 3 messages a minute
    monkeypatch.setenv("ATU_SOCKETS_PER_ADDRESS", "3")
    monkeypatch.setenv("ATU_SOCKET_RATE", "3/min")
    with (
        servers(2, tmp_path) as (first, second),
        front([first, second], tmp_path) as address,
        ExitStack() as held,
    ):
        # When a client opens 3 sockets through the front, on either process, then a 4th
        opened = [held.enter_context(health_socket(address, "198.51.100.9")) for _ in range(3)]
        hellos = [receive(socket) for socket in opened]
        with health_socket(address, "198.51.100.9") as fourth:
            refused = closing(fourth)
        with health_socket(address, "198.51.100.10") as elsewhere:
            other_address = receive(elsewhere)
        # And a client floods one process, is closed, and comes back at once on the other
        with health_socket(first, "198.51.100.11") as flooding:
            receive(flooding)
            spent = [ping(flooding) for _ in range(3)]
            flooding.send('{"type": "ping"}')
            flooded = closing(flooding)
        with health_socket(second, "198.51.100.11") as again:
            receive(again)
            again.send('{"type": "ping"}')
            back = closing(again)

    # Then the 4th socket was refused, another address's was not
    assert hellos == [{"type": "hello", "user": None}] * 3
    assert refused == (
        {
            "type": "error",
            "code": "too_many_sockets",
            "message": "this address has 3 sockets open already",
        },
        4430,
    )
    assert other_address == {"type": "hello", "user": None}
    # And the budget spent on the first process was spent on the second too
    too_many = {
        "type": "error",
        "code": "too_many_messages",
        "message": "more than 3 messages in a burst; slow down",
    }
    assert spent == ["pong"] * 3
    assert flooded == (too_many, 4429)
    assert back == (too_many, 4429)
