"""Bring your own API: services scaffolded from real OpenAPI documents pass the conformance suite unedited.

The fixtures are real documents (tests/fixtures/openapi/README.md gives their
sources and licences). Checking a module registers it, so those checks run
in a subprocess and never add a service to this process's registry.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from compoworld.cli import app
from compoworld.devtools.openapi import SpecError, scaffold
from compoworld.devtools.openapi.document import parse_document
from compoworld.devtools.openapi.plan import plan_service
from compoworld.devtools.openapi.refine import check_module
from compoworld.devtools.openapi.semantics import infer_semantic
from compoworld.engine.registration import SERVICE_PATH_ENV

FIXTURES = Path(__file__).parent.parent / "fixtures" / "openapi"
CASES = [
    ("petstore-expanded.yaml", "petstore"),
    ("link-example.yaml", "codelinks"),
    ("swagger-petstore3.yaml", "petshop"),
    ("twilio_proxy_v1.json", "proxyline"),
    ("xero-projects.yaml", "projectbook"),
    ("twilio_verify_v2.json", "verifyline"),
]
runner = CliRunner()


def _check(module: Path) -> dict[str, Any]:
    found = check_module(module, timeout_s=300)
    assert found["exit"] == 0, found
    return found


@pytest.mark.parametrize(("document", "name"), CASES)
def test_each_fixture_becomes_a_service_that_passes_the_conformance_suite_unedited(
    tmp_path: Path, document: str, name: str
) -> None:
    made = runner.invoke(
        app, ["service", "new", "--from-openapi", str(FIXTURES / document), "--name", name, "--out", str(tmp_path)]
    )
    assert made.exit_code == 0, made.output
    report = json.loads((tmp_path / f"{name}.report.json").read_text())
    found = _check(tmp_path / f"{name}.py")
    assert found["failed"] == 0
    assert found["tools"] >= len(report["tools_from_operations"]) >= 4
    assert report["operations_as_tools"] + report["operations_todo"] == report["operations"]
    # The specification examples hold nothing another service holds; the product documents connect both ways.
    connected = bool(found["feeds_services"]) and bool(found["consumes_services"])
    assert connected == (document not in ("petstore-expanded.yaml", "link-example.yaml")), found


@pytest.mark.parametrize(("document", "name"), CASES)
def test_the_scaffold_is_deterministic_and_lists_every_unhandled_operation_as_todo(document: str, name: str) -> None:
    first = scaffold(FIXTURES / document, name)
    again = scaffold(FIXTURES / document, name)
    assert first.source == again.source
    report = first.report()
    todo_ops = [op["operation"] for op in report["by_operation"] if op["kind"] == "todo"]
    head = first.source.split('"""', 2)[1]
    for label in todo_ops:
        assert label.split(" (")[0] in " ".join(head.split()), f"{label} missing from the module's TODO"
    compile(first.source, f"{name}.py", "exec")


def test_status_actions_become_transitions_and_finders_become_query_tools() -> None:
    links = scaffold(FIXTURES / "link-example.yaml", "codelinks").plan
    pr = links.resource("pullrequest")
    [merge] = pr.transitions
    assert (merge.verb, merge.field, merge.target) == ("merge", "state", "merged")
    assert set(merge.source) == {"open", "declined"}
    assert any("restrict the sources" in t.what for t in links.todos)
    shop = scaffold(FIXTURES / "swagger-petstore3.yaml", "petshop").plan
    queries = {q.name: q for q in shop.queries}
    assert [p[0] for p in queries["find_pets_by_status"].params] == ["status"]
    assert shop.resource("order").field_named("pet_id") is not None


def test_nested_paths_make_parents_that_children_require_and_filter_on() -> None:
    plan = scaffold(FIXTURES / "twilio_proxy_v1.json", "proxyline").plan
    session = plan.resource("session")
    assert session.parents == ["service"]
    parent = session.field_named("service_id")
    assert parent is not None and parent.required and parent.semantic == 'IdOf("proxyline.service")'
    assert session.create is not None and session.create[0] == "service_id"
    assert "service_id" in session.filters and "status" in session.filters
    participant = plan.resource("participant")
    assert participant.parents == ["service", "session"]
    number = plan.resource("phone_number").field_named("phone_number")
    assert number is not None and number.semantic == "Phone"


