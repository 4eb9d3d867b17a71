"""The multi-node rehearsal's node-kill fault, small: three nodes in network
namespaces, a few tables of two players and two bots, one node killed during play
(python -m bench.nodes --fault node-kill). Nothing acknowledged is lost, nothing is
applied twice, every socket resumes exactly through the front, the dead node's
tables move on, and nothing of the rehearsal is left behind. About 40 s; up to two
minutes when a task the killed worker held waits out the broker's visibility timeout
(30 s), or a move whose next the dead server had not yet scheduled waits for beat's
minute."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from bench.nodes import PG_BIN, ROOT

needs_root_and_services = pytest.mark.skipif(
    os.geteuid() != 0
    or not (PG_BIN / "postgres").exists()
    or not all(shutil.which(tool) for tool in ("ip", "nsenter", "redis-server", "nginx", "psql")),
    reason="needs root (ip netns), PostgreSQL 15's binaries, redis-server and nginx",
)


def namespaces_and_links() -> str:
    return (
        subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        + subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    )


@needs_root_and_services
def test_a_node_killed_during_play_loses_nothing_and_its_tables_go_on_through_the_others() -> None:
    # Given the rehearsal of three nodes, 4 tables played through the front
    # When node 2 is killed after 4 s of play, and started again once its tables moved on
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.nodes",
            "--fault",
            "node-kill",
            "--tables",
            "4",
            "--before",
            "4",
            "--after",
            "3",
            "--think",
            "0.5",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )

    # Then the fault passed: every check of the log and of the sockets held
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "node-kill fault: passed" in done.stdout
    lost = re.search(r"(\d+) sockets lost", done.stdout)
    assert lost is not None and int(lost[1]) >= 3, done.stdout
    # And nothing named for the run is left: no namespace, no bridge, no veth
    tag = re.search(r"on bridge (atu-\d+)-br", done.stdout)
    assert tag is not None
    assert tag[1] not in namespaces_and_links()
