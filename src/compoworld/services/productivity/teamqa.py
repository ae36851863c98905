"""Askwell: internal questions and answers, with votes, accepted answers, tags, experts and bounties.

Modeled on the Stack Overflow for Teams API v3 (questions, answers, votes, accept, tags with subject-matter
experts, bounties, close/reopen, outdated-answer flags) and its reputation rules: a question has 1 to 5
existing tags; upvotes give +5 (question) or +10 (answer) reputation and downvotes -2; nobody votes on their
own post or twice the same way; only the asker accepts one answer (+15 to its author, not for one's own);
closed questions take no answers and are reopened by a moderator; a bounty of 50-500 from the offerer's own
reputation goes on an open question without an accepted answer, at most one at a time, and is awarded to
someone else's answer; answers can be flagged outdated with a reason.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example

__all__ = ["service"]

service = Service(
    "teamqa",
    title="Askwell",
    category="internal_qa",
    modeled_on="Stack Overflow for Teams API v3 (users, questions, answers, votes, accept, tags and "
    "subject-matter experts, bounties, close/reopen, outdated answers) and its reputation rules",
    description="The company's internal Q&A: employees ask tagged questions, colleagues answer, everyone "
    "votes, askers accept the answer that solved it, tags name subject-matter experts, bounties draw "
    "attention to hard questions, and stale answers are flagged outdated.",
)

UserId = Annotated[str, IdOf("teamqa.user")]
TagId = Annotated[str, IdOf("teamqa.tag")]
QuestionId = Annotated[str, IdOf("teamqa.question")]
AnswerId = Annotated[str, IdOf("teamqa.answer")]
VoteId = Annotated[str, IdOf("teamqa.vote")]

TagName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9.+#-]{0,34}$")]
"""A lower-case tag such as python or vpn."""

Role = Literal["member", "moderator", "admin"]
QuestionStatus = Literal["open", "closed"]
CloseReason = Literal["duplicate", "off_topic", "needs_details", "resolved_elsewhere"]
TargetKind = Literal["question", "answer"]

UP = {"question": 5, "answer": 10}
DOWN = -2
ACCEPT = 15
BOUNTY_MIN, BOUNTY_MAX = 50, 500


class User(Record):
    """A member of the team and their reputation."""

    id: UserId
    email: Email
    """The employee's e-mail."""
    display_name: Title
    """Their name."""
    role: Role = "member"
    """member, moderator or admin."""
    reputation: int = 1
    """Reputation earned from votes and accepts."""
    created_at: Annotated[DateTime, CREATED]
    """When they joined."""


class Tag(Record):
    """A topic questions are filed under."""

    id: TagId
    name: TagName
    """The tag (unique)."""
    description: Text = ""
    """What belongs under it."""
    sme_emails: tuple[Email, ...] = ()
    """Subject-matter experts for it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Question(Record):
    """A question."""

    id: QuestionId
    title: Title
    """Its title."""
    body: Text
    """The details."""
    author_email: Email
    """Who asked."""
    tags: tuple[TagName, ...]
    """Its tags (1 to 5)."""
    status: QuestionStatus = "open"
    """open or closed."""
    close_reason: CloseReason | None = None
    """Why it was closed."""
    score: int = 0
    """Upvotes minus downvotes."""
    accepted_answer_id: AnswerId | None = None
    """The accepted answer."""
    bounty_amount: int = 0
    """An open bounty's reputation (0: none)."""
    bounty_by: Email | None = None
    """Who offered the open bounty."""
    created_at: Annotated[DateTime, CREATED]
    """When it was asked."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Answer(Record):
    """An answer to a question."""

    id: AnswerId
    question_id: QuestionId
    """The question."""
    author_email: Email
    """Who answered."""
    body: Text
    """The answer."""
    score: int = 0
    """Upvotes minus downvotes."""
    accepted: bool = False
    """Whether the asker accepted it."""
    outdated: bool = False
    """Flagged as no longer correct."""
    outdated_reason: Text | None = None
    """Why it was flagged."""
    bounty_awarded: int = 0
    """Bounty reputation it received."""
    created_at: Annotated[DateTime, CREATED]
    """When it was posted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Vote(Record):
    """An up- or downvote on a question or answer."""

    id: VoteId
    target_kind: TargetKind
    """question or answer."""
    target_id: str
    """The question or answer voted on."""
    voter_email: Email
    """Who voted."""
    value: Literal[1, -1]
    """+1 or -1."""
    created_at: Annotated[DateTime, CREATED]
    """When they voted."""


