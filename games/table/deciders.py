"""The table-level deciders the commands share: pure functions of a table, which
they fold the events they decide into, and return.

None reads or writes the database: a decider that needs the deal secrets is handed
them (:class:`DealSecrets`, the vault of :mod:`games.write.vault`).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Protocol

from games import rules
from games.errors import InvalidInput, NotYourSeat
from games.rules import classic
from games.rules.shuffle import commitment
from games.table import AnyEvent, DealRevealed, DealsCommitted, Table, fold


class DealSecrets(Protocol):
    """The secrets a table deals from, as :class:`games.write.vault.Vault` keeps them."""

    def draw(self, hands: int) -> list[bytes]: ...

    def secret(self, hand: int) -> bytes: ...

    def may_reveal(self, table: Table) -> bool: ...


def fold_all(table: Table, events: list[AnyEvent]) -> list[AnyEvent]:
    fold(table, events)
    return events


def decided(table: Table, command: rules.Command | classic.Command) -> list[AnyEvent]:
    """The events of ``command`` under the rules of the table's game; the table is left
    as it was."""
    if isinstance(table.game, classic.ClassicState):
        return list(classic.decide(table.game, command))  # type: ignore[arg-type]
    return list(rules.decide(table.game, command))  # type: ignore[arg-type]


def ruled(table: Table, command: rules.Command | classic.Command) -> list[AnyEvent]:
    """The events of ``command`` under the rules of the table's game, folded into it."""
    return fold_all(table, decided(table, command))


def start_command(table: Table, seed: bytes) -> rules.StartGame | classic.StartMatch:
    """What starts the game of a table played here, its first dealer drawn from
    ``seed``."""
    if isinstance(table.options, classic.ClassicOptions):
        return classic.StartMatch(table.options, seed)
    return rules.StartGame(table.player_count, table.options, seed)


def acting_seat(table: Table, actor_id: int | None, seat: int | None) -> int:
    """The seat a command acts for: the actor's own; the server (None) names it."""
    if actor_id is None:
        if seat is None:
            raise InvalidInput("the server must name the seat it acts for")
        return seat
    own = table.seat_of(actor_id)
    if own is None:
        raise NotYourSeat("you have no seat at this table")
    if seat is not None and seat != own:
        raise NotYourSeat(f"seat {seat} is not yours; you sit in seat {own}")
    return own


def start(table: Table, vault: DealSecrets) -> list[AnyEvent]:
    """Commit to every hand's secret, draw the first dealer, record the zero plays
    announced on joining, deal the first hand. A table in the room only draws its
    first dealer: its cards are dealt at the table."""
    if table.in_room:
        game = rules.StartGame(
            table.player_count, table.romanian_options, secrets.token_bytes(16), recorded=True
        )
        return ruled(table, game) + _zero_plays(table)
    drawn = vault.draw(table.hands_to_commit)
    if table.deal_set:
        # The tables of a set draw the same first dealer; the seed follows from a
        # secret kept until the set is over, so nobody can foresee it.
        seed = hashlib.sha256(b"atu-first-dealer:" + drawn[0]).digest()[:16]
    else:
        seed = secrets.token_bytes(16)
    committed = DealsCommitted(seed.hex(), tuple(commitment(secret) for secret in drawn))
    events = fold_all(table, [committed]) + ruled(table, start_command(table, seed))
    return events + _zero_plays(table) + server_moves(table, vault)


def _zero_plays(table: Table) -> list[AnyEvent]:
    events: list[AnyEvent] = []
    for number, seat in enumerate(table.seats):
        if seat is not None and seat.zero_play:
            events += ruled(table, rules.AnnounceZeroPlay(number))
    return events


def server_moves(table: Table, vault: DealSecrets) -> list[AnyEvent]:
    """What the server does by itself once a command lands: reveal the secret of a
    finished hand, then deal the next one (unless its dealer must choose first).
    Nothing at a table in the room, whose cards are not here."""
    events: list[AnyEvent] = []
    if table.in_room:
        return events
    while True:
        game = table.game
        if len(table.revealed) < len(game.results) and vault.may_reveal(table):
            hand = len(table.revealed)
            events += fold_all(table, [DealRevealed(hand, vault.secret(hand).hex())])
        elif game.phase.value == "dealing":
            events += ruled(table, rules.DealHand(vault.secret(game.hand)))
        else:
            return events
