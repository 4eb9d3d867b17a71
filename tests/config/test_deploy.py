"""Deployment settings: Django's deployment check passes for a site behind TLS, and every
page carries a content security policy that the pages themselves keep to."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from django.test import Client
from playwright.async_api import ConsoleMessage, expect

from config.settings.environment import BASE_DIR
from tests.browser import chromium, live_server

# What a deployment sets (docs/deployment.md). Nothing is reached: the check reads settings.
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": "postgres://atu@127.0.0.1:5432/atu",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SECRET_KEY": "j8Xq3vR0-kP2mZ7sT9wY4bN6cF1hL5aD8gE0uI3oQ7rW2eS9tV4yB6nM1xK5zJ3p",
    "ALLOWED_HOSTS": "atu.example",
}
POLICY = {
    "default-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
}
TEMPLATE_DIRS = sorted(BASE_DIR.glob("*/templates"))
# Inline code or style that the policy refuses: a <script> without src, a <style>
# element, a style attribute, an on* handler, a javascript: URL.
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.IGNORECASE
)


def deploy_check(**environment: str) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ATU_HTTPS"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env={**env, **PRODUCTION, **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_deployment_check_passes_for_a_site_served_over_tls() -> None:
    result = deploy_check(CSRF_TRUSTED_ORIGINS="https://atu.example")

    assert result.returncode == 0, result.stderr
    assert result.stdout == "System check identified no issues (0 silenced).\n"
    assert "WARNING" not in result.stderr


def test_the_deployment_check_names_what_a_site_over_plain_http_lacks() -> None:
    result = deploy_check(CSRF_TRUSTED_ORIGINS="http://atu.example")

    assert result.returncode == 1
    warned = sorted(set(re.findall(r"security\.W\d+", result.stderr)))
    assert warned == ["security.W004", "security.W008", "security.W012", "security.W016"]


# Requests over plain HTTP (as probes ask), and one over TLS as the front forwards it.
BEHIND_TLS_SCRIPT = """
import django, json
django.setup()
from django.test import Client
client = Client(HTTP_HOST="atu.example")
answers = {}
for path in ("/", "/healthz", "/readyz"):
    answer = client.get(path)
    answers[path] = [answer.status_code, answer.get("Location")]
tls = client.get("/healthz", HTTP_X_FORWARDED_PROTO="https")
answers["hsts"] = tls.get("Strict-Transport-Security")
print(json.dumps({"answers": answers}))
"""


def test_a_site_behind_tls_sends_plain_http_to_https_except_the_probes() -> None:
    result = subprocess.run(
        [sys.executable, "-c", BEHIND_TLS_SCRIPT],
        cwd=BASE_DIR,
        env={
            **deploy_env_without("REDIS_URL"),
            "CSRF_TRUSTED_ORIGINS": "https://atu.example",
            # Nothing listens there: /readyz must answer without it.
            "DATABASE_URL": "postgres://atu@127.0.0.1:1/atu",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stderr
    # The answers' line among the logs on stdout (a pool's attempts to reach the database
    # may log after it).
    (answers,) = [
        json.loads(line)["answers"]
        for line in result.stdout.splitlines()
        if line.startswith('{"answers": ')
    ]
    assert answers["/"] == [301, "https://atu.example/"]
    assert answers["/healthz"] == [200, None]
    assert answers["/readyz"][0] == 503
    assert answers["hsts"] == "max-age=31536000; includeSubDomains; preload"


def test_a_production_site_without_a_secret_key_does_not_start() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env={**deploy_env_without("SECRET_KEY"), "CSRF_TRUSTED_ORIGINS": "https://atu.example"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 1
    assert "ImproperlyConfigured: SECRET_KEY must be set in production mode" in result.stderr


def deploy_env_without(name: str) -> dict[str, str]:
    environment = {**os.environ, **PRODUCTION}
    del environment[name]
    return environment


@pytest.mark.django_db
def test_every_page_carries_the_content_security_policy(client: Client) -> None:
    for path in ("/", "/accounts/login/", "/api/docs/", "/healthz"):
        policy = client.get(path)["Content-Security-Policy"]
        assert set(policy.split("; ")) == POLICY, path


def test_no_template_holds_inline_script_style_or_handler() -> None:
    templates = [path for folder in TEMPLATE_DIRS for path in folder.rglob("*.html")]
    inline = {
        str(path.relative_to(BASE_DIR)): INLINE.findall(path.read_text())
        for path in templates
        if INLINE.search(path.read_text())
    }

    assert len(templates) > 20
    assert inline == {}


@pytest.mark.django_db(transaction=True)
async def test_swagger_ui_shows_the_api_under_the_policy() -> None:
    refused: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    with live_server() as base:
        async with chromium() as browser:
            page = await browser.new_page()
            page.on("console", note)
            await page.goto(f"{base}/api/docs/")
            await expect(page.locator(".swagger-ui .info .title")).to_contain_text("Atu API")
            await expect(page.locator(".opblock-summary-path").first).to_be_visible()

    assert refused == []
