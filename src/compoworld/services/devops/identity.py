"""Keystone Identity: the workforce directory, groups, application assignments and MFA factors.

Modeled on the Okta Management API v1 (Users and their lifecycle operations,
Groups and group membership, Apps and app user assignments, Factors, password
reset): a user moves staged → active → suspended → deprovisioned only through
the lifecycle operations Okta offers; deprovisioned users cannot be given
access; applications can require membership of a group.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FirstName, IdOf, JobTitle, LastName, Phone, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "identity",
    title="Keystone Identity",
    category="identity_access",
    modeled_on="Okta Management API v1 (Users lifecycle, Groups, Group members, Apps, App users, Factors)",
    description="Single sign-on and access management for the company's staff: user accounts and their "
    "lifecycle, groups, which applications each person may use, and their multi-factor authenticators.",
)

UserId = Annotated[str, IdOf("identity.user")]
GroupId = Annotated[str, IdOf("identity.group")]
AppId = Annotated[str, IdOf("identity.application")]
FactorId = Annotated[str, IdOf("identity.factor")]
UserStatus = Literal["staged", "provisioned", "active", "recovery", "locked_out", "suspended", "deprovisioned"]
FactorType = Literal["sms", "call", "email", "token:software:totp", "push", "webauthn"]
ADMIN_GROUP = "Administrators"


class User(Created):
    """A workforce user; the login is the work e-mail."""

    id: UserId
    login: Email
    """Sign-in name: the user's work e-mail."""
    email: Email
    """Primary e-mail."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    title: JobTitle | None = None
    """Job title."""
    department: str | None = None
    """Department, free text."""
    mobile_phone: Phone | None = None
    """Mobile phone for SMS and call factors."""
    status: UserStatus = "staged"
    """Lifecycle status; changed only by the lifecycle operations."""
    activated_at: DateTime | None = None
    """When the user was first activated."""
    password_changed_at: DateTime | None = None
    """When the password last changed."""
    status_changed_at: Annotated[DateTime, UPDATED]
    """When the user last changed."""


class Group(Created):
    """A group of users; the Administrators group holds the org admins."""

    id: GroupId
    name: Title
    """Unique group name."""
    description: Text = ""
    """What the group is for."""
    type: Literal["OKTA_GROUP", "BUILT_IN"] = "OKTA_GROUP"
    """Built-in groups cannot be renamed or deleted."""


class Membership(Record):
    """A user's membership of a group."""

    id: Annotated[str, IdOf("identity.membership")]
    group_id: GroupId
    """The group."""
    user_id: UserId
    """The member."""
    created_at: Annotated[DateTime, CREATED]
    """When the user was added."""


class Application(Record):
    """An application users sign in to through single sign-on."""

    id: AppId
    label: Title
    """Display name."""
    sign_on_mode: Literal["SAML_2_0", "OPENID_CONNECT", "BOOKMARK", "SECURE_PASSWORD_STORE"] = "SAML_2_0"
    """How users sign in."""
    url: Url
    """Where the app lives."""
    status: Literal["active", "inactive"] = "active"
    """Inactive apps cannot be assigned; only inactive apps can be deleted."""
    required_group_id: GroupId | None = None
    """Users must be in this group to be assigned the app."""
    created_at: Annotated[DateTime, CREATED]
    """When the app was added."""


class AppAssignment(Record):
    """A user's access to an application."""

    id: Annotated[str, IdOf("identity.app_assignment")]
    app_id: AppId
    """The application."""
    user_id: UserId
    """The user."""
    app_username: Email
    """The user's name in the app."""
    created_at: Annotated[DateTime, CREATED]
    """When access was granted."""


class Factor(Record):
    """An enrolled multi-factor authenticator."""

    id: FactorId
    user_id: UserId
    """The user."""
    factor_type: FactorType
    """Kind of authenticator."""
    provider: Literal["OKTA", "GOOGLE", "FIDO"] = "OKTA"
    """Who provides it."""
    phone_number: Phone | None = None
    """Phone for sms and call factors."""
    email: Email | None = None
    """Address for e-mail factors."""
    status: Literal["pending_activation", "active"] = "pending_activation"
    """Pending factors must be activated with a passcode."""
    created_at: Annotated[DateTime, CREATED]
    """When it was enrolled."""


