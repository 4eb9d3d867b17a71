import socket
import time
from pathlib import Path

import psycopg
import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.environment import Email, Limits, read_environment
from tests.games.live.test_two_processes import production_only, this_tests_database_url


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


def test_postgres_database_url_is_parsed_with_a_bounded_checked_pool_and_no_persistent_connections(
    tmp_path: Path,
) -> None:
    env = read_environment(
        {"DATABASE_URL": "postgres://postgres:pw@127.0.0.1:5432/atu", "SECRET_KEY": "k"},
        base_dir=tmp_path,
    )

    assert env.database["ENGINE"] == "django.db.backends.postgresql"
    assert env.database["NAME"] == "atu"
    assert env.database["USER"] == "postgres"
    assert env.database["PASSWORD"] == "pw"
    assert env.database["HOST"] == "127.0.0.1"
    assert env.database["PORT"] == 5432
    assert env.database["CONN_MAX_AGE"] == 0
    assert env.database["CONN_HEALTH_CHECKS"] is True
    assert env.database["OPTIONS"] == {
        "pool": {
            "min_size": 2,
            "max_size": 10,
            "timeout": 10.0,
            "max_idle": 60.0,
            "reconnect_timeout": 10.0,
        },
        "connect_timeout": 5,
        "options": "-c statement_timeout=30000",
    }


def test_the_pool_is_sized_and_timed_from_the_environment(tmp_path: Path) -> None:
    env = read_environment(
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/atu?application_name=atu-web",
            "SECRET_KEY": "k",
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
        "pool": {
            "min_size": 0,
            "max_size": 25,
            "timeout": 2.5,
            "max_idle": 300.0,
            "reconnect_timeout": 2.5,
        },
        "connect_timeout": 5,
        "options": "-c statement_timeout=30000",
    }


