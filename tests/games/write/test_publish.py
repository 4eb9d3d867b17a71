"""A game's broadcast (games.write.path.publish), as the outbox keeps it waiting."""

from games.write import path as writepath


def test_a_broadcast_that_replaces_a_waiting_one_keeps_its_records_when_they_follow_on() -> None:
    waiting = {"type": "game.events", "version": 14, "records": [[13, "BidPlaced"], [14, "X"]]}
    newer = {"type": "game.events", "version": 15, "records": [[15, "CardPlayed"]]}
    later = {"type": "game.events", "version": 17, "records": [[17, "CardPlayed"]]}

    assert writepath._merged(waiting, newer) == {
        "type": "game.events",
        "version": 15,
        "records": [[13, "BidPlaced"], [14, "X"], [15, "CardPlayed"]],
    }
    # A gap between them (a version published elsewhere): the socket reads the log.
    assert writepath._merged(waiting, later) == later
