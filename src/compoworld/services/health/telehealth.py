"""Carelink Video: providers' virtual rooms, waiting rooms, consent before the visit, and video sessions.

Modeled on the Doxy.me provider API and Zoom for Healthcare (HIPAA meetings
with the waiting room on, consent to record, one live session per host):
each provider has a personal room link and a waiting room that patients check
into; the provider calls them in one at a time.

* A patient checks into one waiting room at a time, only while the provider is
  not offline, only from a country where the provider is licensed, and no more
  than ten patients wait in a room.
* A session starts from the waiting room, with the provider available (not
  already in a session), and only once the patient has signed the provider's
  current consent form; a new form version must be signed again. Recording
  needs the patient's recording consent on that form.
* Starting makes the provider busy; ending frees them and records the length;
  a note is signed once, on an ended session.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Country,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    MeetingLink,
    PersonName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.world.care import clinic_sites, clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "telehealth",
    title="Carelink Video",
    category="telehealth",
    modeled_on="Doxy.me provider API (rooms, waiting room check-in, call, consent forms, session history) and "
    "Zoom for Healthcare (HIPAA meetings with waiting room, recording consent, one live session per host)",
    description="Video visits: each provider's virtual room and waiting room, patient check-in from the room link, "
    "consent forms signed before the visit, one live session per provider, recording only with consent, session "
    "length and signed visit notes; providers see only patients located where they are licensed.",
)

ProviderId = Annotated[str, IdOf("telehealth.provider")]
PatientId = Annotated[str, IdOf("telehealth.patient")]
FormId = Annotated[str, IdOf("telehealth.consent_form")]
SignatureId = Annotated[str, IdOf("telehealth.consent_signature")]
EntryId = Annotated[str, IdOf("telehealth.waiting_entry")]
SessionId = Annotated[str, IdOf("telehealth.session")]
Npi = Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
RoomSlug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]{3,30}$")]

ProviderStatus = Literal["available", "busy", "away", "offline"]
EntryStatus = Literal["waiting", "in_session", "done", "left"]
SessionStatus = Literal["in_progress", "ended"]

MAX_WAITING = 10
ROOM_BASE = "https://video.carelink.example/"


# -- records -------------------------------------------------------------------------------


class Provider(Record):
    """A clinician with a virtual room."""

    id: ProviderId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail."""
    npi: Npi
    """National Provider Identifier (the one the clinic knows)."""
    room_slug: RoomSlug
    """The room's name in its link; unique."""
    room_url: MeetingLink
    """The link patients open to check in."""
    licensed_countries: tuple[Country, ...]
    """Where they may see patients: the patient's location must be one of these."""
    status: ProviderStatus = "available"
    """available, busy (in a session), away or offline (the room is closed)."""


class Patient(Timestamped):
    """A patient known to the video service."""

    id: PatientId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail for visit links; unique."""
    phone: Phone | None = None
    """Mobile for text reminders."""
    birth_date: Date
    """Date of birth."""
    country: Country
    """Where they are located (decides which providers may see them)."""


class ConsentForm(Timestamped):
    """A provider's consent form; only the newest version is current."""

    id: FormId
    provider_id: ProviderId
    """Whose form."""
    title: Title
    """The form's title."""
    version: Annotated[int, Field(ge=1)]
    """Version number; a new version must be signed again."""
    body: Text
    """The consent text."""
    asks_recording_consent: bool = False
    """Whether the form asks the patient's consent to record."""
    current: bool = True
    """Whether it is the provider's current version."""


class ConsentSignature(Record):
    """A patient's signature on a consent form."""

    id: SignatureId
    form_id: FormId
    """The form version signed."""
    provider_id: ProviderId
    """The form's provider."""
    patient_id: PatientId
    """Who signed."""
    recording_allowed: bool = False
    """Whether they agreed to be recorded (only on a form that asks)."""
    signed_at: Annotated[DateTime, CREATED]
    """When they signed."""


