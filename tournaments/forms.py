"""The championship pages' forms: they parse what an organizer or a player typed; the
services decide."""

from __future__ import annotations

import uuid
import zoneinfo
from collections.abc import Iterable
from datetime import datetime
from itertools import permutations
from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.commands.actions import DEFAULT_LEVEL, LEVEL_NAMES, MAX_TURN_SECONDS, MIN_TURN_SECONDS
from games.read.selectors import CHAT_OFF, CHAT_PHRASES
from games.rules import PRESETS
from games.rules import preset as rules_preset
from games.web.forms import PRESET_LABELS, NewGameForm, rule_changes
from tournaments.championship import AT_TIME_FINISH_DEAL, AT_TIME_NONE, MAX_CALL_NOTE_LENGTH
from tournaments.models import Season
from tournaments.players import MAX_ACCOUNT_ID
from tournaments.points import PointsMethod
from tournaments.services import (
    DEFAULT_CHECK_IN_SECONDS,
    DEFAULT_TIE_BREAKS,
    MAX_ANNOUNCEMENT_LENGTH,
    MAX_CHECK_IN_SECONDS,
    MAX_CLOCK_REASON_LENGTH,
    MAX_DESCRIPTION_LENGTH,
    MAX_ENTRY_LIMIT,
    MAX_EXTENSION_MINUTES,
    MAX_NAME_LENGTH,
    MAX_PROTEST_MINUTES,
    MAX_ROUND_MINUTES,
    MAX_ROUNDS,
    MAX_SPECTATOR_DELAY,
)

POINTS_LABELS = {
    PointsMethod.RELATIVE.value: _("Relative: the score minus the table's average"),
    PointsMethod.PLACEMENT.value: _("Placement: points for the place at the table"),
    PointsMethod.RAW.value: _("Raw: the game score itself"),
    PointsMethod.MATCHPOINTS.value: _("Matchpoints: duplicate deals compared seat by seat"),
}
FIRST_ROUND_LABELS = {
    "random": _("at random"),
    "rating": _("by rating (tables of similar strength)"),
}
# The rule changes an event may make to its preset: the lobby's own fields.
RULE_FIELDS = (
    "schedule",
    "step",
    "repeat_one_card_deals",
    "repeat_eight_card_deals",
    "one_card_mode",
    "must_trump",
    "scoring",
)
MAX_BOTS = 200
AT_TIME_LABELS = {
    AT_TIME_NONE: _("Nothing: the clock is only shown"),
    AT_TIME_FINISH_DEAL: _(
        "Each table finishes the deal in progress and plays no more; "
        "its result is the score of the deals played"
    ),
}
TABLE_CHAT_LABELS = {
    CHAT_OFF: _("Nothing"),
    CHAT_PHRASES: _("The quick phrases only (Good luck, Well played, Thanks, Sorry, Oops)"),
}
BOT_LEVEL_LABELS = {
    "easy": _("easy"),
    "medium": _("medium"),
    "strong": _("strong"),
}


GAME_LABELS = {
    "romanian": _("Romanian Whist"),
    "classic": _("Classic Whist: a whist drive"),
}
MOVEMENT_LABELS = {
    "progressive": _("progressive: the winning pair moves up a table, partners change"),
    "swiss": _("Swiss: players of similar totals together"),
}
TIE_BREAK_LABELS = {
    "exact_bids": _("exact bids"),
    "head_to_head": _("head-to-head"),
    "best_game": _("best game"),
}
# A tie-break order is one of the orders of all three (a whist drive skips exact bids),
# worded in the reader's language when shown, not in the server's when loaded.
TIE_BREAK_ORDERS = {
    ",".join(order): format_lazy("{}, {}, {}", *(TIE_BREAK_LABELS[name] for name in order))
    for order in permutations(DEFAULT_TIE_BREAKS)
}
# The fields that apply to one game only: the page shows them for it alone.
GAME_ONLY = {
    "preset": "romanian",
    "table_size": "romanian",
    "duplicate": "romanian",
    "place": "romanian",
    "deals": "classic",
    "movement": "classic",
}
RULE_FLAGS = ("repeat_one_card_deals", "repeat_eight_card_deals", "must_trump")
# A whist drive's usual length (the whist-drive preset's).
DRIVE_DEALS = 24
# The create form's "When" section: the schedule (decision 3404).
WHEN_FIELDS = (
    "starts_at",
    "time_zone",
    "check_in_minutes",
    "no_shows",
    "entry_deadline",
    "entry_limit",
    "description",
)
NO_SHOW_LABELS = {
    "withdraw": _("withdrawn"),
    "bot": _("seated, a bot playing for them until they take their seat"),
}


class LocalTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M")


def _in_zone(value: datetime | None, zone: str) -> datetime | None:
    """A time typed on the form, read as a wall-clock time in ``zone``."""
    if value is None:
        return None
    return timezone.make_naive(value).replace(tzinfo=zoneinfo.ZoneInfo(zone))


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=MAX_NAME_LENGTH)
    # Left out (as by older clients): Romanian Whist, and a progressive drive.
    game = forms.ChoiceField(
        label=_("Game"), choices=list(GAME_LABELS.items()), initial="romanian", required=False
    )
    # Left out (as by older clients): online.
    place = forms.ChoiceField(
        label=_("Where the tables play"),
        choices=[
            ("online", _("Online")),
            ("room", _("In the room, with real cards")),
            ("both", _("Both: each player says at check-in")),
        ],
        initial="online",
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "A table in the room plays with cards and a score sheet; a player at it "
            "writes each deal down on a phone."
        ),
    )
    season = forms.ChoiceField(
        label=_("Season"),
        required=False,
        help_text=_("Its events make one leaderboard and one rating."),
    )
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS],
        initial="championship",
    )
    table_size = forms.TypedChoiceField(
        label=_("Players per table"),
        choices=[(n, str(n)) for n in range(3, 7)],
        coerce=int,
        initial=4,
        help_text=_("Where the number of players allows; otherwise tables of 3 to 6."),
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=3)
    # Radio buttons, not a list: their long explanations wrap instead of being cut off.
    points = forms.ChoiceField(
        label=_("Tournament points"),
        choices=list(POINTS_LABELS.items()),
        initial=PointsMethod.RELATIVE.value,
        widget=forms.RadioSelect,
    )
    duplicate = forms.BooleanField(
        label=_("Duplicate deals"),
        required=False,
        help_text=_("Every table of a size plays the same deals; only with matchpoints."),
    )
    first_round = forms.ChoiceField(
        label=_("Round 1 seats players"),
        choices=list(FIRST_ROUND_LABELS.items()),
        initial="random",
        widget=forms.RadioSelect,
    )
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        initial=True,
        help_text=_("Anyone may watch it and enter; otherwise only its players see it."),
    )
    tie_breaks = forms.ChoiceField(
        label=_("Equal points are split by"),
        choices=list(TIE_BREAK_ORDERS.items()),
        initial=",".join(DEFAULT_TIE_BREAKS),
        required=False,
        widget=forms.RadioSelect,
        help_text=_("In this order; players still level share the place."),
    )
    auto_advance = forms.BooleanField(
        label=_("Rounds start by themselves"),
        required=False,
        help_text=_("Each round starts as soon as the one before has finished."),
    )
    spectator_delay = forms.IntegerField(
        label=_("Spectator delay (seconds)"),
        min_value=0,
        max_value=MAX_SPECTATOR_DELAY,
        initial=0,
    )
    turn_seconds = NewGameForm.base_fields["turn_seconds"]
    # Left out (as by older clients): final at once.
    protest_minutes = forms.IntegerField(
        label=_("Protest window (minutes)"),
        min_value=0,
        max_value=MAX_PROTEST_MINUTES,
        initial=0,
        required=False,
        help_text=_(
            "After publishing, the results stay provisional this long and may still be "
            "corrected; then they are final. 0: final at once."
        ),
    )
    # Left out (as by older clients): no time limit.
    round_minutes = forms.IntegerField(
        label=_("Time limit per round (minutes)"),
        min_value=0,
        max_value=MAX_ROUND_MINUTES,
        initial=0,
        required=False,
        help_text=_("Shown at every table, with warnings 10 and 5 minutes before. 0: none."),
    )
    at_time = forms.ChoiceField(
        label=_("When a round's time is up"),
        choices=list(AT_TIME_LABELS.items()),
        initial=AT_TIME_NONE,
        required=False,
    )
    # Left out (as by older clients): never.
    absent_seconds = forms.IntegerField(
        label=_("A bot stands in for an absent player after (seconds)"),
        min_value=0,
        max_value=MAX_TURN_SECONDS,
        initial=0,
        required=False,
        help_text=_(
            "Seconds into a player's turn; the bot plays their seat until they come back. "
            "Its deals count for nobody. A shorter turn timer moves first. 0: never."
        ),
    )
    # Left out (as by older clients): nothing is said.
    table_chat = forms.ChoiceField(
        label=_("At the tables, players may say"),
        choices=list(TABLE_CHAT_LABELS.items()),
        initial=CHAT_OFF,
        required=False,
        help_text=_("Free text is for casual tables only."),
    )
    # Left out (as by older clients): the default level.
    bot_level = forms.ChoiceField(
        label=_("Bot level"),
        choices=[(name, BOT_LEVEL_LABELS[name]) for name in LEVEL_NAMES],
        initial=DEFAULT_LEVEL,
        required=False,
        help_text=_("How well the bots entered to fill the tables play."),
    )
    deals = forms.IntegerField(
        label=_("Deals per table (whist drive)"),
        required=False,
        min_value=1,
        max_value=100,
        initial=DRIVE_DEALS,
        help_text=_("Trumps rotate hearts, diamonds, spades, clubs; every fifth deal no trump."),
    )
    movement = forms.ChoiceField(
        label=_("Between rounds (whist drive)"),
        choices=list(MOVEMENT_LABELS.items()),
        initial="progressive",
        required=False,
        widget=forms.RadioSelect,
    )
    # When: all optional; an event with no start is started by its organizer.
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        required=False,
        widget=LocalTimeInput(),
        help_text=_("Check-in closes then and round 1 starts by itself."),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=[(name, name) for name in sorted(zoneinfo.available_timezones())],
        required=False,
    )
    check_in_minutes = forms.IntegerField(
        label=_("Check-in opens (minutes before the start)"),
        min_value=1,
        max_value=MAX_CHECK_IN_SECONDS // 60,
        initial=DEFAULT_CHECK_IN_SECONDS // 60,
        required=False,
    )
    no_shows = forms.ChoiceField(
        label=_("Players not checked in at the start are"),
        choices=list(NO_SHOW_LABELS.items()),
        initial="withdraw",
        required=False,
    )
    entry_deadline = forms.DateTimeField(
        label=_("Entries close at"),
        required=False,
        widget=LocalTimeInput(),
        help_text=_("Empty: players enter until the last round starts."),
    )
    entry_limit = forms.IntegerField(
        label=_("Most entries"),
        min_value=3,
        max_value=MAX_ENTRY_LIMIT,
        required=False,
        help_text=_("Empty: no limit."),
    )
    description = forms.CharField(
        label=_("Description"),
        max_length=MAX_DESCRIPTION_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    # The rule changes, as the lobby offers them.
    schedule = NewGameForm.base_fields["schedule"]
    step = NewGameForm.base_fields["step"]
    repeat_one_card_deals = NewGameForm.base_fields["repeat_one_card_deals"]
    repeat_eight_card_deals = NewGameForm.base_fields["repeat_eight_card_deals"]
    one_card_mode = NewGameForm.base_fields["one_card_mode"]
    must_trump = NewGameForm.base_fields["must_trump"]
    scoring = NewGameForm.base_fields["scoring"]

    def __init__(self, *args: Any, seasons: list[Season] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["season"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", _("none")), *((str(s.id), s.name) for s in seasons or [])]
        self.fields["time_zone"].initial = settings.TIME_ZONE
        # Each rule's "as the preset" says what the chosen preset sets.
        effects = self.preset_effects().get(str(self["preset"].value()), {})
        for name, label in effects.items():
            rule = self.fields[name]
            assert isinstance(rule, forms.ChoiceField)
            rule.choices = [("", label), *_choices(rule)[1:]]

    def preset_effects(self) -> dict[str, dict[str, str]]:
        """For each preset, what each rule field's empty choice ("as the preset")
        leaves: the preset's value, as the field words it (for the page's script too,
        which changes the words when another preset is chosen)."""
        effects: dict[str, dict[str, str]] = {}
        for name in PRESETS:
            options = rules_preset(name).to_dict()
            effects[name] = {}
            for field in RULE_FIELDS:
                value = options[field]
                if field in RULE_FLAGS:
                    value = "yes" if value else "no"
                words = dict(_choices(self.fields[field])).get(str(value))
                if words is not None:
                    effects[name][field] = str(_("%(value)s (the preset's)") % {"value": words})
        return effects

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        points, duplicate = data.get("points"), data.get("duplicate")
        if points is not None and duplicate != (points == PointsMethod.MATCHPOINTS.value):
            self.add_error(
                "duplicate",
                _("Duplicate deals are scored by matchpoints, and matchpoints need them."),
            )
        if self.is_drive and data.get("table_size") not in (None, 4):
            self.add_error("table_size", _("A whist drive seats its players in fours."))
        return data

    def clean_game(self) -> str:
        return str(self.cleaned_data["game"] or "romanian")

    def clean_tie_breaks(self) -> tuple[str, ...]:
        return tuple((self.cleaned_data["tie_breaks"] or ",".join(DEFAULT_TIE_BREAKS)).split(","))

    def clean_place(self) -> str:
        return str(self.cleaned_data["place"] or "online")

    def clean_bot_level(self) -> str:
        return str(self.cleaned_data["bot_level"] or DEFAULT_LEVEL)

    def clean_time_zone(self) -> str:
        return str(self.cleaned_data["time_zone"] or settings.TIME_ZONE)

    def clean_no_shows(self) -> str:
        return str(self.cleaned_data["no_shows"] or "withdraw")

    def timing(self) -> dict[str, Any]:
        """The schedule's arguments of ``event_create``, its times read in its zone."""
        data = self.cleaned_data
        zone = data["time_zone"]
        return {
            "starts_at": _in_zone(data["starts_at"], zone),
            "time_zone": zone,
            "check_in_seconds": 60 * data["check_in_minutes"]
            if data["check_in_minutes"]
            else DEFAULT_CHECK_IN_SECONDS,
            "no_shows": data["no_shows"],
            "entry_deadline": _in_zone(data["entry_deadline"], zone),
            "entry_limit": data["entry_limit"],
            "description": data["description"],
        }

    def when_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in WHEN_FIELDS]

    def clean_protest_minutes(self) -> int:
        return int(self.cleaned_data["protest_minutes"] or 0)

    def clean_round_minutes(self) -> int:
        return int(self.cleaned_data["round_minutes"] or 0)

    def clean_at_time(self) -> str:
        return str(self.cleaned_data["at_time"] or AT_TIME_NONE)

    def clean_absent_seconds(self) -> int:
        seconds = int(self.cleaned_data["absent_seconds"] or 0)
        if 0 < seconds < MIN_TURN_SECONDS:
            raise forms.ValidationError(
                _("At least %(seconds)s seconds, or 0 for never."),
                params={"seconds": MIN_TURN_SECONDS},
            )
        return seconds

    def clean_table_chat(self) -> str:
        return str(self.cleaned_data["table_chat"] or CHAT_OFF)

    def clean_movement(self) -> str:
        return str(self.cleaned_data["movement"] or "progressive")

    @property
    def is_drive(self) -> bool:
        return self.cleaned_data.get("game") == "classic"

    def season_id(self) -> uuid.UUID | None:
        season = self.cleaned_data["season"]
        return uuid.UUID(season) if season else None

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in RULE_FIELDS]

    def main_fields(self) -> list[tuple[forms.BoundField, str]]:
        """Each field but the rule changes and the schedule, and the game it applies to
        alone ("": both)."""
        return [
            (self[name], GAME_ONLY.get(name, ""))
            for name in self.fields
            if name not in RULE_FIELDS + WHEN_FIELDS
        ]

    def chosen_game(self) -> str:
        """The game the form is for as it stands: the page shows its fields."""
        return str(self["game"].value() or "romanian")

    def options(self) -> dict[str, Any]:
        """The rule changes chosen over the preset's, as the rules library reads them:
        for a whist drive, the number of deals."""
        if self.is_drive:
            return {"deals": self.cleaned_data["deals"] or DRIVE_DEALS}
        return rule_changes(self.cleaned_data)


def _choices(field: forms.Field) -> list[tuple[str, Any]]:
    """A rule field's choices: flat (value, words) pairs, as the lobby's form makes them."""
    assert isinstance(field, forms.ChoiceField)
    return list(cast(Iterable[tuple[str, Any]], field.choices))


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("New season's name"), max_length=MAX_NAME_LENGTH)


