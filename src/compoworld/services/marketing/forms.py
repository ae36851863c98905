"""Formstack Flow: conversational forms with typed fields, logic jumps, hidden fields, responses and webhooks.

Modeled on the Typeform Create, Responses and Webhooks APIs (Forms with
fields, ``logic`` jumps and ``hidden`` fields, Responses with typed answers,
Webhooks with delivery logs, form insights): only published forms that are
open take responses, a form closes itself at its response limit, answers must
fit their field (an e-mail for an email field, a listed choice, a rating
within its steps), every required field on the path that the logic jumps take
must be answered and fields the logic skipped must not be, logic only jumps
forward, a form publishes only when every choice field has two choices, and
the fields of a form that has responses cannot be deleted.
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
from compoworld.engine.types import Date, DateTime, Email, IdOf, Language, OrderNumber, Phone, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.commerce import first_order_numbers

__all__ = ["service"]

service = Service(
    "forms",
    title="Formstack Flow",
    category="forms_surveys",
    modeled_on="Typeform Create API, Responses API and Webhooks API (forms, fields, logic jumps, hidden fields, "
    "responses, webhooks, insights)",
    description="Conversational forms of the home company (feedback, returns, registrations): typed fields "
    "with validation, logic jumps, hidden fields, submitted responses, per-field insights and webhooks "
    "that deliver each response to other systems.",
)

FormId = Annotated[str, IdOf("forms.form")]
FieldId = Annotated[str, IdOf("forms.field")]
LogicId = Annotated[str, IdOf("forms.logic_jump")]
ResponseId = Annotated[str, IdOf("forms.response")]
WebhookId = Annotated[str, IdOf("forms.webhook")]
Ref = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{1,40}$")]
FieldType = Literal[
    "short_text",
    "long_text",
    "email",
    "phone_number",
    "number",
    "multiple_choice",
    "dropdown",
    "yes_no",
    "rating",
    "opinion_scale",
    "date",
    "website",
    "statement",
]
Hidden = Literal["order_number", "customer_email", "utm_source"]
Op = Literal["is", "is_not", "greater_than", "lower_than", "always"]
Choice = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
CHOICE_TYPES = ("multiple_choice", "dropdown")
TEXT_LIMITS = {"short_text": 256, "long_text": 10_000}
PENDING_URL = "https://forms.example/to/pending"


def _public_url(form_id: str) -> str:
    return f"https://forms.example/to/{form_id.replace('_', '')}"


class Form(Timestamped):
    """A form: its settings and status; its fields and logic are separate records."""

    id: FormId
    title: Title
    """Form title."""
    owner_email: Email
    """E-mail of the person who owns the form."""
    status: Literal["draft", "published", "closed"] = "draft"
    """draft (not live), published (taking responses) or closed."""
    language: Language = "en"
    """Language of the form."""
    hidden_fields: tuple[Hidden, ...] = ()
    """Hidden fields a response may carry from the link it was opened with."""
    response_limit: Annotated[int, Field(ge=1, le=100000)] | None = None
    """The form closes once it has this many responses; null: no limit."""
    close_at: DateTime | None = None
    """The form takes no responses after this time."""
    thank_you_message: Text = "Thanks for your answers!"
    """Shown after submitting."""
    public_url: Url
    """Link respondents open the form with."""
    published_at: DateTime | None = None
    """When it was first published."""


class FormField(Record):
    """One question (or statement) of a form."""

    id: FieldId
    form_id: FormId
    """The form."""
    ref: Ref
    """Stable reference used by answers and logic; unique in the form."""
    title: Title
    """The question."""
    type: FieldType
    """What kind of answer it takes."""
    position: Annotated[int, Field(ge=1, le=500)]
    """Order in the form (1 is first)."""
    required: bool = False
    """Whether it must be answered when the respondent reaches it."""
    choices: tuple[Choice, ...] = ()
    """Choice labels of multiple_choice and dropdown fields."""
    min_value: int | None = None
    """Smallest number accepted by a number field."""
    max_value: int | None = None
    """Largest number accepted by a number field."""
    steps: Annotated[int, Field(ge=3, le=10)] = 5
    """Number of steps of a rating field."""


class LogicJump(Record):
    """A jump: after a field, when its answer matches, go to another field or to the end."""

    id: LogicId
    form_id: FormId
    """The form."""
    from_ref: Ref
    """The field whose answer is tested."""
    op: Op
    """is / is_not (choice or yes/no), greater_than / lower_than (numbers, ratings), always."""
    value: Annotated[str, StringConstraints(max_length=100)] | None = None
    """The value compared (a choice label, 'true'/'false', or a number)."""
    to_ref: Ref | None = None
    """The field to jump to (later in the form); null ends the form."""
    priority: Annotated[int, Field(ge=1, le=100)] = 1
    """Jumps of one field are tested in priority order; the first that matches wins."""


class Answer(Value):
    """The answer to one field; set the one value that fits the field's type."""

    field_ref: Ref = Field(description="The field's ref.")
    text: Annotated[str, StringConstraints(max_length=10000)] | None = Field(
        default=None, description="For short_text and long_text."
    )
    email: Email | None = Field(default=None, description="For email fields.")
    phone_number: Phone | None = Field(default=None, description="For phone_number fields.")
    number: int | None = Field(
        default=None, description="For number, rating (1..steps) and opinion_scale (0..10) fields."
    )
    boolean: bool | None = Field(default=None, description="For yes_no fields.")
    choice: Choice | None = Field(default=None, description="For multiple_choice and dropdown: the label.")
    date: Date | None = Field(default=None, description="For date fields.")
    url: Url | None = Field(default=None, description="For website fields.")


