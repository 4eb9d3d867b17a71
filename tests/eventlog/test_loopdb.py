import pytest

from eventlog.loopdb import numbered


def test_numbered_gives_each_placeholder_its_number_after_those_before_it() -> None:
    # Given an UPDATE with psycopg's placeholders, the 4th to 6th of its statement
    sql = 'UPDATE "t" SET "a" = %s, "b" = %s WHERE "id" = %s'

    # When it is numbered after the three parameters before it
    text = numbered(sql, 3)

    # Then its placeholders are PostgreSQL's own, $4 to $6, in order
    assert text == 'UPDATE "t" SET "a" = $4, "b" = $5 WHERE "id" = $6'


def test_numbered_leaves_a_statement_without_parameters_as_it_is() -> None:
    assert numbered("SELECT 1", 7) == "SELECT 1"


@pytest.mark.parametrize("sql", ["SELECT %s LIKE 'a%%'", "SELECT %(name)s"])
def test_numbered_refuses_a_statement_with_any_other_percent_sign(sql: str) -> None:
    with pytest.raises(ValueError, match="only %s placeholders can be numbered"):
        numbered(sql, 0)
