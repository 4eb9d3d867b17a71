"""The lobby's forms: they parse what a person typed; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules import PRESETS, OneCardMode, Schedule, Scoring
from games.services import MAX_ALIAS_LENGTH, MAX_TURN_SECONDS, MIN_TURN_SECONDS

# The presets' titles, as people read them in each language.
PRESET_LABELS = {
    "romanian-standard": _("Romanian standard"),
    "championship": _("Championship"),
    "online-room": _("Online room"),
    "classic-app": _("Classic app"),
}
AS_PRESET = ("", _("as the preset"))
YES_NO = [AS_PRESET, ("yes", _("yes")), ("no", _("no"))]


def _choices(values: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [AS_PRESET, *values]


class NewGameForm(forms.Form):
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
    alias = forms.CharField(label=_("Your alias at the table"), max_length=MAX_ALIAS_LENGTH)
    turn_seconds = forms.IntegerField(
        label=_("Turn timer (seconds)"),
        required=False,
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        help_text=_("Empty: no timer. When it runs out, a bot plays the seat's move."),
    )
    schedule = forms.ChoiceField(
        label=_("Deals"),
        required=False,
        choices=_choices(
            [
                (Schedule.ONE_EIGHT_ONE.value, _("1 to 8 and back to 1")),
                (Schedule.EIGHT_ONE_EIGHT.value, _("8 to 1 and back to 8")),
                (Schedule.EACH_DEALER_ONCE.value, _("each dealer deals each number once")),
            ]
        ),
    )
    step = forms.ChoiceField(
        label=_("Cards added per deal"), required=False, choices=_choices([("1", "1"), ("2", "2")])
    )
    repeat_one_card_deals = forms.ChoiceField(
        label=_("A one-card deal for every player"), required=False, choices=YES_NO
    )
    repeat_eight_card_deals = forms.ChoiceField(
        label=_("An eight-card deal for every player"), required=False, choices=YES_NO
    )
    one_card_mode = forms.ChoiceField(
        label=_("One-card deals"),
        required=False,
        choices=_choices(
            [
                (OneCardMode.NORMAL.value, _("played normally")),
                (OneCardMode.FOREHEAD.value, _("on the forehead")),
                (OneCardMode.BLIND.value, _("blind")),
                (OneCardMode.DEALER_CHOICE.value, _("the dealer chooses")),
            ]
        ),
    )
    must_trump = forms.ChoiceField(label=_("Must trump when void"), required=False, choices=YES_NO)
    scoring = forms.ChoiceField(
        label=_("Scoring"),
        required=False,
        choices=_choices(
            [
                (Scoring.FIVE_PLUS_BID.value, _("5 + bid")),
                (Scoring.ONE_PLUS_BID.value, _("1 + bid")),
                (Scoring.BID_PLUS_CARDS.value, _("bid + cards")),
                (Scoring.TRIANGULAR.value, _("triangular")),
            ]
        ),
    )

    def options(self) -> dict[str, Any]:
        """The options chosen over the preset's, as the rules library reads them."""
        return rule_changes(self.cleaned_data)


def rule_changes(data: dict[str, Any]) -> dict[str, Any]:
    """The rule options a form's cleaned ``data`` changes from its preset's (the
    lobby's and the championship form's rule fields), as the rules library reads them."""
    chosen: dict[str, Any] = {}
    for name in ("schedule", "one_card_mode", "scoring"):
        if data[name]:
            chosen[name] = data[name]
    if data["step"]:
        chosen["step"] = int(data["step"])
    for name in ("repeat_one_card_deals", "repeat_eight_card_deals", "must_trump"):
        if data[name]:
            chosen[name] = data[name] == "yes"
    return chosen


class JoinForm(forms.Form):
    reference = forms.CharField(
        label=_("Game code or id"), max_length=36, help_text=_("Like K7MX2Q, from the organizer.")
    )
    alias = forms.CharField(label=_("Your alias at the table"), max_length=MAX_ALIAS_LENGTH)
