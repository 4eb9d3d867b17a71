"""Links to the sign-in and register pages that keep where the visitor was going."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.shortcuts import resolve_url
from django.template.context import Context
from django.urls import reverse
from django.utils.http import urlencode

from accounts.http import safe_next

register = template.Library()

# The pages whose own ``next`` is carried on, rather than themselves.
ACCOUNT_PAGES = ("accounts:login", "accounts:register")


@register.simple_tag(takes_context=True)
def account_url(context: Context, name: str) -> str:
    """The address of the account page ``name`` ("accounts:login" or
    "accounts:register") with ``next``: the page the visitor is on, or, on a sign-in or
    register page, the ``next`` that page was given (if it is on this site). None
    where it would be the page signing in goes to anyway (home)."""
    url = reverse(name)
    request = context.get("request")
    if request is None:  # The server-error page has none.
        return url
    if request.path in {reverse(page) for page in ACCOUNT_PAGES}:
        target = safe_next(request)
    else:
        target = request.get_full_path() if request.method == "GET" else request.path
    if not target or target == resolve_url(settings.LOGIN_REDIRECT_URL):
        return url
    return f"{url}?{urlencode({'next': target})}"
