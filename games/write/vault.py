"""The deal-secret vault: every hand's secret, drawn when a table starts, committed
to in its log, and revealed once the hand (or the whole deal set) is over.

A :class:`Vault` is what the table-level deciders (:mod:`games.table.deciders`) are handed
to read secrets through; they never reach the database themselves.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from dataclasses import dataclass
from functools import partial

from cachetools import LRUCache
from django.db import transaction

from games.models import DealSecret
from games.table import Table, stream_of
from games.visibility import deal_set_over

# The vaults of games this process has dealt from, by stream: a secret never changes
# once drawn, so each game's vault is read once rather than once per hand and reveal.
# A vault is kept only once the transaction that read it committed (one that drew it
# and was rolled back leaves nothing), and only a game's own: a deal set's vault is
# shared by tables this process may not see, and read each time.
VAULTS_KEPT = 4096
_VAULTS: LRUCache[str, dict[int, bytes]] = LRUCache(maxsize=VAULTS_KEPT)
_VAULTS_LOCK = threading.Lock()


@dataclass(frozen=True)
class Vault:
    """The secrets one table deals from: its own, or its deal set's."""

    game_id: uuid.UUID
    deal_set: str | None
    stream: str

    @classmethod
    def of(cls, game_id: uuid.UUID, table: Table) -> Vault:
        stream = f"deals:{table.deal_set}" if table.deal_set else stream_of(game_id)
        return cls(game_id, table.deal_set, stream)

    def draw(self, hands: int) -> list[bytes]:
        """Every hand's secret, drawn the first time it is asked for.

        Two commands may draw at once: joins racing for a table's last seat, or two
        tables of a deal set starting together. The first draw written is the one kept:
        the other's INSERT waits for it to commit and then skips those hands (ON CONFLICT
        DO NOTHING), and both read back what the vault holds, so a commitment is always
        to the stored secret. The vault is only ever inserted into, never updated."""

        kept = _stored(self.stream)
        missing = [hand for hand in range(hands) if hand not in kept]
        if missing:
            DealSecret.objects.bulk_create(
                (
                    DealSecret(stream=self.stream, hand=hand, secret=secrets.token_bytes(32))
                    for hand in missing
                ),
                ignore_conflicts=True,
            )
            kept = _stored(self.stream)
        return [kept[hand] for hand in range(hands)]

    def secret(self, hand: int) -> bytes:
        """The secret of ``hand``, drawn already."""
        with _VAULTS_LOCK:
            kept = _VAULTS.get(self.stream, {}).get(hand)
        if kept is not None:
            return kept
        if self.deal_set:
            return bytes(DealSecret.objects.get(stream=self.stream, hand=hand).secret)
        vault = _stored(self.stream)
        if hand not in vault:
            raise DealSecret.DoesNotExist(f"{self.stream} has no secret for hand {hand}")
        transaction.on_commit(partial(_keep_vault, self.stream, vault))
        return vault[hand]

    def may_reveal(self, table: Table) -> bool:
        """A hand's secret is revealed once it is over; at a table of a deal set, only
        once every table of the set is over, since it would tell the others their
        cards."""
        if not self.deal_set:
            return True
        return table.status == "finished" and deal_set_over(self.deal_set, finishing=self.game_id)


def keep_vault(game_id: uuid.UUID, table: Table) -> None:
    """Read ``table``'s own vault into this process's memory, outside any transaction
    (so only what is committed), for the moves decided on the server's event loop,
    which may not read the database through Django (games.write.path). A deal set's
    vault is not kept: it is read each time."""
    vault = Vault.of(game_id, table)
    if vault.deal_set:
        return
    with _VAULTS_LOCK:
        if vault.stream in _VAULTS:
            return
    stored = _stored(vault.stream)
    if stored:
        _keep_vault(vault.stream, stored)


def _stored(stream: str) -> dict[int, bytes]:
    rows = DealSecret.objects.filter(stream=stream).values_list("hand", "secret")
    return {hand: bytes(secret) for hand, secret in rows}


def _keep_vault(stream: str, vault: dict[int, bytes]) -> None:
    with _VAULTS_LOCK:
        _VAULTS[stream] = vault
