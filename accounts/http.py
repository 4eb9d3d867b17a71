"""Requests whose user is signed in, for the type checker; where a request asks to go
after signing in.

A view behind ``login_required``, or an API view behind ``IsAuthenticated``, only
ever sees a signed-in user; annotating its request with these says so, where the
plain request's user may be anonymous (django-stubs' documented pattern).
"""

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme
from rest_framework.request import Request

from accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    user: User


class AuthenticatedRequest(Request):
    user: User


def safe_next(request: HttpRequest) -> str:
    """The ``next`` page the request asks to go to after signing in or registering, if
    it is on this site (else empty): never an open redirect to another."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else ""
