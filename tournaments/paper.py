"""What an organizer prints for a round: the seating list to post on the wall, and for
each table in the room its card (the scorer's QR code and PIN) and its score sheet,
drawn for the table's deals and filled in by pen.

Reads only: the round's tables from the read models (who sits where, where each is
played), each table's game as its log has it now (who deals first: known once every
seat is taken, which an event's table is from its start), and the rules' schedule of
its deals.
"""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import segno
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.errors import GameNotFound
from games.models import Game
from games.read.pins import table_pin
from games.rules import RuleOptions, Scoring, Visibility, build_schedule
from games.rules.schedule import DealSpec
from games.table import ROOM, Table
from games.write.tables import load_table
from tournaments.errors import RoundNotFound
from tournaments.models import Entry, Event, TableResult

# A score sheet of more players than this is printed across the page (landscape).
PORTRAIT_PLAYERS = 4
# Medium error correction: a card a little worn or creased still scans.
QR_ERROR = "m"

# The scorer page of a table by its code and PIN ("" for the address without it).
ScorerLink = Callable[[str, str], str]


@dataclass(frozen=True)
class Seat:
    number: int
    name: str
    deals_first: bool


@dataclass(frozen=True)
class PaperTable:
    number: int
    game_id: uuid.UUID
    code: str
    in_room: bool
    seats: tuple[Seat, ...]
    # The first dealer's name; empty while the table waits for a seat.
    first_dealer: str


@dataclass(frozen=True)
class NameLine:
    name: str
    table: int
    seat: int
    in_room: bool


@dataclass(frozen=True)
class Seating:
    round: int
    tables: tuple[PaperTable, ...]
    by_name: tuple[NameLine, ...]


@dataclass(frozen=True)
class TableCard:
    table: PaperTable
    pin: str
    # The scorer page without the PIN, to type; the QR code holds it with the PIN.
    address: str
    qr: SafeString


@dataclass(frozen=True)
class SheetDeal:
    number: int
    cards: int
    dealer: str
    reminder: str


@dataclass(frozen=True)
class ScoreSheet:
    table: PaperTable
    deals: tuple[SheetDeal, ...]
    scoring: str
    streaks: tuple[str, ...]
    wide: bool


@dataclass(frozen=True)
class RoundPapers:
    """A round's tables in the room, each with its card and its score sheet."""

    round: int
    cards: tuple[TableCard, ...]
    sheets: tuple[ScoreSheet, ...]


# --- The round's tables ---------------------------------------------------------------


def _rows(event: Event, number: int) -> list[TableResult]:
    if not 1 <= number <= event.rounds_started:
        raise RoundNotFound(number)
    return list(TableResult.objects.filter(event_id=event.id, round=number))


def _paper_table(row: TableResult, table: Table, names: dict[int, str]) -> PaperTable:
    started = table.status != "open"
    first = table.game.first_dealer if started else None
    seats = tuple(
        Seat(index + 1, names.get(int(player), str(player)), index == first)
        for index, player in enumerate(row.players)
    )
    return PaperTable(
        number=row.number,
        game_id=row.game_id,
        code=table.code,
        in_room=table.in_room,
        seats=seats,
        first_dealer="" if first is None else seats[first].name,
    )


def _tables(
    event: Event, rows: list[TableResult], *, room_only: bool
) -> list[tuple[PaperTable, Table]]:
    names = dict(Entry.objects.filter(event_id=event.id).values_list("player_id", "name"))
    tables = []
    for row in rows:
        table = load_table(row.game_id)
        if room_only and not table.in_room:
            continue
        tables.append((_paper_table(row, table, names), table))
    return tables


def _collation(name: str) -> str:
    """A name as an alphabetical list orders it: Ștefan among the S, whatever the case."""
    letters = unicodedata.normalize("NFKD", name)
    return "".join(c for c in letters if not unicodedata.combining(c)).casefold()


def seating(event: Event, number: int) -> Seating:
    """Round ``number``'s seating list: by table, every seat in order, and by name."""
    tables = tuple(paper for paper, _ in _tables(event, _rows(event, number), room_only=False))
    lines = [
        NameLine(seat.name, table.number, seat.number, table.in_room)
        for table in tables
        for seat in table.seats
    ]
    lines.sort(key=lambda line: (_collation(line.name), line.name, line.table, line.seat))
    return Seating(number, tables, tuple(lines))


def room_tables(event: Event) -> list[tuple[int, str]]:
    """The number and code of each table in the room of the event's current round."""
    rows = TableResult.objects.filter(event_id=event.id, round=event.rounds_started)
    numbers = {row.game_id: row.number for row in rows}
    games = Game.objects.filter(pk__in=list(numbers), place=ROOM).values_list("id", "code")
    return sorted((numbers[game_id], code) for game_id, code in games)


