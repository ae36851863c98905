"""Tracelens: traces and run nesting, ending runs, feedback rules, datasets from runs, annotation queues."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LS = ServiceTools("llmobs")
WORLD = LS.world
ok, refused, every = LS.ok, LS.refused, LS.every
POP = WORLD.population
ME = POP.employees[0].email


def project(ep: Episode, name: str = "support-bot-prod") -> dict[str, Any]:
    return every(ep, "list_projects", name=name)[0]


def root(ep: Episode, status: str = "success") -> dict[str, Any]:
    return next(r for r in every(ep, "list_runs", status=status) if r["parent_run_id"] is None)


def test_seeded_traces_nest_in_one_project(ep: Episode) -> None:
    for r in every(ep, "list_runs"):
        if r["parent_run_id"]:
            parent = ok(ep, "get_run", run_id=r["parent_run_id"])
            assert r["trace_id"] == (parent["trace_id"] or parent["id"]) and r["project_id"] == parent["project_id"]
    for p in every(ep, "list_projects"):
        assert p["owner_email"] in {e.email for e in POP.employees}


def test_a_trace_is_built_from_nested_runs_and_ends_bottom_up(ep: Episode) -> None:
    proj = project(ep)
    top = ok(ep, "log_run", project_id=proj["id"], name="SupportAgent", run_type="chain", inputs="Hello")
    llm = ok(
        ep,
        "log_run",
        project_id=proj["id"],
        name="ChatOpenAI",
        run_type="llm",
        parent_run_id=top["id"],
        model_name="gpt-4o",
        prompt_tokens=50,
    )
    assert llm["trace_id"] == top["id"]
    refused(ep, "end_run", "rule_violation", "run_id", run_id=top["id"], latency_ms=10)
    ok(ep, "end_run", run_id=llm["id"], latency_ms=400, outputs="Hi!", completion_tokens=5)
    done = ok(ep, "end_run", run_id=top["id"], latency_ms=500, outputs="Hi!")
    assert done["status"] == "success" and done["end_time"] is not None
    refused(ep, "end_run", "conflict", "run_id", run_id=top["id"], latency_ms=1)
    refused(
        ep,
        "log_run",
        "rule_violation",
        "parent_run_id",
        project_id=proj["id"],
        name="late",
        run_type="tool",
        parent_run_id=top["id"],
    )


def test_children_stay_in_their_parents_project_and_only_llm_runs_have_tokens(ep: Episode) -> None:
    pending = root(ep, "pending")
    other = project(ep, "support-bot-dev")
    refused(
        ep,
        "log_run",
        "rule_violation",
        "parent_run_id",
        project_id=other["id"],
        name="x",
        run_type="tool",
        parent_run_id=pending["id"],
    )
    refused(
        ep,
        "log_run",
        "rule_violation",
        "model_name",
        project_id=other["id"],
        name="x",
        run_type="tool",
        model_name="gpt-4o",
    )


def test_an_error_ends_a_run_as_error_and_counts_in_stats(ep: Episode) -> None:
    pending = root(ep, "pending")
    before = ok(ep, "project_stats", project_id=pending["project_id"])
    ok(ep, "end_run", run_id=pending["id"], latency_ms=30000, error="Timeout after 30s")
    after = ok(ep, "project_stats", project_id=pending["project_id"])
    roots = [r for r in every(ep, "list_runs", project_id=pending["project_id"]) if r["parent_run_id"] is None]
    errors = sum(r["status"] == "error" for r in roots)
    assert after["error_rate"] == round(errors / len(roots), 3) and after["error_rate"] > before["error_rate"]


def test_human_feedback_is_one_score_per_key_and_person(ep: Episode) -> None:
    r = root(ep)
    refused(ep, "add_feedback", "rule_violation", "created_by", run_id=r["id"], key="correctness", score=1)
    ok(ep, "add_feedback", run_id=r["id"], key="correctness", score=0.8, created_by=ME)
    refused(ep, "add_feedback", "conflict", "key", run_id=r["id"], key="correctness", score=0.1, created_by=ME)
    ok(ep, "add_feedback", run_id=r["id"], key="correctness", score=0.6, source="model")
    refused(
        ep,
        "add_feedback",
        "rule_violation",
        "run_id",
        run_id=root(ep, "pending")["id"],
        key="x_y",
        score=1,
        created_by=ME,
    )
    stats = ok(ep, "project_stats", project_id=r["project_id"])
    assert stats["avg_feedback"]["correctness"] == 0.7


def test_examples_come_from_successful_runs_once(ep: Episode) -> None:
    ds = every(ep, "list_datasets")[0]
    good = root(ep)
    made = ok(ep, "create_example", dataset_id=ds["id"], inputs="", source_run_id=good["id"])
    assert (made["inputs"], made["outputs"]) == (good["inputs"], good["outputs"])
    refused(ep, "create_example", "conflict", "source_run_id", dataset_id=ds["id"], inputs="", source_run_id=good["id"])
    refused(
        ep,
        "create_example",
        "rule_violation",
        "source_run_id",
        dataset_id=ds["id"],
        inputs="",
        source_run_id=root(ep, "error")["id"],
    )
    assert ok(ep, "get_dataset", dataset_id=ds["id"])["example_count"] == ds["example_count"] + 1


def test_deleting_examples_and_datasets_keeps_counts_right(ep: Episode) -> None:
    ds = every(ep, "list_datasets")[0]
    ex = every(ep, "list_examples", dataset_id=ds["id"])[0]
    ok(ep, "delete_example", example_id=ex["id"])
    assert ok(ep, "get_dataset", dataset_id=ds["id"])["example_count"] == ds["example_count"] - 1
    ok(ep, "delete_dataset", dataset_id=ds["id"])
    assert every(ep, "list_examples") == []
    ok(ep, "create_dataset", name="Support golden set")
    refused(ep, "create_dataset", "conflict", "name", name="Support golden set")


def test_annotation_queue_reviewers_leave_feedback_on_completion(ep: Episode) -> None:
    item = every(ep, "list_queue_items", status="pending")[0]
    q = every(ep, "list_queues")[0]
    refused(
        ep, "complete_queue_item", "rule_violation", "reviewer", queue_item_id=item["id"], reviewer="x@y.io", score=1
    )
    reviewer = q["reviewer_emails"][0]
    done = ok(ep, "complete_queue_item", queue_item_id=item["id"], reviewer=reviewer, score=0.0, comment="Wrong fee")
    assert (done["status"], done["reviewed_by"]) == ("completed", reviewer)
    fb = every(ep, "list_feedback", run_id=item["run_id"], key=q["feedback_key"])
    assert [f["created_by"] for f in fb] == [reviewer]
    refused(ep, "add_runs_to_queue", "conflict", "run_ids", queue_id=q["id"], run_ids=[item["run_id"]])


def test_projects_with_evaluators_cannot_be_deleted(ep: Episode) -> None:
    proj = project(ep)
    refused(ep, "delete_project", "conflict", "project_id", project_id=proj["id"])
    dev = project(ep, "support-bot-dev")
    ok(ep, "delete_project", project_id=dev["id"])
    refused(ep, "create_project", "conflict", "name", name="support-bot-prod", owner_email=ME)
    refused(ep, "create_project", "rule_violation", "owner_email", name="new-bot", owner_email="x@y.io")