# -- helpers and guards ---------------------------------------------------------------------------


def _admin_group(ctx: Ctx) -> Group | None:
    return ctx.first(Group, name=ADMIN_GROUP)


def _active_admins(ctx: Ctx) -> list[User]:
    group = _admin_group(ctx)
    if group is None:
        return []
    out = []
    for m in ctx.where(Membership, group_id=group.id):
        user = ctx.find(User, m.user_id)
        if user is not None and user.status == "active":
            out.append(user)
    return out


def _guard_user_create(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != "staged":
        raise RuleViolation("new users start staged", field="status", hint="activate the user afterwards")


def _guard_user_update(ctx: Ctx, new: Any, old: Any) -> None:
    group = _admin_group(ctx)
    if (
        group is not None
        and old is not None
        and old.status == "active"
        and new.status != "active"
        and ctx.first(Membership, group_id=group.id, user_id=old.id) is not None
        and not _active_admins(ctx)
    ):
        raise RuleViolation(
            f"{old.login} is the last active administrator",
            field="user_id",
            hint="make another active user an administrator first",
        )


def _guard_user_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "deprovisioned":
        raise RuleViolation(
            f"user {old.login} is {old.status}; only deprovisioned users can be deleted",
            field="user_id",
            hint="deactivate the user first",
        )
    for model in (Membership, AppAssignment, Factor):
        for rec in ctx.where(model, user_id=old.id):
            ctx.delete(rec)


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.type == "BUILT_IN" and new.name != old.name:
        raise RuleViolation(f"built-in group {old.name} cannot be renamed", field="name", hint="rename other groups")


def _guard_group_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.type == "BUILT_IN":
        raise RuleViolation(
            f"built-in group {old.name} cannot be deleted", field="group_id", hint="delete a custom group"
        )
    app = ctx.first(Application, required_group_id=old.id)
    if app is not None:
        raise RuleViolation(
            f"group {old.name} is required by application {app.label}",
            field="group_id",
            hint="change the application's required group first",
        )
    for m in ctx.where(Membership, group_id=old.id):
        ctx.delete(m)


def _guard_app_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "inactive":
        raise RuleViolation(
            f"application {old.label} is active; only inactive apps can be deleted",
            field="application_id",
            hint="deactivate the application first",
        )
    for a in ctx.where(AppAssignment, app_id=old.id):
        ctx.delete(a)


def _guard_app(ctx: Ctx, new: Any, old: Any) -> None:
    if new.required_group_id is not None:
        ctx.get(Group, new.required_group_id, field="required_group_id")


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=("login", "email", "first_name", "last_name", "title", "department", "mobile_phone"),
    filters=("status", "department", "login", "email"),
    search=("first_name", "last_name", "login"),
    update=("email", "first_name", "last_name", "title", "department", "mobile_phone"),
    unique=("login",),
    transitions={
        "activate": Transition("status", ("staged", "provisioned"), "active", "activate the user"),
        "suspend": Transition("status", ("active",), "suspended", "suspend the user"),
        "unsuspend": Transition("status", ("suspended",), "active", "unsuspend the user"),
        "unlock": Transition("status", ("locked_out",), "active", "unlock the user"),
        "deactivate": Transition(
            "status",
            ("staged", "provisioned", "active", "recovery", "locked_out", "suspended"),
            "deprovisioned",
            "deactivate the user",
            destructive=True,
        ),
        "reactivate": Transition("status", ("deprovisioned",), "staged", "reactivate the deactivated user"),
    },
    guard_create=_guard_user_create,
    guard_update=_guard_user_update,
    guard_delete=_guard_user_delete,
)
groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    create=("name", "description"),
    filters=("type", "name"),
    search=("name", "description"),
    update=("name", "description"),
    unique=("name",),
    guard_update=_guard_group,
    guard_delete=_guard_group_delete,
)
memberships = service.resource(
    Membership,
    name="membership",
    plural="memberships",
    prefix="mem",
    create=False,
    filters=("group_id", "user_id"),
    delete=False,
    title="group membership",
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=("label", "sign_on_mode", "url", "required_group_id"),
    filters=("status", "sign_on_mode", "required_group_id"),
    search=("label",),
    update=("label", "url", "required_group_id"),
    unique=("label",),
    transitions={
        "activate": Transition("status", ("inactive",), "active", "activate the application"),
        "deactivate": Transition("status", ("active",), "inactive", "deactivate the application"),
    },
    guard_create=_guard_app,
    guard_update=_guard_app,
    guard_delete=_guard_app_delete,
)
assignments = service.resource(
    AppAssignment,
    name="app_assignment",
    plural="app_assignments",
    prefix="asg",
    create=False,
    filters=("app_id", "user_id"),
    title="application assignment",
)
factors = service.resource(
    Factor,
    name="factor",
    plural="factors",
    prefix="fac",
    create=False,
    filters=("user_id", "factor_type", "status"),
    title="MFA factor",
)


