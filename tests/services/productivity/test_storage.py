"""Vault Drive: unique names per folder, folder moves, recursive deletes, quota, roles, links, trash, revisions."""

from __future__ import annotations

from collections import Counter

from compoworld import Episode
from compoworld.services.productivity.storage import Account, File, Folder, Permission, Revision, SharedLink
from tests.services.helpers import ServiceTools, get, rows

STORAGE = ServiceTools("storage")
WORLD = STORAGE.world
ok, refused = STORAGE.ok, STORAGE.refused
POP = WORLD.population
HOME = POP.home.domain


def live_file(ep: Episode) -> File:
    return next(f for f in rows(ep, File) if not f.trashed and f.folder_id is not None)


def nested_folder(ep: Episode) -> tuple[Folder, Folder]:
    """A live top-level folder that has a live sub-folder, and that sub-folder."""
    for sub in rows(ep, Folder):
        if sub.parent_id is not None and not sub.trashed:
            return get(ep, Folder, sub.parent_id), sub
    raise AssertionError("no nested folder seeded")


def other_employee(owner: str) -> str:
    return next(p.email for p in POP.employees if p.email != owner)


# -- the seeded world --------------------------------------------------------------------------


def test_seeded_drives_are_consistent_and_cover_every_state(ep: Episode) -> None:
    folders, files = rows(ep, Folder), rows(ep, File)
    names = Counter(
        (x.owner_email, x.parent_id if isinstance(x, Folder) else x.folder_id, x.name.casefold())
        for x in [*folders, *files]
        if not x.trashed
    )
    assert max(names.values()) == 1
    by_id = {f.id: f for f in folders}
    for f in files:
        parent = by_id.get(f.folder_id) if f.folder_id else None
        assert f.path == (f"{parent.path}/{f.name}" if parent else f"/{f.name}")
        assert f.owner_email == (parent.owner_email if parent else f.owner_email)
        revs = [r for r in rows(ep, Revision) if r.file_id == f.id]
        assert sorted(r.rev for r in revs) == list(range(1, f.rev + 1))
    for acc in rows(ep, Account):
        usage = ok(ep, "get_space_usage", email=acc.email)
        assert usage["used_bytes"] <= usage["allocated_bytes"]
    assert {acc.email for acc in rows(ep, Account)} == {p.email for p in POP.employees}
    assert {(f.trashed, f.explicitly_trashed) for f in files} == {(False, False), (True, True), (True, False)}
    assert {link.status for link in rows(ep, SharedLink)} == {"active", "revoked"}
    assert {p.role for p in rows(ep, Permission)} == {"viewer", "commenter", "editor"}
    contacts = {p.email for p in POP.contacts}
    assert any(p.email in contacts for p in rows(ep, Permission))


# -- uploads, names and quota ------------------------------------------------------------------


def test_upload_creates_the_file_and_its_first_revision(ep: Episode) -> None:
    folder = next(f for f in rows(ep, Folder) if not f.trashed)
    out = ok(
        ep,
        "upload_file",
        actor_email=folder.owner_email,
        folder_id=folder.id,
        name="Board memo.pdf",
        size_bytes=12_345,
        mime_type="application/pdf",
    )
    assert out["path"] == f"{folder.path}/Board memo.pdf"
    assert out["owner_email"] == folder.owner_email and out["rev"] == 1
    assert ep.diff().counts() == {
        "storage.files": {"added": 1, "updated": 0, "removed": 0},
        "storage.revisions": {"added": 1, "updated": 0, "removed": 0},
    }


def test_upload_with_a_taken_name_is_refused_ignoring_case_and_changes_nothing(ep: Episode) -> None:
    f = live_file(ep)
    msg = refused(
        ep,
        "upload_file",
        "conflict",
        "name",
        actor_email=f.owner_email,
        folder_id=f.folder_id,
        name=f.name.upper(),
        size_bytes=10,
        mime_type="text/plain",
    )
    assert f.id in msg


def test_autorename_picks_a_free_numbered_name(ep: Episode) -> None:
    f = live_file(ep)
    out = ok(
        ep,
        "upload_file",
        actor_email=f.owner_email,
        folder_id=f.folder_id,
        name=f.name,
        size_bytes=10,
        mime_type="text/plain",
        autorename=True,
    )
    stem, _, ext = f.name.rpartition(".")
    assert out["name"] == f"{stem} (1).{ext}"


