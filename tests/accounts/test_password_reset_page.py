"""A forgotten password reset as a player lives it, in a real browser at a phone's
width and a laptop's, through a real SMTP server the test starts (aiosmtpd): the mail
the site sends is read as received, its link followed, a new password set, and the
player signs in with it (decision 3504)."""

from __future__ import annotations

import email
import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message
from email.policy import default as default_policy
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from asgiref.sync import sync_to_async
from playwright.async_api import expect

from accounts.models import User
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path

pytestmark = pytest.mark.django_db(transaction=True)

EMAIL = "ioana.pop@example.org"
NEW_PASSWORD = "walnut-orbit-harbor"
MAIL_SECONDS = 20


class Inbox:
    """An SMTP server's handler that keeps every message it is sent."""

    def __init__(self) -> None:
        self.received: list[tuple[Envelope, Message]] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.content if isinstance(envelope.content, bytes) else b""
        self.received.append((envelope, email.message_from_bytes(content, policy=default_policy)))
        return "250 Message accepted for delivery"

    def wait_for_one(self) -> tuple[Envelope, Message]:
        deadline = time.monotonic() + MAIL_SECONDS
        while not self.received:
            assert time.monotonic() < deadline, "no mail was received"
            time.sleep(0.05)
        (received,) = self.received
        return received


@contextmanager
def smtp_server(settings: Any) -> Iterator[Inbox]:
    """A real SMTP server on a free port of this machine, the site sending to it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield inbox
    finally:
        controller.stop()


@sync_to_async
def player() -> User:
    user: User = UserFactory.create(username="ioana", display_name="Ioana Pop", email=EMAIL)
    return user


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1366, 768)])
async def test_a_forgotten_password_is_reset_through_a_mailed_link_and_signs_in(
    settings: Any, width: int, height: int
) -> None:
    # Given a player whose account has an email, and a real SMTP server
    await player()
    with smtp_server(settings) as inbox, live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": width, "height": height})
            page = await context.new_page()

            # When they ask for a reset from the sign-in page
            await page.goto(f"{base}/accounts/login/")
            await page.locator("#forgot-password").click()
            await page.locator("#id_email").fill(EMAIL)
            await page.get_by_role("button", name="Send the link").click()
            await expect(page.locator("#reset-sent")).to_be_visible()

            # Then the SMTP server received one mail to them, from the site
            envelope, message = await sync_to_async(inbox.wait_for_one)()
            assert envelope.rcpt_tos == [EMAIL]
            assert (message["Subject"], message["To"], message["From"]) == (
                "Your Atu password",
                EMAIL,
                "Atu <noreply@localhost>",
            )
            body = message.get_body(preferencelist=("plain",))
            assert body is not None
            text = body.get_content()
            link = re.search(rf"{re.escape(base)}/accounts/password/reset/\S+/\S+/", text)
            assert link is not None, text

            # When they follow its link and choose a new password
            await page.goto(link[0])
            await page.locator("#id_new_password1").fill(NEW_PASSWORD)
            await page.locator("#id_new_password2").fill(NEW_PASSWORD)
            await page.get_by_role("button", name="Set the password").click()
            await expect(page.locator("#reset-complete")).to_be_visible()
            await page.screenshot(path=screenshot_path(f"password-reset-{width}.png"))

            # Then they sign in with it, and the link works no more
            await page.locator("main a", has_text="Sign in").click()
            await page.locator("#id_username").fill("ioana")
            await page.locator("#id_password").fill(NEW_PASSWORD)
            await page.locator("main button[type=submit]").click()
            await expect(page.locator("#my-account")).to_have_text("Ioana Pop")
            await page.goto(link[0])
            await expect(page.locator("#reset-invalid")).to_be_visible()
            await context.close()