class Response(Record):
    """A submitted response."""

    id: ResponseId
    form_id: FormId
    """The form."""
    answers: tuple[Answer, ...]
    """The answers, in form order."""
    respondent_email: Email | None = None
    """The address given in the form's first email field."""
    order_number: OrderNumber | None = None
    """Hidden field: the order the response is about."""
    customer_email: Email | None = None
    """Hidden field: the customer's e-mail from the link."""
    utm_source: Annotated[str, StringConstraints(max_length=60)] | None = None
    """Hidden field: traffic source."""
    submitted_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


class Webhook(Record):
    """A webhook that receives each new response of a form."""

    id: WebhookId
    form_id: FormId
    """The form."""
    tag: Annotated[str, StringConstraints(min_length=1, max_length=40, strip_whitespace=True)]
    """Name of the webhook; unique per form."""
    url: Url
    """Endpoint (https) the response is posted to."""
    enabled: bool = True
    """Disabled webhooks receive nothing."""


class Delivery(Record):
    """One delivery of a response to a webhook."""

    id: Annotated[str, IdOf("forms.delivery")]
    webhook_id: WebhookId
    """The webhook."""
    response_id: ResponseId
    """The response delivered."""
    url: Url
    """Where it was posted."""
    status_code: Annotated[int, Field(ge=100, le=599)]
    """HTTP status of the endpoint's answer."""
    delivered_at: Annotated[DateTime, CREATED]
    """When."""


# -- rules ------------------------------------------------------------------------------------


def _fields(ctx: Ctx, form_id: str) -> list[FormField]:
    return sorted(ctx.where(FormField, form_id=form_id), key=lambda f: (f.position, f.id))


def _guard_form(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "closed":
        raise RuleViolation(
            f"form {old.title} is closed", field="form_id", hint="duplicate it with forms__duplicate_form to reuse it"
        )
    removed = old is not None and set(old.hidden_fields) - set(new.hidden_fields)
    if removed and ctx.first(Response, form_id=old.id) is not None:
        raise RuleViolation(
            "hidden fields of a form with responses cannot be removed",
            field="hidden_fields",
            hint="add fields only; responses refer to the existing ones",
        )


def _check_field_settings(f: FormField) -> None:
    if f.choices and f.type not in CHOICE_TYPES:
        raise RuleViolation(f"a {f.type} field has no choices", field="choices", hint="leave choices empty")
    if len({c.casefold() for c in f.choices}) != len(f.choices):
        raise RuleViolation("choices repeat", field="choices", hint="list each choice once")
    if (f.min_value is not None or f.max_value is not None) and f.type != "number":
        raise RuleViolation("only number fields take limits", field="min_value", hint="leave min/max empty")
    if f.min_value is not None and f.max_value is not None and f.min_value > f.max_value:
        raise RuleViolation("min_value is above max_value", field="min_value", hint="swap them")
    if f.type == "statement" and f.required:
        raise RuleViolation("a statement takes no answer and cannot be required", field="required", hint="set false")


def _guard_field_update(ctx: Ctx, new: Any, old: Any) -> None:
    _check_field_settings(new)
    if ctx.first(Response, form_id=old.form_id) is not None:
        lost = set(old.choices) - set(new.choices)
        if lost:
            raise RuleViolation(
                f"responses may use choices {sorted(lost)}; a form with responses keeps its choices",
                field="choices",
                hint="add choices only",
            )


def _guard_field_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Response, form_id=old.form_id) is not None:
        raise RuleViolation(
            "the form has responses; deleting a field would lose their answers",
            field="field_id",
            hint="make the field optional, or duplicate the form and edit the copy",
        )
    for jump in ctx.where(LogicJump, form_id=old.form_id):
        if old.ref in (jump.from_ref, jump.to_ref):
            raise RuleViolation(
                f"logic jump {jump.id} uses field {old.ref}",
                field="field_id",
                hint="delete that logic jump first",
            )


