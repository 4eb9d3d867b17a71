"""The player page bench's yardstick answers what the page answers: its plain queries
count the same figures, results, opponents, head-to-head, events and chart as the
page's reads, on the read models the bench seeds (the bench's times are measured only
by running it)."""

import random
from datetime import UTC, datetime

import pytest

from bench.player import baseline, seed
from tournaments import players
from tournaments.players import GAMES_PER_PAGE

LATER = datetime(2100, 1, 1, tzinfo=UTC)


@pytest.mark.django_db
def test_the_baseline_counts_what_the_page_reads() -> None:
    # Given the bench's read models of a player of 50 games
    player, other, season = seed(50, 12, 30, 3, random.Random(1))
    games = players.shown_games(player, None, LATER)

    # When the baseline asks for the last page of games
    answers = baseline(player, other, season, 3)

    # Then its answers are the page's
    figures = players.figures(games)
    count, wins, deals, exact, best_run, bonuses = answers["figures"]
    assert (count, wins, deals, exact, best_run, bonuses) == (
        figures.games,
        figures.wins,
        figures.deals,
        figures.exact,
        figures.best_run,
        figures.bonuses,
    )
    assert answers["win_streak"] == (figures.win_streak,)
    assert [
        (kind, preset, size, played, won, round(float(average), 2))
        for kind, preset, size, played, won, average in answers["by_rules"]
    ] == [
        (line.kind, line.preset, line.player_count, line.games, line.wins, line.average_place)
        for line in players.results_by_preset(games)
    ]
    page = players.games_page(games, figures.games, 3)
    assert page is not None
    assert [row[1] for row in answers["games"]] == [line.code for line in page.lines]
    assert len(answers["games"]) == 50 - 2 * GAMES_PER_PAGE
    assert len(answers["seats"]) == len(page.lines)
    assert answers["opponents"] == [
        (met.player_id, together)
        for met, together in players.frequent_opponents(player, None, LATER)
    ]
    versus = players.head_to_head(player, players.find_player(other), None, LATER)
    assert answers["versus"] == (versus.games, versus.ahead, versus.behind)
    assert [code for code, _, _ in answers["events"]] == [
        line.code for line in players.player_events(player, None, LATER)
    ]
    assert len(answers["seasons"]) == len(players.player_seasons(player, None, LATER)) == 1
    changes, total = players.rating_history(player, season, None, LATER)
    assert (len(answers["chart"]), total) == (len(changes), 30)
