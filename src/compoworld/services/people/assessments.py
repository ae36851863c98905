"""Skillcheck Assessments: technical tests, questions, candidate invites, attempts, scores and plagiarism review.

Modeled on the HackerRank for Work API v3 (Tests, Questions, Test Candidates /
invites with status, score, percentage_score, plagiarism_status and report_url)
and Codility's sessions: a test is drafted, published (it needs at least one
question) and archived; only a published test takes invites; a candidate has at
most one open invite per test; an invite expires after 1 to 30 days and moves
invited → in_progress → completed (or canceled / expired); answers are scored
per question up to the question's points, and submitting totals the score
against the test's cutoff; a completed attempt may be flagged for plagiarism,
and a suspected or confirmed flag blocks advancing the candidate. Archived
tests keep their reports. Deleting a question still used by a test is refused.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, JobTitle, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "assessments",
    title="Skillcheck Assessments",
    category="skills_assessment",
    modeled_on="HackerRank for Work API v3 (tests, questions, test candidates/invites, reports, plagiarism) "
    "and Codility sessions",
    description="Technical skills assessments for hiring: a library of coding, SQL, multiple-choice and "
    "written questions, tests built from them with a duration and a passing cutoff, invites sent to "
    "candidates with an expiry, their attempts and per-question scores, plagiarism review and the "
    "recruiter's decision to advance or reject.",
)

QuestionId = Annotated[str, IdOf("assessments.question")]
TestId = Annotated[str, IdOf("assessments.test")]
InviteId = Annotated[str, IdOf("assessments.invite")]
AnswerId = Annotated[str, IdOf("assessments.answer")]

QuestionKind = Literal["coding", "database", "multiple_choice", "subjective", "project"]
Difficulty = Literal["easy", "medium", "hard"]
TestState = Literal["draft", "published", "archived"]
InviteStatus = Literal["invited", "in_progress", "completed", "expired", "canceled"]
Plagiarism = Literal["none", "suspected", "confirmed", "cleared"]
Decision = Literal["pending", "advanced", "rejected"]
LanguageName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9+#]{0,19}$")]
"""A programming language key such as python3, java or sql."""
Points = Annotated[int, Field(ge=1, le=500)]
"""A question's maximum score."""
Percent = Annotated[float, Field(ge=0, le=100)]

OPEN: tuple[InviteStatus, ...] = ("invited", "in_progress")
MAX_VALID_DAYS = 30


