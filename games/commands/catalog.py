"""The commands a player sends to a table, by the name the socket and the REST API
give them: what each takes (checked alike on either), the command, and for the moves
of live play the move itself, which a server's event loop may write on its own
(:func:`games.write.path.execute_on_loop`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rest_framework import serializers

from games.commands import actions
from games.commands.inputs import (
    BidSerializer,
    OneCardModeSerializer,
    PlaySerializer,
    SeatBotSerializer,
    ZeroPlaySerializer,
)
from games.write.path import CommandResult, Move


@dataclass(frozen=True)
class Command:
    inputs: type[serializers.Serializer]
    run: Callable[..., CommandResult]
    move: Callable[..., Move] | None = None


COMMANDS: dict[str, Command] = {
    "bid": Command(BidSerializer, actions.game_place_bid, actions.move_place_bid),
    "play": Command(PlaySerializer, actions.game_play_card, actions.move_play_card),
    "zero_play": Command(ZeroPlaySerializer, actions.game_announce_zero_play),
    "one_card_mode": Command(OneCardModeSerializer, actions.game_choose_one_card_mode),
    "seat_bot": Command(SeatBotSerializer, actions.game_set_seat_bot),
}
