"""The lobby's forms: they parse what a person typed; the services decide."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.bots import DEFAULT_LEVEL, LEVEL_NAMES
from games.commands.actions import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from games.commands.aliases import MAX_ALIAS_LENGTH
from games.rules import PRESETS, OneCardMode, Schedule, Scoring, classic, options_from_dict
from games.rules import preset as rules_preset
from games.table import CLASSIC, ROMANIAN

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# The presets' titles, as people read them in each language.
PRESET_LABELS = {
    "romanian-standard": _("Romanian standard"),
    "championship": _("Championship"),
    "online-room": _("Online room"),
    "classic-app": _("Classic app"),
}
# Classic Whist's presets (games.rules.classic.PRESET_TITLES, in each language).
CLASSIC_PRESET_LABELS = {
    "british": _("British (5 points, rubber, honours)"),
    "american": _("American (7 points)"),
    "long-whist": _("Long Whist (9 points, honours)"),
    "whist-drive": _("Whist drive (24 deals, rotating trumps)"),
}
# The games a table may play, as the lobby's lists name them.
KIND_LABELS = {ROMANIAN: _("Romanian Whist"), CLASSIC: _("Classic Whist")}
# The most deals a classic tournament table may play.
MAX_CLASSIC_DEALS = 100
AS_PRESET = ("", _("as the preset"))
YES_NO = [AS_PRESET, ("yes", _("yes")), ("no", _("no"))]


def _change(label: StrPromise, values: list[tuple[str, Any]]) -> forms.ChoiceField:
    """A rule the preset sets and the form may change to one of ``values``."""
    return forms.ChoiceField(label=label, required=False, choices=[AS_PRESET, *values])


def _yes_no(label: StrPromise) -> forms.ChoiceField:
    """A rule the preset sets and the form may turn on or off."""
    return forms.ChoiceField(label=label, required=False, choices=YES_NO)


# The levels a bot plays at, as a player chooses them.
LEVEL_LABELS = {"easy": _("easy"), "medium": _("medium"), "strong": _("strong")}


def preset_label(kind: str, preset: str, options: dict[str, Any] | None = None) -> str:
    """A table's rules as a reader names them: its preset's title, "customised" when
    ``options`` (the table's) differ from the preset's, or "custom rules"."""
    labels = CLASSIC_PRESET_LABELS if kind == CLASSIC else PRESET_LABELS
    if preset not in labels:
        return str(_("custom rules"))
    if options is not None and options != _preset_options(kind, preset):
        return str(_("%(preset)s, customised") % {"preset": labels[preset]})
    return str(labels[preset])


def _preset_options(kind: str, preset: str) -> dict[str, Any]:
    """The preset's options as a table stores them (JSON: tuples read back as lists)."""
    if kind == CLASSIC:
        options = classic.preset(preset).to_dict()
    else:
        options = options_from_dict({}, rules_preset(preset)).to_dict()
    loaded: dict[str, Any] = json.loads(json.dumps(options))
    return loaded


def level_field() -> forms.ChoiceField:
    """The level of the bots a player seats."""
    return forms.ChoiceField(
        label=_("Bot level"),
        choices=[(name, LEVEL_LABELS[name]) for name in LEVEL_NAMES],
        initial=DEFAULT_LEVEL,
        required=False,
    )


class TableForm(forms.Form):
    """What every new table asks, whatever its game: the rules (a preset and the
    changes a subclass offers), the creator's alias and a turn timer."""

    kind: ClassVar[str]
    # The lobby's panel: its id and heading, and how many fields show before the
    # rule changes (folded away under the preset).
    panel: ClassVar[str]
    title: ClassVar[Promise]
    main_fields: ClassVar[int]
    # The fields' HTML ids: two forms share the lobby page.
    ids: ClassVar[str] = "id_%s"

    alias = forms.CharField(label=_("Your alias at the table"), max_length=MAX_ALIAS_LENGTH)
    turn_seconds = forms.IntegerField(
        label=_("Turn timer (seconds)"),
        required=False,
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        help_text=_("Empty: no timer. When it runs out, a bot plays the seat's move."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", self.ids)
        super().__init__(*args, **kwargs)

    def table(self) -> dict[str, Any]:
        """The table's settings, as :func:`games.commands.actions.game_create` takes them."""
        return {
            "kind": self.kind,
            "player_count": self.seats(),
            "preset": self.cleaned_data["preset"],
            "options": self.options(),
            "turn_seconds": self.cleaned_data["turn_seconds"],
        }

    def seats(self) -> int:
        """How many seats the table has."""
        raise NotImplementedError

    def options(self) -> dict[str, Any]:
        """The options chosen over the preset's, as the rules library reads them."""
        raise NotImplementedError

    def first_fields(self) -> list[forms.BoundField]:
        return self.visible_fields()[: self.main_fields]

    def rule_fields(self) -> list[forms.BoundField]:
        return self.visible_fields()[self.main_fields :]


class NewGameForm(TableForm):
    kind = ROMANIAN
    panel = "new-game"
    title = _("Open a table")
    main_fields = 4
    field_order = ["preset", "player_count", "alias", "turn_seconds"]

    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS],
        initial="romanian-standard",
    )
    player_count = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(3, 7)],
        coerce=int,
        initial=4,
    )
    schedule = _change(
        _("Deals"),
        [
            (Schedule.ONE_EIGHT_ONE.value, _("1 to 8 and back to 1")),
            (Schedule.EIGHT_ONE_EIGHT.value, _("8 to 1 and back to 8")),
            (Schedule.EACH_DEALER_ONCE.value, _("each dealer deals each number once")),
        ],
    )
    step = _change(_("Cards added per deal"), [("1", "1"), ("2", "2")])
    repeat_one_card_deals = _yes_no(_("A one-card deal for every player"))
    repeat_eight_card_deals = _yes_no(_("An eight-card deal for every player"))
    one_card_mode = _change(
        _("One-card deals"),
        [
            (OneCardMode.NORMAL.value, _("played normally")),
            (OneCardMode.FOREHEAD.value, _("on the forehead")),
            (OneCardMode.BLIND.value, _("blind")),
            (OneCardMode.DEALER_CHOICE.value, _("the dealer chooses")),
        ],
    )
    must_trump = _yes_no(_("Must trump when void"))
    scoring = _change(
        _("Scoring"),
        [
            (Scoring.FIVE_PLUS_BID.value, _("5 + bid")),
            (Scoring.ONE_PLUS_BID.value, _("1 + bid")),
            (Scoring.BID_PLUS_CARDS.value, _("bid + cards")),
            (Scoring.TRIANGULAR.value, _("triangular")),
        ],
    )

    def seats(self) -> int:
        count: int = self.cleaned_data["player_count"]
        return count

    def options(self) -> dict[str, Any]:
        return rule_changes(self.cleaned_data)


