"""Keyhold Vault: privileged access management for the company's admin, root and service accounts.

Modeled on the CyberArk Privilege Cloud / PVWA REST API (``/PasswordVault/API``): Safes with
members and predefined permission sets (end user, approver, accounts manager, safe manager,
auditor); privileged Accounts on a platform (WinDomain, UnixSSH, Oracle, AWSAccessKeys,
CiscoIOS) whose credentials the CPM manages (change, verify, reconcile; automatic management
can be disabled); dual-control access requests (``MyRequests`` / ``IncomingRequests``) that
need N confirmations from approvers other than the requester before a password can be
retrieved, within a time window; password retrieval with exclusive use (the account locks to
whoever checked it out until ``CheckIn``) and one-time passwords (rotated on check-in); and
PSM session recordings that auditors review.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, cast

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "pam",
    title="Keyhold Vault",
    category="privileged_access",
    modeled_on="CyberArk PVWA REST API: Safes, Safe Members, Accounts (Change/Verify/Reconcile, "
    "Retrieve/CheckIn), MyRequests/IncomingRequests (dual control), Recordings",
    description="Privileged access for IT: safes of admin, root, database and cloud credentials with their "
    "members and permissions, dual-control access requests and approvals, exclusive password checkouts and "
    "check-ins, automatic credential rotation and reconciliation, and recorded privileged sessions.",
)

SafeId = Annotated[str, IdOf("pam.safe")]
MemberId = Annotated[str, IdOf("pam.safe_member")]
AccountId = Annotated[str, IdOf("pam.account")]
RequestId = Annotated[str, IdOf("pam.access_request")]
CheckoutId = Annotated[str, IdOf("pam.checkout")]
RecordingId = Annotated[str, IdOf("pam.recording")]

SafeName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,27}$")]
"""A safe name: up to 28 letters, digits, spaces, dots, dashes or underscores."""
Address = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")]
"""The target machine's host name, domain or address."""
UserName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._@$\\-]{1,128}$")]
"""The privileged user name on the target."""
Hours = Annotated[int, Field(ge=1, le=72)]
Ticket = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]*-?\d+$")]
"""A change or incident ticket number (CHG0031, INC-204)."""

Platform = Literal["WinDomain", "WinServerLocal", "UnixSSH", "Oracle", "MSSql", "AWSAccessKeys", "CiscoIOS"]
MemberRole = Literal["end_user", "approver", "accounts_manager", "safe_manager", "auditor"]
ManagementStatus = Literal["managed", "disabled"]
CpmStatus = Literal["success", "failure", "pending"]
RequestStatus = Literal["pending", "approved", "rejected", "cancelled", "expired"]
CheckoutStatus = Literal["checked_out", "checked_in"]
Protocol = Literal["RDP", "SSH", "SQL", "AWS"]
ReviewStatus = Literal["unreviewed", "reviewed", "flagged"]

USE: frozenset[str] = frozenset({"end_user", "accounts_manager", "safe_manager"})
APPROVE: frozenset[str] = frozenset({"approver", "safe_manager"})
MANAGE: frozenset[str] = frozenset({"accounts_manager", "safe_manager"})
ADMIN: frozenset[str] = frozenset({"safe_manager"})


class Safe(Created):
    """A safe: a container of privileged accounts with its own members and access policy."""

    id: SafeId
    name: SafeName
    """The safe name (unique)."""
    description: Text = ""
    """What the safe holds."""
    retention_days: Annotated[int, Field(ge=1, le=3650)] = 7
    """Days versions and recordings are kept."""
    require_dual_control: bool = False
    """Whether retrieving a password needs an approved access request."""
    approvers_required: Annotated[int, Field(ge=1, le=3)] = 1
    """How many approvers must confirm a request (dual control)."""
    exclusive_use: bool = False
    """Whether a retrieved account is locked to its user until checked in."""
    one_time_password: bool = False
    """Whether the CPM rotates a password after each check-in."""
    created_by: Email
    """The employee who created it."""


class SafeMember(Created):
    """A user's membership in a safe, with a predefined permission set."""

    id: MemberId
    safe_id: SafeId
    """The safe."""
    member_email: Email
    """The member (an employee)."""
    role: MemberRole
    """end_user, approver, accounts_manager, safe_manager or auditor."""
    added_by: Email
    """The safe manager who added them."""


