"""Sendwave: large file transfers by e-mail or link, with expiry, passwords, download limits and file requests.

Modeled on WeTransfer (Transfer API v2: ``POST /transfers`` with files and a
message, ``.../finalize`` after the upload, e-mail transfers to recipients or
link transfers, expiry, password protection, download tracking, ``Request
files``) and MASV (download limits, portals that collect uploads): a transfer
is ``uploading`` until finalized, then ``ready`` until it ``expired`` or the
sender ``deleted`` it; each download is recorded.

A transfer holds 1-200 files with distinct names and at most 200 GB; an
e-mail transfer has 1-50 distinct recipients and a link transfer none; the
expiry is 1-365 days after creation (the Pro plan) and can only be pushed
later within that year; a password is at least 8 characters. Downloads need a
ready transfer before its expiry, the right password, and for e-mail
transfers one of its recipients; a transfer with a download limit refuses
downloads beyond it. A file request collects uploads until it is closed or
its deadline passes, each upload within its size limit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "filetransfer",
    title="Sendwave",
    category="file_transfer",
    modeled_on="WeTransfer Transfer API v2 (create, finalize, e-mail and link transfers, expiry, password, downloads, "
    "Request files) and MASV (download limits, upload portals)",
    description="Sending large files outside the company: transfers of files by e-mail to recipients or by link, "
    "with expiry dates, passwords and download limits, the downloads each transfer got, and file requests that "
    "collect uploads from customers and partners.",
)

TransferId = Annotated[str, IdOf("filetransfer.transfer")]
DownloadId = Annotated[str, IdOf("filetransfer.download")]
RequestId = Annotated[str, IdOf("filetransfer.file_request")]
UploadId = Annotated[str, IdOf("filetransfer.upload")]

FileName = Annotated[str, StringConstraints(pattern=r'^[^/\\:*?"<>|]{1,255}$')]
"""A file name without a path."""
Bytes = Annotated[int, Field(ge=1, le=200 * 10**9)]
"""A size in bytes."""
Password = Annotated[str, StringConstraints(min_length=8, max_length=128)]
"""A password of at least 8 characters."""

TransferStatus = Literal["uploading", "ready", "expired", "deleted"]
MAX_BYTES = 200 * 10**9
MAX_DAYS = 365


class TransferFile(Value):
    """A file in a transfer or an upload."""

    name: FileName
    """Its name."""
    size_bytes: Bytes
    """Its size."""


class Transfer(Record):
    """A transfer of files."""

    id: TransferId
    sender_email: Email
    """The employee sending it."""
    title: Title
    """Its title."""
    message: Text = ""
    """The note to recipients."""
    kind: Literal["email", "link"] = "email"
    """email (sent to recipients) or link (shared by URL)."""
    recipients: tuple[Email, ...] = ()
    """Who it was sent to (e-mail transfers)."""
    files: tuple[TransferFile, ...]
    """Its files."""
    total_bytes: int
    """Their total size."""
    status: TransferStatus = "uploading"
    """uploading, ready, expired or deleted."""
    expires_at: DateTime
    """When it stops being downloadable."""
    password_hash: str | None = None
    """SHA-256 of its password, if protected."""
    download_limit: Annotated[int, Field(ge=1, le=1000)] | None = None
    """Most downloads allowed."""
    download_count: int = 0
    """Downloads so far."""
    short_url: str
    """Its download link."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Download(Record):
    """One download of a transfer."""

    id: DownloadId
    transfer_id: TransferId
    """The transfer."""
    email: Email | None = None
    """Who downloaded (e-mail transfers)."""
    downloaded_at: DateTime
    """When."""