def test_semantic_types_come_from_formats_names_and_examples_and_a_refusing_example_wins() -> None:
    assert infer_semantic("contactEmail", {"type": "string"}).type_name == "Email"
    assert infer_semantic("x", {"type": "string", "format": "date-time"}).type_name == "DateTime"
    assert infer_semantic("photoUrls", {"type": "string"}).type_name == "Url"
    assert infer_semantic("name", {"type": "string"}, holder="customer").type_name == "PersonName"
    assert infer_semantic("name", {"type": "string"}, holder="pet").type_name is None
    assert infer_semantic("amount", {"type": "integer", "description": "In cents."}).type_name == "Cents"
    unit = infer_semantic("price", {"type": "number"})
    assert unit.type_name is None and "cents" in unit.reason
    phone = infer_semantic("phone", {"type": "string", "example": "12345"})
    assert phone.type_name is None and "12345" in phone.reason
    country = infer_semantic("country", {"type": "string", "example": "Germany"})
    assert country.type_name is None
    # The head of the name decides: a score about a phone number is not a phone number.
    assert infer_semantic("email_address", {"type": "string"}).type_name == "Email"
    assert infer_semantic("phone_number_quality_score", {"type": "string"}).type_name is None
    assert infer_semantic("mobile_country_code", {"type": "string"}).type_name is None
    assert infer_semantic("name", {"type": "string"}, holder="project_user").type_name == "PersonName"


def test_a_record_the_document_reads_by_a_value_people_know_can_be_found_by_it() -> None:
    # Twilio Verify reads a safe-listed number at /SafeList/Numbers/{PhoneNumber}: records keep generated
    # ids, so the scaffold offers the lookup as a list filtered on the phone number, and says so.
    plan = scaffold(FIXTURES / "twilio_verify_v2.json", "verifyline").plan
    safelist = plan.resource("safelist")
    assert safelist.get and safelist.listed and "phone_number" in safelist.filters
    assert any(t.where.endswith("(FetchSafelist)") and "phone_number" in t.what for t in plan.todos)


def test_documents_the_scaffold_cannot_read_are_refused_with_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="convert it to OpenAPI 3"):
        parse_document({"swagger": "2.0", "paths": {}})
    with pytest.raises(SpecError, match="bundle it into one file"):
        parse_document(
            {
                "openapi": "3.0.0",
                "paths": {"/a": {"get": {"responses": {"200": {"$ref": "other.yaml#/components/responses/A"}}}}},
            }
        )
    with pytest.raises(SpecError, match="no paths"):
        parse_document({"openapi": "3.1.0", "paths": {}})
    bad = tmp_path / "broken.yaml"
    bad.write_text("openapi: [3.0\n")
    with pytest.raises(SpecError, match="not valid YAML"):
        scaffold(bad, "broken")
    with pytest.raises(SpecError, match="service name"):
        scaffold(FIXTURES / "petstore-expanded.yaml", "Bad-Name")


def test_cycles_free_form_objects_and_unions_are_left_as_todo_not_guessed() -> None:
    doc = parse_document(
        {
            "openapi": "3.0.3",
            "info": {"title": "Nodes", "version": "1"},
            "paths": {
                "/nodes/{id}": {
                    "get": {
                        "responses": {
                            "200": {
                                "description": "ok",
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}},
                            }
                        }
                    }
                }
            },
            "components": {
                "schemas": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string"},
                            "parent": {"$ref": "#/components/schemas/Node"},
                            "meta": {"type": "object"},
                            "value": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                            "label": {"type": "string"},
                        },
                    }
                }
            },
        },
        source="nodes.json",
    )
    plan = plan_service(doc, "nodes")
    node = plan.resource("node")
    assert [f.name for f in node.fields] == ["parent_id", "label"]
    todo = {t.where: t.what for t in plan.todos}
    assert "free-form object" in todo["Node.meta"]
    assert "one of several shapes" in todo["Node.value"]


