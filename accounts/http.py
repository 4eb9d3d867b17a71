"""Requests whose user is signed in, for the type checker.

A view behind ``login_required``, or an API view behind ``IsAuthenticated``, only
ever sees a signed-in user; annotating its request with these says so, where the
plain request's user may be anonymous (django-stubs' documented pattern).
"""

from django.http import HttpRequest
from rest_framework.request import Request

from accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    user: User


class AuthenticatedRequest(Request):
    user: User