# -- domain tools ---------------------------------------------------------------------------------


def _not_deprovisioned(user: User, field: str) -> None:
    if user.status == "deprovisioned":
        raise RuleViolation(
            f"user {user.login} is deprovisioned", field=field, hint="reactivate and activate the user first"
        )


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for group in ctx.where(Group, type="OKTA_GROUP"):
        for user in ctx.where(User, status="active"):
            if ctx.first(Membership, group_id=group.id, user_id=user.id) is None:
                return {"group_id": group.id, "user_id": user.id}
    return None


@service.tool(intent="add the user to the group", write=True, example=_example_add)
def add_user_to_group(ctx: Ctx, group_id: GroupId, user_id: UserId) -> Membership:
    """Add a user to a group.

    Deprovisioned users cannot be added; a user is in a group at most once.

    Args:
        group_id: The group.
        user_id: The user.
    """
    group = ctx.get(Group, group_id, field="group_id")
    user = ctx.get(User, user_id, field="user_id")
    _not_deprovisioned(user, "user_id")
    if ctx.first(Membership, group_id=group.id, user_id=user.id) is not None:
        raise Conflict(f"{user.login} is already in {group.name}", field="user_id", hint="nothing to do")
    return ctx.create(Membership, group_id=group.id, user_id=user.id)


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.scan(Membership):
        group = ctx.find(Group, m.group_id)
        if (
            group is not None
            and group.type == "OKTA_GROUP"
            and ctx.first(Application, required_group_id=group.id) is None
        ):
            return {"group_id": m.group_id, "user_id": m.user_id}
    return None


@service.tool(intent="remove the user from the group", write=True, destructive=True, example=_example_remove)
def remove_user_from_group(ctx: Ctx, group_id: GroupId, user_id: UserId) -> Membership:
    """Remove a user from a group.

    The last active member of the Administrators group cannot be removed.
    Removing a user from an app's required group also removes their
    assignments to that app.

    Args:
        group_id: The group.
        user_id: The user.
    """
    group = ctx.get(Group, group_id, field="group_id")
    user = ctx.get(User, user_id, field="user_id")
    mem = ctx.first(Membership, group_id=group.id, user_id=user.id)
    if mem is None:
        raise NotFound(f"{user.login} is not in {group.name}", field="user_id", hint="list the group's memberships")
    ctx.delete(mem)
    if group.name == ADMIN_GROUP and user.status == "active" and not _active_admins(ctx):
        raise RuleViolation(
            f"{user.login} is the last active administrator",
            field="user_id",
            hint="add another active administrator first",
        )
    for app in ctx.where(Application, required_group_id=group.id):
        for a in ctx.where(AppAssignment, app_id=app.id, user_id=user.id):
            ctx.delete(a)
    return mem


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="active"):
        for user in ctx.where(User, status="active"):
            if ctx.first(AppAssignment, app_id=app.id, user_id=user.id) is not None:
                continue
            if app.required_group_id and ctx.first(Membership, group_id=app.required_group_id, user_id=user.id) is None:
                continue
            return {"application_id": app.id, "user_id": user.id}
    return None


