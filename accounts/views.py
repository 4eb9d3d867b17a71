"""Account pages: register, log in, log out (sessions; the API uses tokens).

A guest (a visitor who pressed "Play now" without an account) registers on the same
page, which turns their guest account into a full one, their games kept.

Registering spends the address's budget the API's does; signing in spends the budgets
of failed sign-ins the API's does, only by failing (:mod:`runtime.throttling`, decision
3301). Past a budget, a page says so with a 429 and ``Retry-After``."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters

from accounts.forms import RegisterForm, SignInForm
from accounts.http import safe_next
from accounts.models import User
from accounts.services import user_register
from runtime.errors import TooManyAttempts
from runtime.throttling import login_wait


def register_throttled(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Count each POST against the address's register budget; over it, answer 429
    without running ``view``."""

    @wraps(view)
    def counted(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        wait = login_wait(request) if request.method == "POST" else None
        if wait is None:
            return view(request, *args, **kwargs)
        return throttled(request, wait)

    return counted


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


@sensitive_post_parameters("password", "password_again")
@register_throttled
def register(request: HttpRequest) -> HttpResponse:
    """A new account; for a guest, their own account made full (their games kept)."""
    guest = request.user if isinstance(request.user, User) and request.user.is_guest else None
    if request.user.is_authenticated and guest is None:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
                display_name=form.cleaned_data["display_name"],
                guest=guest,
            )
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                form.add_error(field if field in form.fields else None, messages)
        else:
            login(request, user)
            return redirect(safe_next(request) or settings.LOGIN_REDIRECT_URL)
    context = {"form": form, "next": safe_next(request), "guest": guest}
    return render(request, "accounts/register.html", context)


@method_decorator(sign_in_refused, name="dispatch")
class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = SignInForm
    redirect_authenticated_user = True
