"""Reads for the games pages; the rules themselves come from :mod:`games.rules`."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules import PRESET_TITLES, PRESETS, RuleOptions, build_schedule
from games.rules.cards import MAX_PLAYERS, MIN_PLAYERS


@dataclass(frozen=True)
class PresetSummary:
    name: str
    title: str
    options: RuleOptions
    # Cards dealt per hand, by player count.
    sequences: dict[int, list[int]]


def rule_presets() -> list[PresetSummary]:
    """Every named preset with its deal sequence for each table size."""
    return [
        PresetSummary(
            name=name,
            title=PRESET_TITLES[name],
            options=options,
            sequences={
                players: [spec.cards for spec in build_schedule(options, players)]
                for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
            },
        )
        for name, options in PRESETS.items()
    ]