class WaitingEntry(Timestamped):
    """A patient's check-in to a provider's waiting room."""

    id: EntryId
    provider_id: ProviderId
    """Whose room."""
    patient_id: PatientId
    """Who waits."""
    reason: Text | None = None
    """What they come for."""
    status: EntryStatus = "waiting"
    """waiting, in_session, done or left."""
    checked_in_at: DateTime
    """When they checked in."""


class Session(Timestamped):
    """A video visit."""

    id: SessionId
    provider_id: ProviderId
    """The provider."""
    patient_id: PatientId
    """The patient."""
    entry_id: EntryId
    """The check-in it came from."""
    room_url: MeetingLink
    """The room it took place in."""
    status: SessionStatus = "in_progress"
    """in_progress or ended."""
    recording: bool = False
    """Whether it is recorded."""
    started_at: DateTime
    """When it started."""
    ended_at: DateTime | None = None
    """When it ended."""
    duration_minutes: int | None = None
    """How long it lasted."""
    note: Text | None = None
    """The signed visit note."""
    note_signed_at: DateTime | None = None
    """When the note was signed."""


def _guard_patient(ctx: Ctx, new: Any, old: Any) -> None:
    if new.birth_date > ctx.today():
        raise RuleViolation("the birth date is in the future", field="birth_date", hint="give the date of birth")


providers = service.resource(
    Provider,
    name="provider",
    plural="providers",
    prefix="prov",
    create=False,
    get=False,
    filters=("status", "email", "npi", "room_slug"),
    search=("name",),
    delete=False,
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pt",
    create=("first_name", "last_name", "email", "phone", "birth_date", "country"),
    get=False,
    filters=("email", "country"),
    search=("first_name", "last_name"),
    delete=False,
    unique=("email",),
    guard_create=_guard_patient,
)
forms = service.resource(
    ConsentForm,
    name="consent_form",
    plural="consent_forms",
    prefix="form",
    create=False,
    get=False,
    filters=("provider_id", "current"),
    delete=False,
    title="consent form",
)
signatures = service.resource(
    ConsentSignature,
    name="consent_signature",
    plural="consent_signatures",
    prefix="sig",
    create=False,
    get=False,
    filters=None,
    delete=False,
)
entries = service.resource(
    WaitingEntry,
    name="waiting_entry",
    plural="waiting_entries",
    prefix="wait",
    create=False,
    get=False,
    filters=None,
    delete=False,
    transitions={
        "leave": Transition(
            "status",
            ("waiting",),
            "left",
            "take the patient out of the waiting room",
            description="The patient leaves the waiting room before being called in.",
        )
    },
    title="waiting-room check-in",
)
sessions = service.resource(
    Session,
    name="session",
    plural="sessions",
    prefix="ses",
    create=False,
    get=False,
    filters=("provider_id", "patient_id", "status", "recording"),
    delete=False,
    title="video session",
)


# -- rules ---------------------------------------------------------------------------------


def _current_form(ctx: Ctx, provider_id: str) -> ConsentForm | None:
    return ctx.first(ConsentForm, provider_id=provider_id, current=True)


def _signature(ctx: Ctx, form: ConsentForm | None, patient_id: str) -> ConsentSignature | None:
    if form is None:
        return None
    return ctx.first(ConsentSignature, form_id=form.id, patient_id=patient_id)


def _waiting(ctx: Ctx, provider_id: str) -> list[WaitingEntry]:
    return sorted(
        ctx.where(WaitingEntry, provider_id=provider_id, status="waiting"), key=lambda e: (e.checked_in_at, e.id)
    )


# -- providers and consent -----------------------------------------------------------------


@service.tool(
    intent="set the provider's availability",
    write=True,
    example=first_example(Provider, "provider_id", where={"status": "available"}, status="away"),
)
def update_provider_status(
    ctx: Ctx, provider_id: ProviderId, status: Literal["available", "away", "offline"]
) -> Provider:
    """Set a provider available, away or offline; busy comes only from a live session.

    A provider in a session cannot change status until it ends; going offline
    closes the room and is refused while patients wait.

    Args:
        provider_id: The provider.
        status: available, away or offline.
    """
    prov = ctx.get(Provider, provider_id, field="provider_id")
    if prov.status == "busy":
        raise RuleViolation(f"{prov.name} is in a session", field="provider_id", hint="end the session first")
    if prov.status == status:
        raise Conflict(f"{prov.name} is already {status}", field="status", hint="nothing to change")
    if status == "offline" and _waiting(ctx, prov.id):
        raise RuleViolation(
            f"{len(_waiting(ctx, prov.id))} patient(s) are waiting", field="status", hint="see them or set away instead"
        )
    return ctx.update(prov, status=status)