# --- The table card ---------------------------------------------------------------------


def qr_svg(url: str) -> SafeString:
    """``url`` as a QR code: SVG, black on white, sized by the page's style."""
    svg = segno.make_qr(url, error=QR_ERROR).svg_inline(
        scale=1, border=4, omitsize=True, dark="#000", light="#fff", svgclass="qr", lineclass=None
    )
    # segno writes the markup; the URL is only in the modules' drawing, never as text.
    return mark_safe(svg)


def _card(paper: PaperTable, link: ScorerLink) -> TableCard:
    pin = table_pin(paper.game_id)
    return TableCard(paper, pin, link(paper.code, ""), qr_svg(link(paper.code, pin)))


# --- The score sheet --------------------------------------------------------------------


def _reminder(spec: DealSpec) -> str:
    """What the bidding of a deal must keep to, as the sheet reminds the table."""
    if spec.forced_bid is not None:
        return _("all bid %(bid)s") % {"bid": spec.forced_bid}
    notes = {
        Visibility.BLIND: _("blind"),
        Visibility.FOREHEAD: _("on the forehead"),
        None: _("the dealer chooses how"),
    }
    rule = _("dealer: not %(cards)s - (sum of bids)") % {"cards": spec.cards}
    note = notes.get(spec.visibility)
    return f"{note} · {rule}" if note else rule


def scoring_words(options: RuleOptions) -> str:
    """How a deal scores, as the players write it down."""
    exact = {
        Scoring.FIVE_PLUS_BID: _("A bid made exactly scores 5 + the bid"),
        Scoring.ONE_PLUS_BID: _("A bid made exactly scores 1 + the bid"),
        Scoring.BID_PLUS_CARDS: _("A bid made exactly scores the bid + the cards dealt"),
        Scoring.TRIANGULAR: _("A bid made exactly scores 5 + (1 + 2 + … + the bid)"),
    }[options.scoring]
    missed = (
        _("a missed bid loses 1 + 2 + … + the tricks of difference")
        if options.scoring is Scoring.TRIANGULAR
        else _("a missed bid loses 1 point per trick of difference")
    )
    return f"{exact}; {missed}."


def streak_words(options: RuleOptions) -> tuple[str, ...]:
    """The streak bonus and penalty in words, or that there are none."""
    lines = []
    if options.streak_bonus:
        lines.append(
            _("+%(points)s for %(length)s exact bids in a row")
            % {"points": options.streak_bonus.points, "length": options.streak_bonus.length}
        )
    if options.streak_penalty:
        lines.append(
            _("%(points)s for %(length)s missed bids in a row")
            % {"points": options.streak_penalty.points, "length": options.streak_penalty.length}
        )
    if not lines:
        return (_("No streak bonus or penalty."),)
    if not options.streaks_count_one_card_deals:
        lines.append(_("(one-card deals not counted)"))
    lines.append(
        _(
            "A bonus or penalty goes in the points of the deal that earns it; the count "
            "then starts again."
        )
    )
    return tuple(lines)


def _sheet(paper: PaperTable, table: Table) -> ScoreSheet:
    options = table.romanian_options
    count = len(paper.seats)
    first = next((seat.number - 1 for seat in paper.seats if seat.deals_first), None)
    deals = tuple(
        SheetDeal(
            number=hand + 1,
            cards=spec.cards,
            dealer="" if first is None else paper.seats[(first + hand) % count].name,
            reminder=_reminder(spec),
        )
        for hand, spec in enumerate(build_schedule(options, count))
    )
    return ScoreSheet(
        table=paper,
        deals=deals,
        scoring=scoring_words(options),
        streaks=streak_words(options),
        wide=count > PORTRAIT_PLAYERS,
    )


# --- What the pages print ---------------------------------------------------------------


def _papers(number: int, tables: list[tuple[PaperTable, Table]], link: ScorerLink) -> RoundPapers:
    return RoundPapers(
        number,
        tuple(_card(paper, link) for paper, _ in tables),
        tuple(_sheet(paper, table) for paper, table in tables),
    )


def round_papers(event: Event, number: int, link: ScorerLink) -> RoundPapers:
    """The cards and score sheets of round ``number``'s tables in the room."""
    return _papers(number, _tables(event, _rows(event, number), room_only=True), link)


def table_papers(event: Event, game_code: str, link: ScorerLink) -> RoundPapers:
    """The card and score sheet of one of the event's tables in the room, by its code."""
    game = Game.objects.filter(code=str(game_code).upper(), place=ROOM).first()
    row = TableResult.objects.filter(event_id=event.id, game_id=game.id).first() if game else None
    if row is None:
        raise GameNotFound(game_code)
    return _papers(row.round, _tables(event, [row], room_only=True), link)