def test_service_new_refuses_to_overwrite_and_check_reports_a_module_that_does_not_load(tmp_path: Path) -> None:
    args = ["service", "new", "--from-openapi", str(FIXTURES / "petstore-expanded.yaml"), "--name", "petstore"]
    assert runner.invoke(app, [*args, "--out", str(tmp_path)]).exit_code == 0
    again = runner.invoke(app, [*args, "--out", str(tmp_path)])
    assert again.exit_code == 1 and "--force" in again.output
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('half written')\n")
    result = runner.invoke(app, ["service", "check", str(broken)])
    assert result.exit_code == 2 and "half written" in result.output


def test_a_model_refines_the_scaffold_and_only_attempts_that_pass_the_checks_are_kept(tmp_path: Path) -> None:
    from compoworld.devtools.testing import ScriptedChatServer

    base = scaffold(FIXTURES / "petstore-expanded.yaml", "petstore").source
    guard = (
        "from compoworld.engine.errors import RuleViolation\n\n\n"
        "def _guard_pet(ctx: object, new: Pet, old: object) -> None:\n"
        "    if new.tag is not None and new.tag == new.name:\n"
        '        raise RuleViolation("a tag repeats the name", field="tag", hint="tag the kind of pet")\n\n\n'
        "pets = service.resource("
    )
    improved = base.replace("pets = service.resource(", guard).replace(
        "    delete=True,\n)", "    delete=True,\n    guard_create=_guard_pet,\n)"
    )
    assert improved != base
    broken = base.replace(
        "def seed(s: SeedContext) -> None:", "def seed(s: SeedContext) -> None:\n    raise ValueError('x')"
    )
    module = tmp_path / "petstore.py"
    module.write_text(base)
    replies = ["Here is my plan, no code yet.", f"```python\n{broken}```", f"Done:\n```python\n{improved}```"]
    from compoworld.devtools.openapi.refine import refine

    with ScriptedChatServer(replies) as server:
        attempts = refine(module, base_url=server.url, model="scripted", rounds=3)
        server.assert_script_used()
        requests = [r["messages"][-1]["content"] for r in server.requests]
    assert [a.kept for a in attempts] == [False, False, True]
    assert "no ```python block" in attempts[0].reason and "no ```python block" in requests[1]
    assert "check failed" in attempts[1].reason and "check failed" in requests[2]
    assert module.read_text() == improved
    log = [json.loads(line) for line in (tmp_path / "petstore.refine.jsonl").read_text().splitlines()]
    assert [entry["kept"] for entry in log] == [False, False, True]
    assert (tmp_path / "petstore.refine" / "attempt-2.py").read_text() == broken


def _normal(semantic: str | None) -> str | None:
    if semantic is not None and semantic.startswith("IdOf("):
        return "id:" + semantic.split(".")[-1].rstrip('")')
    return semantic


def test_semantic_inference_on_100_hand_labelled_fields_is_precise() -> None:
    labels = json.loads((FIXTURES / "labels.json").read_text())
    right = predicted = relevant = found = total = 0
    for document, name in CASES:
        fields = {f["field"]: _normal(f["semantic"]) for f in scaffold(FIXTURES / document, name).report()["fields"]}
        for field_name, label in labels[document].items():
            guess = fields[field_name]
            total += 1
            predicted += guess is not None
            right += guess is not None and guess == label
            relevant += label is not None
            found += label is not None and guess == label
    assert total == 100
    assert right / predicted >= 0.9, f"precision {right}/{predicted}"
    assert found / relevant >= 0.8, f"recall {found}/{relevant}"


_CROSS = """
import sys
from pathlib import Path
from compoworld.tasks.synthesis import SynthConfig
from compoworld.tasks.taskset import synthesize
from compoworld.tasks.walk import WalkConfig

out, count, services = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")
config = SynthConfig(walk=WalkConfig(trigger=False), cover=1.0, focused=4)
synthesize(out, count=count, seed=0, services=services, config=config)
"""


