"""Tagwise Label: project start rules, batches, labeling limits, review workflow and consensus."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LBL = ServiceTools("labeling")
WORLD = LBL.world
ok, refused, every = LBL.ok, LBL.refused, LBL.every
STAFF = [p.email for p in WORLD.population.employees]


def project(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_projects", name=name)[0]


def member(ep: Episode, project_id: str, role: str) -> str:
    return str(every(ep, "list_members", project_id=project_id, role=role)[0]["email"])


def queued(ep: Episode, project_id: str) -> list[str]:
    return [r for b in every(ep, "list_batches", project_id=project_id) for r in b["data_row_ids"]]


def test_seeded_labels_come_from_project_labelers_on_queued_rows(ep: Episode) -> None:
    dock = project(ep, "Damaged parcel detection")
    crew = {m["email"] for m in every(ep, "list_members", project_id=dock["id"], role="labeler")}
    rows = set(queued(ep, dock["id"]))
    labels = every(ep, "list_labels", project_id=dock["id"])
    assert labels and all(lb["labeler_email"] in crew and lb["data_row_id"] in rows for lb in labels)
    assert {lb["status"] for lb in labels} == {"done", "rework", "in_review"}
    admin = member(ep, dock["id"], "admin")
    assert admin in STAFF and admin == dock["created_by"]


def test_a_project_starts_only_with_ontology_batch_and_labeler(ep: Episode) -> None:
    me = STAFF[0]
    p = ok(ep, "create_project", name="Pallet wrap", media_type="image", created_by=me)
    refused(ep, "start_project", "rule_violation", "project_id", project_id=p["id"])
    ok(ep, "update_project", project_id=p["id"], ontology=["wrapped", "unwrapped"])
    refused(ep, "start_project", "rule_violation", "project_id", project_id=p["id"])
    row = every(ep, "list_data_rows", media_type="image")[-1]
    ok(ep, "create_batch", project_id=p["id"], name="b1", data_row_ids=[row["id"]])
    refused(ep, "start_project", "rule_violation", "project_id", project_id=p["id"])
    ok(ep, "add_member", project_id=p["id"], email=STAFF[1], added_by=me)
    assert ok(ep, "start_project", project_id=p["id"])["status"] == "active"


def test_project_names_are_unique_and_consensus_needs_votes(ep: Episode) -> None:
    me = STAFF[0]
    refused(ep, "create_project", "conflict", "name", name="ticket INTENT", media_type="text", created_by=me)
    refused(
        ep,
        "create_project",
        "rule_violation",
        "consensus_votes",
        name="X",
        media_type="text",
        created_by=me,
        quality_mode="consensus",
    )
    refused(
        ep,
        "create_project",
        "rule_violation",
        "ontology",
        name="X",
        media_type="text",
        created_by=me,
        ontology=["a", "a"],
    )
    refused(ep, "create_project", "rule_violation", "created_by", name="X", media_type="text", created_by="x@y.io")


def test_batches_take_rows_of_the_media_type_once_and_not_into_completed_projects(ep: Episode) -> None:
    dock = project(ep, "Damaged parcel detection")
    text_row = every(ep, "list_data_rows", media_type="text")[0]
    refused(
        ep,
        "create_batch",
        "rule_violation",
        "data_row_ids",
        project_id=dock["id"],
        name="x",
        data_row_ids=[text_row["id"]],
    )
    already = queued(ep, dock["id"])[0]
    refused(ep, "create_batch", "conflict", "data_row_ids", project_id=dock["id"], name="x", data_row_ids=[already])
    done = project(ep, "Shelf labels 2025")
    img = every(ep, "list_data_rows", media_type="image")[-1]
    refused(
        ep, "create_batch", "rule_violation", "project_id", project_id=done["id"], name="x", data_row_ids=[img["id"]]
    )
    b = ok(ep, "create_batch", project_id=dock["id"], name="March", data_row_ids=[img["id"]], priority=1)
    assert img["id"] in queued(ep, dock["id"]) and b["priority"] == 1


def test_labels_need_a_labeler_a_queued_row_and_an_ontology_class(ep: Episode) -> None:
    dock = project(ep, "Damaged parcel detection")
    lab = member(ep, dock["id"], "labeler")
    rev = member(ep, dock["id"], "reviewer")
    rows = queued(ep, dock["id"])
    fresh = next(r for r in rows if not every(ep, "list_labels", project_id=dock["id"], data_row_id=r))
    unqueued = every(ep, "list_data_rows", media_type="image")[-1]["id"]
    base = {"project_id": dock["id"], "annotation": "damaged_box"}
    refused(ep, "submit_label", "rule_violation", "labeler_email", data_row_id=fresh, labeler_email=rev, **base)
    refused(ep, "submit_label", "rule_violation", "data_row_id", data_row_id=unqueued, labeler_email=lab, **base)
    refused(
        ep,
        "submit_label",
        "rule_violation",
        "annotation",
        data_row_id=fresh,
        labeler_email=lab,
        project_id=dock["id"],
        annotation="cat",
    )
    made = ok(ep, "submit_label", data_row_id=fresh, labeler_email=lab, seconds_spent=12, **base)
    assert made["status"] == "in_review"
    refused(ep, "submit_label", "conflict", "labeler_email", data_row_id=fresh, labeler_email=lab, **base)


def test_consensus_caps_labels_per_row(ep: Episode) -> None:
    dock = project(ep, "Damaged parcel detection")
    full = next(
        r
        for r in queued(ep, dock["id"])
        if len(every(ep, "list_labels", project_id=dock["id"], data_row_id=r)) == 2
        and all(lb["status"] != "rework" for lb in every(ep, "list_labels", project_id=dock["id"], data_row_id=r))
    )
    labeled = {lb["labeler_email"] for lb in every(ep, "list_labels", project_id=dock["id"], data_row_id=full)}
    assert len(labeled) == 2
    third = next(e for e in STAFF if not every(ep, "list_members", project_id=dock["id"], email=e))
    ok(ep, "add_member", project_id=dock["id"], email=third, added_by=member(ep, dock["id"], "admin"))
    refused(
        ep,
        "submit_label",
        "conflict",
        "data_row_id",
        project_id=dock["id"],
        data_row_id=full,
        labeler_email=third,
        annotation="no_parcel",
    )


def test_review_approves_or_sends_to_rework_and_relabel_returns_to_review(ep: Episode) -> None:
    dock = project(ep, "Damaged parcel detection")
    rev = member(ep, dock["id"], "reviewer")
    lb = every(ep, "list_labels", project_id=dock["id"], status="in_review")[0]
    refused(
        ep,
        "review_label",
        "rule_violation",
        "reviewer_email",
        label_id=lb["id"],
        reviewer_email=lb["labeler_email"],
        decision="approve",
    )
    refused(ep, "review_label", "rule_violation", "comment", label_id=lb["id"], reviewer_email=rev, decision="reject")
    back = ok(ep, "review_label", label_id=lb["id"], reviewer_email=rev, decision="reject", comment="Wrong class")
    assert back["status"] == "rework"
    refused(ep, "review_label", "conflict", "label_id", label_id=lb["id"], reviewer_email=rev, decision="approve")
    again = ok(
        ep,
        "submit_label",
        project_id=dock["id"],
        data_row_id=lb["data_row_id"],
        labeler_email=lb["labeler_email"],
        annotation="intact_box",
    )
    assert again["id"] == lb["id"] and again["status"] == "in_review"
    assert ok(ep, "review_label", label_id=lb["id"], reviewer_email=rev, decision="approve")["status"] == "done"


def test_agreement_and_progress_count_live_labels(ep: Episode) -> None:
    dock = project(ep, "Damaged parcel detection")
    for r in queued(ep, dock["id"]):
        live = [lb for lb in every(ep, "list_labels", project_id=dock["id"], data_row_id=r) if lb["status"] != "rework"]
        agr = ok(ep, "row_agreement", project_id=dock["id"], data_row_id=r)
        assert agr["labels"] == len(live)
        if live:
            top = max(sum(x["annotation"] == y["annotation"] for x in live) for y in live)
            assert agr["agreement"] == round(top / len(live), 3)
    prog = ok(ep, "project_progress", project_id=dock["id"])
    assert prog["queued_rows"] == len(queued(ep, dock["id"]))
    assert sum(prog["labels_by_status"].values()) == len(every(ep, "list_labels", project_id=dock["id"]))


def test_only_admins_add_members_and_the_last_admin_stays(ep: Episode) -> None:
    dock = project(ep, "Damaged parcel detection")
    rev = member(ep, dock["id"], "reviewer")
    admin = member(ep, dock["id"], "admin")
    newcomer = next(e for e in STAFF if not every(ep, "list_members", project_id=dock["id"], email=e))
    refused(ep, "add_member", "rule_violation", "added_by", project_id=dock["id"], email=newcomer, added_by=rev)
    refused(ep, "add_member", "conflict", "email", project_id=dock["id"], email=rev, added_by=admin)
    ok(ep, "add_member", project_id=dock["id"], email=newcomer, added_by=admin, role="reviewer")
    admin_row = every(ep, "list_members", project_id=dock["id"], role="admin")[0]
    refused(ep, "delete_member", "rule_violation", "member_id", member_id=admin_row["id"])
