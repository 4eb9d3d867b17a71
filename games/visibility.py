"""What a viewer may see of a game: the one place that decides it.

The REST API, the WebSocket stream and the pages all build their payloads here.
A player sees their own cards when the rules let them (not on the forehead, not
in a blind hand before the bidding is over), everyone else's only on the
forehead, and a played card once it is played. A spectator sees no hidden card
at all: on the forehead that would let them tell a player their own card.

In classic Whist a player sees their own hand, and everyone sees the trump card
the dealer turned until the dealer plays to the first trick.

Whether a viewer may see a game at all is decided here too: every game is public
to every viewer, unless an app that owns some games says otherwise for them (a
private championship's tables, see :class:`Audience`). A game a viewer may not
see does not exist for them: it is not listed, and reading it is a 404.

And how far behind the play they see it: a table with a spectator delay (an event's)
shows its play that many seconds late to everyone but its players and those the app
that owns it says see it live (an event's organizer): :func:`held_back` is the one
rule, and every route that shows a table's progress (its state, its events, its
record, the game list and its filters, the lobby, the table page) shows a held-back
viewer the table as the delay has released it (:func:`released_table`,
:func:`seen_games`). Site staff are held back like anyone: the delay keeps the play
from being relayed to a table, and a staff account is no director of an event. The
words said at a table reach a held-back viewer as late as the play they were said over
(:func:`words_cutoff`, :func:`word_due`; decision 3506).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from cachetools import LRUCache
from django.db.models import Q

from accounts.guests import guests_of
from eventlog import store
from eventlog.store import Recorded
from games import rules
from games.errors import DealSetInPlay, RecordNotReady
from games.rules import (
    Card,
    GameState,
    Phase,
    RuleOptions,
    Suit,
    Visibility,
    classic,
    legal_bids,
    legal_plays,
    visible_holdings,
)
from games.rules.cards import card
from games.table import (
    GameCreated,
    PlayerSeated,
    SeatHandedOver,
    SeatTaken,
    Table,
    fold,
    fold_records,
    projected,
    stream_of,
)

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from games.models import Game, TableMessage

# The longest spectator delay a table may have (an hour).
MAX_SPECTATOR_DELAY = 3600


# --- Who may see a game at all ------------------------------------------------------


@dataclass(frozen=True)
class Audience:
    """Another app's word on who may see the games it owns (the championships: a
    private event's tables, for its organizer and entrants), registered by that app
    when it starts (:func:`add_audience`): the games app knows no app that uses it.
    A game's seated players may always see it."""

    # The ids of the games kept from this viewer (None: anonymous), as a query the
    # lobby's list excludes.
    hidden: Callable[[int | None], Any]
    # Whether this viewer may see this game.
    allows: Callable[[uuid.UUID, int | None], bool]
    # Whether this signed-in viewer directs this game (an event's organizer or one of
    # their deputies): without a seat, they see its play as it happens despite its
    # spectator delay (sees_live), and have its creator's rights (directs_game).
    directs: Callable[[uuid.UUID, int], bool] = lambda game_id, user_id: False


_AUDIENCES: list[Audience] = []


def add_audience(audience: Audience) -> None:
    if audience not in _AUDIENCES:
        _AUDIENCES.append(audience)


# --- Whose seat a viewer plays -------------------------------------------------------


def person_seat(
    holders: Sequence[int | None], user_id: int | None, *, finished: bool
) -> int | None:
    """The seat the person signed in as ``user_id`` plays at a table whose seats are
    held by ``holders`` (user ids by seat, None: empty), if any: their own; at a
    finished table, else the seat of a guest who signed in to their account (decision
    3507: no event is appended to a finished game, so its log still names the guest).
    A table where the account sits itself keeps the guest's seat the guest's, as the
    read models of persons do (:func:`accounts.guests.people_at`). Every route asks
    here: what the seat shows (its hidden cards, the play live) is only ever its
    player's."""
    if user_id is None:
        return None
    if user_id in holders:
        return holders.index(user_id)
    if not finished:
        return None
    for guest in guests_of(user_id):
        if guest in holders:
            return holders.index(guest)
    return None


def table_seat(table: Table, user_id: int | None) -> int | None:
    """:func:`person_seat` at the table the log makes."""
    holders = [None if seat is None else seat.user_id for seat in table.seats]
    return person_seat(holders, user_id, finished=table.status == "finished")