@pytest.mark.parametrize(
    ("document", "name", "category", "count"),
    [
        ("swagger-petstore3.yaml", "petshop", "ecommerce", 12),
        ("twilio_proxy_v1.json", "proxyline", "customer_messaging", 12),
        ("xero-projects.yaml", "projectbook", "time_tracking", 12),
        ("twilio_verify_v2.json", "verifyline", "customer_messaging", 24),
    ],
)
def test_synthesis_makes_verified_tasks_that_cross_a_scaffolded_service_and_built_in_ones(
    tmp_path: Path, document: str, name: str, category: str, count: int
) -> None:
    new = ["service", "new", "--from-openapi", str(FIXTURES / document), "--name", name, "--category", category]
    made = runner.invoke(app, [*new, "--out", str(tmp_path)])
    assert made.exit_code == 0, made.output
    built_in = ["crm", "mail", "helpdesk", "teamchat", "invoicing"]
    # The module joins every process through the variable, as it would a team's synthesis, verification
    # and rollouts; this process's registry stays the package's.
    env = {**os.environ, SERVICE_PATH_ENV: str(tmp_path / f"{name}.py"), "COLUMNS": "500"}
    out = tmp_path / "tasks"
    services = ",".join([name, *built_in])
    synth = [sys.executable, "-c", _CROSS, str(out), str(count), services]
    done = subprocess.run(synth, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    verify = [sys.executable, "-m", "compoworld", "verify", str(out / "tasks.jsonl")]
    checked = subprocess.run(verify, capture_output=True, text=True, timeout=600, env=env)
    # Every task holds again on a fresh world, in a process that loaded the module only through the variable.
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-2000:]
    assert f"{count} tasks, 0 failed" in " ".join(checked.stdout.split())
    tasks = [json.loads(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    assert len(tasks) == count
    crossing = [
        t for t in tasks if name in t["metadata"]["services"] and set(t["metadata"]["services"]) & set(built_in)
    ]
    assert crossing, [t["metadata"]["services"] for t in tasks]
    for task in crossing:
        # A value found in one service is passed to the other: the chain crosses, not two tasks side by side.
        tools = [s["tool"] for s in task["solution"]]
        assert any(t.startswith(f"{name}__") for t in tools)
        crossings = [
            (tools[source].split("__")[0], s["tool"].split("__")[0])
            for s in task["solution"]
            for p in s["provenance"].values()
            for source in ([p["step"]] if p.get("kind") == "step" else [q["step"] for q in p.get("parts", [])])
            if tools[source].split("__")[0] != s["tool"].split("__")[0]
        ]
        assert any(name in pair for pair in crossings), crossings
    # Without the variable the set names a service nothing registered, and the error says how to add it.
    bare = {k: v for k, v in os.environ.items() if k != SERVICE_PATH_ENV}
    refused = subprocess.run(verify, capture_output=True, text=True, timeout=600, env=bare)
    assert refused.returncode != 0
    assert SERVICE_PATH_ENV in " ".join((refused.stdout + refused.stderr).split())


def test_a_service_path_that_names_no_module_is_refused_with_what_it_takes(tmp_path: Path) -> None:
    # Wide enough that the console does not fold the long path it quotes.
    env = {**os.environ, SERVICE_PATH_ENV: str(tmp_path / "missing.py"), "COLUMNS": "500"}
    done = subprocess.run(
        [sys.executable, "-m", "compoworld", "catalog", "stats", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert done.returncode != 0
    said = " ".join((done.stdout + done.stderr).split())
    assert "missing.py is neither a service module (.py) nor a folder of them" in said
    # A folder brings every module in it.
    folder = tmp_path / "services"
    folder.mkdir()
    for document, name in CASES[:2]:
        (folder / f"{name}.py").write_text(scaffold(FIXTURES / document, name).source)
    listed = subprocess.run(
        [sys.executable, "-m", "compoworld", "catalog", "show", "codelinks"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**env, SERVICE_PATH_ENV: str(folder)},
    )
    assert listed.returncode == 0, listed.stderr[-2000:]
    assert "codelinks__merge_pullrequest" in listed.stdout
