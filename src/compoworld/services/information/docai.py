"""Parsewell Document AI: invoices, receipts, IDs and forms at a URL read into fields, with processors and reviews.

Modeled on Amazon Textract (``AnalyzeExpense`` with ``SummaryFields`` of types
``VENDOR_NAME``, ``INVOICE_RECEIPT_ID``, ``INVOICE_RECEIPT_DATE``, ``DUE_DATE``,
``SUBTOTAL``, ``TAX``, ``TOTAL`` and ``LineItemGroups``; ``AnalyzeID`` with
``FIRST_NAME``, ``LAST_NAME``, ``DATE_OF_BIRTH``, ``DOCUMENT_NUMBER``,
``EXPIRATION_DATE``, ``ID_TYPE``; ``AnalyzeDocument`` with ``FORMS`` key-value
pairs; ``DetectDocumentText``; ``UnsupportedDocumentException``) and Google
Cloud Document AI (``processors`` of types ``INVOICE_PROCESSOR``,
``EXPENSE_PROCESSOR``, ``ID_PROOFING_PROCESSOR``, ``FORM_PARSER_PROCESSOR``,
``OCR_PROCESSOR`` with states ``ENABLED`` / ``DISABLED``, ``:process`` giving
a ``Document`` of ``entities`` with ``type``, ``mentionText`` and
``confidence``, the 15-page online limit, and Human-in-the-Loop
``reviewDocument`` tasks, like Amazon A2I human loops).

An open-world service: what a document at a URL says is a deterministic draw
from the world seed and the URL: its kind follows the URL's words (``invoice``,
``receipt``, ``id``/``license``/``passport``, ``form``), else the hash; an
invoice or receipt is from one of the world's companies, with its contact's
e-mail and amounts that add up (subtotal + tax = total); an ID belongs to one of
the world's people. Stored state is the processors, the processed documents
and the human-review tasks: a processor must be enabled to process and
disabled before it is deleted; a document whose lowest field confidence falls
below the processor's threshold goes to a review task, which an employee
claims, corrects field by field and completes (corrected fields get confidence
1.0), or which is stopped.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Currency, DateTime, Email, IdOf, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "docai",
    title="Parsewell Document AI",
    category="document_ai",
    modeled_on="Amazon Textract (AnalyzeExpense, AnalyzeID, AnalyzeDocument FORMS, DetectDocumentText) and Google "
    "Cloud Document AI (processors, process, Human-in-the-Loop review)",
    description="Document AI: read an invoice, receipt, ID or form at a URL into typed fields with confidences, "
    "detect its text and classify it, and keep processors that process documents into stored results, sending "
    "low-confidence ones to human review tasks that staff claim, correct and complete.",
)

ProcessorId = Annotated[str, IdOf("docai.processor")]
DocumentId = Annotated[str, IdOf("docai.document")]
ReviewTaskId = Annotated[str, IdOf("docai.review_task")]
DocUrl = Annotated[Url, Field(description="https URL of a PDF, PNG, JPEG or TIFF file.")]
ProcessorType = Literal["invoice", "expense", "id_proofing", "form_parser", "ocr"]
DocKind = Literal["invoice", "receipt", "identity_document", "form"]
FieldType = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z_]{1,40}$")]

ONLINE_PAGE_LIMIT = 15
"""Most pages a document may have for online (synchronous) processing."""
_FORMATS = (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff")
_KIND_OF_TYPE: dict[str, tuple[str, ...]] = {
    "invoice": ("invoice",),
    "expense": ("receipt", "invoice"),
    "id_proofing": ("identity_document",),
    "form_parser": ("form", "invoice", "receipt", "identity_document"),
    "ocr": ("form", "invoice", "receipt", "identity_document"),
}
_TYPE_NAMES = {
    "invoice": ("INVOICE_PROCESSOR", "Invoice parser: supplier, invoice id, dates, amounts and line items."),
    "expense": ("EXPENSE_PROCESSOR", "Expense parser: receipts and invoices into merchant, date, tax and total."),
    "id_proofing": ("ID_PROOFING_PROCESSOR", "Identity document parser: names, birth date, number and expiry."),
    "form_parser": ("FORM_PARSER_PROCESSOR", "Form parser: key-value pairs, checkboxes and tables of any form."),
    "ocr": ("OCR_PROCESSOR", "Document OCR: text, lines and words in reading order."),
}
_ITEMS = ("Consulting hours", "Cloud hosting", "Support plan", "Hardware lease", "Training day", "Licence renewal")
_SHOPS = ("Cafe Lumen", "Northside Taxi", "Hotel Aurora", "Office Depot Plus", "Metro Parking")
_FORM_KEYS = ("Full name", "Email", "Phone", "Company", "Start date", "Signature present")


# -- the documents ------------------------------------------------------------------------------------------


class Entity(Value):
    """A field read from a document."""

    type: str = Field(description="Field type (VENDOR_NAME, TOTAL, FIRST_NAME, ...).")
    mention_text: str = Field(description="The text as printed.")
    normalized_value: str | None = Field(default=None, description="Typed value: ISO date, minor units, e-mail.")
    confidence: float = Field(description="Confidence 0-1 (1.0 once a reviewer corrected it).")
    page: int = Field(default=1, description="Page the field is on.")
    corrected: bool = Field(default=False, description="Whether a human reviewer set it.")


class LineItem(Value):
    """A line of an invoice or receipt."""

    description: str = Field(description="ITEM.")
    quantity: int = Field(description="QUANTITY.")
    unit_price: Cents = Field(description="UNIT_PRICE in minor units.")
    amount: Cents = Field(description="PRICE: quantity x unit price, in minor units.")


class Analysis(BaseModel):
    """What a document at a URL says (the world model's reading)."""

    document_url: Url = Field(description="The document read.")
    kind: DocKind = Field(description="invoice, receipt, identity_document or form.")
    pages: int = Field(description="Number of pages.")
    entities: list[Entity] = Field(description="Fields read, in reading order.")
    line_items: list[LineItem] = Field(description="Line items (invoices and receipts).")
    supplier_name: str | None = Field(description="Supplier or merchant (invoices and receipts).")
    supplier_email: Email | None = Field(description="Supplier's billing e-mail when printed.")
    total: Cents | None = Field(description="Total in minor units (invoices and receipts).")
    currency: Currency | None = Field(description="Currency of the amounts.")
    person_name: str | None = Field(description="Holder's full name (IDs) or the form's name field.")
    min_confidence: float = Field(description="Lowest confidence of any field.")


def _pick_kind(url: str, r: random.Random) -> str:
    low = url.lower()
    for words, kind in (
        (("invoice", "inv-", "bill"), "invoice"),
        (("receipt", "expense"), "receipt"),
        (("passport", "license", "licence", "/id", "id-card", "identity"), "identity_document"),
        (("form", "w9", "application"), "form"),
    ):
        if any(w in low for w in words):
            return kind
    return r.choice(("invoice", "receipt", "identity_document", "form"))


def _check_url(url: str, field: str = "document_url") -> None:
    path = url.split("?", 1)[0].lower()
    if not path.startswith("https://"):
        raise RuleViolation("documents are read over https only", field=field, hint="give an https:// URL")
    if not path.endswith(_FORMATS):
        raise RuleViolation(
            f"unsupported document format at {url} (UnsupportedDocumentException)",
            field=field,
            hint="give a PDF, PNG, JPEG or TIFF file",
        )


def _conf(r: random.Random, blurry: bool) -> float:
    return round(r.uniform(0.55, 0.8) if blurry and r.random() < 0.5 else r.uniform(0.9, 0.995), 3)


def _read(pop: Population, today: dt.date, url: str) -> Analysis:
    digest = hashlib.sha256(f"docai:{pop.seed}:{url}".encode()).hexdigest()
    r = random.Random(digest)
    kind = _pick_kind(url, r)
    blurry = "scan" in url.lower() or r.random() < 0.25
    ents: list[Entity] = []
    items: list[LineItem] = []
    supplier = email = person = currency = None
    total = None

    def add(t: str, text: str, norm: str | None = None, page: int = 1) -> None:
        ents.append(Entity(type=t, mention_text=text, normalized_value=norm, confidence=_conf(r, blurry), page=page))

    if kind in ("invoice", "receipt"):
        currency = pop.home.place.currency
        day = today - dt.timedelta(days=r.randint(1, 60))
        if kind == "invoice":
            company = r.choice(pop.customers) if pop.customers else pop.home
            contact = pop.first_contact(company)
            supplier, email = company.name, contact.email if contact else None
            number = f"INV-{r.randint(1000, 99999)}"
            add("VENDOR_NAME", company.name)
            if email:
                add("VENDOR_EMAIL", email, email)
            add("INVOICE_RECEIPT_ID", number, number)
            add("INVOICE_RECEIPT_DATE", day.strftime("%d %b %Y"), day.isoformat())
            due = day + dt.timedelta(days=30)
            add("DUE_DATE", due.strftime("%d %b %Y"), due.isoformat())
            for _ in range(r.randint(1, 4)):
                q, unit = r.randint(1, 10), r.randint(20, 900) * 100
                items.append(LineItem(description=r.choice(_ITEMS), quantity=q, unit_price=unit, amount=q * unit))
        else:
            supplier = r.choice(_SHOPS)
            add("VENDOR_NAME", supplier)
            add("INVOICE_RECEIPT_DATE", day.isoformat(), day.isoformat())
            q, unit = 1, r.randint(300, 25000)
            items.append(LineItem(description="Purchase", quantity=q, unit_price=unit, amount=unit))
        sub = sum(i.amount for i in items)
        tax = sub * r.choice((0, 5, 10, 19, 20)) // 100
        total = sub + tax
        for t, v in (("SUBTOTAL", sub), ("TAX", tax), ("TOTAL", total)):
            add(t, f"{v / 100:,.2f} {currency}", str(v))
    elif kind == "identity_document":
        p = r.choice(pop.people)
        person = p.name
        id_type = r.choice(("DRIVER LICENSE FRONT", "PASSPORT"))
        number = f"{r.choice('ABCDEFGHJK')}{r.randint(10_000_000, 99_999_999)}"
        expiry = today + dt.timedelta(days=r.randint(-200, 3000))
        add("FIRST_NAME", p.first_name.upper())
        add("LAST_NAME", p.last_name.upper())
        add("DATE_OF_BIRTH", p.birth_date.strftime("%m/%d/%Y"), p.birth_date.isoformat())
        add("DOCUMENT_NUMBER", number, number)
        add("EXPIRATION_DATE", expiry.strftime("%m/%d/%Y"), expiry.isoformat())
        add("ID_TYPE", id_type, id_type)
    else:
        p = r.choice(pop.people)
        person = p.name
        employer = pop.company_of(p)
        values = (p.name, p.email, p.phone, employer.name if employer else "", today.isoformat(), "yes")
        for key, value in zip(_FORM_KEYS, values, strict=True):
            add(key.upper().replace(" ", "_"), value, value if key in ("Email", "Start date") else None)
    pages = 1 if kind in ("receipt", "identity_document") else r.choice((1, 1, 2, 3, 18))
    return Analysis(
        document_url=url,
        kind=kind,
        pages=pages,
        entities=ents,
        line_items=items,
        supplier_name=supplier,
        supplier_email=email,
        total=total,
        currency=currency,
        person_name=person,
        min_confidence=min(e.confidence for e in ents),
    )


def _analysis(ctx: Ctx, url: str, field: str = "document_url") -> Analysis:
    _check_url(url, field)
    return _read(ctx.population, ctx.today(), url)


class TextLine(BaseModel):
    """A line of detected text."""

    text: str = Field(description="The line.")
    confidence: float = Field(description="Confidence 0-1.")
    page: int = Field(description="Page number.")


class DetectedText(BaseModel):
    """Text detected in a document (DetectDocumentText)."""

    document_url: Url = Field(description="The document.")
    pages: int = Field(description="Number of pages.")
    lines: list[TextLine] = Field(description="Lines in reading order.")
    word_count: int = Field(description="Words detected.")


class Classification(BaseModel):
    """The document type a classifier assigns."""

    document_url: Url = Field(description="The document.")
    kind: DocKind = Field(description="Most likely type.")
    confidence: float = Field(description="Confidence of that type.")
    suggested_processor_type: ProcessorType = Field(description="The processor type that extracts it best.")


class ProcessorTypeInfo(BaseModel):
    """A processor type (Document AI fetchProcessorTypes)."""

    type: ProcessorType = Field(description="Our name for the type.")
    api_name: str = Field(description="The product's name (INVOICE_PROCESSOR ...).")
    description: str = Field(description="What it extracts.")
    document_kinds: list[DocKind] = Field(description="Document kinds it reads well.")


# -- open-world tools -------------------------------------------------------------------------------------

_INVOICE_URL = "https://files.example.com/ap/invoice-2291.pdf"
_ID_URL = "https://files.example.com/kyc/passport-scan.jpg"
_FORM_URL = "https://files.example.com/hr/application-form.pdf"


@service.tool(intent="read an invoice or receipt", open_world=True, example=fixed_example(document_url=_INVOICE_URL))
def analyze_expense(ctx: Ctx, document_url: DocUrl) -> Analysis:
    """Read an invoice or receipt into summary fields and line items (AnalyzeExpense).

    Args:
        document_url: https URL of the file (PDF, PNG, JPEG, TIFF).
    """
    a = _analysis(ctx, document_url)
    if a.kind not in ("invoice", "receipt"):
        raise RuleViolation(
            f"the document is {a.kind.replace('_', ' ')}, not an invoice or receipt",
            field="document_url",
            hint="use docai__analyze_id or docai__analyze_document for it",
        )
    return a


@service.tool(intent="read an identity document", open_world=True, example=fixed_example(document_url=_ID_URL))
def analyze_id(ctx: Ctx, document_url: DocUrl) -> Analysis:
    """Read a passport or driver's licence into names, birth date, number, expiry and type (AnalyzeID).

    Args:
        document_url: https URL of the image or PDF.
    """
    a = _analysis(ctx, document_url)
    if a.kind != "identity_document":
        raise RuleViolation(
            f"the document is {a.kind}, not an identity document",
            field="document_url",
            hint="use docai__analyze_expense or docai__analyze_document for it",
        )
    return a


@service.tool(intent="read a form's fields", open_world=True, example=fixed_example(document_url=_FORM_URL))
def analyze_document(ctx: Ctx, document_url: DocUrl) -> Analysis:
    """Read any document's key-value pairs (AnalyzeDocument with FORMS); works on every kind.

    Args:
        document_url: https URL of the file.
    """
    return _analysis(ctx, document_url)


@service.tool(intent="detect the text of a document", open_world=True, example=fixed_example(document_url=_FORM_URL))
def detect_document_text(ctx: Ctx, document_url: DocUrl) -> DetectedText:
    """Detect the lines of printed text in a document (DetectDocumentText / OCR).

    Args:
        document_url: https URL of the file.
    """
    a = _analysis(ctx, document_url)
    lines = [TextLine(text=e.mention_text, confidence=e.confidence, page=e.page) for e in a.entities]
    lines += [
        TextLine(text=f"{i.description} {i.quantity} x {i.unit_price / 100:.2f}", confidence=0.97, page=1)
        for i in a.line_items
    ]
    return DetectedText(
        document_url=document_url, pages=a.pages, lines=lines, word_count=sum(len(x.text.split()) for x in lines)
    )


@service.tool(intent="classify a document", open_world=True, example=fixed_example(document_url=_INVOICE_URL))
def classify_document(ctx: Ctx, document_url: DocUrl) -> Classification:
    """Classify a document as invoice, receipt, identity document or form, with the processor type to use.

    Args:
        document_url: https URL of the file.
    """
    a = _analysis(ctx, document_url)
    best = {"invoice": "invoice", "receipt": "expense", "identity_document": "id_proofing", "form": "form_parser"}
    conf = round(0.8 + 0.19 * (int(hashlib.sha256(document_url.encode()).hexdigest()[:4], 16) / 65535), 3)
    return Classification(
        document_url=document_url,
        kind=a.kind,
        confidence=conf,
        suggested_processor_type=best[a.kind],
    )


@service.tool(intent="list the processor types", open_world=True)
def list_processor_types(ctx: Ctx) -> list[ProcessorTypeInfo]:
    """List the processor types one can create, with what each extracts (fetchProcessorTypes)."""
    return [
        ProcessorTypeInfo(type=t, api_name=n, description=d, document_kinds=list(_KIND_OF_TYPE[t]))
        for t, (n, d) in _TYPE_NAMES.items()
    ]


# -- stored state -----------------------------------------------------------------------------------------


class Processor(Timestamped):
    """A processor: a configured parser documents are sent to."""

    id: ProcessorId
    display_name: Title
    """Its name (unique)."""
    type: ProcessorType
    """What it parses."""
    owner_email: Email
    """The employee who runs it."""
    state: Literal["enabled", "disabled"] = "enabled"
    """enabled (processes) or disabled (must be, to be deleted)."""
    confidence_threshold: Annotated[float, Field(ge=0.0, le=1.0)] = 0.85
    """A document with any field below this goes to human review."""
    human_review: bool = True
    """Whether low-confidence documents go to review (else they complete as read)."""
    documents_processed: int = 0
    """Documents processed so far."""


class Document(Timestamped):
    """A document a processor processed."""

    id: DocumentId
    processor_id: ProcessorId
    """The processor."""
    document_url: Url
    """The file."""
    kind: DocKind
    """What it is."""
    pages: int
    """Pages."""
    entities: list[Entity]
    """Fields read."""
    supplier_name: str | None = None
    """Supplier (invoices, receipts)."""
    supplier_email: Email | None = None
    """Supplier e-mail."""
    total: Cents | None = None
    """Total in minor units."""
    currency: Currency | None = None
    """Currency of the total."""
    person_name: str | None = None
    """Holder of an ID or the name on a form."""
    status: Literal["completed", "in_review", "reviewed", "review_stopped"] = "completed"
    """completed, in_review, reviewed (by a human) or review_stopped."""


class ReviewTask(Timestamped):
    """A human-review task for a low-confidence document (Human-in-the-Loop / A2I human loop)."""

    id: ReviewTaskId
    document_id: DocumentId
    """The document."""
    processor_id: ProcessorId
    """Its processor."""
    low_fields: list[str]
    """Field types below the threshold."""
    status: Literal["pending", "in_progress", "completed", "stopped"] = "pending"
    """pending, in_progress (claimed), completed or stopped."""
    reviewer_email: Email | None = None
    """The employee who claimed it."""
    corrections: int = 0
    """Fields corrected."""
    completed_at: DateTime | None = None
    """When it was completed."""


def _staff(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _guard_processor(ctx: Ctx, new: Processor, old: Processor | None) -> None:
    if new.owner_email not in _staff(ctx):
        raise RuleViolation(
            f"{new.owner_email} is not an employee", field="owner_email", hint="a processor is run by staff"
        )


def _guard_processor_delete(ctx: Ctx, new: None, old: Processor) -> None:
    if old.state != "disabled":
        raise RuleViolation(
            f"processor {old.id} is enabled", field="processor_id", hint="disable it with docai__disable_processor"
        )
    if ctx.first(ReviewTask, processor_id=old.id, status="pending") or ctx.first(
        ReviewTask, processor_id=old.id, status="in_progress"
    ):
        raise RuleViolation(
            f"processor {old.id} has open review tasks", field="processor_id", hint="complete or stop them first"
        )


def _guard_task(ctx: Ctx, new: ReviewTask, old: ReviewTask | None) -> None:
    if new.status == "stopped" and old is not None:
        doc = ctx.get(Document, new.document_id)
        ctx.update(doc, status="review_stopped")


def _guard_document_delete(ctx: Ctx, new: None, old: Document) -> None:
    for t in ctx.where(ReviewTask, document_id=old.id):
        if t.status in ("pending", "in_progress"):
            raise RuleViolation(
                f"document {old.id} is under review in {t.id}", field="document_id", hint="stop the review task first"
            )
        ctx.delete(t)


processors = service.resource(
    Processor,
    name="processor",
    plural="processors",
    prefix="dpr",
    create=("display_name", "type", "owner_email", "confidence_threshold", "human_review"),
    filters=("type", "state", "owner_email"),
    search=("display_name",),
    update=("display_name", "owner_email", "confidence_threshold", "human_review"),
    unique=("display_name",),
    transitions={
        "enable": Transition("state", ("disabled",), "enabled", "enable the processor"),
        "disable": Transition("state", ("enabled",), "disabled", "disable the processor"),
    },
    guard_create=_guard_processor,
    guard_update=_guard_processor,
    guard_delete=_guard_processor_delete,
    title="document processor",
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="ddo",
    create=False,
    filters=("processor_id", "status", "kind", "supplier_email"),
    search=("supplier_name", "person_name", "document_url"),
    guard_delete=_guard_document_delete,
    title="processed document",
)
review_tasks = service.resource(
    ReviewTask,
    name="review_task",
    plural="review_tasks",
    prefix="drt",
    create=False,
    delete=False,
    filters=("document_id", "processor_id", "status", "reviewer_email"),
    transitions={
        "stop": Transition("status", ("pending", "in_progress"), "stopped", "stop the review task", destructive=True)
    },
    guard_update=_guard_task,
    title="human review task",
)


def _store(ctx: Ctx, proc: Processor, a: Analysis) -> Document:
    low = [e.type for e in a.entities if e.confidence < proc.confidence_threshold]
    review = proc.human_review and bool(low)
    doc = ctx.create(
        Document,
        processor_id=proc.id,
        document_url=a.document_url,
        kind=a.kind,
        pages=a.pages,
        entities=a.entities,
        supplier_name=a.supplier_name,
        supplier_email=a.supplier_email,
        total=a.total,
        currency=a.currency,
        person_name=a.person_name,
        status="in_review" if review else "completed",
    )
    if review:
        ctx.create(ReviewTask, document_id=doc.id, processor_id=proc.id, low_fields=low)
    ctx.update(proc, documents_processed=proc.documents_processed + 1)
    return doc


def _example_process(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Processor, state="enabled", type="invoice")
    return None if p is None else {"processor_id": p.id, "document_url": "https://files.example.com/ap/invoice-77.pdf"}


@service.tool(intent="process a document with a processor", write=True, example=_example_process)
def process_document(ctx: Ctx, processor_id: ProcessorId, document_url: DocUrl) -> Document:
    """Process a document with a processor and store the result; low confidence opens a human-review task.

    Args:
        processor_id: The processor (enabled; its type must read this kind of document).
        document_url: https URL of the file (at most 15 pages).
    """
    proc = ctx.get(Processor, processor_id, field="processor_id")
    if proc.state != "enabled":
        raise RuleViolation(
            f"processor {proc.id} is disabled", field="processor_id", hint="enable it with docai__enable_processor"
        )
    a = _analysis(ctx, document_url)
    if a.kind not in _KIND_OF_TYPE[proc.type]:
        raise RuleViolation(
            f"a {proc.type} processor does not read {a.kind.replace('_', ' ')}s",
            field="processor_id",
            hint="classify it with docai__classify_document and use a processor of the suggested type",
        )
    if a.pages > ONLINE_PAGE_LIMIT:
        raise RuleViolation(
            f"the document has {a.pages} pages; online processing takes at most {ONLINE_PAGE_LIMIT}",
            field="document_url",
            hint="split the file into parts of at most 15 pages",
        )
    return _store(ctx, proc, a)


def _open_task(ctx: Ctx, task_id: str, status: str) -> ReviewTask:
    t = ctx.get(ReviewTask, task_id, field="task_id")
    if t.status != status:
        raise RuleViolation(f"review task {t.id} is {t.status}, not {status}", field="task_id", hint="list open tasks")
    return t


def _example_claim(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(ReviewTask, status="pending")
    return None if t is None else {"task_id": t.id, "reviewer_email": ctx.population.employees[0].email}


@service.tool(intent="claim the review task", write=True, example=_example_claim)
def claim_review_task(ctx: Ctx, task_id: ReviewTaskId, reviewer_email: Email) -> ReviewTask:
    """Claim a pending review task for a reviewer, who then corrects and completes it.

    Args:
        task_id: The task (pending).
        reviewer_email: The employee reviewing it.
    """
    t = _open_task(ctx, task_id, "pending")
    if reviewer_email not in _staff(ctx):
        raise RuleViolation(f"{reviewer_email} is not an employee", field="reviewer_email", hint="staff review")
    return ctx.update(t, status="in_progress", reviewer_email=reviewer_email)


def _example_correct(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(ReviewTask, status="in_progress")
    if t is None:
        return None
    return {"task_id": t.id, "field_type": t.low_fields[0], "value": "corrected value"}


@service.tool(intent="correct a field of the reviewed document", write=True, example=_example_correct)
def correct_field(
    ctx: Ctx, task_id: ReviewTaskId, field_type: FieldType, value: Annotated[str, StringConstraints(max_length=500)]
) -> Document:
    """Set a field's value in a claimed review; the field gets confidence 1.0 and is marked corrected.

    Args:
        task_id: The task (in progress).
        field_type: The field's type (VENDOR_NAME, TOTAL ...), one the document has.
        value: The correct text.
    """
    t = _open_task(ctx, task_id, "in_progress")
    doc = ctx.get(Document, t.document_id)
    if field_type not in {e.type for e in doc.entities}:
        raise NotFound(
            f"document {doc.id} has no field {field_type}",
            field="field_type",
            hint=f"one of {', '.join(e.type for e in doc.entities)}",
        )
    if not value.strip():
        raise RuleViolation("a correction needs a value", field="value", hint="type the value as printed")
    ents = [
        e.model_copy(update={"mention_text": value.strip(), "confidence": 1.0, "corrected": True})
        if e.type == field_type
        else e
        for e in doc.entities
    ]
    ctx.update(t, corrections=t.corrections + 1)
    return ctx.update(doc, entities=ents)


@service.tool(
    intent="complete the review task",
    write=True,
    example=first_example(ReviewTask, "task_id", where={"status": "in_progress"}),
)
def complete_review_task(ctx: Ctx, task_id: ReviewTaskId) -> ReviewTask:
    """Complete a claimed review: every low-confidence field must have been corrected or confirmed by then.

    Confirming a field as read is correcting it to its own text.

    Args:
        task_id: The task (in progress).
    """
    t = _open_task(ctx, task_id, "in_progress")
    doc = ctx.get(Document, t.document_id)
    open_fields = [e.type for e in doc.entities if e.type in t.low_fields and not e.corrected]
    if open_fields:
        raise RuleViolation(
            f"fields still unchecked: {', '.join(open_fields)}",
            field="task_id",
            hint="correct (or confirm) each with docai__correct_field",
        )
    ctx.update(doc, status="reviewed")
    return ctx.update(t, status="completed", completed_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Finance's invoice and expense processors, an ID processor (disabled) and documents with reviews."""
    pop = s.population
    today = s.now.date()
    fin = pop.staff("Finance", fallback=3)
    ops = pop.staff("Operations", "People", fallback=3)
    plan = (
        ("Supplier onboarding IDs", "id_proofing", ops[0].email, "disabled", 0.85, "passport"),
        ("AP invoices", "invoice", fin[0].email, "enabled", 0.9, "invoice"),
        ("Expense receipts", "expense", fin[-1].email, "enabled", 0.8, "receipt"),
    )
    for k, (name, ptype, owner, state, thr, word) in enumerate(plan):
        proc = s.create(
            Processor,
            display_name=name,
            type=ptype,
            owner_email=owner,
            state="enabled",
            confidence_threshold=thr,
            human_review=state == "enabled",
            created_at=s.ago(days=300 - 50 * k),
            updated_at=s.ago(days=30),
        )
        n = tasks = 0
        for i in range(40):
            if n == 4:
                break
            url = f"https://files.example.com/{ptype}/{word}-{1000 + 7 * i}.pdf"
            a = _read(pop, today, url)
            if a.pages > ONLINE_PAGE_LIMIT or a.kind not in _KIND_OF_TYPE[ptype]:
                continue
            n += 1
            low = [e.type for e in a.entities if e.confidence < thr] if state == "enabled" else []
            claimed = bool(low) and tasks % 2 == 1
            tasks += bool(low)
            ents = [
                e.model_copy(update={"confidence": 1.0, "corrected": True}) if claimed and e.type in low else e
                for e in a.entities
            ]
            doc = s.create(
                Document,
                processor_id=proc.id,
                document_url=url,
                kind=a.kind,
                pages=a.pages,
                entities=ents,
                supplier_name=a.supplier_name,
                supplier_email=a.supplier_email,
                total=a.total,
                currency=a.currency,
                person_name=a.person_name,
                status="in_review" if low else "completed",
                created_at=s.ago(days=20 - n),
                updated_at=s.ago(days=20 - n),
            )
            if low:
                s.create(
                    ReviewTask,
                    document_id=doc.id,
                    processor_id=proc.id,
                    low_fields=low,
                    status="in_progress" if claimed else "pending",
                    reviewer_email=fin[0].email if claimed else None,
                    corrections=len(low) if claimed else 0,
                    created_at=s.ago(days=20 - n),
                    updated_at=s.ago(days=19 - n),
                )
        s.update(proc, documents_processed=n, state=state)
