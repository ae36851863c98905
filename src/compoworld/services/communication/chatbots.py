"""Answerly: AI customer-service chatbots with intents, answer flows, handoff rules and resolved conversations.

Modeled on Ada's platform API and Intercom Fin (bots per channel that go draft
→ live → paused; intents ("answers" in Ada) trained with example phrases;
answer flows of blocks — text, quick replies, collect an e-mail, hand off —
that are edited as drafts and published; handoff rules that pass a
conversation to a human team on an intent, on low confidence or when the
customer asks for an agent; and conversations with a resolution outcome
``automated_resolution``, ``assumed_resolution``, ``handoff`` or
``abandoned`` and an optional CSAT). A bot goes live only with a published
answer behind an enabled intent and a handoff rule; an intent needs at least
three distinct training phrases that no other intent of the bot uses; a
customer message is matched to the intent with the best phrase overlap, and
below the bot's confidence threshold the fallback (or a low-confidence handoff)
answers.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Language, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "chatbots",
    title="Answerly",
    category="chatbot_platform",
    modeled_on="Ada platform API and Intercom Fin: bots, intents/answers with training phrases, answer "
    "flows of blocks, handoff rules to human teams, conversations with resolution outcomes and CSAT",
    description="The home company's customer-service chatbots: bots per channel, the intents they "
    "recognise and their training phrases, answer flows, rules that hand conversations to human support "
    "teams, and the conversations with customers and how they were resolved.",
)

BotId = Annotated[str, IdOf("chatbots.bot")]
IntentId = Annotated[str, IdOf("chatbots.intent")]
AnswerId = Annotated[str, IdOf("chatbots.answer")]
RuleId = Annotated[str, IdOf("chatbots.handoff_rule")]
ConversationId = Annotated[str, IdOf("chatbots.conversation")]

Phrase = Annotated[str, StringConstraints(min_length=3, max_length=200)]
"""A training phrase or customer message."""

BotStatus = Literal["draft", "live", "paused"]
BotChannel = Literal["web", "whatsapp", "sms", "email"]
BlockKind = Literal["text", "quick_replies", "collect_email", "handoff", "link"]
Trigger = Literal["intent", "low_confidence", "customer_asks"]
ConvStatus = Literal["open", "resolved", "handed_off", "abandoned"]
Outcome = Literal["automated_resolution", "assumed_resolution", "handoff", "abandoned"]
Author = Literal["customer", "bot"]

MIN_PHRASES = 3
AGENT_WORDS = frozenset({"agent", "human", "person", "representative"})
_WORD = re.compile(r"[a-z0-9']+")


class Bot(Timestamped):
    """A chatbot deployed on one channel."""

    id: BotId
    name: Title
    """The bot's name."""
    channel: BotChannel = "web"
    """web, whatsapp, sms or email."""
    language: Language = "en"
    """Language it answers in."""
    status: BotStatus = "draft"
    """draft, live or paused."""
    greeting: Text = "Hi! How can I help?"
    """First message."""
    fallback_message: Text = "Sorry, I did not get that. Could you rephrase?"
    """Reply when no intent is confident enough."""
    confidence_threshold: Annotated[float, Field(ge=0.1, le=0.95)] = 0.4
    """Minimum match confidence to answer with an intent."""


class Block(Value):
    """A step of an answer flow."""

    kind: BlockKind
    """text, quick_replies, collect_email, handoff or link."""
    content: Annotated[str, StringConstraints(min_length=1, max_length=1000)]
    """The text, the options (separated by |) or the URL."""


class Answer(Timestamped):
    """An answer flow: the blocks a bot replies with."""

    id: AnswerId
    bot_id: BotId
    """The bot."""
    title: Title
    """Its title."""
    blocks: tuple[Block, ...] = ()
    """The flow."""
    published: bool = False
    """Whether the live bot uses it."""
    version: int = 0
    """Times published."""


