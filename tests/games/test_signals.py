"""Which moves the receivers of a recorded game hear of."""

from __future__ import annotations

import uuid
from typing import Any

from games.signals import GameRecorded

IN_AN_EVENT = uuid.UUID("6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5")
IN_NO_EVENT = uuid.UUID("0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d")
NEVER_READ = uuid.UUID("9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a")


def nothing(**kwargs: Any) -> None:
    """A receiver that does nothing."""


def standings(signal: GameRecorded) -> list[uuid.UUID]:
    """A receiver of scored hands that reads, once per game, which event it is in (None
    for none), as the championships' does; the games it read."""
    read: list[uuid.UUID] = []

    def event_of(game_id: uuid.UUID) -> str | None:
        read.append(game_id)
        return "event" if game_id == IN_AN_EVENT else None

    signal.listen(nothing, types=["HandScored"], dispatch_uid="standings", prepare=event_of)
    return read


def test_a_move_is_wanted_only_for_the_types_some_receiver_acts_on() -> None:
    # Given a receiver of scored hands and one of finished games
    signal = GameRecorded()
    signal.listen(nothing, types=["HandScored"], dispatch_uid="standings")
    signal.listen(nothing, types=["GameFinished"], dispatch_uid="demo")

    # Then a card played is sent to none, a hand scored or a game finished is
    assert signal.wanted(["CardPlayed"], IN_NO_EVENT) is False
    assert signal.wanted(["CardPlayed", "TrickTaken", "HandScored"], IN_NO_EVENT) is True
    assert signal.wanted(["GameFinished"]) is True
    assert signal.types == frozenset({"HandScored", "GameFinished"})


def test_a_receiver_whose_read_found_nothing_to_do_for_a_game_is_not_sent_its_moves() -> None:
    # Given a receiver of scored hands whose read ran for a game in an event and for
    # one in none
    signal = GameRecorded()
    read = standings(signal)
    signal.prepare(IN_AN_EVENT)
    signal.prepare(IN_NO_EVENT)

    # Then a hand scored in no event is sent to no receiver, by its id or its text
    assert read == [IN_AN_EVENT, IN_NO_EVENT]
    assert signal.wanted(["HandScored"], IN_NO_EVENT) is False
    assert signal.wanted(["HandScored"], str(IN_NO_EVENT)) is False
    # And one in an event, one of a game whose read never ran here, or one sent without
    # its game, is
    assert signal.wanted(["HandScored"], IN_AN_EVENT) is True
    assert signal.wanted(["HandScored"], NEVER_READ) is True
    assert signal.wanted(["HandScored"]) is True


def test_another_receiver_of_the_same_types_is_still_sent_the_moves() -> None:
    # Given the standings' receiver, which has nothing to do for a game, and another
    # receiver of scored hands that reads nothing first
    signal = GameRecorded()
    standings(signal)
    signal.listen(nothing, types=["HandScored"], dispatch_uid="other")
    signal.prepare(IN_NO_EVENT)

    # Then the game's scored hands are still sent
    assert signal.wanted(["HandScored"], IN_NO_EVENT) is True


def test_a_disconnected_receiver_is_neither_sent_moves_nor_read_for() -> None:
    # Given the standings' receiver, disconnected
    signal = GameRecorded()
    read = standings(signal)
    signal.disconnect(dispatch_uid="standings")

    # When a game is prepared
    signal.prepare(IN_AN_EVENT)

    # Then its read did not run, and no move is sent
    assert read == []
    assert signal.wanted(["HandScored"], IN_AN_EVENT) is False
    assert signal.types == frozenset()


def test_only_the_latest_games_answers_are_kept() -> None:
    # Given a signal that keeps the answers of two games
    signal = GameRecorded()
    signal.KEPT = 2
    standings(signal)

    # When three games in no event are prepared, the first again after the second
    signal.prepare(IN_NO_EVENT)
    signal.prepare(NEVER_READ)
    signal.prepare(IN_NO_EVENT)
    signal.prepare(IN_AN_EVENT)

    # Then the one prepared longest ago is forgotten, and its moves are sent again
    assert signal.wanted(["HandScored"], IN_NO_EVENT) is False
    assert signal.wanted(["HandScored"], NEVER_READ) is True
