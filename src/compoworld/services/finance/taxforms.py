"""Formline 1099: information returns for contractors and vendors: W-9s, TIN matching, 1099 forms, IRS e-file.

Modeled on the Track1099 and Tax1099 APIs (payers, recipients with W-9
requests and IRS TIN matching, 1099-NEC and 1099-MISC forms per tax year,
e-file submissions and their IRS status, corrections, recipient copies by
e-mail or post, backup withholding): a W-9 is recorded only after it was
requested; a TIN match compares the name on the W-9 with the payee's name and
a mismatch puts the payee under 24% backup withholding; one form per payee,
year and type; a form is at least the IRS threshold ($600, royalties $10) and
under backup withholding must withhold 24%; a draft is e-filed only when its
payee's W-9 is on file and the TIN matched (or withholding is in place); an
e-file submission goes submitted → accepted or rejected; accepted forms can be
corrected (the corrected form is filed anew) but not edited or deleted;
recipient copies go by e-mail only with the payee's e-delivery consent; an IRS
B-notice starts backup withholding and asks for a new W-9.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, Email, IdOf, PersonName, PostalAddress, Title
from compoworld.services.finance._shared import percent_of
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.text import fold
from compoworld.world import finance as links

__all__ = ["service"]

service = Service(
    "taxforms",
    title="Formline 1099",
    category="tax_forms",
    modeled_on="Track1099 / Tax1099 APIs (payers, recipients, W-9 requests, TIN matching, 1099-NEC and 1099-MISC "
    "forms, e-file submissions with IRS status, corrections, recipient copies, backup withholding)",
    description="Year-end information returns: the company as payer, its contractors and vendors as payees with "
    "W-9s and IRS TIN matching, 1099-NEC and 1099-MISC forms per tax year, e-filing with the IRS and its "
    "status, corrections, recipient copies and backup withholding.",
)

PayeeId = Annotated[str, IdOf("taxforms.payee")]
FormId = Annotated[str, IdOf("taxforms.form")]
SubmissionId = Annotated[str, IdOf("taxforms.submission")]

Tin = Annotated[str, StringConstraints(pattern=r"^(\d{3}-\d{2}-\d{4}|\d{2}-\d{7})$")]
"""A taxpayer identification number: an SSN (123-45-6789) or an EIN (12-3456789)."""
TaxYear = Annotated[int, Field(ge=2015, le=2100)]
FormType = Literal["1099-NEC", "1099-MISC"]
Box = Literal["nec_1_nonemployee_comp", "misc_1_rents", "misc_2_royalties", "misc_3_other_income"]
FormStatus = Literal["draft", "submitted", "accepted", "rejected", "corrected"]
W9Status = Literal["not_requested", "requested", "on_file"]
TinMatch = Literal["unchecked", "matched", "mismatched"]

BACKUP_RATE = 24.0
THRESHOLD: dict[str, int] = {
    "nec_1_nonemployee_comp": 600_00,
    "misc_1_rents": 600_00,
    "misc_2_royalties": 10_00,
    "misc_3_other_income": 600_00,
}
"""The IRS reporting threshold of each box, in cents."""
FORM_OF: dict[str, FormType] = {b: "1099-NEC" if b.startswith("nec") else "1099-MISC" for b in THRESHOLD}


class Payee(Timestamped):
    """A contractor or vendor the company reports payments to."""

    id: PayeeId
    kind: Literal["business", "individual"]
    """business or individual."""
    business_name: CompanyName | None = None
    """A business payee's legal name."""
    person_name: PersonName | None = None
    """An individual payee's name."""
    email: Email
    """Where W-9 requests and e-delivered copies go."""
    address: PostalAddress | None = None
    """Mailing address for paper copies."""
    w9_status: W9Status = "not_requested"
    """not_requested, requested or on_file."""
    w9_name: Title | None = None
    """The name written on the W-9."""
    tin: Tin | None = None
    """The TIN from the W-9."""
    tin_match: TinMatch = "unchecked"
    """unchecked, matched or mismatched (IRS TIN matching)."""
    backup_withholding: bool = False
    """Whether 24% backup withholding applies."""
    e_delivery_consent: bool = False
    """Whether the payee agreed to receive forms by e-mail."""


