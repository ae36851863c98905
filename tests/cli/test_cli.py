"""The command line, driven in-process through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from compoworld.cli import app

runner = CliRunner()


def test_catalog_stats_json_has_the_documented_keys() -> None:
    res = runner.invoke(app, ["catalog", "stats", "--json"])
    assert res.exit_code == 0, res.output
    stats = json.loads(res.output)
    for key in ("services", "tools", "categories", "open_world_tools", "open_world_services", "resources"):
        assert isinstance(stats[key], int)


def test_catalog_coverage_json_gives_the_served_share_of_real_usage() -> None:
    res = runner.invoke(app, ["catalog", "coverage", "--json"])
    assert res.exit_code == 0, res.output
    cov = json.loads(res.output)
    assert 0 < cov["coverage"] <= 1 and cov["workflows"] > 0
    assert set(cov["served"]).isdisjoint(cov["unserved"])
    res = runner.invoke(app, ["catalog", "coverage"])
    assert res.exit_code == 0 and "usage coverage" in res.output


def test_catalog_show_lists_a_services_tools() -> None:
    res = runner.invoke(app, ["catalog", "show", "crm", "--json"])
    assert res.exit_code == 0, res.output
    shown = json.loads(res.output)
    assert shown["modeled_on"].startswith("Salesforce")
    assert "crm__convert_lead" in {t["name"] for t in shown["tools"]}


def test_catalog_show_of_an_unknown_service_says_so() -> None:
    res = runner.invoke(app, ["catalog", "show", "nope"])
    assert res.exit_code == 2
    assert "unknown service" in res.output


def test_call_prints_the_result_and_the_diff(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    args = '{"account_id": "acc_000002", "industry": "aerospace"}'
    res = runner.invoke(app, ["call", "crm__update_account", args, "--json", "--sqlite", str(db)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["ok"] and out["result"]["industry"] == "aerospace"
    assert out["diff"]["crm.accounts"]["updated"][0]["changed"] == ["industry"]
    assert db.exists()


def test_call_with_a_bad_argument_prints_a_structured_error_and_fails() -> None:
    res = runner.invoke(app, ["call", "crm__get_account", '{"account_id": 5}', "--json"])
    assert res.exit_code == 1
    out = json.loads(res.output)
    assert out["error"]["type"] == "invalid_arguments" and out["error"]["field"] == "account_id"


def test_check_passes_for_one_service() -> None:
    res = runner.invoke(app, ["check", "--service", "crm", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["failures"] == []


def test_error_messages_keep_square_brackets_that_rich_would_read_as_markup(tmp_path: Path) -> None:
    res = runner.invoke(app, ["demo", "--preset", "[a-z]+", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "'[a-z]+'" in res.output
    missing = tmp_path / "[red]runs"
    res = runner.invoke(app, ["score", str(missing)])
    assert res.exit_code == 2 and "[red]runs" in res.output.replace("\n", ""), res.output  # rich wraps long paths