def test_overwrite_adds_a_revision_to_the_existing_file(ep: Episode) -> None:
    f = live_file(ep)
    out = ok(
        ep,
        "upload_file",
        actor_email=f.owner_email,
        folder_id=f.folder_id,
        name=f.name,
        size_bytes=777,
        mime_type=f.mime_type,
        mode="overwrite",
    )
    assert out["id"] == f.id and out["rev"] == f.rev + 1 and out["size_bytes"] == 777
    diff = ep.diff()
    assert diff.counts()["storage.revisions"] == {"added": 1, "updated": 0, "removed": 0}
    assert set(diff.tables["storage.files"].updated[0].changed) >= {"rev", "size_bytes", "content_hash"}


def test_a_folder_and_a_file_cannot_share_a_name(ep: Episode) -> None:
    f = live_file(ep)
    refused(ep, "create_folder", "conflict", "name", actor_email=f.owner_email, parent_id=f.folder_id, name=f.name)


def test_upload_beyond_the_owners_quota_is_refused_and_emptying_the_trash_frees_space(ep: Episode) -> None:
    full = next(a for a in rows(ep, Account) if a.quota_bytes == 2 * 10**9)
    usage = ok(ep, "get_space_usage", email=full.email)
    assert 0 < usage["available_bytes"] < 10 * 10**6
    msg = refused(
        ep,
        "upload_file",
        "rule_violation",
        "size_bytes",
        actor_email=full.email,
        name="Big deck.pptx",
        size_bytes=usage["available_bytes"] + 1,
        mime_type="application/zip",
    )
    assert "out of space" in msg
    # Trashing does not free quota; emptying the trash does.
    big = next(f for f in rows(ep, File) if f.owner_email == full.email and f.name == "Call recordings.zip")
    ok(ep, "trash_file", file_id=big.id, actor_email=full.email)
    refused(
        ep,
        "upload_file",
        "rule_violation",
        "size_bytes",
        actor_email=full.email,
        name="Big deck.pptx",
        size_bytes=usage["available_bytes"] + 1,
        mime_type="application/zip",
    )
    out = ok(ep, "empty_trash", owner_email=full.email)
    assert big.id in out["deleted_file_ids"] and out["freed_bytes"] >= big.size_bytes
    ok(
        ep,
        "upload_file",
        actor_email=full.email,
        name="Big deck.pptx",
        size_bytes=usage["available_bytes"] + 1,
        mime_type="application/zip",
    )


def test_quota_cannot_be_set_below_the_space_already_used(ep: Episode) -> None:
    acc = next(a for a in rows(ep, Account) if ok(ep, "get_space_usage", email=a.email)["used_bytes"] > 0)
    refused(ep, "update_account", "rule_violation", "quota_bytes", account_id=acc.id, quota_bytes=1)
    ok(ep, "update_account", account_id=acc.id, quota_bytes=acc.quota_bytes * 2)


# -- roles -------------------------------------------------------------------------------------


def _shared_folder(ep: Episode, role: str) -> tuple[Folder, Permission]:
    for perm in rows(ep, Permission):
        if perm.folder_id is not None and perm.role == role:
            folder = get(ep, Folder, perm.folder_id)
            if not folder.trashed:
                return folder, perm
    raise AssertionError(f"no folder shared as {role}")


def test_a_viewer_cannot_upload_but_an_editor_can_and_the_owner_keeps_the_file(ep: Episode) -> None:
    folder, viewer = _shared_folder(ep, "viewer")
    refused(
        ep,
        "upload_file",
        "rule_violation",
        "actor_email",
        actor_email=viewer.email,
        folder_id=folder.id,
        name="Sneaky.txt",
        size_bytes=1,
        mime_type="text/plain",
    )
    folder, editor = _shared_folder(ep, "editor")
    out = ok(
        ep,
        "upload_file",
        actor_email=editor.email,
        folder_id=folder.id,
        name="Shared notes.txt",
        size_bytes=1,
        mime_type="text/plain",
    )
    assert out["owner_email"] == folder.owner_email and out["last_modified_by"] == editor.email


