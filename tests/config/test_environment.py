from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.environment import read_environment


def test_defaults_run_embedded_with_sqlite_under_var(tmp_path: Path) -> None:
    env = read_environment({}, base_dir=tmp_path)

    assert env.database == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(tmp_path / "var" / "db.sqlite3"),
    }
    assert (tmp_path / "var").is_dir()
    assert env.redis_url is None
    assert env.debug is False
    assert env.allowed_hosts == ("127.0.0.1", "localhost")


def test_postgres_database_url_is_parsed_with_a_bounded_pool_and_no_persistent_connections(
    tmp_path: Path,
) -> None:
    env = read_environment(
        {"DATABASE_URL": "postgres://postgres:pw@127.0.0.1:5432/atu"}, base_dir=tmp_path
    )

    assert env.database["ENGINE"] == "django.db.backends.postgresql"
    assert env.database["NAME"] == "atu"
    assert env.database["USER"] == "postgres"
    assert env.database["PASSWORD"] == "pw"
    assert env.database["HOST"] == "127.0.0.1"
    assert env.database["PORT"] == 5432
    assert env.database["CONN_MAX_AGE"] == 0
    assert env.database["CONN_HEALTH_CHECKS"] is False
    assert env.database["OPTIONS"] == {
        "pool": {"min_size": 2, "max_size": 10, "timeout": 10.0, "max_idle": 60.0}
    }


def test_the_pool_is_sized_and_timed_from_the_environment(tmp_path: Path) -> None:
    env = read_environment(
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/atu?application_name=atu-web",
            "DATABASE_POOL_MIN_SIZE": "0",
            "DATABASE_POOL_MAX_SIZE": "25",
            "DATABASE_POOL_TIMEOUT": "2.5",
            "DATABASE_POOL_MAX_IDLE": "300",
        },
        base_dir=tmp_path,
    )

    assert env.database["CONN_MAX_AGE"] == 0
    assert env.database["OPTIONS"] == {
        "application_name": "atu-web",
        "pool": {"min_size": 0, "max_size": 25, "timeout": 2.5, "max_idle": 300.0},
    }


def test_a_sqlite_database_url_has_no_pool(tmp_path: Path) -> None:
    env = read_environment({"DATABASE_URL": f"sqlite:///{tmp_path}/atu.sqlite3"}, base_dir=tmp_path)

    assert env.database["ENGINE"] == "django.db.backends.sqlite3"
    assert env.database["CONN_MAX_AGE"] == 0
    assert "pool" not in env.database.get("OPTIONS", {})


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        (
            {"DATABASE_POOL_MAX_SIZE": "many"},
            "DATABASE_POOL_MAX_SIZE is a whole number from 0 to 1000, not 'many'.",
        ),
        (
            {"DATABASE_POOL_MIN_SIZE": "-1"},
            "DATABASE_POOL_MIN_SIZE is a whole number from 0 to 1000, not '-1'.",
        ),
        (
            {"DATABASE_POOL_MIN_SIZE": "2.5"},
            "DATABASE_POOL_MIN_SIZE is a whole number from 0 to 1000, not '2.5'.",
        ),
        (
            {"DATABASE_POOL_MIN_SIZE": "0", "DATABASE_POOL_MAX_SIZE": "0"},
            "DATABASE_POOL_MAX_SIZE (0) must be at least 1 and at least "
            "DATABASE_POOL_MIN_SIZE (0).",
        ),
        (
            {"DATABASE_POOL_MIN_SIZE": "5", "DATABASE_POOL_MAX_SIZE": "3"},
            "DATABASE_POOL_MAX_SIZE (3) must be at least 1 and at least "
            "DATABASE_POOL_MIN_SIZE (5).",
        ),
        (
            {"DATABASE_POOL_TIMEOUT": "0"},
            "DATABASE_POOL_TIMEOUT is a number of seconds over 0, up to 3600, not '0'.",
        ),
        (
            {"DATABASE_POOL_MAX_IDLE": "soon"},
            "DATABASE_POOL_MAX_IDLE is a number of seconds over 0, up to 3600, not 'soon'.",
        ),
    ],
)
def test_pool_variables_out_of_range_are_rejected(
    tmp_path: Path, variables: dict[str, str], message: str
) -> None:
    environ = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/atu", **variables}

    with pytest.raises(ImproperlyConfigured) as raised:
        read_environment(environ, base_dir=tmp_path)

    assert str(raised.value) == message


def test_unsupported_database_scheme_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL scheme 'mysql' is not supported"):
        read_environment({"DATABASE_URL": "mysql://root@127.0.0.1/atu"}, base_dir=tmp_path)


def test_redis_url_is_kept(tmp_path: Path) -> None:
    env = read_environment({"REDIS_URL": "redis://127.0.0.1:6379/0"}, base_dir=tmp_path)

    assert env.redis_url == "redis://127.0.0.1:6379/0"


def test_redis_url_without_redis_scheme_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must start with redis://"):
        read_environment({"REDIS_URL": "127.0.0.1:6379"}, base_dir=tmp_path)


@pytest.mark.parametrize("value", ["1", "true", "yes", "on", "TRUE", " On "])
def test_debug_accepts_true_words(tmp_path: Path, value: str) -> None:
    assert read_environment({"DEBUG": value}, base_dir=tmp_path).debug is True


@pytest.mark.parametrize("value", ["0", "false", "no", "off", "False"])
def test_debug_accepts_false_words(tmp_path: Path, value: str) -> None:
    assert read_environment({"DEBUG": value}, base_dir=tmp_path).debug is False


def test_debug_that_is_not_a_boolean_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe' is not a boolean"):
        read_environment({"DEBUG": "maybe"}, base_dir=tmp_path)


def test_allowed_hosts_are_split_on_commas_and_trimmed(tmp_path: Path) -> None:
    env = read_environment({"ALLOWED_HOSTS": " atu.example , www.atu.example,"}, base_dir=tmp_path)

    assert env.allowed_hosts == ("atu.example", "www.atu.example")


def test_secret_key_from_environment_is_used_and_not_persisted(tmp_path: Path) -> None:
    env = read_environment({"SECRET_KEY": "from-the-environment"}, base_dir=tmp_path)

    assert env.secret_key == "from-the-environment"
    assert not (tmp_path / "var" / "secret_key").exists()


def test_generated_secret_key_is_persisted_and_reused(tmp_path: Path) -> None:
    first = read_environment({}, base_dir=tmp_path)

    second = read_environment({}, base_dir=tmp_path)

    assert len(first.secret_key) >= 50
    assert second.secret_key == first.secret_key
    assert (tmp_path / "var" / "secret_key").read_text(encoding="utf-8") == first.secret_key


def test_environment_is_immutable(tmp_path: Path) -> None:
    env = read_environment({}, base_dir=tmp_path)

    with pytest.raises(AttributeError):
        env.debug = True


def test_the_bot_delay_is_one_second_unless_set(tmp_path: Path) -> None:
    assert read_environment({}, base_dir=tmp_path).bot_delay_seconds == 1.0
    assert (
        read_environment({"ATU_BOT_DELAY_SECONDS": "0.25"}, base_dir=tmp_path).bot_delay_seconds
        == 0.25
    )


@pytest.mark.parametrize("value", ["soon", "-1", "7200"])
def test_a_bot_delay_that_is_not_0_to_3600_seconds_is_rejected(tmp_path: Path, value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="ATU_BOT_DELAY_SECONDS is a number of seconds"):
        read_environment({"ATU_BOT_DELAY_SECONDS": value}, base_dir=tmp_path)
