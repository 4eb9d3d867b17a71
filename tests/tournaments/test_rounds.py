"""When an event's next round may start: the one rule its service and its page share."""

from __future__ import annotations

import pytest

from tournaments.rounds import groups, next_round_refusal


def refusal(**facts: object) -> str | None:
    found = next_round_refusal(
        **{"kind": "romanian", "started": 1, "total": 3, "unfinished": 0, **facts}
    )  # type: ignore[arg-type]
    return None if found is None else found.code


def test_players_of_an_event_played_both_ways_are_grouped_by_where_they_said() -> None:
    present = [(3, True), (1, False), (2, True)]

    assert groups("both", present) == [("room", [2, 3]), ("online", [1])]
    assert groups("online", present) == [("online", [1, 2, 3])]


@pytest.mark.parametrize(
    ("facts", "code"),
    [
        ({"started": 3, "seated": [("online", [1, 2, 3])]}, "event_over"),
        ({"unfinished": 2, "seated": [("online", [1, 2, 3])]}, "round_in_progress"),
        ({"seated": [("online", [1, 2])]}, "not_enough_players"),
        ({"seated": []}, "not_enough_players"),
        ({"seated": [("room", [1, 2, 3]), ("online", [4, 5])]}, "too_few_in_place"),
        ({"kind": "classic", "seated": [("online", [1, 2, 3, 4, 5])]}, "players_not_in_fours"),
        ({"seated": [("online", [1, 2, 3])]}, None),
        ({"kind": "classic", "seated": [("online", [1, 2, 3, 4, 5, 6, 7, 8])]}, None),
    ],
)
def test_the_next_round_starts_once_rounds_are_left_tables_are_over_and_players_fill_tables(
    facts: dict[str, object], code: str | None
) -> None:
    assert refusal(**facts) == code
