"""Django settings for Atu. Every deployment-specific value comes from ``ENV``."""

import os
from typing import Any

import sentry_sdk
from csp.constants import NONE, SELF

from config.settings.environment import BASE_DIR, read_environment
from runtime.logging import logging_config

ENV = read_environment(os.environ)

SECRET_KEY = ENV.secret_key
DEBUG = ENV.debug
ALLOWED_HOSTS = list(ENV.allowed_hosts)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "eventlog",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "runtime.middleware.RequestContextMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "runtime" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": dict(ENV.database)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Server threads, bot timers and tasks write side by side. A deferred transaction
    # that read and then writes fails at once ("database is locked") when another
    # writer got in between; an immediate one takes the write lock first and waits.
    # WAL lets the sockets read while a writer writes.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
    }
if ENV.database_replica is not None:
    # The reads that tolerate a little staleness (runtime.replica.stale_reads); the
    # test run's mirrors the test database, a real replica's test starts its own.
    DATABASES["replica"] = {**ENV.database_replica, "TEST": {"MIRROR": "default"}}
# Writes and migrations on the primary, whatever a row was read from (decision 3702).
DATABASE_ROUTERS = ["runtime.replica.PrimaryRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Without Redis everything runs in one process, so the in-memory layer is enough.
# With Redis, the pub/sub layer: its group broadcast is faster than the core
# RedisChannelLayer's, and with redis-py 8 the core layer drops idle consumers
# (decision 0002).
# A Redis that accepts connections but does not answer fails a call after these
# seconds instead of holding its request, socket or task for ever (the layer's
# reads of its subscriptions wait with their own, shorter timeout).
REDIS_TIMEOUTS = {"socket_connect_timeout": 5.0, "socket_timeout": 5.0}
CHANNEL_LAYERS = {
    "default": (
        {"BACKEND": "channels.layers.InMemoryChannelLayer"}
        if ENV.redis_url is None
        else {
            "BACKEND": "runtime.channel_layer.RedisPubSubLayer",
            "CONFIG": {"hosts": [{"address": ENV.redis_url, **REDIS_TIMEOUTS}]},
        }
    )
}

# Without Redis there is no broker and no worker, so tasks run inline where they are sent.
CELERY_BROKER_URL = ENV.redis_url or "memory://"
CELERY_RESULT_BACKEND = ENV.redis_url
CELERY_TASK_ALWAYS_EAGER = ENV.redis_url is None
CELERY_TASK_EAGER_PROPAGATES = True
# A game's analysis (seconds of CPU) has its own workers, at a lower priority, so that
# it never holds a move, a bot's turn or the standings back (decision 3602).
CELERY_TASK_ROUTES = {"games.tasks.analyse_game": {"queue": "analysis"}}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_TIMEOUTS["socket_connect_timeout"]
CELERY_REDIS_SOCKET_TIMEOUT = REDIS_TIMEOUTS["socket_timeout"]

# How long a bot seat waits before it plays, so that people can follow the game.
ATU_BOT_DELAY_SECONDS = ENV.bot_delay_seconds
ATU_LOOP_LAG_LOG = ENV.loop_lag_log
ATU_WATCHDOG_SECONDS = ENV.watchdog_seconds

# How often the schedule's clock looks for events whose start has come: Celery beat's,
# or embedded, the server process's (tournaments.clock).
ATU_CLOCK_SECONDS = 10.0
# Days the words said at a table are kept; a reported one stays for the site's staff.
ATU_CHAT_RETENTION_DAYS = 90
# Moves are scheduled when a turn begins; beat makes sure none is lost to a restart.
CELERY_BEAT_SCHEDULE = {
    "resume-automatic-moves": {"task": "games.tasks.resume_automatic_moves", "schedule": 60.0},
    "check-standings": {"task": "tournaments.tasks.check_standings", "schedule": 60.0},
    # The words said at the tables are kept ATU_CHAT_RETENTION_DAYS (decision 3506).
    "forget-old-words": {"task": "games.tasks.forget_old_words", "schedule": 3600.0},
    # Scheduled events start on time, within this many seconds.
    "begin-scheduled-events": {
        "task": "tournaments.tasks.begin_due_events",
        "schedule": ATU_CLOCK_SECONDS,
    },
}
# A hand scored while no standings update of its event is on its way sends one at once;
# the hands scored while one is on its way send one more, this many seconds after it
# (tournaments.tasks.schedule_standings).
ATU_STANDINGS_SPACING_SECONDS = 0.5
# The room's screen (tournaments.views.screen): for this long after a round starts it
# shows who sits where instead of the standings; a list too long for it turns a page
# this often.
ATU_SCREEN_SEATING_SECONDS = 300
ATU_SCREEN_PAGE_SECONDS = 12
# How long a minute of a published results' protest window lasts: a minute; the
# tests shorten it to see a publication become final without waiting.
ATU_PROTEST_MINUTE_SECONDS = 60
# Likewise for a round's time limit (EventCreated.round_minutes), and the warnings the
# tables see before it: minutes left.
ATU_ROUND_MINUTE_SECONDS = 60
ATU_ROUND_WARNING_MINUTES = (10, 5)

# Shared by the server processes and the workers in production (the standings'
# debounce keys); embedded, one process needs no more than its own memory.
CACHES: dict[str, dict[str, Any]] = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": ENV.redis_url,
            "OPTIONS": REDIS_TIMEOUTS,
        }
        if ENV.redis_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # Request counts (runtime.throttling): shared by the server processes in production,
    # under their own prefix so that they can be told from the rest of the database.
    "throttle": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": ENV.redis_url,
            "KEY_PREFIX": "atu-throttle",
            "OPTIONS": REDIS_TIMEOUTS,
        }
        if ENV.redis_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"}
    ),
}

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
# Mail (a password reset's link): EMAIL_URL, or the console (config.settings.environment).
EMAIL_BACKEND = ENV.email.backend
EMAIL_HOST = ENV.email.host
EMAIL_PORT = ENV.email.port
EMAIL_HOST_USER = ENV.email.user
EMAIL_HOST_PASSWORD = ENV.email.password
EMAIL_USE_TLS = ENV.email.use_tls
EMAIL_USE_SSL = ENV.email.use_ssl
EMAIL_TIMEOUT = ENV.email.timeout
DEFAULT_FROM_EMAIL = ENV.email.from_address
# How long a password reset's link works.
PASSWORD_RESET_TIMEOUT = 3600
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    # Token first: its ``WWW-Authenticate`` header turns "not signed in" into a 401.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON in, JSON out; /api/docs/ is the browsable side. Nesting is bounded.
    "DEFAULT_PARSER_CLASSES": ["runtime.limits.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Every error body is {"code": ..., "message": ...}.
    "EXCEPTION_HANDLER": "runtime.api_errors.api_exception_handler",
    # Rates per address or account (runtime.throttling); the register views add "login".
    # The budgets of failed attempts (runtime.throttling.take_attempt) are here too:
    # signing in spends "login" and the "login-account" ones, a table's PIN "table-pin",
    # and each word a player says at a table "table-chat".
    "DEFAULT_THROTTLE_CLASSES": [
        "runtime.throttling.AnonThrottle",
        "runtime.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": ENV.limits.throttle_anon,
        "user": ENV.limits.throttle_user,
        "login": ENV.limits.throttle_login,
        "login-account": ENV.limits.throttle_login_account,
        "login-account-address": ENV.limits.throttle_login_account_address,
        "table-pin": ENV.limits.throttle_table_pin,
        "table-chat": ENV.limits.throttle_table_chat,
    },
    # The client's address is REMOTE_ADDR: uvicorn already takes it from
    # X-Forwarded-For when the connection comes from a trusted proxy (the front), and
    # only then. DRF's default (None) would trust any client's X-Forwarded-For.
    "NUM_PROXIES": 0,
}