@service.tool(
    intent="publish a new version of the provider's consent form",
    write=True,
    example=first_example(
        Provider,
        "provider_id",
        title="Consent to telehealth services",
        body="I consent to receive care by video. I understand the limits of a video visit.",
        asks_recording_consent=True,
    ),
)
def publish_consent_form(
    ctx: Ctx, provider_id: ProviderId, title: Title, body: Text, asks_recording_consent: bool = False
) -> ConsentForm:
    """Publish a consent form: it becomes the provider's current version, and every patient must sign it again.

    Args:
        provider_id: The provider.
        title: The form's title.
        body: The consent text.
        asks_recording_consent: Whether it asks the patient's consent to record.
    """
    prov = ctx.get(Provider, provider_id, field="provider_id")
    if not body.strip():
        raise RuleViolation("the consent text is empty", field="body", hint="write what the patient consents to")
    old = _current_form(ctx, prov.id)
    version = 1
    if old is not None:
        version = old.version + 1
        ctx.update(old, current=False)
    return ctx.create(
        ConsentForm,
        provider_id=prov.id,
        title=title,
        version=version,
        body=body,
        asks_recording_consent=asks_recording_consent,
    )


def _example_sign(ctx: Ctx) -> dict[str, Any] | None:
    for form in ctx.where(ConsentForm, current=True):
        for patient in ctx.scan(Patient):
            if _signature(ctx, form, patient.id) is None:
                return {"provider_id": form.provider_id, "patient_id": patient.id, "recording_allowed": False}
    return None


@service.tool(intent="record the patient's signature on the consent form", write=True, example=_example_sign)
def sign_consent(
    ctx: Ctx, provider_id: ProviderId, patient_id: PatientId, recording_allowed: bool = False
) -> ConsentSignature:
    """The patient signs the provider's current consent form (in the check-in flow).

    Args:
        provider_id: Whose form.
        patient_id: Who signs.
        recording_allowed: Whether they agree to be recorded; only on a form that asks.
    """
    prov = ctx.get(Provider, provider_id, field="provider_id")
    ctx.get(Patient, patient_id, field="patient_id")
    form = _current_form(ctx, prov.id)
    if form is None:
        raise RuleViolation(f"{prov.name} has no consent form", field="provider_id", hint="publish one first")
    done = _signature(ctx, form, patient_id)
    if done is not None:
        raise Conflict(
            f"the patient already signed version {form.version} ({done.id})", field="patient_id", hint="nothing to sign"
        )
    if recording_allowed and not form.asks_recording_consent:
        raise RuleViolation(
            "this form does not ask for consent to record",
            field="recording_allowed",
            hint="publish a form that asks, or sign without it",
        )
    return ctx.create(
        ConsentSignature,
        form_id=form.id,
        provider_id=prov.id,
        patient_id=patient_id,
        recording_allowed=recording_allowed,
    )


# -- waiting room --------------------------------------------------------------------------


def _example_check_in(ctx: Ctx) -> dict[str, Any] | None:
    busy = {e.patient_id for e in ctx.scan(WaitingEntry) if e.status in ("waiting", "in_session")}
    for prov in ctx.scan(Provider):
        if prov.status == "offline" or len(_waiting(ctx, prov.id)) >= MAX_WAITING:
            continue
        for patient in ctx.scan(Patient):
            if patient.id not in busy and patient.country in prov.licensed_countries:
                return {"room_slug": prov.room_slug, "patient_id": patient.id, "reason": "Follow-up"}
    return None