class Form(Created):
    """A 1099 form for one payee, year and form type."""

    id: FormId
    payee_id: PayeeId
    """The payee."""
    tax_year: TaxYear
    """The tax year reported."""
    form_type: FormType = "1099-NEC"
    """1099-NEC or 1099-MISC (set from the box)."""
    box: Box
    """The box reported: nec_1_nonemployee_comp, misc_1_rents, misc_2_royalties or misc_3_other_income."""
    amount: Cents
    """The amount in the box, in cents."""
    federal_withheld: Cents = 0
    """Box 4, federal income tax withheld, in cents."""
    status: FormStatus = "draft"
    """draft, submitted (e-filed, waiting for the IRS), accepted, rejected or corrected (replaced)."""
    submission_id: SubmissionId | None = None
    """The e-file submission that carried it."""
    corrects_id: FormId | None = None
    """The form this one corrects."""
    irs_error: str | None = None
    """Why the IRS rejected it."""
    copy_sent_by: Literal["email", "postal"] | None = None
    """How the recipient copy was delivered."""
    copy_sent_on: Date | None = None
    """When the recipient copy was delivered."""


class Submission(Created):
    """An e-file submission of forms to the IRS (FIRE)."""

    id: SubmissionId
    tax_year: TaxYear
    """The tax year."""
    form_ids: tuple[FormId, ...]
    """The forms filed."""
    status: Literal["submitted", "accepted", "rejected", "partially_accepted"] = "submitted"
    """submitted, accepted, rejected or partially_accepted."""
    submitted_by: Email
    """Who filed it."""


class YearTotal(Value):
    """One payee's reported amounts for a year."""

    payee_id: str
    """The payee."""
    name: str
    """Its name."""
    forms: int
    """Live forms (not replaced by a correction)."""
    amount: int
    """Sum of their amounts, in cents."""
    federal_withheld: int
    """Sum withheld, in cents."""
    filed: bool
    """Whether every live form is accepted."""


class YearSummary(Value):
    """The company's 1099 filing for a tax year."""

    tax_year: int
    """The year."""
    by_status: dict[str, int]
    """Forms per status."""
    payees: list[YearTotal]
    """Per payee."""
    missing_w9: list[str]
    """Payees with a form but no W-9 on file."""


# -- rules ------------------------------------------------------------------------------------


def _name(p: Payee) -> str:
    return p.business_name or p.person_name or ""


def _guard_payee(ctx: Ctx, new: Any, old: Any) -> None:
    if new.kind == "business" and new.business_name is None:
        raise RuleViolation("a business payee needs its name", field="business_name", hint="give the legal name")
    if new.kind == "individual" and new.person_name is None:
        raise RuleViolation("an individual payee needs a name", field="person_name", hint="give the person's name")


def _check_form(ctx: Ctx, form: Form) -> None:
    if form.amount < THRESHOLD[form.box]:
        raise RuleViolation(
            f"{form.box} is reported from {THRESHOLD[form.box]} cents",
            field="amount",
            hint="amounts under the threshold need no 1099",
        )
    payee = ctx.get(Payee, form.payee_id)
    due = percent_of(form.amount, BACKUP_RATE) if payee.backup_withholding else None
    if due is not None and form.federal_withheld != due:
        raise RuleViolation(
            f"backup withholding of 24% is {due} cents", field="federal_withheld", hint=f"set federal_withheld to {due}"
        )
    if form.federal_withheld > form.amount:
        raise RuleViolation("withheld exceeds the amount", field="federal_withheld", hint="check the figures")


