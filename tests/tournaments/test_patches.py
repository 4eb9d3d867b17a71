"""A patch between two pictures of an event carries what changed, record by record, and
applied to the first gives the second exactly."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.browser import chromium
from tournaments.patches import changes, patched

PATCH_JS = Path(__file__).parents[2] / "tournaments" / "static" / "tournaments" / "patch.js"


def line(player_id: int, rank: int, points: float) -> dict[str, Any]:
    return {"rank": rank, "player_id": player_id, "name": f"P{player_id}", "points": points}


def picture(**fields: Any) -> dict[str, Any]:
    return {"version": 7, "status": "running", "leaderboard": [], "tables": [], "me": None} | fields


def test_a_changed_score_is_sent_as_that_field_of_that_line_alone() -> None:
    # Given a leaderboard of three, and the same with the second's points changed
    before = picture(leaderboard=[line(7, 1, 12), line(8, 2, 6), line(9, 3, -2)])
    after = picture(leaderboard=[line(7, 1, 12), line(8, 2, 8), line(9, 3, -2)])

    # When the patch is made
    patch = changes(before, after)

    # Then it names the line by its player and carries the points only
    assert patch == {
        "rows": {"leaderboard": {"id": "player_id", "items": [{"id": 8, "set": {"points": 8}}]}}
    }
    assert patched(before, patch) == after


def test_a_line_that_moved_up_sends_the_new_order_and_the_ranks_that_changed() -> None:
    # Given the third passing the second
    before = picture(leaderboard=[line(7, 1, 12), line(8, 2, 6), line(9, 3, -2)])
    after = picture(leaderboard=[line(7, 1, 12), line(9, 2, 10), line(8, 3, 6)])

    patch = changes(before, after)

    assert patch == {
        "rows": {
            "leaderboard": {
                "id": "player_id",
                "items": [
                    {"id": 9, "set": {"rank": 2, "points": 10}},
                    {"id": 8, "set": {"rank": 3}},
                ],
                "order": [7, 9, 8],
            }
        }
    }
    assert patched(before, patch) == after


def test_a_disqualification_is_sent_as_that_lines_reason_alone() -> None:
    # Given a leaderboard of two, and the same with the second disqualified
    before = picture(
        leaderboard=[line(7, 1, 12) | {"disqualified": ""}, line(8, 2, 6) | {"disqualified": ""}]
    )
    after = picture(
        leaderboard=[
            line(7, 1, 12) | {"disqualified": ""},
            line(8, 2, 6) | {"disqualified": "Collusion"},
        ]
    )

    patch = changes(before, after)

    assert patch == {
        "rows": {
            "leaderboard": {
                "id": "player_id",
                "items": [{"id": 8, "set": {"disqualified": "Collusion"}}],
            }
        }
    }
    assert patched(before, patch) == after


def test_a_line_from_before_a_new_field_is_sent_whole() -> None:
    # Given a page holding a line drawn before lines said who was disqualified
    before = picture(leaderboard=[line(7, 1, 12)])
    after = picture(leaderboard=[line(7, 1, 12) | {"disqualified": ""}])

    patch = changes(before, after)

    assert patch == {
        "rows": {
            "leaderboard": {"id": "player_id", "items": [{"id": 7, "new": after["leaderboard"][0]}]}
        }
    }
    assert patch is not None and patched(before, patch) == after


def test_a_new_table_is_sent_whole_and_a_table_s_seats_by_seat() -> None:
    # Given a round's first table scoring a deal while a second table is seated
    seats = [{"seat": 0, "score": 0}, {"seat": 1, "score": 0}]
    scored = [{"seat": 0, "score": 5}, {"seat": 1, "score": 0}]
    first = {"game_id": "a", "number": 1, "hands_scored": 0, "players": seats}
    second = {"game_id": "b", "number": 2, "hands_scored": 0, "players": seats}
    before = picture(tables=[first])
    after = picture(tables=[{**first, "hands_scored": 1, "players": scored}, second])

    patch = changes(before, after)

    assert patch == {
        "rows": {
            "tables": {
                "id": "game_id",
                "items": [
                    {
                        "id": "a",
                        "set": {"hands_scored": 1},
                        "rows": {
                            "players": {"id": "seat", "items": [{"id": 0, "set": {"score": 5}}]}
                        },
                    },
                    {"id": "b", "new": second},
                ],
                "order": ["a", "b"],
            }
        }
    }
    assert patched(before, patch) == after


def test_lists_without_an_identity_and_plain_values_are_sent_whole() -> None:
    before = picture(status="running", announcements=[{"text": "a"}], round=1)
    after = picture(status="finished", announcements=[{"text": "b"}, {"text": "a"}], round=1)

    assert changes(before, after) == {
        "set": {"status": "finished", "announcements": [{"text": "b"}, {"text": "a"}]}
    }


def test_an_unchanged_picture_makes_an_empty_patch() -> None:
    before = picture(leaderboard=[line(7, 1, 12)])

    assert changes(before, copy.deepcopy(before)) == {}
    assert patched(before, {}) == before


def test_pictures_of_different_fields_make_no_patch() -> None:
    assert changes(picture(), {**picture(), "round": 2}) is None


SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["x", "y"])
SEATS = st.lists(
    st.fixed_dictionaries({"seat": st.integers(0, 5), "score": st.integers(-9, 9)}),
    unique_by=lambda record: record["seat"],
    max_size=4,
)
TABLES = st.lists(
    st.fixed_dictionaries(
        {"game_id": st.sampled_from("abcdef"), "hands_scored": st.integers(0, 3), "players": SEATS}
    )
    | st.fixed_dictionaries({"game_id": st.sampled_from("abcdef"), "note": SCALARS}),
    unique_by=lambda record: record["game_id"],
    max_size=5,
)
LINES = st.lists(
    st.fixed_dictionaries(
        {
            "player_id": st.integers(0, 9),
            "rank": st.integers(1, 9),
            "points": SCALARS,
            # The director's reason for a disqualification ("": none).
            "disqualified": st.sampled_from(["", "Collusion", "Rudeness"]),
        }
    ),
    unique_by=lambda record: record["player_id"],
    max_size=6,
)
# Records whose would-be identity repeats: sent whole.
TWINS = st.lists(st.fixed_dictionaries({"number": st.integers(0, 2)}), max_size=4)
PICTURES = st.fixed_dictionaries(
    {"status": SCALARS, "leaderboard": LINES, "tables": TABLES, "twins": TWINS, "me": st.none()}
)


@given(PICTURES, PICTURES)
def test_a_patch_applied_to_the_picture_it_was_made_from_gives_the_next_exactly(
    before: dict[str, Any], after: dict[str, Any]
) -> None:
    kept = copy.deepcopy(before)

    patch = changes(before, after)

    assert patch is not None
    assert patched(before, patch) == after
    # And the picture patched is left as it was: a page compares it with the next.
    assert before == kept


# --- The pages' twin (tournaments/static/tournaments/patch.js) ---------------------------


def random_line(rng: random.Random, player_id: int) -> dict[str, Any]:
    return {
        "rank": rng.randint(1, 6),
        "player_id": player_id,
        "name": f"P{player_id}",
        "points": rng.choice([0, 3, 7.5, None]),
        "disqualified": rng.choice(["", "", "Collusion"]),
    }


def random_picture(rng: random.Random) -> dict[str, Any]:
    players = rng.sample(range(8), rng.randint(1, 6))
    return picture(
        status=rng.choice(["running", "finished"]),
        leaderboard=[random_line(rng, player) for player in players],
        tables=[
            {"game_id": code, "hands_scored": rng.randint(0, 3), "players": []}
            for code in rng.sample("abcd", rng.randint(0, 3))
        ],
    )


async def test_the_pages_twin_applies_every_patch_as_the_server_does() -> None:
    # Given pairs of pictures whose leaderboard lines gain and lose disqualifications,
    # move, come and go, and the patches between them
    rng = random.Random(34)
    cases = []
    for _ in range(300):
        before, after = random_picture(rng), random_picture(rng)
        patch = changes(before, after)
        assert patch is not None
        cases.append((before, patch, patched(before, patch)))

    # When the pages' script applies each patch
    async with chromium() as browser:
        page = await browser.new_page()
        await page.add_script_tag(path=str(PATCH_JS))
        applied = await page.evaluate(
            "(cases) => cases.map(([before, patch]) => window.atuPatched(before, patch))",
            [[before, patch] for before, patch, _ in cases],
        )

    # Then each gives the picture the server's own gives
    assert applied == [after for _, _, after in cases]