class Question(Record):
    """A question in the company's library."""

    id: QuestionId
    name: Title
    """Its title."""
    kind: QuestionKind
    """coding, database, multiple_choice, subjective or project."""
    difficulty: Difficulty = "medium"
    """easy, medium or hard."""
    max_score: Points = 100
    """The points a full answer earns."""
    languages: tuple[LanguageName, ...] = ()
    """Languages a coding or database answer may use."""
    tags: tuple[Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{1,40}$")], ...] = ()
    """Skills it tests (algorithms, sql, react…)."""
    author_email: Email | None = None
    """The employee who wrote it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Test(Record):
    """A test: questions, a time limit and a passing cutoff."""

    id: TestId
    name: Title
    """Its name."""
    role: JobTitle | None = None
    """The role it screens for."""
    question_ids: tuple[QuestionId, ...] = ()
    """Its questions, in order."""
    duration_minutes: Annotated[int, Field(ge=10, le=300)] = 90
    """Time a candidate has once started."""
    cutoff_percent: Percent = 60.0
    """Percentage a candidate needs to pass."""
    state: TestState = "draft"
    """draft, published or archived."""
    owner_email: Email
    """The recruiter or hiring manager who owns it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Invite(Record):
    """A candidate's invitation to a test and the attempt it leads to."""

    id: InviteId
    test_id: TestId
    """The test."""
    candidate_email: Email
    """The candidate."""
    candidate_name: PersonName
    """The candidate's name."""
    invited_by: Email
    """The employee who sent it."""
    status: InviteStatus = "invited"
    """invited, in_progress, completed, expired or canceled."""
    expires_at: DateTime
    """When the link stops working unless started."""
    started_at: DateTime | None = None
    """When the candidate started."""
    submitted_at: DateTime | None = None
    """When the candidate submitted."""
    score: int | None = None
    """Points earned (when completed)."""
    max_score: int | None = None
    """Points available (when completed)."""
    percentage_score: Percent | None = None
    """Score as a percentage (when completed)."""
    passed: bool | None = None
    """Whether the percentage reached the test's cutoff."""
    plagiarism_status: Plagiarism = "none"
    """none, suspected, confirmed or cleared."""
    plagiarism_note: Text | None = None
    """What the reviewer saw."""
    decision: Decision = "pending"
    """pending, advanced or rejected."""
    report_url: Url | None = None
    """The candidate report (when completed)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sent."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Answer(Record):
    """A candidate's answer to one question of an attempt, with its score."""

    id: AnswerId
    invite_id: InviteId
    """The attempt."""
    question_id: QuestionId
    """The question."""
    language: LanguageName | None = None
    """The language used (coding and database questions)."""
    score: Annotated[int, Field(ge=0, le=500)]
    """Points earned."""
    tests_passed: Annotated[int, Field(ge=0, le=100)] = 0
    """Hidden test cases passed (coding questions)."""
    submitted_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


class QuestionScore(Value):
    """One line of a candidate report."""

    question_id: QuestionId
    """The question."""
    name: Title
    """Its title."""
    score: int
    """Points earned (0 when unanswered)."""
    max_score: int
    """Points available."""


class CandidateReport(Value):
    """The report of a completed attempt."""

    invite_id: InviteId
    """The attempt."""
    candidate_email: Email
    """The candidate."""
    test_name: Title
    """The test."""
    status: InviteStatus
    """The attempt's status."""
    percentage_score: float | None
    """Overall percentage."""
    passed: bool | None
    """Whether the cutoff was reached."""
    plagiarism_status: Plagiarism
    """Plagiarism review state."""
    questions: list[QuestionScore]
    """Score per question, in the test's order."""
    minutes_taken: int | None
    """Minutes from start to submission."""


class TestSummary(Value):
    """Invites and results of one test."""

    test_id: TestId
    """The test."""
    by_status: dict[InviteStatus, int]
    """Invites per status."""
    completed: int
    """Completed attempts."""
    pass_rate: float
    """Share of completed attempts that passed, 0-100."""
    average_percentage: float
    """Average percentage of completed attempts (0 when none)."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a member of the team", field=field, hint="use an employee's e-mail")


def _guard_question(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        for test in ctx.scan(Test):
            if old.id in test.question_ids and test.state != "archived":
                raise Conflict(
                    f"question {old.id} is used by test {test.id} ({test.state})",
                    field="question_id",
                    hint="remove it from the test, or archive the test, first",
                )
        return
    if new.kind in ("coding", "database") and not new.languages:
        raise RuleViolation(
            f"a {new.kind} question needs at least one language", field="languages", hint="e.g. ['python3']"
        )
    if new.kind in ("multiple_choice", "subjective") and new.languages:
        raise RuleViolation(f"a {new.kind} question takes no languages", field="languages", hint="leave it empty")
    _staff(ctx, new.author_email, "author_email")


def _guard_test(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if old.state != "draft" or ctx.first(Invite, test_id=old.id) is not None:
            raise RuleViolation(
                f"test {old.id} is {old.state} or has invites", field="test_id", hint="archive it instead"
            )
        return
    _staff(ctx, new.owner_email, "owner_email")
    if old is not None and old.state == "archived" and new != old:
        raise RuleViolation(f"test {old.id} is archived", field="test_id", hint="create a new test")
    if new.state == "published" and (old is None or old.state == "draft") and not new.question_ids:
        raise RuleViolation("a test needs at least one question to publish", field="test_id", hint=_ADD)


_ADD = "add questions with assessments__add_test_question"

questions = service.resource(
    Question,
    name="question",
    plural="questions",
    prefix="q",
    create=("name", "kind", "difficulty", "max_score", "languages", "tags", "author_email"),
    filters=("kind", "difficulty", "author_email"),
    search=("name",),
    update=("name", "difficulty", "languages", "tags"),
    guard_create=_guard_question,
    guard_update=_guard_question,
    guard_delete=_guard_question,
)
tests = service.resource(
    Test,
    name="test",
    plural="tests",
    prefix="tst",
    create=("name", "role", "duration_minutes", "cutoff_percent", "owner_email"),
    filters=("state", "owner_email", "role"),
    search=("name", "role"),
    update=("name", "role", "duration_minutes", "cutoff_percent", "owner_email"),
    transitions={
        "publish": Transition(
            "state", ("draft",), "published", "publish the test", description="Publish a draft test with questions."
        ),
        "archive": Transition(
            "state",
            ("draft", "published"),
            "archived",
            "archive the test",
            description="Archive a test: it takes no more invites; its reports stay.",
            destructive=True,
        ),
    },
    guard_create=_guard_test,
    guard_update=_guard_test,
    guard_delete=_guard_test,
)
invites = service.resource(
    Invite,
    name="invite",
    plural="invites",
    prefix="inv",
    create=False,
    filters=("test_id", "candidate_email", "status", "plagiarism_status", "decision", "passed", "invited_by"),
    search=("candidate_name", "candidate_email"),
    delete=False,
    title="test invite",
)
answers = service.resource(
    Answer,
    name="answer",
    plural="answers",
    prefix="ans",
    create=False,
    get=False,
    filters=("invite_id", "question_id"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _draft(ctx: Ctx, test_id: str) -> Test:
    test = ctx.get(Test, test_id, field="test_id")
    if test.state != "draft":
        raise RuleViolation(
            f"test {test.id} is {test.state}; only a draft's questions change",
            field="test_id",
            hint="create a new test (published tests keep their questions so that scores compare)",
        )
    return test


@service.tool(
    intent="add the question to the test",
    write=True,
    example=first_example(Test, "test_id", where={"state": "draft"}, question_id="q_000001"),
)
def add_test_question(ctx: Ctx, test_id: TestId, question_id: QuestionId) -> Test:
    """Add a library question to the end of a draft test.

    Args:
        test_id: The draft test.
        question_id: The question.
    """
    test = _draft(ctx, test_id)
    ctx.get(Question, question_id, field="question_id")
    if question_id in test.question_ids:
        raise Conflict(f"question {question_id} is already in the test", field="question_id", hint="pick another")
    if len(test.question_ids) >= 20:
        raise RuleViolation("a test holds at most 20 questions", field="question_id", hint="remove one first")
    return ctx.update(test, question_ids=(*test.question_ids, question_id))


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    t = next((t for t in ctx.where(Test, state="draft") if t.question_ids), None)
    return None if t is None else {"test_id": t.id, "question_id": t.question_ids[0]}


@service.tool(intent="remove the question from the test", write=True, example=_example_remove)
def remove_test_question(ctx: Ctx, test_id: TestId, question_id: QuestionId) -> Test:
    """Remove a question from a draft test.

    Args:
        test_id: The draft test.
        question_id: The question.
    """
    test = _draft(ctx, test_id)
    if question_id not in test.question_ids:
        raise RuleViolation(f"question {question_id} is not in the test", field="question_id", hint="list the test")
    return ctx.update(test, question_ids=tuple(q for q in test.question_ids if q != question_id))


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    test = ctx.first(Test, state="published")
    taken = {i.candidate_email for i in ctx.where(Invite, test_id=test.id)} if test else set()
    for p in ctx.population.consumers:
        if test is not None and p.email not in taken:
            return {
                "test_id": test.id,
                "candidate_email": p.email,
                "candidate_name": p.name,
                "invited_by": test.owner_email,
                "valid_days": 7,
            }
    return None


@service.tool(intent="invite the candidate to the test", write=True, example=_example_invite)
def invite_candidate(
    ctx: Ctx,
    test_id: TestId,
    candidate_email: Email,
    candidate_name: PersonName,
    invited_by: Email,
    valid_days: Annotated[int, Field(ge=1, le=MAX_VALID_DAYS)] = 7,
) -> Invite:
    """Invite a candidate to a published test; the link expires after valid_days (1-30).

    Args:
        test_id: The published test.
        candidate_email: The candidate's e-mail.
        candidate_name: The candidate's name.
        invited_by: The employee sending it.
        valid_days: Days before the invite expires if not started.
    """
    test = ctx.get(Test, test_id, field="test_id")
    if test.state != "published":
        raise RuleViolation(
            f"test {test.id} is {test.state}; only published tests take invites",
            field="test_id",
            hint="publish it with assessments__publish_test" if test.state == "draft" else "use a published test",
        )
    _staff(ctx, invited_by, "invited_by")
    for other in ctx.where(Invite, test_id=test.id, candidate_email=candidate_email):
        if other.status in OPEN or other.status == "completed":
            raise Conflict(
                f"{candidate_email} already has invite {other.id} ({other.status}) for this test",
                field="candidate_email",
                hint="extend the open invite with assessments__extend_invite, or use the completed report",
            )
    return ctx.create(
        Invite,
        test_id=test.id,
        candidate_email=candidate_email,
        candidate_name=candidate_name,
        invited_by=invited_by,
        expires_at=ctx.now() + dt.timedelta(days=valid_days),
    )


def _open_invite(ctx: Ctx, invite_id: str, *allowed: InviteStatus) -> Invite:
    inv = ctx.get(Invite, invite_id, field="invite_id")
    if inv.status not in allowed:
        raise RuleViolation(
            f"invite {inv.id} is {inv.status}",
            field="invite_id",
            hint=f"this needs an invite that is {' or '.join(allowed)}",
        )
    return inv


@service.tool(
    intent="cancel the invite",
    write=True,
    destructive=True,
    example=first_example(Invite, "invite_id", where={"status": "invited"}),
)
def cancel_invite(ctx: Ctx, invite_id: InviteId) -> Invite:
    """Cancel an invite the candidate has not started.

    Args:
        invite_id: The invite.
    """
    inv = _open_invite(ctx, invite_id, "invited")
    return ctx.update(inv, status="canceled")


@service.tool(
    intent="extend the invite",
    write=True,
    example=first_example(Invite, "invite_id", where={"status": "expired"}, days=5),
)
def extend_invite(ctx: Ctx, invite_id: InviteId, days: Annotated[int, Field(ge=1, le=MAX_VALID_DAYS)]) -> Invite:
    """Give an unstarted or expired invite a new expiry, days from now; it becomes invited again.

    Args:
        invite_id: The invite.
        days: Days from now until it expires (1-30).
    """
    inv = _open_invite(ctx, invite_id, "invited", "expired")
    test = ctx.get(Test, inv.test_id, field="invite_id")
    if test.state != "published":
        raise RuleViolation(f"test {test.id} is {test.state}", field="invite_id", hint="invite to a published test")
    return ctx.update(inv, status="invited", expires_at=ctx.now() + dt.timedelta(days=days))


@service.tool(
    intent="start the candidate's attempt",
    write=True,
    example=first_example(Invite, "invite_id", where={"status": "invited"}, match=lambda c, i: i.expires_at > c.now()),
)
def start_attempt(ctx: Ctx, invite_id: InviteId) -> Invite:
    """The candidate opens the invite and the timer starts; refused once the invite has expired.

    Args:
        invite_id: The invite.
    """
    inv = _open_invite(ctx, invite_id, "invited")
    if inv.expires_at <= ctx.now():
        raise RuleViolation(
            f"invite {inv.id} expired at {inv.expires_at:%Y-%m-%d %H:%M}",
            field="invite_id",
            hint="extend it with assessments__extend_invite",
        )
    return ctx.update(inv, status="in_progress", started_at=ctx.now())


def _example_answer(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.where(Invite, status="in_progress"):
        test = ctx.get(Test, inv.test_id)
        done = {a.question_id for a in ctx.where(Answer, invite_id=inv.id)}
        for qid in test.question_ids:
            q = ctx.get(Question, qid)
            if qid not in done:
                lang = q.languages[0] if q.languages else None
                return {"invite_id": inv.id, "question_id": qid, "score": q.max_score // 2, "language": lang}
    return None


@service.tool(intent="record the candidate's answer", write=True, example=_example_answer)
def submit_answer(
    ctx: Ctx,
    invite_id: InviteId,
    question_id: QuestionId,
    score: Annotated[int, Field(ge=0, le=500)],
    language: LanguageName | None = None,
    tests_passed: Annotated[int, Field(ge=0, le=100)] = 0,
) -> Answer:
    """Record the auto-graded answer to one question of an attempt in progress (once per question).

    Args:
        invite_id: The attempt in progress.
        question_id: A question of its test.
        score: Points earned, up to the question's maximum.
        language: Language used; one the question allows (coding and database questions).
        tests_passed: Hidden test cases passed.
    """
    inv = _open_invite(ctx, invite_id, "in_progress")
    test = ctx.get(Test, inv.test_id, field="invite_id")
    if question_id not in test.question_ids:
        raise RuleViolation(f"question {question_id} is not in test {test.id}", field="question_id", hint=_LIST_Q)
    q = ctx.get(Question, question_id, field="question_id")
    if ctx.first(Answer, invite_id=inv.id, question_id=question_id) is not None:
        raise Conflict(f"question {question_id} is already answered", field="question_id", hint="answer another")
    if score > q.max_score:
        raise RuleViolation(f"score is above the question's {q.max_score}", field="score", hint="give 0 to max")
    if q.languages and language not in q.languages:
        raise RuleViolation(
            f"{language} is not allowed for this question", field="language", hint=f"one of {list(q.languages)}"
        )
    return ctx.create(
        Answer, invite_id=inv.id, question_id=question_id, score=score, language=language, tests_passed=tests_passed
    )


_LIST_Q = "see the test's question_ids with assessments__get_test"


@service.tool(
    intent="submit the candidate's attempt",
    write=True,
    example=first_example(Invite, "invite_id", where={"status": "in_progress"}),
)
def submit_attempt(ctx: Ctx, invite_id: InviteId) -> Invite:
    """Submit an attempt in progress: it is scored against the test's cutoff and its report is produced.

    Args:
        invite_id: The attempt in progress.
    """
    inv = _open_invite(ctx, invite_id, "in_progress")
    test = ctx.get(Test, inv.test_id, field="invite_id")
    total, earned = _totals(ctx, inv, test)
    pct = round(100 * earned / total, 1) if total else 0.0
    return ctx.update(
        inv,
        status="completed",
        submitted_at=ctx.now(),
        score=earned,
        max_score=total,
        percentage_score=pct,
        passed=pct >= test.cutoff_percent,
        report_url=f"https://skillcheck.example/x/reports/{inv.id}",
    )


def _totals(ctx: Ctx, inv: Invite, test: Test) -> tuple[int, int]:
    total = sum(ctx.get(Question, q).max_score for q in test.question_ids if ctx.find(Question, q))
    earned = sum(a.score for a in ctx.where(Answer, invite_id=inv.id))
    return total, earned


@service.tool(
    intent="flag the attempt for plagiarism",
    write=True,
    example=first_example(Invite, "invite_id", where={"status": "completed", "plagiarism_status": "none"}, note="x"),
)
def flag_plagiarism(ctx: Ctx, invite_id: InviteId, note: Text) -> Invite:
    """Flag a completed attempt as suspected plagiarism (code matching another source or candidate).

    Args:
        invite_id: The completed attempt.
        note: What looks copied.
    """
    inv = _open_invite(ctx, invite_id, "completed")
    if inv.plagiarism_status in ("suspected", "confirmed"):
        raise Conflict(f"invite {inv.id} is already {inv.plagiarism_status}", field="invite_id", hint="review it")
    if not note.strip():
        raise RuleViolation("a flag needs a note", field="note", hint="say what looks copied")
    return ctx.update(inv, plagiarism_status="suspected", plagiarism_note=note.strip())


@service.tool(
    intent="review the plagiarism flag",
    write=True,
    example=first_example(Invite, "invite_id", where={"plagiarism_status": "suspected"}, confirmed=False),
)
def review_plagiarism(ctx: Ctx, invite_id: InviteId, confirmed: bool) -> Invite:
    """Close a suspected-plagiarism review: confirmed rejects the candidate, otherwise the flag is cleared.

    Args:
        invite_id: The flagged attempt.
        confirmed: Whether the plagiarism is confirmed.
    """
    inv = ctx.get(Invite, invite_id, field="invite_id")
    if inv.plagiarism_status != "suspected":
        raise RuleViolation(
            f"invite {inv.id} is not under review ({inv.plagiarism_status})",
            field="invite_id",
            hint="flag it first with assessments__flag_plagiarism",
        )
    if confirmed:
        return ctx.update(inv, plagiarism_status="confirmed", decision="rejected")
    return ctx.update(inv, plagiarism_status="cleared")


@service.tool(
    intent="decide on the candidate",
    write=True,
    example=first_example(
        Invite, "invite_id", where={"status": "completed", "decision": "pending", "passed": True}, decision="advanced"
    ),
)
def decide_candidate(ctx: Ctx, invite_id: InviteId, decision: Literal["advanced", "rejected"]) -> Invite:
    """Advance or reject the candidate of a completed attempt; advancing needs no open plagiarism flag.

    Args:
        invite_id: The completed attempt.
        decision: advanced or rejected.
    """
    inv = _open_invite(ctx, invite_id, "completed")
    if inv.decision != "pending":
        raise Conflict(f"invite {inv.id} is already {inv.decision}", field="invite_id", hint="decisions are final")
    if decision == "advanced" and inv.plagiarism_status in ("suspected", "confirmed"):
        raise RuleViolation(
            f"the attempt is {inv.plagiarism_status} of plagiarism",
            field="decision",
            hint="clear the flag with assessments__review_plagiarism first",
        )
    return ctx.update(inv, decision=decision)


@service.tool(intent="show the candidate report", example=first_example(Invite, "invite_id"))
def candidate_report(ctx: Ctx, invite_id: InviteId) -> CandidateReport:
    """The candidate's score per question, overall percentage, pass/fail and plagiarism state.

    Args:
        invite_id: The invite.
    """
    inv = ctx.get(Invite, invite_id, field="invite_id")
    test = ctx.get(Test, inv.test_id, field="invite_id")
    got = {a.question_id: a.score for a in ctx.where(Answer, invite_id=inv.id)}
    lines = [
        QuestionScore(question_id=q.id, name=q.name, score=got.get(q.id, 0), max_score=q.max_score)
        for q in (ctx.find(Question, qid) for qid in test.question_ids)
        if q is not None
    ]
    taken = None
    if inv.started_at and inv.submitted_at:
        taken = int((inv.submitted_at - inv.started_at).total_seconds() // 60)
    return CandidateReport(
        invite_id=inv.id,
        candidate_email=inv.candidate_email,
        test_name=test.name,
        status=inv.status,
        percentage_score=inv.percentage_score,
        passed=inv.passed,
        plagiarism_status=inv.plagiarism_status,
        questions=lines,
        minutes_taken=taken,
    )


@service.tool(intent="summarize the test's results", example=first_example(Test, "test_id"))
def test_summary(ctx: Ctx, test_id: TestId) -> TestSummary:
    """Invites per status, pass rate and average percentage of a test.

    Args:
        test_id: The test.
    """
    test = ctx.get(Test, test_id, field="test_id")
    found = ctx.where(Invite, test_id=test.id)
    counts: dict[InviteStatus, int] = {s: 0 for s in ("invited", "in_progress", "completed", "expired", "canceled")}
    for i in found:
        counts[i.status] += 1
    done = [i for i in found if i.status == "completed"]
    pcts = [i.percentage_score or 0.0 for i in done]
    return TestSummary(
        test_id=test.id,
        by_status=counts,
        completed=len(done),
        pass_rate=round(100 * sum(bool(i.passed) for i in done) / len(done), 1) if done else 0.0,
        average_percentage=round(sum(pcts) / len(pcts), 1) if pcts else 0.0,
    )


# -- seed -------------------------------------------------------------------------------------

QUESTIONS: tuple[tuple[str, QuestionKind, Difficulty, int, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Two Sum Variants", "coding", "easy", 50, ("python3", "java", "javascript"), ("arrays", "hashing")),
    ("LRU Cache", "coding", "medium", 100, ("python3", "java", "go"), ("design", "linked-lists")),
    ("Shortest Delivery Route", "coding", "hard", 150, ("python3", "java", "c++"), ("graphs", "algorithms")),
    ("Top Customers by Revenue", "database", "medium", 75, ("mysql", "postgresql"), ("sql", "joins")),
    ("Rate Limiter Design", "subjective", "hard", 100, (), ("system-design",)),
    ("HTTP Status Semantics", "multiple_choice", "easy", 10, (), ("http", "rest")),
    ("React Component State", "multiple_choice", "medium", 10, (), ("react", "frontend")),
    ("Build a REST Endpoint", "project", "medium", 200, ("python3", "javascript"), ("backend", "rest")),
    ("Window Aggregates", "database", "hard", 100, ("postgresql",), ("sql", "analytics")),
)
TESTS: tuple[tuple[str, str, tuple[int, ...], int, float, TestState], ...] = (
    ("Backend Engineer Screen", "Software Engineer", (0, 1, 3, 5), 90, 60.0, "published"),
    ("Data Analyst SQL", "Data Analyst", (3, 8), 60, 65.0, "published"),
    ("Senior Engineer Deep Dive", "Senior Software Engineer", (2, 4, 7), 150, 70.0, "draft"),
    ("Frontend Engineer 2023", "Frontend Engineer", (0, 6), 60, 55.0, "archived"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """A question library, tests in every state, and consumers invited as candidates in every invite state."""
    pop = s.population
    recruiters = pop.staff("People", "HR", "Human Resources", fallback=3)
    engineers = pop.staff("Engineering", fallback=3)
    qs = [
        s.create(
            Question,
            name=name,
            kind=kind,
            difficulty=diff,
            max_score=pts,
            languages=langs,
            tags=tags,
            author_email=engineers[k % len(engineers)].email,
            created_at=s.ago(days=500 - 20 * k),
        )
        for k, (name, kind, diff, pts, langs, tags) in enumerate(QUESTIONS)
    ]
    made = [
        s.create(
            Test,
            name=name,
            role=role,
            question_ids=tuple(qs[i].id for i in picks),
            duration_minutes=minutes,
            cutoff_percent=cutoff,
            state=state,
            owner_email=recruiters[k % len(recruiters)].email,
            created_at=s.ago(days=300 - 40 * k),
            updated_at=s.ago(days=200 - 40 * k),
        )
        for k, (name, role, picks, minutes, cutoff, state) in enumerate(TESTS)
    ]
    plan: tuple[InviteStatus, ...] = ("completed", "completed", "completed", "in_progress", "invited", "expired")
    plan += ("completed", "canceled", "invited", "completed")
    people = pop.consumers[: len(plan)]
    for k, p in enumerate(people):
        test = made[3] if k == len(plan) - 1 else made[k % 2]
        _seed_invite(s, test, qs, p.email, p.name, plan[k], k, recruiters[k % len(recruiters)].email)


def _seed_invite(
    s: SeedContext, test: Test, qs: list[Question], email: str, name: str, status: InviteStatus, k: int, by: str
) -> None:
    sent = s.ago(days=40 - 3 * k)
    expires = s.ago(days=2) if status == "expired" else sent + dt.timedelta(days=60 if status == "invited" else 7)
    if status == "invited":
        expires = s.now + dt.timedelta(days=3 + k)
    inv = s.create(
        Invite,
        test_id=test.id,
        candidate_email=email,
        candidate_name=name,
        invited_by=by,
        status="in_progress" if status in ("in_progress", "completed") else status,
        expires_at=expires,
        started_at=sent + dt.timedelta(days=1) if status in ("in_progress", "completed") else None,
        created_at=sent,
        updated_at=sent,
    )
    if status not in ("in_progress", "completed"):
        return
    by_id = {q.id: q for q in qs}
    share = (0.9, 0.45, 0.75, 0.6, 0.8, 0.85, 0.7, 0.5, 0.95, 0.65)[k % 10]
    answered = test.question_ids if status == "completed" else test.question_ids[:1]
    for qid in answered:
        q = by_id[qid]
        s.create(
            Answer,
            invite_id=inv.id,
            question_id=qid,
            language=q.languages[0] if q.languages else None,
            score=round(q.max_score * share),
            tests_passed=round(10 * share) if q.kind == "coding" else 0,
            submitted_at=sent + dt.timedelta(days=1, minutes=20),
        )
    if status == "completed":
        total = sum(by_id[q].max_score for q in test.question_ids)
        earned = sum(round(by_id[q].max_score * share) for q in test.question_ids)
        pct = round(100 * earned / total, 1)
        s.update(
            inv,
            status="completed",
            submitted_at=sent + dt.timedelta(days=1, minutes=test.duration_minutes - 15),
            score=earned,
            max_score=total,
            percentage_score=pct,
            passed=pct >= test.cutoff_percent,
            plagiarism_status="suspected" if k == 2 else "none",
            plagiarism_note="Solution to LRU Cache matches a public repository line for line." if k == 2 else None,
            decision="advanced" if k == 0 else "pending",
            report_url=f"https://skillcheck.example/x/reports/{inv.id}",
        )