class Intent(Timestamped):
    """Something customers ask, recognised from training phrases."""

    id: IntentId
    bot_id: BotId
    """The bot."""
    name: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,59}$")]
    """Name (unique per bot)."""
    training_phrases: tuple[Phrase, ...]
    """Example phrases (at least 3)."""
    answer_id: AnswerId
    """The answer it triggers."""
    enabled: bool = True
    """Whether it is matched."""


class HandoffRule(Timestamped):
    """When to pass a conversation to a human team."""

    id: RuleId
    bot_id: BotId
    """The bot."""
    name: Title
    """Its name."""
    trigger: Trigger
    """intent (a given intent matched), low_confidence or customer_asks (for an agent)."""
    intent_id: IntentId | None = None
    """The intent, for an intent trigger."""
    team: Title
    """Support team that takes over."""
    team_lead_email: Email
    """The employee leading that team."""
    priority: Annotated[int, Field(ge=1, le=100)] = 50
    """Lower runs first."""
    enabled: bool = True
    """Whether it applies."""


class Turn(Value):
    """A message in a conversation."""

    author: Author
    """customer or bot."""
    text: Text
    """The message."""
    intent_id: IntentId | None = None
    """The intent matched for a customer message."""
    confidence: float = 0.0
    """Match confidence."""


class Conversation(Timestamped):
    """A customer's conversation with a bot."""

    id: ConversationId
    bot_id: BotId
    """The bot."""
    customer_email: Email
    """The customer."""
    customer_name: PersonName | None = None
    """Their name."""
    status: ConvStatus = "open"
    """open, resolved, handed_off or abandoned."""
    turns: tuple[Turn, ...] = ()
    """Messages in order."""
    outcome: Outcome | None = None
    """automated_resolution, assumed_resolution, handoff or abandoned, once ended."""
    handoff_team: Title | None = None
    """Team it was handed to."""
    csat: Annotated[int, Field(ge=1, le=5)] | None = None
    """Customer rating 1-5."""
    ended_at: DateTime | None = None
    """When it ended."""


class Prediction(Value):
    """The intent a phrase would match."""

    intent_id: IntentId | None
    """Best intent, if confident enough."""
    intent_name: str | None
    """Its name."""
    confidence: float
    """Best overlap, 0-1."""


class Report(Value):
    """A bot's conversation outcomes."""

    bot_id: BotId
    """The bot."""
    conversations: int
    """Conversations."""
    by_outcome: dict[str, int]
    """Ended conversations per outcome."""
    automated_resolution_rate: float
    """Share of ended conversations resolved without a human, in percent."""
    average_csat: float | None
    """Mean rating."""


# -- rules ------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def _match(ctx: Ctx, bot: Bot, text: str) -> tuple[Intent | None, float]:
    said = _words(text)
    best: tuple[Intent | None, float] = (None, 0.0)
    for i in ctx.where(Intent, bot_id=bot.id, enabled=True):
        for p in i.training_phrases:
            words = _words(p)
            score = len(said & words) / len(said | words) if said | words else 0.0
            if score > best[1]:
                best = (i, round(score, 3))
    return best


