import hashlib
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.admin.models import LogEntry
from django.contrib.auth import authenticate, get_user, login, logout
from django.contrib.auth.password_validation import validate_password
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from accounts import erasure, guests
from accounts.errors import InvalidCredentials
from accounts.guests import Kept
from accounts.models import GuestAbsorbed, User
from runtime.throttling import AttemptKey, client_address, take_attempt

DEMO_ORGANIZER_USERNAME = "demo"
DEMO_BOT_NAMES = ("Ana", "Bogdan", "Carmen", "Dorin")
# Enough bots for every seat of the largest table.
BOT_NAMES = (*DEMO_BOT_NAMES, "Elena", "Florin")
# What a bot's display name carries after its name, where nothing else says it is a bot.
BOT_MARK = " (bot)"
USERNAME_TAKEN = _("this username is taken")
# Guests' usernames: a prefix and random hex, never shown (their display name is).
GUEST_PREFIX = "guest-"
# Bumped when the data export's shape changes.
EXPORT_FORMAT = "atu-account-export/2"


def user_ensure_demo_organizer(
    *, username: str = DEMO_ORGANIZER_USERNAME
) -> tuple[User, str | None]:
    """Create the demo organizer unless a user with that name exists; never alter an existing one.

    Returns the user and, when this call created it, its password: drawn at random and
    kept nowhere but in its hash, so only this caller can tell it. The demo organizer
    runs championships and nothing more; an admin is made with ``createsuperuser``.
    """
    with transaction.atomic():
        user, created = User.objects.get_or_create(
            username=username,
            defaults={"display_name": "Demo Organizer", "can_organize": True},
        )
        if not created:
            return user, None
        password = secrets.token_urlsafe(15)
        user.set_password(password)
        user.save(update_fields=["password"])
    return user, password


def user_demo_organizer(user_id: int | None) -> User | None:
    """The demo organizer, if ``user_id`` is theirs."""
    if user_id is None:
        return None
    return User.objects.filter(pk=user_id, username=DEMO_ORGANIZER_USERNAME).first()


@contextmanager
def user_demo_lock(organizer: User) -> Iterator[None]:
    """One transaction, in which one process at a time opens the organizer's demo: two
    runs at once (a task handed out twice) cannot both find none live and open two.
    PostgreSQL's wait here for the organizer's row; SQLite's writers take turns anyway."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=organizer.pk).first()
        yield


def user_ensure_bot_players(*, names: tuple[str, ...] = DEMO_BOT_NAMES) -> list[User]:
    """Bot accounts, one for each name: they hold the seats bots play at demo tables and
    championships. Nobody can log in as them. A name is ``bot-<name>``, or, when a
    person already holds that, the first free ``bot-<name>-<n>``."""
    return [_bot_player(name) for name in names]


def user_bot_name(user: User) -> str:
    """A bot's name without its mark: what it is called at a table, whose page marks
    its seat as a bot's once (a badge, "(bot)" beside its name in the texts)."""
    return user.display.removesuffix(BOT_MARK)