def test_only_an_owner_or_editor_shares_and_editor_access_is_inherited_from_folders(ep: Episode) -> None:
    folder, viewer = _shared_folder(ep, "viewer")
    f = next(x for x in rows(ep, File) if x.folder_id == folder.id and not x.trashed)
    target = next(p.email for p in POP.employees if p.email not in (folder.owner_email, viewer.email))
    refused(
        ep,
        "share_file",
        "rule_violation",
        "actor_email",
        file_id=f.id,
        email=target,
        role="viewer",
        actor_email=viewer.email,
    )
    folder, editor = _shared_folder(ep, "editor")
    f = next(x for x in rows(ep, File) if x.folder_id == folder.id and not x.trashed)
    target = next(
        p.email
        for p in POP.employees
        if p.email not in (folder.owner_email, editor.email)
        and not any(q.email == p.email and q.file_id == f.id for q in rows(ep, Permission))
    )
    out = ok(ep, "share_file", file_id=f.id, email=target, role="commenter", actor_email=editor.email)
    assert out["granted_by"] == editor.email
    assert ep.diff().counts() == {"storage.permissions": {"added": 1, "updated": 0, "removed": 0}}


def test_sharing_twice_with_the_same_person_is_a_conflict(ep: Episode) -> None:
    perm = next(p for p in rows(ep, Permission) if p.file_id is not None)
    f = get(ep, File, perm.file_id or "")
    msg = refused(
        ep, "share_file", "conflict", "email", file_id=f.id, email=perm.email, role="editor", actor_email=f.owner_email
    )
    assert perm.id in msg


def test_sharing_outside_partner_domains_or_with_the_owner_is_refused(ep: Episode) -> None:
    f = live_file(ep)
    consumer = POP.consumers[0].email
    refused(
        ep,
        "share_file",
        "rule_violation",
        "email",
        file_id=f.id,
        email=consumer,
        role="viewer",
        actor_email=f.owner_email,
    )
    refused(
        ep,
        "share_file",
        "rule_violation",
        "email",
        file_id=f.id,
        email=f.owner_email,
        role="viewer",
        actor_email=f.owner_email,
    )
    contact = POP.contacts[0].email
    ok(ep, "share_file", file_id=f.id, email=contact, role="viewer", actor_email=f.owner_email)


def test_members_change_roles_and_may_remove_their_own_access(ep: Episode) -> None:
    perm = next(p for p in rows(ep, Permission) if p.folder_id is not None)
    folder = get(ep, Folder, perm.folder_id or "")
    refused(
        ep,
        "change_member_role",
        "rule_violation",
        "role",
        permission_id=perm.id,
        role=perm.role,
        actor_email=folder.owner_email,
    )
    stranger = next(p.email for p in POP.employees if p.email not in (folder.owner_email, perm.email))
    refused(ep, "remove_member", "rule_violation", "actor_email", permission_id=perm.id, actor_email=stranger)
    ok(ep, "remove_member", permission_id=perm.id, actor_email=perm.email)
    assert ep.diff().counts() == {"storage.permissions": {"added": 0, "updated": 0, "removed": 1}}


# -- moving, copying, renaming -----------------------------------------------------------------


def test_a_folder_cannot_move_into_itself_or_its_own_subfolder(ep: Episode) -> None:
    parent, child = nested_folder(ep)
    refused(
        ep,
        "move_folder",
        "rule_violation",
        "destination_folder_id",
        folder_id=parent.id,
        destination_folder_id=child.id,
        actor_email=parent.owner_email,
    )
    refused(
        ep,
        "move_folder",
        "rule_violation",
        "destination_folder_id",
        folder_id=parent.id,
        destination_folder_id=parent.id,
        actor_email=parent.owner_email,
    )


def test_moving_a_folder_rewrites_the_paths_of_everything_inside(ep: Episode) -> None:
    parent, child = nested_folder(ep)
    target = next(
        f for f in rows(ep, Folder) if f.owner_email == parent.owner_email and f.parent_id is None and f.id != parent.id
    )
    moved = ok(ep, "move_folder", folder_id=child.id, destination_folder_id=target.id, actor_email=parent.owner_email)
    assert moved["path"] == f"{target.path}/{child.name}"
    inside = [f for f in rows(ep, File) if f.folder_id == child.id]
    assert inside and all(f.path == f"{target.path}/{child.name}/{f.name}" for f in inside)


def test_moving_a_file_into_another_persons_drive_is_refused_but_copying_works(ep: Episode) -> None:
    f = live_file(ep)
    other = next(x for x in rows(ep, Folder) if x.owner_email != f.owner_email and not x.trashed)
    msg = refused(
        ep,
        "move_file",
        "rule_violation",
        "destination_folder_id",
        file_id=f.id,
        destination_folder_id=other.id,
        actor_email=f.owner_email,
    )
    assert "cannot move into the drive of" in msg
    ok(ep, "share_folder", folder_id=other.id, email=f.owner_email, role="editor", actor_email=other.owner_email)
    copy = ok(ep, "copy_file", file_id=f.id, destination_folder_id=other.id, actor_email=f.owner_email, autorename=True)
    assert copy["owner_email"] == other.owner_email and copy["content_hash"] == f.content_hash
    assert copy["rev"] == 1 and copy["id"] != f.id


