"""Bots that play Romanian Whist on the rules library (no Django): for players
whose time runs out, seats an organizer fills, and demo tables.

A bot decides from a :class:`BotView`, what its seat may know, never from the
game state itself::

    command = choose_command(state, seat, random.Random(seed), bot="heuristic")
    state = evolve(state, decide(state, command))
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from games.bots.heuristic import HeuristicBot
from games.bots.random_bot import RandomBot
from games.bots.sampling import LEVELS, SamplingBot
from games.bots.view import BotView, bot_view, played_in_hand
from games.rules import (
    Card,
    ChooseOneCardMode,
    Command,
    GameState,
    Phase,
    PlaceBid,
    PlayCard,
    Visibility,
    legal_plays,
)


class Bot(Protocol):
    name: str

    def choose_mode(self, view: BotView, rng: random.Random) -> Visibility: ...

    def choose_bid(self, view: BotView, rng: random.Random) -> int: ...

    def choose_card(self, view: BotView, rng: random.Random) -> Card: ...


class EasyBot(HeuristicBot):
    """The level a newcomer meets first: today's heuristic bot."""

    name = "easy"


_ALL: tuple[Bot, ...] = (
    HeuristicBot(),
    RandomBot(),
    EasyBot(),
    *(SamplingBot(name, level) for name, level in LEVELS.items()),
)
BOTS: dict[str, Bot] = {bot.name: bot for bot in _ALL}
# The levels a player chooses between, weakest first; the other names stay for
# the seats and tests that use them.
LEVEL_NAMES = ("easy", "medium", "strong")
# The level that plays a seat whose turn timer ran out.
DEFAULT_LEVEL = "medium"


def choose_command(
    state: GameState,
    seat: int,
    rng: random.Random | None = None,
    *,
    bot: str = "heuristic",
    played: Iterable[Card] | None = None,
) -> Command:
    """The command the bot ``bot`` makes for ``seat`` when it is that seat's turn.

    ``played``: the cards played so far in the hand (:func:`played_in_hand`), which
    the state alone does not keep. Without ``rng`` the tie-breaks are seeded from
    the position, so the same position always gets the same command. Raises
    ValueError when it is not ``seat``'s turn to act, or for an unknown bot.
    """
    try:
        player = BOTS[bot]
    except KeyError:
        raise ValueError(f"unknown bot {bot!r}; choose one of {', '.join(BOTS)}") from None
    view = bot_view(state, seat, played)
    if rng is None:
        rng = random.Random(f"{view.hand}/{seat}/{len(view.played)}/{len(view.trick)}")
    if view.phase is Phase.CHOOSING_MODE:
        return ChooseOneCardMode(seat, player.choose_mode(view, rng))
    if view.phase is Phase.BIDDING:
        return PlaceBid(seat, player.choose_bid(view, rng))
    if view.own is None:
        # On the forehead the player plays the one card they cannot see: no
        # choice is made, so none can use what the seat may not know.
        (card,) = legal_plays(state)
        return PlayCard(seat, card)
    return PlayCard(seat, player.choose_card(view, rng))


__all__ = [
    "BOTS",
    "DEFAULT_LEVEL",
    "LEVEL_NAMES",
    "Bot",
    "BotView",
    "HeuristicBot",
    "RandomBot",
    "SamplingBot",
    "bot_view",
    "choose_command",
    "played_in_hand",
]
