"""ec.devices() is `edgecompile devices --json`; ec.runs.list/show/compare are
`edgecompile runs list|show|compare --json` on the same database."""
import numpy as np
import pytest

import edgecompiler as ec


def test_devices(cli):
    got = ec.devices()
    assert got == cli.json("devices", "--json")
    ids = [d["id"] for d in got["devices"]]
    assert "host-cpu" in ids and all("available" in d and "reason" in d for d in got["devices"])


@pytest.fixture(scope="module")
def runs_db(cli, sample_model, tmp_path_factory):
    db = tmp_path_factory.mktemp("runs") / "runs.db"
    for _ in range(2):
        cli("bench", sample_model, "--iterations", 20, "--warmup", 1, "--threads", 1, "--runs-db", db)
    cli("compile", sample_model, "--target", "cpu", "--runs-db", db)
    return str(db)


def test_runs_list_show_compare(cli, runs_db):
    listed = ec.runs.list(db=runs_db)
    assert listed == cli.json("runs", "list", "--json", "--runs-db", runs_db)
    assert [r["kind"] for r in listed["runs"]] == ["compile", "bench", "bench"]
    assert ec.runs.list(limit=1, db=runs_db) == cli.json("runs", "list", "--json", "--limit", 1, "--runs-db", runs_db)
    for r in listed["runs"]:
        assert ec.runs.show(r["id"], db=runs_db) == cli.json("runs", "show", r["id"], "--json", "--runs-db", runs_db)
    bench = [r["id"] for r in listed["runs"] if r["kind"] == "bench"]
    got = ec.runs.compare(bench[1], bench[0], db=runs_db)
    assert got == cli.json("runs", "compare", bench[1], bench[0], "--json", "--runs-db", runs_db)
    assert got["statistics"]


def test_runs_errors(runs_db, tmp_path):
    with pytest.raises(ec.InputError, match="run 999 is not in"):
        ec.runs.show(999, db=runs_db)
    with pytest.raises(ec.IoError) as e:
        ec.runs.list(db=str(tmp_path / "none.db"))
    assert "\n" not in str(e.value)
    assert isinstance(e.value, OSError)


def test_default_db_is_ec_runs_db(cli, monkeypatch, runs_db):
    monkeypatch.setenv("EC_RUNS_DB", runs_db)
    assert ec.runs.list() == ec.runs.list(db=runs_db)