def test_renaming_a_folder_moves_its_contents_paths_and_rejects_taken_names(ep: Episode) -> None:
    parent, child = nested_folder(ep)
    sibling = next((x for x in rows(ep, File) if x.folder_id == parent.id and not x.trashed), None) or next(
        x for x in rows(ep, Folder) if x.parent_id == parent.id and x.id != child.id
    )
    refused(
        ep,
        "rename_folder",
        "conflict",
        "new_name",
        folder_id=child.id,
        new_name=sibling.name,
        actor_email=child.owner_email,
    )
    out = ok(ep, "rename_folder", folder_id=child.id, new_name="Old stuff", actor_email=child.owner_email)
    assert out["path"] == f"{parent.path}/Old stuff"
    assert all(f.path.startswith(f"{parent.path}/Old stuff/") for f in rows(ep, File) if f.folder_id == child.id)


def test_paths_resolve_ignoring_case_and_trashed_items_are_not_found(ep: Episode) -> None:
    f = live_file(ep)
    out = ok(ep, "get_item_by_path", owner_email=f.owner_email, path=f.path.lower())
    assert out["kind"] == "file" and out["file"]["id"] == f.id
    ok(ep, "trash_file", file_id=f.id, actor_email=f.owner_email)
    refused(ep, "get_item_by_path", "not_found", "path", owner_email=f.owner_email, path=f.path)


# -- trash and permanent deletion --------------------------------------------------------------


def test_a_non_empty_folder_is_not_deleted_without_recursive(ep: Episode) -> None:
    parent, _child = nested_folder(ep)
    msg = refused(
        ep, "delete_folder", "rule_violation", "recursive", folder_id=parent.id, actor_email=parent.owner_email
    )
    assert "not empty" in msg


def test_recursive_delete_removes_the_tree_with_revisions_permissions_and_links(ep: Episode) -> None:
    parent, _child = nested_folder(ep)
    out = ok(ep, "delete_folder", folder_id=parent.id, actor_email=parent.owner_email, recursive=True)
    assert parent.id in out["deleted_folder_ids"] and out["deleted_file_ids"]
    gone = set(out["deleted_file_ids"])
    assert not any(r.file_id in gone for r in rows(ep, Revision))
    assert not any(p.file_id in gone or p.folder_id in out["deleted_folder_ids"] for p in rows(ep, Permission))
    assert not any(link.file_id in gone for link in rows(ep, SharedLink))
    assert len(ep.diff().tables["storage.files"].removed) == len(gone)


def test_only_the_owner_deletes_permanently(ep: Episode) -> None:
    folder, editor = _shared_folder(ep, "editor")
    f = next(x for x in rows(ep, File) if x.folder_id == folder.id)
    refused(ep, "delete_file", "rule_violation", "actor_email", file_id=f.id, actor_email=editor.email)
    ok(ep, "trash_file", file_id=f.id, actor_email=editor.email)


def test_restoring_a_trashed_folder_brings_back_only_what_was_trashed_with_it(ep: Episode) -> None:
    parent, child = nested_folder(ep)
    inside = [f for f in rows(ep, File) if f.folder_id == child.id and not f.trashed]
    assert inside
    ok(ep, "trash_file", file_id=inside[0].id, actor_email=parent.owner_email)
    ok(ep, "trash_folder", folder_id=parent.id, actor_email=parent.owner_email)
    assert all(f.trashed for f in rows(ep, File) if f.folder_id == child.id)
    msg = refused(ep, "restore_file", "rule_violation", "file_id", file_id=inside[0].id, actor_email=parent.owner_email)
    assert "while its folder" in msg
    ok(ep, "restore_folder", folder_id=parent.id, actor_email=parent.owner_email)
    state = {f.id: f.trashed for f in rows(ep, File) if f.folder_id == child.id}
    assert state[inside[0].id] is True
    assert all(not t for fid, t in state.items() if fid != inside[0].id and fid in {f.id for f in inside})


def test_a_file_trashed_with_its_folder_is_restored_through_the_folder(ep: Episode) -> None:
    implicit = next(f for f in rows(ep, File) if f.trashed and not f.explicitly_trashed)
    msg = refused(
        ep, "restore_file", "rule_violation", "file_id", file_id=implicit.id, actor_email=implicit.owner_email
    )
    assert "because folder" in msg