def game_seat(game: Game, user_id: int | None) -> int | None:
    """:func:`person_seat` at a game's read model (its row as written, not as a delay
    shows it)."""
    from games.models import Game

    holders: list[int | None] = [None] * game.player_count
    for taken in game.seats:
        holders[taken["seat"]] = taken.get("user_id")
    return person_seat(holders, user_id, finished=game.status == Game.Status.FINISHED)


def may_see_game(game: Game, user_id: int | None) -> bool:
    """Whether the viewer ``user_id`` (None: anonymous) may see ``game`` at all."""
    if game_seat(game, user_id) is not None:
        return True
    return all(audience.allows(game.id, user_id) for audience in _AUDIENCES)


def visible_games(games: QuerySet[Game], user_id: int | None) -> QuerySet[Game]:
    """``games`` without those the viewer ``user_id`` may not see."""
    for audience in _AUDIENCES:
        games = games.exclude(pk__in=audience.hidden(user_id))
    return games


# --- How far behind the play a viewer sees a game -----------------------------------


def sees_live(game_id: uuid.UUID, user_id: int | None) -> bool:
    """Whether the viewer ``user_id``, without a seat at the game, sees its play as it
    happens despite its spectator delay: only whom an app that owns the game names
    (an event's organizer, see :class:`Audience`); never anonymous, never site staff
    for being staff."""
    return user_id is not None and any(
        audience.directs(game_id, user_id) for audience in _AUDIENCES
    )


def directs_game(game_id: uuid.UUID, creator_id: int | None, user_id: int | None) -> bool:
    """Whether ``user_id`` has the rights of the game's creator (``creator_id``): to
    pause it, seat a bot in any seat, call it off, write its deals down from the room
    as its director. Its creator, or whom an app that owns the game names (an event's
    deputies, see :class:`Audience`); the creator is asked first, so that no app is
    asked of a table being set up."""
    if user_id is None:
        return False
    return user_id == creator_id or any(
        audience.directs(game_id, user_id) for audience in _AUDIENCES
    )


def held_back(game_id: uuid.UUID, delay: int, *, seated: bool, user_id: int | None) -> int:
    """Seconds behind the play that the viewer ``user_id`` sees a game whose spectator
    delay is ``delay``: none for its players and whoever sees it live
    (:func:`sees_live`), the whole delay for everyone else. The one rule every route
    follows."""
    if not delay or seated:
        return 0
    return 0 if sees_live(game_id, user_id) else delay


def game_lag(game: Game, user_id: int | None) -> int:
    """:func:`held_back` for a game's read model."""
    if not game.spectator_delay:
        return 0
    seated = game_seat(game, user_id) is not None
    return held_back(game.id, game.spectator_delay, seated=seated, user_id=user_id)


def same_record(a: Recorded, b: Recorded) -> bool:
    """Whether ``a`` and ``b`` are the very same record of a stream (a write rolled back
    leaves another in its place)."""
    return (a.sequence, a.type, a.recorded_at) == (b.sequence, b.type, b.recorded_at)


@dataclass(frozen=True)
class _Released:
    """A delayed table as the delay released it: the last record folded into it, and
    when the record held back after it comes out (None: none was)."""

    table: Table
    last: Recorded
    due: datetime | None


# Each delayed table as this process last released it to its held-back viewers: the
# delay releases a growing prefix of the log (its cutoff only moves on), so until the
# record held back comes out nothing is read at all, and then only what came after
# the table kept is folded, not the whole log. Checked against the log like the write
# path's cache (games.write.tables): a record rolled back does not match. A kept table
# is never changed: reads copy it.
RELEASED_KEPT = 4096
_RELEASED: LRUCache[uuid.UUID, _Released] = LRUCache(maxsize=RELEASED_KEPT)
_RELEASED_LOCK = threading.Lock()


def released_table(game_id: uuid.UUID, lag: int, now: datetime) -> tuple[Table, datetime | None]:
    """The game as a viewer ``lag`` seconds behind sees it at ``now`` (a private copy),
    and when the next event held back from them comes out (None: none is). ``lag`` is
    the table's spectator delay, the one lag anyone is held back by at a table (the
    table kept is the same for all its held-back viewers)."""
    stream = stream_of(game_id)
    with _RELEASED_LOCK:
        kept = _RELEASED.get(game_id)
    if kept is not None and kept.due is not None and now < kept.due:
        return kept.table.clone(), kept.due
    if kept is not None:
        tail = store.read(stream, after=kept.last.sequence - 1)
        if not tail or not same_record(tail[0], kept.last):
            kept = None
    if kept is not None:
        table, records = kept.table.clone(), tail[1:]
    else:
        table, records = Table(), store.read(stream)
    shown, due = released(records, lag, now)
    fold_records(table, shown)
    last = shown[-1] if shown else None if kept is None else kept.last
    # Kept even from a transaction not committed yet: the next read checks its last
    # record against the log, as the write path's cache does.
    if last is not None:
        with _RELEASED_LOCK:
            _RELEASED[game_id] = _Released(table.clone(), last, due)
    return table, due


