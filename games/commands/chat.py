"""Words at a table: a player says a quick phrase or a line of free text, and a
reader reports a line to the site's staff (decision 3506).

Neither is an event of the game's log: nothing of the game changes, nor its
version, so no move is refused for a word said meanwhile. A word is a row of
:class:`games.models.TableMessage`, published once written to the table's sockets
on a group of its own (:func:`chat_group_name`), which a server process's sockets on
the game follow with the game's (:mod:`games.live.fanout`); a reader who missed one
reads the table's words again (the REST API's ``chat``).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.guests import Kept
from accounts.models import User
from games.errors import (
    ChatOff,
    ChatTooFast,
    GameNotFound,
    IdempotencyKeyReused,
    MessageNotFound,
    PhrasesOnly,
    PlayersOnly,
    TableCancelledError,
)
from games.models import Game, MessageReport, TableMessage
from games.read.chat import chat_mode, readable_message
from games.read.selectors import CHAT_FREE, CHAT_OFF
from games.visibility import game_seat, message_view
from runtime import outbox
from runtime.errors import TooManyAttempts
from runtime.throttling import AttemptKey, take_attempt
from runtime.transactions import after_commit

# A player's budget of words, across their tables (runtime.throttling's rates).
CHAT_RATE = "table-chat"
# What a process's sockets on a game hear of a word said (games.live.consumer).
CHAT_BROADCAST = "game.chat"


def chat_group_name(game_id: uuid.UUID) -> str:
    return f"chat.{game_id.hex}"


def game_say(
    *,
    game_id: uuid.UUID,
    actor: User,
    phrase: str | None = None,
    text: str | None = None,
    idempotency_key: str | None = None,
) -> TableMessage:
    """``actor``, seated at the game, says the quick ``phrase`` (a key of
    :data:`games.read.chat.PHRASES`) or the line ``text`` (checked as
    :class:`games.commands.inputs.SaySerializer` checks it), as far as the table
    allows (:func:`games.read.chat.chat_mode`) and their budget of words lets them
    (``table-chat``: spent by every word said, whatever the table). Sent again with
    the same ``idempotency_key``, the same word is the answer, said once."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(game_id)
    key = idempotency_key or ""
    earlier = _said_with(game_id, actor, key)
    if earlier is not None:
        return _same_word(earlier, phrase, text)
    mode = chat_mode(game_id)
    if mode == CHAT_OFF:
        raise ChatOff()
    if text is not None and mode != CHAT_FREE:
        raise PhrasesOnly()
    seat = game_seat(game, actor.pk)
    if seat is None:
        raise PlayersOnly()
    if game.status == Game.Status.CANCELLED:
        raise TableCancelledError()
    try:
        take_attempt(AttemptKey(CHAT_RATE, str(actor.pk)))
    except TooManyAttempts as spent:
        raise ChatTooFast(spent.retry_after) from None
    try:
        with transaction.atomic():
            message = TableMessage.objects.create(
                game_id=game_id,
                author=actor,
                seat=seat,
                name=next(taken["alias"] for taken in game.seats if taken["seat"] == seat),
                phrase=phrase or "",
                text=text or "",
                key=key,
            )
    except IntegrityError:
        # Sent twice at once with its key: the one written first is the answer.
        return _same_word(
            TableMessage.objects.get(game_id=game_id, author=actor, key=key), phrase, text
        )
    after_commit(publish_words, game_id, [message_view(message)])
    return message


def _said_with(game_id: uuid.UUID, author: User, key: str) -> TableMessage | None:
    if not key:
        return None
    return TableMessage.objects.filter(game_id=game_id, author=author, key=key).first()


def _same_word(earlier: TableMessage, phrase: str | None, text: str | None) -> TableMessage:
    """The word ``earlier`` said with a key sent again: the answer if it asks the same."""
    if (earlier.phrase, earlier.text) != (phrase or "", text or ""):
        raise IdempotencyKeyReused(earlier.key)
    return earlier


def publish_words(game_id: uuid.UUID, words: list[dict[str, Any]]) -> None:
    """Tell the table's sockets of ``words`` said; a publish still waiting takes them
    too, so none is lost to a newer one (:mod:`runtime.outbox`)."""
    outbox.publish(chat_group_name(game_id), {"type": CHAT_BROADCAST, "words": words}, _more_words)


def _more_words(waiting: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
    return {**newer, "words": [*waiting["words"], *newer["words"]]}


def game_hand_over_words(guest_id: int, account_id: int) -> list[Kept]:
    """The words the guest ``guest_id`` said at the tables, the account's
    ``account_id`` they signed in to (decision 3508): the same person's, as their seats
    are, so the account's from now on (its deletion, the staff's reports). Where the
    account sits at the same table too, the guest's seat stayed the guest's, and so do
    its words. Their idempotency keys go: the guest sends no word again, and one could
    be a key the account used there. Called after the games' part has handed the seats
    over; the tables kept are named by it."""
    said = TableMessage.objects.filter(author_id=guest_id)
    shared = [
        game.id
        for game in Game.objects.filter(pk__in=said.values("game_id")).only("id", "seats")
        if {guest_id, account_id} <= {taken.get("user_id") for taken in game.seats}
    ]
    said.exclude(game_id__in=shared).update(author_id=account_id, key="")
    return []


def player_erase_words(user_id: int) -> None:
    """A deleted account's words at the tables go with it (decision 3506), reported ones
    too: what they said is theirs, and the account row that stays is emptied, not
    deleted, so no CASCADE takes them."""
    TableMessage.objects.filter(author_id=user_id).delete()


def game_report_message(*, game_id: uuid.UUID, reporter: User, message: int) -> MessageReport:
    """``reporter`` reports the message ``message`` said at the game, for the site's
    staff to read (the admin's message reports). Only a message they may read
    (:mod:`games.visibility`: a delayed spectator's are held back); once each."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(game_id)
    said = readable_message(game, message, viewer_id=reporter.pk, now=timezone.now())
    if said is None:
        raise MessageNotFound(message)
    try:
        with transaction.atomic():
            return MessageReport.objects.create(message=said, reporter=reporter)
    except IntegrityError:
        # Reported already (by this reporter, perhaps at once from two tabs).
        return MessageReport.objects.get(message=said, reporter=reporter)


def chat_forget_words(*, before: datetime) -> int:
    """Forget the words said at the tables before ``before``, but those reported, which
    the site's staff read and delete themselves; how many were forgotten."""
    forgotten, _ = TableMessage.objects.filter(said_at__lt=before, reports__isnull=True).delete()
    return forgotten
