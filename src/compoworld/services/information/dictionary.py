"""Wordwise: dictionary and thesaurus lookups (definitions, pronunciations, synonyms, examples) and a style glossary.

Modeled on the Merriam-Webster Collegiate Dictionary and Thesaurus APIs (entries
with ``meta.id`` such as ``leverage:1``, ``hwi.hw`` with syllable breaks written
``lev*er*age``, ``hwi.prs[].mw`` pronunciations with an audio file, ``fl``
functional label, ``shortdef``, ``date`` of first known use, ``meta.syns`` and
``meta.ants``; a list of spelling suggestions when a word is not found) and the
Wordnik API (``/word.json/{word}/examples``, ``/frequency``,
``/words.json/wordOfTheDay``), with a team's style glossary as kept in
editorial tools (Acrolinx, Writer): preferred and avoided terms with their
replacements, proposed by anyone and approved by the glossary's owner.

An open-world service: the dictionary is a fixed lexicon of common business
words; a word outside it is not found, with the closest spellings suggested.
The word of the day is a stable draw from the world seed and the date; yearly
frequencies are a smooth function of the word's commonness. Stored state is the
glossaries and their terms: a term is unique in its glossary; an avoided term
names a replacement that is not itself avoided; terms are proposed, then approved
by the glossary owner or rejected; an archived glossary is frozen; checking a
text against a glossary flags the avoided terms it uses.
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
import random
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, SemanticType, Text, Title, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "dictionary",
    title="Wordwise",
    category="dictionary_data",
    modeled_on="Merriam-Webster Collegiate Dictionary and Thesaurus APIs with Wordnik's examples, frequency and "
    "word of the day, plus a team style glossary",
    description="Dictionary and thesaurus: look up a word's entries, definitions, pronunciations, synonyms and "
    "antonyms, usage examples and yearly frequency, the word of the day and spelling suggestions, and keep the "
    "team's style glossary of preferred and avoided terms, approved by its owner, to check texts against.",
)

Word = Annotated[
    str, SemanticType("dictionary.word", kind="ref"), StringConstraints(pattern=r"^[A-Za-z][A-Za-z -]{0,39}$")
]
GlossaryId = Annotated[str, IdOf("dictionary.glossary")]
TermId = Annotated[str, IdOf("dictionary.term")]
PartOfSpeech = Literal["noun", "verb", "adjective", "adverb"]
Usage = Literal["preferred", "avoid", "allowed"]
WOTD_START = dt.date(2009, 8, 10)
MAX_TERMS = 200

_LEXICON = """
leverage|noun|lev*er*age|ˈle-v(ə-)rij|1724|the action or advantage gained by using a lever;power to act effectively|influence,power,clout|weakness|The partnership gave us leverage in the negotiation.
leverage|verb|lev*er*age|ˈle-v(ə-)rij|1957|to use for gain : exploit|exploit,use,employ||We can leverage the existing platform.
utilize|verb|uti*lize|ˈyü-tə-ˌlīz|1807|to make use of : turn to practical use or account|use,employ,apply|waste|The team will utilize the new tooling.
synergy|noun|syn*er*gy|ˈsi-nər-jē|1660|combined action or operation that is greater than the sum of its parts|cooperation,collaboration,teamwork|conflict|The merger promised synergy between sales teams.
impact|noun|im*pact|ˈim-ˌpakt|1781|a striking of one body against another;a significant or major effect|effect,influence,consequence||The outage had a large impact on customers.
impact|verb|im*pact|im-ˈpakt|1601|to have a direct effect or impact on|affect,influence,change||Rising costs impact our margins.
robust|adjective|ro*bust|rō-ˈbəst|1549|having or exhibiting strength or vigorous health;strongly formed or constructed|strong,sturdy,resilient|fragile,weak|The design is robust against failures.
seamless|adjective|seam*less|ˈsēm-ləs|1555|having no awkward transitions, interruptions, or indications of disparity|smooth,fluid,continuous|disjointed|Customers expect a seamless checkout.
stakeholder|noun|stake*hold*er|ˈstāk-ˌhōl-dər|1708|a person entrusted with the stakes of bettors;one who is involved in or affected by a course of action|participant,party,investor||Share the plan with every stakeholder.
deadline|noun|dead*line|ˈded-ˌlīn|1864|a date or time before which something must be done|due date,cutoff,time limit||The filing deadline is Friday.
agenda|noun|agen*da|ə-ˈjen-də|1657|a list or outline of things to be considered or done|schedule,program,plan||Send the agenda before the meeting.
benchmark|noun|bench*mark|ˈbench-ˌmärk|1842|a point of reference from which measurements may be made;something that serves as a standard|standard,reference,yardstick||Salaries were compared with the market benchmark.
invoice|noun|in*voice|ˈin-ˌvȯis|1560|an itemized list of goods shipped or services rendered with the charges|bill,statement,account||Pay the invoice within thirty days.
revenue|noun|rev*e*nue|ˈre-və-ˌnü|15th century|the total income produced by a given source|income,earnings,proceeds|expense,loss|Revenue grew twelve percent this quarter.
customer|noun|cus*tom*er|ˈkə-stə-mər|15th century|one that purchases a commodity or service|client,buyer,patron|seller,vendor|Every customer receives a receipt.
delay|noun|de*lay|di-ˈlā|13th century|the act of postponing, hindering, or causing something to occur more slowly than normal|postponement,holdup,lag|hurry|We apologize for the delay.
delay|verb|de*lay|di-ˈlā|13th century|to put off : postpone;to stop, detain, or hinder for a time|postpone,defer,hold up|hasten,expedite|Weather may delay the shipment.
accurate|adjective|ac*cu*rate|ˈa-kyə-rət|1596|free from error especially as the result of care|correct,precise,exact|inaccurate,wrong|Keep the records accurate.
transparent|adjective|trans*par*ent|tran(t)s-ˈper-ənt|15th century|fine or sheer enough to be seen through;free from pretense or deceit|clear,open,candid|opaque,secretive|Pricing should be transparent.
concise|adjective|con*cise|kən-ˈsīs|1590|marked by brevity of expression or statement|brief,succinct,terse|wordy,verbose|Keep release notes concise.
deliver|verb|de*liv*er|di-ˈli-vər|13th century|to take and hand over to or leave for another;to produce the promised result|bring,hand over,provide|withhold|The courier will deliver the parcel today.
priority|noun|pri*or*i*ty|prī-ˈȯr-ə-tē|14th century|something given or meriting attention before competing alternatives|precedence,urgency,preference||Security fixes have top priority.
approve|verb|ap*prove|ə-ˈprüv|14th century|to have or express a favorable opinion of;to accept as satisfactory|endorse,sanction,accept|reject,disapprove|The manager will approve the request.
cancel|verb|can*cel|ˈkan(t)-səl|14th century|to decide not to conduct or perform something planned;to destroy the force or validity of|call off,revoke,annul|confirm|You may cancel the order before it ships.
refund|noun|re*fund|ˈrē-ˌfənd|1866|a sum that is paid back|repayment,reimbursement,rebate|charge|The refund appears within five days.
schedule|noun|sched*ule|ˈske-(ˌ)jü(ə)l|14th century|a procedural plan that indicates the time and sequence of each operation|timetable,calendar,plan||The schedule lists every shift.
colleague|noun|col*league|ˈkä-(ˌ)lēg|1533|an associate or coworker typically in a profession or in a civil or ecclesiastical office|coworker,associate,peer||Ask a colleague to review the draft.
feedback|noun|feed*back|ˈfēd-ˌbak|1920|the transmission of evaluative or corrective information about an action or process|response,comment,reaction||Customer feedback shaped the release.
efficient|adjective|ef*fi*cient|i-ˈfi-shənt|14th century|productive of desired effects especially without waste|effective,productive,economical|wasteful,inefficient|An efficient process saves time.
resilient|adjective|re*sil*ient|ri-ˈzil-yənt|1641|capable of withstanding shock without permanent deformation;tending to recover from adversity|tough,hardy,robust|fragile|Build resilient systems.
ambiguous|adjective|am*big*u*ous|am-ˈbi-gyə-wəs|1528|capable of being understood in two or more possible senses or ways|unclear,vague,equivocal|clear,explicit|The clause is ambiguous.
clarify|verb|clar*i*fy|ˈkler-ə-ˌfī|14th century|to make understandable|explain,illuminate,elucidate|confuse,obscure|Please clarify the refund terms.
compliant|adjective|com*pli*ant|kəm-ˈplī-ənt|1642|ready or disposed to comply;conforming to requirements|conforming,obedient,accordant|noncompliant|The vendor is compliant with the policy.
escalate|verb|es*ca*late|ˈe-skə-ˌlāt|1922|to increase in extent, volume, number, amount, intensity, or scope|intensify,raise,elevate|de-escalate,reduce|Escalate the ticket to the on-call engineer.
mitigate|verb|mit*i*gate|ˈmi-tə-ˌgāt|15th century|to cause to become less harsh or hostile;to make less severe or painful|lessen,alleviate,reduce|aggravate,worsen|Backups mitigate the risk of data loss.
onboard|verb|on*board|ˈȯn-ˌbȯrd|1970|to provide with the training and information needed to become a member of a team|orient,induct,train||HR will onboard the new hire on Monday.
pivot|verb|piv*ot|ˈpi-vət|1841|to turn on or as if on a pivot;to adjust or adapt strategy|turn,shift,swivel||The startup decided to pivot to enterprise sales.
scalable|adjective|scal*able|ˈskā-lə-bəl|1571|capable of being easily expanded or upgraded on demand|expandable,extensible,flexible||Choose a scalable architecture.
sustainable|adjective|sus*tain*able|sə-ˈstā-nə-bəl|1727|capable of being sustained;using a resource so that it is not depleted|renewable,viable,durable|unsustainable|The plan sets a sustainable pace.
verify|verb|ver*i*fy|ˈver-ə-ˌfī|14th century|to establish the truth, accuracy, or reality of|confirm,check,validate|disprove|Verify the address before shipping.
warranty|noun|war*ran*ty|ˈwȯr-ən-tē|14th century|a usually written guarantee of the integrity of a product and of the maker's responsibility|guarantee,assurance,pledge||The warranty covers two years.
quarter|noun|quar*ter|ˈkwȯr-tər|13th century|one of four equal parts;a fiscal quarter of three months|fourth,period,term||Results for the quarter are due.
"""


@dataclass(frozen=True, slots=True)
class _Entry:
    id: str
    word: str
    fl: str
    hw: str
    mw: str
    date: str
    defs: tuple[str, ...]
    syns: tuple[str, ...]
    ants: tuple[str, ...]
    example: str
    rank: int


def _load() -> tuple[_Entry, ...]:
    out: list[_Entry] = []
    seen: dict[str, int] = {}
    for rank, line in enumerate(_LEXICON.strip().splitlines()):
        word, fl, hw, mw, date, defs, syns, ants, example = line.split("|")
        seen[word] = seen.get(word, 0) + 1
        out.append(
            _Entry(
                f"{word}:{seen[word]}",
                word,
                fl,
                hw,
                mw,
                date,
                tuple(defs.split(";")),
                tuple(s for s in syns.split(",") if s),
                tuple(a for a in ants.split(",") if a),
                example,
                rank,
            )
        )
    return tuple(out)


_ENTRIES = _load()
_WORDS = sorted({e.word for e in _ENTRIES})


def _entries(word: str, field: str = "word") -> list[_Entry]:
    key = fold(word)
    found = [e for e in _ENTRIES if e.word == key]
    if not found:
        close = difflib.get_close_matches(key, _WORDS, n=5, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}?" if close else "check the spelling with dictionary__suggest_spellings"
        raise NotFound(f"{word!r} is not in the dictionary", field=field, hint=hint)
    return found


def _audio(e: _Entry) -> str:
    base = e.word.replace(" ", "")[:6] + f"{e.rank % 100:02d}"
    return f"https://media.merriam-webster.com/audio/prons/en/us/mp3/{base[0]}/{base}.mp3"


# -- result models -----------------------------------------------------------------------------------------


class Pronunciation(BaseModel):
    """A pronunciation of a headword."""

    mw: str = Field(description="Merriam-Webster respelling (ˈle-v(ə-)rij).")
    audio_url: Url = Field(description="Recorded pronunciation.")


class Entry(BaseModel):
    """A dictionary entry (one homograph and part of speech)."""

    id: str = Field(description="Entry id, word and homograph number (leverage:2).")
    word: Word = Field(description="The word.")
    headword: str = Field(description="Headword with syllable breaks (lev*er*age).")
    part_of_speech: PartOfSpeech = Field(description="Functional label.")
    pronunciations: list[Pronunciation] = Field(description="Pronunciations.")
    shortdef: list[str] = Field(description="Short definitions, most common sense first.")
    first_known_use: str = Field(description="Date of first known use (a year or century).")
    synonyms: list[str] = Field(description="Thesaurus synonyms.")
    antonyms: list[str] = Field(description="Thesaurus antonyms.")


class Definition(BaseModel):
    """One sense of a word."""

    word: Word = Field(description="The word.")
    part_of_speech: PartOfSpeech = Field(description="Part of speech.")
    sense: int = Field(description="Sense number within the entry, from 1.")
    text: str = Field(description="The definition.")
    source: str = Field(description="Source dictionary.")


class Thesaurus(BaseModel):
    """Synonyms and antonyms of a word."""

    word: Word = Field(description="The word.")
    part_of_speech: PartOfSpeech | None = Field(description="The part of speech asked for, if any.")
    synonyms: list[str] = Field(description="Synonyms across matching entries, in order, without repeats.")
    antonyms: list[str] = Field(description="Antonyms, in order, without repeats.")


class Example(BaseModel):
    """A usage example."""

    word: Word = Field(description="The word.")
    part_of_speech: PartOfSpeech = Field(description="Its part of speech in the example.")
    text: str = Field(description="The example sentence.")


class YearFrequency(BaseModel):
    """How often a word appeared in one year."""

    year: int = Field(description="Year.")
    count: int = Field(description="Occurrences per million words of the corpus.")


class WordOfTheDay(BaseModel):
    """The word of the day."""

    date: Date = Field(description="The day.")
    word: Word = Field(description="The word.")
    part_of_speech: PartOfSpeech = Field(description="Part of speech.")
    definition: str = Field(description="Its first definition.")
    example: str = Field(description="An example.")
    note: str = Field(description="Why it was chosen.")


class Suggestions(BaseModel):
    """Spelling suggestions."""

    query: str = Field(description="What was asked.")
    found: bool = Field(description="Whether it is in the dictionary as asked.")
    suggestions: list[Word] = Field(description="The closest words, best first.")


def _entry(e: _Entry) -> Entry:
    return Entry(
        id=e.id,
        word=e.word,
        headword=e.hw,
        part_of_speech=e.fl,
        pronunciations=[Pronunciation(mw=e.mw, audio_url=_audio(e))],
        shortdef=list(e.defs),
        first_known_use=e.date,
        synonyms=list(e.syns),
        antonyms=list(e.ants),
    )


def _pos(found: list[_Entry], pos: str | None) -> list[_Entry]:
    if pos is None:
        return found
    out = [e for e in found if e.fl == pos]
    if not out:
        have = ", ".join(sorted({e.fl for e in found}))
        raise NotFound(f"{found[0].word!r} has no {pos} entry", field="part_of_speech", hint=f"it is a {have}")
    return out


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="look up the word", open_world=True, example=fixed_example(word="leverage"))
def lookup_word(ctx: Ctx, word: Word) -> list[Entry]:
    """Look up a word's dictionary entries (one per homograph and part of speech) in the Collegiate Dictionary.

    Args:
        word: The word (any case).
    """
    return [_entry(e) for e in _entries(word)]


@service.tool(intent="get the word's definitions", open_world=True, example=fixed_example(word="delay"))
def get_definitions(
    ctx: Ctx,
    word: Word,
    part_of_speech: PartOfSpeech | None = None,
    limit: Annotated[int, Field(ge=1, le=20)] = 10,
) -> list[Definition]:
    """Get a word's definitions, sense by sense (Wordnik /word.json/{word}/definitions).

    Args:
        word: The word.
        part_of_speech: Only senses of this part of speech.
        limit: Most definitions.
    """
    out = [
        Definition(word=e.word, part_of_speech=e.fl, sense=i + 1, text=d, source="merriam-webster-collegiate")
        for e in _pos(_entries(word), part_of_speech)
        for i, d in enumerate(e.defs)
    ]
    return out[:limit]


@service.tool(intent="get synonyms and antonyms", open_world=True, example=fixed_example(word="robust"))
def get_synonyms(ctx: Ctx, word: Word, part_of_speech: PartOfSpeech | None = None) -> Thesaurus:
    """Get a word's synonyms and antonyms from the thesaurus.

    Args:
        word: The word.
        part_of_speech: Only this part of speech's entries.
    """
    found = _pos(_entries(word), part_of_speech)
    syns = list(dict.fromkeys(s for e in found for s in e.syns))
    ants = list(dict.fromkeys(a for e in found for a in e.ants))
    return Thesaurus(word=found[0].word, part_of_speech=part_of_speech, synonyms=syns, antonyms=ants)


@service.tool(intent="get usage examples", open_world=True, example=fixed_example(word="impact"))
def get_examples(ctx: Ctx, word: Word) -> list[Example]:
    """Get example sentences that use a word (Wordnik /word.json/{word}/examples).

    Args:
        word: The word.
    """
    return [Example(word=e.word, part_of_speech=e.fl, text=e.example) for e in _entries(word)]


@service.tool(intent="get the word's pronunciations", open_world=True, example=fixed_example(word="schedule"))
def get_pronunciations(ctx: Ctx, word: Word) -> list[Pronunciation]:
    """Get how a word is pronounced, with audio, one per distinct pronunciation (impact: noun and verb differ).

    Args:
        word: The word.
    """
    found = _entries(word)
    seen: dict[str, Pronunciation] = {}
    for e in found:
        seen.setdefault(e.mw, Pronunciation(mw=e.mw, audio_url=_audio(e)))
    return list(seen.values())


@service.tool(intent="get the word's frequency by year", open_world=True, example=fixed_example(word="synergy"))
def get_frequency(
    ctx: Ctx,
    word: Word,
    start_year: Annotated[int, Field(ge=1800, le=2100)] = 2000,
    end_year: Annotated[int, Field(ge=1800, le=2100)] | None = None,
) -> list[YearFrequency]:
    """Get how often a word was used each year, per million words (Wordnik /word.json/{word}/frequency).

    Args:
        word: The word.
        start_year: First year.
        end_year: Last year (default: last year; at most last year).
    """
    e = _entries(word)[0]
    last = ctx.today().year - 1
    end = last if end_year is None else end_year
    if end > last:
        raise RuleViolation(f"frequencies run to {last}", field="end_year", hint=f"ask for years up to {last}")
    if end < start_year:
        raise RuleViolation("end_year is before start_year", field="end_year", hint="swap the years")
    base = 400 / (1 + e.rank)
    onset = int(e.date) if e.date.isdigit() else 1500
    out = []
    for year in range(start_year, end + 1):
        rise = 1 / (1 + math.exp(-(year - max(onset, 1900) - 30) / 12))
        wobble = random.Random(f"dictionary-freq:{ctx.population.seed}:{e.word}:{year}").uniform(0.9, 1.1)
        out.append(YearFrequency(year=year, count=round(base * rise * wobble * 10)))
    return out


def _wotd(seed: int, day: dt.date) -> _Entry:
    return random.Random(f"dictionary-wotd:{seed}:{day.isoformat()}").choice(_ENTRIES)


@service.tool(intent="get the word of the day", open_world=True)
def word_of_the_day(ctx: Ctx, date: Date | None = None) -> WordOfTheDay:
    """Get the word of the day of a date (default today; from 2009-08-10, never a future day).

    Args:
        date: The day.
    """
    day = date or ctx.today()
    if day > ctx.today():
        raise RuleViolation(f"{day} has no word yet", field="date", hint=f"ask for a day up to {ctx.today()}")
    if day < WOTD_START:
        raise RuleViolation(f"words of the day start on {WOTD_START}", field="date", hint="ask for a later day")
    e = _wotd(ctx.population.seed, day)
    return WordOfTheDay(
        date=day,
        word=e.word,
        part_of_speech=e.fl,
        definition=e.defs[0],
        example=e.example,
        note=f"First known use: {e.date}.",
    )


@service.tool(intent="suggest spellings", open_world=True, example=fixed_example(word="recieve"))
def suggest_spellings(ctx: Ctx, word: Annotated[str, StringConstraints(min_length=1, max_length=40)]) -> Suggestions:
    """Suggest dictionary words spelled like a possibly misspelled word, best first.

    Args:
        word: What was typed.
    """
    key = fold(word)
    return Suggestions(
        query=word,
        found=key in _WORDS,
        suggestions=difflib.get_close_matches(key, _WORDS, n=8, cutoff=0.5),
    )


# -- the style glossary ------------------------------------------------------------------------------------


class Glossary(Timestamped):
    """A team's style glossary."""

    id: GlossaryId
    name: Title
    """Its name."""
    owner_email: Email
    """The employee who owns it and approves its terms."""
    description: Text = ""
    """What it governs."""
    status: Literal["active", "archived"] = "active"
    """active, or archived (frozen)."""


