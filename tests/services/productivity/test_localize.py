"""Polyglot Strings: languages and keys, writing and reviewing rights, unverified translations, placeholders, tasks."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LOC = ServiceTools("localize")
WORLD = LOC.world
ok, refused, every = LOC.ok, LOC.refused, LOC.every
POP = WORLD.population
WEB = LOC.seeded("projects")[0]["id"]
PEOPLE = {c["email"]: c for c in LOC.seeded("contributors") if c["project_id"] == WEB}


def who(admin: bool = False, reviewer: bool | None = None, writes: str | None = None, reads: str | None = None) -> str:
    for email, c in PEOPLE.items():
        rights = {r["lang_iso"]: r["is_writable"] for r in c["languages"]}
        if c["is_admin"] != admin or (reviewer is not None and c["is_reviewer"] != reviewer):
            continue
        if writes and not rights.get(writes):
            continue
        if reads and rights.get(reads, True):
            continue
        return str(email)
    raise AssertionError("no such contributor")


ADMIN = who(admin=True)


def key(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_keys", project_id=WEB, key_name=name)[0]


def tr(ep: Episode, name: str, iso: str) -> dict[str, Any]:
    return every(ep, "list_translations", key_id=key(ep, name)["id"], lang_iso=iso)[0]


def test_every_key_has_one_translation_per_language_and_contributors_are_real_people() -> None:
    ep = Episode(WORLD)
    people = {p.email: p.name for p in POP.people}
    for c in every(ep, "list_contributors"):
        assert people[c["email"]] == c["fullname"]
    for project in every(ep, "list_projects"):
        isos = sorted(lg["lang_iso"] for lg in every(ep, "list_languages", project_id=project["id"]))
        for k in every(ep, "list_keys", project_id=project["id"]):
            assert sorted(t["lang_iso"] for t in every(ep, "list_translations", key_id=k["id"])) == isos
    stats = ok(ep, "project_statistics", project_id=WEB)
    de = next(lg for lg in stats["languages"] if lg["lang_iso"] == "de")
    written = [t for t in every(ep, "list_translations", project_id=WEB, lang_iso="de") if t["translation"]]
    assert (stats["keys"], de["translated"]) == (10, len(written))
    assert de["progress_percent"] == round(100 * len(written) / 10)


def test_adding_a_language_gives_every_key_an_empty_translation(ep: Episode) -> None:
    added = ok(ep, "add_language", project_id=WEB, lang_iso="it")
    it = every(ep, "list_translations", project_id=WEB, lang_iso="it")
    assert len(it) == 10 and all(t["translation"] == "" for t in it)
    refused(ep, "add_language", "conflict", "lang_iso", project_id=WEB, lang_iso="it")
    base = every(ep, "list_languages", project_id=WEB, is_base=True)[0]
    refused(ep, "remove_language", "rule_violation", "language_id", language_id=base["id"])
    spanish = every(ep, "list_languages", project_id=WEB, lang_iso="es")[0]
    refused(ep, "remove_language", "rule_violation", "language_id", language_id=spanish["id"])
    ok(ep, "remove_language", language_id=added["id"])
    assert every(ep, "list_translations", project_id=WEB, lang_iso="it") == []


def test_key_names_are_unique_and_the_base_text_respects_the_character_limit(ep: Episode) -> None:
    made = ok(
        ep,
        "create_key",
        project_id=WEB,
        key_name="cart.empty",
        platforms=["web"],
        base_translation="Your cart is empty",
        char_limit=30,
    )
    texts = {t["lang_iso"]: t["translation"] for t in every(ep, "list_translations", key_id=made["id"])}
    assert texts == {"en": "Your cart is empty", "de": "", "fr": "", "es": "", "pt_BR": ""}
    refused(
        ep,
        "create_key",
        "conflict",
        "key_name",
        project_id=WEB,
        key_name="cart.empty",
        platforms=["web"],
        base_translation="x",
    )
    refused(
        ep,
        "create_key",
        "rule_violation",
        "base_translation",
        project_id=WEB,
        key_name="cart.full",
        platforms=["web"],
        base_translation="x" * 11,
        char_limit=10,
    )


def test_contributors_write_only_the_languages_they_may_write(ep: Episode) -> None:
    reader = who(reviewer=True, reads="fr")
    fr = tr(ep, "errors.network", "fr")
    refused(
        ep,
        "update_translation",
        "rule_violation",
        "contributor_email",
        translation_id=fr["id"],
        translation="Vérifiez",
        contributor_email=reader,
    )
    refused(
        ep,
        "update_translation",
        "rule_violation",
        "contributor_email",
        translation_id=fr["id"],
        translation="Vérifiez",
        contributor_email="nobody@nowhere.io",
    )
    writer = who(writes="fr")
    home = tr(ep, "nav.home", "fr")
    refused(
        ep,
        "update_translation",
        "rule_violation",
        "translation",
        translation_id=home["id"],
        translation="Page d'accueil",
        contributor_email=writer,
    )
    done = ok(
        ep,
        "update_translation",
        translation_id=fr["id"],
        translation="Vérifiez votre connexion.",
        contributor_email=writer,
    )
    assert (done["modified_by_email"], done["is_reviewed"]) == (writer, False)
    by_admin = ok(
        ep,
        "update_translation",
        translation_id=tr(ep, "nav.home", "de")["id"],
        translation="Start",
        contributor_email=ADMIN,
    )
    assert by_admin["translation"] == "Start", "admins write every language"


def test_a_new_base_text_marks_the_other_languages_unverified(ep: Episode) -> None:
    reviewed = next(
        t for t in every(ep, "list_translations", project_id=WEB, is_reviewed=True) if t["lang_iso"] != "en"
    )
    base = every(ep, "list_translations", key_id=reviewed["key_id"], lang_iso="en")[0]
    ok(
        ep,
        "update_translation",
        translation_id=base["id"],
        translation=base["translation"] + " now",
        contributor_email=ADMIN,
    )
    for t in every(ep, "list_translations", key_id=reviewed["key_id"]):
        if t["lang_iso"] != "en" and t["translation"]:
            assert t["is_unverified"] and not t["is_reviewed"]
    stats = ok(ep, "project_statistics", project_id=WEB)
    assert sum(lg["unverified"] for lg in stats["languages"]) >= 1


def test_reviews_need_a_reviewer_of_the_language_and_matching_placeholders(ep: Episode) -> None:
    german = tr(ep, "greeting.user", "de")  # "Willkommen zurück!" lost {name}
    reviewer = who(reviewer=True, writes="de")
    refused(
        ep,
        "review_translation",
        "rule_violation",
        "translation_id",
        translation_id=german["id"],
        reviewer_email=reviewer,
    )
    refused(
        ep,
        "review_translation",
        "rule_violation",
        "reviewer_email",
        translation_id=german["id"],
        reviewer_email=who(writes="de", reviewer=False),
    )
    refused(
        ep,
        "review_translation",
        "rule_violation",
        "reviewer_email",
        translation_id=german["id"],
        reviewer_email=who(reviewer=True, writes="es"),
    )
    ok(
        ep,
        "update_translation",
        translation_id=german["id"],
        translation="Willkommen zurück, {name}!",
        contributor_email=reviewer,
    )
    done = ok(ep, "review_translation", translation_id=german["id"], reviewer_email=reviewer)
    assert (done["is_reviewed"], done["reviewed_by_email"]) == (True, reviewer)
    refused(
        ep, "review_translation", "conflict", "translation_id", translation_id=german["id"], reviewer_email=reviewer
    )
    empty = tr(ep, "errors.network", "de")
    refused(
        ep,
        "review_translation",
        "rule_violation",
        "translation_id",
        translation_id=empty["id"],
        reviewer_email=reviewer,
    )


def test_tasks_go_to_contributors_who_may_do_the_work(ep: Episode) -> None:
    k = key(ep, "errors.network")["id"]
    fr_reader = who(reviewer=True, reads="fr")
    base = {"project_id": WEB, "title": "French errors", "key_ids": [k]}
    refused(
        ep,
        "create_task",
        "rule_violation",
        "created_by_email",
        languages=[{"lang_iso": "fr", "assignee_emails": [who(writes="fr")]}],
        created_by_email=fr_reader,
        **base,
    )
    refused(
        ep,
        "create_task",
        "rule_violation",
        "languages",
        languages=[{"lang_iso": "fr", "assignee_emails": [fr_reader]}],
        created_by_email=ADMIN,
        **base,
    )
    refused(
        ep,
        "create_task",
        "rule_violation",
        "languages",
        languages=[{"lang_iso": "en", "assignee_emails": [ADMIN]}],
        created_by_email=ADMIN,
        **base,
    )
    refused(
        ep,
        "create_task",
        "rule_violation",
        "languages",
        languages=[{"lang_iso": "fr", "assignee_emails": [who(writes="fr")]}],
        created_by_email=ADMIN,
        task_type="review",
        **base,
    )
    task = ok(
        ep,
        "create_task",
        languages=[{"lang_iso": "fr", "assignee_emails": [who(writes="fr")]}],
        created_by_email=ADMIN,
        **base,
    )
    assert task["status"] == "created"
    ok(
        ep,
        "update_translation",
        translation_id=tr(ep, "errors.network", "fr")["id"],
        translation="Vérifiez la connexion.",
        contributor_email=who(writes="fr"),
    )
    opened = next(t for t in every(ep, "list_tasks") if t["id"] == task["id"])
    assert opened["status"] == "in_progress"
    assert ok(ep, "complete_task", task_id=task["id"])["status"] == "completed"
    refused(ep, "complete_task", "conflict", "task_id", task_id=task["id"])


def test_a_task_completes_only_when_its_translations_are_done(ep: Episode) -> None:
    spanish = next(t for t in every(ep, "list_tasks") if t["title"] == "Spanish for the checkout")
    refused(ep, "complete_task", "rule_violation", "task_id", task_id=spanish["id"])
    writer = spanish["languages"][0]["assignee_emails"][0]
    for name, text in (("cart.items", "Tienes %d artículos en tu carrito"), ("errors.network", "Revisa tu conexión.")):
        ok(
            ep,
            "update_translation",
            translation_id=tr(ep, name, "es")["id"],
            translation=text,
            contributor_email=writer,
        )
    assert ok(ep, "complete_task", task_id=spanish["id"])["completed_at"] is not None
    review = next(t for t in every(ep, "list_tasks") if t["task_type"] == "review")
    refused(ep, "complete_task", "rule_violation", "task_id", task_id=review["id"])


def test_keys_in_open_tasks_stay_and_deleting_a_key_deletes_its_translations(ep: Episode) -> None:
    refused(ep, "delete_key", "rule_violation", "key_id", key_id=key(ep, "cart.items")["id"])
    legal = key(ep, "footer.legal")
    ok(ep, "delete_key", key_id=legal["id"])
    assert all(t["key_id"] != legal["id"] for t in every(ep, "list_translations", project_id=WEB))
    assert len(every(ep, "list_translations", project_id=WEB)) == 9 * 5
    assert ok(ep, "project_statistics", project_id=WEB)["keys"] == 9