class ClassicGameForm(TableForm):
    """A table of classic partnership Whist: four players, a preset of
    :mod:`games.rules.classic` and the options changed from it."""

    kind = CLASSIC
    panel = "new-classic-game"
    title = _("New classic Whist table")
    main_fields = 3
    ids = "id_classic_%s"
    field_order = ["preset", "alias", "turn_seconds"]

    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(name, CLASSIC_PRESET_LABELS.get(name, name)) for name in classic.PRESETS],
        initial="british",
    )
    target = _change(
        _("Points for game"), [(str(points), str(points)) for points in classic.GAME_TARGETS]
    )
    rubber = _yes_no(_("A rubber: the best of three games"))
    honours = _yes_no(_("Honours scored (A K Q J of trumps)"))
    trumps = _change(
        _("Trumps"),
        [
            (classic.TrumpMethod.TURNED.value, _("the dealer's last card, turned")),
            (classic.TrumpMethod.ROTATION.value, _("in turn: hearts, diamonds, spades, clubs")),
        ],
    )
    no_trump_every_fifth = _yes_no(_("Every fifth hand without trumps"))
    deals = forms.IntegerField(
        label=_("Number of deals (the tournament form)"),
        required=False,
        min_value=1,
        max_value=MAX_CLASSIC_DEALS,
        help_text=_("Empty: as the preset. Each side scores its odd tricks over the deals."),
    )

    def seats(self) -> int:
        return classic.PLAYERS

    def options(self) -> dict[str, Any]:
        return _changes(
            self.cleaned_data,
            words=("trumps",),
            numbers=("target", "deals"),
            flags=("rubber", "honours", "no_trump_every_fifth"),
        )


