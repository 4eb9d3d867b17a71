"""Checking a game from its log, independently of what the log claims.

The log is replayed event by event, under the rules of the game the table plays:
Romanian Whist or classic Whist (a whist drive's tables too). Every move in it (a
bid, a card, a one-card mode choice, a zero-play announcement, time called; at a
table in the room a deal written down, corrected or confirmed) is decided again
with the rules on the state before it, and must yield exactly the events the log
holds after it: so every trick winner, hand score, streak, running total, game of
a rubber and the final ranking is recomputed rather than read. Every deal is dealt
again from its revealed secret, the first dealer is drawn again from the committed
seed, and every revealed secret must hash to the commitment recorded before the
first deal. A table in the room deals no cards here, so it commits to none: the
report says so in a note, which is no problem.

A problem does not stop the check: the replay goes on from what the log says, so
that one altered event is reported once rather than at every later move. Only a
log that can no longer be folded at all (a card played that was never dealt,
say), or that folds into a state the rules never reach and cannot decide on (a
deal confirmed whose writing the log lacks), ends the replay of the rules there.
Whatever the log holds, the check reports it and raises nothing.

Hands are numbered from 0, as in the log and the game record.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from eventlog import store
from games import rules
from games.errors import GameNotFound
from games.rules import (
    AnnounceZeroPlay,
    BidPlaced,
    CallTime,
    CardPlayed,
    ChooseOneCardMode,
    ConfirmDeal,
    CorrectDeal,
    DealConfirmed,
    DealCorrected,
    DealHand,
    DealRecorded,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    OneCardModeChosen,
    PlaceBid,
    PlayCard,
    RecordDeal,
    RuleError,
    StartGame,
    TimeCalled,
    TrickTaken,
    ZeroPlayAnnounced,
    classic,
)
from games.rules.shuffle import commitment, draw
from games.table import (
    CLASSIC,
    PLACES,
    ROMANIAN,
    AnyEvent,
    DealRevealed,
    DealsCommitted,
    GameCreated,
    PlayerLeft,
    PlayerSeated,
    SeatAutomated,
    SeatHandedOver,
    Table,
    TableCancelled,
    TableEvent,
    encode,
    fold,
    stream_of,
)
from games.table.deciders import decided, start_command

# What each kind of rules event, of either game, is checked as, and how the report
# counts it.
_CHECKS: dict[type[Any], tuple[str, str]] = {
    GameStarted: ("first-dealer", "first dealer"),
    classic.MatchStarted: ("first-dealer", "first dealer"),
    OneCardModeChosen: ("mode", "one-card mode choices"),
    HandDealt: ("deal", "deals"),
    classic.HandDealt: ("deal", "deals"),
    BidPlaced: ("bid", "bids"),
    CardPlayed: ("play", "card plays"),
    TrickTaken: ("trick", "tricks"),
    HandScored: ("score", "hand scores"),
    classic.HandScored: ("score", "hand scores"),
    ZeroPlayAnnounced: ("zero-play", "zero-play announcements"),
    DealRecorded: ("recorded-deal", "recorded deals"),
    DealCorrected: ("correction", "corrections"),
    DealConfirmed: ("confirmation", "confirmations"),
    TimeCalled: ("time", "time call"),
    classic.GameWon: ("game", "games won"),
    GameFinished: ("ranking", "final ranking"),
    classic.MatchFinished: ("ranking", "final ranking"),
}
# The order the report lists its counts in.
COUNT_LABELS = (
    "events",
    "secrets",
    *dict.fromkeys(label for _, label in _CHECKS.values()),
)
# Each game's rules events, and its name in the report.
_GAME_EVENTS: dict[str, tuple[type[Any], ...]] = {
    ROMANIAN: tuple(rules.EVENT_TYPES.values()),
    CLASSIC: tuple(classic.EVENT_TYPES.values()),
}
_GAME_NAMES = {ROMANIAN: "Romanian Whist", CLASSIC: "classic Whist"}
# A rules event of either game.
_RulesEvent = rules.Event | classic.ClassicEvent
# The command each move of the log says was decided, but for the start and the deals
# (their seed and secrets are the log's to check first).
_MOVES: dict[type[Any], Callable[[Any], rules.Command]] = {
    OneCardModeChosen: lambda e: ChooseOneCardMode(e.seat, e.visibility),
    BidPlaced: lambda e: PlaceBid(e.seat, e.bid),
    CardPlayed: lambda e: PlayCard(e.seat, e.card),
    ZeroPlayAnnounced: lambda e: AnnounceZeroPlay(e.seat),
    DealRecorded: lambda e: RecordDeal(e.hand, e.bids, e.tricks, e.by),
    DealCorrected: lambda e: CorrectDeal(e.hand, e.bids, e.tricks, e.reason, e.by),
    DealConfirmed: lambda e: ConfirmDeal(e.hand, e.by),
    TimeCalled: lambda e: CallTime(),
}
# Why a table in the room's log has no commitment, said in its report.
_ROOM_NOTE = (
    "a table in the room: its cards are dealt at the table, so its log commits to no deal "
    "and reveals no secret; its first dealer, drawn from a seed the log does not keep, is "
    "checked as a seat of the table"
)


@dataclass(frozen=True)
class Problem:
    """One thing the log says that the check does not confirm."""

    # A stable name: sequence, table, order, commitment, secret, first-dealer,
    # mode, deal, bid, play, trick, score, zero-play, game, ranking, recorded-deal,
    # correction, confirmation, time, move, replay.
    check: str
    message: str
    sequence: int | None = None
    hand: int | None = None

    def __str__(self) -> str:
        where = []
        if self.sequence is not None:
            where.append(f"event {self.sequence}")
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}[{self.check}] {self.message}"


@dataclass
class VerificationReport:
    stream: str
    # The last sequence number of the log, and the game's status as the log has it.
    version: int
    status: str
    problems: list[Problem] = field(default_factory=list)
    # How many of each thing were checked (see COUNT_LABELS).
    checked: dict[str, int] = field(default_factory=dict)
    # Hands dealt whose secret is not revealed yet: not checkable, not failed.
    pending: list[int] = field(default_factory=list)
    # What the check could not do by the nature of the game, which is no problem.
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """The report as text, one line each."""
        checked = ", ".join(
            f"{self.checked[label]} {label}" for label in COUNT_LABELS if self.checked.get(label)
        )
        lines = [
            f"stream {self.stream}: {self.status}, {self.version} events",
            f"checked: {checked or 'nothing'}",
        ]
        if self.pending:
            hands = ", ".join(str(hand) for hand in self.pending)
            lines.append(f"pending: hand {hands} (secret not revealed yet)")
        lines.extend(f"note: {note}" for note in self.notes)
        if self.problems:
            lines.append(f"FAILED: {len(self.problems)} problem(s)")
            lines.extend(f"  {problem}" for problem in self.problems)
        else:
            lines.append("OK: every check passed")
        return lines


def verify_game(game_id: uuid.UUID) -> VerificationReport:
    """Check game ``game_id`` from its log; :class:`GameNotFound` if it has none."""
    return verify_stream(stream_of(game_id))


def verify_stream(stream: str) -> VerificationReport:
    records = store.read(stream)
    if not records:
        raise GameNotFound(stream)
    return verify_records(records, stream=stream)


def verify_records(records: Sequence[store.Recorded], *, stream: str = "") -> VerificationReport:
    """Check a game's whole log, given as its records in order."""
    return _Verifier(records, stream).run()


