"""SFT and RL exports, the report, and the score command's output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compoworld.agents.policies import OraclePolicy, RandomPolicy
from compoworld.agents.rollout import RolloutConfig, run_rollouts
from compoworld.agents.session import TaskSession
from compoworld.cli import app
from compoworld.tasks.taskset import read_tasks, task_set_services
from compoworld.train.export import DATA_SOURCE, export_rl, export_sft
from compoworld.train.report import write_report
from tests.agents_support import jsonl, make_tasks

datasets = pytest.importorskip("datasets")
yaml = pytest.importorskip("yaml")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    tasks = make_tasks(root / "tasks", count=10, seed=9)
    run_rollouts(tasks, OraclePolicy(), root / "runs" / "oracle", RolloutConfig(group_size=2))
    run_rollouts(tasks, RandomPolicy(), root / "runs" / "random", RolloutConfig(group_size=4))
    return root


def test_sft_export_keeps_successful_conversations_and_datasets_loads_it(runs: Path, tmp_path: Path) -> None:
    info = export_sft([runs / "runs" / "oracle", runs / "runs" / "random"], tmp_path)
    # 20 oracle trajectories succeed; the two rollouts of a task are the same conversation, kept once.
    assert info["successful"] == 20 and info["rows"] == 10
    for kind in ("json", "parquet"):
        path = tmp_path / ("sft.jsonl" if kind == "json" else "sft.parquet")
        ds = datasets.load_dataset(kind, data_files=str(path), split="train")
        assert ds.column_names == ["messages", "tools"] and len(ds) == 10
        row = ds[0]
        assert row["messages"][0]["role"] == "system" and row["messages"][1]["role"] == "user"
        tools = json.loads(row["tools"])
        called = {tc["function"]["name"] for m in row["messages"] if m["tool_calls"] for tc in m["tool_calls"]}
        assert called <= {t["function"]["name"] for t in tools}
        assert row["messages"][-1]["role"] == "assistant" and not row["messages"][-1]["tool_calls"]


def test_exports_are_byte_identical_when_repeated(runs: Path, tmp_path: Path) -> None:
    export_sft([runs / "runs" / "oracle"], tmp_path / "a")
    export_sft([runs / "runs" / "oracle"], tmp_path / "b")
    for name in ("sft.jsonl", "sft.parquet"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_rl_rows_for_trl_and_verl(runs: Path, tmp_path: Path) -> None:
    tasks_file = runs / "tasks" / "tasks.jsonl"
    tasks = read_tasks(tasks_file)
    export_rl(tasks_file, tmp_path, "trl")
    export_rl(tasks_file, tmp_path, "verl")
    trl = datasets.load_dataset("parquet", data_files=str(tmp_path / "rl_trl.parquet"), split="train")
    assert len(trl) == len(tasks)
    assert trl[0]["prompt"][1] == {"role": "user", "content": tasks[0].instruction}
    assert json.loads(trl[0]["task"])["id"] == trl[0]["task_id"] == tasks[0].id
    verl = jsonl(tmp_path / "rl_verl.jsonl")
    row = verl[0]
    assert row["data_source"] == DATA_SOURCE and row["agent_name"] == "tool_agent"
    assert row["reward_model"]["style"] == "rule"
    assert json.loads(row["reward_model"]["ground_truth"])["criteria"]
    assert set(row["extra_info"]["tools_kwargs"]) == set(tasks[0].tools)
    # Both carry the task set's services, so adapters rebuild each task's exact world from a row alone.
    assert trl[0]["services"] == row["extra_info"]["services"] == task_set_services(tasks_file)
    assert TaskSession(trl[0]["task"], services=trl[0]["services"]).world.version == tasks[0].world_version
    assert datasets.load_dataset(
        "parquet", data_files=str(tmp_path / "rl_verl.parquet"), split="train"
    ).num_rows == len(tasks)
    # verl's tool config comes with its rows: every tool of the tasks, on the task file and the task set's world.
    tool_config = yaml.safe_load((tmp_path / "verl_tools.yaml").read_text())
    listed = {t["tool_schema"]["function"]["name"] for t in tool_config["tools"]}
    assert listed == {name for t in tasks for name in t.tools}
    assert {t["config"]["tasks_path"] for t in tool_config["tools"]} == {str(tasks_file.resolve())}
    assert tool_config["tools"][0]["config"]["services"] == task_set_services(tasks_file)
    with pytest.raises(ValueError, match="trl or verl"):
        export_rl(tasks_file, tmp_path, "other")  # type: ignore[arg-type]


def test_rl_rows_of_a_task_file_without_stats_leave_the_services_to_each_task(runs: Path, tmp_path: Path) -> None:
    # A task file copied away from its stats.json: its world is unknown, so the rows name no services and the
    # adapters fall back to each task's own services, where its solution is proven.
    alone = tmp_path / "alone" / "tasks.jsonl"
    alone.parent.mkdir()
    alone.write_text((runs / "tasks" / "tasks.jsonl").read_text())
    export_rl(alone, tmp_path / "out", "trl")
    export_rl(alone, tmp_path / "out", "verl")
    trl = jsonl(tmp_path / "out" / "rl_trl.jsonl")
    verl = jsonl(tmp_path / "out" / "rl_verl.jsonl")
    assert {r["services"] for r in trl} == {None} and {r["extra_info"]["services"] for r in verl} == {None}
    tool_config = yaml.safe_load((tmp_path / "out" / "verl_tools.yaml").read_text())
    assert {t["config"]["services"] for t in tool_config["tools"]} == {None}
    for row, task in zip(trl, read_tasks(alone), strict=True):
        assert TaskSession(row["task"], services=row["services"]).task.id == task.id


def test_score_command_prints_the_summary_of_a_grouped_run(runs: Path) -> None:
    res = CliRunner().invoke(app, ["score", str(runs / "runs" / "random"), "--scheme", "completion_focused", "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["trajectories"] == 40 and summary["groups"] == 10 and summary["mean_group_size"] == 4
    for key in ("completion_rate", "mean_reward", "zero_variance_group_share", "criterion_pass_rates"):
        assert key in summary
    missing = CliRunner().invoke(app, ["score", str(runs / "nowhere")])
    assert missing.exit_code == 2 and "compoworld rollout" in missing.output


def test_report_writes_markdown_html_and_plots(runs: Path, tmp_path: Path) -> None:
    paths = write_report([runs / "runs"], tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "| oracle | oracle | 20 | 10 | 100.0 % |" in md
    assert "| random | random | 40 | 10 |" in md
    html = (tmp_path / "report.html").read_text()
    pngs = [p for p in paths if p.suffix == ".png"]
    assert len(pngs) == 9
    for p in pngs:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 5000
        assert p.name in md and p.name in html


def test_report_breaks_completion_down_by_pattern(tmp_path: Path) -> None:
    from compoworld.tasks.patterns import PATTERNS
    from compoworld.tasks.synthesis import SynthConfig
    from compoworld.tasks.taskset import synthesize

    services = ["sheets", "crm", "livechat", "oncall", "servicedesk", "teamchat", "helpdesk", "mail", "tracker"]
    stats = synthesize(tmp_path / "tasks", count=16, seed=3, services=services, config=SynthConfig(patterns=PATTERNS))
    assert stats["patterns_histogram"], "patterns should fit some of these tasks"
    tasks = tmp_path / "tasks" / "tasks.jsonl"
    run_rollouts(tasks, OraclePolicy(), tmp_path / "runs" / "oracle", RolloutConfig(group_size=1))
    run_rollouts(tasks, RandomPolicy(), tmp_path / "runs" / "random", RolloutConfig(group_size=2))
    write_report([tmp_path / "runs"], tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text()
    section = md.split("## By difficulty pattern", 1)[1].split("##", 1)[0]
    plain = sum(1 for t in read_tasks(tasks) if not t.patterns)
    oracle = next(line for line in section.splitlines() if line.startswith("| oracle |"))
    for name, count in stats["patterns_histogram"].items():
        assert name in section
        assert f"100 % of {count}" in oracle
    # Tasks without a pattern have a column of their own, only when there are some.
    header = next(line for line in section.splitlines() if line.startswith("|"))
    assert ("none" in header) == bool(plain)
    if plain:
        assert f"100 % of {plain}" in oracle
    random = next(line for line in section.splitlines() if line.startswith("| random |"))
    assert "100 %" not in random