def test_a_sqlite_database_url_has_no_pool(tmp_path: Path) -> None:
    env = read_environment(
        {"DATABASE_URL": f"sqlite:///{tmp_path}/atu.sqlite3", "SECRET_KEY": "k"}, base_dir=tmp_path
    )

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
        (
            {"DATABASE_CONNECT_TIMEOUT": "0"},
            "DATABASE_CONNECT_TIMEOUT is a whole number from 1 to 3600, not '0'.",
        ),
        (
            {"DATABASE_STATEMENT_TIMEOUT": "-1"},
            "DATABASE_STATEMENT_TIMEOUT is a number of seconds from 0 to 3600, not '-1'.",
        ),
    ],
)
def test_database_variables_out_of_range_are_rejected(
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


def test_the_sockets_watchdog_looks_every_3_seconds_unless_set_and_0_turns_it_off(
    tmp_path: Path,
) -> None:
    assert read_environment({}, base_dir=tmp_path).watchdog_seconds == 3.0
    for value, seconds in (("1.5", 1.5), ("0", 0.0)):
        environ = {"ATU_WATCHDOG_SECONDS": value}
        assert read_environment(environ, base_dir=tmp_path).watchdog_seconds == seconds
    with pytest.raises(ImproperlyConfigured, match="ATU_WATCHDOG_SECONDS is a number of seconds"):
        read_environment({"ATU_WATCHDOG_SECONDS": "-1"}, base_dir=tmp_path)


def test_the_database_owner_is_read_from_its_own_url_and_is_none_unless_set(
    tmp_path: Path,
) -> None:
    app = {"DATABASE_URL": "postgres://atu_app:a@127.0.0.1:5432/atu", "SECRET_KEY": "k" * 50}
    owner = "postgres://atu:o@127.0.0.1:5432/atu"

    env = read_environment({**app, "DATABASE_OWNER_URL": owner}, base_dir=tmp_path)

    assert env.database["USER"] == "atu_app"
    assert env.database_owner is not None
    assert (env.database_owner["USER"], env.database_owner["PASSWORD"]) == ("atu", "o")
    assert read_environment(app, base_dir=tmp_path).database_owner is None


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"DATABASE_OWNER_URL": "postgres://atu@127.0.0.1/atu"}, "without DATABASE_URL"),
        (
            {
                "DATABASE_URL": "postgres://atu_app@127.0.0.1/atu",
                "DATABASE_OWNER_URL": "sqlite:///owner.sqlite3",
                "SECRET_KEY": "k" * 50,
            },
            "a PostgreSQL URL",
        ),
    ],
)
def test_a_database_owner_without_a_postgres_database_is_rejected(
    tmp_path: Path, variables: dict[str, str], message: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        read_environment(variables, base_dir=tmp_path)


def test_a_replica_is_read_from_its_own_url_with_the_primarys_pool_and_timeouts(
    tmp_path: Path,
) -> None:
    # Given a primary and a streaming replica of it, and the pool's variables
    primary = {
        "DATABASE_URL": "postgres://atu_app:a@10.0.0.1:5432/atu",
        "SECRET_KEY": "k" * 50,
        "DATABASE_POOL_MAX_SIZE": "6",
    }
    replica = "postgres://atu_app:a@10.0.0.2:5433/atu"

    # When the environment is read
    env = read_environment({**primary, "DATABASE_REPLICA_URL": replica}, base_dir=tmp_path)

    # Then the replica is a PostgreSQL connection of its own, pooled and timed as the
    # primary's, and there is none unless it is named
    assert env.database_replica is not None
    assert (env.database_replica["HOST"], env.database_replica["PORT"]) == ("10.0.0.2", 5433)
    assert env.database_replica["USER"] == "atu_app"
    assert env.database_replica["OPTIONS"] == env.database["OPTIONS"]
    assert env.database_replica["OPTIONS"]["pool"]["max_size"] == 6
    assert env.database_replica["CONN_MAX_AGE"] == 0
    assert read_environment(primary, base_dir=tmp_path).database_replica is None


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"DATABASE_REPLICA_URL": "postgres://atu_app@127.0.0.1/atu"}, "without DATABASE_URL"),
        (
            {
                "DATABASE_URL": "postgres://atu_app@127.0.0.1/atu",
                "DATABASE_REPLICA_URL": "sqlite:///replica.sqlite3",
                "SECRET_KEY": "k" * 50,
            },
            "a PostgreSQL URL",
        ),
    ],
)
def test_a_replica_that_is_no_postgresql_standby_of_a_primary_is_rejected(
    tmp_path: Path, variables: dict[str, str], message: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        read_environment(variables, base_dir=tmp_path)


def test_production_mode_without_a_secret_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set in production mode"):
        read_environment({"DATABASE_URL": "postgres://postgres@127.0.0.1/atu"}, base_dir=tmp_path)

    assert not (tmp_path / "var" / "secret_key").exists()


def test_production_mode_under_debug_keeps_a_generated_key(tmp_path: Path) -> None:
    env = read_environment(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1/atu", "DEBUG": "on"}, base_dir=tmp_path
    )

    assert env.production is True
    assert env.secret_key == (tmp_path / "var" / "secret_key").read_text(encoding="utf-8")


def test_embedded_mode_is_not_production_and_not_https(tmp_path: Path) -> None:
    env = read_environment({}, base_dir=tmp_path)

    assert env.production is False
    assert env.https is False
    assert env.csrf_trusted_origins == ()
    assert env.sentry_dsn is None


def test_https_origins_mean_the_site_is_served_over_tls(tmp_path: Path) -> None:
    env = read_environment(
        {"CSRF_TRUSTED_ORIGINS": "https://atu.example, https://www.atu.example:8443"},
        base_dir=tmp_path,
    )

    assert env.csrf_trusted_origins == ("https://atu.example", "https://www.atu.example:8443")
    assert env.https is True


def test_an_http_origin_among_them_means_no_tls(tmp_path: Path) -> None:
    env = read_environment(
        {"CSRF_TRUSTED_ORIGINS": "https://atu.example,http://127.0.0.1:8000"}, base_dir=tmp_path
    )

    assert env.https is False


@pytest.mark.parametrize(("value", "https"), [("on", True), ("off", False)])
def test_atu_https_says_outright_whether_the_site_is_served_over_tls(
    tmp_path: Path, value: str, https: bool
) -> None:
    env = read_environment(
        {"ATU_HTTPS": value, "CSRF_TRUSTED_ORIGINS": "https://atu.example"}, base_dir=tmp_path
    )

    assert env.https is https


@pytest.mark.parametrize("origin", ["atu.example", "https://atu.example/path", "ftp://atu.example"])
def test_a_trusted_origin_that_is_not_an_origin_is_rejected(tmp_path: Path, origin: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="CSRF_TRUSTED_ORIGINS holds origins"):
        read_environment({"CSRF_TRUSTED_ORIGINS": origin}, base_dir=tmp_path)


def test_sentry_dsn_is_kept(tmp_path: Path) -> None:
    env = read_environment({"SENTRY_DSN": "https://key@sentry.example/1"}, base_dir=tmp_path)

    assert env.sentry_dsn == "https://key@sentry.example/1"


def test_limits_default_to_generous_rates_and_a_megabyte(tmp_path: Path) -> None:
    limits = read_environment({}, base_dir=tmp_path).limits

    assert limits == Limits(
        max_request_bytes=1048576,
        max_json_depth=32,
        socket_max_bytes=16384,
        throttle_anon="1200/min",
        throttle_user="2400/min",
        throttle_login="20/min",
        throttle_login_account="50/15min",
        throttle_login_account_address="10/15min",
        throttle_table_pin="10/5min",
        throttle_table_chat="12/min",
        socket_rate="300/min",
        sockets_per_session=20,
        sockets_per_address=150,
    )


def test_limits_are_read_from_their_variables(tmp_path: Path) -> None:
    environ = {
        "ATU_MAX_REQUEST_BYTES": "65536",
        "ATU_MAX_JSON_DEPTH": "8",
        "ATU_SOCKET_MAX_BYTES": "4096",
        "ATU_THROTTLE_ANON": "100/s",
        "ATU_THROTTLE_USER": "off",
        "ATU_THROTTLE_LOGIN": " 5/Hour ",
        "ATU_THROTTLE_LOGIN_ACCOUNT": "30/2hour",
        "ATU_THROTTLE_LOGIN_ACCOUNT_ADDRESS": "off",
        "ATU_THROTTLE_TABLE_PIN": "5/10min",
        "ATU_THROTTLE_TABLE_CHAT": "3/10s",
        "ATU_SOCKET_RATE": "10/second",
        "ATU_SOCKETS_PER_SESSION": "off",
        "ATU_SOCKETS_PER_ADDRESS": "400",
    }

    limits = read_environment(environ, base_dir=tmp_path).limits

    assert limits == Limits(
        max_request_bytes=65536,
        max_json_depth=8,
        socket_max_bytes=4096,
        throttle_anon="100/s",
        throttle_user=None,
        throttle_login="5/hour",
        throttle_login_account="30/2hour",
        throttle_login_account_address=None,
        throttle_table_pin="5/10min",
        throttle_table_chat="3/10s",
        socket_rate="10/second",
        sockets_per_session=None,
        sockets_per_address=400,
    )


@pytest.mark.parametrize("value", ["0", "-3", "many", ""])
def test_a_socket_cap_that_is_not_a_whole_number_from_1_or_off_is_rejected(
    tmp_path: Path, value: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match="ATU_SOCKETS_PER_ADDRESS is a whole number"):
        read_environment({"ATU_SOCKETS_PER_ADDRESS": value}, base_dir=tmp_path)


@pytest.mark.parametrize(
    "value", ["20", "20/week", "0/min", "-1/min", "twenty/min", "", "10/0min", "10/-5min"]
)
def test_a_rate_that_is_not_n_per_period_is_rejected(tmp_path: Path, value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="ATU_THROTTLE_LOGIN is a rate such as 20/min"):
        read_environment({"ATU_THROTTLE_LOGIN": value}, base_dir=tmp_path)


@pytest.mark.parametrize("value", ["1023", "1e6", "", "big"])
def test_a_size_below_a_kilobyte_or_not_a_whole_number_is_rejected(
    tmp_path: Path, value: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match="ATU_MAX_REQUEST_BYTES is a whole number"):
        read_environment({"ATU_MAX_REQUEST_BYTES": value}, base_dir=tmp_path)


def test_the_database_timeouts_are_read_from_their_variables(tmp_path: Path) -> None:
    env = read_environment(
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/atu",
            "SECRET_KEY": "k",
            "DATABASE_CONNECT_TIMEOUT": "2",
            "DATABASE_STATEMENT_TIMEOUT": "0.25",
        },
        base_dir=tmp_path,
    )

    assert env.database["OPTIONS"]["connect_timeout"] == 2
    assert env.database["OPTIONS"]["options"] == "-c statement_timeout=250"