def forget_released(game_id: uuid.UUID) -> None:
    """Drop the table kept for the game's held-back viewers: the next read folds it
    from the log again (a seat's alias erased beside the log, decision 3503)."""
    with _RELEASED_LOCK:
        _RELEASED.pop(game_id, None)


# The read model's columns that follow the play: what a held-back viewer of a game's
# summary sees as the delay has released it (the rest is set up before the play).
PLAY_COLUMNS = ("status", "hand", "hands_total", "scores", "places", "version", "paused")


def seen_games(games: Iterable[Game], user_id: int | None, now: datetime) -> list[Game]:
    """``games`` (read-model rows) as the viewer ``user_id`` sees them at ``now``: the
    figures of a table held back from them (:func:`game_lag`) are those the delay
    has released, not the row's live ones. The rows are changed in place."""
    games = list(games)
    for game in games:
        lag = game_lag(game, user_id)
        if not lag:
            continue
        table, _ = released_table(game.id, lag, now)
        values = projected(table)
        for name in PLAY_COLUMNS:
            setattr(game, name, values[name])
        if table.moved_at is not None:
            game.updated_at = table.moved_at
    return games


def seen_status(
    games: QuerySet[Game], status: str, user_id: int | None, now: datetime
) -> QuerySet[Game]:
    """``games`` that are of ``status`` as the viewer ``user_id`` sees them at ``now``:
    a delayed table whose finish is still held back from them is in play for them,
    not finished (the other statuses change with the setting up of a table, which is
    never held back). Only the tables finished within the longest delay are asked."""
    from games.models import Game

    if status not in (Game.Status.PLAYING, Game.Status.FINISHED):
        return games.filter(status=status)
    recent = Game.objects.filter(
        status=Game.Status.FINISHED,
        spectator_delay__gt=0,
        updated_at__gt=now - timedelta(seconds=MAX_SPECTATOR_DELAY),
    ).only("id", "seats", "spectator_delay", "updated_at", "status")
    unreleased = [
        game.id
        for game in recent
        if game.updated_at > now - timedelta(seconds=game.spectator_delay)
        and seen_games([game], user_id, now)[0].status != Game.Status.FINISHED
    ]
    if status == Game.Status.PLAYING:
        return games.filter(Q(status=status) | Q(pk__in=unreleased))
    return games.filter(status=status).exclude(pk__in=unreleased)


# --- What a viewer may read of the words said at a table ----------------------------


def words_cutoff(lag: int, now: datetime) -> datetime | None:
    """The latest a word said at a table may have been said for a viewer ``lag``
    seconds behind its play (:func:`held_back`) to read it at ``now``; None: any.
    Words are held back as the play is: a delayed spectator reads them no sooner than
    they see the play they were said over."""
    return None if not lag else now - timedelta(seconds=lag)


def word_due(said_at: datetime, lag: int) -> datetime | None:
    """When a word said at ``said_at`` becomes readable to a viewer ``lag`` seconds
    behind the play; None: at once."""
    return None if not lag else said_at + timedelta(seconds=lag)


def message_view(message: TableMessage) -> dict[str, Any]:
    """A word said at a table as every reader allowed to read it sees it: who said
    it (their seat and its alias then), and the phrase's key or the text."""
    return {
        "id": message.id,
        "seat": message.seat,
        "name": message.name,
        "phrase": message.phrase or None,
        "text": message.text or None,
        "at": message.said_at.isoformat(),
    }


# --- What a viewer sees of a game ---------------------------------------------------


class Viewer(NamedTuple):
    """Who sees a table. A named tuple: it keys each move's messages in every
    process, and a tuple hashes in C where a frozen dataclass hashes in Python."""

    # None: a spectator (anonymous, or a user without a seat at this table).
    seat: int | None
    # A spectator of a duplicate table whose deal set is still in play sees no card
    # at all: the cards played here are the cards still to come at the other tables.
    screened: bool = False
    # The replay of a finished game (whose record is public): every hand, open.
    replay: bool = False
    # Seconds behind the play this viewer sees the game (held_back): a delayed
    # table's spectator but for those who see it live.
    lag: int = 0


