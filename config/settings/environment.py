"""The one place that turns process environment variables into typed settings values."""

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
# Only drivers that are dependencies of the project; other schemes would fail at first query.
DATABASE_SCHEMES = frozenset({"postgres", "postgresql", "sqlite"})
REDIS_SCHEMES = frozenset({"redis", "rediss"})
DEFAULT_ALLOWED_HOSTS = "127.0.0.1,localhost"
# A rate as DRF writes it (requests per second, minute, hour or day), or per a number
# of them ("10/15min"), or "off".
RATE = re.compile(r"[1-9][0-9]*/([1-9][0-9]*)?(s|sec|second|m|min|minute|h|hour|d|day)")
NO_RATE = "off"


@dataclass(frozen=True)
class Limits:
    """What one client may send: request and socket message sizes, JSON nesting, and
    the rates (``N/period``; None: not throttled) of the API and of each socket."""

    max_request_bytes: int = 1024 * 1024
    max_json_depth: int = 32
    socket_max_bytes: int = 16 * 1024
    # Per client address (anonymous) or account; per address, registering and failed
    # sign-ins together.
    throttle_anon: str | None = "1200/min"
    throttle_user: str | None = "2400/min"
    throttle_login: str | None = "20/min"
    # Failed sign-ins of one account from anywhere, and from one address: a guesser at
    # one address spends a fifth of the account's, so locking a player out takes five
    # (decision 3301).
    throttle_login_account: str | None = "50/15min"
    throttle_login_account_address: str | None = "10/15min"
    # Wrong PINs at one table, from anywhere.
    throttle_table_pin: str | None = "10/5min"
    # Words a player says at the tables (games.commands.chat), all their tables together.
    throttle_table_chat: str | None = "12/min"
    # Messages from one socket: a burst of N, then N per period (its client's sockets
    # start where its last one left off).
    socket_rate: str | None = "300/min"
    # Sockets open at once (None: no cap) per session (a signed-in user, or an
    # anonymous session) and per client address: a player's few tabs, and a club of 30
    # players on one Wi-Fi address with a table and an event tab each, twice over.
    sockets_per_session: int | None = 20
    sockets_per_address: int | None = 150


# How the site sends mail (a password reset's link): "smtp://" (STARTTLS with
# "?tls=1"), "smtps://" (TLS from the start), or "console://" (written to standard
# output: the embedded mode's, and any site without EMAIL_URL).
EMAIL_SCHEMES = frozenset({"smtp", "smtps", "console"})
DEFAULT_FROM_EMAIL = "Atu <noreply@localhost>"


@dataclass(frozen=True)
class Email:
    """The mail the site sends: through which backend, to which SMTP server, as whom."""

    backend: str = "django.core.mail.backends.console.EmailBackend"
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    use_tls: bool = False
    use_ssl: bool = False
    from_address: str = DEFAULT_FROM_EMAIL
    timeout: float = 10.0


@dataclass(frozen=True)
class Environment:
    database: Mapping[str, Any]
    redis_url: str | None
    secret_key: str
    debug: bool
    allowed_hosts: tuple[str, ...]
    bot_delay_seconds: float = 1.0
    limits: Limits = field(default_factory=Limits)
    # The role that owns the tables (DATABASE_OWNER_URL): only migrations and their
    # grants to DATABASE_URL's role connect as it, never the running application.
    database_owner: Mapping[str, Any] | None = None
    # A streaming replica of DATABASE_URL's database (DATABASE_REPLICA_URL): the reads
    # that tolerate a little staleness go there (runtime.replica, decision 3702).
    database_replica: Mapping[str, Any] | None = None
    # Deployment: where the site is published, and what runs beside it.
    production: bool = False
    csrf_trusted_origins: tuple[str, ...] = ()
    https: bool = False
    sentry_dsn: str | None = None
    # A file a server process appends its event loop's largest hold to, each second
    # (runtime/looplag.py): for benchmarks and diagnosis; None: only stalls are logged.
    loop_lag_log: Path | None = None
    # How often a server process looks in the read models for the streams its sockets
    # follow that heard nothing (games.live.fanout, tournaments.consumers), and how long a
    # page waits in silence before it pings; 0 turns the watchdog off (decision 3101).
    watchdog_seconds: float = 3.0
    email: Email = field(default_factory=Email)


