"""Messages that carry facts: what a walk writes in the body of a mail, chat message, SMS or note.

Automations send messages to tell someone something the workflow found: the
tracking number of a shipment, the number of a new invoice, the name of the
deal that closed. A walk's message step takes one or two such facts from the
values earlier steps found (:func:`pick_facts`) and writes them into a short
body (:func:`compose_body`); the provenance of the body lists where each fact
came from, and the task's message criterion asks that the sent record carries
each fact, whatever the rest of the wording.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

__all__ = ["FACT_SEMANTICS", "addressee", "compose_body", "pick_facts"]

FACT_SEMANTICS: tuple[str, ...] = (
    "tracking_number",
    "invoice_number",
    "order_number",
    "product.sku",
    "url",
    "text.title",
    "company.name",
    "stock.ticker",
    "person.name",
    "phone",
    "email",
)
"""Semantic types of values worth telling someone, most telling first.

Dates and amounts are left out on purpose: people write them in many forms
("Dec 3", "3 December"; "$1,200.00"), so a body cannot be checked for them by text.
"""

_MIN_CHARS = 4
_OPENERS = ("Hi {name},", "Hello {name},", "{name},", "Hi {name} —")
# The openers read back: the name a body greets.
_GREETING = re.compile(r"^(?:Hi |Hello )?([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)(?:,| —) ")
_LINES = (
    "the {label} is {value}.",
    "for your records, the {label} is {value}.",
    "quick update: {label} {value}.",
    "please note the {label}: {value}.",
)


class FactLike(Protocol):
    """A value a step found: its step, where in the result, its semantic type and the value."""

    @property
    def step(self) -> int: ...
    @property
    def path(self) -> str: ...
    @property
    def semantic(self) -> str: ...
    @property
    def value(self) -> object: ...


F = TypeVar("F", bound=FactLike)


def pick_facts(found: Sequence[F], stated: set[str], rng: random.Random, most: int = 2) -> list[F]:
    """The facts a message tells: found values of a telling kind that the instruction does not state.

    Args:
        found: Values earlier steps found, in step order.
        stated: Values the instruction states (telling them back says nothing).
        rng: Draws how many facts (one or two) among the most telling.
        most: The most facts to tell.

    Returns:
        Up to ``most`` facts of distinct values, the most telling kind first; empty when nothing is worth telling.
    """
    rank = {sem: i for i, sem in enumerate(FACT_SEMANTICS)}
    seen: set[str] = set()
    candidates: list[F] = []
    for fact in sorted(found, key=lambda f: (rank.get(f.semantic, len(rank)), -f.step)):
        value = fact.value
        if fact.semantic not in rank or not isinstance(value, str) or len(value) < _MIN_CHARS:
            continue
        if value in stated or value.casefold() in seen:
            continue
        seen.add(value.casefold())
        candidates.append(fact)
    return candidates[: rng.randint(1, most)] if candidates else []


def compose_body(facts: Sequence[tuple[str, str]], name: str | None, rng: random.Random) -> str:
    """A short message body that states each fact.

    Args:
        facts: ``(label, value)`` pairs, e.g. ``("tracking number", "1Z999")``.
        name: The first name of the person it goes to, if known.
        rng: Picks the wording.

    Returns:
        The body, e.g. ``"Hi Ana, the tracking number is 1Z999."``.
    """
    lines = [rng.choice(_LINES).format(label=label, value=value) for label, value in facts]
    # Each line is a sentence of its own; only the first, after a greeting, goes on in lower case.
    lines = [line[:1].upper() + line[1:] if i or not name else line for i, line in enumerate(lines)]
    text = " ".join(lines)
    if name:
        text = rng.choice(_OPENERS).format(name=name) + " " + text
    return text


def addressee(body: str) -> str | None:
    """The name a message body greets (``"Hi Ana, the …"`` → ``"Ana"``), or None when it greets nobody.

    Args:
        body: A message body, as :func:`compose_body` writes them.
    """
    found = _GREETING.match(body)
    return found.group(1) if found else None
