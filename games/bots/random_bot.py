"""The random bot: uniform among the legal moves, a baseline for the others."""

from __future__ import annotations

import random

from games.bots.view import BotView
from games.rules import Card, Visibility


class RandomBot:
    name = "random"

    def choose_mode(self, view: BotView, rng: random.Random) -> Visibility:
        return rng.choice(list(Visibility))

    def choose_bid(self, view: BotView, rng: random.Random) -> int:
        return rng.choice(view.legal_bids)

    def choose_card(self, view: BotView, rng: random.Random) -> Card:
        return rng.choice(view.legal_cards)
