"""A duplicate round's deals compared seat by seat, beside the strong bot's bids; kept
back while a table of the deal set still plays."""

from __future__ import annotations

import pytest
from django.test import Client

from eventlog.store import read
from games import rules
from games.read.analysis import analyse
from games.table import stream_of
from games.write.tables import load_table
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import event_round
from tournaments.comparison import compare_deal, round_deals, round_games

pytestmark = pytest.mark.django_db


def a_duplicate_round():
    event, _, entrants, games = event_round(8, public=True, duplicate=True, points="matchpoints")
    seated = [
        [user for user in entrants if load_table(game.id).seat_of(user.pk) is not None]
        for game in games
    ]
    return event, games, seated


def logged(game_id, kind):
    return [record.event for record in read(stream_of(game_id)) if isinstance(record.event, kind)]


def test_a_deal_is_compared_seat_by_seat_across_the_tables_that_held_the_same_cards() -> None:
    # Given a duplicate round of two tables of four, both finished and analysed
    event, games, seated = a_duplicate_round()
    for game, players, seed in zip(games, seated, (3, 4), strict=True):
        play_to_end(game.id, players, seed=seed)
    reviews = {game.id: analyse(game.id).review for game in games}

    # When its third deal is compared
    (compared,) = compare_deal(round_games(event, 1), 2)

    # Then each seat's cards are the ones dealt at both tables, and each line is what
    # that table's log says of its seat, beside the bot's bid of the analysis
    assert round_deals(round_games(event, 1)) == 9
    assert (compared.size, compared.tables) == (4, (1, 2))
    dealt = [next(e for e in logged(game.id, rules.HandDealt) if e.hand == 2) for game in games]
    assert dealt[0].hands == dealt[1].hands
    assert compared.cards == dealt[0].cards
    assert compared.dealer == dealt[0].dealer
    for seat in compared.seats:
        assert len(seat.cards) == dealt[0].cards
        for line, game in zip(seat.lines, games, strict=True):
            bids = {e.seat: e.bid for e in logged(game.id, rules.BidPlaced) if e.hand == 2}
            scored = next(e for e in logged(game.id, rules.HandScored) if e.hand == 2)
            reviewed = {bid["seat"]: bid["best"] for bid in reviews[game.id]["hands"][2]["bids"]}
            assert line.code == game.code
            assert line.name == load_table(game.id).seats[seat.seat].alias
            assert (line.bid, line.made, line.points) == (
                bids[seat.seat],
                scored.tricks[seat.seat],
                scored.points[seat.seat],
            )
            assert line.bot_bid == reviewed.get(seat.seat, bids[seat.seat])


def test_a_deal_set_is_kept_back_while_one_of_its_tables_plays() -> None:
    event, games, seated = a_duplicate_round()
    play_to_end(games[0].id, seated[0], seed=3)

    (compared,) = compare_deal(round_games(event, 1), 0)

    assert (compared.size, compared.tables, compared.seats) == (4, (1, 2), None)


def test_the_page_compares_a_deal_and_a_round_without_duplicate_deals_has_none(
    client: Client,
) -> None:
    event, games, seated = a_duplicate_round()
    for game, players, seed in zip(games, seated, (3, 4), strict=True):
        play_to_end(game.id, players, seed=seed)
        analyse(game.id)

    page = client.get(f"/events/{event.code}/rounds/1/deals/?deal=99")

    assert page.status_code == 200
    text = page.content.decode()
    assert "Round 1: deal 9 of 9" in text
    assert text.count('<tr data-table="1"') == 4
    assert text.count('<tr data-table="2"') == 4
    assert client.get(f"/events/{event.code}/rounds/2/deals/").status_code == 404
    results = client.get(f"/events/{event.code}/results/").content.decode()
    assert f'href="/events/{event.code}/rounds/1/deals/"' in results
    for game in games:
        assert f'href="/games/{game.code}/analysis/"' in results
    plain, _, _, _ = event_round(4, public=True)
    assert client.get(f"/events/{plain.code}/rounds/1/deals/").status_code == 404


def test_a_deal_set_is_kept_back_from_whom_a_spectator_delay_holds_its_finish_back(
    client: Client,
) -> None:
    # Given a duplicate round whose spectators are held 600 s behind, both tables over
    event, creator, entrants, games = event_round(
        8, public=True, duplicate=True, points="matchpoints", spectator_delay=600
    )
    for game, seed in zip(games, (3, 4), strict=True):
        table = load_table(game.id)
        play_to_end(game.id, [u for u in entrants if table.seat_of(u.pk) is not None], seed=seed)
        analyse(game.id)
    address = f"/events/{event.code}/rounds/1/deals/"

    # Then a spectator is told the deals are still in play, and shown no card
    held = client.get(address).content.decode()
    assert 'class="notice in-play"' in held
    assert "seat-cards" not in held
    # while the organizer, who sees the tables live, sees them compared
    client.force_login(creator)
    live = client.get(address).content.decode()
    assert 'class="notice in-play"' not in live
    assert live.count('class="seat-cards"') == 4