def _guard_logic(ctx: Ctx, new: Any, old: Any) -> None:
    fields = {f.ref: f for f in _fields(ctx, new.form_id)}
    src = fields.get(new.from_ref)
    if src is None:
        raise RuleViolation(f"the form has no field {new.from_ref}", field="from_ref", hint="use a field's ref")
    if new.to_ref is not None:
        dst = fields.get(new.to_ref)
        if dst is None:
            raise RuleViolation(f"the form has no field {new.to_ref}", field="to_ref", hint="use a field's ref")
        if dst.position <= src.position:
            raise RuleViolation(
                "logic jumps only go forward", field="to_ref", hint=f"jump to a field after {src.ref}, or end the form"
            )
    if new.op == "always":
        if new.value is not None:
            raise RuleViolation("an always jump has no value", field="value", hint="leave value empty")
        return
    if new.value is None:
        raise RuleViolation(f"the {new.op} condition needs a value", field="value", hint="give the value compared")
    if new.op in ("greater_than", "lower_than"):
        if src.type not in ("number", "rating", "opinion_scale"):
            raise RuleViolation(f"{new.op} compares numbers; {src.ref} is {src.type}", field="op", hint="use is/is_not")
        try:
            int(new.value)
        except ValueError:
            raise RuleViolation("the value must be a whole number", field="value", hint="e.g. '3'") from None
    elif src.type in CHOICE_TYPES and new.value not in src.choices:
        raise RuleViolation(
            f"{new.value!r} is not a choice of {src.ref}", field="value", hint=f"use one of {list(src.choices)}"
        )
    elif src.type == "yes_no" and new.value not in ("true", "false"):
        raise RuleViolation("yes/no values are 'true' or 'false'", field="value", hint="use 'true' or 'false'")


