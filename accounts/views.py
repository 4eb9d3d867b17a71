"""Account pages: register, log in, log out (sessions; the API uses tokens).

Registering and signing in spend the sign-in budget the API's do
(:mod:`config.throttling`): over it, a page says so with a 429 and ``Retry-After``."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters

from accounts.forms import RegisterForm
from accounts.services import user_register
from config.throttling import login_wait


def sign_in_throttled(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Count each POST against the sign-in budget; over it, answer 429 without running
    ``view`` (no password is checked)."""

    @wraps(view)
    def throttled(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = login_wait(request) if request.method == "POST" else None
        if wait is None:
            return view(request, *args, **kwargs)
        response = render(request, "accounts/throttled.html", {"wait": wait}, status=429)
        response["Retry-After"] = str(wait)
        return response

    return throttled


@sensitive_post_parameters("password", "password_again")
@sign_in_throttled
def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
                display_name=form.cleaned_data["display_name"],
            )
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                form.add_error(field if field in form.fields else None, messages)
        else:
            login(request, user)
            return redirect(_safe_next(request) or settings.LOGIN_REDIRECT_URL)
    return render(request, "accounts/register.html", {"form": form, "next": _safe_next(request)})


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` page asked for, if it is on this site; else empty."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else ""


@method_decorator(sign_in_throttled, name="dispatch")
class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True