def test_a_statement_timeout_of_0_means_none(tmp_path: Path) -> None:
    environ = {
        "DATABASE_URL": "postgres://p@h/atu",
        "SECRET_KEY": "k",
        "DATABASE_STATEMENT_TIMEOUT": "0",
    }

    env = read_environment(environ, base_dir=tmp_path)

    assert env.database["OPTIONS"]["options"] == "-c statement_timeout=0"


def test_a_database_that_never_answers_fails_the_connection_after_the_connect_timeout(
    tmp_path: Path,
) -> None:
    # Given a "database" that takes connections and never says a word
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        env = read_environment(
            {
                "DATABASE_URL": f"postgres://atu@127.0.0.1:{port}/atu",
                "SECRET_KEY": "k",
                "DATABASE_CONNECT_TIMEOUT": "1",
            },
            base_dir=tmp_path,
        )
        options = {k: v for k, v in env.database["OPTIONS"].items() if k != "pool"}

        # When a connection is made with the settings' options
        start = time.monotonic()
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(host="127.0.0.1", port=port, dbname="atu", user="atu", **options)

        # Then it fails after about the timeout, instead of waiting for ever
        assert time.monotonic() - start < 3


@production_only
@pytest.mark.django_db
def test_a_statement_over_the_statement_timeout_is_cancelled(tmp_path: Path) -> None:
    # Given the settings' options with a quarter-second statement timeout
    env = read_environment(
        {
            "DATABASE_URL": this_tests_database_url(),
            "SECRET_KEY": "k",
            "DATABASE_STATEMENT_TIMEOUT": "0.25",
        },
        base_dir=tmp_path,
    )
    database = env.database
    options = {k: v for k, v in database["OPTIONS"].items() if k != "pool"}
    connection = psycopg.connect(
        host=database["HOST"],
        port=database["PORT"],
        dbname=database["NAME"],
        user=database["USER"],
        password=database["PASSWORD"] or None,
        **options,
    )

    # When a statement runs longer, it is cancelled
    with connection, pytest.raises(psycopg.errors.QueryCanceled):
        connection.execute("SELECT pg_sleep(2)")


