"""Settings for the test suite: the real settings with cheaper passwords and connections."""

from config.settings import *  # noqa: F403
from config.settings import DATABASES

# Real hashers are slow on purpose; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A persistent connection opened in a Channels worker thread outlives the test and keeps
# PostgreSQL from dropping the test database at the end of the run.
DATABASES["default"]["CONN_MAX_AGE"] = 0