class Term(Timestamped):
    """A term of a style glossary."""

    id: TermId
    glossary_id: GlossaryId
    """The glossary."""
    term: Title
    """The word or phrase."""
    usage: Usage
    """preferred, avoid (use the replacement) or allowed."""
    replacement: str | None = None
    """What to write instead (for an avoided term)."""
    part_of_speech: PartOfSpeech | None = None
    """Part of speech."""
    definition: Text = ""
    """Meaning in the team's writing."""
    note: Text = ""
    """Why."""
    proposed_by: Email
    """Who proposed it."""
    status: Literal["proposed", "approved", "rejected"] = "proposed"
    """proposed, approved (by the owner) or rejected."""
    approved_by: Email | None = None
    """Who approved it."""


def _staff(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _guard_glossary(ctx: Ctx, new: Glossary, old: Glossary | None) -> None:
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"glossary {old.id} is archived", field="glossary_id", hint="create a new glossary")
    if new.owner_email not in _staff(ctx):
        raise RuleViolation(f"{new.owner_email} is not an employee", field="owner_email", hint="a colleague owns it")


def _open(ctx: Ctx, glossary_id: str, field: str = "glossary_id") -> Glossary:
    g = ctx.get(Glossary, glossary_id, field=field)
    if g.status == "archived":
        raise RuleViolation(f"glossary {g.id} is archived", field=field, hint="archived glossaries are frozen")
    return g