@service.tool(intent="check the patient into the provider's waiting room", write=True, example=_example_check_in)
def check_in(ctx: Ctx, room_slug: RoomSlug, patient_id: PatientId, reason: Text | None = None) -> WaitingEntry:
    """Check a patient into a provider's waiting room from the room link.

    Refused while the room is closed (provider offline), when ten patients
    already wait, for a patient located where the provider is not licensed, and
    for a patient already waiting or in a session.

    Args:
        room_slug: The room's name (the end of its link).
        patient_id: The patient.
        reason: What they come for.
    """
    prov = ctx.first(Provider, room_slug=room_slug)
    if prov is None:
        raise RuleViolation(f"no room is called {room_slug!r}", field="room_slug", hint="check the link")
    patient = ctx.get(Patient, patient_id, field="patient_id")
    if prov.status == "offline":
        raise RuleViolation(f"{prov.name}'s room is closed", field="room_slug", hint="come back when they are online")
    if patient.country not in prov.licensed_countries:
        raise RuleViolation(
            f"{prov.name} is not licensed to see patients located in {patient.country}",
            field="patient_id",
            hint=f"they are licensed in: {', '.join(prov.licensed_countries)}",
        )
    for entry in ctx.where(WaitingEntry, patient_id=patient.id):
        if entry.status in ("waiting", "in_session"):
            raise Conflict(
                f"the patient is already {entry.status.replace('_', ' ')} ({entry.id})",
                field="patient_id",
                hint="leave that waiting room first",
            )
    if len(_waiting(ctx, prov.id)) >= MAX_WAITING:
        raise RuleViolation(f"{MAX_WAITING} patients are waiting already", field="room_slug", hint="try again later")
    return ctx.create(WaitingEntry, provider_id=prov.id, patient_id=patient.id, reason=reason, checked_in_at=ctx.now())


class WaitingPatient(BaseModel):
    """A patient in the waiting room."""

    entry_id: EntryId = Field(description="The check-in.")
    patient_id: PatientId = Field(description="The patient.")
    patient_email: Email = Field(description="Their e-mail.")
    position: int = Field(description="Place in the queue (1 is next).")
    waited_minutes: int = Field(description="Minutes since they checked in.")
    consent_signed: bool = Field(description="Whether they signed the provider's current consent form.")
    reason: Text | None = Field(description="What they come for.")


class WaitingRoom(BaseModel):
    """A provider's waiting room."""

    provider_id: ProviderId = Field(description="The provider.")
    room_url: MeetingLink = Field(description="The room's link.")
    status: ProviderStatus = Field(description="The provider's status.")
    patients: list[WaitingPatient] = Field(description="Who waits, first come first.")


