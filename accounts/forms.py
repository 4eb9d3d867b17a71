from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from accounts.errors import InvalidCredentials
from accounts.services import user_authenticate
from runtime.throttling import client_address


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


class SignInForm(AuthenticationForm):
    """Django's sign-in form, checking the password through
    :func:`accounts.services.user_authenticate`, so that the page's failures spend the
    budgets the API's do. Past one, it raises :class:`runtime.errors.TooManyAttempts`
    (the page answers 429)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            try:
                self.user_cache = user_authenticate(
                    username=username,
                    password=password,
                    address=None if self.request is None else client_address(self.request),
                    request=self.request,
                )
            except InvalidCredentials:
                raise self.get_invalid_login_error() from None
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


class EmailForm(forms.Form):
    """The address a forgotten password's reset link is sent to."""

    email = forms.EmailField(
        label=_("Email"),
        required=False,
        max_length=254,
        help_text=_("Where a link to reset a forgotten password is sent; empty: none."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
