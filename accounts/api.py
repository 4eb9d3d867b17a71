"""The accounts REST API: register, log in and out, tokens, who am I."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.serializers import (
    CredentialsSerializer,
    RegisterSerializer,
    SignedInSerializer,
    TokenSerializer,
    UserSerializer,
    UserTokenSerializer,
)
from runtime.api_docs import errors
from runtime.throttling import AnonThrottle, LoginThrottle, client_address

TAGS = ["auth"]
# Account farming: registering spends the address's tight budget. Signing in spends
# it, and the account's, only by failing (accounts.services.user_authenticate).
REGISTER_THROTTLES = [AnonThrottle, LoginThrottle]
SIGN_IN_THROTTLES = [AnonThrottle]
# Past a budget of failed sign-ins.
SIGN_IN_REFUSALS = {429: ["too_many_attempts"]}


def _valid(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class RegisterView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = REGISTER_THROTTLES
    # Not authenticated, so no CSRF token is asked (the guest's session is read as the
    # login's is): a body is JSON only, which no other site's page may send.
    authentication_classes: list[type[Any]] = []

    @extend_schema(
        tags=TAGS,
        operation_id="auth_register",
        summary="Create an account",
        description="Checks the password with the site's password rules; "
        "returns the new user and an API token, and starts its session. From a guest's "
        "session (a visitor who played without an account), that guest becomes the "
        "account, the same user: its games and entries stay its own, as on the register "
        "page (decision 3501).",
        request=RegisterSerializer,
        responses={201: UserTokenSerializer, **errors(400, 429)},
    )
    def post(self, request: Request) -> Response:
        user = services.user_sign_up(request=request, **_valid(RegisterSerializer, request))
        body = {"user": UserSerializer(user).data, "token": services.user_token(user=user)}
        return Response(body, status=status.HTTP_201_CREATED)


class LoginView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = SIGN_IN_THROTTLES
    authentication_classes: list[type[Any]] = []

    @extend_schema(
        tags=TAGS,
        operation_id="auth_login",
        summary="Log in: start a session and get an API token",
        description="From a guest's session (a visitor who played without an account), "
        "the guest's games become the account's (decision 3507): its seats at the tables "
        "in play are handed over, and its finished games are the account's; `guest` says "
        "which stay the guest's (the account sits at that table already).",
        request=CredentialsSerializer,
        responses={200: SignedInSerializer, **errors(400, 429, codes=SIGN_IN_REFUSALS)},
    )
    def post(self, request: Request) -> Response:
        user, token, absorbed = services.user_log_in(
            request=request, **_valid(CredentialsSerializer, request)
        )
        body = {"user": user, "token": token, "guest": absorbed}
        return Response(SignedInSerializer(body).data)


class LogoutView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        operation_id="auth_logout",
        summary="Log out",
        description="Ends the session; a request authenticated by token also "
        "revokes that token. Logging out when not logged in does nothing.",
        request=None,
        responses={204: None, **errors(401, 403)},
    )
    def post(self, request: Request) -> Response:
        token = request.auth if isinstance(request.auth, Token) else None
        services.user_log_out(request=request, token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = SIGN_IN_THROTTLES
    authentication_classes: list[type[Any]] = []

    @extend_schema(
        tags=TAGS,
        operation_id="auth_token",
        summary="Get an API token for a username and password",
        request=CredentialsSerializer,
        responses={200: TokenSerializer, **errors(400, 429, codes=SIGN_IN_REFUSALS)},
    )
    def post(self, request: Request) -> Response:
        _, token = services.user_token_for_credentials(
            **_valid(CredentialsSerializer, request), address=client_address(request)
        )
        return Response({"token": token})


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=TAGS,
        operation_id="auth_me",
        summary="The signed-in user",
        responses={200: UserSerializer, **errors(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(UserSerializer(request.user).data)