# What one client may send (runtime.limits): a body, a socket message, JSON nesting,
# socket messages per period, and sockets at once (runtime.throttling).
DATA_UPLOAD_MAX_MEMORY_SIZE = ENV.limits.max_request_bytes
ATU_MAX_JSON_DEPTH = ENV.limits.max_json_depth
ATU_SOCKET_MAX_BYTES = ENV.limits.socket_max_bytes
ATU_SOCKET_RATE = ENV.limits.socket_rate
ATU_SOCKETS_PER_SESSION = ENV.limits.sockets_per_session
ATU_SOCKETS_PER_ADDRESS = ENV.limits.sockets_per_address

SPECTACULAR_SETTINGS = {
    "TITLE": "Atu API",
    "DESCRIPTION": (
        "Romanian Whist tables: create, join, bid and play, and read each game as you may "
        "see it. Authenticate with `Authorization: Token <key>` (from `/api/auth/token/` or "
        "`/api/auth/login/`) or a session. Every error is "
        '`{"code": ..., "message": ...}`.'
    ),
    "VERSION": "0.1.0",
    # 3.1 schemas are plain JSON Schema, which the tests check responses against.
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI's assets come from drf-spectacular-sidecar: no CDN at runtime.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for each set of choices used by several fields.
    "ENUM_NAME_OVERRIDES": {
        "VisibilityEnum": "games.web.serializers.VISIBILITY_CHOICES",
        "GameStatusEnum": "games.web.serializers.STATUS_CHOICES",
        "GameKindEnum": "games.table.GAME_KINDS",
        "ChatModeEnum": "games.read.selectors.CHAT_MODES",
    },
}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ro", "Română")]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

LOCALE_PATHS = [BASE_DIR / "locale"]

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
STATICFILES_DIRS = [BASE_DIR / "runtime" / "static"]
# WhiteNoise warns on every start while STATIC_ROOT is missing; empty is fine before collectstatic.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
if ENV.production:
    # Names carry a hash of the content, so whitenoise can let browsers and caches
    # keep them for good; gzip copies are made once, by collectstatic (which
    # `make serve` and `make test` run before anything is served).
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
else:
    # Serve straight from the app folders so `make run` needs no collectstatic step.
    WHITENOISE_USE_FINDERS = True

# Deployment: TLS, the content security policy, logs (docs/deployment.md).
CSRF_TRUSTED_ORIGINS = list(ENV.csrf_trusted_origins)
if ENV.https:
    # Browsers reach the site over TLS, ended by the front, which says so in this
    # header (docker/nginx.conf sets it and lets no client's through).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # Probes come over plain HTTP from beside the processes.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Only our own files: no inline script or style, nothing from elsewhere. Images may
# be data: URLs (Swagger UI's icons).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = logging_config()
# Celery keeps Django's logging instead of putting its own format on the root logger.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
if ENV.sentry_dsn:
    # Its Django, Celery and Redis integrations turn on by themselves.
    sentry_sdk.init(dsn=ENV.sentry_dsn, send_default_pii=False)