def read_environment(environ: Mapping[str, str], *, base_dir: Path = BASE_DIR) -> Environment:
    """Parse and validate the settings variables; local state goes under ``base_dir/var``."""
    var_dir = base_dir / "var"
    debug = _flag("DEBUG", environ.get("DEBUG", "false"))
    production = bool(environ.get("DATABASE_URL"))
    origins = _origins(environ.get("CSRF_TRUSTED_ORIGINS", ""))
    return Environment(
        database=_database(environ, var_dir),
        redis_url=_redis_url(environ.get("REDIS_URL")),
        secret_key=_secret_key(
            environ.get("SECRET_KEY"), var_dir, required=production and not debug
        ),
        debug=debug,
        allowed_hosts=_host_list(environ.get("ALLOWED_HOSTS", DEFAULT_ALLOWED_HOSTS)),
        bot_delay_seconds=_seconds(
            "ATU_BOT_DELAY_SECONDS", environ.get("ATU_BOT_DELAY_SECONDS", "1.0")
        ),
        limits=read_limits(environ),
        database_owner=_database_owner(
            environ.get("DATABASE_OWNER_URL"), environ.get("DATABASE_URL")
        ),
        database_replica=_database_replica(environ),
        production=production,
        csrf_trusted_origins=origins,
        https=_https(environ.get("ATU_HTTPS"), origins),
        sentry_dsn=environ.get("SENTRY_DSN") or None,
        loop_lag_log=Path(environ["ATU_LOOP_LAG_LOG"]) if environ.get("ATU_LOOP_LAG_LOG") else None,
        watchdog_seconds=_seconds(
            "ATU_WATCHDOG_SECONDS", environ.get("ATU_WATCHDOG_SECONDS", "3.0")
        ),
        email=_email(environ.get("EMAIL_URL"), environ.get("DEFAULT_FROM_EMAIL")),
    )


