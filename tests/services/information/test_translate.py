"""Lingua Translate: lexicon pseudo-translation that keeps the world's names, detection, languages, romanization."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest

from compoworld import Episode
from tests.services.helpers import SEED, ServiceTools

TRANSLATE = ServiceTools("translate")
WORLD = TRANSLATE.world
ok, refused = TRANSLATE.ok, TRANSLATE.refused
POP = WORLD.population
TARGETS = ("de", "fr", "es", "it", "pt", "nl", "sv", "pl", "ru", "ja", "zh")
PERSON = POP.contacts[0]
COMPANY = POP.company_of(PERSON)
assert COMPANY is not None


def translated(ep: Episode, text: str, target: str, **args: Any) -> str:
    return str(ok(ep, "translate_text", text=text, target=target, **args)["translated_text"])


# -- translation ---------------------------------------------------------------------------


def test_a_lexicon_sentence_is_translated_word_by_word(ep: Episode) -> None:
    text = f"Hello {PERSON.first_name}, the invoice is ready."
    assert translated(ep, text, "de") == f"Hallo {PERSON.first_name}, die Rechnung ist bereit."
    assert translated(ep, text, "fr") == f"Bonjour {PERSON.first_name}, le facture est prêt."
    assert translated(ep, text, "ja") == f"こんにちは {PERSON.first_name}、請求書です準備完了。"
    assert translated(ep, "Thank you for the payment.", "es") == "Gracias para el pago."


def test_names_numbers_e_mails_and_urls_are_kept_verbatim_in_every_language(ep: Episode) -> None:
    terms = [
        PERSON.name,
        COMPANY.name,
        "EUR",
        "1,250.00",
        PERSON.email,
        "https://pay.example.com/inv/42",
        "INV-2026-0042",
    ]
    text = (
        f"Dear {PERSON.name}, the invoice INV-2026-0042 for {COMPANY.name} is due: EUR 1,250.00. "
        f"Please send the payment to {PERSON.email} or see https://pay.example.com/inv/42."
    )
    for target in TARGETS:
        out = ok(ep, "translate_text", text=text, target=target, source="en")
        for term in terms:
            assert term in out["translated_text"], (target, term)
        assert set(terms) - {"INV-2026-0042"} <= set(out["untranslated_terms"])


def test_world_names_are_kept_even_where_a_sentence_starts(ep: Episode) -> None:
    city = POP.places[-1].city
    product = POP.products[0].name
    text = f"{COMPANY.name} has a new office in {city}. {product} is ready."
    for target in ("ru", "ja", "zh", "pl"):
        out = translated(ep, text, target, source="en")
        assert COMPANY.name in out and city in out and product in out


def test_a_lexicon_sentence_survives_a_round_trip(ep: Episode) -> None:
    text = "The invoice is ready."
    for target in ("de", "fr", "es", "it", "pt", "nl", "sv"):
        there = translated(ep, text, target, source="en")
        assert there != text
        assert translated(ep, there, "en", source=target) == text, target


def test_unknown_english_words_become_cognates_or_transliterations(ep: Episode) -> None:
    assert translated(ep, "information", "es", source="en") == "información"
    assert translated(ep, "electric", "de", source="en") == "elektrisch"
    assert translated(ep, "quality", "it", source="en") == "qualità"
    assert translated(ep, "computer", "ru", source="en") == "компутер"
    assert translated(ep, "cloud", "ja", source="en") == "クラウド"
    assert re.fullmatch(r"[\u4e00-\u9fff]+", translated(ep, "robotics", "zh", source="en"))


def test_russian_output_is_cyrillic_apart_from_the_kept_terms(ep: Episode) -> None:
    out = translated(ep, f"The new project meeting with {PERSON.first_name} is tomorrow.", "ru")
    words = re.findall(r"[^\W\d_]+", out.replace(PERSON.first_name, ""))
    assert words and all(re.fullmatch(r"[\u0400-\u04ff]+", w) for w in words), out
    assert out.startswith("Новый")  # the dropped article hands its capital to the next word


def test_japanese_and_chinese_output_join_words_and_use_their_punctuation(ep: Episode) -> None:
    ja = translated(ep, "The meeting is tomorrow. Thank you!", "ja")
    assert ja == "会議です明日。ありがとうございます！"
    zh = translated(ep, "The meeting is tomorrow, thank you!", "zh")
    assert zh == "会议是明天，谢谢你！"


def test_japanese_chinese_and_russian_translate_back_to_english(ep: Episode) -> None:
    assert translated(ep, "請求書は準備完了です。ありがとう", "en") == "Invoice ready is. Thanks"
    assert translated(ep, "会议明天。谢谢", "en") == "Meeting tomorrow. Thanks"
    assert translated(ep, "Спасибо, встреча завтра.", "en") == "Thanks, meeting tomorrow."


def test_html_markup_is_kept_and_only_the_text_is_translated(ep: Episode) -> None:
    out = ok(ep, "translate_text", text="<p>Hello <b>team</b> &amp; customer</p>", target="es", format="html")
    assert out["translated_text"] == "<p>Hola <b>equipo</b> &amp; cliente</p>"
    assert out["untranslated_terms"] == []


def test_without_a_source_the_language_is_detected_and_reported(ep: Episode) -> None:
    out = ok(ep, "translate_text", text="La factura está lista, gracias.", target="en")
    assert out["source_language"] == out["detected_source_language"] == "es"
    assert out["translated_text"] == "The invoice is ready, thanks."
    given = ok(ep, "translate_text", text="La factura está lista.", target="en", source="es")
    assert given["detected_source_language"] is None
    assert given["billed_characters"] == len("La factura está lista.")


def test_a_text_detected_in_the_target_language_comes_back_unchanged(ep: Episode) -> None:
    text = "Guten Morgen, die Rechnung ist bereit."
    assert translated(ep, text, "de") == text


def test_an_explicit_source_equal_to_the_target_is_refused(ep: Episode) -> None:
    refused(ep, "translate_text", "rule_violation", "target", text="Hello", target="en", source="en")


def test_unsupported_languages_are_refused_with_the_supported_ones(ep: Episode) -> None:
    msg = refused(ep, "translate_text", "rule_violation", "target", text="Hello", target="ko")
    assert "ko" in msg
    refused(ep, "translate_text", "rule_violation", "source", text="Hello", target="de", source="ko")
    refused(ep, "translate_text", "invalid_arguments", "target", text="Hello", target="German")


def test_an_empty_or_wordless_text_is_refused(ep: Episode) -> None:
    refused(ep, "translate_text", "rule_violation", "text", text="   ", target="de")
    refused(ep, "translate_text", "rule_violation", "text", text="12345 !!", target="de")


# -- batches -------------------------------------------------------------------------------


def test_a_batch_is_translated_in_order_exactly_like_single_calls(ep: Episode) -> None:
    texts = [f"Good morning {PERSON.first_name}!", "The meeting is tomorrow.", "Best regards", "Danke!"]
    out = ok(ep, "translate_batch", texts=texts, target="fr")
    assert [t["translated_text"] for t in out["translations"]] == [translated(ep, t, "fr") for t in texts]
    assert [t["source_language"] for t in out["translations"]] == ["en", "en", "en", "de"]
    assert out["billed_characters"] == sum(len(t) for t in texts)


def test_batch_limits_are_enforced(ep: Episode) -> None:
    refused(ep, "translate_batch", "invalid_arguments", "texts", texts=[], target="de")
    refused(ep, "translate_batch", "invalid_arguments", "texts", texts=["Hello"] * 129, target="de")
    refused(ep, "translate_batch", "rule_violation", "texts.1", texts=["Hello", " "], target="de")
    refused(ep, "translate_batch", "rule_violation", "texts", texts=["word " * 4000] * 2, target="de")


# -- detection -----------------------------------------------------------------------------

SAMPLES = {
    "en": "Please send the invoice for the meeting today.",
    "de": "Bitte senden Sie die Rechnung für die Besprechung heute.",
    "fr": "Merci pour la commande, la livraison est prête.",
    "es": "La factura está lista, gracias por el pago.",
    "it": "Grazie per il pagamento, la fattura è pronta.",
    "pt": "Obrigado pelo pagamento, a fatura está pronta hoje.",
    "nl": "Bedankt voor de betaling, de factuur is klaar.",
    "sv": "Tack för betalningen, fakturan är klar idag.",
    "pl": "Dziękuję za płatność, faktura jest gotowa dzisiaj.",
    "ru": "Спасибо за оплату, счёт готов.",
    "ja": "お支払いありがとうございます。請求書は準備完了です。",
    "zh": "谢谢你的付款，发票已经准备好了。",
}


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_detection_recognises_each_supported_language(ep: Episode, language: str) -> None:
    text = f"{SAMPLES[language]} {PERSON.name}, {PERSON.email}"
    out = ok(ep, "detect_language", text=text)
    assert out["language"] == language
    assert out["is_reliable"] and 0.5 <= out["confidence"] <= 1
    assert out["alternatives"][0] == {"language": language, "confidence": out["confidence"]}
    confidences = [a["confidence"] for a in out["alternatives"]]
    assert confidences == sorted(confidences, reverse=True) and len(confidences) <= 3


def test_text_without_words_in_a_supported_script_cannot_be_detected(ep: Episode) -> None:
    for text in ("12345 67.89", PERSON.email, "안녕하세요", "Γειά σου"):
        refused(ep, "detect_language", "rule_violation", "text", text=text)


def test_text_with_no_lexicon_words_is_guessed_as_english_without_reliability(ep: Episode) -> None:
    out = ok(ep, "detect_language", text="xylophone zebra")
    assert out["language"] == "en" and not out["is_reliable"] and out["confidence"] < 0.5


# -- languages and romanization ------------------------------------------------------------


def test_the_languages_are_named_in_the_display_language_with_the_world_cities_that_speak_them(ep: Episode) -> None:
    out = ok(ep, "list_languages", display_language="de")
    by_code = {lang["code"]: lang for lang in out["languages"]}
    assert sorted(by_code) == sorted(("en", *TARGETS))
    assert by_code["en"]["name"] == "Englisch" and by_code["fr"]["native_name"] == "Français"
    assert by_code["ja"]["native_name"] == "日本語" and by_code["ja"]["script"] == "Jpan"
    for code, lang in by_code.items():
        assert lang["cities"] == [p.city for p in POP.places if p.language == code]
        assert lang["countries"] == sorted({p.country for p in POP.places if p.language == code})
        assert lang["supports_romanization"] == (code in ("ru", "ja", "zh"))
    assert ok(ep, "list_languages")["languages"][1]["name"] == "German"


def test_an_unsupported_display_language_is_refused(ep: Episode) -> None:
    refused(ep, "list_languages", "rule_violation", "display_language", display_language="ko")


def test_russian_japanese_and_chinese_are_romanized(ep: Episode) -> None:
    ru = ok(ep, "romanize_text", text="Спасибо, встреча завтра.")
    assert ru == {
        "romanized_text": "Spasibo, vstrecha zavtra.",
        "source_language": "ru",
        "detected_source_language": "ru",
    }
    ja = ok(ep, "romanize_text", text="会議は明日です。ありがとう！チケット", source="ja")
    assert ja["romanized_text"] == "kaigi wa ashita desu. arigatou! chiketto"
    assert ja["detected_source_language"] is None
    assert ok(ep, "romanize_text", text="会议明天。谢谢")["romanized_text"] == "huiyi mingtian. xiexie"


def test_latin_text_needs_no_romanization(ep: Episode) -> None:
    refused(ep, "romanize_text", "rule_violation", "text", text="Die Rechnung ist bereit.")
    refused(ep, "romanize_text", "rule_violation", "source", text="Die Rechnung ist bereit.", source="de")


# -- determinism ---------------------------------------------------------------------------

CALLS: list[list[Any]] = [
    ["translate_text", {"text": f"Hello {PERSON.name}, the new invoice is ready.", "target": "ja"}],
    ["translate_batch", {"texts": ["Good morning!", "Спасибо", "会议明天"], "target": "de"}],
    ["detect_language", {"text": "La factura está lista."}],
    ["romanize_text", {"text": "会議は明日です"}],
    ["list_languages", {"display_language": "zh"}],
]


def test_the_same_calls_give_the_same_answers_in_two_episodes() -> None:
    first, second = Episode(WORLD), Episode(WORLD, seed=9)
    for tool, args in CALLS:
        assert ok(first, tool, **args) == ok(second, tool, **args)


_SCRIPT = """
import json, sys
from compoworld import Catalog, Episode, World
world = World.build(Catalog.load(["translate"]), seed=int(sys.argv[1]))
ep = Episode(world)
print(json.dumps([ep.call("translate__" + t, a).to_dict() for t, a in json.loads(sys.argv[2])], sort_keys=True))
"""


def test_answers_are_byte_identical_across_processes_and_hash_seeds() -> None:
    outputs = []
    for hashseed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run(
            [sys.executable, "-c", _SCRIPT, str(SEED), json.dumps(CALLS)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    ep = Episode(WORLD)
    here = [ep.call(f"translate__{t}", a).to_dict() for t, a in CALLS]
    assert json.loads(outputs[0]) == here and all(r["ok"] for r in here)