def _check_replacement(ctx: Ctx, glossary_id: str, term: str, usage: str, replacement: str | None) -> None:
    if usage == "avoid" and not (replacement or "").strip():
        raise RuleViolation(f"avoided term {term!r} needs a replacement", field="replacement", hint="say what to write")
    if replacement is None:
        return
    if fold(replacement) == fold(term):
        raise RuleViolation("a term cannot replace itself", field="replacement", hint="name another word")
    for t in ctx.where(Term, glossary_id=glossary_id):
        if fold(t.term) == fold(replacement) and t.usage == "avoid" and t.status != "rejected":
            msg = f"{replacement!r} is itself an avoided term"
            raise RuleViolation(msg, field="replacement", hint=f"use its replacement {t.replacement!r}")


def _guard_term(ctx: Ctx, new: Term | None, old: Term | None) -> None:
    t = new or old
    assert t is not None
    _open(ctx, t.glossary_id, "term_id")
    if new is not None:
        _check_replacement(ctx, new.glossary_id, new.term, new.usage, new.replacement)


def _guard_glossary_delete(ctx: Ctx, new: None, old: Glossary) -> None:
    for t in ctx.where(Term, glossary_id=old.id):
        ctx.delete(t)


glossaries = service.resource(
    Glossary,
    name="glossary",
    plural="glossaries",
    prefix="dgl",
    create=("name", "owner_email", "description"),
    filters=("owner_email", "status"),
    search=("name", "description"),
    update=("name", "description", "owner_email"),
    transitions={"archive": Transition("status", ("active",), "archived", "archive the glossary", destructive=True)},
    guard_create=_guard_glossary,
    guard_update=_guard_glossary,
    guard_delete=_guard_glossary_delete,
    title="style glossary",
)
terms = service.resource(
    Term,
    name="term",
    plural="terms",
    prefix="dtm",
    create=False,
    filters=("glossary_id", "usage", "status", "proposed_by"),
    search=("term", "definition", "note"),
    update=("usage", "replacement", "definition", "note"),
    transitions={"reject": Transition("status", ("proposed",), "rejected", "reject the proposed term")},
    guard_update=_guard_term,
    guard_delete=_guard_term,
    title="glossary term",
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Glossary, status="active")
    return (
        None
        if g is None
        else {
            "glossary_id": g.id,
            "term": "going forward",
            "usage": "avoid",
            "replacement": "from now on",
            "proposed_by": g.owner_email,
        }
    )