def _email(url: str | None, from_address: str | None) -> Email:
    """``EMAIL_URL`` (``smtp://user:password@host:587?tls=1``, ``smtps://...:465``,
    ``console://``; none: the console) and ``DEFAULT_FROM_EMAIL``."""
    sender = from_address or DEFAULT_FROM_EMAIL
    if not url:
        return Email(from_address=sender)
    parts = urlsplit(url)
    if parts.scheme not in EMAIL_SCHEMES:
        raise ImproperlyConfigured(
            f"EMAIL_URL must start with smtp://, smtps:// or console://, got {parts.scheme!r}."
        )
    if parts.scheme == "console":
        return Email(from_address=sender)
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL names no SMTP server (smtp://host:port).")
    query = parse_qs(parts.query)
    ssl = parts.scheme == "smtps"
    try:
        port = parts.port or (465 if ssl else 25)
    except ValueError:
        raise ImproperlyConfigured("EMAIL_URL's port is not a number.") from None
    return Email(
        backend="django.core.mail.backends.smtp.EmailBackend",
        host=parts.hostname,
        port=port,
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        use_tls=not ssl and _flag("EMAIL_URL's tls", query.get("tls", ["false"])[0]),
        use_ssl=ssl,
        from_address=sender,
        timeout=_seconds("EMAIL_URL's timeout", query.get("timeout", ["10"])[0], zero=False),
    )


def read_limits(environ: Mapping[str, str]) -> Limits:
    """What one client may send, from the ``ATU_`` variables (the front reads them too)."""
    default = Limits()

    def size(name: str, value: int, lowest: int) -> int:
        return _whole_number(name, environ.get(name, str(value)), lowest)

    def rate(name: str, value: str | None) -> str | None:
        return _rate(name, environ.get(name, value or NO_RATE))

    def cap(name: str, value: int | None) -> int | None:
        given = environ.get(name, NO_RATE if value is None else str(value))
        return None if given.strip().lower() == NO_RATE else _whole_number(name, given, 1)

    return Limits(
        max_request_bytes=size("ATU_MAX_REQUEST_BYTES", default.max_request_bytes, 1024),
        max_json_depth=size("ATU_MAX_JSON_DEPTH", default.max_json_depth, 2),
        socket_max_bytes=size("ATU_SOCKET_MAX_BYTES", default.socket_max_bytes, 1024),
        throttle_anon=rate("ATU_THROTTLE_ANON", default.throttle_anon),
        throttle_user=rate("ATU_THROTTLE_USER", default.throttle_user),
        throttle_login=rate("ATU_THROTTLE_LOGIN", default.throttle_login),
        throttle_login_account=rate("ATU_THROTTLE_LOGIN_ACCOUNT", default.throttle_login_account),
        throttle_login_account_address=rate(
            "ATU_THROTTLE_LOGIN_ACCOUNT_ADDRESS", default.throttle_login_account_address
        ),
        throttle_table_pin=rate("ATU_THROTTLE_TABLE_PIN", default.throttle_table_pin),
        throttle_table_chat=rate("ATU_THROTTLE_TABLE_CHAT", default.throttle_table_chat),
        socket_rate=rate("ATU_SOCKET_RATE", default.socket_rate),
        sockets_per_session=cap("ATU_SOCKETS_PER_SESSION", default.sockets_per_session),
        sockets_per_address=cap("ATU_SOCKETS_PER_ADDRESS", default.sockets_per_address),
    )


def _whole_number(name: str, value: str, lowest: int, highest: int | None = None) -> int:
    try:
        number = int(value)
    except ValueError:
        number = lowest - 1
    if number < lowest or (highest is not None and number > highest):
        span = f"from {lowest}" if highest is None else f"from {lowest} to {highest}"
        raise ImproperlyConfigured(f"{name} is a whole number {span}, not {value!r}.")
    return number


def _rate(name: str, value: str) -> str | None:
    rate = value.strip().lower()
    if rate == NO_RATE:
        return None
    if not RATE.fullmatch(rate):
        raise ImproperlyConfigured(
            f"{name} is a rate such as 20/min or 10/15min (per s, min, hour or day) "
            f"or {NO_RATE!r}, "
            f"not {value!r}."
        )
    return rate


def _database(environ: Mapping[str, str], var_dir: Path) -> Mapping[str, Any]:
    url = environ.get("DATABASE_URL")
    if url is None:
        var_dir.mkdir(parents=True, exist_ok=True)
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(var_dir / "db.sqlite3")}
    return _server_database(url, environ)


def _database_replica(environ: Mapping[str, str]) -> Mapping[str, Any] | None:
    """``DATABASE_REPLICA_URL``: a PostgreSQL standby of ``DATABASE_URL``'s database,
    reached as the same role (roles are replicated), with a pool and timeouts of its
    own as ``DATABASE_POOL_*`` and ``DATABASE_*_TIMEOUT`` say."""
    url = environ.get("DATABASE_REPLICA_URL")
    if not url:
        return None
    if not environ.get("DATABASE_URL"):
        raise ImproperlyConfigured("DATABASE_REPLICA_URL is set without DATABASE_URL.")
    replica = _server_database(url, environ)
    if replica["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URL is a PostgreSQL URL (postgres://...) of a streaming replica."
        )
    return replica


def _server_database(url: str, environ: Mapping[str, str]) -> Mapping[str, Any]:
    scheme = urlsplit(url).scheme
    if scheme not in DATABASE_SCHEMES:
        raise ImproperlyConfigured(
            f"DATABASE_URL scheme {scheme!r} is not supported; "
            f"use one of {', '.join(sorted(DATABASE_SCHEMES))}."
        )
    # No persistent connections: under ASGI every request runs in a thread of its own,
    # and a connection kept past its request is never closed (one more per few requests
    # until PostgreSQL refuses clients). Health checks: the pool checks each connection
    # as it lends it (an empty query's round trip), so that none a database restart
    # closed while it waited fails the request that borrows it (decision 3702).
    database: dict[str, Any] = dict(
        dj_database_url.parse(url, conn_max_age=0, conn_health_checks=True)
    )
    if database["ENGINE"] == "django.db.backends.postgresql":
        # Requests and socket commands borrow a connection from a bounded pool per
        # process and give it back when they end (docs/decisions/0101).
        database["OPTIONS"] = {
            **database.get("OPTIONS", {}),
            "pool": _pool(environ),
            **_timeouts(environ),
        }
    return database


