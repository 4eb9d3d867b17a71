"""A finished game's analysis as a read model: computed from the log, kept once, rebuilt
identically, each decision placed at its event, and shown to each viewer as far as
they may see it (decision 3602)."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import User
from eventlog.store import read
from games import rules
from games.errors import AnalysisNotKept, DealSetInPlay, RecordNotReady
from games.models import Game, GameAnalysis
from games.read.analysis import (
    PENDING,
    READY,
    analyse,
    analysis_view,
    rebuild_analysis,
    review_from_log,
)
from games.table import stream_of
from games.tasks import analyse_game
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import SHORT_GAME, play_to_end, seated_game
from tests.tournaments.drivers import event_round, wait_until

pytestmark = pytest.mark.django_db


def a_finished_game(players: int = 3, seed: int = 5) -> tuple[uuid.UUID, list[User]]:
    game_id, users = seated_game(players, "romanian-standard", SHORT_GAME)
    play_to_end(game_id, users, seed=seed)
    return game_id, users


def view_of(game_id: uuid.UUID, user: User | None) -> dict:
    game = Game.objects.get(pk=game_id)
    return analysis_view(game, load_table(game_id), None if user is None else user.pk)


def test_a_finished_games_analysis_is_kept_once_and_rebuilt_from_the_log_identically() -> None:
    # Given a finished game
    game_id, _ = a_finished_game()

    # When its task runs twice
    analyse_game(str(game_id))
    first = GameAnalysis.objects.get(game_id=game_id)
    analyse_game(str(game_id))

    # Then one analysis is kept, of the whole log, and the log gives it again
    assert GameAnalysis.objects.filter(game_id=game_id).count() == 1
    assert GameAnalysis.objects.get(game_id=game_id).analysed_at == first.analysed_at
    assert first.version == len(read(stream_of(game_id)))
    assert [hand["hand"] for hand in first.review["hands"]] == list(range(9))
    assert rebuild_analysis(game_id, check=True) is True
    assert review_from_log(game_id) == (first.version, first.review)


def test_each_reviewed_bid_and_card_is_placed_at_its_event_in_the_log() -> None:
    game_id, _ = a_finished_game()
    review = analyse(game_id).review
    events = {record.sequence: record.event for record in read(stream_of(game_id))}

    bids = [bid for hand in review["hands"] for bid in hand["bids"]]
    plays = [play for hand in review["hands"] for play in hand["plays"]]
    assert bids and plays
    for hand in review["hands"]:
        for bid in hand["bids"]:
            event = events[bid["at"]]
            assert isinstance(event, rules.BidPlaced)
            assert (event.hand, event.seat, event.bid) == (hand["hand"], bid["seat"], bid["bid"])
        for play in hand["plays"]:
            event = events[play["at"]]
            assert isinstance(event, rules.CardPlayed)
            assert (event.hand, event.seat, str(event.card)) == (
                hand["hand"],
                play["seat"],
                play["card"],
            )


def test_a_changed_analysis_is_found_by_the_check_and_replaced_by_the_rebuild() -> None:
    # Given a kept analysis that no longer says what the log does
    game_id, _ = a_finished_game()
    kept = analyse(game_id)
    kept.review = {**kept.review, "summary": []}
    kept.save()

    # When checked, then the difference is told and nothing is written
    with pytest.raises(CommandError, match="1 analysis"):
        call_command("rebuild_analyses", str(game_id), "--check")
    assert GameAnalysis.objects.get(game_id=game_id).review["summary"] == []

    # When rebuilt, then the log's analysis is kept again
    call_command("rebuild_analyses")
    assert rebuild_analysis(game_id, check=True) is True
    assert len(GameAnalysis.objects.get(game_id=game_id).review["summary"]) == 3


def test_every_seat_is_shown_to_anyone_once_the_game_is_over() -> None:
    game_id, users = a_finished_game()
    kept = analyse(game_id)

    for viewer in (None, users[1], UserFactory.create()):
        shown = view_of(game_id, viewer)
        assert shown == {"status": READY, "seats": [0, 1, 2], "review": kept.review}


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded, an analysis is computed when first asked for; production's analyst "
    "computes it as the game ends (tests/games/test_tasks.py)",
)
def test_an_analysis_not_kept_yet_is_pending_and_asked_for() -> None:
    game_id, users = a_finished_game()

    assert view_of(game_id, users[0]) == {"status": PENDING, "seats": [0, 1, 2], "review": None}
    wait_until(lambda: GameAnalysis.objects.filter(game_id=game_id).exists(), 300, "analysis")


def test_a_game_in_play_is_not_analysed_yet() -> None:
    game_id, users = seated_game(3, "romanian-standard", SHORT_GAME)

    with pytest.raises(RecordNotReady):
        view_of(game_id, users[0])
    assert analyse(game_id) is None
    assert not GameAnalysis.objects.exists()


@pytest.mark.parametrize(("kind", "place"), [("classic", "online"), ("romanian", "room")])
def test_classic_whist_and_tables_in_the_room_are_not_analysed(kind: str, place: str) -> None:
    game_id, users = seated_game(
        4, None if kind == "classic" else "romanian-standard", None, kind=kind, place=place
    )

    with pytest.raises(AnalysisNotKept):
        view_of(game_id, users[0])


@pytest.mark.django_db(transaction=True)
def test_a_duplicate_tables_player_sees_only_their_own_seat_while_the_deal_set_plays() -> None:
    # Given a duplicate event's two tables, the first one finished
    _, _, entrants, (first, second) = event_round(
        8, public=True, duplicate=True, points="matchpoints"
    )
    seated = [user for user in entrants if load_table(first.id).seat_of(user.pk) is not None]
    play_to_end(first.id, seated, seed=3)
    kept = analyse(first.id)
    seat = load_table(first.id).seat_of(seated[0].pk)

    # Then its player sees their own seat's decisions, luck and summary only
    shown = view_of(first.id, seated[0])
    assert shown["seats"] == [seat]
    hands = shown["review"]["hands"]
    assert {bid["seat"] for hand in hands for bid in hand["bids"]} <= {seat}
    assert {play["seat"] for hand in hands for play in hand["plays"]} == {seat}
    assert all(
        luck == (hand["luck"][seat] if index == seat else None)
        for hand in hands
        for index, luck in enumerate(hand["luck"])
    )
    assert [line["seat"] for line in shown["review"]["summary"]] == [seat]
    # and anyone without a seat there, nothing
    others = [user for user in entrants if user not in seated]
    for viewer in (None, others[0]):
        with pytest.raises(DealSetInPlay):
            view_of(first.id, viewer)

    # When the other table finishes, then everyone sees every seat
    play_to_end(second.id, others, seed=4)
    assert view_of(first.id, others[0]) == {
        "status": READY,
        "seats": [0, 1, 2, 3],
        "review": kept.review,
    }