@service.tool(intent="propose a glossary term", write=True, example=_example_add)
def add_term(
    ctx: Ctx,
    glossary_id: GlossaryId,
    term: Title,
    usage: Usage,
    proposed_by: Email,
    replacement: str | None = None,
    part_of_speech: PartOfSpeech | None = None,
    definition: Text = "",
    note: Text = "",
) -> Term:
    """Propose a term for a glossary (unique there); an avoided term names a replacement that is not avoided.

    Args:
        glossary_id: The glossary (active).
        term: The word or phrase.
        usage: preferred, avoid or allowed.
        proposed_by: The employee proposing it.
        replacement: What to write instead (required to avoid a term).
        part_of_speech: Part of speech.
        definition: Meaning in the team's writing.
        note: Why.
    """
    g = _open(ctx, glossary_id)
    if proposed_by not in _staff(ctx):
        raise RuleViolation(f"{proposed_by} is not an employee", field="proposed_by", hint="a colleague proposes terms")
    have = ctx.where(Term, glossary_id=g.id)
    same = next((t for t in have if fold(t.term) == fold(term)), None)
    if same is not None:
        raise Conflict(f"{term!r} is already in the glossary as {same.id}", field="term", hint="update that term")
    if len(have) >= MAX_TERMS:
        raise RuleViolation(f"glossary {g.id} holds {MAX_TERMS} terms", field="glossary_id", hint="archive old terms")
    _check_replacement(ctx, g.id, term, usage, replacement)
    return ctx.create(
        Term,
        glossary_id=g.id,
        term=term,
        usage=usage,
        replacement=replacement,
        part_of_speech=part_of_speech,
        definition=definition,
        note=note,
        proposed_by=proposed_by,
    )


