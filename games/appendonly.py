"""The tables of the site that are only ever appended to, each with its guard
(:mod:`eventlog.appendonly`): the event log, and the games' own deal-secret vault.
``GUARDS`` is for what grants the application's role its privileges and what wipes
a test database."""

from eventlog.appendonly import EVENT_LOG, Guard

VAULT_TABLE = "games_dealsecret"
VAULT = Guard(VAULT_TABLE, "deal_vault", "atu_refuse_vault_change", "the deal-secret vault")

GUARDS = {guard.table: guard for guard in (EVENT_LOG, VAULT)}