def deal_set_over(deal_set: str, *, finishing: uuid.UUID | None = None) -> bool:
    """Whether every table of ``deal_set`` has finished; ``finishing``, a table whose
    finish is being written (its row does not say so yet), counts as finished."""
    from games.models import Game

    playing = Game.objects.filter(deal_set=deal_set).exclude(status=Game.Status.FINISHED)
    if finishing is not None:
        playing = playing.exclude(pk=finishing)
    return not playing.exists()


def record_public(*, finished: bool, deal_set_playing: bool) -> bool:
    """Whether a game's whole record (every hand as dealt) may be read: once it is
    over, and a duplicate table's once its whole deal set is, since it would show
    the deals still in play at the other tables."""
    return finished and not deal_set_playing


def require_public_record(game: Game, user_id: int | None) -> None:
    """:func:`record_public` for a game's read model (written in one transaction with
    its log: no need to read the log) as the viewer ``user_id`` sees it (a finish the
    delay still holds back from them is not one), raising what keeps the record back."""
    from django.utils import timezone

    from games.models import Game

    seen_games([game], user_id, timezone.now())
    finished = game.status == Game.Status.FINISHED
    playing = bool(game.deal_set) and finished and not deal_set_over(game.deal_set)
    if not record_public(finished=finished, deal_set_playing=playing):
        raise DealSetInPlay() if finished else RecordNotReady()


def viewer_of(
    game_id: uuid.UUID, table: Table, user_id: int | None, *, scorer: int | None = None
) -> Viewer:
    """Who ``user_id`` (None: anonymous) is at the game ``game_id``, whose log says
    ``table``. ``scorer``: the seat a scorer who gave the PIN of a table in the room
    chose (:mod:`games.read.pins`); they sit there, and no card is here to hide."""
    seat = table_seat(table, user_id)
    if seat is None and scorer is not None and table.in_room and 0 <= scorer < table.player_count:
        seat = scorer
    screened = seat is None and bool(table.deal_set) and not deal_set_over(str(table.deal_set))
    lag = held_back(game_id, table.spectator_delay, seated=seat is not None, user_id=user_id)
    return Viewer(seat, screened, lag=lag)


# Who sits where, and the game's start: never held back from a delayed spectator.
SETUP_EVENTS = frozenset(
    {
        "GameCreated",
        "PlayerSeated",
        "SeatAutomated",
        "PlayerLeft",
        "TableCancelled",
        "DealsCommitted",
        "GameStarted",
    }
)


def seen_table(
    game_id: uuid.UUID, table: Table, viewer: Viewer, now: datetime
) -> tuple[Table, datetime | None]:
    """``table`` (the game as the log has it) as ``viewer`` sees it at ``now``: the
    same, or for a held-back viewer the table as the delay has released it, and
    when the next event held back becomes visible (None: none is)."""
    if not viewer.lag:
        return table, None
    return released_table(game_id, viewer.lag, now)


def seen_records(
    game_id: uuid.UUID, table: Table, viewer: Viewer, now: datetime
) -> tuple[list[Recorded], datetime | None]:
    """The log up to ``table``'s version as ``viewer`` sees it at ``now`` (see
    :func:`seen_table`)."""
    records = store.read(stream_of(game_id))[: table.version]
    return released(records, viewer.lag, now)


def released(
    records: Sequence[Recorded], lag: int, now: datetime
) -> tuple[list[Recorded], datetime | None]:
    """The records a viewer ``lag`` seconds behind may see at ``now`` (a prefix of
    ``records``), and when the next of them becomes visible (None: all are).

    Only the play is held back; the setting up of the table is shown at once."""
    if not lag:
        return list(records), None
    cutoff = now - timedelta(seconds=lag)
    for index, record in enumerate(records):
        if record.type not in SETUP_EVENTS and record.recorded_at > cutoff:
            return list(records[:index]), record.recorded_at + timedelta(seconds=lag)
    return list(records), None


def _screen(cards: Sequence[str | None] | None) -> list[None] | None:
    return None if cards is None else [None] * len(cards)


# Every card's text, looked up rather than formatted anew in every view.
_CARD_TEXT = {card(rank, suit): str(card(rank, suit)) for suit in Suit for rank in range(2, 15)}


