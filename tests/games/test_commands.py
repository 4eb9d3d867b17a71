import json
import random
import uuid
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from eventlog.store import append, read
from games.commands import actions
from games.management.commands.verify_game import Command as VerifyGame
from games.models import Game
from games.read.download import dump_record, game_record
from games.read.verification import verify_game
from games.rules import DealRecorded, HandScored
from games.table import stream_of
from games.write.tables import load_table
from tests.games.drivers import next_move, play_to_end, seated_game
from tests.games.read.test_download import uncommitted_copy
from tests.games.read.test_verification import ROOM_NOTE, recorded_game

pytestmark = pytest.mark.django_db

SHORT = {"step": 2, "repeat_one_card_deals": False, "repeat_eight_card_deals": False}


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def finished() -> uuid.UUID:
    game_id, users = seated_game(3, "romanian-standard", SHORT)
    play_to_end(game_id, users, seed=4)
    return game_id


@pytest.fixture
def playing() -> uuid.UUID:
    game_id, users = seated_game(3, "romanian-standard", SHORT)
    rng = random.Random(3)
    while load_table(game_id).game.hand < 1:
        next_move(game_id, users, rng)
    return game_id


def code_of(game_id: uuid.UUID) -> str:
    return Game.objects.get(pk=game_id).code


def test_replay_game_prints_a_finished_games_status_version_hand_and_scores(finished) -> None:
    table = load_table(finished)
    scores, places = table.game.scores, table.game.places

    output = run("replay_game", str(finished))

    assert output.splitlines() == [
        f"game {table.code} ({finished})",
        "status: finished",
        f"version: {table.version}",
        "hand: 9 (all 9 deals played)",
        "scores:",
        *(
            f"  seat {seat}  {f'Player {seat + 1}':<24} {scores[seat]:>5}  place {places[seat]}"
            for seat in range(3)
        ),
    ]


def test_replay_game_finds_a_game_by_its_code_in_any_case(playing) -> None:
    table = load_table(playing)

    output = run("replay_game", code_of(playing).lower())

    assert output.splitlines()[:4] == [
        f"game {table.code} ({playing})",
        "status: playing",
        f"version: {table.version}",
        "hand: 1 (deal 2 of 9, bidding)",
    ]
    assert output.splitlines()[5] == f"  seat 0  {'Player 1':<24} {table.game.scores[0]:>5}"


def test_replay_game_with_events_prints_every_event_before_the_summary(finished) -> None:
    records = read(stream_of(finished))

    lines = run("replay_game", str(finished), "--events").splitlines()

    assert len(lines) == len(records) + 5 + 3
    assert lines[0] == (
        f"    1 GameCreated {json.dumps(records[0].payload, separators=(', ', ': '))}"
    )
    assert [line.split()[:2] for line in lines[: len(records)]] == [
        [str(record.sequence), record.type] for record in records
    ]
    assert lines[len(records)] == f"game {code_of(finished)} ({finished})"


def test_replay_game_works_from_the_log_while_the_read_model_is_dropped(finished) -> None:
    code = code_of(finished)
    expected = run("replay_game", code)
    Game.objects.all().delete()

    assert run("replay_game", code) == expected


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        (
            "00000000-0000-0000-0000-000000000000",
            "there is no game 00000000-0000-0000-0000-000000000000",
        ),
        ("ZZZZZZ", "there is no game with the code ZZZZZZ"),
        (
            "not-a-game!",
            "'not-a-game!' is neither a game id (a UUID) nor a share code (6 letters and digits)",
        ),
    ],
)
@pytest.mark.parametrize("command", ["replay_game", "verify_game", "export_game"])
def test_an_unknown_or_malformed_game_is_a_clean_command_error(command, reference, message) -> None:
    with pytest.raises(CommandError) as error:
        run(command, reference)

    assert str(error.value) == message


def test_verify_game_prints_the_report_of_a_sound_game(finished) -> None:
    report = verify_game(finished)

    output = run("verify_game", code_of(finished))

    assert output.splitlines() == report.lines()
    assert output.splitlines()[-1] == "OK: every check passed"


def test_verify_game_reports_the_pending_deal_of_a_game_in_play(playing) -> None:
    output = run("verify_game", str(playing))

    assert "pending: hand 1 (secret not revealed yet)" in output.splitlines()
    assert output.splitlines()[-1] == "OK: every check passed"