class BotsForm(forms.Form):
    count = forms.IntegerField(label=_("Bots to add"), min_value=1, max_value=MAX_BOTS, initial=4)


class RegisterPlayerForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)

    def clean_username(self) -> User:
        username = self.cleaned_data["username"].strip()
        player = User.objects.filter(username__iexact=username).first()
        if player is None:
            raise forms.ValidationError(
                _("There is no account named %(username)s."), params={"username": username}
            )
        return player


class DeputyForm(forms.Form):
    who = forms.CharField(
        label=_("Username or e-mail address"),
        max_length=254,
        help_text=_("A deputy runs the event as you do, but cannot name or remove deputies."),
    )


class StartRoundForm(forms.Form):
    # The event's version the organizer saw: a second click, or a change since, is
    # refused instead of starting two rounds.
    expected_version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


class _ClockForm(forms.Form):
    """A director's command on the round clock: ``round``, the round in play when the
    page was drawn, so that a page left open acts on no later round."""

    round = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    # Its fields' ids, apart from the other forms' of the manage page ("reason"...).
    ids = "clock-%s"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", self.ids)
        super().__init__(*args, **kwargs)


class CallTimeForm(_ClockForm):
    ids = "call-time-%s"
    reason = forms.CharField(
        label=_("Reason (optional)"), max_length=MAX_CLOCK_REASON_LENGTH, required=False
    )


