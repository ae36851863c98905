"""Textlens: sentiment, entities from the world, classification limits, languages, saved documents and analyses."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

LENS = ServiceTools("textlens")
WORLD = LENS.world
ok, refused, every = LENS.ok, LENS.refused, LENS.every
POP = WORLD.population

LONG = (
    "The invoice for my last order was wrong: the payment was charged twice and the refund is still missing "
    "from my credit card balance after two weeks. Please send a corrected invoice and a receipt."
)


def test_sentiment_reads_opinion_words_negation_and_sentences(ep: Episode) -> None:
    happy = ok(ep, "analyze_sentiment", text="The support was really helpful. Delivery was fast!")
    assert happy["document_sentiment"]["score"] > 0.4 and len(happy["sentences"]) == 2
    sad = ok(ep, "analyze_sentiment", text="The parcel arrived damaged. The app is not good.")
    assert sad["document_sentiment"]["score"] < 0
    assert [s["sentiment"]["score"] < 0 for s in sad["sentences"]] == [True, True]
    mixed = ok(ep, "analyze_sentiment", text="Great price. Terrible support.")
    assert abs(mixed["document_sentiment"]["score"]) < 0.2 and mixed["document_sentiment"]["magnitude"] > 1.4
    html = ok(ep, "analyze_sentiment", text="<p>Excellent <b>service</b></p>", type="HTML")
    assert html["sentences"][0]["text"].startswith("Excellent")


def test_entities_come_from_the_world_with_contact_details(ep: Episode) -> None:
    p, company = POP.contacts[0], POP.customers[0]
    text = f"Yesterday {p.first_name} {p.last_name} of {company.name} wrote from {p.place.city} about $1,200.50."
    got = ok(ep, "analyze_entities", text=text)
    by_type = {e["type"]: e for e in got["entities"]}
    assert by_type["PERSON"]["email"] == p.email and by_type["PERSON"]["phone"] == p.phone
    assert by_type["ORGANIZATION"]["domain"] == company.domain
    assert by_type["LOCATION"]["country"] == p.place.country
    assert by_type["PRICE"]["name"] == "$1,200.50"
    assert abs(sum(e["salience"] for e in got["entities"]) - 1) < 0.01
    assert got["entities"][0]["type"] == "PERSON"


def test_empty_over_long_and_unsupported_language_texts_are_refused(ep: Episode) -> None:
    refused(ep, "analyze_sentiment", "rule_violation", "text", text="   ")
    refused(ep, "analyze_entities", "rule_violation", "text", text="<p> </p>", type="HTML")
    refused(ep, "analyze_sentiment", "rule_violation", "text", text="good " * 2001)
    refused(ep, "analyze_entities", "rule_violation", "language", text="Tack så mycket", language="sv")
    refused(ep, "moderate_text", "rule_violation", "text", text="Guten Morgen, die Rechnung ist bereit und gut.")
    assert ok(ep, "analyze_sentiment", text="Die Lieferung war gut, danke.", language="de")["language"] == "de"


def test_classification_needs_twenty_english_words(ep: Episode) -> None:
    got = ok(ep, "classify_text", text=LONG)
    assert got["categories"][0]["name"] == "/Finance/Accounting & Auditing/Billing & Invoicing"
    assert all(c["confidence"] >= 0.1 for c in got["categories"])
    refused(ep, "classify_text", "rule_violation", "text", text="The invoice was wrong and the refund is missing.")
    refused(ep, "classify_text", "rule_violation", "language", text=LONG, language="fr")


def test_detection_and_annotation_combine_features(ep: Episode) -> None:
    de = ok(ep, "detect_language", text="Guten Morgen, die Rechnung ist bereit.")
    assert de["language"] == "de" and "classify" not in de["supported_features"]
    both = ok(ep, "annotate_text", text=LONG, features=["sentiment", "classify", "moderate"])
    assert both["entities"] is None and both["document_sentiment"]["score"] < 0
    assert both["categories"] == ok(ep, "classify_text", text=LONG)["categories"]
    refused(ep, "annotate_text", "rule_violation", "features", text=LONG, features=["sentiment", "sentiment"])
    refused(ep, "annotate_text", "rule_violation", "text", text="Too short to classify.", features=["classify"])


def test_moderation_flags_insults(ep: Episode) -> None:
    rude = ok(ep, "moderate_text", text="You are an idiot and a pathetic clown, stupid support.")
    assert rude["flagged"] and {c["name"] for c in rude["moderation_categories"] if c["confidence"] > 0.5} >= {
        "Insult",
        "Toxic",
    }
    assert not ok(ep, "moderate_text", text="Thanks for the quick delivery.")["flagged"]


def test_analysing_a_saved_document_stores_it_once_per_revision(ep: Episode) -> None:
    doc = next(d for d in every(ep, "list_documents", status="active") if "invoice" in d["content"])
    done = {a["feature"] for a in every(ep, "list_analyses", document_id=doc["id"], stale=False)}
    feature = next(f for f in ("entities", "moderate", "sentiment") if f not in done)
    first = ok(ep, "analyze_document", document_id=doc["id"], feature=feature)
    assert (first["revision"], first["stale"], first["characters"]) == (1, False, len(doc["content"]))
    refused(ep, "analyze_document", "conflict", "feature", document_id=doc["id"], feature=feature)
    edited = ok(ep, "update_document", document_id=doc["id"], content=doc["content"] + " Thanks!")
    assert edited["revision"] == 2
    assert ok(ep, "get_analysis", analysis_id=first["id"])["stale"] is True
    again = ok(ep, "analyze_document", document_id=doc["id"], feature=feature)
    assert again["revision"] == 2
    summary = ok(ep, "summarize_document", document_id=doc["id"])
    assert feature not in summary["missing_features"]
    assert [a["id"] for a in summary["analyses"] if a["feature"] == feature] == [again["id"]]


def test_entity_analysis_records_the_people_named(ep: Episode) -> None:
    doc = next(d for d in every(ep, "list_documents", source="support_email") if d["status"] == "active")
    got = next((a for a in every(ep, "list_analyses", document_id=doc["id"], feature="entities")), None) or ok(
        ep, "analyze_document", document_id=doc["id"], feature="entities"
    )
    assert doc["author_email"] in got["person_emails"] and doc["author_name"] in got["entity_names"]


def test_archived_documents_are_read_only(ep: Episode) -> None:
    doc = every(ep, "list_documents", status="archived")[0]
    refused(ep, "analyze_document", "rule_violation", "document_id", document_id=doc["id"], feature="sentiment")
    refused(ep, "update_document", "rule_violation", "document_id", document_id=doc["id"], title="Renamed")
    assert ok(ep, "restore_document", document_id=doc["id"])["status"] == "active"
    assert ok(ep, "update_document", document_id=doc["id"], title="Renamed")["title"] == "Renamed"


def test_saved_documents_need_unique_titles_and_words(ep: Episode) -> None:
    owner = POP.employees[0].email
    taken = every(ep, "list_documents")[0]["title"]
    refused(ep, "create_document", "conflict", "title", title=taken, content="Great service.", owner_email=owner)
    refused(
        ep,
        "create_document",
        "rule_violation",
        "content",
        title="Blank",
        content="<br/>",
        type="HTML",
        owner_email=owner,
    )
    refused(
        ep,
        "create_document",
        "rule_violation",
        "language",
        title="Swedish",
        content="Tack",
        language="sv",
        owner_email=owner,
    )
    made = ok(ep, "create_document", title="Note", content="Lovely staff.", owner_email=owner)
    assert (made["revision"], made["status"]) == (1, "active")
    analysed = every(ep, "list_analyses")[0]["document_id"]
    ok(ep, "delete_document", document_id=analysed)
    assert all(a["document_id"] != analysed for a in every(ep, "list_analyses"))


def test_seeded_documents_are_written_by_customers_and_saved_by_staff() -> None:
    docs = LENS.seeded("documents")
    staff = {p.email for p in POP.employees}
    customers = {p.email for p in POP.people if p.role != "employee"}
    assert docs and all(d["owner_email"] in staff and d["author_email"] in customers for d in docs)
    assert {d["status"] for d in docs} == {"active", "archived"}
    assert {a["feature"] for a in LENS.seeded("analyses")} >= {"sentiment", "entities", "moderate"}