class Account(Created):
    """A privileged account whose credentials the vault stores and the CPM manages."""

    id: AccountId
    name: Annotated[str, StringConstraints(min_length=1, max_length=300)]
    """The account name (platform-address-user)."""
    safe_id: SafeId
    """The safe holding it."""
    platform_id: Platform
    """The platform that manages it."""
    address: Address
    """The target machine, domain or cloud account."""
    user_name: UserName
    """The privileged user."""
    management_status: ManagementStatus = "managed"
    """managed (the CPM rotates it) or disabled."""
    cpm_status: CpmStatus = "success"
    """Result of the CPM's last action: success, failure or pending."""
    password_version: int = 1
    """Version of the stored credential."""
    last_changed_at: DateTime | None = None
    """When the credential last changed."""
    last_verified_at: DateTime | None = None
    """When the CPM last verified it."""
    locked_by: Email | None = None
    """Who has it checked out under exclusive use."""


class AccessRequest(Created):
    """A dual-control request to use an account for a time window."""

    id: RequestId
    account_id: AccountId
    """The account."""
    safe_id: SafeId
    """Its safe."""
    requester_email: Email
    """The employee asking for access."""
    reason: Text
    """Why (required)."""
    ticket_id: Ticket | None = None
    """The change or incident ticket it is for."""
    valid_to: DateTime
    """End of the access window (it opens when the request is made)."""
    approvals: tuple[Email, ...] = ()
    """The approvers who confirmed it."""
    approvals_required: int = 1
    """Confirmations needed."""
    status: RequestStatus = "pending"
    """pending, approved, rejected, cancelled or expired."""
    decided_by: Email | None = None
    """Who rejected it, or gave the last approval."""
    rejection_reason: Text | None = None
    """Why it was rejected."""


class Checkout(Record):
    """A password retrieval: who took the credential and whether it is back."""

    id: CheckoutId
    account_id: AccountId
    """The account."""
    user_email: Email
    """Who retrieved it."""
    reason: Text
    """The reason given."""
    request_id: RequestId | None = None
    """The approved request it used (dual control)."""
    password_version: int
    """The version retrieved."""
    status: CheckoutStatus = "checked_out"
    """checked_out or checked_in."""
    retrieved_at: Annotated[DateTime, CREATED]
    """When it was retrieved."""
    checked_in_at: DateTime | None = None
    """When it was checked in."""