class PlayNowForm(NewGameForm):
    """A table of one's own against bots: the rules and the bots' level; the player
    sits down under their own name, and the game starts at once."""

    panel = "play-now"
    title = _("Play now")
    main_fields = 3
    ids = "id_play_%s"
    field_order = ["preset", "player_count", "level"]

    alias = None  # type: ignore[assignment]
    turn_seconds = None  # type: ignore[assignment]
    level = level_field()

    def play(self) -> dict[str, Any]:
        """The table, as :func:`games.commands.actions.game_play_now` takes it."""
        return {
            "preset": self.cleaned_data["preset"],
            "options": self.options(),
            "player_count": self.seats(),
            "level": self.cleaned_data["level"] or DEFAULT_LEVEL,
        }


class BotLevelForm(forms.Form):
    level = level_field()


# The forms that open a table, by the game it plays.
TABLE_FORMS: dict[str, type[TableForm]] = {ROMANIAN: NewGameForm, CLASSIC: ClassicGameForm}


def rule_changes(data: dict[str, Any]) -> dict[str, Any]:
    """The rule options a form's cleaned ``data`` changes from its preset's (the
    lobby's and the championship form's rule fields), as the rules library reads them."""
    return _changes(
        data,
        words=("schedule", "one_card_mode", "scoring"),
        numbers=("step",),
        flags=("repeat_one_card_deals", "repeat_eight_card_deals", "must_trump"),
    )


def _changes(
    data: dict[str, Any],
    *,
    words: tuple[str, ...] = (),
    numbers: tuple[str, ...] = (),
    flags: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The fields of ``data`` given a value (empty: as the preset): ``words`` as they
    are, ``numbers`` as whole numbers, ``flags`` (yes or no) as booleans."""
    chosen: dict[str, Any] = {}
    for name in words:
        if data[name]:
            chosen[name] = data[name]
    for name in numbers:
        if data[name] not in ("", None):
            chosen[name] = int(data[name])
    for name in flags:
        if data[name]:
            chosen[name] = data[name] == "yes"
    return chosen


class JoinForm(forms.Form):
    reference = forms.CharField(
        label=_("Game code or id"), max_length=36, help_text=_("Like K7MX2Q, from the organizer.")
    )
    alias = forms.CharField(label=_("Your alias at the table"), max_length=MAX_ALIAS_LENGTH)


class GuestSeatForm(forms.Form):
    """A share link's seat for a visitor without an account: an alias, or none (their
    guest name then). The alias is judged by the aliases' own rule, which says why it
    refuses one (the request's size bounds it)."""

    alias = forms.CharField(
        label=_("Your alias at the table"),
        required=False,
        widget=forms.TextInput(attrs={"maxlength": MAX_ALIAS_LENGTH, "autocomplete": "nickname"}),
        help_text=_("Leave it empty to play as a guest named at random."),
    )


class ScoreTableForm(forms.Form):
    """The code of a table in the room, typed from its table card: its scorer page asks
    for the PIN."""

    code = forms.CharField(
        label=_("Table code"), max_length=36, help_text=_("Printed on the table card, like K7MX2Q.")
    )