@production_only
@pytest.mark.django_db
def test_the_test_database_runs_under_the_default_statement_timeout() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone() == ("30s",)


def test_mail_goes_to_the_console_without_an_email_url(tmp_path: Path) -> None:
    env = read_environment({}, base_dir=tmp_path)

    assert env.email == Email(
        backend="django.core.mail.backends.console.EmailBackend",
        from_address="Atu <noreply@localhost>",
    )


def test_an_smtp_email_url_names_the_server_its_account_and_starttls(tmp_path: Path) -> None:
    env = read_environment(
        {
            "EMAIL_URL": "smtp://atu%40example.org:p%40ss@mail.example.org:587?tls=1&timeout=5",
            "DEFAULT_FROM_EMAIL": "Atu <atu@example.org>",
        },
        base_dir=tmp_path,
    )

    assert env.email == Email(
        backend="django.core.mail.backends.smtp.EmailBackend",
        host="mail.example.org",
        port=587,
        user="atu@example.org",
        password="p@ss",
        use_tls=True,
        use_ssl=False,
        from_address="Atu <atu@example.org>",
        timeout=5.0,
    )


def test_an_smtps_email_url_is_tls_from_the_start_on_port_465(tmp_path: Path) -> None:
    env = read_environment({"EMAIL_URL": "smtps://mail.example.org"}, base_dir=tmp_path)

    assert (env.email.port, env.email.use_ssl, env.email.use_tls) == (465, True, False)


@pytest.mark.parametrize(
    "url", ["http://mail.example.org", "smtp://", "smtp://mail.example.org:port", "smtp://h?tls=2"]
)
def test_an_email_url_that_names_no_smtp_server_is_rejected(tmp_path: Path, url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        read_environment({"EMAIL_URL": url}, base_dir=tmp_path)
