"""Inkwell Docs: roles and link sharing, revisions with stale-edit conflicts, suggestions, comments, trash."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DOCS = ServiceTools("docs")
WORLD = DOCS.world
ok, refused, every = DOCS.ok, DOCS.refused, DOCS.every
POP = WORLD.population
HOME = POP.home.domain


def live(ep: Episode, **filters: Any) -> list[dict[str, Any]]:
    return every(ep, "list_documents", trashed=False, **filters)


def with_role(ep: Episode, role: str, restricted: bool = True) -> tuple[dict[str, Any], str]:
    for perm in every(ep, "list_permissions", role=role):
        doc = next(d for d in every(ep, "list_documents") if d["id"] == perm["document_id"])
        if not doc["trashed"] and (doc["link_sharing"] == "restricted" or not restricted):
            return doc, perm["email"]
    raise AssertionError(f"no {role}")


def stranger(ep: Episode, doc: dict[str, Any]) -> str:
    shared = {p["email"] for p in every(ep, "list_permissions", document_id=doc["id"])} | {doc["owner_email"]}
    return next(p.email for p in POP.employees if p.email not in shared)


def new_doc(ep: Episode, body: str = "Plan: ship the spring release on time.") -> dict[str, Any]:
    return dict(ok(ep, "create_document", title="Release plan", owner_email=POP.employees[0].email, body=body))


# -- the world --------------------------------------------------------------------------------


def test_documents_belong_to_staff_and_their_revisions_lead_to_the_current_text() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p.name for p in POP.employees}
    for doc in every(ep, "list_documents"):
        assert staff[doc["owner_email"]] == doc["owner_name"]
        assert doc["link"] == f"https://docs.inkwell.example/d/{doc['id']}/edit"
        revs = sorted(every(ep, "list_revisions", document_id=doc["id"]), key=lambda r: r["number"])
        assert [r["number"] for r in revs] == list(range(1, doc["revision"] + 1))
        assert revs[-1]["body"] == doc["body"] and doc["word_count"] == len(doc["body"].split())
    outside = [p for p in every(ep, "list_permissions") if not p["email"].endswith("@" + HOME)]
    contacts = {p.email for p in POP.contacts}
    assert outside and all(p["email"] in contacts and p["role"] != "writer" for p in outside)


# -- access -----------------------------------------------------------------------------------


def test_roles_decide_who_reads_comments_and_edits(ep: Episode) -> None:
    doc, reader = with_role(ep, "reader")
    assert ok(ep, "read_document", document_id=doc["id"], viewer_email=reader)["role"] == "reader"
    refused(
        ep, "add_comment", "rule_violation", "author_email", document_id=doc["id"], author_email=reader, content="Hm"
    )
    refused(
        ep, "read_document", "rule_violation", "viewer_email", document_id=doc["id"], viewer_email=stranger(ep, doc)
    )
    doc, commenter = with_role(ep, "commenter")
    refused(
        ep,
        "edit_document",
        "rule_violation",
        "editor_email",
        document_id=doc["id"],
        editor_email=commenter,
        body="Mine now",
    )


def test_link_sharing_opens_the_document_to_the_company_or_to_anyone(ep: Episode) -> None:
    doc = new_doc(ep)
    owner = doc["owner_email"]
    colleague = stranger(ep, doc)
    outsider = POP.consumers[0].email
    refused(ep, "read_document", "rule_violation", "viewer_email", document_id=doc["id"], viewer_email=colleague)
    refused(
        ep,
        "set_link_sharing",
        "rule_violation",
        "actor_email",
        document_id=doc["id"],
        actor_email=colleague,
        link_sharing="domain",
    )
    ok(ep, "set_link_sharing", document_id=doc["id"], actor_email=owner, link_sharing="domain", link_role="commenter")
    assert ok(ep, "read_document", document_id=doc["id"], viewer_email=colleague)["role"] == "commenter"
    refused(ep, "read_document", "rule_violation", "viewer_email", document_id=doc["id"], viewer_email=outsider)
    refused(
        ep,
        "set_link_sharing",
        "rule_violation",
        "link_role",
        document_id=doc["id"],
        actor_email=owner,
        link_sharing="anyone",
        link_role="writer",
    )
    ok(ep, "set_link_sharing", document_id=doc["id"], actor_email=owner, link_sharing="anyone")
    found = ok(ep, "find_document_by_link", link=doc["link"], viewer_email=outsider)
    assert (found["document"]["id"], found["role"]) == (doc["id"], "reader")


# -- editing ----------------------------------------------------------------------------------


def test_an_edit_on_a_stale_revision_conflicts(ep: Episode) -> None:
    refused(ep, "create_document", "rule_violation", "owner_email", title="X", owner_email=POP.contacts[0].email)
    doc = new_doc(ep)
    owner = doc["owner_email"]
    one = ok(
        ep,
        "edit_document",
        document_id=doc["id"],
        editor_email=owner,
        body="Plan: ship it in May.",
        required_revision=1,
    )
    assert (one["revision"], one["word_count"]) == (2, 5)
    msg = refused(
        ep,
        "edit_document",
        "conflict",
        "required_revision",
        document_id=doc["id"],
        editor_email=owner,
        body="Plan: June.",
        required_revision=1,
    )
    assert "revision 2" in msg
    refused(
        ep,
        "edit_document",
        "rule_violation",
        "body",
        document_id=doc["id"],
        editor_email=owner,
        body="Plan: ship it in May.",
    )
    back = ok(ep, "restore_revision", document_id=doc["id"], editor_email=owner, number=1)
    assert back["revision"] == 3 and back["body"] == doc["body"]
    refused(ep, "restore_revision", "rule_violation", "number", document_id=doc["id"], editor_email=owner, number=3)


def test_accepted_suggestions_become_revisions_and_stale_ones_conflict(ep: Episode) -> None:
    doc = new_doc(ep)
    owner = doc["owner_email"]
    guest = stranger(ep, doc)
    ok(ep, "share_document", document_id=doc["id"], actor_email=owner, email=guest, role="commenter")
    refused(
        ep,
        "suggest_edit",
        "rule_violation",
        "target_text",
        document_id=doc["id"],
        author_email=guest,
        target_text="autumn",
        new_text="winter",
    )
    first = ok(ep, "suggest_edit", document_id=doc["id"], author_email=guest, target_text="spring", new_text="summer")
    second = ok(
        ep,
        "suggest_edit",
        document_id=doc["id"],
        author_email=guest,
        target_text="spring release",
        new_text="big release",
    )
    refused(
        ep,
        "decide_suggestion",
        "rule_violation",
        "decider_email",
        suggestion_id=first["id"],
        decider_email=guest,
        accept=True,
    )
    out = ok(ep, "decide_suggestion", suggestion_id=first["id"], decider_email=owner, accept=True)
    assert out["document"]["body"] == "Plan: ship the summer release on time." and out["document"]["revision"] == 2
    refused(
        ep,
        "decide_suggestion",
        "conflict",
        "suggestion_id",
        suggestion_id=second["id"],
        decider_email=owner,
        accept=True,
    )
    withdrawn = ok(ep, "decide_suggestion", suggestion_id=second["id"], decider_email=guest, accept=False)
    assert withdrawn["suggestion"]["status"] == "rejected"


def test_comments_quote_the_text_and_resolved_discussions_need_reopening(ep: Episode) -> None:
    doc = new_doc(ep)
    owner = doc["owner_email"]
    refused(
        ep,
        "add_comment",
        "rule_violation",
        "quoted_text",
        document_id=doc["id"],
        author_email=owner,
        content="?",
        quoted_text="winter",
    )
    c = ok(ep, "add_comment", document_id=doc["id"], author_email=owner, content="Which date?", quoted_text="on time")
    ok(ep, "resolve_comment", comment_id=c["id"], actor_email=owner)
    refused(
        ep,
        "reply_to_comment",
        "rule_violation",
        "comment_id",
        comment_id=c["id"],
        author_email=owner,
        content="Reopening",
    )
    reply = ok(ep, "reply_to_comment", comment_id=c["id"], author_email=owner, content="Still open", reopen=True)
    assert reply["parent_id"] == c["id"]
    assert ok(ep, "read_document", document_id=doc["id"], viewer_email=owner)["open_comments"] == 1
    seeded, reader = with_role(ep, "reader")
    root = every(ep, "list_comments", document_id=seeded["id"], parent_id=None)
    open_ = [x for x in root if not x["resolved"] and x["author_email"] != reader]
    if open_:
        refused(ep, "resolve_comment", "rule_violation", "actor_email", comment_id=open_[0]["id"], actor_email=reader)


# -- sharing ----------------------------------------------------------------------------------


def test_sharing_rules(ep: Episode) -> None:
    doc = new_doc(ep)
    owner = doc["owner_email"]
    refused(
        ep,
        "share_document",
        "rule_violation",
        "role",
        document_id=doc["id"],
        actor_email=owner,
        email=POP.contacts[0].email,
        role="writer",
    )
    writer = stranger(ep, doc)
    ok(ep, "share_document", document_id=doc["id"], actor_email=owner, email=writer, role="writer")
    other = next(p.email for p in POP.employees if p.email not in (owner, writer))
    assert (
        ok(ep, "share_document", document_id=doc["id"], actor_email=writer, email=other, role="reader")["granted_by"]
        == writer
    )
    refused(
        ep, "share_document", "conflict", "role", document_id=doc["id"], actor_email=owner, email=other, role="reader"
    )
    seeded = next(d for d in live(ep) if not d["writers_can_share"])
    perm = next((p for p in every(ep, "list_permissions", document_id=seeded["id"], role="writer")), None)
    if perm is not None:
        refused(
            ep,
            "share_document",
            "rule_violation",
            "actor_email",
            document_id=seeded["id"],
            actor_email=perm["email"],
            email=stranger(ep, seeded),
            role="reader",
        )
    mine = every(ep, "list_permissions", document_id=doc["id"], email=other)[0]
    ok(ep, "remove_permission", permission_id=mine["id"], actor_email=other)
    refused(ep, "read_document", "rule_violation", "viewer_email", document_id=doc["id"], viewer_email=other)


def test_ownership_moves_only_to_a_writer(ep: Episode) -> None:
    doc, writer = with_role(ep, "writer", restricted=False)
    owner = doc["owner_email"]
    _, commenter = with_role(ep, "commenter")
    refused(
        ep,
        "transfer_ownership",
        "rule_violation",
        "new_owner_email",
        document_id=doc["id"],
        actor_email=owner,
        new_owner_email=commenter,
    )
    refused(
        ep,
        "transfer_ownership",
        "rule_violation",
        "actor_email",
        document_id=doc["id"],
        actor_email=writer,
        new_owner_email=writer,
    )
    moved = ok(ep, "transfer_ownership", document_id=doc["id"], actor_email=owner, new_owner_email=writer)
    assert moved["owner_email"] == writer
    assert ok(ep, "read_document", document_id=doc["id"], viewer_email=owner)["role"] == "writer"


def test_a_trashed_document_is_read_only_until_the_owner_restores_it(ep: Episode) -> None:
    doc = every(ep, "list_documents", trashed=True)[0]
    owner = doc["owner_email"]
    assert ok(ep, "read_document", document_id=doc["id"], viewer_email=owner)["role"] == "owner"
    refused(
        ep, "edit_document", "rule_violation", "document_id", document_id=doc["id"], editor_email=owner, body="New text"
    )
    refused(ep, "add_comment", "rule_violation", "document_id", document_id=doc["id"], author_email=owner, content="Hi")
    writer = next((p["email"] for p in every(ep, "list_permissions", document_id=doc["id"], role="writer")), None)
    if writer:
        refused(ep, "restore_document", "rule_violation", "actor_email", document_id=doc["id"], actor_email=writer)
    ok(ep, "restore_document", document_id=doc["id"], actor_email=owner)
    assert (
        ok(ep, "edit_document", document_id=doc["id"], editor_email=owner, body="New text")["revision"]
        == doc["revision"] + 1
    )


def test_shared_with_me_lists_direct_and_company_wide_shares() -> None:
    ep = Episode(WORLD)
    person = POP.employees[5].email
    listed = {v["document"]["id"]: v["role"] for v in ok(ep, "shared_with_me", email=person)}
    for doc in live(ep):
        if doc["owner_email"] == person:
            assert doc["id"] not in listed
            continue
        direct = every(ep, "list_permissions", document_id=doc["id"], email=person)
        expected = bool(direct) or doc["link_sharing"] == "domain"
        assert (doc["id"] in listed) == expected
    assert all(v in ("reader", "commenter", "writer") for v in listed.values())


def test_an_empty_passage_suggestion_appends_and_a_reply_joins_the_discussion(ep: Episode) -> None:
    doc = new_doc(ep)
    owner = doc["owner_email"]
    refused(
        ep,
        "suggest_edit",
        "rule_violation",
        "new_text",
        document_id=doc["id"],
        author_email=owner,
        target_text="",
        new_text="",
    )
    sug = ok(ep, "suggest_edit", document_id=doc["id"], author_email=owner, target_text="", new_text="Owner: Ops.")
    out = ok(ep, "decide_suggestion", suggestion_id=sug["id"], decider_email=owner, accept=True)
    assert out["document"]["body"].endswith("\nOwner: Ops.") and out["suggestion"]["decided_by"] == owner
    c = ok(ep, "add_comment", document_id=doc["id"], author_email=owner, content="Who owns this?")
    r1 = ok(ep, "reply_to_comment", comment_id=c["id"], author_email=owner, content="Ops")
    r2 = ok(ep, "reply_to_comment", comment_id=r1["id"], author_email=owner, content="Confirmed")
    assert r2["parent_id"] == c["id"]
    refused(ep, "resolve_comment", "rule_violation", "comment_id", comment_id=r1["id"], actor_email=owner)


def test_only_the_owner_trashes_a_document(ep: Episode) -> None:
    doc, writer = with_role(ep, "writer", restricted=False)
    refused(ep, "trash_document", "rule_violation", "actor_email", document_id=doc["id"], actor_email=writer)
    trashed = ok(ep, "trash_document", document_id=doc["id"], actor_email=doc["owner_email"])
    assert trashed["trashed"] is True
    refused(
        ep,
        "restore_document",
        "rule_violation",
        "document_id",
        document_id=every(ep, "list_documents", trashed=False)[0]["id"],
        actor_email=every(ep, "list_documents", trashed=False)[0]["owner_email"],
    )