def _card_text(one: Card) -> str:
    return _CARD_TEXT.get(one) or str(one)


def _cards(cards: Iterable[Card] | None) -> list[str] | None:
    return None if cards is None else [_card_text(c) for c in cards]


def _holdings(game: GameState | classic.ClassicState, viewer: Viewer) -> list[list[str] | None]:
    if viewer.replay:
        return [_cards(cards) for cards in game.holdings]
    if isinstance(game, classic.ClassicState):
        return [_cards(cards) for cards in classic.visible_hands(game, viewer.seat)]
    return [_cards(cards) for cards in visible_holdings(game, viewer.seat)]


def sees_own_cards(game: GameState, viewer: Viewer) -> bool:
    if viewer.seat is None or not game.holdings:
        return False
    return visible_holdings(game, viewer.seat)[viewer.seat] is not None


def event_views(
    records: Sequence[Recorded], viewer: Viewer, after: int = 0
) -> list[dict[str, Any]]:
    """The events after sequence ``after``, as ``viewer`` may see them.

    ``records`` is the whole log (visibility depends on everything before).
    """
    seen = 0
    while seen < len(records) and records[seen].sequence <= after:
        seen += 1
    table = fold(Table(), [record.event for record in records[:seen]])
    return event_views_from(table, records[seen:], viewer)


def event_views_from(
    table: Table, records: Sequence[Recorded], viewer: Viewer
) -> list[dict[str, Any]]:
    """``records``, the events right after ``table``'s version, as ``viewer`` may see
    them; each is folded into ``table`` (the caller's own, changed in place).

    A live stream keeps its table and folds only what is new, instead of folding the
    whole log again for every event.
    """
    return event_views_for(table, records, [viewer])[0]


def event_views_for(
    table: Table, records: Sequence[Recorded], viewers: Sequence[Viewer]
) -> list[list[dict[str, Any]]]:
    """:func:`event_views_from` for each of ``viewers`` (in their order), folding
    ``records`` into ``table`` once for them all."""
    views: list[list[dict[str, Any]]] = [[] for _ in viewers]
    for record in records:
        if record.sequence != table.version + 1:
            raise ValueError(f"event {record.sequence} does not follow version {table.version}")
        event = record.event
        # Only Romanian Whist has bids (and blind hands whose last bid shows cards).
        before = (
            [visible_holdings(table.romanian_game, viewer.seat) for viewer in viewers]
            if isinstance(event, rules.BidPlaced)
            else None
        )
        fold(table, [event])
        table.moved_at = record.recorded_at
        recorded_at = record.recorded_at.isoformat()
        for number, viewer in enumerate(viewers):
            seen = None if before is None else before[number]
            views[number].append(
                {
                    "sequence": record.sequence,
                    "type": record.type,
                    "payload": _payload_view(table, event, record.payload, viewer, seen),
                    "recorded_at": recorded_at,
                }
            )
    return views


def _payload_view(
    table: Table,
    event: Any,
    payload: dict[str, Any],
    viewer: Viewer,
    before: Sequence[Sequence[Card] | None] | None,
) -> dict[str, Any]:
    """The payload of ``event``, just folded into ``table``, as ``viewer`` may see it;
    ``before``: what they saw of the holdings before it, for a bid."""
    if isinstance(event, PlayerSeated | SeatTaken):
        # Players are known at the table by their aliases only.
        return {key: value for key, value in payload.items() if key != "user_id"}
    if isinstance(event, SeatHandedOver):
        # Nor is the account a guest signed in to: the seat keeps its alias.
        return {"seat": event.seat}
    if isinstance(event, GameCreated):
        # Nor is its creator known by their account: the table page tells the creator
        # themself (games.web.views.table).
        return {key: value for key, value in payload.items() if key != "creator_id"}
    if isinstance(event, rules.HandDealt | classic.HandDealt):
        payload = {**payload, "hands": _holdings(table.game, viewer)}
        if viewer.screened:
            payload["trump_card"] = None
        return payload
    if viewer.screened and isinstance(event, rules.CardPlayed):
        return {**payload, "card": None}
    if viewer.screened and isinstance(event, rules.TrickTaken):
        return {**payload, "cards": _screen(payload["cards"])}
    if before is not None:
        # The last bid of a blind hand shows the bidders their own cards.
        game = table.romanian_game
        now = visible_holdings(game, viewer.seat) if game.holdings else ()
        shown = {
            str(seat): _cards(cards)
            for seat, (was, cards) in enumerate(zip(before, now, strict=False))
            if was is None and cards is not None
        }
        if shown:
            return {**payload, "shown": shown}
    return payload


