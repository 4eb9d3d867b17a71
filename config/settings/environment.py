"""The one place that turns process environment variables into typed settings values."""

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
# Only drivers that are dependencies of the project; other schemes would fail at first query.
DATABASE_SCHEMES = frozenset({"postgres", "postgresql", "sqlite"})
REDIS_SCHEMES = frozenset({"redis", "rediss"})
DEFAULT_ALLOWED_HOSTS = "127.0.0.1,localhost"


@dataclass(frozen=True)
class Environment:
    database: Mapping[str, Any]
    redis_url: str | None
    secret_key: str
    debug: bool
    allowed_hosts: tuple[str, ...]
    bot_delay_seconds: float = 1.0


def read_environment(environ: Mapping[str, str], *, base_dir: Path = BASE_DIR) -> Environment:
    """Parse and validate the settings variables; local state goes under ``base_dir/var``."""
    var_dir = base_dir / "var"
    return Environment(
        database=_database(environ, var_dir),
        redis_url=_redis_url(environ.get("REDIS_URL")),
        secret_key=environ.get("SECRET_KEY") or _persisted_secret_key(var_dir),
        debug=_flag("DEBUG", environ.get("DEBUG", "false")),
        allowed_hosts=_host_list(environ.get("ALLOWED_HOSTS", DEFAULT_ALLOWED_HOSTS)),
        bot_delay_seconds=_seconds(
            "ATU_BOT_DELAY_SECONDS", environ.get("ATU_BOT_DELAY_SECONDS", "1.0")
        ),
    )


def _database(environ: Mapping[str, str], var_dir: Path) -> Mapping[str, Any]:
    url = environ.get("DATABASE_URL")
    if url is None:
        var_dir.mkdir(parents=True, exist_ok=True)
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(var_dir / "db.sqlite3")}
    scheme = urlsplit(url).scheme
    if scheme not in DATABASE_SCHEMES:
        raise ImproperlyConfigured(
            f"DATABASE_URL scheme {scheme!r} is not supported; "
            f"use one of {', '.join(sorted(DATABASE_SCHEMES))}."
        )
    # No persistent connections: under ASGI every request runs in a thread of its own,
    # and a connection kept past its request is never closed (one more per few requests
    # until PostgreSQL refuses clients). No health checks: they cost a "SELECT 1" round
    # trip before the first query of every request and every socket command; a
    # connection that died (a database restart) fails one query, and the pool drops it.
    database = dict(dj_database_url.parse(url, conn_max_age=0, conn_health_checks=False))
    if database["ENGINE"] == "django.db.backends.postgresql":
        # Requests and socket commands borrow a connection from a bounded pool per
        # process and give it back when they end (docs/decisions/0101).
        database["OPTIONS"] = {**database.get("OPTIONS", {}), "pool": _pool(environ)}
    return database


def _pool(environ: Mapping[str, str]) -> dict[str, int | float]:
    min_size = _count("DATABASE_POOL_MIN_SIZE", environ.get("DATABASE_POOL_MIN_SIZE", "2"))
    max_size = _count("DATABASE_POOL_MAX_SIZE", environ.get("DATABASE_POOL_MAX_SIZE", "10"))
    if max_size < max(min_size, 1):
        raise ImproperlyConfigured(
            f"DATABASE_POOL_MAX_SIZE ({max_size}) must be at least 1 and at least "
            f"DATABASE_POOL_MIN_SIZE ({min_size})."
        )
    return {
        "min_size": min_size,
        "max_size": max_size,
        # How long a request waits for a free connection before it fails.
        "timeout": _seconds(
            "DATABASE_POOL_TIMEOUT", environ.get("DATABASE_POOL_TIMEOUT", "10"), zero=False
        ),
        # A connection above min_size is closed once one was left unused this long.
        "max_idle": _seconds(
            "DATABASE_POOL_MAX_IDLE", environ.get("DATABASE_POOL_MAX_IDLE", "60"), zero=False
        ),
    }


def _count(name: str, value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        count = -1
    if not 0 <= count <= 1000:
        raise ImproperlyConfigured(f"{name} is a whole number from 0 to 1000, not {value!r}.")
    return count


def _seconds(name: str, value: str, *, zero: bool = True) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 3600 or (seconds == 0 and not zero):
        span = "from 0 to 3600" if zero else "over 0, up to 3600"
        raise ImproperlyConfigured(f"{name} is a number of seconds {span}, not {value!r}.")
    return seconds


def _redis_url(url: str | None) -> str | None:
    if url is not None and urlsplit(url).scheme not in REDIS_SCHEMES:
        raise ImproperlyConfigured(f"REDIS_URL must start with redis:// or rediss://, got {url!r}.")
    return url


def _persisted_secret_key(var_dir: Path) -> str:
    """Generate a key on first use and keep it, so sessions survive restarts."""
    path = var_dir / "secret_key"
    var_dir.mkdir(parents=True, exist_ok=True)
    try:
        # Exclusive create: of two processes starting at once, exactly one writes the key.
        with path.open("x", encoding="utf-8") as file:
            file.write(secrets.token_urlsafe(50))
        path.chmod(0o600)
    except FileExistsError:
        pass
    return path.read_text(encoding="utf-8").strip()


def _flag(name: str, value: str) -> bool:
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean; use one of "
        f"{', '.join(sorted(TRUE_WORDS | FALSE_WORDS))}."
    )


def _host_list(value: str) -> tuple[str, ...]:
    return tuple(host.strip() for host in value.split(",") if host.strip())