def test_restoring_a_file_whose_name_was_taken_meanwhile_is_a_conflict(ep: Episode) -> None:
    f = live_file(ep)
    ok(ep, "trash_file", file_id=f.id, actor_email=f.owner_email)
    ok(
        ep,
        "upload_file",
        actor_email=f.owner_email,
        folder_id=f.folder_id,
        name=f.name,
        size_bytes=5,
        mime_type="text/plain",
    )
    refused(ep, "restore_file", "conflict", "file_id", file_id=f.id, actor_email=f.owner_email)


# -- revisions and shared links ----------------------------------------------------------------


def test_restoring_a_revision_adds_a_new_revision_with_the_old_content(ep: Episode) -> None:
    f = next(x for x in rows(ep, File) if x.rev >= 2 and not x.trashed)
    first = next(r for r in rows(ep, Revision) if r.file_id == f.id and r.rev == 1)
    current = next(r for r in rows(ep, Revision) if r.file_id == f.id and r.rev == f.rev)
    refused(
        ep,
        "restore_revision",
        "rule_violation",
        "revision_id",
        file_id=f.id,
        revision_id=current.id,
        actor_email=f.owner_email,
    )
    foreign = next(r for r in rows(ep, Revision) if r.file_id != f.id)
    refused(
        ep,
        "restore_revision",
        "rule_violation",
        "revision_id",
        file_id=f.id,
        revision_id=foreign.id,
        actor_email=f.owner_email,
    )
    out = ok(ep, "restore_revision", file_id=f.id, revision_id=first.id, actor_email=f.owner_email)
    assert out["rev"] == f.rev + 1 and out["content_hash"] == first.content_hash
    assert out["size_bytes"] == first.size_bytes


def test_one_active_link_per_audience_and_revoked_or_expired_links_do_not_open(ep: Episode) -> None:
    f = next(
        x for x in rows(ep, File) if not x.trashed and not any(link.file_id == x.id for link in rows(ep, SharedLink))
    )
    link = ok(ep, "create_shared_link", file_id=f.id, actor_email=f.owner_email, audience="public")
    assert link["url"].startswith(f"https://share.{HOME}/s/")
    refused(
        ep, "create_shared_link", "conflict", "audience", file_id=f.id, actor_email=f.owner_email, audience="public"
    )
    refused(
        ep,
        "create_shared_link",
        "rule_violation",
        "expires_at",
        file_id=f.id,
        actor_email=f.owner_email,
        audience="team_only",
        expires_at="2020-01-01T00:00:00Z",
    )
    assert ok(ep, "get_shared_link_metadata", url=link["url"])["id"] == f.id
    ok(ep, "revoke_shared_link", shared_link_id=link["id"])
    refused(ep, "get_shared_link_metadata", "rule_violation", "url", url=link["url"])
    expired = next(
        x for x in rows(ep, SharedLink) if x.status == "active" and x.expires_at and x.expires_at < WORLD.epoch
    )
    refused(ep, "get_shared_link_metadata", "rule_violation", "url", url=expired.url)


def test_team_only_links_open_only_for_colleagues(ep: Episode) -> None:
    link = next(
        x for x in rows(ep, SharedLink) if x.status == "active" and x.audience == "team_only" and x.expires_at is None
    )
    refused(ep, "get_shared_link_metadata", "rule_violation", "viewer_email", url=link.url)
    refused(
        ep,
        "get_shared_link_metadata",
        "rule_violation",
        "viewer_email",
        url=link.url,
        viewer_email=POP.contacts[0].email,
    )
    assert ok(ep, "get_shared_link_metadata", url=link.url, viewer_email=POP.employees[0].email)["id"] == link.file_id


def test_list_folder_shows_children_sorted_and_hides_the_trash_unless_asked(ep: Episode) -> None:
    trashed = next(f for f in rows(ep, File) if f.explicitly_trashed and f.folder_id is not None)
    listing = ok(ep, "list_folder", folder_id=trashed.folder_id)
    assert trashed.id not in {f["id"] for f in listing["files"]}
    names = [f["name"].casefold() for f in listing["files"]]
    assert names == sorted(names)
    full = ok(ep, "list_folder", folder_id=trashed.folder_id, include_trashed=True)
    assert trashed.id in {f["id"] for f in full["files"]}
    top = ok(ep, "list_folder", owner_email=trashed.owner_email)
    assert top["path"] == "/" and {"Documents"} <= {f["name"] for f in top["folders"]}
    refused(ep, "list_folder", "rule_violation", "folder_id")