class ExtendRoundForm(_ClockForm):
    ids = "extend-round-%s"
    minutes = forms.IntegerField(
        label=_("Minutes more"), min_value=1, max_value=MAX_EXTENSION_MINUTES, initial=5
    )
    reason = forms.CharField(label=_("Reason"), max_length=MAX_CLOCK_REASON_LENGTH)


class _PlayerForm(forms.Form):
    """A director's form about one of the event's players (``players``: id, name)."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)

    def __init__(
        self, *args: Any, players: list[tuple[int, str]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(player_id, name) for player_id, name in players or []]


class CorrectionForm(_PlayerForm):
    field_order = ["round", "player", "points", "reason"]
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=MAX_ROUNDS)
    points = forms.DecimalField(
        label=_("Points to add (negative to take away)"),
        max_digits=8,
        decimal_places=2,
    )
    reason = forms.CharField(label=_("Reason"), max_length=500)

    def clean_points(self) -> float:
        points = self.cleaned_data["points"]
        if points == 0:
            raise forms.ValidationError(_("A correction is a number of points other than 0."))
        return float(points)


class PublishForm(forms.Form):
    # Left empty: the window chosen when the event was created.
    protest_minutes = forms.IntegerField(
        label=_("Protest window (minutes)"),
        min_value=0,
        max_value=MAX_PROTEST_MINUTES,
        required=False,
        help_text=_(
            "After publishing, the results stay provisional this long and may still be "
            "corrected; then they are final. 0: final at once."
        ),
    )


class SubstituteForm(forms.Form):
    """A seat of the round in play handed to someone: an entrant, an account by its
    username, or a bot (neither)."""

    table = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    seat = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    player = forms.TypedChoiceField(label=_("Seat"), coerce=int, required=False, empty_value=None)
    username = forms.CharField(label=_("or a username"), max_length=150, required=False)

    def __init__(
        self, *args: Any, players: list[tuple[int, str]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [
            ("", _("a bot")),
            *((player_id, name) for player_id, name in players or []),
        ]


class DisqualifyForm(_PlayerForm):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class PauseForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200, required=False)


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=_("Announcement"),
        max_length=MAX_ANNOUNCEMENT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Shown on the room's screen and the event's page until you withdraw it."),
    )


class CloseCallForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=MAX_CALL_NOTE_LENGTH, required=False)


# The most a player page's address may ask for: a page of games.
MAX_PAGE = 1_000_000


class PlayerPageForm(forms.Form):
    """What a player page's address may ask (all optional): a page of their games, a
    season's rating chart, another player to compare them with."""

    page = forms.IntegerField(min_value=1, max_value=MAX_PAGE, required=False)
    season = forms.UUIDField(required=False)
    vs = forms.IntegerField(
        label=_("Compare with"), min_value=1, max_value=MAX_ACCOUNT_ID, required=False
    )