def _guard_bot(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "live" and (old is None or old.status != "live"):
        _ready(ctx, new)


def _ready(ctx: Ctx, bot: Bot) -> None:
    live = [i for i in ctx.where(Intent, bot_id=bot.id, enabled=True) if ctx.get(Answer, i.answer_id).published]
    if not live:
        raise RuleViolation(
            "the bot needs an enabled intent with a published answer", field="bot_id", hint="publish an answer"
        )
    if not ctx.where(HandoffRule, bot_id=bot.id, enabled=True):
        raise RuleViolation("the bot needs an enabled handoff rule", field="bot_id", hint="add one")


bots = service.resource(
    Bot,
    name="bot",
    plural="bots",
    prefix="bot",
    create=("name", "channel", "language", "greeting", "fallback_message", "confidence_threshold"),
    filters=("status", "channel", "language"),
    search=("name",),
    update=("name", "greeting", "fallback_message", "confidence_threshold"),
    delete=False,
    transitions={
        "publish": Transition("status", ("draft", "paused"), "live", "put the bot live"),
        "pause": Transition("status", ("live",), "paused", "pause the bot"),
    },
    guard_update=_guard_bot,
)
answers = service.resource(
    Answer,
    name="answer",
    plural="answers",
    prefix="ans",
    create=False,
    filters=("bot_id", "published"),
    search=("title",),
    delete=False,
    title="answer flow",
)
intents = service.resource(
    Intent,
    name="intent",
    plural="intents",
    prefix="int",
    create=False,
    get=False,
    filters=("bot_id", "enabled", "answer_id", "name"),
    delete=False,
    transitions={
        "disable": Transition("enabled", (True,), False, "disable the intent"),
        "enable": Transition("enabled", (False,), True, "enable the intent"),
    },
)
rules = service.resource(
    HandoffRule,
    name="handoff_rule",
    plural="handoff_rules",
    prefix="ho",
    create=False,
    get=False,
    filters=("bot_id", "trigger", "enabled"),
    update=("priority", "enabled", "team"),
    title="handoff rule",
)
conversations = service.resource(
    Conversation,
    name="conversation",
    plural="conversations",
    prefix="conv",
    create=False,
    filters=("bot_id", "status", "customer_email", "outcome", "handoff_team"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create the answer flow",
    write=True,
    example=first_example(Bot, "bot_id", title="Store hours", blocks=[{"kind": "text", "content": "We are open 9-5."}]),
)
def create_answer(
    ctx: Ctx, bot_id: BotId, title: Title, blocks: Annotated[list[Block], Field(min_length=1, max_length=20)]
) -> Answer:
    """Create a draft answer flow; quick replies need at least two options separated by |.

    Args:
        bot_id: The bot.
        title: Its title.
        blocks: The flow's blocks in order.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    for b in blocks:
        if b.kind == "quick_replies" and len([o for o in b.content.split("|") if o.strip()]) < 2:
            raise RuleViolation("quick replies need two options", field="blocks", hint="separate options with |")
    return ctx.create(Answer, bot_id=bot.id, title=title, blocks=tuple(blocks))


@service.tool(
    intent="publish the answer flow", write=True, example=first_example(Answer, "answer_id", where={"published": False})
)
def publish_answer(ctx: Ctx, answer_id: AnswerId) -> Answer:
    """Publish an answer flow; a flow with a handoff block needs an enabled handoff rule on its bot.

    Args:
        answer_id: The answer.
    """
    a = ctx.get(Answer, answer_id, field="answer_id")
    if a.published:
        raise Conflict(f"{a.title!r} is already published", field="answer_id", hint="edit it first")
    if any(b.kind == "handoff" for b in a.blocks) and not ctx.where(HandoffRule, bot_id=a.bot_id, enabled=True):
        raise RuleViolation("a handoff block needs a handoff rule", field="answer_id", hint="add a handoff rule")
    return ctx.update(a, published=True, version=a.version + 1)


def _example_intent(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Answer)
    return (
        None
        if a is None
        else {
            "bot_id": a.bot_id,
            "name": "gift_cards",
            "answer_id": a.id,
            "training_phrases": ["do you sell gift cards", "buy a gift card", "gift voucher for a friend"],
        }
    )


@service.tool(intent="create the intent", write=True, example=_example_intent)
def create_intent(
    ctx: Ctx,
    bot_id: BotId,
    name: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,59}$")],
    training_phrases: Annotated[list[Phrase], Field(min_length=1, max_length=100)],
    answer_id: AnswerId,
) -> Intent:
    """Teach the bot an intent: at least three distinct phrases no other intent of the bot uses, and an answer of the same bot.

    Args:
        bot_id: The bot.
        name: snake_case name, unique per bot.
        training_phrases: Example customer phrases.
        answer_id: The answer flow it triggers.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    if ctx.first(Intent, bot_id=bot.id, name=name):
        raise Conflict(f"intent {name!r} exists", field="name", hint="add phrases to it")
    ans = ctx.get(Answer, answer_id, field="answer_id")
    if ans.bot_id != bot.id:
        raise RuleViolation("the answer belongs to another bot", field="answer_id", hint="create one for this bot")
    phrases = _phrases(ctx, bot.id, training_phrases, None)
    if len(phrases) < MIN_PHRASES:
        raise RuleViolation(
            f"an intent needs {MIN_PHRASES} distinct phrases", field="training_phrases", hint="add more"
        )
    return ctx.create(Intent, bot_id=bot.id, name=name, training_phrases=phrases, answer_id=ans.id)


def _phrases(ctx: Ctx, bot_id: str, new: list[str], own: str | None) -> tuple[str, ...]:
    taken = {
        p.strip().lower(): i.name for i in ctx.where(Intent, bot_id=bot_id) if i.id != own for p in i.training_phrases
    }
    for p in new:
        if p.strip().lower() in taken:
            raise Conflict(
                f"{p!r} already trains intent {taken[p.strip().lower()]!r}",
                field="training_phrases",
                hint="phrases must be distinct",
            )
    seen: dict[str, str] = {}
    for p in new:
        seen.setdefault(p.strip().lower(), p.strip())
    return tuple(seen.values())


@service.tool(
    intent="add training phrases to the intent",
    write=True,
    example=first_example(Intent, "intent_id", training_phrases=["where is my parcel right now"]),
)
def add_training_phrases(
    ctx: Ctx, intent_id: IntentId, training_phrases: Annotated[list[Phrase], Field(min_length=1, max_length=50)]
) -> Intent:
    """Add phrases to an intent; none may already train this or another intent of the bot.

    Args:
        intent_id: The intent.
        training_phrases: New phrases.
    """
    i = ctx.get(Intent, intent_id, field="intent_id")
    mine = {p.lower() for p in i.training_phrases}
    if any(p.strip().lower() in mine for p in training_phrases):
        raise Conflict("a phrase is already on this intent", field="training_phrases", hint="add new phrases")
    return ctx.update(i, training_phrases=(*i.training_phrases, *_phrases(ctx, i.bot_id, training_phrases, i.id)))


def _example_rule(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Bot)
    return (
        None
        if b is None
        else {
            "bot_id": b.id,
            "name": "Angry customers",
            "trigger": "customer_asks",
            "team": "Tier 2",
            "team_lead_email": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="create the handoff rule", write=True, example=_example_rule)
def create_handoff_rule(
    ctx: Ctx,
    bot_id: BotId,
    name: Title,
    trigger: Trigger,
    team: Title,
    team_lead_email: Email,
    intent_id: IntentId | None = None,
    priority: Annotated[int, Field(ge=1, le=100)] = 50,
) -> HandoffRule:
    """Add a rule handing conversations to a human team led by an employee; an intent trigger names an intent of the bot.

    Args:
        bot_id: The bot.
        name: The rule's name.
        trigger: intent, low_confidence or customer_asks.
        team: The support team.
        team_lead_email: The employee leading it.
        intent_id: The intent, for an intent trigger.
        priority: Lower runs first.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    if team_lead_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{team_lead_email} is not an employee", field="team_lead_email", hint="use a team lead's e-mail"
        )
    if (trigger == "intent") != (intent_id is not None):
        raise RuleViolation(
            "intent_id goes with an intent trigger only", field="intent_id", hint="match trigger and intent"
        )
    if intent_id is not None and ctx.get(Intent, intent_id, field="intent_id").bot_id != bot.id:
        raise RuleViolation("the intent belongs to another bot", field="intent_id", hint="pick one of this bot")
    if trigger != "intent" and ctx.first(HandoffRule, bot_id=bot.id, trigger=trigger, enabled=True):
        raise Conflict(f"the bot already has a {trigger} rule", field="trigger", hint="update that rule")
    return ctx.create(
        HandoffRule,
        bot_id=bot.id,
        name=name,
        trigger=trigger,
        intent_id=intent_id,
        team=team,
        team_lead_email=team_lead_email,
        priority=priority,
    )


def _rule_for(ctx: Ctx, bot: Bot, intent: Intent | None, confident: bool, text: str) -> HandoffRule | None:
    for r in sorted(ctx.where(HandoffRule, bot_id=bot.id, enabled=True), key=lambda r: (r.priority, r.id)):
        if r.trigger == "customer_asks" and _words(text) & AGENT_WORDS:
            return r
        if r.trigger == "intent" and confident and intent is not None and r.intent_id == intent.id:
            return r
        if r.trigger == "low_confidence" and not confident:
            return r
    return None


def _example_message(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Bot, status="live")
    c = ctx.population.consumers[0]
    return (
        None
        if b is None
        else {"bot_id": b.id, "customer_email": c.email, "text": "where is my order", "customer_name": c.name}
    )


@service.tool(intent="send the customer's message to the bot", write=True, example=_example_message)
def send_message(
    ctx: Ctx, bot_id: BotId, customer_email: Email, text: Phrase, customer_name: PersonName | None = None
) -> Conversation:
    """A customer writes to a live bot: the message is matched to an intent and answered, or handed off.

    The customer's open conversation continues (or a new one starts); below the confidence threshold the
    fallback answers, and the first matching handoff rule (by priority) passes it to a team.

    Args:
        bot_id: The live bot.
        customer_email: The customer.
        text: What they wrote.
        customer_name: Their name, for a new conversation.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    if bot.status != "live":
        raise Conflict(f"bot {bot.name!r} is {bot.status}", field="bot_id", hint="put it live first")
    conv = ctx.first(Conversation, bot_id=bot.id, customer_email=customer_email, status="open")
    if conv is None:
        conv = ctx.create(
            Conversation,
            bot_id=bot.id,
            customer_email=customer_email,
            customer_name=customer_name,
            turns=(Turn(author="bot", text=bot.greeting),),
        )
    intent, score = _match(ctx, bot, text)
    confident = intent is not None and score >= bot.confidence_threshold
    turns = [
        *conv.turns,
        Turn(author="customer", text=text, intent_id=intent.id if confident and intent else None, confidence=score),
    ]
    rule = _rule_for(ctx, bot, intent, confident, text)
    if rule is not None:
        turns.append(Turn(author="bot", text=f"Connecting you with our {rule.team} team."))
        return ctx.update(
            conv, turns=tuple(turns), status="handed_off", outcome="handoff", handoff_team=rule.team, ended_at=ctx.now()
        )
    if confident and intent is not None:
        ans = ctx.get(Answer, intent.answer_id)
        turns.extend(Turn(author="bot", text=b.content) for b in ans.blocks if ans.published and b.kind != "handoff")
        if not ans.published:
            turns.append(Turn(author="bot", text=bot.fallback_message))
    else:
        turns.append(Turn(author="bot", text=bot.fallback_message))
    return ctx.update(conv, turns=tuple(turns))


@service.tool(
    intent="close the conversation as resolved",
    write=True,
    example=first_example(Conversation, "conversation_id", where={"status": "open"}),
)
def resolve_conversation(
    ctx: Ctx,
    conversation_id: ConversationId,
    confirmed: bool = True,
    csat: Annotated[int, Field(ge=1, le=5)] | None = None,
) -> Conversation:
    """End an open conversation the bot resolved: confirmed by the customer (automated) or assumed.

    Args:
        conversation_id: The conversation.
        confirmed: Whether the customer confirmed it helped.
        csat: Their rating 1-5.
    """
    c = ctx.get(Conversation, conversation_id, field="conversation_id")
    if c.status != "open":
        raise Conflict(f"conversation {c.id} is {c.status}", field="conversation_id", hint="only open conversations")
    if not any(t.author == "customer" and t.intent_id for t in c.turns):
        raise RuleViolation("no intent was answered in it", field="conversation_id", hint="abandon or hand it off")
    return ctx.update(
        c,
        status="resolved",
        outcome="automated_resolution" if confirmed else "assumed_resolution",
        csat=csat,
        ended_at=ctx.now(),
    )


@service.tool(
    intent="mark the conversation abandoned",
    write=True,
    example=first_example(Conversation, "conversation_id", where={"status": "open"}),
)
def abandon_conversation(ctx: Ctx, conversation_id: ConversationId) -> Conversation:
    """End an open conversation the customer left.

    Args:
        conversation_id: The conversation.
    """
    c = ctx.get(Conversation, conversation_id, field="conversation_id")
    if c.status != "open":
        raise Conflict(f"conversation {c.id} is {c.status}", field="conversation_id", hint="only open conversations")
    return ctx.update(c, status="abandoned", outcome="abandoned", ended_at=ctx.now())


@service.tool(
    intent="test which intent a phrase matches", example=first_example(Bot, "bot_id", text="I want my money back")
)
def test_phrase(ctx: Ctx, bot_id: BotId, text: Phrase) -> Prediction:
    """Which intent a phrase would match in the bot, and how confidently (nothing is recorded).

    Args:
        bot_id: The bot.
        text: A customer phrase.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    intent, score = _match(ctx, bot, text)
    ok = intent is not None and score >= bot.confidence_threshold
    return Prediction(
        intent_id=intent.id if ok and intent else None,
        intent_name=intent.name if ok and intent else None,
        confidence=score,
    )


@service.tool(intent="show the bot's resolution report", example=first_example(Bot, "bot_id"))
def bot_report(ctx: Ctx, bot_id: BotId) -> Report:
    """Conversations per outcome, the automated resolution rate and average CSAT.

    Args:
        bot_id: The bot.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    convs = ctx.where(Conversation, bot_id=bot.id)
    by: dict[str, int] = {}
    for c in convs:
        if c.outcome is not None:
            by[c.outcome] = by.get(c.outcome, 0) + 1
    ended = sum(by.values())
    rated = [c.csat for c in convs if c.csat is not None]
    return Report(
        bot_id=bot.id,
        conversations=len(convs),
        by_outcome=by,
        automated_resolution_rate=round(100 * by.get("automated_resolution", 0) / ended, 1) if ended else 0.0,
        average_csat=round(sum(rated) / len(rated), 2) if rated else None,
    )


# -- seed -------------------------------------------------------------------------------------

FLOWS: tuple[tuple[str, str, tuple[str, ...], tuple[tuple[BlockKind, str], ...]], ...] = (
    (
        "order_status",
        "Where is my order",
        ("where is my order", "track my package", "my order has not arrived", "order status"),
        (
            ("text", "You can track your order from the link in your shipping e-mail."),
            ("link", "https://example.com/track"),
        ),
    ),
    (
        "returns",
        "Returns and refunds",
        ("i want to return an item", "how do i get a refund", "send it back", "return policy"),
        (("text", "You can return items within 30 days."), ("quick_replies", "Start a return|Talk to someone")),
    ),
    (
        "opening_hours",
        "Opening hours",
        ("when are you open", "opening hours", "are you open on sunday"),
        (("text", "We are open Monday to Friday, 9:00-17:00."),),
    ),
    (
        "billing_issue",
        "Billing problems",
        ("i was charged twice", "wrong amount on my invoice", "billing problem"),
        (("text", "Let me connect you with billing."), ("handoff", "billing")),
    ),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """A live web bot with intents and handoff rules, a paused WhatsApp bot, a draft bot; consumer conversations in every outcome."""
    pop = s.population
    leads = pop.staff("Support", fallback=2)
    web = s.create(
        Bot, name=f"{pop.home.name} Assistant", status="live", created_at=s.ago(days=200), updated_at=s.ago(days=5)
    )
    wa = s.create(
        Bot,
        name="WhatsApp helper",
        channel="whatsapp",
        status="paused",
        created_at=s.ago(days=90),
        updated_at=s.ago(days=9),
    )
    s.create(Bot, name="Billing bot (beta)", status="draft", created_at=s.ago(days=10), updated_at=s.ago(days=10))
    made: dict[str, Intent] = {}
    for bot in (web, wa):
        for name, title, phrases, blocks in FLOWS:
            ans = s.create(
                Answer,
                bot_id=bot.id,
                title=title,
                blocks=tuple(Block(kind=k, content=c) for k, c in blocks),
                published=True,
                version=2,
                created_at=s.ago(days=150),
                updated_at=s.ago(days=20),
            )
            it = s.create(
                Intent,
                bot_id=bot.id,
                name=name,
                training_phrases=phrases,
                answer_id=ans.id,
                enabled=not (bot is wa and name == "opening_hours"),
                created_at=s.ago(days=150),
                updated_at=s.ago(days=20),
            )
            if bot is web:
                made[name] = it
        s.create(
            HandoffRule,
            bot_id=bot.id,
            name="Ask for a human",
            trigger="customer_asks",
            team="Customer Support",
            team_lead_email=leads[0].email,
            priority=10,
            created_at=s.ago(days=150),
            updated_at=s.ago(days=150),
        )
    s.create(
        Answer,
        bot_id=web.id,
        title="Holiday shipping (draft)",
        blocks=(Block(kind="text", content="Order by Dec 18 for delivery before the holidays."),),
        created_at=s.ago(days=3),
        updated_at=s.ago(days=3),
    )
    s.create(
        HandoffRule,
        bot_id=web.id,
        name="Billing to finance",
        trigger="intent",
        intent_id=made["billing_issue"].id,
        team="Billing",
        team_lead_email=leads[-1].email,
        priority=20,
        created_at=s.ago(days=100),
        updated_at=s.ago(days=100),
    )
    s.create(
        HandoffRule,
        bot_id=web.id,
        name="Low confidence",
        trigger="low_confidence",
        team="Customer Support",
        team_lead_email=leads[0].email,
        priority=90,
        enabled=False,
        created_at=s.ago(days=100),
        updated_at=s.ago(days=30),
    )
    plan: tuple[tuple[str, ConvStatus, Outcome | None, int | None], ...] = (
        ("where is my order", "resolved", "automated_resolution", 5),
        ("opening hours", "resolved", "assumed_resolution", None),
        ("i was charged twice", "handed_off", "handoff", None),
        ("can i talk to a human", "handed_off", "handoff", None),
        ("return policy", "resolved", "automated_resolution", 4),
        ("hello?", "abandoned", "abandoned", None),
        ("track my package", "open", None, None),
        ("how do i get a refund", "resolved", "automated_resolution", 2),
    )
    for k, (text, status, outcome, csat) in enumerate(plan):
        c = pop.consumers[k]
        intent = next((i for i in made.values() if text in i.training_phrases), None)
        turns = (
            Turn(author="bot", text=web.greeting),
            Turn(
                author="customer", text=text, intent_id=intent.id if intent else None, confidence=1.0 if intent else 0.0
            ),
        )
        team = "Billing" if "charged" in text else "Customer Support" if status == "handed_off" else None
        s.create(
            Conversation,
            bot_id=web.id,
            customer_email=c.email,
            customer_name=c.name,
            status=status,
            turns=turns,
            outcome=outcome,
            handoff_team=team,
            csat=csat,
            ended_at=None if status == "open" else s.ago(days=k, hours=1),
            created_at=s.ago(days=k, hours=2),
            updated_at=s.ago(days=k, hours=1),
        )