@service.tool(intent="give the user access to the application", write=True, example=_example_assign)
def assign_user_to_application(ctx: Ctx, application_id: AppId, user_id: UserId) -> AppAssignment:
    """Assign an application to a user.

    The app must be active; the user must not be deprovisioned and must be in
    the app's required group, if it has one.

    Args:
        application_id: The application.
        user_id: The user.
    """
    app = ctx.get(Application, application_id, field="application_id")
    user = ctx.get(User, user_id, field="user_id")
    if app.status != "active":
        raise RuleViolation(
            f"application {app.label} is inactive", field="application_id", hint="activate the application first"
        )
    _not_deprovisioned(user, "user_id")
    if app.required_group_id and ctx.first(Membership, group_id=app.required_group_id, user_id=user.id) is None:
        group = ctx.get(Group, app.required_group_id, field="application_id")
        raise RuleViolation(
            f"{app.label} requires membership of group {group.name}",
            field="user_id",
            hint=f"add the user to group {group.id} first",
        )
    if ctx.first(AppAssignment, app_id=app.id, user_id=user.id) is not None:
        raise Conflict(f"{user.login} is already assigned {app.label}", field="user_id", hint="nothing to do")
    return ctx.create(AppAssignment, app_id=app.id, user_id=user.id, app_username=user.login)


@service.tool(
    intent="enroll an MFA factor for the user",
    write=True,
    example=first_example(
        User,
        "user_id",
        where={"status": "active"},
        match=lambda ctx, user: ctx.first(Factor, user_id=user.id, factor_type="token:software:totp") is None,
        factor_type="token:software:totp",
    ),
)
def enroll_factor(
    ctx: Ctx,
    user_id: UserId,
    factor_type: FactorType,
    phone_number: Phone | None = None,
    email: Email | None = None,
) -> Factor:
    """Enroll a multi-factor authenticator; it stays pending until activated with a passcode.

    sms and call factors need a phone number, e-mail factors an address; a user
    has at most one factor of each type; deprovisioned users cannot enroll.

    Args:
        user_id: The user.
        factor_type: Kind of authenticator.
        phone_number: Phone for sms or call (default: the user's mobile phone).
        email: Address for an e-mail factor (default: the user's e-mail).
    """
    user = ctx.get(User, user_id, field="user_id")
    _not_deprovisioned(user, "user_id")
    if ctx.first(Factor, user_id=user.id, factor_type=factor_type) is not None:
        raise Conflict(
            f"{user.login} already has a {factor_type} factor",
            field="factor_type",
            hint="reset the existing factor or enroll another type",
        )
    phone = phone_number or user.mobile_phone if factor_type in ("sms", "call") else None
    if factor_type in ("sms", "call") and phone is None:
        raise RuleViolation(
            f"a {factor_type} factor needs a phone number", field="phone_number", hint="give phone_number"
        )
    mail = (email or user.email) if factor_type == "email" else None
    provider = "GOOGLE" if factor_type == "token:software:totp" else "FIDO" if factor_type == "webauthn" else "OKTA"
    return ctx.create(
        Factor, user_id=user.id, factor_type=factor_type, provider=provider, phone_number=phone, email=mail
    )


@service.tool(
    intent="activate the enrolled factor",
    write=True,
    example=first_example(Factor, "factor_id", where={"status": "pending_activation"}, pass_code="123456"),
)
def activate_factor(ctx: Ctx, factor_id: FactorId, pass_code: str) -> Factor:
    """Activate a pending factor with the 6-digit passcode it produced.

    Args:
        factor_id: The pending factor.
        pass_code: The 6-digit passcode.
    """
    factor = ctx.get(Factor, factor_id, field="factor_id")
    if factor.status != "pending_activation":
        raise RuleViolation(f"factor {factor.id} is already active", field="factor_id", hint="nothing to activate")
    if not (len(pass_code) == 6 and pass_code.isdigit()):
        raise RuleViolation("the passcode must be 6 digits", field="pass_code", hint="enter the code the factor shows")
    return ctx.update(factor, status="active")