def _example_import(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Glossary, status="active")
    if g is None:
        return None
    have = {fold(t.term) for t in ctx.where(Term, glossary_id=g.id)}
    word = next(w for w in _WORDS if w not in have)
    return {"glossary_id": g.id, "word": word, "usage": "preferred", "proposed_by": g.owner_email}


@service.tool(intent="add a dictionary word to the glossary", write=True, example=_example_import)
def add_term_from_dictionary(
    ctx: Ctx,
    glossary_id: GlossaryId,
    word: Word,
    usage: Usage,
    proposed_by: Email,
    part_of_speech: PartOfSpeech | None = None,
    replacement: str | None = None,
) -> Term:
    """Propose a dictionary word as a glossary term, with its part of speech and first definition.

    Args:
        glossary_id: The glossary (active).
        word: The dictionary word.
        usage: preferred, avoid or allowed.
        proposed_by: The employee proposing it.
        part_of_speech: Which entry (default: the first).
        replacement: What to write instead (required to avoid it; a synonym is a good choice).
    """
    e = _pos(_entries(word), part_of_speech)[0]
    return add_term(
        ctx,
        glossary_id,
        e.word,
        usage,
        proposed_by,
        replacement,
        e.fl,  # type: ignore[arg-type]
        e.defs[0],
        "From the dictionary.",
    )