def _trick(leader: int, cards: Sequence[Card]) -> dict[str, Any]:
    return {"leader": leader, "cards": _cards(cards)}


@lru_cache(maxsize=256)
def _options_dict(options: RuleOptions | classic.ClassicOptions) -> dict[str, Any]:
    return options.to_dict()


def _options_view(options: RuleOptions | classic.ClassicOptions) -> dict[str, Any]:
    """``options.to_dict()``, made once per options (they never change once a game is
    created) and copied, as the caller may change what it gets."""
    return {key: _copied(value) for key, value in _options_dict(options).items()}


def _copied(value: Any) -> Any:
    if isinstance(value, list):
        return [_copied(item) for item in value]
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    return value


def _turn_deadline(table: Table) -> str | None:
    """When the seat to act is played by a bot if it has not acted (ISO 8601), while
    a turn timer or a stand-in time runs: counted from the event that began the turn,
    as the automatic move is (games.write.automatic), so a page loaded mid-turn shows
    the time really left."""
    seat, timer = table.to_act, table.timer_seconds
    if seat is None or table.paused or not timer or table.moved_at is None:
        return None
    if table.bots and table.bots[seat] is not None:
        return None  # A bot's seat: played after the bots' delay, not on a timer.
    return (table.moved_at + timedelta(seconds=timer)).isoformat()


class _Lender:
    """Members of a shared view lent by the shared view of a table before, where the
    parts of the table a member is built from are the very same objects: a table's
    values are immutable (replaced, never changed), so the member would come out the
    same. A move then builds, and its changes compare, only what it changed: most
    members (the options, the seats, the schedule, a game's results, which grow to
    dozens of lists) change once a hand at most."""

    def __init__(self, table: Table, since: tuple[Table, dict[str, Any]] | None) -> None:
        self.table = table
        self.before: Table | None = None
        self.view: dict[str, Any] = {}
        if since is not None:
            self.before, self.view = since

    def __call__(
        self, name: str, parts: Callable[[Table], tuple[object, ...]], build: Callable[[], Any]
    ) -> Any:
        if (
            self.before is not None
            and name in self.view
            and all(a is b for a, b in zip(parts(self.before), parts(self.table), strict=True))
        ):
            return self.view[name]
        return build()


def _table_view(game_id: uuid.UUID, table: Table, lend: _Lender) -> dict[str, Any]:
    """What every viewer of either game sees of the table around the cards."""
    return {
        "id": str(game_id),
        "code": table.code,
        "kind": table.kind,
        "place": table.place,
        "status": table.status,
        "version": table.version,
        "player_count": table.player_count,
        "preset": table.preset,
        "options": lend("options", lambda t: (t.options,), lambda: _options_view(table.options)),
        "seats": lend(
            "seats",
            lambda t: (t.seats,),
            lambda: [
                {"seat": number, "alias": seat.alias if seat else None}
                for number, seat in enumerate(table.seats)
            ],
        ),
        "phase": table.game.phase._value_,
        "turn_seconds": table.turn_seconds,
        "turn_deadline": _turn_deadline(table),
        "paused": table.paused,
        "spectator_delay": table.spectator_delay,
        "bots": list(table.bots),
        "deals": lend(
            "deals",
            lambda t: (t.seed, t.commitments, t.revealed),
            lambda: {
                "seed": table.seed,
                "commitments": list(table.commitments),
                "revealed": list(table.revealed),
            },
        ),
    }


# The members of a state view that depend on its viewer; every viewer of a version
# gets the others alike (shared_state_view).
VIEWER_MEMBERS = ("you", "screened", "hand", "legal")


def state_view(game_id: uuid.UUID, table: Table, viewer: Viewer) -> dict[str, Any]:
    """The whole current state of a game as ``viewer`` may see it."""
    return {**shared_state_view(game_id, table), **viewer_state_view(table, viewer)}


