"""Textlens: sentiment, entities, content categories, moderation and language of a text, and saved analyses.

Modeled on the Google Cloud Natural Language API v1 (``documents:analyzeSentiment``,
``documents:analyzeEntities``, ``documents:classifyText``, ``documents:moderateText``,
``documents:annotateText``) with language detection as the API reports it in every
response. The analysis tools are open-world: their answers come from a deterministic
model of the outside world:

* sentiment scores each sentence from a lexicon of opinion words (negation flips a
  word, intensifiers strengthen it); the document's score is the mean of its
  sentences', its magnitude the sum of their absolute scores;
* entities are the world's people, companies and cities found by name, e-mail
  addresses, phone numbers, prices, dates and numbers; salience favours the
  entities mentioned often and early;
* categories come from the content taxonomy's keyword profiles; moderation from
  harm-category keyword lists.

The API's own limits are enforced: an empty document is refused, a document may
hold at most 10,000 characters (this project's request size), each feature
supports its own languages (classification and moderation English only, as v1),
and classification needs at least 20 words. HTML documents are read without their
markup.

Saved documents keep texts the team analyses again (reviews, support mails); an
analysis run on a saved document is stored with the document's revision, and an
edit makes the earlier analyses stale. An archived document is read-only.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person, Population
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    City,
    CompanyName,
    Country,
    Domain,
    Email,
    IdOf,
    Language,
    PersonName,
    Phone,
    Quantity,
    Text,
    Title,
)
from compoworld.services.information.translate import _detect
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "textlens",
    title="Textlens",
    category="text_analysis",
    modeled_on="Google Cloud Natural Language API v1 (analyzeSentiment, analyzeEntities, classifyText, "
    "moderateText, annotateText; detected language in every response)",
    description="Natural-language analysis of text: sentiment by sentence and document, named entities with "
    "salience, content categories, moderation for harmful content and the text's language; plus saved documents "
    "(reviews, customer messages) with their stored, revision-stamped analyses.",
)

DocumentId = Annotated[str, IdOf("textlens.document")]
AnalysisId = Annotated[str, IdOf("textlens.analysis")]

DocType = Literal["PLAIN_TEXT", "HTML"]
Feature = Literal["sentiment", "entities", "classify", "moderate"]

MAX_CHARACTERS = 10_000
"""The most characters one request may hold."""
MIN_CLASSIFY_WORDS = 20
"""classifyText refuses shorter texts ("too few tokens")."""
FEATURE_LANGUAGES: dict[Feature, tuple[str, ...]] = {
    "sentiment": ("en", "de", "es", "fr", "it", "ja", "nl", "pl", "pt", "zh"),
    "entities": ("en", "de", "es", "fr", "it", "ja", "nl", "pt", "ru", "zh"),
    "classify": ("en",),
    "moderate": ("en",),
}
"""Languages each feature supports."""

EntityType = Literal["PERSON", "ORGANIZATION", "LOCATION", "EMAIL", "PHONE_NUMBER", "PRICE", "DATE", "NUMBER", "OTHER"]
DocStatus = Literal["active", "archived"]
DocSource = Literal["review", "support_email", "survey_answer", "social_post", "note"]

# -- the world model -----------------------------------------------------------------------

_POSITIVE = {
    "good": 0.6,
    "great": 0.8,
    "excellent": 0.9,
    "amazing": 0.9,
    "love": 0.8,
    "loved": 0.8,
    "happy": 0.7,
    "fast": 0.4,
    "friendly": 0.6,
    "helpful": 0.6,
    "perfect": 0.9,
    "recommend": 0.6,
    "thanks": 0.4,
    "thank": 0.4,
    "pleased": 0.6,
    "easy": 0.4,
    "reliable": 0.5,
    "quick": 0.4,
    "nice": 0.5,
    "best": 0.8,
    "satisfied": 0.6,
    "wonderful": 0.9,
    "smooth": 0.4,
    "fantastic": 0.9,
    "gut": 0.6,
    "super": 0.7,
    "toll": 0.8,
    "bien": 0.5,
    "bon": 0.5,
    "excelente": 0.9,
    "bueno": 0.6,
    "ottimo": 0.9,
    "bom": 0.6,
    "goed": 0.6,
    "dobry": 0.6,
    "merci": 0.4,
    "gracias": 0.4,
    "danke": 0.4,
}
_NEGATIVE = {
    "bad": -0.6,
    "terrible": -0.9,
    "awful": -0.9,
    "poor": -0.6,
    "slow": -0.5,
    "broken": -0.7,
    "damaged": -0.7,
    "late": -0.5,
    "hate": -0.8,
    "disappointed": -0.7,
    "disappointing": -0.7,
    "worst": -0.9,
    "rude": -0.7,
    "angry": -0.7,
    "refund": -0.3,
    "problem": -0.4,
    "issue": -0.3,
    "missing": -0.5,
    "wrong": -0.5,
    "never": -0.3,
    "unhappy": -0.7,
    "delay": -0.4,
    "delayed": -0.5,
    "useless": -0.8,
    "cancel": -0.3,
    "complaint": -0.5,
    "schlecht": -0.6,
    "kaputt": -0.7,
    "mauvais": -0.6,
    "malo": -0.6,
    "cattivo": -0.6,
    "slecht": -0.6,
    "zły": -0.6,
    "ruim": -0.6,
}
_NEGATIONS = {"not", "no", "never", "hardly", "nicht", "kein", "pas", "ne", "non", "niet", "nie", "não"}
_INTENSIFIERS = {"very": 1.5, "really": 1.4, "extremely": 1.8, "so": 1.3, "sehr": 1.5, "très": 1.5, "muy": 1.5}

_CATEGORIES: dict[str, tuple[str, ...]] = {
    "/Business & Industrial/Shipping & Logistics": (
        "delivery",
        "shipment",
        "parcel",
        "carrier",
        "shipping",
        "tracking",
        "warehouse",
        "freight",
        "courier",
    ),
    "/Finance/Accounting & Auditing/Billing & Invoicing": (
        "invoice",
        "payment",
        "billing",
        "refund",
        "charge",
        "receipt",
        "paid",
        "balance",
        "credit",
        "overdue",
    ),
    "/Computers & Electronics/Software": (
        "software",
        "app",
        "login",
        "password",
        "update",
        "bug",
        "crash",
        "install",
        "account",
        "api",
    ),
    "/Shopping/Consumer Resources/Product Reviews & Price Comparisons": (
        "product",
        "quality",
        "price",
        "bought",
        "purchase",
        "review",
        "order",
        "recommend",
        "value",
        "stars",
    ),
    "/Travel & Transportation/Hotels & Accommodations": (
        "hotel",
        "room",
        "stay",
        "booking",
        "reservation",
        "check-in",
        "breakfast",
        "suite",
        "guest",
        "lobby",
    ),
    "/Food & Drink/Restaurants": (
        "restaurant",
        "meal",
        "dinner",
        "lunch",
        "menu",
        "waiter",
        "table",
        "food",
        "dish",
        "chef",
    ),
    "/Health/Health Conditions": (
        "doctor",
        "appointment",
        "clinic",
        "patient",
        "pain",
        "prescription",
        "symptoms",
        "treatment",
        "nurse",
    ),
    "/Jobs & Education/Jobs": (
        "job",
        "hiring",
        "interview",
        "salary",
        "resume",
        "candidate",
        "position",
        "career",
        "offer",
        "role",
    ),
}
"""Content categories (v2 taxonomy paths) with their keyword profiles."""

_MODERATION: dict[str, tuple[str, ...]] = {
    "Toxic": ("idiot", "stupid", "moron", "hate", "shut up", "pathetic"),
    "Insult": ("idiot", "stupid", "moron", "loser", "pathetic", "clown"),
    "Profanity": ("damn", "crap", "hell", "bloody"),
    "Violent": ("kill", "hit", "attack", "destroy", "punch", "weapon"),
    "Death, Harm & Tragedy": ("died", "death", "accident", "injury", "killed"),
    "Finance": ("invoice", "payment", "loan", "bank", "refund", "price"),
    "Health": ("doctor", "medication", "clinic", "symptoms", "hospital"),
    "Legal": ("lawyer", "lawsuit", "court", "sue", "contract", "attorney"),
    "Politics": ("election", "government", "senator", "parliament", "vote"),
}
"""Moderation categories with the words that raise their confidence."""

_SENTENCE = re.compile(r"\S[^\n]*?(?:[.!?]+(?=\s|$)|(?=\n)|$)")
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*", re.UNICODE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"\+[1-9][0-9 ()-]{6,18}[0-9]")
_PRICE = re.compile(r"(?:[$€£]\s?\d[\d,]*(?:\.\d{1,2})?|\d[\d,]*(?:\.\d{1,2})?\s?(?:USD|EUR|GBP))")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_NUMBER = re.compile(r"(?<![\w.#-])\d+(?:\.\d+)?(?![\w-])")
_TAG = re.compile(r"<[^>]*>")


def _plain(text: str, doc_type: str) -> str:
    return _TAG.sub(" ", text) if doc_type == "HTML" else text


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _score(sentence: str) -> float:
    words = _words(sentence)
    total = 0.0
    hits = 0
    for i, w in enumerate(words):
        value = _POSITIVE.get(w) or _NEGATIVE.get(w)
        if value is None:
            continue
        if i > 0 and words[i - 1] in _INTENSIFIERS:
            value *= _INTENSIFIERS[words[i - 1]]
        if any(words[j] in _NEGATIONS for j in range(max(0, i - 3), i)):
            value = -0.5 * value
        total += value
        hits += 1
    if hits == 0:
        return 0.0
    return round(max(-1.0, min(1.0, total / hits)), 2)


class Sentiment(BaseModel):
    """A sentiment: how positive (score) and how strongly felt (magnitude)."""

    score: float = Field(ge=-1, le=1, description="From -1 (negative) to 1 (positive).")
    magnitude: float = Field(ge=0, description="Overall strength of emotion, positive or negative (0 to +inf).")


class SentenceSentiment(BaseModel):
    """One sentence and its sentiment."""

    text: str = Field(description="The sentence as written.")
    begin_offset: int = Field(description="Where it starts in the text, in characters.")
    sentiment: Sentiment = Field(description="Its sentiment.")


class SentimentAnalysis(BaseModel):
    """The answer of analyzeSentiment."""

    document_sentiment: Sentiment = Field(description="The sentiment of the whole text.")
    language: Language = Field(description="The language of the text (given or detected).")
    sentences: list[SentenceSentiment] = Field(description="Every sentence with its sentiment, in order.")


class EntityMention(BaseModel):
    """One place the entity is mentioned."""

    text: str = Field(description="The words as written.")
    begin_offset: int = Field(description="Where they start in the text, in characters.")
    type: Literal["PROPER", "COMMON"] = Field(description="PROPER for a name, COMMON for another phrase.")


class Entity(BaseModel):
    """A named entity of the text."""

    name: str = Field(description="The entity's canonical name.")
    type: EntityType = Field(description="PERSON, ORGANIZATION, LOCATION, EMAIL, PHONE_NUMBER, PRICE, DATE, ...")
    salience: float = Field(ge=0, le=1, description="Its importance to the text; the saliences add up to 1.")
    mentions: list[EntityMention] = Field(description="Where it is mentioned.")
    email: Email | None = Field(default=None, description="A person's e-mail address, or the EMAIL entity's.")
    phone: Phone | None = Field(default=None, description="A person's phone number.")
    company: CompanyName | None = Field(default=None, description="A person's employer, or the organisation itself.")
    domain: Domain | None = Field(default=None, description="An organisation's web domain.")
    city: City | None = Field(default=None, description="Where a person lives, or the location itself.")
    country: Country | None = Field(default=None, description="A location's country.")


class EntityAnalysis(BaseModel):
    """The answer of analyzeEntities."""

    entities: list[Entity] = Field(description="The entities, most salient first.")
    language: Language = Field(description="The language of the text (given or detected).")


class Category(BaseModel):
    """A content category of the text."""

    name: str = Field(description="The category's taxonomy path, e.g. /Finance/Accounting & Auditing.")
    confidence: float = Field(ge=0, le=1, description="How sure the classifier is.")


class Classification(BaseModel):
    """The answer of classifyText."""

    categories: list[Category] = Field(description="Categories with confidence at least 0.1, most likely first.")
    language: Language = Field(description="The language of the text.")


class Moderation(BaseModel):
    """The answer of moderateText."""

    moderation_categories: list[Category] = Field(description="Every moderation category with its confidence.")
    flagged: bool = Field(description="Whether a harm category (Toxic, Insult, Profanity, Violent) is over 0.5.")
    language: Language = Field(description="The language of the text.")


class LanguageDetection(BaseModel):
    """The language of a text as the API detects it."""

    language: Language = Field(description="ISO 639-1 code of the most likely language.")
    confidence: float = Field(ge=0, le=1, description="Confidence between 0 and 1.")
    supported_features: list[Feature] = Field(description="The features that accept text in this language.")


class Annotation(BaseModel):
    """The answer of annotateText: the features asked for, in one request."""

    language: Language = Field(description="The language of the text.")
    document_sentiment: Sentiment | None = Field(description="The text's sentiment (when asked for).")
    entities: list[Entity] | None = Field(description="Its entities (when asked for).")
    categories: list[Category] | None = Field(description="Its categories (when asked for).")
    moderation_categories: list[Category] | None = Field(description="Its moderation categories (when asked for).")


def _language_of(ctx: Ctx, text: str) -> tuple[str, float]:
    guesses = _detect(ctx, text)
    return guesses[0] if guesses else ("en", 0.1)


def _checked(ctx: Ctx, text: str, doc_type: str, language: str | None, feature: Feature, field: str = "text") -> str:
    """Check the document for ``feature`` and return its language."""
    if not _plain(text, doc_type).strip():
        raise RuleViolation("the document is empty", field=field, hint="send text with words in it")
    if len(text) > MAX_CHARACTERS:
        raise RuleViolation(
            f"the document holds {len(text)} characters; a request may hold at most {MAX_CHARACTERS}",
            field=field,
            hint="split the text and analyse the parts one by one",
        )
    lang = language or _language_of(ctx, _plain(text, doc_type))[0]
    supported = FEATURE_LANGUAGES[feature]
    if lang not in supported:
        raise RuleViolation(
            f"the language {lang!r} is not supported for {feature}",
            field="language" if language else field,
            hint=f"{feature} supports: {', '.join(supported)}",
        )
    return lang


def _sentiment(text: str) -> SentimentAnalysis:
    sentences = []
    for m in _SENTENCE.finditer(text):
        chunk = m.group().strip()
        if not _words(chunk):
            continue
        s = _score(chunk)
        sentences.append(
            SentenceSentiment(
                text=chunk,
                begin_offset=m.start() + (len(m.group()) - len(m.group().lstrip())),
                sentiment=Sentiment(score=s, magnitude=abs(s)),
            )
        )
    scores = [x.sentiment.score for x in sentences]
    doc = Sentiment(
        score=round(sum(scores) / len(scores), 2) if scores else 0.0,
        magnitude=round(sum(abs(x) for x in scores), 2),
    )
    return SentimentAnalysis(document_sentiment=doc, language="en", sentences=sentences)


def _entities(pop: Population, text: str) -> list[Entity]:
    found: dict[tuple[str, EntityType], tuple[list[EntityMention], dict[str, Any]]] = {}
    taken: list[tuple[int, int]] = []

    def add(name: str, etype: EntityType, start: int, end: int, proper: bool, meta: dict[str, Any]) -> None:
        if any(a < end and start < b for a, b in taken):
            return
        taken.append((start, end))
        mentions, _ = found.setdefault((name, etype), ([], meta))
        mentions.append(EntityMention(text=text[start:end], begin_offset=start, type="PROPER" if proper else "COMMON"))

    patterns: tuple[tuple[re.Pattern[str], EntityType], ...] = (
        (_EMAIL, "EMAIL"),
        (_PHONE, "PHONE_NUMBER"),
        (_PRICE, "PRICE"),
        (_DATE, "DATE"),
    )
    for rx, etype in patterns:
        for m in rx.finditer(text):
            add(m.group(), etype, m.start(), m.end(), False, {"email": m.group()} if etype == "EMAIL" else {})
    for company in pop.companies:
        for m in re.finditer(re.escape(company.name), text):
            add(
                company.name,
                "ORGANIZATION",
                m.start(),
                m.end(),
                True,
                {"domain": company.domain, "company": company.name},
            )
    named: dict[str, list[Person]] = {}
    for p in pop.people:
        named.setdefault(f"{p.first_name} {p.last_name}", []).append(p)
    for full, namesakes in named.items():
        if full not in text:
            continue
        # Namesakes: the one whose address the text quotes, else the first.
        p = next((x for x in namesakes if x.email in text), namesakes[0])
        employer = pop.company_of(p)
        meta = {"email": p.email, "phone": p.phone, "city": p.place.city}
        if employer is not None:
            meta["company"] = employer.name
        for m in re.finditer(re.escape(full), text):
            add(full, "PERSON", m.start(), m.end(), True, meta)
    for place in pop.places:
        for m in re.finditer(r"\b" + re.escape(place.city) + r"\b", text):
            add(place.city, "LOCATION", m.start(), m.end(), True, {"country": place.country, "city": place.city})
    for m in _NUMBER.finditer(text):
        add(m.group(), "NUMBER", m.start(), m.end(), False, {})
    if not found:
        return []
    weights = {
        key: sum(1.0 / (1 + m.begin_offset / 200) for m in mentions) * (1.0 if key[1] in _NAMED else 0.3)
        for key, (mentions, _) in found.items()
    }
    total = sum(weights.values())
    out = [
        Entity(
            name=name,
            type=etype,
            salience=round(weights[(name, etype)] / total, 3),
            mentions=sorted(mentions, key=lambda x: x.begin_offset),
            **meta,
        )
        for (name, etype), (mentions, meta) in found.items()
    ]
    return sorted(out, key=lambda e: (-e.salience, e.mentions[0].begin_offset))


_NAMED = frozenset({"PERSON", "ORGANIZATION", "LOCATION"})


def _categories(text: str) -> list[Category]:
    words = _words(text)
    joined = " ".join(words)
    hits = {path: sum(joined.count(k) for k in keys) for path, keys in _CATEGORIES.items()}
    total = sum(hits.values())
    if total == 0:
        return []
    ranked = [Category(name=p, confidence=round(min(0.99, n / total), 2)) for p, n in hits.items() if n]
    return sorted((c for c in ranked if c.confidence >= 0.1), key=lambda c: (-c.confidence, c.name))


def _moderation(text: str) -> list[Category]:
    joined = " " + " ".join(_words(text)) + " "
    out = []
    for name, keys in _MODERATION.items():
        n = sum(joined.count(f" {k} ") for k in keys)
        out.append(Category(name=name, confidence=round(min(0.99, 0.05 + 0.3 * n), 2)))
    return out


def _flagged(cats: list[Category]) -> bool:
    return any(c.confidence > 0.5 for c in cats if c.name in {"Toxic", "Insult", "Profanity", "Violent"})


# -- records -------------------------------------------------------------------------------


class Document(Timestamped):
    """A saved text the team analyses (a review, a customer's message, a survey answer)."""

    id: DocumentId
    title: Title
    """A name for the document, unique among the saved documents."""
    content: Annotated[str, StringConstraints(min_length=1, max_length=MAX_CHARACTERS)]
    """The text."""
    type: DocType = "PLAIN_TEXT"
    """PLAIN_TEXT or HTML (markup is ignored by the analysis)."""
    language: Language | None = None
    """The text's language; None: detected at each analysis."""
    source: DocSource = "note"
    """Where the text came from: review, support_email, survey_answer, social_post or note."""
    author_name: PersonName | None = None
    """Who wrote the text (a customer)."""
    author_email: Email | None = None
    """Their e-mail address."""
    owner_email: Email
    """The team member who saved it."""
    status: DocStatus = "active"
    """active, or archived (read-only: neither edited nor analysed)."""
    revision: int = 1
    """Counts the edits of the content; analyses record the revision they read."""


class Analysis(Timestamped):
    """A stored result of analysing a saved document with one feature."""

    id: AnalysisId
    document_id: DocumentId
    """The document analysed."""
    feature: Feature
    """sentiment, entities, classify or moderate."""
    revision: int
    """The document's revision that was analysed."""
    language: Language
    """The language the analysis used."""
    stale: bool = False
    """Whether the document changed since: the result no longer describes it."""
    score: float | None = None
    """sentiment: the document's score (-1 to 1)."""
    magnitude: float | None = None
    """sentiment: the document's magnitude."""
    top_category: str | None = None
    """classify: the most likely category; moderate: the most likely harm category."""
    confidence: float | None = None
    """classify or moderate: the confidence of ``top_category``."""
    flagged: bool | None = None
    """moderate: whether the text was flagged as harmful."""
    entity_names: tuple[str, ...] = ()
    """entities: the entities found, most salient first."""
    person_emails: tuple[Email, ...] = ()
    """entities: e-mail addresses of the world's people the text names or quotes."""
    characters: Quantity = 0
    """Characters billed."""


# -- guards --------------------------------------------------------------------------------


def _guard_document(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(
            f"document {old.id} is archived and read-only",
            field="document_id",
            hint="restore it with textlens__restore_document first",
        )
    if old is not None and new.status != old.status:
        return
    if new.language is not None and new.language not in FEATURE_LANGUAGES["entities"] + ("pl",):
        raise RuleViolation(
            f"the language {new.language!r} is not supported by any feature",
            field="language",
            hint="leave the language empty to detect it, or use one of: en, de, es, fr, it, ja, nl, pl, pt, ru, zh",
        )
    if not _plain(new.content, new.type).strip():
        raise RuleViolation("the document is empty", field="content", hint="save text with words in it")
    for other in ctx.where(Document, title=new.title):
        if other.id != new.id:
            raise Conflict(
                f"a document titled {new.title!r} exists ({other.id})",
                field="title",
                hint="choose another title or update that document",
            )
    if old is not None and new.content != old.content:
        ctx.update(new, revision=old.revision + 1)
        for analysis in ctx.where(Analysis, document_id=old.id, stale=False):
            ctx.update(analysis, stale=True)


def _guard_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for analysis in ctx.where(Analysis, document_id=old.id):
        ctx.delete(analysis)


documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="doc",
    create=("title", "content", "type", "language", "source", "author_name", "author_email", "owner_email"),
    filters=("status", "source", "language", "author_email", "owner_email", "type"),
    search=("title", "content", "author_name"),
    update=("title", "content", "type", "language", "source", "author_name", "author_email"),
    transitions={
        "archive": Transition(
            "status",
            ("active",),
            "archived",
            "archive the saved document",
            description="Archive a document: it stays readable with its analyses but can be neither edited nor "
            "analysed until restored.",
        ),
        "restore": Transition(
            "status", ("archived",), "active", "restore the archived document", description="Make it editable again."
        ),
    },
    guard_create=_guard_document,
    guard_update=_guard_document,
    guard_delete=_guard_delete,
    title="saved document",
)
analyses = service.resource(
    Analysis,
    name="analysis",
    plural="analyses",
    prefix="ana",
    create=False,
    filters=("document_id", "feature", "stale", "language", "flagged", "top_category"),
    search=("top_category",),
    delete=False,
    title="stored analysis",
)

# -- open-world tools ----------------------------------------------------------------------

DocTypeArg = Annotated[DocType, Field(description="PLAIN_TEXT or HTML.")]
Features = Annotated[list[Feature], Field(min_length=1, max_length=4)]


def _example_review(ctx: Ctx) -> dict[str, Any]:
    p = ctx.population.consumers[0]
    return {
        "text": f"I ordered from {ctx.population.home.name} last week. The delivery was really fast and the "
        f"support team was very helpful. Thanks! - {p.first_name} {p.last_name}, {p.email}",
    }


def _example_long(ctx: Ctx) -> dict[str, Any]:
    return {
        "text": "The invoice for my last order was wrong: the payment was charged twice and the refund is still "
        "missing from my credit card balance after two weeks. Please send a corrected invoice and a receipt."
    }


@service.tool(intent="find out how positive or negative the text is", open_world=True, example=_example_review)
def analyze_sentiment(
    ctx: Ctx, text: Text, language: Language | None = None, type: DocTypeArg = "PLAIN_TEXT"
) -> SentimentAnalysis:
    """Score the sentiment of a text and of each of its sentences (``documents:analyzeSentiment``).

    Args:
        text: The text, at most 10,000 characters.
        language: ISO 639-1 code of the text's language; omit to detect it.
        type: PLAIN_TEXT or HTML (markup is ignored).
    """
    lang = _checked(ctx, text, type, language, "sentiment")
    return _sentiment(_plain(text, type)).model_copy(update={"language": lang})


@service.tool(intent="find the people, companies and places the text names", open_world=True, example=_example_review)
def analyze_entities(
    ctx: Ctx, text: Text, language: Language | None = None, type: DocTypeArg = "PLAIN_TEXT"
) -> EntityAnalysis:
    """Find the named entities of a text with their salience (``documents:analyzeEntities``).

    People and companies of the world are recognised by name and come with their
    e-mail address, phone and company, or domain; cities with their country.

    Args:
        text: The text, at most 10,000 characters.
        language: ISO 639-1 code of the text's language; omit to detect it.
        type: PLAIN_TEXT or HTML (markup is ignored).
    """
    lang = _checked(ctx, text, type, language, "entities")
    return EntityAnalysis(entities=_entities(ctx.population, _plain(text, type)), language=lang)


def _check_words(text: str, doc_type: str, field: str = "text") -> None:
    n = len(_words(_plain(text, doc_type)))
    if n < MIN_CLASSIFY_WORDS:
        raise RuleViolation(
            f"too few words to classify: {n} (at least {MIN_CLASSIFY_WORDS})",
            field=field,
            hint="send a longer text; short texts cannot be classified",
        )


@service.tool(intent="find out what the text is about", open_world=True, example=_example_long)
def classify_text(
    ctx: Ctx, text: Text, language: Language | None = None, type: DocTypeArg = "PLAIN_TEXT"
) -> Classification:
    """Sort a text into content categories (``documents:classifyText``); it needs at least 20 words.

    Args:
        text: The text, 20 words to 10,000 characters.
        language: ISO 639-1 code of the text's language (English only); omit to detect it.
        type: PLAIN_TEXT or HTML (markup is ignored).
    """
    lang = _checked(ctx, text, type, language, "classify")
    _check_words(text, type)
    return Classification(categories=_categories(_plain(text, type)), language=lang)


@service.tool(intent="check the text for harmful content", open_world=True, example=_example_review)
def moderate_text(
    ctx: Ctx, text: Text, language: Language | None = None, type: DocTypeArg = "PLAIN_TEXT"
) -> Moderation:
    """Rate a text against the moderation categories (``documents:moderateText``).

    Args:
        text: The text, at most 10,000 characters.
        language: ISO 639-1 code of the text's language (English only); omit to detect it.
        type: PLAIN_TEXT or HTML (markup is ignored).
    """
    lang = _checked(ctx, text, type, language, "moderate")
    cats = _moderation(_plain(text, type))
    return Moderation(moderation_categories=cats, flagged=_flagged(cats), language=lang)


@service.tool(intent="find out which language the text is in", open_world=True, example=_example_review)
def detect_language(ctx: Ctx, text: Text) -> LanguageDetection:
    """Detect the language of a text, and which features accept it (the ``language`` of every response).

    Args:
        text: The text, at most 10,000 characters.
    """
    if not text.strip():
        raise RuleViolation("the document is empty", field="text", hint="send text with words in it")
    guesses = _detect(ctx, text)
    if not guesses:
        raise RuleViolation(
            "no language could be detected: the text has no words", field="text", hint="send text with words in it"
        )
    lang, confidence = guesses[0]
    return LanguageDetection(
        language=lang,
        confidence=confidence,
        supported_features=[f for f, langs in FEATURE_LANGUAGES.items() if lang in langs],
    )


@service.tool(intent="analyse the text with several features at once", open_world=True, example=_example_long)
def annotate_text(
    ctx: Ctx, text: Text, features: Features, language: Language | None = None, type: DocTypeArg = "PLAIN_TEXT"
) -> Annotation:
    """Run several features over a text in one request (``documents:annotateText``).

    Every feature asked for must support the text's language; classify needs at
    least 20 words. A feature may be named once.

    Args:
        text: The text, at most 10,000 characters.
        features: sentiment, entities, classify and/or moderate.
        language: ISO 639-1 code of the text's language; omit to detect it.
        type: PLAIN_TEXT or HTML (markup is ignored).
    """
    if len(set(features)) != len(features):
        raise RuleViolation("a feature is named twice", field="features", hint="name each feature once")
    lang = "en"
    for f in features:
        lang = _checked(ctx, text, type, language, f)
    if "classify" in features:
        _check_words(text, type)
    plain = _plain(text, type)
    return Annotation(
        language=lang,
        document_sentiment=_sentiment(plain).document_sentiment if "sentiment" in features else None,
        entities=_entities(ctx.population, plain) if "entities" in features else None,
        categories=_categories(plain) if "classify" in features else None,
        moderation_categories=_moderation(plain) if "moderate" in features else None,
    )


# -- saved analyses ------------------------------------------------------------------------


def _analysis_fields(pop: Population, doc: Document, feature: Feature, lang: str) -> dict[str, Any]:
    """The fields of an analysis of ``doc`` with ``feature`` in language ``lang``."""
    plain = _plain(doc.content, doc.type)
    out: dict[str, Any] = {
        "document_id": doc.id,
        "feature": feature,
        "revision": doc.revision,
        "language": lang,
        "characters": len(doc.content),
    }
    if feature == "sentiment":
        s = _sentiment(plain).document_sentiment
        return out | {"score": s.score, "magnitude": s.magnitude}
    if feature == "entities":
        ents = _entities(pop, plain)
        return out | {
            "entity_names": tuple(e.name for e in ents),
            "person_emails": tuple(e.email for e in ents if e.type == "PERSON" and e.email),
        }
    if feature == "classify":
        cats = _categories(plain)
        return out | {
            "top_category": cats[0].name if cats else None,
            "confidence": cats[0].confidence if cats else None,
        }
    mods = _moderation(plain)
    top = max(mods, key=lambda c: c.confidence)
    return out | {"top_category": top.name, "confidence": top.confidence, "flagged": _flagged(mods)}


def _example_analyse(ctx: Ctx) -> dict[str, Any] | None:
    for doc in ctx.where(Document, status="active"):
        if ctx.first(Analysis, document_id=doc.id, feature="entities", stale=False) is None:
            return {"document_id": doc.id, "feature": "entities"}
    return None


@service.tool(intent="analyse the saved document and keep the result", write=True, example=_example_analyse)
def analyze_document(ctx: Ctx, document_id: DocumentId, feature: Feature) -> Analysis:
    """Analyse a saved document with one feature and store the result, stamped with the document's revision.

    An archived document cannot be analysed; a document already analysed with
    this feature since its last edit is refused (read that analysis instead).

    Args:
        document_id: The saved document.
        feature: sentiment, entities, classify or moderate.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    if doc.status == "archived":
        raise RuleViolation(
            f"document {doc.id} is archived", field="document_id", hint="restore it with textlens__restore_document"
        )
    current = ctx.first(Analysis, document_id=doc.id, feature=feature, stale=False)
    if current is not None:
        raise Conflict(
            f"document {doc.id} was already analysed for {feature} at revision {doc.revision} ({current.id})",
            field="feature",
            hint="read it with textlens__get_analysis; edit the document to analyse it again",
        )
    lang = _checked(ctx, doc.content, doc.type, doc.language, feature, field="document_id")
    if feature == "classify":
        _check_words(doc.content, doc.type, field="document_id")
    return ctx.create(Analysis, **_analysis_fields(ctx.population, doc, feature, lang))


class DocumentSummary(BaseModel):
    """A saved document with its current analyses."""

    document: Document = Field(description="The document.")
    analyses: list[Analysis] = Field(description="Its analyses that still describe it, by feature.")
    missing_features: list[Feature] = Field(description="Features with no current analysis.")


@service.tool(
    intent="show the saved document with its current analyses",
    example=first_example(Document, "document_id"),
)
def summarize_document(ctx: Ctx, document_id: DocumentId) -> DocumentSummary:
    """A saved document with the analyses that describe its current revision.

    Args:
        document_id: The saved document.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    current = sorted(ctx.where(Analysis, document_id=doc.id, stale=False), key=lambda a: a.feature)
    have = {a.feature for a in current}
    missing: list[Feature] = [f for f in ("sentiment", "entities", "classify", "moderate") if f not in have]
    return DocumentSummary(document=doc, analyses=current, missing_features=missing)


# -- seeding -------------------------------------------------------------------------------

_REVIEWS = (
    ("review", "The delivery was really fast and the product quality is excellent. I would recommend {home}."),
    ("review", "Terrible experience. My order arrived damaged and late, and nobody answered my complaint."),
    (
        "support_email",
        "Hello, this is {name} from {city}. The invoice for my order is wrong: I was charged twice and the refund "
        "is still missing from my credit card balance. Please send a corrected invoice to {email}.",
    ),
    ("survey_answer", "Support was friendly and helpful, but the app crashes when I log in. Not great."),
    ("social_post", "Really happy with {home}! Great price and the parcel tracking worked perfectly."),
    (
        "support_email",
        "Hi team, I am {name}. The shipment with tracking for my order has been delayed for a week and the carrier "
        "says the parcel is missing from the warehouse. What is the delivery date now? Call me at {phone}.",
    ),
    ("review", "Good value for the price. Setup was easy, the manual could be better."),
    ("social_post", "Worst customer service ever, what a pathetic clown show. Never buying again."),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Saved customer texts (reviews, support mails, survey answers, posts) and analyses of some of them."""
    pop = s.population
    staff = pop.staff("Marketing", "Support", "Customer Success", fallback=3)
    people = list(pop.consumers[:12]) + list(pop.contacts[:4])
    docs: list[Document] = []
    for k, p in enumerate(people):
        source, template = _REVIEWS[k % len(_REVIEWS)]
        text = template.format(
            home=pop.home.name, name=f"{p.first_name} {p.last_name}", city=p.place.city, email=p.email, phone=p.phone
        )
        owner = staff[k % len(staff)]
        docs.append(
            s.create(
                Document,
                title=f"{source.replace('_', ' ').capitalize()} from {p.first_name} {p.last_name} #{k + 1}",
                content=text,
                language="en",
                source=source,
                author_name=f"{p.first_name} {p.last_name}",
                author_email=p.email,
                owner_email=owner.email,
                status="archived" if k in (6, 13) else "active",
            )
        )
    for k, doc in enumerate(docs[:8]):
        features: tuple[Feature, ...] = ("sentiment", "moderate") if k % 2 else ("sentiment", "entities")
        for feature in features:
            s.create(Analysis, **_analysis_fields(pop, doc, feature, doc.language or "en"))