@service.tool(
    intent="reset the user's MFA factors",
    write=True,
    destructive=True,
    example=first_example(Factor, None, where={"status": "active"}, fields={"user_id": "user_id"}),
)
def reset_factors(ctx: Ctx, user_id: UserId) -> list[Factor]:
    """Remove every factor a user enrolled, so they enroll again at next sign-in.

    Args:
        user_id: The user.
    """
    user = ctx.get(User, user_id, field="user_id")
    found = ctx.where(Factor, user_id=user.id)
    if not found:
        raise RuleViolation(f"{user.login} has no factors", field="user_id", hint="nothing to reset")
    for f in found:
        ctx.delete(f)
    return found


class PasswordReset(BaseModel):
    """A one-time password reset link."""

    user_id: UserId = Field(description="The user.")
    reset_password_url: Url = Field(description="One-time link the user opens to choose a new password.")
    expires_at: DateTime = Field(description="When the link expires.")
    status: UserStatus = Field(description="The user's status now (recovery).")


@service.tool(
    intent="send the user a password reset link",
    write=True,
    example=first_example(User, "user_id", where={"status": "active"}),
)
def reset_password(ctx: Ctx, user_id: UserId) -> PasswordReset:
    """Start a password reset: the user goes into recovery until they set a new password.

    Only active, locked-out and recovering users can reset their password.

    Args:
        user_id: The user.
    """
    user = ctx.get(User, user_id, field="user_id")
    if user.status not in ("active", "locked_out", "recovery"):
        raise RuleViolation(
            f"user {user.login} is {user.status}; only active or locked-out users can reset a password",
            field="user_id",
            hint="activate or unsuspend the user first",
        )
    token = "".join(ctx.rng.choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(20))
    user = ctx.update(user, status="recovery")
    return PasswordReset(
        user_id=user.id,
        reset_password_url=f"https://login.keystone.example/reset/{token}",
        expires_at=ctx.now() + dt.timedelta(hours=1),
        status=user.status,
    )


@service.tool(
    intent="set the user's new password",
    write=True,
    example=first_example(User, "user_id", where={"status": "recovery"}, new_password="correct-Horse-battery-9"),
)
def set_password(ctx: Ctx, user_id: UserId, new_password: str) -> User:
    """Set a new password for a user in recovery, which makes them active again.

    The password needs 12 or more characters with a lower-case letter, an
    upper-case letter and a digit, and must not contain the user's name.

    Args:
        user_id: The user in recovery.
        new_password: The new password.
    """
    user = ctx.get(User, user_id, field="user_id")
    if user.status != "recovery":
        raise RuleViolation(
            f"user {user.login} is {user.status}, not in recovery",
            field="user_id",
            hint="start a reset with reset_password first",
        )
    pw = new_password
    weak = len(pw) < 12 or not any(c.islower() for c in pw) or not any(c.isupper() for c in pw)
    if weak or not any(c.isdigit() for c in pw) or user.first_name.lower() in pw.lower():
        raise RuleViolation(
            "the password does not meet the policy",
            field="new_password",
            hint="use 12+ characters with lower, upper case and a digit, not containing your name",
        )
    return ctx.update(user, status="active", password_changed_at=ctx.now())


class UserAccess(BaseModel):
    """Everything a user can reach."""

    user: User = Field(description="The user.")
    groups: list[Group] = Field(description="Their groups.")
    applications: list[Application] = Field(description="The applications assigned to them.")
    factors: list[Factor] = Field(description="Their enrolled factors.")


@service.tool(
    intent="review the user's access",
    example=first_example(User, None, where={"status": "active"}, fields={"login": "login"}),
)
def get_user_access(ctx: Ctx, login: Email) -> UserAccess:
    """Look a user up by login and list their groups, applications and factors.

    Args:
        login: The user's login (work e-mail).
    """
    user = ctx.first(User, login=login)
    if user is None:
        raise NotFound(f"no user with login {login}", field="login", hint="search users with list_users")
    grps = [g for m in ctx.where(Membership, user_id=user.id) if (g := ctx.find(Group, m.group_id))]
    apps = [a for x in ctx.where(AppAssignment, user_id=user.id) if (a := ctx.find(Application, x.app_id))]
    return UserAccess(user=user, groups=grps, applications=apps, factors=ctx.where(Factor, user_id=user.id))


