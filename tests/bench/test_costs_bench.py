"""The costs bench's arithmetic: a window's costs per move from two readings of the
counters, and the capacity model made of them (the bench itself runs servers,
PostgreSQL and Redis: its figures are measured only by running it, never asserted)."""

import pytest

from bench.costs import Costs, Counters, need, nodes, statement_kinds, walls, window_costs


def counters(moves: int, cpu: float, statements: dict[str, int], wal: int) -> Counters:
    return Counters(
        cpu={
            "servers": {10: cpu, 11: cpu},
            "worker": {},
            "PostgreSQL": {20: cpu / 2},
            "Redis": {30: cpu / 4},
            "load generator": {40: cpu},
        },
        moves=moves,
        socket_messages=moves * 5,
        socket_bytes=moves * 2_500,
        database={
            "rows inserted": 2 * moves,
            "rows updated": moves,
            "rows fetched": 3 * moves,
        },
        statements=statements,
        inserted={"games_storedevent": 2 * moves},
        wal=wal,
        redis={"Redis bytes in": 200 * moves, "Redis bytes out": 300 * moves},
        commands={"publish": moves, "brpop": moves // 10},
    )


def test_a_window_s_costs_are_the_counters_growth_divided_by_its_moves() -> None:
    # Given the counters before and after a window of 100 moves, in which a statement
    # was first seen and a server process started (a pid the first reading lacks)
    begin = counters(1_000, 1.0, {"append": 1_000}, 5_000_000)
    end = counters(1_100, 1.2, {"append": 1_100, "check": 100}, 5_090_000)
    end.cpu["servers"][12] = 0.1

    # When the window's costs are taken
    wal = {"Transaction/COMMIT": (10, 340), "Heap/INSERT": (200, 60_000)}
    costs = window_costs(begin, end, 10.0, wal)

    # Then each figure is its growth per move, CPU in milliseconds
    assert costs.moves == 100
    assert costs.figures["servers CPU ms"] == pytest.approx((0.2 + 0.2 + 0.1) * 1000 / 100)
    assert costs.figures["worker CPU ms"] == 0.0
    assert costs.figures["PostgreSQL CPU ms"] == pytest.approx(1.0)
    assert costs.figures["statements"] == 2.0
    assert costs.figures["WAL bytes"] == 900.0
    assert costs.figures["commits"] == 0.1
    assert costs.wal == {"Transaction/COMMIT": 3.4, "Heap/INSERT": 600.0}
    assert costs.figures["rows inserted"] == 2.0
    assert costs.figures["Redis commands"] == 1.1
    assert costs.figures["Redis publishes"] == 1.0
    assert costs.figures["Redis bytes out"] == 300.0
    assert costs.figures["socket messages"] == 5.0
    assert costs.figures["socket bytes"] == 2_500.0
    assert costs.statements == {"append": 1.0, "check": 1.0}
    assert costs.commands == {"publish": 1.0, "brpop": 0.1}


def test_a_window_without_a_move_has_no_costs_per_move() -> None:
    same = counters(1_000, 1.0, {}, 0)
    with pytest.raises(SystemExit, match="no move"):
        window_costs(same, same, 10.0)


def test_a_move_s_cpu_is_the_median_window_s_and_its_counts_those_of_all_the_moves() -> None:
    # Given three windows, one disturbed by a neighbour on the machine, and one in which
    # the sockets' places were renewed (a periodic cost: 30 commands)
    first = counters(0, 0.0, {"append": 0}, 0)
    windows = [
        window_costs(first, counters(100, cpu, {"append": 100}, 90_000), 10.0)
        for cpu in (0.1, 0.5, 0.12)
    ]
    renewed = counters(100, 0.12, {"append": 100}, 90_000)
    renewed.commands["zadd"] = 30
    windows[2] = window_costs(first, renewed, 10.0)

    # When the windows' costs are taken together
    costs = Costs.of(windows)

    # Then the neighbour does not move the CPU, and the renewal counts over all moves
    assert costs.figures["load generator CPU ms"] == pytest.approx(1.2)
    assert costs.figures["Redis commands"] == pytest.approx(1.2)
    assert costs.commands == {"publish": 1.0, "zadd": 0.1, "brpop": 0.1}
    assert costs.moves_per_second == 10.0
    assert costs.statements == {"append": 1.0}


def test_ten_thousand_tables_at_a_move_per_two_seconds_make_five_thousand_moves_a_second() -> None:
    # Given a move's costs
    per_move = {"servers CPU ms": 2.0, "WAL bytes": 1_000.0, "Redis publishes": 1.05}

    # When 10,000 tables move once every 2 s
    rates = need(per_move, 10_000, 2.0)

    # Then CPU milliseconds per move become cores, and counts become rates
    assert rates == {
        "moves": 5_000.0,
        "servers cores": 10.0,
        "WAL bytes": 5_000_000.0,
        "Redis publishes": 5_250.0,
    }


@pytest.mark.parametrize(("tables", "interval"), [(0, 2.0), (10, 0.0)])
def test_no_load_is_modelled_without_tables_or_a_pace(tables: int, interval: float) -> None:
    with pytest.raises(ValueError, match="no load"):
        need({}, tables, interval)


def test_nodes_are_rounded_up_and_kept_at_their_share_of_their_cores() -> None:
    # 10 cores of work on nodes of 8 cores kept at half of them: 4 cores each
    assert nodes(10.0, 8, 0.5) == 3
    assert nodes(8.0, 8, 0.5) == 2
    assert nodes(0.01, 8, 0.5) == 1
    with pytest.raises(ValueError, match="no node"):
        nodes(1.0, 8, 0.0)


def test_the_first_wall_is_the_instance_nearest_its_ceiling() -> None:
    rates = {"commits": 5_000.0, "Redis publishes": 5_250.0, "Redis cores": 0.5}
    ceilings = {"commits": 4_000.0, "Redis publishes": 70_000.0, "Redis cores": 1.0}

    assert walls(rates, ceilings) == [
        ("commits", 1.25),
        ("Redis cores", 0.5),
        ("Redis publishes", 0.075),
    ]


def test_statements_writing_several_tables_moves_together_count_as_one_kind() -> None:
    # Given the write path's statement for two tables' moves and for three (the same
    # beginning, its numbers aside), and another statement
    insert = 'INSERT INTO "games_storedevent" ("stream", "sequence", "type", "payload") VALUES'
    two = f"WITH a0 AS ({insert} ($1, $2)), a1 AS ({insert} ($3, $4)) SELECT 1"
    three = f"WITH a0 AS ({insert} ($1, $2)), a1 AS ({insert} ($3, $4)), a2 AS ({insert} ($5,"
    statements = {two: 0.25, three: 0.5, 'SELECT $2 FROM ONLY "public"."accounts_user"': 1.0}

    # When summed by kind
    kinds = statement_kinds(statements)

    # Then the write's are one kind, named by its beginning
    assert kinds == {
        f"WITH aN AS ({insert} ($N, $N"[:100]: 0.75,
        'SELECT $N FROM ONLY "public"."accounts_user"': 1.0,
    }
