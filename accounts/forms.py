from django import forms
from django.utils.translation import gettext_lazy as _


class RegisterForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=64,
        required=False,
        help_text=_("The name other players see; your username if empty."),
    )
    password = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password_again = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if cleaned.get("password") != cleaned.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return cleaned