def _bot_player(name: str) -> User:
    base, number = f"bot-{name.lower()}", 1
    while True:
        username = base if number == 1 else f"{base}-{number}"
        user, created = User.objects.get_or_create(
            username=username, defaults={"display_name": f"{name}{BOT_MARK}", "is_bot": True}
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        if user.is_bot:
            return user
        number += 1


def user_register(
    *, username: str, password: str, display_name: str = "", guest: User | None = None
) -> User:
    """Create a player account after the username and password checks; with
    ``guest``, that guest becomes the account instead, keeping its games.

    Raises :class:`django.core.exceptions.ValidationError` by field (``username``,
    ``display_name``, ``password``) when any check fails.
    """
    if guest is not None and not guest.is_guest:
        raise ValueError("only a guest account is turned into a full one")
    user = guest or User()
    user.username, user.display_name = username.strip(), display_name.strip()
    errors: dict[str, list[str]] = {}
    try:
        user.full_clean(exclude=["password"], validate_unique=False)
    except ValidationError as error:
        errors.update(error.message_dict)
    taken = User.objects.filter(username__iexact=user.username).exclude(pk=user.pk)
    if "username" not in errors and taken.exists():
        # In the request's language, as full_clean's and validate_password's are.
        errors["username"] = [str(USERNAME_TAKEN)]
    try:
        validate_password(password, user)
    except ValidationError as error:
        errors["password"] = list(error.messages)
    if errors:
        if guest is not None:
            guest.refresh_from_db()
        raise ValidationError(errors)
    user.set_password(password)
    user.is_guest = False
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        # Someone took the name between the check and the save.
        if guest is not None:
            guest.refresh_from_db()
        raise ValidationError({"username": [USERNAME_TAKEN]}) from None
    return user


def user_sign_up(
    *, request: HttpRequest | Request, username: str, password: str, display_name: str = ""
) -> User:
    """Register (:func:`user_register`) and start the account's session, on the register
    page and the API alike: from a guest's session, that guest becomes the account, the
    same user, their games and entries theirs as they were (decision 3501); from any
    other, a new account."""
    before = get_user(request)
    user = user_register(
        username=username,
        password=password,
        display_name=display_name,
        guest=before if isinstance(before, User) and before.is_guest else None,
    )
    login(request, user)
    return user


def user_create_guest(*, display_name: str = "") -> User:
    """An account for a visitor who plays without one: no password anyone can use,
    named ``display_name`` (the alias a visitor sat down under) or else like "Guest
    4821" (in the visitor's language), organizing nothing. Logged in, it lives in the
    browser's session; :func:`user_register` makes it a full one, the same account."""
    while True:
        username = f"{GUEST_PREFIX}{secrets.token_hex(6)}"
        number = secrets.randbelow(9000) + 1000
        guest = User(
            username=username,
            display_name=display_name or str(_("Guest %(number)s")) % {"number": number},
            is_guest=True,
        )
        guest.set_unusable_password()
        try:
            with transaction.atomic():
                guest.save()
        except IntegrityError:
            continue  # 48 random bits met another guest's: draw again
        return guest


def user_authenticate(
    *,
    username: str,
    password: str,
    address: str | None,
    request: HttpRequest | Request | None = None,
) -> User:
    """The active user with these credentials; :class:`InvalidCredentials` otherwise.

    A failure is counted against ``address`` (whatever the username), the account
    named (whether or not there is one) and the account from ``address``; past any of
    those budgets, :class:`runtime.errors.TooManyAttempts` and no password is checked.
    A success counts nothing: many players behind one address all sign in
    (decision 3301)."""
    attempt = take_attempt(*_sign_in_budgets(username, address))
    user = authenticate(request, username=username, password=password)
    if not isinstance(user, User):
        raise InvalidCredentials()
    attempt.succeeded()
    return user


def _sign_in_budgets(username: str, address: str | None) -> tuple[AttemptKey, ...]:
    # By a digest: any text may be sent as a username, and the store keys stay short.
    account = hashlib.sha256(username.casefold().encode()).hexdigest()[:32]
    return (
        AttemptKey("login", address),
        AttemptKey("login-account", account),
        AttemptKey("login-account-address", None if address is None else f"{account}:{address}"),
    )


@dataclass(frozen=True)
class Absorbed:
    """A guest who signed in to an account: the games of theirs that stay the guest's
    (the account already sits at that table), the rest being the account's."""

    guest_id: int
    kept: tuple[Kept, ...] = ()


def user_absorb_guest(*, guest: User, account: User) -> Absorbed | None:
    """The guest ``guest`` signed in to ``account``, which they had already: the same
    person, so the guest's games become the account's (decision 3507).

    In one transaction: the guest is turned inactive (it has no password: nobody signs
    in as it again) and recorded as the account's (:class:`accounts.models.GuestAbsorbed`),
    and each app hands its part over (:mod:`accounts.guests`): the seats at tables in
    play or waiting by an event in each table's log, the finished games read as the
    account's through that record. A game where the account sits already stays the
    guest's (two seats for one person), and is named in what this returns.

    None when there is nothing to do: ``guest`` is no active guest (already absorbed,
    by a retried request or another sign-in) or ``account`` is no person's account."""
    if not guest.is_guest or account.is_guest or account.is_bot or guest.pk == account.pk:
        return None
    with transaction.atomic():
        # The claim: of two sign-ins at once from the guest's session, one turns it
        # inactive, and the other finds nothing left to hand over.
        claimed = User.objects.filter(pk=guest.pk, is_guest=True, is_active=True).update(
            is_active=False
        )
        if not claimed:
            return None
        GuestAbsorbed.objects.create(guest_id=guest.pk, account_id=account.pk)
        kept = [
            game
            for _name, absorber in guests.absorbers()
            for game in absorber(guest.pk, account.pk)
        ]
    guest.is_active = False
    return Absorbed(guest.pk, tuple(kept))


def user_sign_in(*, request: HttpRequest | Request, user: User) -> Absorbed | None:
    """Start a session for ``user``, whose credentials were checked. From a guest's
    session, the guest's games become ``user``'s first (:func:`user_absorb_guest`),
    on the sign-in page and the API alike; what that did, if anything."""
    before = get_user(request)
    absorbed = None
    if isinstance(before, User) and before.is_guest:
        absorbed = user_absorb_guest(guest=before, account=user)
    login(request, user)
    return absorbed


def user_log_in(
    *, request: HttpRequest | Request, username: str, password: str
) -> tuple[User, str, Absorbed | None]:
    """Start a session for the user with these credentials (:func:`user_sign_in`);
    returns them, their API token, and what became of the session's guest's games."""
    user = user_authenticate(
        username=username, password=password, address=client_address(request), request=request
    )
    absorbed = user_sign_in(request=request, user=user)
    return user, user_token(user=user), absorbed


def user_log_out(*, request: HttpRequest | Request, token: Token | None = None) -> None:
    """End the session, and revoke ``token`` (the one the request came with)."""
    if token is not None:
        Token.objects.filter(pk=token.pk).delete()
    logout(request)


def user_token(*, user: User) -> str:
    """The user's API token, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return str(token.key)


def user_token_for_credentials(
    *, username: str, password: str, address: str | None
) -> tuple[User, str]:
    """The API token of the user with these credentials, counted as
    :func:`user_authenticate` counts them."""
    user = user_authenticate(username=username, password=password, address=address)
    return user, user_token(user=user)


def user_set_email(*, user: User, email: str) -> None:
    """Set (or, empty, clear) the address ``user``'s password reset links go to."""
    user.email = User.objects.normalize_email(email.strip())
    user.save(update_fields=["email"])


def user_delete(*, request: HttpRequest, user: User, password: str) -> None:
    """Delete the signed-in ``user``'s account once their password confirms it, and
    erase every personal datum Atu holds of them (decision 3503).

    The password is checked as a sign-in's is, a wrong one spending the same budgets
    (:class:`InvalidCredentials`, then :class:`runtime.errors.TooManyAttempts`). Then,
    in one transaction, each app erases its part (:mod:`accounts.erasure`: the names
    kept beside the log, the read models projected again) and the account itself is
    emptied: its row stays, as the id the log's games and standings name, with no
    name, address, password or date of the person, shown as "Deleted player". Their
    sessions, API token and the admin's log entries about them go; the request's
    session ends. The guests who signed in to the account were the same person, and
    go with it (decision 3507)."""
    attempt = take_attempt(*_sign_in_budgets(user.username, client_address(request)))
    if not user.has_usable_password() or not user.check_password(password):
        raise InvalidCredentials()
    attempt.succeeded()
    with transaction.atomic():
        absorbed = User.objects.filter(pk__in=guests.guests_of(user.pk)).order_by("pk")
        for person in (*absorbed, user):
            for _name, eraser in erasure.erasers():
                eraser(person.pk)
            _erase_account(person)
    logout(request)


def _erase_account(user: User) -> None:
    Token.objects.filter(user=user).delete()
    _delete_sessions(user.pk)
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk)
    ).delete()
    user.groups.clear()
    user.user_permissions.clear()
    now = timezone.now()
    user.username = f"deleted-{user.pk}"
    while User.objects.filter(username=user.username).exclude(pk=user.pk).exists():
        # Someone registered that name: any other that says nothing of the person.
        user.username = f"deleted-{user.pk}-{secrets.token_hex(3)}"
    user.display_name = user.first_name = user.last_name = user.email = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = user.can_organize = False
    user.last_login = None
    # The day they joined is theirs too: the row keeps the day it was emptied.
    user.date_joined = user.deleted_at = now
    user.save()


def _delete_sessions(user_id: int) -> None:
    """Every session signed in as ``user_id`` (sessions are kept in the database)."""
    mine = str(user_id)
    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(session.get_decoded().get("_auth_user_id")) == mine
    ]
    Session.objects.filter(pk__in=ended).delete()


def user_export(*, user: User) -> dict[str, object]:
    """Everything Atu holds about ``user``, as JSON-ready values: the account, and
    each app's part (:mod:`accounts.erasure`: games, championships, seasons, ratings)."""
    exported: dict[str, object] = {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "account": {
            "id": user.pk,
            "username": user.username,
            "display_name": user.display_name,
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
            "is_guest": user.is_guest,
            "can_organize": user.can_organize,
        },
    }
    for name, exporter in erasure.exporters():
        exported[name] = exporter(user.pk)
    # What each guest who signed in to the account played as that guest (decision 3507).
    exported["guests"] = [
        {"id": guest_id, **{name: exporter(guest_id) for name, exporter in erasure.exporters()}}
        for guest_id in guests.guests_of(user.pk)
    ]
    return exported
