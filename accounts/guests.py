"""A guest who signs in to an account they already had is that account: each app that
keeps something of a guest hands its part over, and the read models of persons read a
guest absorbed as its account (decision 3507).

The accounts sit below the apps that keep what a person did, so each of those
registers its part here from its ``AppConfig.ready`` (:func:`on_absorb`), as it
registers its part of an erasure (:mod:`accounts.erasure`);
:func:`accounts.services.user_absorb_guest` calls them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from accounts.models import GuestAbsorbed

# Why a game stays with the guest: the account already sits at that table.
SEATED_THERE = "seated_there"
# Why an entry in an event stays with the guest: the account is entered there already,
# or the event's rounds have begun (decision 3508).
ENTERED_THERE = "entered_there"
EVENT_BEGUN = "event_begun"


@dataclass(frozen=True)
class Kept:
    """A game or an entry of the guest's that stays the guest's: the game's or the
    event's code, and why (a stable code, as :data:`SEATED_THERE`)."""

    code: str
    reason: str


# Hands the app's part of the guest (their id) over to the account (its id), inside the
# sign-in's transaction; returns what it could not hand over.
Absorber = Callable[[int, int], Sequence[Kept]]

_ABSORBERS: dict[str, Absorber] = {}


def on_absorb(name: str, absorber: Absorber) -> None:
    """Have ``absorber`` hand the app ``name``'s part of a guest over to the account
    they signed in to; called in the order registered (``INSTALLED_APPS``'s)."""
    _ABSORBERS[name] = absorber


def absorbers() -> list[tuple[str, Absorber]]:
    return list(_ABSORBERS.items())


def guests_of(account_id: int) -> list[int]:
    """The guests who signed in to ``account_id``, the first first."""
    return list(
        GuestAbsorbed.objects.filter(account_id=account_id)
        .order_by("at", "guest_id")
        .values_list("guest_id", flat=True)
    )


def accounts_of(user_ids: Iterable[int]) -> dict[int, int]:
    """The account each of ``user_ids`` that is a guest absorbed is now, in one query;
    the others are not in it."""
    ids = set(user_ids)
    if not ids:
        return {}
    return dict(
        GuestAbsorbed.objects.filter(guest_id__in=ids).values_list("guest_id", "account_id")
    )


def people_at(seated: Iterable[int], accounts: Mapping[int, int]) -> dict[int, int]:
    """Who each of the users ``seated`` at one table is, for the read models of
    persons (``accounts``: :func:`accounts_of` them): a guest absorbed is their
    account, unless that account sits at the same table itself (two seats for one
    person: the guest's stays the guest's)."""
    present = set(seated)
    return {
        user: account
        if (account := accounts.get(user)) is not None and account not in present
        else user
        for user in present
    }
