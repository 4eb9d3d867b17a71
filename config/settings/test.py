"""Settings for the test suite: the real settings with cheaper passwords."""

import os

from config.settings import *  # noqa: F403
from config.settings import BASE_DIR, DATABASES

# Real hashers are slow on purpose; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not SQLite's shared in-memory database: bot timer threads and socket
    # consumers write beside the test, and only a file database waits for a lock
    # (the timeout) instead of failing with "database table is locked". One file
    # per test run, so that runs side by side do not share it.
    # A test database need not survive a crash: no fsync per commit.
    DATABASES["default"]["OPTIONS"] |= {
        "init_command": "PRAGMA synchronous=OFF; PRAGMA journal_mode=WAL;",
    }
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / f"test-{os.getpid()}.sqlite3")}
