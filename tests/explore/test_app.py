"""The explorer's pages, served in-process: what each shows, the links between them, the token and the playground."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from compoworld.engine.catalog import Catalog
from compoworld.explore import Explorer
from compoworld.explore.app import COOKIE, create_app
from compoworld.explore.graphs import criteria_graph, state_machine_graph
from compoworld.explore.store import criterion_calls

from .conftest import SERVICES


@pytest.fixture(scope="module")
def explorer(explore_data: Path) -> Explorer:
    return Explorer.open([explore_data / "tasks" / "tasks.jsonl"], [explore_data / "runs"], Catalog.load(SERVICES))


@pytest.fixture(scope="module")
def client(explorer: Explorer) -> TestClient:
    return TestClient(create_app(explorer))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_the_catalog_lists_every_service_by_category_and_search_finds_tools(client: TestClient) -> None:
    page = client.get("/catalog").text
    for name in SERVICES:
        assert f'href="/catalog/{name}"' in page
    hits = client.get("/catalog", params={"q": "archive product"}).text
    assert 'href="/tools/shop__archive_product"' in hits
    assert "crm__create_lead" not in hits
    assert "0 found" in client.get("/catalog", params={"q": "zzqx nothing"}).text


def test_a_service_page_shows_resources_fields_and_state_machines(client: TestClient) -> None:
    page = client.get("/catalog/helpdesk").text
    assert "helpdesk.ticket" in page and "<svg" in page  # tickets have a lifecycle
    assert client.get("/catalog/nope").status_code == 404


def test_a_tool_page_shows_semantic_types_roles_and_neighbours(client: TestClient) -> None:
    page = client.get("/tools/mail__send_message").text
    assert "email" in page and 'id="fed-by"' in page
    fed = page[page.index('id="fed-by"') : page.index('id="feeds"')]
    assert 'href="/tools/crm__' in fed  # a CRM contact's e-mail can fill a mail's recipient
    assert re.search(r'<span class="tag">(employee|customer)</span>', page)
    assert client.get("/tools/nope__x").status_code == 404


def test_the_task_table_filters_and_a_task_page_shows_every_part(client: TestClient, explore_data: Path) -> None:
    tasks = _lines(explore_data / "tasks" / "tasks.jsonl")
    page = client.get("/tasks", params={"service": "shop"}).text
    shown = set(re.findall(r'href="/tasks/0/([^"]+)"', page))
    assert shown == {t["id"] for t in tasks if "shop" in t["metadata"]["services"]}
    t = tasks[0]
    page = client.get(f"/tasks/0/{t['id']}").text
    for part in ('id="instruction"', "Oracle solution", 'class="graph criteria"', "Plan", 'id="play"'):
        assert part in page
    for c in t["criteria"]:
        assert f'id="crit-{c["id"]}"' in page and f'id="n-{c["id"]}"' in page
    for step in t["solution"]:
        for prov in step["provenance"].values():
            if prov.get("kind") == "step":
                assert f'href="#step-{prov["step"]}"' in page  # each argument links to the step it came from
    assert client.get("/tasks/0/t-nope").status_code == 404


def test_runs_side_by_side_and_a_failed_trajectory_links_its_first_failed_criterion_to_a_call(
    client: TestClient, explore_data: Path
) -> None:
    page = client.get("/runs", params={"failed": "1"}).text
    assert "<th>oracle</th>" in page and "<th>random</th>" in page
    failed = next(t for t in _lines(explore_data / "runs" / "random" / "trajectories.jsonl") if not t["success"])
    page = client.get(f"/runs/random/{failed['task_id']}/{failed['rollout']}").text
    first = re.search(r'id="first-failed">First failed criterion: <a href="#crit-(c\d+)">', page)
    assert first is not None
    assert f'id="crit-{first.group(1)}"' in page
    assert "State diff" in page
    for i, call in enumerate(failed["calls"]):
        assert f'id="call-{i}"' in page and call["tool"] in page


def test_a_criterion_links_to_the_call_that_wrote_its_record() -> None:
    task = {
        "solution": [{"tool": "crm__list_leads"}, {"tool": "crm__update_lead"}],
        "criteria": [
            {"id": "c0", "kind": "state", "step": 1, "record_id": "lead_2"},
            {"id": "c1", "kind": "state", "step": 0},
            {"id": "c2", "kind": "no_collateral", "step": None},
        ],
    }
    calls = [
        {"tool": "crm__update_lead", "arguments": '{"lead_id": "lead_1"}'},
        {"tool": "crm__update_lead", "arguments": '{"lead_id": "lead_2"}'},
    ]
    links = criterion_calls(task, {"calls": calls})
    assert links["c0"].call == 1  # the call on the criterion's record, not merely the first to the tool
    assert links["c1"].call is None and "no call to crm__list_leads" in links["c1"].note
    assert "c2" not in links


def test_graphs_draw_a_box_per_criterion_and_state(explore_data: Path) -> None:
    task = _lines(explore_data / "tasks" / "tasks.jsonl")[0]
    svg = criteria_graph(task, {c["id"]: i % 2 == 0 for i, c in enumerate(task["criteria"])})
    assert svg.count('<g class="node') == len(task["criteria"])
    assert "fail" in svg and "pass" in svg
    spec = next(r for r in Catalog.load(["helpdesk"]).services["helpdesk"].resources if r.transitions)
    machine = state_machine_graph(spec.transitions)
    states = {str(s) for t in spec.transitions.values() for s in (*t.source, t.target)}
    assert machine.count('<g class="node') == len(states)


def test_the_playground_plays_a_task_and_checks_its_rubric(client: TestClient, explore_data: Path) -> None:
    task = _lines(explore_data / "tasks" / "tasks.jsonl")[0]
    page = client.get("/playground", params={"task": task["id"]}).text
    session = re.search(r'data-session="([^"]+)"', page)
    assert session is not None
    sid = session.group(1)
    before = client.post(f"/api/sessions/{sid}/evaluate", json={"answer": ""}).json()
    assert not before["passed"]
    for step in task["solution"]:
        out = client.post(f"/api/sessions/{sid}/tools/{step['tool']}", json=step["arguments"]).json()
        assert out["ok"], out
    answer = " ".join(json.dumps(v) for v in task["given"].values())
    after = client.post(f"/api/sessions/{sid}/evaluate", json={"answer": answer}).json()
    positives = [v for v in after["criteria"] if v["kind"] in ("state", "transition", "message")]
    assert positives and all(v["passed"] for v in positives)
    assert client.get(f"/api/sessions/{sid}/diff").json()["tables"]
    assert client.get("/playground", params={"services": "nope"}).status_code == 404


def test_a_token_is_required_and_a_browser_gets_it_as_a_cookie(explorer: Explorer) -> None:
    gated = TestClient(create_app(explorer, token="s3cret"))
    assert gated.get("/catalog").status_code == 401
    assert gated.get("/catalog", params={"token": "wrong"}).status_code == 401
    assert gated.get("/catalog", headers={"Authorization": "Bearer s3cret"}).status_code == 200
    first = gated.get("/tasks", params={"token": "s3cret", "service": "crm"}, follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/tasks?service=crm"
    assert COOKIE in first.cookies
    assert gated.get("/tasks", params={"service": "crm"}).status_code == 200  # the cookie now carries it


def test_the_command_refuses_a_missing_file_and_an_open_bind_without_a_token(
    explore_data: Path, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from compoworld.cli import app

    runner = CliRunner()
    missing = runner.invoke(app, ["explore", "--tasks", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "no task file" in " ".join(missing.output.split())
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    damaged = runner.invoke(app, ["explore", "--tasks", str(bad)])
    # The console wraps long paths at its width: read the message as one line.
    assert damaged.exit_code == 2 and "bad.jsonl:1" in damaged.output.replace("\n", "")
    tasks = str(explore_data / "tasks" / "tasks.jsonl")
    open_bind = runner.invoke(app, ["explore", "--tasks", tasks, "--host", "0.0.0.0"], env={"COMPOWORLD_TOKEN": ""})
    assert open_bind.exit_code == 2 and "without a token" in " ".join(open_bind.output.split())
