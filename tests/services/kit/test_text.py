"""The kit's text helpers fold names the way the services match them."""

from __future__ import annotations

import pytest

from compoworld.services.kit.text import fold, strip_accents


@pytest.mark.parametrize(
    ("text", "plain"),
    [("Zürich", "Zurich"), ("São Paulo", "Sao Paulo"), ("Straße", "Strae"), ("Łódź", "odz"), ("Москва", "")],
)
def test_strip_accents_keeps_only_ascii_by_default(text: str, plain: str) -> None:
    assert strip_accents(text) == plain


def test_strip_accents_can_spell_sharp_s_and_keep_letters_without_an_ascii_form() -> None:
    assert strip_accents("Straße", sharp_s=True) == "Strasse"
    assert strip_accents("Łódź, Køge", ascii_only=False) == "Łodz, Køge"
    assert strip_accents("Größe", sharp_s=True, ascii_only=False) == "Grosse"


def test_fold_is_a_search_key_of_lower_case_words() -> None:
    assert fold("São Paulo, BR") == fold("sao  paulo br") == "sao paulo br"
    assert fold("St. Petersburg") == "st petersburg"
    assert fold("Straße 12") == "strae 12"
    assert fold("Straße 12", sharp_s=True) == "strasse 12"
    assert fold("--") == ""


def test_fold_can_keep_punctuation_and_spacing() -> None:
    assert fold("Acme, Inc.  (Zürich)", keep_punctuation=True) == "acme, inc.  (zurich)"
    assert fold("Weiß-Müller", sharp_s=True, keep_punctuation=True) == "weiss-muller"
