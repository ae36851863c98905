"""Wordwise: entries, thesaurus and examples agree; the word of the day is stable; the style glossary's rules."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

DICT = ServiceTools("dictionary")
WORLD = DICT.world
ok, refused, every = DICT.ok, DICT.refused, DICT.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def test_a_word_has_one_entry_per_homograph_with_its_own_pronunciation(ep: Episode) -> None:
    entries = ok(ep, "lookup_word", word="Impact")
    assert [(e["id"], e["part_of_speech"]) for e in entries] == [("impact:1", "noun"), ("impact:2", "verb")]
    assert entries[0]["headword"] == "im*pact" and entries[0]["shortdef"]
    assert len(ok(ep, "get_pronunciations", word="impact")) == 2
    assert len(ok(ep, "get_pronunciations", word="delay")) == 1
    senses = ok(ep, "get_definitions", word="delay", part_of_speech="verb")
    assert [d["sense"] for d in senses] == [1, 2] and all(d["part_of_speech"] == "verb" for d in senses)
    assert [d["text"] for d in senses] == next(e for e in ok(ep, "lookup_word", word="delay") if e["id"] == "delay:2")[
        "shortdef"
    ]


def test_an_unknown_word_is_not_found_with_spellings_suggested(ep: Episode) -> None:
    msg_hint = refused(ep, "lookup_word", "not_found", "word", word="synergie")
    assert "synergie" in msg_hint
    res = ep.call("dictionary__lookup_word", {"word": "synergie"})
    assert res.error is not None and "synergy" in (res.error.hint or "")
    sugg = ok(ep, "suggest_spellings", word="scheduel")
    assert not sugg["found"] and sugg["suggestions"][0] == "schedule"
    assert ok(ep, "suggest_spellings", word="Invoice")["found"]
    refused(ep, "get_synonyms", "not_found", "part_of_speech", word="robust", part_of_speech="verb")


def test_the_thesaurus_merges_entries_without_repeats(ep: Episode) -> None:
    both = ok(ep, "get_synonyms", word="delay")
    noun = ok(ep, "get_synonyms", word="delay", part_of_speech="noun")
    verb = ok(ep, "get_synonyms", word="delay", part_of_speech="verb")
    assert both["synonyms"] == list(dict.fromkeys(noun["synonyms"] + verb["synonyms"]))
    assert "expedite" in both["antonyms"] and len(both["antonyms"]) == len(set(both["antonyms"]))
    examples = ok(ep, "get_examples", word="leverage")
    assert len(examples) == 2 and all("leverage" in e["text"].lower() for e in examples)


def test_the_word_of_the_day_is_stable_and_never_in_the_future() -> None:
    a, b = Episode(WORLD), Episode(WORLD)
    days = [(TODAY - dt.timedelta(days=k)).isoformat() for k in range(0, 40, 7)]
    first = [ok(a, "word_of_the_day", date=d) for d in days]
    assert first == [ok(b, "word_of_the_day", date=d) for d in days]
    assert ok(a, "word_of_the_day") == first[0]
    for w in first:
        assert ok(a, "lookup_word", word=w["word"])[0]["word"] == w["word"]
    other = Episode(service_world("dictionary", seed=11))
    assert [DICT.ok(other, "word_of_the_day", date=d)["word"] for d in days] != [w["word"] for w in first]
    refused(a, "word_of_the_day", "rule_violation", "date", date=(TODAY + dt.timedelta(days=1)).isoformat())
    refused(a, "word_of_the_day", "rule_violation", "date", date="2009-08-09")


def test_frequencies_cover_the_years_asked_up_to_last_year(ep: Episode) -> None:
    rows = ok(ep, "get_frequency", word="synergy", start_year=2010)
    assert [r["year"] for r in rows] == list(range(2010, TODAY.year))
    assert all(r["count"] > 0 for r in rows)
    common = sum(r["count"] for r in ok(ep, "get_frequency", word="leverage", start_year=2010))
    rare = sum(r["count"] for r in ok(ep, "get_frequency", word="quarter", start_year=2010))
    assert common > rare
    refused(ep, "get_frequency", "rule_violation", "end_year", word="synergy", end_year=TODAY.year)
    refused(ep, "get_frequency", "rule_violation", "end_year", word="synergy", start_year=2020, end_year=2019)


def test_the_seeded_glossary_belongs_to_staff_and_its_avoided_terms_have_replacements(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    glossaries = every(ep, "list_glossaries")
    assert {g["status"] for g in glossaries} == {"active", "archived"}
    assert all(g["owner_email"] in staff for g in glossaries)
    terms = every(ep, "list_terms")
    assert {t["status"] for t in terms} == {"approved", "proposed", "rejected"}
    for t in terms:
        assert t["proposed_by"] in staff
        if t["usage"] == "avoid":
            assert t["replacement"]
        if t["status"] == "approved":
            owner = ok(ep, "get_glossary", glossary_id=t["glossary_id"])["owner_email"]
            assert t["approved_by"] == owner


def test_checking_a_text_flags_approved_avoided_terms_and_suggests_replacements(ep: Episode) -> None:
    g = DICT.first(ep, "glossaries", status="active")
    text = "Going forward we will Utilize our synergy; customers leverage it."
    res = ok(ep, "check_text", glossary_id=g["id"], text=text)
    assert [f["found"] for f in res["flags"]] == ["Utilize", "synergy", "leverage"]
    assert res["suggested_text"] == "Going forward we will use our cooperation; customers use it."
    proposed = DICT.first(ep, "terms", glossary_id=g["id"], status="proposed")
    ok(ep, "approve_term", term_id=proposed["id"])
    again = ok(ep, "check_text", glossary_id=g["id"], text=text)
    assert again["flags"][0]["found"] == "Going forward" and again["suggested_text"].startswith("from now on")


def test_terms_are_unique_and_an_avoided_term_needs_a_usable_replacement(ep: Episode) -> None:
    g = DICT.first(ep, "glossaries", status="active")
    me = g["owner_email"]
    base = {"glossary_id": g["id"], "proposed_by": me}
    refused(ep, "add_term", "conflict", "term", term="UTILIZE", usage="allowed", **base)
    refused(ep, "add_term", "rule_violation", "replacement", term="impactful", usage="avoid", **base)
    refused(
        ep, "add_term", "rule_violation", "replacement", term="employ", usage="avoid", replacement="utilize", **base
    )
    refused(ep, "add_term", "rule_violation", "replacement", term="employ", usage="avoid", replacement="Employ", **base)
    refused(
        ep,
        "add_term",
        "rule_violation",
        "proposed_by",
        term="employ",
        usage="allowed",
        glossary_id=g["id"],
        proposed_by=POP.contacts[0].email,
    )
    made = ok(ep, "add_term", term="employ", usage="avoid", replacement="use", **base)
    assert made["status"] == "proposed"
    refused(ep, "update_term", "rule_violation", "replacement", term_id=made["id"], replacement="leverage")


def test_dictionary_words_join_the_glossary_with_their_definition_and_approval_is_once(ep: Episode) -> None:
    g = DICT.first(ep, "glossaries", status="active")
    refused(
        ep,
        "add_term_from_dictionary",
        "not_found",
        "word",
        glossary_id=g["id"],
        word="blorp",
        usage="allowed",
        proposed_by=g["owner_email"],
    )
    term = ok(
        ep,
        "add_term_from_dictionary",
        glossary_id=g["id"],
        word="impact",
        part_of_speech="verb",
        usage="avoid",
        replacement="affect",
        proposed_by=g["owner_email"],
    )
    verb = ok(ep, "lookup_word", word="impact")[1]
    assert (term["part_of_speech"], term["definition"]) == ("verb", verb["shortdef"][0])
    done = ok(ep, "approve_term", term_id=term["id"])
    assert (done["status"], done["approved_by"]) == ("approved", g["owner_email"])
    refused(ep, "approve_term", "rule_violation", "term_id", term_id=term["id"])
    refused(ep, "reject_term", "rule_violation", "term_id", term_id=term["id"])


def test_an_archived_glossary_is_frozen(ep: Episode) -> None:
    old = DICT.first(ep, "glossaries", status="archived")
    term = DICT.first(ep, "terms", glossary_id=old["id"])
    refused(
        ep,
        "add_term",
        "rule_violation",
        "glossary_id",
        glossary_id=old["id"],
        term="pivot",
        usage="allowed",
        proposed_by=old["owner_email"],
    )
    refused(ep, "update_term", "rule_violation", "term_id", term_id=term["id"], note="x")
    refused(ep, "delete_term", "rule_violation", "term_id", term_id=term["id"])
    refused(ep, "update_glossary", "rule_violation", "glossary_id", glossary_id=old["id"], name="Reopened")