class FileRequest(Record):
    """A request for others to upload files to an employee."""

    id: RequestId
    requester_email: Email
    """The employee collecting files."""
    title: Title
    """What is asked for."""
    message: Text = ""
    """Instructions."""
    deadline: DateTime | None = None
    """Uploads close then."""
    max_upload_bytes: Bytes = 10 * 10**9
    """Largest upload accepted."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Upload(Record):
    """Files someone uploaded to a request."""

    id: UploadId
    request_id: RequestId
    """The request."""
    uploader_email: Email
    """Who uploaded."""
    files: tuple[TransferFile, ...]
    """The files."""
    total_bytes: int
    """Their size."""
    created_at: Annotated[DateTime, CREATED]
    """When."""


# -- rules ------------------------------------------------------------------------------------


def _hash(password: str) -> str:
    return hashlib.sha256(password.encode()).hexdigest()


def _check_files(files: list[TransferFile], limit: int, field: str) -> int:
    names = [f.name.casefold() for f in files]
    if len(set(names)) != len(names):
        raise RuleViolation("two files have the same name", field=field, hint="rename one of them")
    total = sum(f.size_bytes for f in files)
    if total > limit:
        raise RuleViolation(f"{total} bytes is over the {limit}-byte limit", field=field, hint="send fewer files")
    return total


def _guard_request(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        require_employee(ctx, new.requester_email, field="requester_email", hint="file requests are made by staff")
    reopening = old is None or (old.status == "closed" and new.status == "open")
    if reopening and new.deadline is not None and new.deadline <= ctx.now():
        raise RuleViolation("the deadline must be in the future", field="deadline", hint="pick a later time")


transfers = service.resource(
    Transfer,
    name="transfer",
    plural="transfers",
    prefix="tr",
    create=False,
    filters=("sender_email", "status", "kind"),
    search=("title", "message"),
    update=("title", "message"),
    delete=False,
)
downloads = service.resource(
    Download,
    name="download",
    plural="downloads",
    prefix="dl",
    create=False,
    get=False,
    filters=("transfer_id", "email"),
    delete=False,
)
requests = service.resource(
    FileRequest,
    name="file_request",
    plural="file_requests",
    prefix="req",
    create=("requester_email", "title", "message", "deadline", "max_upload_bytes"),
    filters=("requester_email", "status"),
    search=("title",),
    update=("title", "message"),
    delete=False,
    transitions={
        "close": Transition("status", ("open",), "closed", "close the file request"),
        "reopen": Transition("status", ("closed",), "open", "reopen the file request"),
    },
    guard_create=_guard_request,
    guard_update=_guard_request,
    title="file request",
)
uploads = service.resource(
    Upload,
    name="upload",
    plural="uploads",
    prefix="up",
    create=False,
    filters=("request_id", "uploader_email"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "sender_email": ctx.population.employees[0].email,
        "title": "Brand assets",
        "files": [{"name": "logo-pack.zip", "size_bytes": 48_000_000}],
        "recipients": [ctx.population.contacts[0].email],
    }


@service.tool(intent="send the file transfer", write=True, example=_example_create)
def create_transfer(
    ctx: Ctx,
    sender_email: Email,
    title: Title,
    files: Annotated[list[TransferFile], Field(min_length=1, max_length=200)],
    recipients: Annotated[list[Email], Field(max_length=50)] | None = None,
    message: Text = "",
    expires_in_days: Annotated[int, Field(ge=1, le=MAX_DAYS)] = 7,
    password: Password | None = None,
    download_limit: Annotated[int, Field(ge=1, le=1000)] | None = None,
) -> Transfer:
    """Create a transfer: to recipients by e-mail, or (without recipients) as a link; it uploads until finalized.

    Args:
        sender_email: The employee sending it.
        title: Its title.
        files: The files: name and size in bytes (distinct names, 200 GB in all).
        recipients: Up to 50 distinct e-mails; omit for a link transfer.
        message: A note to recipients.
        expires_in_days: Days until it expires (1-365).
        password: A password of at least 8 characters.
        download_limit: Most downloads allowed.
    """
    require_employee(ctx, sender_email, field="sender_email", hint="transfers are sent by staff")
    total = _check_files(files, MAX_BYTES, "files")
    to = list(recipients or [])
    if len(set(to)) != len(to):
        raise RuleViolation("a recipient is listed twice", field="recipients", hint="list each address once")
    if sender_email in to:
        raise RuleViolation("the sender cannot be a recipient", field="recipients", hint="drop your own address")
    num = ctx.next_number(Transfer, "short_url")
    return ctx.create(
        Transfer,
        sender_email=sender_email,
        title=title,
        message=message,
        kind="email" if to else "link",
        recipients=tuple(to),
        files=tuple(files),
        total_bytes=total,
        expires_at=ctx.now() + dt.timedelta(days=expires_in_days),
        password_hash=_hash(password) if password else None,
        download_limit=download_limit,
        short_url=f"https://swv.io/t/{100 + num:06d}",
    )


@service.tool(
    intent="finalize the transfer's upload",
    write=True,
    example=first_example(Transfer, "transfer_id", where={"status": "uploading"}),
)
def finalize_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Finish the upload: the transfer becomes ready and its recipients are notified.

    Args:
        transfer_id: The transfer.
    """
    t = ctx.get(Transfer, transfer_id, field="transfer_id")
    if t.status != "uploading":
        raise Conflict(f"transfer is {t.status}", field="transfer_id", hint="only uploading transfers finalize")
    return ctx.update(t, status="ready")


