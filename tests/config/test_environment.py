from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.environment import Limits, read_environment


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


def test_postgres_database_url_is_parsed_with_persistent_checked_connections(
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
    assert env.database["CONN_MAX_AGE"] == 60
    assert env.database["CONN_HEALTH_CHECKS"] is False


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


def test_limits_default_to_generous_rates_and_a_megabyte(tmp_path: Path) -> None:
    limits = read_environment({}, base_dir=tmp_path).limits

    assert limits == Limits(
        max_request_bytes=1048576,
        max_json_depth=32,
        socket_max_bytes=16384,
        throttle_anon="1200/min",
        throttle_user="2400/min",
        throttle_login="20/min",
        socket_rate="300/min",
    )


def test_limits_are_read_from_their_variables(tmp_path: Path) -> None:
    environ = {
        "ATU_MAX_REQUEST_BYTES": "65536",
        "ATU_MAX_JSON_DEPTH": "8",
        "ATU_SOCKET_MAX_BYTES": "4096",
        "ATU_THROTTLE_ANON": "100/s",
        "ATU_THROTTLE_USER": "off",
        "ATU_THROTTLE_LOGIN": " 5/Hour ",
        "ATU_SOCKET_RATE": "10/second",
    }

    limits = read_environment(environ, base_dir=tmp_path).limits

    assert limits == Limits(
        max_request_bytes=65536,
        max_json_depth=8,
        socket_max_bytes=4096,
        throttle_anon="100/s",
        throttle_user=None,
        throttle_login="5/hour",
        socket_rate="10/second",
    )


@pytest.mark.parametrize("value", ["20", "20/week", "0/min", "-1/min", "twenty/min", ""])
def test_a_rate_that_is_not_n_per_period_is_rejected(tmp_path: Path, value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="ATU_THROTTLE_LOGIN is a rate such as 20/min"):
        read_environment({"ATU_THROTTLE_LOGIN": value}, base_dir=tmp_path)


@pytest.mark.parametrize("value", ["1023", "1e6", "", "big"])
def test_a_size_below_a_kilobyte_or_not_a_whole_number_is_rejected(
    tmp_path: Path, value: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match="ATU_MAX_REQUEST_BYTES is a whole number"):
        read_environment({"ATU_MAX_REQUEST_BYTES": value}, base_dir=tmp_path)
