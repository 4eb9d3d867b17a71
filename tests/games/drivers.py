"""Games driven through the service layer, as clients would drive them."""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from accounts.models import User
from games.commands import actions
from games.rules import Phase, Visibility, classic, legal_bids, legal_plays
from games.table import Table
from games.write.tables import load_table
from tests.accounts.factories import UserFactory

# 1, 3, 5, 7, 8, 7, 5, 3, 1 cards: a whole game in nine deals.
SHORT_GAME = {"step": 2, "repeat_one_card_deals": False, "repeat_eight_card_deals": False}


def seated_game(
    players: int = 4,
    preset: str | None = "championship",
    options: Mapping[str, Any] | None = None,
    users: Sequence[User] | None = None,
    kind: str = "romanian",
    place: str = "online",
    creator: User | None = None,
    spectator_delay: int = 0,
    deal_set: str | None = None,
) -> tuple[uuid.UUID, list[User]]:
    """A started game whose seat ``i`` is held by ``users[i]`` (opened by ``creator``,
    else by the first of them); one of ``deal_set``, if given (a duplicate round's)."""
    users = list(users) if users is not None else UserFactory.create_batch(players)
    game = actions.game_create(
        creator=creator or users[0],
        player_count=players,
        preset=preset,
        options=options,
        kind=kind,
        place=place,
        spectator_delay=spectator_delay,
        deal_set=deal_set,
    )
    for number, user in enumerate(users):
        actions.game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
    return game.id, users


def user_to_act(table: Table, users: Sequence[User]) -> User:
    seat = table.seats[table.game.turn]
    assert seat is not None
    return next(user for user in users if user.pk == seat.user_id)


def next_move(game_id: uuid.UUID, users: Sequence[User], rng: random.Random) -> bool:
    """Make one random legal move for whoever is to act; False once the game is over."""
    table = load_table(game_id)
    game = table.game
    if table.status == "finished":
        return False
    actor = user_to_act(table, users)
    common = {"game_id": game_id, "actor": actor, "expected_version": table.version}
    if isinstance(game, classic.ClassicState):
        actions.game_play_card(card=str(rng.choice(classic.legal_plays(game))), **common)
    elif game.phase is Phase.BIDDING:
        actions.game_place_bid(bid=rng.choice(legal_bids(game)), **common)
    elif game.phase is Phase.PLAYING:
        actions.game_play_card(card=str(rng.choice(legal_plays(game))), **common)
    elif game.phase is Phase.CHOOSING_MODE:
        actions.game_choose_one_card_mode(mode=rng.choice(list(Visibility)).value, **common)
    return True


def play_to_end(game_id: uuid.UUID, users: Sequence[User], seed: int = 0) -> None:
    rng = random.Random(seed)
    while next_move(game_id, users, rng):
        pass


def play_bots_to_end(game_id: uuid.UUID) -> None:
    """Make the game's automatic moves one after the other, as its bots' timers would,
    without waiting for them, until the game is over. A move another process made
    first (a worker whose timers are due) is as good."""
    while (table := load_table(game_id)).status != "finished":
        made = actions.game_play_automatically(game_id=game_id, expected_version=table.version)
        moved_on = made is not None or load_table(game_id).version != table.version
        assert moved_on, f"nobody plays seat {table.to_act} by itself"