@service.tool(
    intent="approve the glossary term", write=True, example=first_example(Term, "term_id", where={"status": "proposed"})
)
def approve_term(ctx: Ctx, term_id: TermId) -> Term:
    """Approve a proposed term in the name of the glossary's owner.

    Args:
        term_id: The term (proposed).
    """
    t = ctx.get(Term, term_id, field="term_id")
    g = _open(ctx, t.glossary_id, "term_id")
    if t.status != "proposed":
        raise RuleViolation(f"term {t.id} is already {t.status}", field="term_id", hint="pick a proposed term")
    return ctx.update(t, status="approved", approved_by=g.owner_email)


class Flag(BaseModel):
    """An avoided term found in a text."""

    term: str = Field(description="The avoided term as the glossary spells it.")
    found: str = Field(description="The text as written.")
    position: int = Field(description="Character offset in the text.")
    replacement: str | None = Field(description="What to write instead.")
    term_id: TermId = Field(description="The glossary term.")


class TextCheck(BaseModel):
    """The result of checking a text against a glossary."""

    glossary_id: GlossaryId = Field(description="The glossary.")
    flags: list[Flag] = Field(description="Avoided approved terms in the text, in order.")
    suggested_text: str = Field(description="The text with each flagged term replaced.")


def _example_check(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Glossary, status="active")
    return None if g is None else {"glossary_id": g.id, "text": "We will utilize synergy going forward."}