def _live(ctx: Ctx, transfer_id: str) -> Transfer:
    t = ctx.get(Transfer, transfer_id, field="transfer_id")
    if t.status == "ready" and ctx.now() >= t.expires_at:
        raise RuleViolation(f"transfer expired at {t.expires_at}", field="transfer_id", hint="ask for a new transfer")
    if t.status != "ready":
        raise RuleViolation(f"transfer is {t.status}", field="transfer_id", hint="only ready transfers do this")
    return t


def _example_download(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.where(Transfer, status="ready"):
        if t.expires_at > ctx.now() and t.password_hash is None and (t.download_limit or 10**6) > t.download_count:
            return {"transfer_id": t.id, "email": t.recipients[0] if t.recipients else None}
    return None


@service.tool(intent="download the transfer", write=True, example=_example_download)
def download_transfer(
    ctx: Ctx, transfer_id: TransferId, email: Email | None = None, password: str | None = None
) -> Download:
    """Record a download of a ready, unexpired transfer (by a recipient for e-mail transfers, with its password).

    Args:
        transfer_id: The transfer.
        email: The recipient downloading (e-mail transfers).
        password: Its password, if protected.
    """
    t = _live(ctx, transfer_id)
    if t.kind == "email" and email not in t.recipients:
        raise RuleViolation("only recipients download an e-mail transfer", field="email", hint="ask the sender")
    if t.password_hash is not None and (password is None or _hash(password) != t.password_hash):
        raise RuleViolation("wrong password", field="password", hint="ask the sender for the password")
    if t.download_limit is not None and t.download_count >= t.download_limit:
        raise RuleViolation(
            f"the download limit of {t.download_limit} is reached", field="transfer_id", hint="ask for a new link"
        )
    ctx.update(t, download_count=t.download_count + 1)
    return ctx.create(Download, transfer_id=t.id, email=email if t.kind == "email" else None, downloaded_at=ctx.now())


def _example_extend(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.where(Transfer, status="ready"):
        later = t.expires_at + dt.timedelta(days=7)
        if t.expires_at > ctx.now() and later <= t.created_at + dt.timedelta(days=MAX_DAYS):
            return {"transfer_id": t.id, "expires_at": later.isoformat()}
    return None


@service.tool(intent="extend the transfer's expiry", write=True, example=_example_extend)
def extend_expiry(ctx: Ctx, transfer_id: TransferId, expires_at: DateTime) -> Transfer:
    """Push a live transfer's expiry later, at most 365 days after it was created.

    Args:
        transfer_id: The transfer.
        expires_at: The new expiry.
    """
    t = _live(ctx, transfer_id)
    cap = t.created_at + dt.timedelta(days=MAX_DAYS)
    if expires_at <= t.expires_at or expires_at > cap:
        raise RuleViolation(
            f"the expiry must be after {t.expires_at} and by {cap}",
            field="expires_at",
            hint="pick a later date within a year of creation",
        )
    return ctx.update(t, expires_at=expires_at)


def _example_forward(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.where(Transfer, status="ready", kind="email"):
        if t.expires_at > ctx.now():
            new = next((p.email for p in ctx.population.contacts if p.email not in t.recipients), None)
            return None if new is None else {"transfer_id": t.id, "recipients": [new]}
    return None


@service.tool(intent="add recipients to the transfer", write=True, example=_example_forward)
def add_recipients(
    ctx: Ctx, transfer_id: TransferId, recipients: Annotated[list[Email], Field(min_length=1, max_length=50)]
) -> Transfer:
    """Send a live e-mail transfer to more recipients (50 in all).

    Args:
        transfer_id: The transfer.
        recipients: New e-mail addresses.
    """
    t = _live(ctx, transfer_id)
    if t.kind != "email":
        raise RuleViolation("link transfers have no recipients", field="transfer_id", hint="share its link instead")
    dup = [r for r in recipients if r in t.recipients or r == t.sender_email]
    if dup or len(set(recipients)) != len(recipients):
        raise Conflict(f"already recipients: {dup}", field="recipients", hint="list only new addresses")
    if len(t.recipients) + len(recipients) > 50:
        raise RuleViolation("a transfer has at most 50 recipients", field="recipients", hint="send another transfer")
    return ctx.update(t, recipients=(*t.recipients, *recipients))


@service.tool(
    intent="delete the transfer",
    write=True,
    destructive=True,
    example=first_example(Transfer, "transfer_id", where={"status": "ready"}, fields={"sender_email": "sender_email"}),
)
def delete_transfer(ctx: Ctx, transfer_id: TransferId, sender_email: Email) -> Transfer:
    """Delete a transfer before it expires (its sender only); its files can no longer be downloaded.

    Args:
        transfer_id: The transfer.
        sender_email: Its sender.
    """
    t = ctx.get(Transfer, transfer_id, field="transfer_id")
    if sender_email != t.sender_email:
        raise RuleViolation("only the sender deletes a transfer", field="sender_email", hint="ask the sender")
    if t.status in ("deleted", "expired"):
        raise Conflict(f"transfer is already {t.status}", field="transfer_id", hint="nothing to do")
    return ctx.update(t, status="deleted")


def _example_upload(ctx: Ctx) -> dict[str, Any] | None:
    req = ctx.first(FileRequest, status="open")
    if req is None:
        return None
    return {
        "request_id": req.id,
        "uploader_email": ctx.population.contacts[1].email,
        "files": [{"name": "signed-contract.pdf", "size_bytes": 850_000}],
    }


@service.tool(intent="upload files to the file request", write=True, example=_example_upload)
def upload_to_request(
    ctx: Ctx,
    request_id: RequestId,
    uploader_email: Email,
    files: Annotated[list[TransferFile], Field(min_length=1, max_length=200)],
) -> Upload:
    """Upload files to an open request before its deadline, within its size limit.

    Args:
        request_id: The file request.
        uploader_email: Who uploads.
        files: The files: name and size in bytes.
    """
    req = ctx.get(FileRequest, request_id, field="request_id")
    if req.status != "open":
        raise RuleViolation("the file request is closed", field="request_id", hint="ask for a new request")
    if req.deadline is not None and ctx.now() >= req.deadline:
        raise RuleViolation(f"uploads closed at {req.deadline}", field="request_id", hint="ask the requester")
    total = _check_files(files, req.max_upload_bytes, "files")
    return ctx.create(Upload, request_id=req.id, uploader_email=uploader_email, files=tuple(files), total_bytes=total)


class SenderActivity(Value):
    """What one employee sent."""

    sender_email: Email
    """The sender."""
    transfers: int
    """Transfers created."""
    live: int
    """Ready and unexpired ones."""
    total_bytes: int
    """Bytes sent."""
    downloads: int
    """Downloads they got."""


@service.tool(
    intent="summarize the employee's transfers",
    example=first_example(Transfer, None, fields={"sender_email": "sender_email"}),
)
def sender_activity(ctx: Ctx, sender_email: Email) -> SenderActivity:
    """How many transfers an employee sent, how many are still live, their size and downloads.

    Args:
        sender_email: The sender.
    """
    sent = [t for t in ctx.where(Transfer, sender_email=sender_email) if t.status != "deleted"]
    return SenderActivity(
        sender_email=sender_email,
        transfers=len(sent),
        live=sum(1 for t in sent if t.status == "ready" and t.expires_at > ctx.now()),
        total_bytes=sum(t.total_bytes for t in sent),
        downloads=sum(t.download_count for t in sent),
    )


# -- seed -------------------------------------------------------------------------------------

FILES = (
    ("Q1 campaign video", (("campaign-cut-v3.mp4", 4_200_000_000), ("subtitles.srt", 48_000))),
    ("Signed contract and annexes", (("contract-signed.pdf", 2_300_000), ("annex-a.pdf", 800_000))),
    ("Product photos", (("photos-hi-res.zip", 1_900_000_000),)),
    ("Audit evidence", (("evidence-2025.zip", 640_000_000),)),
    ("Design files", (("brand-kit.fig", 210_000_000),)),
)


STATES: tuple[TransferStatus, ...] = ("ready", "ready", "ready", "expired", "uploading")


@service.seeder
def seed(s: SeedContext) -> None:
    """Transfers from staff to customer contacts in every state, downloads, and file requests with uploads."""
    pop = s.population
    staff = list(pop.employees)
    for k, (title, files) in enumerate(FILES):
        company = pop.customers[k % len(pop.customers)]
        to = tuple(p.email for p in pop.people_at(company)[:2]) if k != 2 else ()
        status = STATES[k]
        created = s.ago(days=(3, 1, 2, 30, 0.1)[k])
        t = s.create(
            Transfer,
            sender_email=staff[(4 * k) % len(staff)].email,
            title=title,
            message=f"Hi {company.name} team, here are the files.",
            kind="email" if to else "link",
            recipients=to,
            files=tuple(TransferFile(name=n, size_bytes=b) for n, b in files),
            total_bytes=sum(b for _, b in files),
            status=status,
            expires_at=created + dt.timedelta(days=7),
            password_hash=_hash("Tidal-2026!") if k == 1 else None,
            download_limit=1 if k == 2 else None,
            download_count=1 if k in (0, 2) else 0,
            short_url=f"https://swv.io/t/{k + 1:06d}",
            created_at=created,
            updated_at=created,
        )
        if k in (0, 2):
            s.create(
                Download, transfer_id=t.id, email=to[0] if to else None, downloaded_at=created + dt.timedelta(hours=3)
            )
    legal = pop.staff("Finance", "Operations", fallback=2)
    for k, (title, days, state) in enumerate(
        (("Signed vendor forms", 14, "open"), ("Event photos", 5, "open"), ("Tax documents 2025", 20, "closed"))
    ):
        req = s.create(
            FileRequest,
            requester_email=legal[k % len(legal)].email,
            title=title,
            message="Please upload your files here.",
            deadline=s.ago(days=-days),
            status=state,
            created_at=s.ago(days=10),
        )
        if k != 1:
            who = pop.contacts[k + 2]
            s.create(
                Upload,
                request_id=req.id,
                uploader_email=who.email,
                files=(TransferFile(name=f"{title.lower().replace(' ', '-')}.pdf", size_bytes=1_200_000),),
                total_bytes=1_200_000,
                created_at=s.ago(days=4),
            )