class Recording(Record):
    """A recorded privileged session (PSM) on an account."""

    id: RecordingId
    account_id: AccountId
    """The account used."""
    user_email: Email
    """Who connected."""
    protocol: Protocol
    """RDP, SSH, SQL or AWS."""
    started_at: DateTime
    """When it started."""
    duration_seconds: Annotated[int, Field(ge=0)]
    """How long it lasted."""
    risk_score: Annotated[int, Field(ge=0, le=100)] = 0
    """Risky-command score from session analysis (0-100)."""
    review_status: ReviewStatus = "unreviewed"
    """unreviewed, reviewed or flagged by an auditor."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a vault user", field=field, hint="use an employee's e-mail")


def _need(ctx: Ctx, safe: Safe, email: str, allowed: frozenset[str], field: str, what: str) -> None:
    _staff(ctx, email, field)
    m = ctx.first(SafeMember, safe_id=safe.id, member_email=email)
    if m is None or m.role not in allowed:
        raise RuleViolation(
            f"{email} may not {what} in safe {safe.name!r} (role: {m.role if m else 'not a member'})",
            field=field,
            hint=f"use a member with one of: {', '.join(sorted(allowed))}; see pam__list_safe_members",
        )


def _check_team(ctx: Ctx, safe: Safe, field: str, without: str | None = None) -> None:
    team = [m for m in ctx.where(SafeMember, safe_id=safe.id) if m.id != without]
    if team and not any(m.role == "safe_manager" for m in team):
        raise RuleViolation("a safe keeps at least one safe manager", field=field, hint="promote another member first")
    approvers = sum(m.role in APPROVE for m in team)
    if safe.require_dual_control and approvers < safe.approvers_required:
        raise RuleViolation(
            f"safe {safe.name!r} would have {approvers} approver(s); dual control needs {safe.approvers_required}",
            field=field,
            hint="add approver members with pam__add_safe_member first, or require fewer approvals",
        )


def _guard_safe(ctx: Ctx, new: Any, old: Any) -> None:
    _check_team(ctx, new, "approvers_required")


def _guard_safe_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Account, safe_id=old.id) is not None:
        raise Conflict(
            f"safe {old.name!r} still holds accounts",
            field="safe_id",
            hint="delete its accounts first (pam__list_accounts with safe_id)",
        )
    for m in ctx.where(SafeMember, safe_id=old.id):
        ctx.delete(m)


def _guard_member(ctx: Ctx, new: Any, old: Any) -> None:
    _check_team(ctx, ctx.get(Safe, new.safe_id), "role")


def _guard_member_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _check_team(ctx, ctx.get(Safe, old.safe_id), "safe_member_id", old.id)


def _guard_account_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Checkout, account_id=old.id, status="checked_out") is not None:
        raise Conflict(
            f"account {old.name} is checked out", field="account_id", hint="check it in with pam__check_in first"
        )


def _unique_account(ctx: Ctx, safe_id: str, address: str, user_name: str) -> None:
    for a in ctx.where(Account, safe_id=safe_id, address=address):
        if a.user_name.lower() == user_name.lower():
            raise Conflict(
                f"safe already holds {user_name}@{address} as {a.id}",
                field="user_name",
                hint="use the existing account",
            )


safes = service.resource(
    Safe,
    name="safe",
    plural="safes",
    prefix="safe",
    create=False,
    filters=("require_dual_control", "exclusive_use", "created_by", "name"),
    search=("name", "description"),
    update=(
        "description",
        "retention_days",
        "require_dual_control",
        "approvers_required",
        "exclusive_use",
        "one_time_password",
    ),
    guard_update=_guard_safe,
    guard_delete=_guard_safe_delete,
)
members = service.resource(
    SafeMember,
    name="safe_member",
    plural="safe_members",
    prefix="mbr",
    create=False,
    get=False,
    filters=("safe_id", "member_email", "role"),
    update=("role",),
    guard_update=_guard_member,
    guard_delete=_guard_member_delete,
    title="safe member",
)
accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acct",
    create=False,
    filters=("safe_id", "platform_id", "address", "user_name", "management_status", "cpm_status", "locked_by"),
    search=("name", "address", "user_name"),
    transitions={
        "disable_management": Transition(
            "management_status", ("managed",), "disabled", "disable the account's management"
        ),
        "enable_management": Transition(
            "management_status", ("disabled",), "managed", "enable the account's management"
        ),
    },
    guard_delete=_guard_account_delete,
    title="privileged account",
)
requests = service.resource(
    AccessRequest,
    name="access_request",
    plural="access_requests",
    prefix="req",
    create=False,
    filters=("account_id", "safe_id", "requester_email", "status"),
    search=("reason",),
    delete=False,
    transitions={
        "cancel": Transition("status", ("pending", "approved"), "cancelled", "cancel the access request"),
    },
    title="access request",
)
checkouts = service.resource(
    Checkout,
    name="checkout",
    plural="checkouts",
    prefix="chk",
    create=False,
    filters=("account_id", "user_email", "status", "request_id"),
    delete=False,
    title="password checkout",
)
recordings = service.resource(
    Recording,
    name="recording",
    plural="recordings",
    prefix="rec",
    create=False,
    filters=("account_id", "user_email", "protocol", "review_status"),
    delete=False,
    transitions={
        "review": Transition("review_status", ("unreviewed", "flagged"), "reviewed", "mark the recording reviewed"),
        "flag": Transition("review_status", ("unreviewed", "reviewed"), "flagged", "flag the recording"),
    },
    title="session recording",
)


# -- safes and members ------------------------------------------------------------------------


def _example_safe(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "HR-APP-ADMINS", "description": "HRIS admins", "created_by": ctx.population.employees[0].email}


@service.tool(intent="create the safe", write=True, example=_example_safe)
def add_safe(
    ctx: Ctx,
    name: SafeName,
    created_by: Email,
    description: Text = "",
    exclusive_use: bool = False,
    one_time_password: bool = False,
) -> Safe:
    """Create a safe; its creator becomes its first safe manager. Safe names are unique (case-insensitive).

    Dual control is turned on later with pam__update_safe, once the safe has approvers.

    Args:
        name: The safe name (up to 28 characters).
        created_by: The employee creating it.
        description: What it holds.
        exclusive_use: Lock a retrieved account to its user until check-in.
        one_time_password: Rotate a password after each check-in.
    """
    for s in ctx.scan(Safe):
        if s.name.lower() == name.lower():
            raise Conflict(f"safe {s.name!r} already exists as {s.id}", field="name", hint="pick another name")
    _staff(ctx, created_by, "created_by")
    safe = ctx.create(
        Safe,
        name=name,
        description=description,
        exclusive_use=exclusive_use,
        one_time_password=one_time_password,
        created_by=created_by,
    )
    ctx.create(SafeMember, safe_id=safe.id, member_email=created_by, role="safe_manager", added_by=created_by)
    return safe


def _example_member(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.where(SafeMember, role="safe_manager"):
        taken = {x.member_email for x in ctx.where(SafeMember, safe_id=m.safe_id)}
        free = next((p.email for p in ctx.population.employees if p.email not in taken), None)
        if free is not None:
            return {"safe_id": m.safe_id, "member_email": free, "role": "end_user", "added_by": m.member_email}
    return None


@service.tool(intent="add the member to the safe", write=True, example=_example_member)
def add_safe_member(ctx: Ctx, safe_id: SafeId, member_email: Email, role: MemberRole, added_by: Email) -> SafeMember:
    """Add an employee to a safe with a permission set; only a safe manager may add members.

    Args:
        safe_id: The safe.
        member_email: The employee to add.
        role: end_user, approver, accounts_manager, safe_manager or auditor.
        added_by: The safe manager adding them.
    """
    safe = ctx.get(Safe, safe_id, field="safe_id")
    _staff(ctx, member_email, "member_email")
    _need(ctx, safe, added_by, ADMIN, "added_by", "manage members")
    existing = ctx.first(SafeMember, safe_id=safe.id, member_email=member_email)
    if existing is not None:
        raise Conflict(
            f"{member_email} is already a member ({existing.role})",
            field="member_email",
            hint="change the role with pam__update_safe_member",
        )
    return ctx.create(SafeMember, safe_id=safe.id, member_email=member_email, role=role, added_by=added_by)


# -- accounts ---------------------------------------------------------------------------------


_example_account = first_example(
    SafeMember,
    None,
    where={"role": "safe_manager"},
    fields={"safe_id": "safe_id", "added_by": "member_email"},
    platform_id="UnixSSH",
    address="jump-09.corp.internal",
    user_name="root",
)


@service.tool(intent="onboard the privileged account", write=True, example=_example_account)
def add_account(
    ctx: Ctx, safe_id: SafeId, platform_id: Platform, address: Address, user_name: UserName, added_by: Email
) -> Account:
    """Onboard a privileged account into a safe; the CPM takes over its credential at once.

    Args:
        safe_id: The safe.
        platform_id: WinDomain, WinServerLocal, UnixSSH, Oracle, MSSql, AWSAccessKeys or CiscoIOS.
        address: The target machine, domain or cloud account.
        user_name: The privileged user.
        added_by: A safe or accounts manager of the safe.
    """
    safe = ctx.get(Safe, safe_id, field="safe_id")
    _need(ctx, safe, added_by, MANAGE, "added_by", "add accounts")
    _unique_account(ctx, safe.id, address, user_name)
    return ctx.create(
        Account,
        name=f"{platform_id}-{address}-{user_name}",
        safe_id=safe.id,
        platform_id=platform_id,
        address=address,
        user_name=user_name,
        cpm_status="pending",
        last_changed_at=ctx.now(),
    )


def _managed(acct: Account, what: str) -> None:
    if acct.management_status != "managed":
        raise RuleViolation(
            f"automatic management of {acct.name} is disabled; the CPM cannot {what} it",
            field="account_id",
            hint="enable it with pam__enable_management_account first",
        )


def _not_locked(ctx: Ctx, acct: Account, by: str | None = None) -> None:
    if acct.locked_by is not None and acct.locked_by != by:
        raise Conflict(
            f"account {acct.name} is locked by {acct.locked_by} (exclusive use)",
            field="account_id",
            hint="wait until it is checked in (pam__list_checkouts with status checked_out)",
        )


@service.tool(
    intent="rotate the account's password",
    write=True,
    example=first_example(Account, "account_id", where={"management_status": "managed", "locked_by": None}),
)
def change_credentials(ctx: Ctx, account_id: AccountId) -> Account:
    """Have the CPM change an account's credential now (a new password version).

    Args:
        account_id: The account; it must be managed and not checked out under exclusive use.
    """
    acct = ctx.get(Account, account_id, field="account_id")
    _managed(acct, "change")
    _not_locked(ctx, acct)
    if acct.cpm_status == "failure":
        raise RuleViolation(
            f"the CPM lost sync with {acct.name}; a change would fail",
            field="account_id",
            hint="reconcile it with pam__reconcile_credentials first",
        )
    return ctx.update(acct, password_version=acct.password_version + 1, last_changed_at=ctx.now(), cpm_status="success")


@service.tool(
    intent="reconcile the account's password",
    write=True,
    example=first_example(Account, "account_id", where={"cpm_status": "failure", "management_status": "managed"}),
)
def reconcile_credentials(ctx: Ctx, account_id: AccountId) -> Account:
    """Reset an out-of-sync credential through the platform's reconcile account (after a CPM failure).

    Args:
        account_id: The account; its last CPM action must have failed.
    """
    acct = ctx.get(Account, account_id, field="account_id")
    _managed(acct, "reconcile")
    if acct.cpm_status != "failure":
        raise RuleViolation(
            f"{acct.name} is in sync (last CPM action: {acct.cpm_status})",
            field="account_id",
            hint="use pam__change_credentials to rotate a healthy account",
        )
    return ctx.update(acct, password_version=acct.password_version + 1, last_changed_at=ctx.now(), cpm_status="success")


# -- dual control -----------------------------------------------------------------------------


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    for safe in ctx.where(Safe, require_dual_control=True):
        users = [m.member_email for m in ctx.where(SafeMember, safe_id=safe.id) if m.role == "end_user"]
        for acct in ctx.where(Account, safe_id=safe.id):
            for u in users:
                if not _open_request(ctx, acct.id, u):
                    return {"account_id": acct.id, "requester_email": u, "reason": "Quarterly patching", "hours": 4}
    return None


def _open_request(ctx: Ctx, account_id: str, email: str) -> list[AccessRequest]:
    mine = ctx.where(AccessRequest, account_id=account_id, requester_email=email)
    return [r for r in mine if r.status == "pending" or (r.status == "approved" and r.valid_to > ctx.now())]


@service.tool(intent="request access to the account", write=True, example=_example_request)
def request_access(
    ctx: Ctx,
    account_id: AccountId,
    requester_email: Email,
    reason: Text,
    hours: Hours = 8,
    ticket_id: Ticket | None = None,
) -> AccessRequest:
    """Ask to use an account in a dual-control safe for the next hours; approvers must confirm it.

    Args:
        account_id: The account.
        requester_email: A member of its safe who may use accounts.
        reason: Why (required).
        hours: Length of the access window, 1-72.
        ticket_id: The change or incident ticket (e.g. CHG0031, INC-204).
    """
    acct = ctx.get(Account, account_id, field="account_id")
    safe = ctx.get(Safe, acct.safe_id)
    if not safe.require_dual_control:
        raise RuleViolation(
            f"safe {safe.name!r} does not require dual control",
            field="account_id",
            hint="retrieve the password directly with pam__retrieve_password",
        )
    _need(ctx, safe, requester_email, USE, "requester_email", "use accounts")
    if not reason.strip():
        raise RuleViolation("an access request needs a reason", field="reason", hint="say what the access is for")
    for r in _open_request(ctx, acct.id, requester_email):
        raise Conflict(
            f"{requester_email} already has {r.status} request {r.id} for this account",
            field="account_id",
            hint="use it, or cancel it with pam__cancel_access_request",
        )
    return ctx.create(
        AccessRequest,
        account_id=acct.id,
        safe_id=safe.id,
        requester_email=requester_email,
        reason=reason.strip(),
        ticket_id=ticket_id,
        valid_to=ctx.now() + dt.timedelta(hours=hours),
        approvals_required=safe.approvers_required,
    )


def _pending(ctx: Ctx, request_id: str, approver_email: str) -> tuple[AccessRequest, Safe]:
    req = ctx.get(AccessRequest, request_id, field="request_id")
    if req.status != "pending":
        raise Conflict(f"request {req.id} is {req.status}", field="request_id", hint="only pending ones are decided")
    safe = ctx.get(Safe, req.safe_id)
    _need(ctx, safe, approver_email, APPROVE, "approver_email", "approve requests")
    if approver_email == req.requester_email:
        raise RuleViolation(
            "a requester cannot decide their own request", field="approver_email", hint="ask another approver"
        )
    return req, safe


def _approver_example(status: str) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for r in ctx.where(AccessRequest, status="pending"):
            for m in ctx.where(SafeMember, safe_id=r.safe_id):
                if m.role in APPROVE and m.member_email not in (r.requester_email, *r.approvals):
                    out = {"request_id": r.id, "approver_email": m.member_email}
                    return out | ({"reason": "No change ticket attached"} if status == "rejected" else {})
        return None

    return example


@service.tool(intent="approve the access request", write=True, example=_approver_example("approved"))
def approve_request(ctx: Ctx, request_id: RequestId, approver_email: Email) -> AccessRequest:
    """Confirm a pending request; it is approved once enough approvers have confirmed.

    Args:
        request_id: The request.
        approver_email: An approver or safe manager of the safe, not the requester.
    """
    req, _ = _pending(ctx, request_id, approver_email)
    if approver_email in req.approvals:
        raise Conflict(
            f"{approver_email} already confirmed {req.id}", field="approver_email", hint="ask another approver"
        )
    approvals = (*req.approvals, approver_email)
    done = len(approvals) >= req.approvals_required
    return ctx.update(
        req,
        approvals=approvals,
        status="approved" if done else "pending",
        decided_by=approver_email if done else None,
    )


@service.tool(intent="reject the access request", write=True, example=_approver_example("rejected"))
def reject_request(ctx: Ctx, request_id: RequestId, approver_email: Email, reason: Text) -> AccessRequest:
    """Reject a pending request.

    Args:
        request_id: The request.
        approver_email: An approver or safe manager of the safe, not the requester.
        reason: Why (required; the requester sees it).
    """
    req, _ = _pending(ctx, request_id, approver_email)
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="tell the requester why")
    return ctx.update(req, status="rejected", decided_by=approver_email, rejection_reason=reason.strip())


# -- retrieval --------------------------------------------------------------------------------


def _example_retrieve(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(AccessRequest, status="approved"):
        acct = ctx.get(Account, r.account_id)
        if r.valid_to > ctx.now() and acct.locked_by is None:
            return {"account_id": acct.id, "user_email": r.requester_email, "reason": r.reason, "request_id": r.id}
    return None


@service.tool(intent="retrieve the account's password", write=True, example=_example_retrieve)
def retrieve_password(
    ctx: Ctx, account_id: AccountId, user_email: Email, reason: Text, request_id: RequestId | None = None
) -> Checkout:
    """Retrieve (check out) an account's credential; exclusive-use safes lock it to the user until check-in.

    Args:
        account_id: The account.
        user_email: A member of its safe who may use accounts.
        reason: Why (required).
        request_id: The approved access request, required in dual-control safes.
    """
    acct = ctx.get(Account, account_id, field="account_id")
    safe = ctx.get(Safe, acct.safe_id)
    _need(ctx, safe, user_email, USE, "user_email", "retrieve passwords")
    if not reason.strip():
        raise RuleViolation("retrieving a password needs a reason", field="reason", hint="say what it is for")
    if safe.require_dual_control:
        req = None if request_id is None else ctx.get(AccessRequest, request_id, field="request_id")
        if req is None or req.account_id != acct.id or req.requester_email != user_email:
            raise RuleViolation(
                f"safe {safe.name!r} requires an approved access request for this account",
                field="request_id",
                hint="ask with pam__request_access and wait for approval",
            )
        if req.status != "approved" or req.valid_to <= ctx.now():
            state = "expired" if req.status == "approved" else req.status
            raise RuleViolation(f"request {req.id} is {state}", field="request_id", hint="request access again")
    if ctx.first(Checkout, account_id=acct.id, user_email=user_email, status="checked_out") is not None:
        raise Conflict(f"{user_email} already has it checked out", field="account_id", hint="check it in first")
    _not_locked(ctx, acct)
    out = ctx.create(
        Checkout,
        account_id=acct.id,
        user_email=user_email,
        reason=reason.strip(),
        request_id=request_id if safe.require_dual_control else None,
        password_version=acct.password_version,
    )
    if safe.exclusive_use:
        ctx.update(acct, locked_by=user_email)
    return out


@service.tool(
    intent="check the account back in",
    write=True,
    example=first_example(Checkout, "checkout_id", where={"status": "checked_out"}),
)
def check_in(ctx: Ctx, checkout_id: CheckoutId) -> Checkout:
    """Return a checked-out credential: the exclusive lock is released and one-time passwords are rotated.

    Args:
        checkout_id: The checkout.
    """
    out = ctx.get(Checkout, checkout_id, field="checkout_id")
    if out.status != "checked_out":
        raise Conflict(f"checkout {out.id} is already checked in", field="checkout_id", hint="nothing to do")
    acct = ctx.get(Account, out.account_id)
    safe = ctx.get(Safe, acct.safe_id)
    changes: dict[str, Any] = {"locked_by": None} if acct.locked_by == out.user_email else {}
    if safe.one_time_password and acct.management_status == "managed":
        changes |= {"password_version": acct.password_version + 1, "last_changed_at": ctx.now()}
    if changes:
        ctx.update(acct, **changes)
    return ctx.update(out, status="checked_in", checked_in_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

SAFES: tuple[tuple[str, str, str, str], ...] = (
    # name, description, policy (D: dual control, digit: approvers, X: exclusive use, O: one-time password), accounts
    ("WIN-DOMAIN-ADMINS", "Domain admins", "D1XO", "WinDomain:corp:adm-domain WinDomain:corp:svc-backup"),
    ("LINUX-ROOT", "Linux root", "1X", "UnixSSH:web-01:root UnixSSH:web-02:root UnixSSH:build-01:root"),
    ("DB-PROD", "Production database owners", "D2XO", "Oracle:db-01:SYSTEM MSSql:db-02:sa"),
    ("AWS-ROOT", "Cloud root and break-glass keys", "D2XO", "AWSAccessKeys:aws-prod:breakglass"),
    ("NETWORK-DEVICES", "Switch and firewall enable accounts", "1", "CiscoIOS:fw-01:admin"),
    ("HELPDESK-LOCAL", "Local administrator of file servers", "1", "WinServerLocal:files-01:Administrator"),
    ("LEGACY-ERP", "Decommissioned ERP accounts, to be retired", "1", ""),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Safes with managers, approvers, users and auditors; accounts in every CPM state; requests, checkouts, recordings."""
    pop = s.population
    domain = pop.home.domain
    it = pop.staff("IT", "Engineering", fallback=6)
    others = [p for p in pop.employees if p not in it] or list(pop.employees)
    users = it[2:] or it
    auditor = others[-1].email
    approvers = [others[0].email, others[1 % len(others)].email]
    made: list[Account] = []
    for k, (name, desc, policy, accts) in enumerate(SAFES):
        dual = "D" in policy
        mgr = it[k % len(it)].email
        safe = s.create(
            Safe,
            name=name,
            description=desc,
            retention_days=30 if dual else 7,
            require_dual_control=dual,
            approvers_required=int(next(c for c in policy if c.isdigit())),
            exclusive_use="X" in policy,
            one_time_password="O" in policy,
            created_by=mgr,
            created_at=s.ago(days=500 - 30 * k),
        )
        team: dict[str, MemberRole] = {mgr: "safe_manager", it[(k + 1) % len(it)].email: "safe_manager"}
        for u in users[:3]:
            team.setdefault(u.email, "end_user")
        for a in approvers:
            team.setdefault(a, "approver")
        team.setdefault(auditor, "auditor")
        for email, role in team.items():
            s.create(
                SafeMember, safe_id=safe.id, member_email=email, role=role, added_by=mgr, created_at=safe.created_at
            )
        for j, (platform, host, user) in enumerate(x.split(":") for x in accts.split()):
            address = f"{host}.{domain}" if platform != "AWSAccessKeys" else f"{host}-{domain.replace('.', '-')}"
            fail = (k, j) == (1, 2)
            made.append(
                s.create(
                    Account,
                    name=f"{platform}-{address}-{user}",
                    safe_id=safe.id,
                    platform_id=cast("Platform", platform),
                    address=address,
                    user_name=user,
                    management_status="disabled" if (k, j) == (4, 0) else "managed",
                    cpm_status="failure" if fail else "success",
                    password_version=3 + 2 * j + k,
                    last_changed_at=s.ago(days=3 + 5 * j + k),
                    last_verified_at=s.ago(days=1 + j),
                    created_at=s.ago(days=400 - 10 * k),
                )
            )
    _seed_use(s, made, [u.email for u in users[:3]], approvers)


