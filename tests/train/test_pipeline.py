"""The main job end to end, on a small configuration: every artefact is there, and a rerun resumes."""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from compoworld.train.pipeline import MainJobConfig, run_main_job
from tests.agents_support import SERVICES, jsonl

pytest.importorskip("datasets")
pytest.importorskip("matplotlib")


def test_main_job_produces_datasets_and_report_and_resumes(tmp_path: Path) -> None:
    config = MainJobConfig(sft_tasks=6, rl_tasks=3, random_group=2, random_tasks=6, smollm2_tasks=0)
    out = io.StringIO()
    result = run_main_job(tmp_path, config, console=Console(file=out, width=200), smollm2=False, services=SERVICES)
    where = result["where"]
    assert len(jsonl(Path(where["runs"]["oracle"]))) == 6
    assert len(jsonl(Path(where["runs"]["random"]))) == 12
    assert len(jsonl(Path(where["sft"]["jsonl"]))) == 6
    assert len(jsonl(Path(where["rl_trl"]["jsonl"]))) == 3 and Path(where["rl_verl"]["parquet"]).exists()
    assert all(Path(p).exists() for p in where["report"])
    scores = json.loads(Path(where["scores"]).read_text())
    assert scores["oracle"]["binary"]["completion_rate"] == 1.0
    assert "Where everything is" in out.getvalue()
    # It ends with the command that opens its outputs in the explorer, and that command's arguments work.
    printed = out.getvalue().rstrip().splitlines()[-1].strip()
    assert printed == where["explore"] == f"compoworld explore --tasks {where['tasks']} --runs {tmp_path / 'runs'}"
    if importlib.util.find_spec("fastapi") is not None:
        from compoworld.engine.catalog import Catalog
        from compoworld.explore import Explorer

        ex = Explorer.open([where["tasks"]], [tmp_path / "runs"], Catalog.load(SERVICES))
        assert set(ex.runs) == {"oracle", "random"} and ex.task_files[0].count() >= 6
    # Running it again finds every stage done: nothing is duplicated.
    again = run_main_job(tmp_path, config, console=Console(file=io.StringIO()), smollm2=False, services=SERVICES)
    assert again["where"] == where
    assert len(jsonl(Path(where["runs"]["random"]))) == 12
