"""Classic Whist's commands: a match is started; hands are dealt and cards played
with the Romanian engine's ``DealHand`` and ``PlayCard``."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.classic.options import ClassicOptions
from games.rules.commands import DealHand, PlayCard


@dataclass(frozen=True, slots=True)
class StartMatch:
    options: ClassicOptions
    # The first dealer is drawn from it.
    seed: bytes


# DealHand(secret) and PlayCard(seat, card) are the Romanian engine's commands.
Command = StartMatch | DealHand | PlayCard