def _guard_webhook(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.url.startswith("https://"):
        raise RuleViolation("webhooks post only to https endpoints", field="url", hint="use an https:// URL")
    for other in ctx.where(Webhook, form_id=new.form_id, tag=new.tag):
        if other.id != new.id:
            raise Conflict(f"the form already has a webhook tagged {new.tag}", field="tag", hint="pick another tag")


forms = service.resource(
    Form,
    name="form",
    plural="forms",
    prefix="frm",
    create=False,
    filters=("status", "owner_email", "language"),
    search=("title",),
    update=("title", "hidden_fields", "response_limit", "close_at", "thank_you_message"),
    delete=False,
    transitions={
        "close": Transition("status", ("published",), "closed", "close the form to new responses"),
    },
    guard_update=_guard_form,
)
form_fields = service.resource(
    FormField,
    name="field",
    plural="fields",
    prefix="fld",
    create=False,
    get=False,
    filters=("form_id", "type", "required"),
    search=("title",),
    update=("title", "required", "choices", "min_value", "max_value"),
    guard_update=_guard_field_update,
    guard_delete=_guard_field_delete,
    title="form field",
)
logic = service.resource(
    LogicJump,
    name="logic_jump",
    plural="logic_jumps",
    prefix="lj",
    create=False,
    get=False,
    filters=("form_id", "from_ref"),
    title="logic jump",
)
responses = service.resource(
    Response,
    name="response",
    plural="responses",
    prefix="rsp",
    create=False,
    filters=("form_id", "respondent_email", "order_number", "customer_email"),
    title="form response",
)
webhooks = service.resource(
    Webhook,
    name="webhook",
    plural="webhooks",
    prefix="wh",
    create=("form_id", "tag", "url", "enabled"),
    get=False,
    filters=("form_id", "enabled"),
    update=("url", "enabled"),
    guard_create=_guard_webhook,
    guard_update=_guard_webhook,
)
deliveries = service.resource(
    Delivery,
    name="delivery",
    plural="deliveries",
    prefix="dlv",
    create=False,
    get=False,
    filters=("webhook_id", "response_id"),
    delete=False,
    title="webhook delivery",
)


# -- answers and logic ------------------------------------------------------------------------

VALUE_OF: dict[str, str] = {
    "short_text": "text",
    "long_text": "text",
    "email": "email",
    "phone_number": "phone_number",
    "number": "number",
    "rating": "number",
    "opinion_scale": "number",
    "yes_no": "boolean",
    "multiple_choice": "choice",
    "dropdown": "choice",
    "date": "date",
    "website": "url",
}
VALUE_KEYS = ("text", "email", "phone_number", "number", "boolean", "choice", "date", "url")


def _value(a: Answer) -> Any:
    for k in VALUE_KEYS:
        v = getattr(a, k)
        if v is not None:
            return v
    return None


def _check_answer(f: FormField, a: Answer, where: str) -> None:
    expected = VALUE_OF.get(f.type)
    if expected is None:
        raise RuleViolation(f"{f.ref} is a statement and takes no answer", field=where, hint="leave it out")
    given = [k for k in VALUE_KEYS if getattr(a, k) is not None]
    if given != [expected]:
        raise RuleViolation(
            f"field {f.ref} is {f.type}: give exactly one '{expected}' value",
            field=where,
            hint=f"answer {f.ref} with {expected}",
        )
    v = getattr(a, expected)
    if f.type in TEXT_LIMITS and (not v.strip() or len(v) > TEXT_LIMITS[f.type]):
        raise RuleViolation(
            f"{f.ref} takes 1 to {TEXT_LIMITS[f.type]} characters", field=where, hint="shorten or fill in the text"
        )
    if f.type == "number" and (
        (f.min_value is not None and v < f.min_value) or (f.max_value is not None and v > f.max_value)
    ):
        raise RuleViolation(
            f"{f.ref} takes numbers from {f.min_value} to {f.max_value}", field=where, hint="give a number in range"
        )
    if f.type == "rating" and not 1 <= v <= f.steps:
        raise RuleViolation(f"{f.ref} is rated 1 to {f.steps}", field=where, hint=f"give 1..{f.steps}")
    if f.type == "opinion_scale" and not 0 <= v <= 10:
        raise RuleViolation(f"{f.ref} is scored 0 to 10", field=where, hint="give 0..10")
    if f.type in CHOICE_TYPES and v not in f.choices:
        raise RuleViolation(f"{v!r} is not a choice of {f.ref}", field=where, hint=f"choose one of {list(f.choices)}")


def _matches(jump: LogicJump, value: Any) -> bool:
    if jump.op == "always":
        return True
    if value is None:
        return False
    if jump.op in ("greater_than", "lower_than"):
        n = int(jump.value or 0)
        return bool(value > n) if jump.op == "greater_than" else bool(value < n)
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return (text == jump.value) == (jump.op == "is")


def _path(ctx: Ctx, form_id: str, answers: dict[str, Answer]) -> list[FormField]:
    """The fields a respondent with these answers goes through, following the logic jumps."""
    fields = _fields(ctx, form_id)
    jumps = sorted(ctx.where(LogicJump, form_id=form_id), key=lambda j: (j.priority, j.id))
    index = {f.ref: k for k, f in enumerate(fields)}
    out: list[FormField] = []
    k = 0
    while k < len(fields):
        f = fields[k]
        out.append(f)
        a = answers.get(f.ref)
        value = _value(a) if a is not None else None
        nxt = k + 1
        for j in jumps:
            if j.from_ref == f.ref and _matches(j, value):
                nxt = len(fields) if j.to_ref is None else index[j.to_ref]
                break
        k = nxt
    return out


def _open(ctx: Ctx, form: Form, field: str) -> None:
    if form.status != "published":
        raise RuleViolation(
            f"form {form.title} is {form.status} and takes no responses",
            field=field,
            hint="publish it with forms__publish_form" if form.status == "draft" else "closed forms stay closed",
        )
    if form.close_at is not None and ctx.now() >= form.close_at:
        raise RuleViolation(
            f"form {form.title} stopped taking responses at {form.close_at.isoformat()}",
            field=field,
            hint="move close_at later with forms__update_form",
        )


# -- examples ---------------------------------------------------------------------------------


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    form = ctx.first(Form, title="Customer feedback")
    if form is None or form.status != "published":
        return None
    return {
        "form_id": form.id,
        "answers": [
            {"field_ref": "email", "email": "nina.park@example.org"},
            {"field_ref": "rating", "number": 5},
            {"field_ref": "category", "choice": "electronics"},
            {"field_ref": "recommend", "boolean": True},
        ],
        "hidden": {"utm_source": "newsletter"},
    }


# -- domain tools -----------------------------------------------------------------------------


def _example_logic(ctx: Ctx) -> dict[str, Any] | None:
    for form in ctx.where(Form, status="draft"):
        fields = _fields(ctx, form.id)
        if len(fields) >= 2:
            return {"form_id": form.id, "from_ref": fields[0].ref, "op": "always", "to_ref": fields[-1].ref}
    return None


@service.tool(intent="add a logic jump to the form", write=True, example=_example_logic)
def add_logic_jump(
    ctx: Ctx,
    form_id: FormId,
    from_ref: Ref,
    op: Op,
    value: Annotated[str, StringConstraints(max_length=100)] | None = None,
    to_ref: Ref | None = None,
    priority: Annotated[int, Field(ge=1, le=100)] = 1,
) -> LogicJump:
    """Add a logic jump: after field from_ref, when its answer matches, go to field to_ref (or end the form).

    Jumps only go forward; is/is_not compare a choice label or 'true'/'false',
    greater_than/lower_than compare numbers, always jumps unconditionally.

    Args:
        form_id: The form.
        from_ref: The field whose answer is tested.
        op: The comparison.
        value: The value compared (not for always).
        to_ref: The later field to jump to; omit to end the form.
        priority: Order among the field's jumps (lowest first).
    """
    form = ctx.get(Form, form_id, field="form_id")
    if form.status == "closed":
        raise RuleViolation(f"form {form.title} is closed", field="form_id", hint="duplicate it to change it")
    jump = ctx.create(
        LogicJump, form_id=form.id, from_ref=from_ref, op=op, value=value, to_ref=to_ref, priority=priority
    )
    _guard_logic(ctx, jump, None)
    return jump


@service.tool(intent="create a form", write=True)
def create_form(
    ctx: Ctx,
    title: Title,
    owner_email: Email,
    language: Language = "en",
    hidden_fields: list[Hidden] | None = None,
    response_limit: Annotated[int, Field(ge=1, le=100000)] | None = None,
) -> Form:
    """Create an empty draft form; add fields with forms__add_field, then publish it.

    Args:
        title: Form title.
        owner_email: E-mail of the form's owner.
        language: ISO 639-1 language of the form.
        hidden_fields: Hidden fields responses may carry (order_number, customer_email, utm_source).
        response_limit: Close the form after this many responses.
    """
    made = ctx.create(
        Form,
        title=title,
        owner_email=owner_email,
        language=language,
        hidden_fields=tuple(dict.fromkeys(hidden_fields or ())),
        response_limit=response_limit,
        public_url=PENDING_URL,
    )
    return ctx.update(made, public_url=_public_url(made.id))


@service.tool(
    intent="add a question to the form",
    write=True,
    example=first_example(
        Form, "form_id", where={"status": "draft"}, ref="extra_notes", title="Anything else?", type="long_text"
    ),
)
def add_field(
    ctx: Ctx,
    form_id: FormId,
    ref: Ref,
    title: Title,
    type: FieldType,
    required: bool = False,
    choices: list[Choice] | None = None,
    min_value: int | None = None,
    max_value: int | None = None,
    steps: Annotated[int, Field(ge=3, le=10)] = 5,
    position: Annotated[int, Field(ge=1, le=500)] | None = None,
) -> FormField:
    """Add a field to a draft or published form, at the end or at a position (later fields move down).

    Args:
        form_id: The form.
        ref: Reference unique in the form (lower case, digits, underscores).
        title: The question.
        type: The kind of answer.
        required: Whether respondents who reach it must answer.
        choices: Choice labels (multiple_choice and dropdown; at least two to publish).
        min_value: Smallest number accepted (number fields).
        max_value: Largest number accepted (number fields).
        steps: Steps of a rating field (3 to 10).
        position: Where to insert it (default: at the end).
    """
    form = ctx.get(Form, form_id, field="form_id")
    if form.status == "closed":
        raise RuleViolation(f"form {form.title} is closed", field="form_id", hint="duplicate it to change it")
    existing = _fields(ctx, form.id)
    if any(f.ref == ref for f in existing):
        raise Conflict(f"the form already has a field {ref}", field="ref", hint="choose another ref")
    last = len(existing) + 1
    pos = min(position or last, last)
    for f in reversed(existing):
        if f.position >= pos:
            ctx.update(f, position=f.position + 1)
    new = ctx.create(
        FormField,
        form_id=form.id,
        ref=ref,
        title=title,
        type=type,
        position=pos,
        required=required,
        choices=tuple(choices or ()),
        min_value=min_value,
        max_value=max_value,
        steps=steps,
    )
    _check_field_settings(new)
    return new


def _publish_problem(ctx: Ctx, form: Form) -> str | None:
    fields = _fields(ctx, form.id)
    if not any(f.type != "statement" for f in fields):
        return "it has no question"
    for f in fields:
        if f.type in CHOICE_TYPES and len(f.choices) < 2:
            return f"choice field {f.ref} has fewer than two choices"
    return None


@service.tool(
    intent="publish the form",
    write=True,
    example=first_example(
        Form, "form_id", where={"status": "draft"}, match=lambda ctx, f: _publish_problem(ctx, f) is None
    ),
)
def publish_form(ctx: Ctx, form_id: FormId) -> Form:
    """Publish a draft form so that it takes responses; it needs a question and two choices per choice field.

    Args:
        form_id: The draft form.
    """
    form = ctx.get(Form, form_id, field="form_id")
    if form.status != "draft":
        raise RuleViolation(f"form {form.title} is {form.status}", field="form_id", hint="only drafts are published")
    problem = _publish_problem(ctx, form)
    if problem is not None:
        raise RuleViolation(
            f"form {form.title} cannot be published: {problem}",
            field="form_id",
            hint="add questions or choices with forms__add_field / forms__update_field",
        )
    return ctx.update(form, status="published", published_at=ctx.now())


class HiddenValues(Value):
    """Hidden field values carried by the form link."""

    order_number: OrderNumber | None = Field(default=None, description="The order the response is about.")
    customer_email: Email | None = Field(default=None, description="The customer's e-mail.")
    utm_source: Annotated[str, StringConstraints(max_length=60)] | None = Field(
        default=None, description="Traffic source."
    )


@service.tool(intent="submit a response to the form", write=True, example=_example_submit)
def submit_response(
    ctx: Ctx,
    form_id: FormId,
    answers: Annotated[list[Answer], Field(max_length=200)],
    hidden: HiddenValues | None = None,
) -> Response:
    """Submit a response to a published, open form; enabled webhooks receive it.

    Every required field on the path the logic jumps take must be answered;
    fields the logic skips must not be. A form at its response limit closes.

    Args:
        form_id: The form.
        answers: One answer per answered field, in any order.
        hidden: Values of the form's hidden fields.
    """
    form = ctx.get(Form, form_id, field="form_id")
    _open(ctx, form, "form_id")
    fields = {f.ref: f for f in _fields(ctx, form.id)}
    given: dict[str, Answer] = {}
    for k, a in enumerate(answers):
        where = f"answers.{k}"
        f = fields.get(a.field_ref)
        if f is None:
            raise RuleViolation(f"the form has no field {a.field_ref}", field=where, hint="use the fields' refs")
        if a.field_ref in given:
            raise RuleViolation(f"field {a.field_ref} is answered twice", field=where, hint="answer it once")
        _check_answer(f, a, where)
        given[a.field_ref] = a
    path = _path(ctx, form.id, given)
    on_path = {f.ref for f in path}
    for ref in given:
        if ref not in on_path:
            raise RuleViolation(
                f"field {ref} is skipped by the form's logic for these answers",
                field="answers",
                hint="leave out fields that the logic jumps past",
            )
    missing = [f.ref for f in path if f.required and f.ref not in given]
    if missing:
        raise RuleViolation(
            f"required field(s) not answered: {', '.join(missing)}",
            field="answers",
            hint="answer every required field the respondent reaches",
        )
    hv = hidden or HiddenValues()
    for name in ("order_number", "customer_email", "utm_source"):
        if getattr(hv, name) is not None and name not in form.hidden_fields:
            raise RuleViolation(
                f"form {form.title} has no hidden field {name}",
                field=f"hidden.{name}",
                hint=f"the form's hidden fields are {list(form.hidden_fields) or 'none'}",
            )
    ordered = tuple(given[f.ref] for f in path if f.ref in given)
    email = next((a.email for a in ordered if a.email is not None), None)
    rsp = ctx.create(
        Response,
        form_id=form.id,
        answers=ordered,
        respondent_email=email,
        order_number=hv.order_number,
        customer_email=hv.customer_email,
        utm_source=hv.utm_source,
    )
    for hook in ctx.where(Webhook, form_id=form.id, enabled=True):
        ctx.create(Delivery, webhook_id=hook.id, response_id=rsp.id, url=hook.url, status_code=200)
    if form.response_limit is not None and len(ctx.where(Response, form_id=form.id)) >= form.response_limit:
        ctx.update(form, status="closed")
    return rsp


@service.tool(intent="duplicate the form as a new draft", write=True)
def duplicate_form(ctx: Ctx, form_id: FormId, title: Title) -> Form:
    """Copy a form's settings, fields and logic jumps into a new draft (responses and webhooks are not copied).

    Args:
        form_id: The form to copy.
        title: Title of the copy.
    """
    src = ctx.get(Form, form_id, field="form_id")
    copy = ctx.create(
        Form,
        title=title,
        owner_email=src.owner_email,
        language=src.language,
        hidden_fields=src.hidden_fields,
        response_limit=src.response_limit,
        thank_you_message=src.thank_you_message,
        public_url=PENDING_URL,
    )
    copy = ctx.update(copy, public_url=_public_url(copy.id))
    for f in _fields(ctx, src.id):
        data = f.model_dump(exclude={"id", "form_id"})
        ctx.create(FormField, form_id=copy.id, **data)
    for j in ctx.where(LogicJump, form_id=src.id):
        data = j.model_dump(exclude={"id", "form_id"})
        ctx.create(LogicJump, form_id=copy.id, **data)
    return copy


class ChoiceCount(BaseModel):
    """How often one choice was picked."""

    label: str = Field(description="The choice.")
    count: int = Field(description="Responses that picked it.")


class FieldInsight(BaseModel):
    """What the responses say about one field."""

    ref: Ref = Field(description="The field.")
    title: str = Field(description="The question.")
    type: FieldType = Field(description="Its type.")
    answered: int = Field(description="Responses that answered it.")
    average: float | None = Field(description="Mean of the numeric answers (number, rating, opinion scale).")
    choices: list[ChoiceCount] = Field(description="Counts per choice (choice fields) or true/false (yes/no).")


class Insights(BaseModel):
    """A form's response summary."""

    form_id: FormId = Field(description="The form.")
    responses: int = Field(description="Responses in total.")
    fields: list[FieldInsight] = Field(description="Per field, in form order.")


@service.tool(intent="summarise the form's responses")
def form_insights(ctx: Ctx, form_id: FormId) -> Insights:
    """Summarise a form's responses per field: how many answered, averages and choice counts.

    Args:
        form_id: The form.
    """
    form = ctx.get(Form, form_id, field="form_id")
    rsps = ctx.where(Response, form_id=form.id)
    out: list[FieldInsight] = []
    for f in _fields(ctx, form.id):
        if f.type == "statement":
            continue
        vals = [_value(a) for r in rsps for a in r.answers if a.field_ref == f.ref]
        avg = None
        counts: list[ChoiceCount] = []
        if f.type in ("number", "rating", "opinion_scale") and vals:
            avg = round(sum(vals) / len(vals), 2)
        if f.type in CHOICE_TYPES:
            counts = [ChoiceCount(label=c, count=sum(1 for v in vals if v == c)) for c in f.choices]
        if f.type == "yes_no":
            counts = [ChoiceCount(label=str(b).lower(), count=sum(1 for v in vals if v is b)) for b in (True, False)]
        out.append(FieldInsight(ref=f.ref, title=f.title, type=f.type, answered=len(vals), average=avg, choices=counts))
    return Insights(form_id=form.id, responses=len(rsps), fields=out)


# -- seed -------------------------------------------------------------------------------------

FeedbackField = tuple[str, str, FieldType, bool, tuple[str, ...]]
FEEDBACK: tuple[FeedbackField, ...] = (
    ("intro", "Thanks for shopping with us! Two minutes of your time?", "statement", False, ()),
    ("email", "Your e-mail address", "email", True, ()),
    ("rating", "How would you rate your purchase?", "rating", True, ()),
    ("category", "What did you buy?", "multiple_choice", True, ()),
    ("recommend", "Would you recommend us to a friend?", "yes_no", True, ()),
    ("what_went_wrong", "What went wrong?", "long_text", True, ()),
    ("anything_else", "Anything else you'd like to tell us?", "long_text", False, ()),
)
RETURNS: tuple[FeedbackField, ...] = (
    ("email", "The e-mail address you ordered with", "email", True, ()),
    (
        "reason",
        "Why are you returning the item?",
        "dropdown",
        True,
        ("Damaged", "Wrong item", "Not as described", "Changed my mind"),
    ),
    ("details", "Tell us more", "long_text", False, ()),
    ("phone", "A phone number for the courier", "phone_number", False, ()),
)
EVENT: tuple[FeedbackField, ...] = (
    ("full_name", "Your full name", "short_text", True, ()),
    ("email", "Your work e-mail", "email", True, ()),
    ("company_size", "How many people work at your company?", "number", False, ()),
    ("session", "Which session will you join?", "multiple_choice", True, ("Morning keynote", "Afternoon workshop")),
)
COMPLAINTS = ("The parcel arrived late and the box was crushed.", "It stopped working after a week.", "Wrong colour.")


@service.seeder
def seed(s: SeedContext) -> None:
    """Feedback, returns and event forms of the home company with logic, webhooks and consumers' responses."""
    categories = tuple(sorted({p.category for p in s.population.products}))
    feedback, returns, event = _seed_forms(s, categories)
    returns_hook = _seed_webhooks(s, feedback, returns)
    _seed_shop_responses(s, feedback, returns, returns_hook, categories)
    _seed_registrations(s, event)


def _seed_form(
    s: SeedContext,
    title: str,
    owner: str,
    status: str,
    spec: tuple[FeedbackField, ...],
    categories: tuple[str, ...],
    **extra: Any,
) -> Form:
    """A form and its fields; a ``category`` field offers the catalog's product categories."""
    made = s.create(
        Form,
        title=title,
        owner_email=owner,
        status=status,
        public_url=PENDING_URL,
        published_at=s.now - dt.timedelta(days=60) if status != "draft" else None,
        created_at=s.now - dt.timedelta(days=70),
        updated_at=s.now - dt.timedelta(days=60),
        **extra,
    )
    made = s.update(made, public_url=_public_url(made.id))
    for pos, (ref, q, typ, req, ch) in enumerate(spec, start=1):
        s.create(
            FormField,
            form_id=made.id,
            ref=ref,
            title=q,
            type=typ,
            position=pos,
            required=req,
            choices=categories if ref == "category" else ch,
            min_value=1 if typ == "number" else None,
            max_value=100000 if typ == "number" else None,
        )
    return made


def _seed_forms(s: SeedContext, categories: tuple[str, ...]) -> tuple[Form, Form, Form]:
    """The feedback, returns and (closed) event forms, returned, and a draft."""
    pop = s.population
    home = pop.home
    marketing = pop.staff("Marketing")
    support = pop.staff("Support")
    feedback = _seed_form(
        s,
        "Customer feedback",
        marketing[0].email,
        "published",
        FEEDBACK,
        categories,
        hidden_fields=("order_number", "utm_source"),
    )
    s.create(LogicJump, form_id=feedback.id, from_ref="recommend", op="is", value="true", to_ref="anything_else")
    returns = _seed_form(
        s,
        "Product return request",
        support[0].email,
        "published",
        RETURNS,
        categories,
        hidden_fields=("order_number", "customer_email"),
    )
    event = _seed_form(
        s, f"{home.name} customer day registration", marketing[-1].email, "closed", EVENT, categories, response_limit=12
    )
    _seed_form(s, "Partner programme application", marketing[0].email, "draft", EVENT[:2], categories)
    return feedback, returns, event


def _seed_webhooks(s: SeedContext, feedback: Form, returns: Form) -> Webhook:
    """A CRM hook on the feedback form, the helpdesk hook (returned) and a disabled one on the returns form."""
    home = s.population.home
    s.create(Webhook, form_id=feedback.id, tag="crm-sync", url=f"https://hooks.{home.domain}/forms/feedback")
    returns_hook = s.create(
        Webhook, form_id=returns.id, tag="helpdesk", url=f"https://hooks.{home.domain}/forms/returns"
    )
    s.create(Webhook, form_id=returns.id, tag="old-erp", url=f"https://erp.{home.domain}/inbound", enabled=False)
    return returns_hook


def _seed_shop_responses(
    s: SeedContext, feedback: Form, returns: Form, returns_hook: Webhook, categories: tuple[str, ...]
) -> None:
    """Feedback on consumers' first orders (as the commerce contract places them); every fifth also returns it."""
    rng = s.rng
    orders = first_order_numbers(s.population)
    for i, p in enumerate(s.population.consumers):
        order = orders.get(p.email)
        if i % 3 == 2 or order is None:
            continue
        when = s.now - dt.timedelta(days=rng.randint(1, 50), hours=rng.randint(0, 12))
        rating = rng.choice((2, 3, 4, 4, 5, 5))
        happy = rating >= 4
        answers = [
            Answer(field_ref="email", email=p.email),
            Answer(field_ref="rating", number=rating),
            Answer(field_ref="category", choice=categories[i % len(categories)]),
            Answer(field_ref="recommend", boolean=happy),
        ]
        if happy:
            if i % 4 == 0:
                answers.append(Answer(field_ref="anything_else", text="Keep up the good work."))
        else:
            answers.append(Answer(field_ref="what_went_wrong", text=COMPLAINTS[i % len(COMPLAINTS)]))
        s.create(
            Response,
            form_id=feedback.id,
            answers=tuple(answers),
            respondent_email=p.email,
            order_number=order,
            utm_source=("newsletter", "receipt", None)[i % 3],
            submitted_at=when,
        )
        if i % 5 == 0:
            rsp = s.create(
                Response,
                form_id=returns.id,
                answers=(
                    Answer(field_ref="email", email=p.email),
                    Answer(field_ref="reason", choice=RETURNS[1][4][i % 4]),
                    Answer(field_ref="phone", phone_number=p.phone),
                ),
                respondent_email=p.email,
                order_number=order,
                customer_email=p.email,
                submitted_at=when + dt.timedelta(hours=1),
            )
            s.create(
                Delivery,
                webhook_id=returns_hook.id,
                response_id=rsp.id,
                url=returns_hook.url,
                status_code=200 if i % 15 else 503,
                delivered_at=when + dt.timedelta(hours=1),
            )


def _seed_registrations(s: SeedContext, event: Form) -> None:
    """Twelve business contacts registered for the customer day, which closed at that limit."""
    for k, p in enumerate(s.population.contacts[:12]):
        company = s.population.company_of(p)
        s.create(
            Response,
            form_id=event.id,
            answers=(
                Answer(field_ref="full_name", text=p.name),
                Answer(field_ref="email", email=p.email),
                Answer(field_ref="company_size", number=company.employees if company else 10),
                Answer(field_ref="session", choice=EVENT[3][4][k % 2]),
            ),
            respondent_email=p.email,
            submitted_at=s.now - dt.timedelta(days=20 - k),
        )