def _tampered_game(finished: uuid.UUID) -> tuple[uuid.UUID, int]:
    """A copy of ``finished`` under a new game id with one running total changed;
    returns its id and the sequence of the altered event."""
    records = read(stream_of(finished))
    target = next(r for r in records if r.type == "HandScored" and r.payload["hand"] == 8)
    events = [record.event for record in records]
    scored = events[target.sequence - 1]
    assert isinstance(scored, HandScored)
    events[target.sequence - 1] = replace(scored, totals=(scored.totals[0] + 1, *scored.totals[1:]))
    copy = uuid.uuid4()
    with transaction.atomic():
        append(stream_of(copy), 0, events, None)
    return copy, target.sequence


def test_verify_game_fails_with_a_command_error_listing_each_problem(finished) -> None:
    copy, sequence = _tampered_game(finished)
    out = StringIO()

    with pytest.raises(CommandError) as error:
        call_command("verify_game", str(copy), stdout=out)

    assert str(error.value) == "the game failed 1 check(s)"
    lines = out.getvalue().splitlines()
    assert lines[-2] == "FAILED: 1 problem(s)"
    assert lines[-1].startswith(f"  event {sequence}, hand 8: [score] HandScored totals: ")


def test_verify_game_from_the_command_line_exits_non_zero_without_a_traceback(
    finished, capsys
) -> None:
    copy, _ = _tampered_game(finished)

    with pytest.raises(SystemExit) as exit:
        VerifyGame().run_from_argv(["manage.py", "verify_game", str(copy)])

    assert exit.value.code == 1
    captured = capsys.readouterr()
    assert captured.err == "CommandError: the game failed 1 check(s)\n"
    assert "FAILED: 1 problem(s)" in captured.out


def test_verify_game_passes_a_table_in_the_room_and_says_why_it_has_no_commitments() -> None:
    # Given a finished table in the room, its deals written, confirmed and one corrected
    game_id, _ = recorded_game()

    # When the command verifies it
    output = run("verify_game", code_of(game_id)).splitlines()

    # Then it passes (no CommandError: its exit is 0), with a note rather than a problem
    assert output == verify_game(game_id).lines()
    assert output[-2:] == [ROOM_NOTE, "OK: every check passed"]


def test_verify_game_passes_a_game_whose_time_was_called_in_a_deal() -> None:
    game_id, users = seated_game(3, "romanian-standard", SHORT)
    rng = random.Random(2)
    while load_table(game_id).game.hand < 2:
        next_move(game_id, users, rng)
    actions.game_call_time(game_id=game_id)
    play_to_end(game_id, users, seed=2)

    output = run("verify_game", str(game_id)).splitlines()

    assert output[1].endswith(", 3 hand scores, 1 time call, 1 final ranking")
    assert output[-1] == "OK: every check passed"


def test_verify_game_fails_a_table_in_the_room_whose_deal_breaks_the_rules(capsys) -> None:
    # Given a copy of a table in the room whose first deal's tricks do not add up
    game_id, _ = recorded_game()
    events = [record.event for record in read(stream_of(game_id))]
    index, deal = next((i, e) for i, e in enumerate(events) if isinstance(e, DealRecorded))
    events[index] = replace(deal, tricks=(deal.tricks[0] + 1, *deal.tricks[1:]))
    copy = uuid.uuid4()
    with transaction.atomic():
        append(stream_of(copy), 0, events, None)

    # When the command line verifies it
    with pytest.raises(SystemExit) as exit:
        VerifyGame().run_from_argv(["manage.py", "verify_game", str(copy)])

    # Then it exits non-zero, naming the check the deal fails
    assert exit.value.code == 1
    assert (
        capsys.readouterr()
        .out.splitlines()[-1]
        .startswith(f"  event {index + 1}, hand 0: [recorded-deal] the rules refuse this: ")
    )


def test_export_game_writes_the_games_record_to_stdout(finished) -> None:
    output = run("export_game", code_of(finished))

    assert output == dump_record(game_record(finished))