# -- rules ------------------------------------------------------------------------------------


def _user(ctx: Ctx, email: str, field: str) -> User:
    u = ctx.first(User, email=email)
    if u is None:
        raise RuleViolation(f"{email} is not on the team", field=field, hint="use a team member's e-mail")
    return u


def _earn(ctx: Ctx, email: str, points: int) -> None:
    u = ctx.first(User, email=email)
    if u is not None:
        ctx.update(u, reputation=max(1, u.reputation + points))


def _guard_tag(ctx: Ctx, new: Any, old: Any) -> None:
    for e in new.sme_emails:
        _user(ctx, e, "sme_emails")


def _guard_tag_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if any(old.name in q.tags for q in ctx.where(Question)):
        raise RuleViolation(f"questions use tag {old.name}", field="tag_id", hint="retag them first")


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    filters=("email", "role"),
    search=("display_name",),
    update=("role",),
    delete=False,
)
tags = service.resource(
    Tag,
    name="tag",
    plural="tags",
    prefix="tag",
    create=False,
    filters=("name",),
    search=("name", "description"),
    update=("description", "sme_emails"),
    guard_update=_guard_tag,
    guard_delete=_guard_tag_delete,
)
questions = service.resource(
    Question,
    name="question",
    plural="questions",
    prefix="q",
    create=False,
    filters=("author_email", "status", "accepted_answer_id"),
    search=("title", "body"),
    update=("title", "body"),
    delete=False,
)
answers = service.resource(
    Answer,
    name="answer",
    plural="answers",
    prefix="a",
    create=False,
    filters=("question_id", "author_email", "accepted", "outdated"),
    search=("body",),
    update=("body",),
    delete=False,
)
votes = service.resource(
    Vote,
    name="vote",
    plural="votes",
    prefix="v",
    create=False,
    get=False,
    filters=("target_kind", "target_id", "voter_email", "value"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="create the tag", write=True, example=fixed_example(name="kubernetes", description="Clusters."))
def create_tag(ctx: Ctx, name: TagName, description: Text = "", sme_emails: list[Email] | None = None) -> Tag:
    """Create a tag; names are unique and subject-matter experts must be on the team.

    Args:
        name: The lower-case tag.
        description: What belongs under it.
        sme_emails: Its subject-matter experts.
    """
    if ctx.first(Tag, name=name) is not None:
        raise Conflict(f"tag {name!r} exists", field="name", hint="use the existing tag")
    experts = tuple(dict.fromkeys(sme_emails or ()))
    for e in experts:
        _user(ctx, e, "sme_emails")
    return ctx.create(Tag, name=name, description=description, sme_emails=experts)


def _example_ask(ctx: Ctx) -> dict[str, Any] | None:
    u, t = ctx.first(User), ctx.first(Tag)
    if u is None or t is None:
        return None
    return {"author_email": u.email, "title": "How do I rotate my API key?", "body": "Steps?", "tags": [t.name]}


@service.tool(intent="ask the question", write=True, example=_example_ask)
def ask_question(ctx: Ctx, author_email: Email, title: Title, body: Text, tags: list[TagName]) -> Question:
    """Ask a question under 1 to 5 existing tags.

    Args:
        author_email: The team member asking.
        title: A one-line summary.
        body: The details.
        tags: 1 to 5 distinct existing tags.
    """
    _user(ctx, author_email, "author_email")
    if not 1 <= len(tags) <= 5 or len(set(tags)) != len(tags):
        raise RuleViolation("give 1 to 5 distinct tags", field="tags", hint="pick the most relevant tags")
    for t in tags:
        if ctx.first(Tag, name=t) is None:
            raise RuleViolation(f"no tag {t!r}", field="tags", hint="create it with teamqa__create_tag or pick another")
    return ctx.create(Question, author_email=author_email, title=title, body=body, tags=tuple(tags))


def _example_answer(ctx: Ctx) -> dict[str, Any] | None:
    for q in ctx.where(Question, status="open"):
        done = {a.author_email for a in ctx.where(Answer, question_id=q.id)} | {q.author_email}
        u = next((u for u in ctx.where(User) if u.email not in done), None)
        if u is not None:
            return {"question_id": q.id, "author_email": u.email, "body": "Use the admin console."}
    return None


@service.tool(intent="answer the question", write=True, example=_example_answer)
def post_answer(ctx: Ctx, question_id: QuestionId, author_email: Email, body: Text) -> Answer:
    """Answer an open question; each member answers a question once (edit the answer instead).

    Args:
        question_id: The question.
        author_email: The team member answering.
        body: The answer.
    """
    q = ctx.get(Question, question_id, field="question_id")
    _user(ctx, author_email, "author_email")
    if q.status == "closed":
        raise RuleViolation(f"question {q.id} is closed", field="question_id", hint="a moderator can reopen it")
    if not body.strip():
        raise RuleViolation("the answer is empty", field="body", hint="write the answer")
    mine = ctx.first(Answer, question_id=q.id, author_email=author_email)
    if mine is not None:
        raise Conflict(f"{author_email} already answered ({mine.id})", field="author_email", hint="edit that answer")
    return ctx.create(Answer, question_id=q.id, author_email=author_email, body=body.strip())


def _example_vote(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Answer):
        voted = {v.voter_email for v in ctx.where(Vote, target_id=a.id)} | {a.author_email}
        u = next((u for u in ctx.where(User) if u.email not in voted), None)
        if u is not None:
            return {"target_kind": "answer", "target_id": a.id, "voter_email": u.email, "value": 1}
    return None


@service.tool(intent="vote on the post", write=True, example=_example_vote)
def vote(ctx: Ctx, target_kind: TargetKind, target_id: str, voter_email: Email, value: Literal[1, -1]) -> Vote:
    """Up- or downvote a question or answer (not one's own); voting the other way replaces the earlier vote.

    Args:
        target_kind: question or answer.
        target_id: Its id.
        voter_email: The team member voting.
        value: 1 (up) or -1 (down).
    """
    _user(ctx, voter_email, "voter_email")
    target: Question | Answer = (
        ctx.get(Question, target_id, field="target_id")
        if target_kind == "question"
        else ctx.get(Answer, target_id, field="target_id")
    )
    if target.author_email == voter_email:
        raise RuleViolation("you cannot vote on your own post", field="voter_email", hint="vote on others' posts")
    old = ctx.first(Vote, target_id=target.id, voter_email=voter_email)
    delta: int = value
    if old is not None:
        if old.value == value:
            raise Conflict("you already voted this way", field="value", hint="vote the other way to change it")
        delta = value - old.value
        _earn(ctx, target.author_email, -(UP[target_kind] if old.value == 1 else DOWN))
        ctx.delete(old)
    _earn(ctx, target.author_email, UP[target_kind] if value == 1 else DOWN)
    ctx.update(target, score=target.score + delta)
    return ctx.create(Vote, target_kind=target_kind, target_id=target.id, voter_email=voter_email, value=value)


def _example_accept(ctx: Ctx) -> dict[str, Any] | None:
    for q in ctx.where(Question, status="open", accepted_answer_id=None):
        a = ctx.first(Answer, question_id=q.id)
        if a is not None:
            return {"answer_id": a.id, "asker_email": q.author_email}
    return None


@service.tool(intent="accept the answer", write=True, example=_example_accept)
def accept_answer(ctx: Ctx, answer_id: AnswerId, asker_email: Email) -> Answer:
    """The asker accepts an answer (replacing any earlier one); its author gains 15 unless it is the asker.

    Args:
        answer_id: The answer.
        asker_email: The question's author.
    """
    a = ctx.get(Answer, answer_id, field="answer_id")
    q = ctx.get(Question, a.question_id)
    if asker_email != q.author_email:
        raise RuleViolation("only the asker accepts an answer", field="asker_email", hint=f"ask {q.author_email}")
    if a.accepted:
        raise Conflict("this answer is already accepted", field="answer_id", hint="nothing to do")
    if q.accepted_answer_id is not None:
        prev = ctx.get(Answer, q.accepted_answer_id)
        ctx.update(prev, accepted=False)
        if prev.author_email != q.author_email:
            _earn(ctx, prev.author_email, -ACCEPT)
    if a.author_email != q.author_email:
        _earn(ctx, a.author_email, ACCEPT)
    ctx.update(q, accepted_answer_id=a.id)
    return ctx.update(a, accepted=True)


def _moderator(ctx: Ctx, email: str) -> None:
    if _user(ctx, email, "moderator_email").role == "member":
        raise RuleViolation(f"{email} is not a moderator", field="moderator_email", hint="ask a moderator or admin")


def _example_close(ctx: Ctx) -> dict[str, Any] | None:
    q, m = ctx.first(Question, status="open"), ctx.first(User, role="moderator")
    return None if q is None or m is None else {"question_id": q.id, "moderator_email": m.email, "reason": "duplicate"}


@service.tool(intent="close the question", write=True, example=_example_close)
def close_question(ctx: Ctx, question_id: QuestionId, moderator_email: Email, reason: CloseReason) -> Question:
    """A moderator closes an open question with a reason; an open bounty is returned to its offerer.

    Args:
        question_id: The question.
        moderator_email: The moderator or admin.
        reason: duplicate, off_topic, needs_details or resolved_elsewhere.
    """
    q = ctx.get(Question, question_id, field="question_id")
    _moderator(ctx, moderator_email)
    if q.status == "closed":
        raise Conflict(f"question {q.id} is already closed", field="question_id", hint="nothing to do")
    if q.bounty_by is not None:
        _earn(ctx, q.bounty_by, q.bounty_amount)
    return ctx.update(q, status="closed", close_reason=reason, bounty_amount=0, bounty_by=None)


@service.tool(
    intent="reopen the question",
    write=True,
    example=first_example(Question, "question_id", where={"status": "closed"}),
)
def reopen_question(ctx: Ctx, question_id: QuestionId, moderator_email: Email | None = None) -> Question:
    """A moderator reopens a closed question.

    Args:
        question_id: The question.
        moderator_email: The moderator or admin (default: the first moderator).
    """
    q = ctx.get(Question, question_id, field="question_id")
    if moderator_email is None:
        mod = ctx.first(User, role="moderator") or ctx.first(User, role="admin")
        moderator_email = mod.email if mod else ""
    _moderator(ctx, moderator_email)
    if q.status != "closed":
        raise Conflict(f"question {q.id} is open", field="question_id", hint="nothing to do")
    return ctx.update(q, status="open", close_reason=None)


def _example_bounty(ctx: Ctx) -> dict[str, Any] | None:
    q = ctx.first(Question, status="open", accepted_answer_id=None, bounty_amount=0)
    u = next((u for u in ctx.where(User) if u.reputation >= 100), None)
    return None if q is None or u is None else {"question_id": q.id, "offered_by": u.email, "amount": 50}


@service.tool(intent="offer a bounty on the question", write=True, example=_example_bounty)
def offer_bounty(
    ctx: Ctx, question_id: QuestionId, offered_by: Email, amount: Annotated[int, Field(ge=1, le=10000)]
) -> Question:
    """Put 50-500 of one's own reputation on an open question without an accepted answer (one bounty at a time).

    Args:
        question_id: The question.
        offered_by: The team member paying.
        amount: Reputation offered, 50-500.
    """
    q = ctx.get(Question, question_id, field="question_id")
    u = _user(ctx, offered_by, "offered_by")
    if q.status != "open" or q.accepted_answer_id is not None:
        raise RuleViolation(
            "bounties go on open questions without an accepted answer",
            field="question_id",
            hint="pick an unresolved question",
        )
    if q.bounty_amount:
        raise Conflict(f"question {q.id} already has a bounty", field="question_id", hint="wait until it is awarded")
    if not BOUNTY_MIN <= amount <= BOUNTY_MAX:
        raise RuleViolation(f"bounties are {BOUNTY_MIN}-{BOUNTY_MAX}", field="amount", hint="pick an amount in range")
    if u.reputation - amount < 1:
        raise RuleViolation(f"{offered_by} has {u.reputation} reputation", field="amount", hint="offer less")
    ctx.update(u, reputation=u.reputation - amount)
    return ctx.update(q, bounty_amount=amount, bounty_by=offered_by)


def _example_award(ctx: Ctx) -> dict[str, Any] | None:
    for q in ctx.where(Question, status="open"):
        if q.bounty_by:
            a = next((a for a in ctx.where(Answer, question_id=q.id) if a.author_email != q.bounty_by), None)
            if a is not None:
                return {"answer_id": a.id, "awarded_by": q.bounty_by}
    return None


@service.tool(intent="award the bounty", write=True, example=_example_award)
def award_bounty(ctx: Ctx, answer_id: AnswerId, awarded_by: Email) -> Answer:
    """The bounty's offerer awards it to someone else's answer of the question.

    Args:
        answer_id: The answer.
        awarded_by: Who offered the bounty.
    """
    a = ctx.get(Answer, answer_id, field="answer_id")
    q = ctx.get(Question, a.question_id)
    if not q.bounty_amount:
        raise RuleViolation(f"question {q.id} has no bounty", field="answer_id", hint="offer one first")
    if awarded_by != q.bounty_by:
        raise RuleViolation("only the offerer awards the bounty", field="awarded_by", hint=f"ask {q.bounty_by}")
    if a.author_email == awarded_by:
        raise RuleViolation("you cannot award your own answer", field="answer_id", hint="pick another answer")
    _earn(ctx, a.author_email, q.bounty_amount)
    ctx.update(q, bounty_amount=0, bounty_by=None)
    return ctx.update(a, bounty_awarded=a.bounty_awarded + q.bounty_amount)


@service.tool(
    intent="flag the answer outdated",
    write=True,
    example=first_example(Answer, "answer_id", where={"outdated": False}, reason="The VPN client changed in v5."),
)
def flag_outdated(ctx: Ctx, answer_id: AnswerId, reason: Text) -> Answer:
    """Flag an answer as outdated, with why.

    Args:
        answer_id: The answer.
        reason: What changed.
    """
    a = ctx.get(Answer, answer_id, field="answer_id")
    if a.outdated:
        raise Conflict("already flagged outdated", field="answer_id", hint="edit the answer to fix it")
    if not reason.strip():
        raise RuleViolation("say why it is outdated", field="reason", hint="give what changed")
    return ctx.update(a, outdated=True, outdated_reason=reason.strip())


# -- seed -------------------------------------------------------------------------------------

TAGS = ("vpn", "python", "expenses", "onboarding", "sso", "deploy")
QUESTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("How do I connect to the VPN from home?", ("vpn",)),
    ("Which Python version do services use?", ("python", "deploy")),
    ("How are travel expenses reimbursed?", ("expenses",)),
    ("What should new hires set up on day one?", ("onboarding", "sso")),
    ("Why does SSO log me out every hour?", ("sso",)),
    ("How do I roll back a deploy?", ("deploy",)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Team members with reputation, tags with experts, questions with answers, votes, accepts and a bounty."""
    staff = list(s.population.employees[:12])
    for k, p in enumerate(staff):
        s.create(
            User,
            email=p.email,
            display_name=p.name,
            role="admin" if k == 0 else ("moderator" if k == 1 else "member"),
            reputation=1 + 40 * (12 - k),
            created_at=s.ago(days=400 - 10 * k),
        )
    for k, t in enumerate(TAGS):
        s.create(
            Tag,
            name=t,
            description=f"Questions about {t}.",
            sme_emails=(staff[2 + k].email,),
            created_at=s.ago(days=300),
        )
    s.create(Tag, name="legacy-crm", description="The retired CRM.", created_at=s.ago(days=500))
    for k, (title, qtags) in enumerate(QUESTIONS):
        asker = staff[6 + k % 6].email
        q = s.create(
            Question,
            title=title,
            body="Details inside.",
            author_email=asker,
            tags=qtags,
            status="closed" if k == 5 else "open",
            close_reason="duplicate" if k == 5 else None,
            created_at=s.ago(days=60 - 7 * k),
            updated_at=s.ago(days=60 - 7 * k),
        )
        for j in range(2 if k < 4 else (1 if k == 4 else 0)):
            a = s.create(
                Answer,
                question_id=q.id,
                author_email=staff[2 + (k + j) % 6].email,
                body=f"Answer {j + 1}: see the internal guide.",
                score=2 - j,
                outdated=k == 0 and j == 1,
                outdated_reason="Replaced by the new VPN client." if k == 0 and j == 1 else None,
                created_at=s.ago(days=59 - 7 * k),
                updated_at=s.ago(days=59 - 7 * k),
            )
            for v in range(2 - j):
                s.create(
                    Vote,
                    target_kind="answer",
                    target_id=a.id,
                    voter_email=staff[v].email,
                    value=1,
                    created_at=s.ago(days=58 - 7 * k),
                )
            if j == 0 and k < 2:
                s.update(a, accepted=True)
                s.update(q, accepted_answer_id=a.id)
        if k == 3:
            s.update(q, bounty_amount=100, bounty_by=staff[0].email)