@service.tool(intent="check a text against the glossary", example=_example_check)
def check_text(
    ctx: Ctx, glossary_id: GlossaryId, text: Annotated[str, StringConstraints(min_length=1, max_length=20000)]
) -> TextCheck:
    """Flag the approved avoided terms a text uses (whole words, any case) and suggest the text with replacements.

    Args:
        glossary_id: The glossary.
        text: The text to check.
    """
    ctx.get(Glossary, glossary_id, field="glossary_id")
    avoided = [t for t in ctx.where(Term, glossary_id=glossary_id, usage="avoid", status="approved")]
    flags: list[Flag] = []
    suggested = text
    for t in avoided:
        pattern = re.compile(rf"\b{re.escape(t.term)}\b", re.IGNORECASE)
        flags += [
            Flag(term=t.term, found=m.group(0), position=m.start(), replacement=t.replacement, term_id=t.id)
            for m in pattern.finditer(text)
        ]
        if t.replacement:
            suggested = pattern.sub(t.replacement, suggested)
    flags.sort(key=lambda f: f.position)
    return TextCheck(glossary_id=glossary_id, flags=flags, suggested_text=suggested)


# -- seed --------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Marketing's house style glossary with approved, proposed and rejected terms, and an archived one."""
    pop = s.population
    team = pop.staff("Marketing", "Support", fallback=3)
    owner = team[0]
    house = s.create(
        Glossary,
        name=f"{pop.home.name} house style",
        owner_email=owner.email,
        description="Words we prefer and avoid in customer-facing writing.",
        created_at=s.ago(days=300),
        updated_at=s.ago(days=20),
    )
    old = s.create(
        Glossary,
        name="2023 launch copy",
        owner_email=owner.email,
        status="archived",
        description="Terms of the 2023 product launch.",
        created_at=s.ago(days=900),
        updated_at=s.ago(days=500),
    )
    plan = (
        (house, "use", "preferred", None, "approved"),
        (house, "utilize", "avoid", "use", "approved"),
        (house, "leverage", "avoid", "use", "approved"),
        (house, "synergy", "avoid", "cooperation", "approved"),
        (house, "customer", "preferred", None, "approved"),
        (house, "client", "allowed", None, "approved"),
        (house, "going forward", "avoid", "from now on", "proposed"),
        (house, "robust", "allowed", None, "rejected"),
        (old, "seamless", "preferred", None, "approved"),
    )
    for k, (g, term, usage, replacement, status) in enumerate(plan):
        entry = next((e for e in _ENTRIES if e.word == term), None)
        proposer = team[k % len(team)]
        s.create(
            Term,
            glossary_id=g.id,
            term=term,
            usage=usage,
            replacement=replacement,
            part_of_speech=entry.fl if entry else None,
            definition=entry.defs[0] if entry else "",
            note="House style." if usage != "allowed" else "",
            proposed_by=proposer.email,
            status=status,
            approved_by=g.owner_email if status == "approved" else None,
            created_at=s.ago(days=200 - k),
            updated_at=s.ago(days=150 - k),
        )