def test_export_game_writes_the_record_to_the_output_file(finished, tmp_path: Path) -> None:
    target = tmp_path / "game.json"

    output = run("export_game", str(finished), "--output", str(target))

    assert output == f"wrote {target}\n"
    assert target.read_text(encoding="utf-8") == dump_record(game_record(finished))


def test_export_game_into_a_directory_names_the_file_after_the_code(finished, tmp_path) -> None:
    run("export_game", str(finished), "-o", str(tmp_path))

    written = tmp_path / f"atu-game-{code_of(finished)}.json"
    assert json.loads(written.read_text(encoding="utf-8")) == game_record(finished)


def test_export_game_refuses_a_game_still_in_play(playing) -> None:
    with pytest.raises(CommandError) as error:
        run("export_game", str(playing))

    assert str(error.value) == "a game's full record is published once the game is finished"


def test_export_game_reports_a_file_it_cannot_write(finished, tmp_path) -> None:
    target = tmp_path / "missing" / "game.json"

    with pytest.raises(CommandError) as error:
        run("export_game", str(finished), "--output", str(target))

    assert str(error.value) == f"cannot write {target}: No such file or directory"


def test_rebuild_projections_restores_every_game_row(finished, playing, user) -> None:
    actions.game_create(creator=user, player_count=5, preset="championship")
    before = list(Game.objects.order_by("id").values())
    Game.objects.all().delete()

    output = run("rebuild_projections")

    assert output == "rebuilt 3 game(s) from the event log\n"
    assert list(Game.objects.order_by("id").values()) == before


# --- Classic Whist ---------------------------------------------------------------------


@pytest.fixture
def classic_finished() -> uuid.UUID:
    game_id, users = seated_game(kind="classic", preset="whist-drive", options={"deals": 3})
    play_to_end(game_id, users, seed=4)
    return game_id


def test_replay_game_prints_a_finished_classic_match_each_seat_with_its_sides_points(
    classic_finished,
) -> None:
    table = load_table(classic_finished)
    a, b = table.game.points

    output = run("replay_game", str(classic_finished))

    places = table.game.places
    assert output.splitlines() == [
        f"game {table.code} ({classic_finished})",
        "status: finished",
        f"version: {table.version}",
        "hand: 3 (all 3 deals played)",
        "scores:",
        *(
            f"  seat {seat}  {f'Player {seat + 1}':<24} {(a, b)[seat % 2]:>5}  place {places[seat]}"
            for seat in range(4)
        ),
    ]


def test_replay_game_prints_a_classic_match_to_points_in_play_without_a_number_of_deals() -> None:
    game_id, users = seated_game(kind="classic", preset="american")
    rng = random.Random(2)
    while not load_table(game_id).played:
        next_move(game_id, users, rng)

    lines = run("replay_game", str(game_id)).splitlines()

    assert lines[1:4] == [
        "status: playing",
        f"version: {load_table(game_id).version}",
        "hand: 0 (deal 1, playing)",
    ]
    assert lines[5] == f"  seat 0  {'Player 1':<24} {0:>5}"


def test_replay_game_replays_a_classic_game_logged_without_commitments(classic_finished) -> None:
    old = uncommitted_copy(classic_finished)

    lines = run("replay_game", str(old)).splitlines()

    assert lines[1] == "status: finished"
    assert lines[3] == "hand: 3 (all 3 deals played)"


def test_verify_game_passes_a_classic_match_and_export_game_writes_its_record(
    classic_finished,
) -> None:
    verified = run("verify_game", code_of(classic_finished))
    exported = run("export_game", code_of(classic_finished))

    assert verified.splitlines() == verify_game(classic_finished).lines()
    assert verified.splitlines()[-1] == "OK: every check passed"
    assert exported == dump_record(game_record(classic_finished))
    assert json.loads(exported)["format"] == "atu-classic-record/1"


def test_verify_game_fails_a_classic_game_logged_without_commitments(classic_finished) -> None:
    old = uncommitted_copy(classic_finished)
    out = StringIO()

    with pytest.raises(CommandError) as error:
        call_command("verify_game", str(old), stdout=out)

    assert str(error.value) == "the game failed 1 check(s)"
    assert (
        out.getvalue()
        .splitlines()[-1]
        .endswith("[commitment] the log commits to no deal: no deal can be checked against one")
    )