def _seed_use(s: SeedContext, made: list[Account], users: list[str], approvers: list[str]) -> None:
    """Requests in every state, one active exclusive checkout, and recorded sessions."""
    by_safe = {a.safe_id: a for a in reversed(made)}
    dual = [sf for sf in s.records(Safe) if sf.require_dual_control]
    u = users[0]
    plan: tuple[tuple[int, str, RequestStatus, int], ...] = (
        (0, u, "approved", 1),
        (1, u, "pending", 0),
        (2, users[-1], "pending", 1),
        (0, users[-1], "rejected", 0),
        (1, users[-1], "expired", 2),
        (2, u, "cancelled", 0),
    )
    for n, (i, who, status, given) in enumerate(plan):
        safe = dual[i % len(dual)]
        acct = by_safe[safe.id]
        start = s.ago(days=20) if status == "expired" else s.ago(hours=1 + n)
        got = tuple(approvers[:given])
        s.create(
            AccessRequest,
            account_id=acct.id,
            safe_id=safe.id,
            requester_email=who,
            reason=("Apply security patches", "Restore a failed job", "Rotate TLS keys")[n % 3],
            ticket_id=f"CHG{4100 + n}",
            valid_to=start + dt.timedelta(hours=8),
            approvals=got,
            approvals_required=safe.approvers_required,
            status=status,
            decided_by=approvers[0] if status in ("approved", "rejected") else None,
            rejection_reason="No change ticket for this window" if status == "rejected" else None,
            created_at=start,
        )
    linux = next(a for a in made if a.platform_id == "UnixSSH")
    s.create(
        Checkout,
        account_id=linux.id,
        user_email=u,
        reason="Investigate disk alert",
        password_version=linux.password_version,
        retrieved_at=s.ago(hours=2),
    )
    s.update(linux, locked_by=u)
    s.create(
        Checkout,
        account_id=made[-1].id,
        user_email=users[-1],
        reason="Install printer driver",
        password_version=made[-1].password_version,
        status="checked_in",
        retrieved_at=s.ago(days=3),
        checked_in_at=s.ago(days=3, hours=-1),
    )
    protocols: dict[str, Protocol] = {"UnixSSH": "SSH", "Oracle": "SQL", "MSSql": "SQL", "AWSAccessKeys": "AWS"}
    for k, a in enumerate(made):
        for j in range(1 + k % 2):
            s.create(
                Recording,
                account_id=a.id,
                user_email=users[(k + j) % len(users)],
                protocol=protocols.get(a.platform_id, "RDP"),
                started_at=s.ago(days=1 + k + 2 * j),
                duration_seconds=300 + 450 * ((k + j) % 5),
                risk_score=(0, 12, 35, 78, 91)[(k + j) % 5],
                review_status=("unreviewed", "reviewed", "flagged")[(k * 2 + j) % 3],
            )