def _guard_form(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "draft":
        raise RuleViolation(f"form is {old.status}", field="form_id", hint="file a correction instead")
    if new.form_type != FORM_OF[new.box]:
        ctx.update(new, form_type=FORM_OF[new.box])
    if old is None or old.box != new.box:
        for f in ctx.where(Form, payee_id=new.payee_id, tax_year=new.tax_year, box=new.box):
            if f.id != new.id and f.status != "corrected":
                raise Conflict(
                    f"form {f.id} already reports {new.box} for {new.tax_year}",
                    field="box",
                    hint="update that form or file a correction",
                )
    _check_form(ctx, ctx.get(Form, new.id))


def _guard_form_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(f"form is {old.status}", field="form_id", hint="only drafts can be deleted")


payees = service.resource(
    Payee,
    name="payee",
    plural="payees",
    prefix="pye",
    create=("kind", "business_name", "person_name", "email", "address", "e_delivery_consent"),
    filters=("kind", "w9_status", "tin_match", "backup_withholding", "email", "business_name", "person_name"),
    search=("business_name", "person_name", "email"),
    update=("email", "address", "e_delivery_consent"),
    delete=False,
    guard_create=_guard_payee,
    guard_update=_guard_payee,
    title="payee",
)
forms = service.resource(
    Form,
    name="form",
    plural="forms",
    prefix="f1099",
    create=("payee_id", "tax_year", "box", "amount", "federal_withheld"),
    filters=("payee_id", "tax_year", "form_type", "box", "status", "submission_id", "corrects_id"),
    update=("box", "amount", "federal_withheld"),
    guard_create=_guard_form,
    guard_update=_guard_form,
    guard_delete=_guard_form_delete,
    title="1099 form",
)
submissions = service.resource(
    Submission,
    name="submission",
    plural="submissions",
    prefix="sub",
    create=False,
    filters=("tax_year", "status", "submitted_by"),
    delete=False,
    title="e-file submission",
)


# -- W-9 and TIN matching ---------------------------------------------------------------------


@service.tool(
    intent="request a W-9 from the payee",
    write=True,
    example=first_example(Payee, "payee_id", where={"w9_status": "not_requested"}),
)
def request_w9(ctx: Ctx, payee_id: PayeeId) -> Payee:
    """E-mail the payee a W-9 request (again, if one is outstanding); a W-9 on file is not requested again.

    Args:
        payee_id: The payee.
    """
    payee = ctx.get(Payee, payee_id, field="payee_id")
    if payee.w9_status == "on_file":
        raise Conflict("the W-9 is on file", field="payee_id", hint="see its tin and tin_match")
    return ctx.update(payee, w9_status="requested")


def _example_w9(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Payee, w9_status="requested")
    if p is None:
        return None
    tin = "98-7654321" if p.kind == "business" else "512-44-7781"
    return {"payee_id": p.id, "w9_name": _name(p), "tin": tin, "e_delivery_consent": True}


@service.tool(intent="record the payee's W-9", write=True, example=_example_w9)
def record_w9(ctx: Ctx, payee_id: PayeeId, w9_name: Title, tin: Tin, e_delivery_consent: bool = False) -> Payee:
    """Record a requested W-9: the name and TIN the payee certified; the TIN match starts over.

    A business certifies an EIN (12-3456789); an individual an SSN (123-45-6789) or an EIN.

    Args:
        payee_id: The payee whose W-9 was requested.
        w9_name: The name on the W-9.
        tin: The TIN on the W-9.
        e_delivery_consent: Whether the payee consented to e-delivery on the form.
    """
    payee = ctx.get(Payee, payee_id, field="payee_id")
    if payee.w9_status != "requested":
        raise RuleViolation(
            f"W-9 status is {payee.w9_status}", field="payee_id", hint="request it first with taxforms__request_w9"
        )
    if payee.kind == "business" and len(tin) != 10:
        raise RuleViolation("a business certifies an EIN", field="tin", hint="use the form 12-3456789")
    consent = e_delivery_consent or payee.e_delivery_consent
    return ctx.update(
        payee, w9_status="on_file", w9_name=w9_name, tin=tin, tin_match="unchecked", e_delivery_consent=consent
    )


@service.tool(
    intent="match the payee's TIN with the IRS",
    write=True,
    example=first_example(Payee, "payee_id", where={"w9_status": "on_file"}),
)
def match_tin(ctx: Ctx, payee_id: PayeeId) -> Payee:
    """Run IRS TIN matching on the W-9: the certified name must be the payee's name.

    A mismatch puts the payee under 24% backup withholding; a later match lifts it.

    Args:
        payee_id: The payee with a W-9 on file.
    """
    payee = ctx.get(Payee, payee_id, field="payee_id")
    if payee.w9_status != "on_file" or payee.w9_name is None:
        raise RuleViolation("no W-9 on file", field="payee_id", hint="request and record the W-9 first")
    matched = fold(payee.w9_name) == fold(_name(payee))  # the IRS record is the payee's legal name
    return ctx.update(payee, tin_match="matched" if matched else "mismatched", backup_withholding=not matched)


@service.tool(
    intent="record an IRS B-notice for the payee",
    write=True,
    example=first_example(Payee, "payee_id", where={"tin_match": "matched"}),
)
def record_b_notice(ctx: Ctx, payee_id: PayeeId) -> Payee:
    """Record an IRS CP2100 B-notice (name/TIN mismatch reported by the IRS) against a payee.

    Backup withholding starts at once and a new W-9 is requested; a matched TIN on it lifts the withholding.

    Args:
        payee_id: A payee whose W-9 is on file.
    """
    payee = ctx.get(Payee, payee_id, field="payee_id")
    if payee.w9_status != "on_file":
        raise RuleViolation("no W-9 on file", field="payee_id", hint="B-notices concern payees with a W-9")
    return ctx.update(payee, backup_withholding=True, tin_match="mismatched", w9_status="requested")


# -- filing -----------------------------------------------------------------------------------


def _example_efile(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.where(Form, status="draft"):
        p = ctx.get(Payee, f.payee_id)
        if p.w9_status == "on_file" and (p.tin_match == "matched" or p.backup_withholding):
            return {"form_ids": [f.id], "submitted_by": ctx.population.staff("Finance", fallback=1)[0].email}
    return None


@service.tool(intent="e-file the forms with the IRS", write=True, example=_example_efile)
def efile_forms(
    ctx: Ctx, form_ids: Annotated[list[FormId], Field(min_length=1, max_length=250)], submitted_by: Email
) -> Submission:
    """E-file draft forms of one tax year in one submission; each payee needs a W-9 on file and a TIN match.

    A payee under backup withholding may be filed after a mismatch, withholding 24%.

    Args:
        form_ids: The draft forms.
        submitted_by: The employee filing.
    """
    if submitted_by not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{submitted_by} is not an employee", field="submitted_by", hint="use your work e-mail")
    if len(set(form_ids)) != len(form_ids):
        raise RuleViolation("a form is listed twice", field="form_ids", hint="list each once")
    chosen = [ctx.get(Form, fid, field="form_ids") for fid in form_ids]
    years = {f.tax_year for f in chosen}
    if len(years) > 1:
        raise RuleViolation("forms of several years", field="form_ids", hint="file one tax year per submission")
    for f in chosen:
        if f.status != "draft":
            raise RuleViolation(f"form {f.id} is {f.status}", field="form_ids", hint="file drafts only")
        p = ctx.get(Payee, f.payee_id)
        if p.w9_status != "on_file":
            raise RuleViolation(f"{_name(p)} has no W-9 on file", field="form_ids", hint="request the W-9 first")
        if p.tin_match != "matched" and not p.backup_withholding:
            raise RuleViolation(
                f"{_name(p)}'s TIN is {p.tin_match}", field="form_ids", hint="run taxforms__match_tin first"
            )
        _check_form(ctx, f)
    sub = ctx.create(Submission, tax_year=years.pop(), form_ids=tuple(form_ids), submitted_by=submitted_by)
    for f in chosen:
        ctx.update(f, status="submitted", submission_id=sub.id, irs_error=None)
    return sub


@service.tool(
    intent="check the IRS status of the e-file submission",
    write=True,
    idempotent=True,
    example=first_example(Submission, "submission_id", where={"status": "submitted"}),
)
def refresh_submission(ctx: Ctx, submission_id: SubmissionId) -> Submission:
    """Fetch the IRS acknowledgement of a submission: forms of mismatched TINs are rejected, the others accepted.

    Args:
        submission_id: The submission.
    """
    sub = ctx.get(Submission, submission_id, field="submission_id")
    if sub.status != "submitted":
        return sub
    results = []
    for fid in sub.form_ids:
        f = ctx.get(Form, fid)
        bad = ctx.get(Payee, f.payee_id).tin_match != "matched" and f.federal_withheld == 0
        ctx.update(f, status="rejected" if bad else "accepted", irs_error="TIN/name mismatch" if bad else None)
        results.append(bad)
    status = "rejected" if all(results) else "partially_accepted" if any(results) else "accepted"
    return ctx.update(sub, status=status)


def _example_correct(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(Form, status="accepted")
    return None if f is None else {"form_id": f.id, "amount": f.amount + 250_00}


@service.tool(intent="file a corrected 1099", write=True, example=_example_correct)
def correct_form(ctx: Ctx, form_id: FormId, amount: Cents, federal_withheld: Cents | None = None) -> Form:
    """Replace an accepted form with a corrected draft (the original becomes corrected); e-file the new one.

    Args:
        form_id: The accepted form.
        amount: The corrected amount, in cents.
        federal_withheld: The corrected withholding (default: as before, or 24% under backup withholding).
    """
    old = ctx.get(Form, form_id, field="form_id")
    if old.status != "accepted":
        raise RuleViolation(f"form is {old.status}", field="form_id", hint="edit a draft, or correct accepted forms")
    payee = ctx.get(Payee, old.payee_id)
    if federal_withheld is None:
        federal_withheld = percent_of(amount, BACKUP_RATE) if payee.backup_withholding else old.federal_withheld
    ctx.update(old, status="corrected")
    new = ctx.create(
        Form,
        payee_id=old.payee_id,
        tax_year=old.tax_year,
        form_type=old.form_type,
        box=old.box,
        amount=amount,
        federal_withheld=federal_withheld,
        corrects_id=old.id,
    )
    _check_form(ctx, new)
    return new


def _example_copy(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.where(Form, status="accepted"):
        if f.copy_sent_on is None and ctx.get(Payee, f.payee_id).e_delivery_consent:
            return {"form_id": f.id, "method": "email"}
    return None


@service.tool(intent="send the recipient copy of the 1099", write=True, example=_example_copy)
def send_recipient_copy(ctx: Ctx, form_id: FormId, method: Literal["email", "postal"]) -> Form:
    """Deliver Copy B to the payee; e-mail needs their e-delivery consent, post their address.

    Args:
        form_id: A submitted or accepted form.
        method: email or postal.
    """
    f = ctx.get(Form, form_id, field="form_id")
    if f.status not in ("submitted", "accepted"):
        raise RuleViolation(f"form is {f.status}", field="form_id", hint="e-file it first")
    if f.copy_sent_on is not None:
        raise Conflict(f"the copy went by {f.copy_sent_by} on {f.copy_sent_on}", field="form_id", hint="nothing to do")
    payee = ctx.get(Payee, f.payee_id)
    if method == "email" and not payee.e_delivery_consent:
        raise RuleViolation("no e-delivery consent", field="method", hint="send it by post")
    if method == "postal" and payee.address is None:
        raise RuleViolation("no mailing address", field="method", hint="add the address to the payee")
    return ctx.update(f, copy_sent_by=method, copy_sent_on=ctx.today())


@service.tool(intent="summarise the year's 1099 filing", example=lambda ctx: {"tax_year": ctx.today().year - 1})
def year_summary(ctx: Ctx, tax_year: TaxYear) -> YearSummary:
    """Forms per status, totals per payee and payees still missing a W-9, for one tax year.

    Args:
        tax_year: The tax year.
    """
    year = ctx.where(Form, tax_year=tax_year)
    counts: dict[str, int] = {}
    for f in year:
        counts[f.status] = counts.get(f.status, 0) + 1
    rows: list[YearTotal] = []
    missing: list[str] = []
    for pid in sorted({f.payee_id for f in year}):
        live = [f for f in year if f.payee_id == pid and f.status != "corrected"]
        p = ctx.get(Payee, pid)
        if p.w9_status != "on_file":
            missing.append(pid)
        rows.append(
            YearTotal(
                payee_id=pid,
                name=_name(p),
                forms=len(live),
                amount=sum(f.amount for f in live),
                federal_withheld=sum(f.federal_withheld for f in live),
                filed=all(f.status == "accepted" for f in live),
            )
        )
    return YearSummary(tax_year=tax_year, by_status=counts, payees=rows, missing_w9=missing)


# -- seed -------------------------------------------------------------------------------------

BUSINESS_PLAN: tuple[tuple[str, Box, int, str], ...] = (
    ("matched", "nec_1_nonemployee_comp", 48_250_00, "accepted"),
    ("matched", "misc_1_rents", 36_000_00, "accepted"),
    ("matched", "nec_1_nonemployee_comp", 12_400_00, "submitted"),
    ("matched", "misc_2_royalties", 2_150_00, "corrected"),
    ("requested", "nec_1_nonemployee_comp", 8_900_00, "draft"),
    ("not_requested", "nec_1_nonemployee_comp", 0, ""),
)
PEOPLE_PLAN: tuple[tuple[str, Box, int, str], ...] = (
    ("matched", "nec_1_nonemployee_comp", 18_600_00, "accepted"),
    ("matched", "nec_1_nonemployee_comp", 7_250_00, "draft"),
    ("matched", "misc_3_other_income", 1_500_00, "accepted"),
    ("mismatched", "nec_1_nonemployee_comp", 9_800_00, "draft"),
    ("unchecked", "nec_1_nonemployee_comp", 4_300_00, "draft"),
    ("not_requested", "nec_1_nonemployee_comp", 0, ""),
)
"""Seeded payees: W-9 and TIN state, box, amount and the last year's form status ("": no form)."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Supplier companies and freelance contractors as payees, last year's forms in every state, two submissions."""
    pop = s.population
    year = s.now.year - 1
    filer = pop.staff("Finance", fallback=1)[0].email
    made: list[tuple[Payee, Box, int, str]] = []
    for k, (link, plan) in enumerate(zip(links.suppliers(pop), BUSINESS_PLAN, strict=False)):
        p = _seed_payee(s, k, "business", plan[0], link.company.name, link.contact.email, link.company.address)
        made.append((p, *plan[1:]))
    for k, (person, plan) in enumerate(zip(pop.consumers, PEOPLE_PLAN, strict=False)):
        p = _seed_payee(s, 10 + k, "individual", plan[0], person.name, person.email, person.address)
        made.append((p, *plan[1:]))
    filed: list[Form] = []
    waiting: list[Form] = []
    for p, box, amount, status in made:
        if not status:
            continue
        withheld = percent_of(amount, BACKUP_RATE) if p.backup_withholding else 0
        f = s.create(
            Form,
            payee_id=p.id,
            tax_year=year,
            form_type=FORM_OF[box],
            box=box,
            amount=amount,
            federal_withheld=withheld,
            status="accepted" if status == "corrected" else status,
            created_at=s.ago(days=45),
        )
        if status in ("accepted", "corrected"):
            filed.append(f)
        elif status == "submitted":
            waiting.append(f)
    first = s.create(
        Submission,
        tax_year=year,
        form_ids=tuple(f.id for f in filed),
        status="accepted",
        submitted_by=filer,
        created_at=s.ago(days=33),
    )
    for k, f in enumerate(filed):
        p = next(x for x, *_ in made if x.id == f.payee_id)
        sent = "email" if p.e_delivery_consent else "postal"
        s.update(
            f,
            submission_id=first.id,
            copy_sent_by=sent if k % 2 == 0 else None,
            copy_sent_on=(s.now.date().replace(month=1, day=29)) if k % 2 == 0 else None,
        )
    late = s.create(
        Submission, tax_year=year, form_ids=tuple(f.id for f in waiting), submitted_by=filer, created_at=s.ago(days=2)
    )
    for f in waiting:
        s.update(f, submission_id=late.id)
    for p, box, amount, status in made:
        if status == "corrected":
            old = next(f for f in s.records(Form) if f.payee_id == p.id)
            s.update(old, status="corrected")
            s.create(
                Form,
                payee_id=p.id,
                tax_year=year,
                form_type=FORM_OF[box],
                box=box,
                amount=amount + 600_00,
                corrects_id=old.id,
                created_at=s.ago(days=10),
            )


def _seed_payee(s: SeedContext, k: int, kind: str, w9: str, name: str, email: str, address: Any) -> Payee:
    on_file = w9 in ("matched", "mismatched", "unchecked")
    tin = f"{31 + k:02d}-{4_100_000 + 7919 * k}" if kind == "business" else f"{401 + k}-{22 + k}-{5000 + 37 * k}"
    written = (name.split()[0] + " Consulting") if w9 == "mismatched" else name
    status: W9Status = "on_file" if on_file else "requested" if w9 == "requested" else "not_requested"
    return s.create(
        Payee,
        kind=kind,
        business_name=name if kind == "business" else None,
        person_name=name if kind == "individual" else None,
        email=email,
        address=address,
        w9_status=status,
        w9_name=written if on_file else None,
        tin=tin if on_file else None,
        tin_match="unchecked" if not on_file else w9,
        backup_withholding=w9 == "mismatched",
        e_delivery_consent=k % 3 != 1,
        created_at=s.ago(days=400 - 11 * k),
        updated_at=s.ago(days=60),
    )