def _timeouts(environ: Mapping[str, str]) -> dict[str, Any]:
    """A database that accepts connections but never answers fails a connection after
    DATABASE_CONNECT_TIMEOUT seconds and a statement after DATABASE_STATEMENT_TIMEOUT
    (0: none, for a long migration run by hand), instead of holding the request,
    task or startup that waits for it."""
    connect = _whole_number(
        "DATABASE_CONNECT_TIMEOUT", environ.get("DATABASE_CONNECT_TIMEOUT", "5"), 1, 3600
    )
    statement = _seconds(
        "DATABASE_STATEMENT_TIMEOUT", environ.get("DATABASE_STATEMENT_TIMEOUT", "30")
    )
    return {
        "connect_timeout": connect,
        "options": f"-c statement_timeout={round(statement * 1000)}",
    }


def _database_owner(url: str | None, app_url: str | None) -> Mapping[str, Any] | None:
    """The owner's connection settings. Only its role and password are used, on the
    database the application is connected to (a test run's own, say)."""
    if url is None:
        return None
    if app_url is None:
        raise ImproperlyConfigured("DATABASE_OWNER_URL is set without DATABASE_URL.")
    owner = dj_database_url.parse(url)
    if owner["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_OWNER_URL is a PostgreSQL URL (postgres://...).")
    return dict(owner)


def _pool(environ: Mapping[str, str]) -> dict[str, int | float]:
    min_size = _whole_number(
        "DATABASE_POOL_MIN_SIZE", environ.get("DATABASE_POOL_MIN_SIZE", "2"), 0, 1000
    )
    max_size = _whole_number(
        "DATABASE_POOL_MAX_SIZE", environ.get("DATABASE_POOL_MAX_SIZE", "10"), 0, 1000
    )
    if max_size < max(min_size, 1):
        raise ImproperlyConfigured(
            f"DATABASE_POOL_MAX_SIZE ({max_size}) must be at least 1 and at least "
            f"DATABASE_POOL_MIN_SIZE ({min_size})."
        )
    # How long a request waits for a free connection before it fails.
    timeout = _seconds(
        "DATABASE_POOL_TIMEOUT", environ.get("DATABASE_POOL_TIMEOUT", "10"), zero=False
    )
    return {
        "min_size": min_size,
        "max_size": max_size,
        "timeout": timeout,
        # A connection above min_size is closed once one was left unused this long.
        "max_idle": _seconds(
            "DATABASE_POOL_MAX_IDLE", environ.get("DATABASE_POOL_MAX_IDLE", "60"), zero=False
        ),
        # While the database is down the pool's attempts to connect pause longer each
        # time (1, 2, 4 … s); one gives up after as long as a request waits, so that
        # once the database is back the next request's attempt starts at once rather
        # than after a pause as long as the outage (decision 3702).
        "reconnect_timeout": timeout,
    }


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


def _secret_key(key: str | None, var_dir: Path, *, required: bool) -> str:
    if key:
        return key
    # A production site's processes may run on several machines, and a key kept in
    # one machine's var/ would sign sessions the others refuse (or, copied about,
    # leak): it must be given. Embedded and debugging runs keep a generated one.
    if required:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in production mode (DATABASE_URL is set and DEBUG is "
            "off): generate one with "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'` and keep it secret."
        )
    return _persisted_secret_key(var_dir)


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


def _origins(value: str) -> tuple[str, ...]:
    origins = _host_list(value)
    for origin in origins:
        parts = urlsplit(origin)
        if parts.scheme not in {"http", "https"} or not parts.netloc or parts.path:
            raise ImproperlyConfigured(
                f"CSRF_TRUSTED_ORIGINS holds origins such as https://atu.example, not {origin!r}."
            )
    return origins


def _https(value: str | None, origins: tuple[str, ...]) -> bool:
    """Whether browsers reach the site over TLS: said outright, or seen in its origins."""
    if value is not None:
        return _flag("ATU_HTTPS", value)
    return bool(origins) and all(origin.startswith("https://") for origin in origins)