# -- seed -------------------------------------------------------------------------------------------

APPS: tuple[tuple[str, str, str, str | None], ...] = (
    ("Mail", "OPENID_CONNECT", "https://mail.example.com", None),
    ("Chat", "OPENID_CONNECT", "https://chat.example.com", None),
    ("Code Host", "SAML_2_0", "https://code.example.com", "Engineering"),
    ("On-Call", "SAML_2_0", "https://oncall.example.com", "Engineering"),
    ("Monitoring", "SAML_2_0", "https://monitoring.example.com", "Engineering"),
    ("CRM", "SAML_2_0", "https://crm.example.com", "Sales"),
    ("Books", "SAML_2_0", "https://books.example.com", "Finance"),
    ("HR Portal", "SAML_2_0", "https://hr.example.com", "People"),
    ("Legacy Wiki", "BOOKMARK", "https://wiki-old.example.com", None),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Every home employee as a user, department groups, the admin group, applications and factors."""
    pop = s.population
    emps = list(pop.employees)
    all_staff = s.create(Group, name="Everyone", description="All employees.", type="BUILT_IN")
    admins = s.create(Group, name=ADMIN_GROUP, description="Org administrators.", type="BUILT_IN")
    dept_groups: dict[str, Group] = {}
    for dept in sorted({p.department for p in emps if p.department}):
        dept_groups[dept] = s.create(Group, name=dept, description=f"Members of the {dept} department.")
    s.create(Group, name="Contractors", description="External contractors; currently empty.")
    statuses: tuple[UserStatus, ...] = (
        "active",
        "active",
        "active",
        "active",
        "active",
        "staged",
        "suspended",
        "active",
        "locked_out",
        "active",
        "deprovisioned",
        "provisioned",
        "recovery",
    )
    users_: list[User] = []
    for n, p in enumerate(emps):
        status: UserStatus = "active" if n < 3 else statuses[n % len(statuses)]
        hired = utc_at(p.hire_date or s.now.date(), 9)
        user = s.create(
            User,
            login=p.email,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            title=p.job_title,
            department=p.department,
            mobile_phone=p.phone,
            status=status,
            activated_at=hired if status not in ("staged", "provisioned") else None,
            password_changed_at=hired + dt.timedelta(days=s.rng.randint(0, 20))
            if status not in ("staged", "provisioned")
            else None,
            created_at=hired - dt.timedelta(days=7),
            status_changed_at=hired,
        )
        users_.append(user)
        if status != "deprovisioned":
            s.create(Membership, group_id=all_staff.id, user_id=user.id)
            if p.department in dept_groups:
                s.create(Membership, group_id=dept_groups[p.department].id, user_id=user.id)
    for user in users_[:2]:
        s.create(Membership, group_id=admins.id, user_id=user.id)
    apps: list[Application] = []
    for label, mode, url, needs in APPS:
        apps.append(
            s.create(
                Application,
                label=label,
                sign_on_mode=mode,
                url=url,
                status="inactive" if mode == "BOOKMARK" else "active",
                required_group_id=dept_groups[needs].id if needs in dept_groups else None,
            )
        )
    for user in users_:
        if user.status in ("deprovisioned", "staged", "provisioned"):
            continue
        for app in apps:
            if app.status != "active" or s.rng.random() < 0.3:
                continue
            if app.required_group_id and dept_groups.get(user.department or "") is None:
                continue
            if app.required_group_id and dept_groups[user.department or ""].id != app.required_group_id:
                continue
            s.create(AppAssignment, app_id=app.id, user_id=user.id, app_username=user.login)
        kinds: tuple[FactorType, ...] = ("token:software:totp", "push", "sms", "webauthn")
        kind = kinds[int(user.id[-2:]) % len(kinds)]
        s.create(
            Factor,
            user_id=user.id,
            factor_type=kind,
            provider="GOOGLE" if kind == "token:software:totp" else "FIDO" if kind == "webauthn" else "OKTA",
            phone_number=user.mobile_phone if kind == "sms" else None,
            status="pending_activation" if int(user.id[-2:]) % 5 == 0 else "active",
        )