_RULES_EVENTS = tuple({cls for events in _GAME_EVENTS.values() for cls in events})
_CONSEQUENCES = (
    TrickTaken,
    HandScored,
    GameFinished,
    classic.HandScored,
    classic.GameWon,
    classic.MatchFinished,
)


def _is_consequence(event: AnyEvent | None) -> bool:
    """An event no player asks for: it only ever follows the move that caused it."""
    if isinstance(event, BidPlaced):
        return event.forced
    return isinstance(event, _CONSEQUENCES)


def _value(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _type(event: AnyEvent) -> str:
    """The event's type as the log stores it (classic Whist's own under their prefix)."""
    return encode(event)[0]


def _differences(logged: AnyEvent, expected: AnyEvent) -> str:
    """What differs between two events of the same type, field by field."""
    if type(logged) is not type(expected):
        return f"the log has {_type(logged)}, the rules give {_type(expected)}"
    (kind, said), computed = encode(logged), encode(expected)[1]
    parts = [
        f"{f.name}: the log has {_value(said[f.name])}, the rules give {_value(computed[f.name])}"
        for f in fields(logged)
        if said[f.name] != computed[f.name]
    ]
    return f"{kind} " + "; ".join(parts)


def _is_seat(table: Table, seat: int) -> bool:
    """Whether the table has seat ``seat`` (the seats its creation set out, if any)."""
    return 0 <= seat < len(table.seats)


def _under_way(table: Table) -> bool:
    """Whether the table's game has started (both games name their phases alike)."""
    return table.game.phase.value != "not-started"


class _Verifier:
    def __init__(self, records: Sequence[store.Recorded], stream: str) -> None:
        self.records = list(records)
        self.stream = stream
        self.table = Table()
        self.problems: list[Problem] = []
        self.counts: Counter[str] = Counter()
        self.events: list[AnyEvent | None] = []
        # Why each unreadable event could not be read, by index in the log.
        self.unreadable: dict[int, str] = {}
        # The first revealed secret of each hand, looked ahead so that a deal can
        # be recomputed where it stands in the log.
        self.secrets: dict[int, bytes] = {}
        self.dealt: list[int] = []
        self.revealed: set[int] = set()
        # Whether the log commits to its deals anywhere: a log that never does is told
        # once, not at every deal.
        self.committed = False
        # Set when the log cannot be folded any further by the rules.
        self.broken = False

    def problem(
        self, check: str, message: str, sequence: int | None = None, hand: int | None = None
    ) -> None:
        self.problems.append(Problem(check, message, sequence, hand))

    def run(self) -> VerificationReport:
        self._decode()
        self.counts["events"] = len(self.records)
        index = 0
        while index < len(self.records):
            record, event = self.records[index], self.events[index]
            expected_sequence = self.records[index - 1].sequence + 1 if index else 1
            if record.sequence != expected_sequence:
                self.problem(
                    "sequence",
                    f"expected event {expected_sequence} next, the log has {record.sequence}",
                    record.sequence,
                )
            if event is None:
                self._unreadable(index)
                index += 1
            elif isinstance(event, TableEvent):
                self._table_event(index, event)
                index += 1
            elif isinstance(event, _GAME_EVENTS.get(self.table.kind, ())):
                index = self._move(index, event)
            else:
                # An event of the other game: these rules cannot decide it.
                game = _GAME_NAMES.get(self.table.kind, f"a {self.table.kind} table")
                message = f"{record.type} is not an event of {game}"
                self.problem("replay", message, record.sequence)
                index += 1

        pending = self._finish()
        last = self.records[-1].sequence if self.records else 0
        return VerificationReport(
            stream=self.stream,
            version=last,
            status=self.table.status,
            problems=self.problems,
            checked={label: self.counts[label] for label in COUNT_LABELS if self.counts[label]},
            pending=pending,
            notes=[_ROOM_NOTE] if self.table.in_room else [],
        )

    # Reading the log.

    def _decode(self) -> None:
        for index, record in enumerate(self.records):
            try:
                event: AnyEvent | None = record.event
            except Exception as error:  # an unreadable payload is reported where it stands
                event = None
                self.unreadable[index] = repr(error)
            self.events.append(event)
            self.committed = self.committed or isinstance(event, DealsCommitted)
            if isinstance(event, DealRevealed) and event.hand not in self.secrets:
                # A secret that is not hex is reported where it stands.
                with contextlib.suppress(ValueError):
                    self.secrets[event.hand] = bytes.fromhex(event.secret)

    def _unreadable(self, index: int) -> None:
        record, reason = self.records[index], self.unreadable[index]
        if not self.broken:
            reason += "; the rules cannot replay the log past it"
        self.problem("replay", f"cannot read {record.type}: {reason}", record.sequence)
        self.broken = True

    def _fold(self, index: int, events: list[AnyEvent]) -> None:
        try:
            fold(self.table, events)
        except Exception as error:  # a log the rules cannot fold ends here
            sequence = self.records[index].sequence
            self.problem(
                "replay",
                f"the log cannot be replayed past event {sequence}: {error!r}",
                sequence,
            )
            self.broken = True

    # Events around the rules.

    def _table_event(self, index: int, event: AnyEvent) -> None:
        sequence = self.records[index].sequence
        table = self.table
        if isinstance(event, GameCreated):
            if index != 0:
                message = "GameCreated must be the first event, and only once"
                self.problem("table", message, sequence)
                return
            if event.place not in PLACES:
                message = f"a table is played online or in the room, not {event.place!r}"
                self.problem("table", message, sequence)
        elif isinstance(event, PlayerSeated):
            if not table.code:
                self.problem("order", "a player is seated before the table exists", sequence)
                return
            if not _is_seat(table, event.seat) or table.seats[event.seat] is not None:
                self.problem("table", f"seat {event.seat} is not a free seat", sequence)
                return
            if _under_way(table):
                self.problem("order", "a player is seated after the game started", sequence)
        elif isinstance(event, PlayerLeft | TableCancelled):
            if isinstance(event, PlayerLeft) and not (
                _is_seat(table, event.seat) and table.seats[event.seat] is not None
            ):
                self.problem("table", f"nobody sits in seat {event.seat} to leave it", sequence)
                return
            if _under_way(table) or table.cancelled:
                self.problem("order", f"{type(event).__name__} after the table closed", sequence)
        elif isinstance(event, DealsCommitted):
            self._committed(sequence, event)
        elif isinstance(event, DealRevealed):
            self._revealed(sequence, event)
        elif isinstance(event, SeatHandedOver):
            held = table.seats[event.seat] if _is_seat(table, event.seat) else None
            if held is None or held.user_id != event.from_user:
                message = f"seat {event.seat} is not user {event.from_user}'s to hand over"
                self.problem("table", message, sequence)
                return
        elif isinstance(event, SeatAutomated) and not _is_seat(table, event.seat):
            self.problem("table", f"there is no seat {event.seat} to give a bot", sequence)
        self._fold(index, [event])

    def _committed(self, sequence: int, event: DealsCommitted) -> None:
        table = self.table
        if table.in_room:
            message = "a table in the room commits to no deal: its cards are not here"
            self.problem("commitment", message, sequence)
        if table.seed or table.commitments:
            self.problem("commitment", "the deals are committed a second time", sequence)
        if _under_way(table):
            self.problem("order", "the deals are committed after the game started", sequence)
        try:
            hands = table.hands_to_commit
        except RuleError:
            # Players the rules do not seat at this game: its start is refused, and
            # reported, there.
            return
        if len(event.commitments) != hands:
            self.problem(
                "commitment",
                f"{len(event.commitments)} commitments for a game of {hands} hands",
                sequence,
            )

    def _revealed(self, sequence: int, event: DealRevealed) -> None:
        hand, table = event.hand, self.table
        if table.in_room:
            message = "a table in the room reveals no secret: its cards are not here"
            self.problem("secret", message, sequence, hand)
            return
        if hand in self.revealed:
            self.problem("secret", "this hand's secret is revealed a second time", sequence, hand)
            return
        self.revealed.add(hand)
        # (Past a log the rules cannot fold, when hands end is no longer known.)
        if not self.broken and hand >= len(table.game.results):
            self.problem("secret", "the secret is revealed before the hand is over", sequence, hand)
        if hand >= len(table.commitments):
            if self.committed:
                message = "no commitment was recorded for this hand"
                self.problem("commitment", message, sequence, hand)
            return
        try:
            secret = bytes.fromhex(event.secret)
        except ValueError:
            message = f"the secret {event.secret!r} is not hexadecimal"
            self.problem("secret", message, sequence, hand)
            return
        self.counts["secrets"] += 1
        digest, promised = commitment(secret), table.commitments[hand]
        if digest != promised:
            self.problem(
                "secret",
                f"SHA-256 of the revealed secret is {digest}, the commitment was {promised}",
                sequence,
                hand,
            )

    # Moves and what they lead to.

    def _move(self, index: int, leader: _RulesEvent) -> int:
        """Check the move at ``index`` and the events it led to; the index after them."""
        end = index + 1
        while end < len(self.events) and _is_consequence(self.events[end]):
            end += 1
        group = [e for e in self.events[index:end] if isinstance(e, _RULES_EVENTS)]
        sequence = self.records[index].sequence
        if self.broken:
            return end
        hand = getattr(leader, "hand", None)
        if _is_consequence(leader):
            self.problem("move", f"{_type(leader)} is not the outcome of any move", sequence, hand)
        else:
            command = self._command(sequence, leader)
            if command is not None:
                check = _CHECKS[type(leader)][0]
                try:
                    expected = decided(self.table, command)
                except RuleError as error:
                    self.problem(check, f"the rules refuse this: {error.message}", sequence, hand)
                except Exception as error:  # a state the rules never lead to ends the replay
                    message = (
                        f"the rules cannot decide this on the state the log led to "
                        f"({error!r}): the log cannot be replayed past event {sequence}"
                    )
                    self.problem("replay", message, sequence, hand)
                    self.broken = True
                    return end
                else:
                    self._compare(index, group, expected)
        self._fold(index, list(group))
        return end

    def _command(
        self, sequence: int, leader: _RulesEvent
    ) -> rules.Command | classic.Command | None:
        """The command that the log says was decided, or None when it cannot be checked."""
        if isinstance(leader, GameStarted | classic.MatchStarted):
            return self._start(sequence, leader)
        if isinstance(leader, HandDealt | classic.HandDealt):
            return self._deal(sequence)
        move = _MOVES.get(type(leader))
        if move is None:
            # Each move of either game has its command above: this says which is missing
            # rather than stopping the check.
            message = f"{_type(leader)} is no move the verification knows"
            self.problem("replay", message, sequence, getattr(leader, "hand", None))
            return None
        return move(leader)

    def _start(
        self, sequence: int, leader: GameStarted | classic.MatchStarted
    ) -> rules.StartGame | classic.StartMatch | None:
        table = self.table
        if table.in_room and isinstance(leader, GameStarted):
            return self._room_start(sequence, leader)
        if not self.committed:
            # A log without commitments (none is known): its deals were never
            # promised, so only its play can be checked.
            message = "the log commits to no deal: no deal can be checked against one"
            self.problem("commitment", message, sequence)
            return None
        if not table.seed:
            self.problem("order", "the game starts before its deals are committed", sequence)
            return None
        if not table.is_full:
            self.problem("table", "the game starts with a seat empty", sequence)
        try:
            seed = bytes.fromhex(table.seed)
        except ValueError:
            self.problem("commitment", f"the seed {table.seed!r} is not hexadecimal", sequence)
            return None
        return start_command(table, seed)

    def _room_start(self, sequence: int, leader: GameStarted) -> StartGame | None:
        """A table in the room draws its first dealer from a seed it keeps nowhere (its
        cards are dealt at the table, so nothing is committed): the rules start it from
        a seed that draws the first dealer the log names, if that is a seat."""
        table = self.table
        if not table.is_full:
            self.problem("table", "the game starts with a seat empty", sequence)
        dealer, players = leader.first_dealer, table.player_count
        if type(dealer) is not int or not 0 <= dealer < players:
            self.problem(
                "first-dealer", f"the first dealer {dealer} is no seat of this table", sequence
            )
            return None
        seed = next(
            seed
            for number in itertools.count()
            if draw(players, seed := number.to_bytes(16, "big")) == dealer
        )
        return StartGame(players, table.romanian_options, seed, recorded=True)

    def _deal(self, sequence: int) -> DealHand | None:
        table = self.table
        hand = table.game.hand
        if table.in_room:
            self.problem("deal", "a table in the room deals no cards here", sequence, hand)
            return None
        self.dealt.append(hand)
        if self.committed and hand >= len(table.commitments):
            self.problem(
                "order", "the hand is dealt before its secret is committed", sequence, hand
            )
        secret = self.secrets.get(hand)
        return None if secret is None else DealHand(secret)

    def _compare(self, index: int, logged: list[AnyEvent], expected: list[AnyEvent]) -> None:
        for offset in range(max(len(logged), len(expected))):
            if offset < len(expected):
                self.counts[_CHECKS[type(expected[offset])][1]] += 1
            if offset >= len(logged):
                event = expected[offset]
                after = self.records[index + len(logged) - 1].sequence
                self.problem(
                    _CHECKS[type(event)][0],
                    f"the rules give {_type(event)} {_value(encode(event)[1])} "
                    f"after event {after}; the log has none",
                    after,
                    getattr(event, "hand", None),
                )
                continue
            event = logged[offset]
            sequence = self.records[index + offset].sequence
            if offset >= len(expected):
                self.problem(
                    _CHECKS[type(event)][0],
                    f"the log has {_type(event)} here; the rules give no such event",
                    sequence,
                    getattr(event, "hand", None),
                )
            elif event != expected[offset]:
                self.problem(
                    _CHECKS[type(event)][0],
                    _differences(event, expected[offset]),
                    sequence,
                    getattr(event, "hand", None),
                )

    def _finish(self) -> list[int]:
        """The last checks, once the whole log is read; the hands still pending."""
        if not self.records or not isinstance(self.events[0], GameCreated):
            self.problem("table", "the log does not begin with GameCreated")
        scored = len(self.table.game.results)
        pending = []
        for hand in self.dealt:
            if hand in self.revealed:
                continue
            if hand < scored and self.committed:
                message = "the hand is over but its secret was never revealed"
                self.problem("secret", message, None, hand)
            else:
                pending.append(hand)
        return pending