@service.tool(intent="see who is in the waiting room", example=first_example(Provider, "provider_id"))
def get_waiting_room(ctx: Ctx, provider_id: ProviderId) -> WaitingRoom:
    """A provider's waiting room: who waits, for how long, and whether they signed consent.

    Args:
        provider_id: The provider.
    """
    prov = ctx.get(Provider, provider_id, field="provider_id")
    form = _current_form(ctx, prov.id)
    now = ctx.now()
    out = []
    for n, e in enumerate(_waiting(ctx, prov.id), start=1):
        patient = ctx.get(Patient, e.patient_id)
        out.append(
            WaitingPatient(
                entry_id=e.id,
                patient_id=e.patient_id,
                patient_email=patient.email,
                position=n,
                waited_minutes=int((now - e.checked_in_at).total_seconds() // 60),
                consent_signed=form is None or _signature(ctx, form, e.patient_id) is not None,
                reason=e.reason,
            )
        )
    return WaitingRoom(provider_id=prov.id, room_url=prov.room_url, status=prov.status, patients=out)


# -- sessions ------------------------------------------------------------------------------


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    for prov in ctx.where(Provider, status="available"):
        form = _current_form(ctx, prov.id)
        for e in _waiting(ctx, prov.id):
            if form is None or _signature(ctx, form, e.patient_id) is not None:
                return {"waiting_entry_id": e.id}
    return None


@service.tool(intent="call the waiting patient into the video visit", write=True, example=_example_start)
def start_session(ctx: Ctx, waiting_entry_id: EntryId, record: bool = False) -> Session:
    """Start a video visit with a waiting patient; the provider becomes busy.

    The provider must be available (one live session at a time) and the
    patient must have signed the provider's current consent form; recording
    needs their consent to record.

    Args:
        waiting_entry_id: The patient's check-in.
        record: Whether to record the visit.
    """
    entry = ctx.get(WaitingEntry, waiting_entry_id, field="waiting_entry_id")
    if entry.status != "waiting":
        raise Conflict(f"the check-in is {entry.status}", field="waiting_entry_id", hint="call a waiting patient")
    prov = ctx.get(Provider, entry.provider_id)
    if prov.status != "available":
        raise RuleViolation(
            f"{prov.name} is {prov.status}",
            field="waiting_entry_id",
            hint="end the live session first" if prov.status == "busy" else "set the provider available first",
        )
    form = _current_form(ctx, prov.id)
    sig = _signature(ctx, form, entry.patient_id)
    if form is not None and sig is None:
        raise RuleViolation(
            f"the patient has not signed version {form.version} of {form.title!r}",
            field="waiting_entry_id",
            hint="have the patient sign it (telehealth__sign_consent)",
        )
    if record and not (sig is not None and sig.recording_allowed):
        raise RuleViolation("the patient did not consent to recording", field="record", hint="start without recording")
    ctx.update(entry, status="in_session")
    ctx.update(prov, status="busy")
    return ctx.create(
        Session,
        provider_id=prov.id,
        patient_id=entry.patient_id,
        entry_id=entry.id,
        room_url=prov.room_url,
        recording=record,
        started_at=ctx.now(),
    )


@service.tool(
    intent="end the video visit",
    write=True,
    example=first_example(Session, "session_id", where={"status": "in_progress"}),
)
def end_session(ctx: Ctx, session_id: SessionId) -> Session:
    """End a live visit: the provider is available again and its length is recorded.

    Args:
        session_id: The live session.
    """
    ses = ctx.get(Session, session_id, field="session_id")
    if ses.status != "in_progress":
        raise Conflict("the session has ended", field="session_id", hint="nothing to end")
    now = ctx.now()
    ctx.update(ctx.get(WaitingEntry, ses.entry_id), status="done")
    ctx.update(ctx.get(Provider, ses.provider_id), status="available")
    minutes = max(1, round((now - ses.started_at).total_seconds() / 60))
    return ctx.update(ses, status="ended", ended_at=now, duration_minutes=minutes)


def _example_note(ctx: Ctx) -> dict[str, Any] | None:
    for ses in ctx.where(Session, status="ended"):
        if ses.note is None:
            return {"session_id": ses.id, "note": "Reviewed symptoms; follow up in two weeks."}
    return None


@service.tool(intent="sign the visit note", write=True, example=_example_note)
def sign_session_note(ctx: Ctx, session_id: SessionId, note: Text) -> Session:
    """Sign the note of an ended visit; a signed note is final.

    Args:
        session_id: The ended session.
        note: The visit note.
    """
    ses = ctx.get(Session, session_id, field="session_id")
    if ses.status != "ended":
        raise RuleViolation("the session is still live", field="session_id", hint="end it first")
    if ses.note is not None:
        raise Conflict("the note is already signed", field="session_id", hint="a signed note is final")
    if not note.strip():
        raise RuleViolation("the note is empty", field="note", hint="write the visit note")
    return ctx.update(ses, note=note, note_signed_at=ctx.now())


# -- seeding -------------------------------------------------------------------------------

_FORM = (
    "I consent to receive care through a secure video visit. I understand that my provider may not be able to "
    "examine me in person and may ask me to come to the clinic."
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The practice's clinicians with rooms and consent forms, patients, a morning of waiting and visits."""
    pop = s.population
    sites = clinic_sites(pop)
    home_country = pop.home.place.country
    provs: list[Provider] = []
    for i, (p, _) in enumerate(clinicians(pop)):
        slug = f"{p.first_name}{p.last_name}".lower()
        slug = "".join(c for c in slug if c.isascii() and c.isalnum())[:26] + str(i)
        extra = {"US", "GB"} if i % 2 == 0 else {"ES", "SE"}
        countries = sorted({home_country} | {c.place.country for c in sites} | extra)
        provs.append(
            s.create(
                Provider,
                name=p.name,
                email=p.email,
                npi=provider_npi(i),
                room_slug=slug,
                room_url=ROOM_BASE + slug,
                licensed_countries=tuple(countries),
                status=("available", "available", "available", "away", "offline", "available")[i],
            )
        )
    for k, prov in enumerate(provs):
        for version in (1, 2) if k % 2 == 0 else (1,):
            last = version == 2 or k % 2 == 1
            s.create(
                ConsentForm,
                provider_id=prov.id,
                title="Consent to telehealth services",
                version=version,
                body=_FORM,
                asks_recording_consent=version == 2,
                current=last,
                created_at=s.ago(days=200 - 90 * version),
            )
    keys = {p.key for p, _ in clinicians(pop)}
    people = [p for p in pop.consumers if p.key not in keys][:20]
    pats = [
        s.create(
            Patient,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            country=p.place.country,
            created_at=s.ago(days=60 - 2 * k),
        )
        for k, p in enumerate(people)
    ]
    _seed_visits(s, provs, pats)


def _seed_visits(s: SeedContext, provs: list[Provider], pats: list[Patient]) -> None:
    forms = {f.provider_id: f for f in s.records(ConsentForm) if f.current}
    old = {f.provider_id: f for f in s.records(ConsentForm) if not f.current}
    seen = 0
    for k, patient in enumerate(pats):
        licensed = [p for p in provs if patient.country in p.licensed_countries]
        if not licensed:
            continue
        prov = licensed[k % len(licensed)]
        form = forms[prov.id]
        if k % 4 != 3:
            s.create(
                ConsentSignature,
                form_id=form.id,
                provider_id=prov.id,
                patient_id=patient.id,
                recording_allowed=form.asks_recording_consent and k % 2 == 0,
                signed_at=s.ago(days=5 + k),
            )
        elif prov.id in old:
            s.create(ConsentSignature, form_id=old[prov.id].id, provider_id=prov.id, patient_id=patient.id)
        if k < 6:
            # Past visits, ended, most with a signed note.
            start = s.ago(days=3 + k, hours=2)
            entry = s.create(
                WaitingEntry, provider_id=prov.id, patient_id=patient.id, status="done", checked_in_at=start
            )
            s.create(
                Session,
                provider_id=prov.id,
                patient_id=patient.id,
                entry_id=entry.id,
                room_url=prov.room_url,
                status="ended",
                started_at=start + dt.timedelta(minutes=4),
                ended_at=start + dt.timedelta(minutes=24),
                duration_minutes=20,
                note="Reviewed medication; no changes." if k % 3 else None,
                note_signed_at=start + dt.timedelta(minutes=30) if k % 3 else None,
            )
        elif seen < 6:
            # This morning's waiting room (rooms that are open).
            seen += 1
            open_rooms = [p for p in licensed if p.status != "offline"]
            s.create(
                WaitingEntry,
                provider_id=open_rooms[seen % len(open_rooms)].id,
                patient_id=patient.id,
                status="waiting",
                reason="Follow-up visit",
                checked_in_at=s.ago(minutes=4 * seen),
            )
    live = next((p for p in provs if p.status == "available"), None)
    if live is not None:
        patient = next(
            p
            for p in pats
            if p.country in live.licensed_countries
            and not [e for e in s.records(WaitingEntry) if e.patient_id == p.id and e.status == "waiting"]
        )
        entry = s.create(
            WaitingEntry,
            provider_id=live.id,
            patient_id=patient.id,
            status="in_session",
            checked_in_at=s.ago(minutes=15),
        )
        s.create(
            Session,
            provider_id=live.id,
            patient_id=patient.id,
            entry_id=entry.id,
            room_url=live.room_url,
            started_at=s.ago(minutes=10),
        )
        s.update(live, status="busy")
