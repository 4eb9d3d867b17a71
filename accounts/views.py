"""Account pages: register, log in, log out (sessions; the API uses tokens); the
account's own page: its email, a changed or reset password (Django's views), its data
export and its deletion (decision 3504).

A guest (a visitor who pressed "Play now" without an account) registers on the same
page, which turns their guest account into a full one, their games kept; or signs in
to the account they have, which takes the guest's games (decision 3507).

Registering spends the address's budget the API's does; signing in spends the budgets
of failed sign-ins the API's does, only by failing (:mod:`runtime.throttling`, decision
3301). Past a budget, a page says so with a 429 and ``Retry-After``."""

import json
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeGuard
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods

from accounts.errors import InvalidCredentials
from accounts.forms import DeleteAccountForm, EmailForm, RegisterForm, SignInForm
from accounts.guests import ENTERED_THERE, EVENT_BEGUN, SEATED_THERE
from accounts.http import AuthenticatedHttpRequest, safe_next
from accounts.models import User
from accounts.services import (
    user_delete,
    user_export,
    user_set_email,
    user_sign_in,
    user_sign_up,
)
from runtime.errors import TooManyAttempts
from runtime.throttling import login_wait


def throttled_requests(
    methods: frozenset[str],
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Count each request of ``methods`` against the address's register budget; over
    it, answer 429 without running the view."""

    def throttling(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def counted(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            wait = login_wait(request) if request.method in methods else None
            if wait is None:
                return view(request, *args, **kwargs)
            return throttled(request, wait)

        return counted

    return throttling


# Each POST (registering, a form of the account's): a guesser of passwords or a sender
# of reset mails is held to the budget.
register_throttled = throttled_requests(frozenset({"POST"}))
# Every request, whatever its method (a data export: a large read).
every_request_throttled = throttled_requests(frozenset({"GET", "HEAD", "POST"}))


def sign_in_refused(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A budget of failed sign-ins spent (no password was checked): the 429 page."""

    @wraps(view)
    def refused(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return view(request, *args, **kwargs)
        except TooManyAttempts as error:
            return throttled(request, error.retry_after)

    return refused


def throttled(request: HttpRequest, wait: int) -> HttpResponse:
    """The page that says a budget is spent: 429, and when to come back."""
    response = render(request, "accounts/throttled.html", {"wait": wait}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _is_guest(user: object) -> TypeGuard[User]:
    return isinstance(user, User) and user.is_guest


@sensitive_post_parameters("password", "password_again")
@register_throttled
def register(request: HttpRequest) -> HttpResponse:
    """A new account; for a guest, their own account made full (their games kept)."""
    guest = request.user if _is_guest(request.user) else None
    if request.user.is_authenticated and guest is None:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user_sign_up(
                request=request,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
                display_name=form.cleaned_data["display_name"],
            )
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                form.add_error(field if field in form.fields else None, messages)
        else:
            return redirect(safe_next(request) or settings.LOGIN_REDIRECT_URL)
    context = {"form": form, "next": safe_next(request), "guest": guest}
    return render(request, "accounts/register.html", context)


@method_decorator(sign_in_refused, name="dispatch")
class LoginView(auth_views.LoginView):
    """Signing in; a guest signs in to the account they have, and their games become
    the account's (decision 3507)."""

    template_name = "accounts/login.html"
    authentication_form = SignInForm

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # Anyone signed in is sent on, but a guest: they may sign in to their account.
        self.redirect_authenticated_user = not _is_guest(request.user)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        absorbed = user_sign_in(request=self.request, user=form.get_user())
        for kept in absorbed.kept if absorbed is not None else ():
            messages.warning(self.request, _kept_words()[kept.reason] % {"code": kept.code})
        return HttpResponseRedirect(self.get_success_url())


def _kept_words() -> dict[str, str]:
    """What the player is told of a game or an entry that stays the guest's, by why."""
    return {
        SEATED_THERE: _("Your game %(code)s stays with the guest: you already sit at that table."),
        ENTERED_THERE: _(
            "Your entry in the event %(code)s stays with the guest: you are entered there already."
        ),
        EVENT_BEGUN: _(
            "Your entry in the event %(code)s stays with the guest: its rounds have begun."
        ),
    }


def registered_only(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A page for a registered player: a guest (no password, no address) is sent to
    register first, and comes back here."""

    @wraps(view)
    def registered(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if _is_guest(request.user):
            return redirect(
                f"{reverse('accounts:register')}?{urlencode({'next': request.path}, safe='/')}"
            )
        return view(request, *args, **kwargs)

    return login_required(registered)


@require_http_methods(["GET", "POST"])
@registered_only
@register_throttled
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The signed-in player's account: their email, and the ways to change their
    password, download their data and delete the account."""
    form = EmailForm(request.POST or None, initial={"email": request.user.email})
    saved = False
    # Only a form that sends the field changes it (a body without it, none).
    if request.method == "POST" and "email" in request.POST and form.is_valid():
        user_set_email(user=request.user, email=form.cleaned_data["email"])
        saved = True
    return render(request, "accounts/account.html", {"form": form, "saved": saved})


@require_GET
@registered_only
@every_request_throttled
def export(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Everything Atu holds about the signed-in player, as a JSON download."""
    exported = user_export(user=request.user)
    body = json.dumps(exported, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    day = timezone.now().date().isoformat()
    response["Content-Disposition"] = f'attachment; filename="atu-account-{day}.json"'
    response["Cache-Control"] = "no-store"
    return response


@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
@registered_only
@sign_in_refused
def delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Delete the account, the password confirming it: every name and alias of the
    player erased, their games and standings kept under "Deleted player"."""
    form = DeleteAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user_delete(request=request, user=request.user, password=form.cleaned_data["password"])
        except InvalidCredentials:
            form.add_error("password", _("This is not your password."))
        else:
            return render(request, "accounts/deleted.html")
    return render(request, "accounts/delete.html", {"form": form})


# Django's own password views, in the site's pages: changing one's password (its old
# one asked), and resetting a forgotten one through a link sent by mail. Every POST
# spends the address's budget, as registering does: a guesser of old passwords or a
# sender of reset mails is held to it.
_THROTTLED_POSTS = method_decorator(register_throttled, name="dispatch")


@_THROTTLED_POSTS
class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password_change_done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


@_THROTTLED_POSTS
class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


@_THROTTLED_POSTS
class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