def shared_state_view(
    game_id: uuid.UUID, table: Table, since: tuple[Table, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The members of :func:`state_view` that every viewer of the table gets alike:
    all but :data:`VIEWER_MEMBERS`, and no card that anyone may not see. ``since``: a
    table of the same game before, and its shared view, which lends the members
    built from parts of the table that did not change (:class:`_Lender`); the view
    is never changed afterwards, as the members lent are shared."""
    lend = _Lender(table, since)
    game = table.game
    if isinstance(game, classic.ClassicState):
        return _classic_shared_view(game_id, table, game, lend)
    return {
        **_table_view(game_id, table, lend),
        "hands_total": game.deals_to_play,
        "schedule": lend(
            "schedule",
            lambda t: (t.romanian_game.schedule,),
            lambda: [spec.cards for spec in game.schedule],
        ),
        "scores": list(game.scores),
        "places": list(game.places),
        "zero_play": list(game.zero_play),
        "first_dealer": game.first_dealer,
        "entries": [
            {"by": by, "confirmed": confirmed}
            for by, confirmed in zip(game.entered_by, game.confirmed, strict=True)
        ],
        "results": lend(
            "results",
            lambda t: (t.romanian_game.results, t.romanian_game.schedule),
            lambda: [
                {
                    "hand": result.hand,
                    "cards": game.schedule[result.hand].cards,
                    "bids": list(result.bids),
                    "tricks": list(result.tricks),
                    "points": list(result.points),
                    "streak_points": list(result.streak_points),
                    "totals": list(result.totals),
                }
                for result in game.results
            ],
        ),
    }


def viewer_state_view(
    table: Table, viewer: Viewer, parts: HandParts | None = None
) -> dict[str, Any]:
    """The members of :func:`state_view` that depend on ``viewer``
    (:data:`VIEWER_MEMBERS`): who they are, the cards they may see, what they may do.
    ``parts``: :func:`hand_parts` of ``table``, built once for all its viewers."""
    game = table.game
    mine: dict[str, Any] = {"you": viewer.seat, "screened": viewer.screened}
    if isinstance(game, classic.ClassicState):
        return mine | _classic_viewer_view(game, viewer)
    if parts is None or viewer.screened:
        hand = _hand_view(game, viewer)
    elif parts.head is None or parts.tail is None:
        hand = parts.head
    else:
        hand = {**parts.head, "holdings": _holdings(game, viewer), **parts.tail}
    return mine | {"hand": hand, "legal": _legal_view(game, viewer)}


@dataclass(frozen=True)
class HandParts:
    """The members of a Romanian table's hand in play that every unscreened viewer
    sees alike, around the one that differs (the holdings): built once for all the
    viewers a move is shown to, rather than once each. Shared: never changed."""

    # Before the holdings (None: no hand in play), and after them (None: no cards
    # in play yet, or none left).
    head: dict[str, Any] | None
    tail: dict[str, Any] | None


def hand_parts(table: Table) -> HandParts | None:
    """:class:`HandParts` of ``table``'s hand in play; None for a classic table."""
    game = table.game
    if isinstance(game, classic.ClassicState):
        return None
    everyone = Viewer(None)
    hand = _hand_view(game, everyone)
    if hand is None or "holdings" not in hand:
        return HandParts(hand, None)
    names = list(hand)
    cut = names.index("holdings")
    return HandParts(
        {name: hand[name] for name in names[:cut]},
        {name: hand[name] for name in names[cut + 1 :]},
    )


def _classic_shared_view(
    game_id: uuid.UUID, table: Table, game: classic.ClassicState, lend: _Lender
) -> dict[str, Any]:
    """Classic Whist's state: scores by side (seats 0 and 2 against 1 and 3), the
    games of the rubber; the hand in play is the viewer's (_classic_viewer_view)."""
    return {
        **_table_view(game_id, table, lend),
        "sides": [[0, 2], [1, 3]],
        "hands_total": game.options.deals,
        "game": game.game,
        "scores": list(game.scores),
        "games": list(game.games),
        "points": list(game.points),
        "seat_points": list(game.seat_points),
        "places": list(game.places),
        "winner": game.winner,
        "results": [
            {
                "hand": result.hand,
                "game": number,
                "trump": None if trump is None else trump.letter,
                "tricks": list(result.tricks),
                "trick_points": list(result.trick_points),
                "honours": list(result.honours),
                "honour_points": list(result.honour_points),
                "totals": list(result.totals),
            }
            # Not strict: the hand in play has its trump but no result yet.
            for result, number, trump in zip(
                game.results, _game_numbers(game), game.trumps, strict=False
            )
        ],
        "game_results": [
            {
                "game": won.game,
                "side": won.side,
                "scores": list(won.scores),
                "games": list(won.games),
            }
            for won in game.game_results
        ],
    }


def _classic_viewer_view(game: classic.ClassicState, viewer: Viewer) -> dict[str, Any]:
    """Classic Whist's hand in play as ``viewer`` may see it, and the cards they may play."""
    hand: dict[str, Any] | None = None
    if game.phase is classic.Phase.PLAYING:
        hand = {
            "number": game.hand,
            "dealer": game.dealer,
            "turn": game.turn,
            "trump": None if game.trump is None else game.trump.letter,
            # The turned trump while it lies face up, until the dealer's first play.
            "turned_up": None if viewer.screened else _card(game.turned_up),
            **_cards_in_play(game, viewer),
        }
    mine = viewer.seat is not None and viewer.seat == game.turn and not viewer.replay
    return {
        "hand": hand,
        "legal": {"cards": _cards(classic.legal_plays(game)) if mine else []},
    }


def _game_numbers(game: classic.ClassicState) -> list[int]:
    """The game of a rubber each scored hand belongs to: a game ends with the hand
    that takes a side to the target (a tournament is all one game)."""
    numbers, current = [], 0
    for result in game.results:
        numbers.append(current)
        if not game.options.tournament and max(result.totals) >= game.options.target:
            current += 1
    return numbers


def _card(one: Card | None) -> str | None:
    return None if one is None else _card_text(one)


def _hand_view(game: GameState, viewer: Viewer) -> dict[str, Any] | None:
    if game.phase in (Phase.NOT_STARTED, Phase.FINISHED):
        return None
    hand: dict[str, Any] = {
        "number": game.hand,
        "cards": game.cards,
        "dealer": game.dealer,
        "turn": game.turn,
        "visibility": game.visibility._value_ if game.visibility else None,
    }
    if game.phase in (Phase.BIDDING, Phase.PLAYING):
        hand |= {"bids": list(game.bids), **_cards_in_play(game, viewer)}
    return hand


def _cards_in_play(game: GameState | classic.ClassicState, viewer: Viewer) -> dict[str, Any]:
    """The cards of the hand in play, in either game, as ``viewer`` may see them: a
    screened spectator sees none (a played card is still to come at another table)."""
    last = game.last_trick
    shown: dict[str, Any] = {
        "trump_card": None if viewer.screened else _card(game.trump_card),
        "holdings": _holdings(game, viewer),
        "held": [len(cards) for cards in game.holdings],
        "tricks": list(game.tricks),
        "trick": _trick(game.trick_leader, game.trick),
        "last_trick": None
        if last is None
        else {**_trick(last.leader, last.cards), "winner": last.winner},
    }
    if viewer.screened:
        shown["holdings"] = [_screen(cards) for cards in shown["holdings"]]
        shown["trick"]["cards"] = _screen(shown["trick"]["cards"])
        if shown["last_trick"] is not None:
            shown["last_trick"]["cards"] = _screen(shown["last_trick"]["cards"])
    return shown


def _forbidden_bids(game: GameState, seat: int, allowed: list[int]) -> list[dict[str, Any]]:
    """Each bid from 0 to the cards dealt that the bidder may not make, and the rule
    that forbids it, as the rules library words it."""
    forbidden = []
    for bid in range(game.cards + 1):
        if bid in allowed:
            continue
        try:
            rules.decide(game, rules.PlaceBid(seat, bid))
        except rules.RuleError as error:
            forbidden.append({"bid": bid, "code": error.code, "message": error.message})
    return forbidden


def _legal_view(game: GameState, viewer: Viewer) -> dict[str, Any]:
    """What the viewer may do now; a card they cannot see is never named."""
    legal: dict[str, Any] = {
        "bids": [],
        "forbidden_bids": [],
        "cards": [],
        "hidden_card": False,
        "modes": [],
    }
    if viewer.seat is None or viewer.seat != game.turn:
        return legal
    if game.phase is Phase.BIDDING:
        legal["bids"] = list(legal_bids(game))
        legal["forbidden_bids"] = _forbidden_bids(game, viewer.seat, legal["bids"])
    elif game.phase is Phase.PLAYING and sees_own_cards(game, viewer):
        legal["cards"] = _cards(legal_plays(game))
    elif game.phase is Phase.PLAYING:
        # On the forehead: the player plays the card they cannot see.
        legal["hidden_card"] = True
    elif game.phase is Phase.CHOOSING_MODE:
        legal["modes"] = [visibility.value for visibility in Visibility]
    return legal
