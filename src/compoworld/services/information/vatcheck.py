"""Vatproof: EU VAT number validation over VIES, and the customer VAT register with its proofs.

Modeled on the European Commission's VIES REST API (``/check-vat-number``
with ``countryCode``, ``vatNumber`` and the optional requester's
``requesterMemberStateCode`` and ``requesterNumber``, answering ``valid``,
``name``, ``address``, ``requestDate`` and a ``requestIdentifier``
consultation number, plus approximate trader matching —
``traderNameMatch``, ``traderPostalCodeMatch`` … ``VALID``, ``INVALID`` or
``NOT_PROCESSED``; ``/check-status`` for each member state's availability).
Numbers are checked as the member states write them: Greece is ``EL``,
Northern Ireland ``XI``; each state's format, and where the state publishes
one its check digit (Belgium mod 97, Germany ISO 7064 mod 11,10, Italy Luhn,
the Netherlands mod 11, Poland, Denmark, Finland, France's key, Sweden), is
checked before any request, and a number that fails is refused. Great
Britain's numbers left VIES with Brexit.

An open-world service: registrations are a deterministic model seeded by the
world seed. The world's companies in member states hold a valid number under
their name and address; any other well-formed number is valid or not by a draw
from the number, with a trader named after it. Germany and Spain, as in VIES,
never disclose names and addresses (``---``). One small member state is out of
service in this world (``MS_UNAVAILABLE``).

Stored state is the customer VAT register: a profile per business customer
holds its number and is verified against VIES; each verification keeps a proof
(the consultation number that justifies zero-rating an intra-community supply)
that cannot be deleted; a verification older than 90 days is stale, and only a
fresh valid one in another member state than the seller's allows the reverse
charge.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf, SemanticType
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service", "vat_number_of"]

service = Service(
    "vatcheck",
    title="Vatproof",
    category="tax_validation",
    modeled_on="EU VIES REST API (check-vat-number with requester and approximate trader matching, check-status) "
    "with member-state VAT number formats and check digits",
    description="EU VAT number validation: check a customer's number against VIES with its registered name and "
    "address, match trader details, see which member states answer, and keep the customer VAT register whose "
    "verifications and consultation numbers prove zero-rated intra-community sales.",
)

ProfileId = Annotated[str, IdOf("vatcheck.profile")]
ProofId = Annotated[str, IdOf("vatcheck.proof")]
VatNumber = Annotated[str, SemanticType("vat_number", kind="ref"), StringConstraints(pattern=r"^[A-Za-z0-9 .-]{4,20}$")]
"""A VAT number, with or without its country prefix (DE123456789)."""
MemberState = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
"""A VIES member state code (EL for Greece, XI for Northern Ireland)."""

Match = Literal["VALID", "INVALID", "NOT_PROCESSED"]
ProfileStatus = Literal["unverified", "verified", "invalid", "inactive"]
FRESH_DAYS = 90
MAX_BATCH = 10

_FORMATS: dict[str, tuple[str, str]] = {
    "AT": (r"U\d{8}", "Austria"), "BE": (r"[01]\d{9}", "Belgium"), "BG": (r"\d{9,10}", "Bulgaria"),
    "CY": (r"\d{8}[A-Z]", "Cyprus"), "CZ": (r"\d{8,10}", "Czechia"), "DE": (r"\d{9}", "Germany"),
    "DK": (r"\d{8}", "Denmark"), "EE": (r"\d{9}", "Estonia"), "EL": (r"\d{9}", "Greece"),
    "ES": (r"[A-Z0-9]\d{7}[A-Z0-9]", "Spain"), "FI": (r"\d{8}", "Finland"), "FR": (r"[A-HJ-NP-Z0-9]{2}\d{9}", "France"),
    "HR": (r"\d{11}", "Croatia"), "HU": (r"\d{8}", "Hungary"), "IE": (r"\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W]", "Ireland"),
    "IT": (r"\d{11}", "Italy"), "LT": (r"\d{9}|\d{12}", "Lithuania"), "LU": (r"\d{8}", "Luxembourg"),
    "LV": (r"\d{11}", "Latvia"), "MT": (r"\d{8}", "Malta"), "NL": (r"\d{9}B\d{2}", "Netherlands"),
    "PL": (r"\d{10}", "Poland"), "PT": (r"\d{9}", "Portugal"), "RO": (r"\d{2,10}", "Romania"),
    "SE": (r"\d{10}01", "Sweden"), "SI": (r"\d{8}", "Slovenia"), "SK": (r"\d{10}", "Slovakia"),
    "XI": (r"\d{9}|\d{12}|GD\d{3}|HA\d{3}", "Northern Ireland"),
}  # fmt: skip
_ISO = {"EL": "GR", "XI": "GB"}
_NO_NAMES = ("DE", "ES")
"""Member states whose VIES answers never disclose name and address."""
_DOWN = ("MT", "CY", "LU")
"""Small member states one of which is out of service in each world."""


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(("vatcheck", str(seed), *map(str, parts))))


# -- check digits -------------------------------------------------------------------------------------------


def _luhn_ok(digits: str) -> bool:
    total = 0
    for k, d in enumerate(reversed(digits)):
        n = int(d) * (2 if k % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _weighted(digits: str, weights: tuple[int, ...], mod: int) -> int:
    return sum(int(d) * w for d, w in zip(digits, weights, strict=False)) % mod


def _checksum_ok(cc: str, n: str) -> bool:
    """The member state's check-digit rule, where it publishes one (others: format only)."""
    if cc == "BE":
        return 97 - int(n[:8]) % 97 == int(n[8:])
    if cc == "DE":
        product = 10
        for d in n[:8]:
            total = (int(d) + product) % 10 or 10
            product = (2 * total) % 11
        return (11 - product) % 10 == int(n[8])
    if cc == "IT":
        return _luhn_ok(n)
    if cc == "NL":
        body = n[:9]
        return (sum(int(d) * w for d, w in zip(body[:8], range(9, 1, -1), strict=True)) - int(body[8])) % 11 == 0
    if cc == "PL":
        return _weighted(n, (6, 5, 7, 2, 3, 4, 5, 6, 7), 11) == int(n[9])
    if cc == "DK":
        return _weighted(n, (2, 7, 6, 5, 4, 3, 2, 1), 11) == 0
    if cc == "FI":
        rest = _weighted(n, (7, 9, 10, 5, 8, 4, 2), 11)
        return (0 if rest == 0 else 11 - rest) == int(n[7])
    if cc == "FR" and n[:2].isdigit():
        return int(n[:2]) == (12 + 3 * (int(n[2:]) % 97)) % 97
    if cc == "SE":
        return _luhn_ok(n[:10])
    return True


def _complete(cc: str, body: str) -> str:
    """A number of ``cc`` with a right check digit, from digits ``body`` (its length minus the check)."""
    if cc == "BE":
        return body[:8] + f"{97 - int(body[:8]) % 97:02d}"
    if cc == "FR":
        siren = body[:9]
        return f"{(12 + 3 * (int(siren) % 97)) % 97:02d}{siren}"
    if cc == "NL":
        for shift in range(100):
            head = f"{(int(body[:8]) + shift) % 10**8:08d}"
            for d in range(10):
                if _checksum_ok("NL", f"{head}{d}B01"):
                    return f"{head}{d}B01"
    if cc == "SE":
        for d in range(10):
            if _luhn_ok(body[:9] + str(d)):
                return body[:9] + str(d) + "01"
    width = {"DE": 9, "IT": 11, "PL": 10, "DK": 8, "FI": 8}.get(cc)
    if width is not None:
        for d in range(10):
            cand = body[: width - 1] + str(d)
            if _checksum_ok(cc, cand):
                return cand
        return _complete(cc, str(int(body[: width - 1]) + 1) + body[width - 1 :])
    return body


_TEMPLATES = {"AT": "Udddddddd", "BG": "ddddddddd", "CY": "ddddddddL", "CZ": "dddddddd", "EE": "ddddddddd",
              "EL": "ddddddddd", "ES": "Bddddddd9", "HR": "ddddddddddd", "HU": "dddddddd", "IE": "dddddddW",
              "LT": "ddddddddd", "LU": "dddddddd", "LV": "ddddddddddd", "MT": "dddddddd", "PT": "ddddddddd",
              "RO": "dddddddd", "SI": "dddddddd", "SK": "dddddddddd", "XI": "ddddddddd"}  # fmt: skip
"""Numbers of the states without a published check digit: d a digit, other characters as they are."""


def vat_number_of(seed: int, cc: str, key: str) -> str:
    """The VAT number (without prefix) a company of member state ``cc`` holds, drawn from its key."""
    r = _rng(seed, "num", cc, key)
    if cc in _TEMPLATES:
        return "".join(str(r.randrange(10)) if ch == "d" else ch for ch in _TEMPLATES[cc])
    body = str(r.randrange(10**11, 10**12))
    if cc == "BE":
        body = "0" + body[:8]
    return _complete(cc, body)


def _split(raw: str, country: str | None, field: str) -> tuple[str, str]:
    """``(member state, number)`` from a number with or without its prefix; refused when malformed."""
    text = re.sub(r"[ .\-]", "", raw.upper())
    cc = country
    if text[:2].isalpha() and text[:2] in _FORMATS | {"GB": ("", ""), "GR": ("", "")}:
        if cc is not None and text[:2] != cc:
            raise RuleViolation(f"{raw} starts with {text[:2]}, not {cc}", field=field, hint="drop one of the two")
        cc, text = text[:2], text[2:]
    if cc in ("GB",):
        raise RuleViolation("GB VAT numbers are no longer in VIES (since 2021)", field=field,
                            hint="check GB numbers with HMRC; Northern Ireland traders use the XI prefix")  # fmt: skip
    if cc == "GR":
        raise RuleViolation("VIES writes Greece as EL", field=field, hint=f"use EL{text}")
    if cc is None or cc not in _FORMATS:
        raise RuleViolation(f"{raw}: no EU member state prefix", field=field,
                            hint="prefix the number with its member state code, e.g. DE, FR, EL, XI")  # fmt: skip
    pattern, name = _FORMATS[cc]
    if not re.fullmatch(pattern, text):
        raise RuleViolation(f"{cc}{text} does not have the format of a {name} VAT number", field=field,
                            hint="check the number on the customer's invoice")  # fmt: skip
    if not _checksum_ok(cc, text):
        raise RuleViolation(f"{cc}{text} fails the {name} check digit", field=field,
                            hint="a digit is mistyped: check the number with the customer")  # fmt: skip
    return cc, text


# -- the register of traders --------------------------------------------------------------------------------


class Trader(BaseModel):
    """What VIES says about a number."""

    country_code: MemberState = Field(description="Member state.")
    vat_number: str = Field(description="The number without prefix.")
    valid: bool = Field(description="Whether the number is registered for intra-community trade.")
    name: str = Field(description="Registered name, or --- where the state does not disclose it.")
    address: str = Field(description="Registered address, or ---.")
    request_date: DateTime = Field(description="When VIES answered.")
    request_identifier: str | None = Field(description="Consultation number (only when a requester is given).")
    trader_name_match: Match = Field(description="Approximate match of the trader name given.")
    trader_postal_code_match: Match = Field(description="Match of the postal code given.")
    trader_city_match: Match = Field(description="Match of the city given.")


def _lookup(ctx: Ctx, cc: str, number: str, field: str) -> tuple[bool, str, str, str | None, str | None]:
    """``(valid, name, address, postal code, city)`` of a well-formed number."""
    seed = ctx.population.seed
    if cc == _DOWN[seed % len(_DOWN)]:
        raise RuleViolation(f"MS_UNAVAILABLE: the {_FORMATS[cc][1]} VIES service does not answer", field=field,
                            hint="try again later; vatcheck__check_status shows which member states answer")  # fmt: skip
    for c in ctx.population.companies:
        iso = c.address.country
        if _ISO.get(cc, cc) == iso and vat_number_of(seed, cc, c.key) == number:
            a = c.address
            return True, c.name.upper(), f"{a.street}\n{a.postal_code} {a.city}", a.postal_code, a.city
    r = _rng(seed, "trader", cc, number)
    if r.random() < 0.2:
        return False, "---", "---", None, None
    label = ("Nord", "Lumen", "Vera", "Atlas", "Orbis", "Delta", "Corvus", "Miro")[r.randrange(8)]
    form = {"DE": "GmbH", "FR": "SARL", "IT": "S.R.L.", "ES": "S.L.", "NL": "B.V.", "PL": "SP. Z O.O."}.get(cc, "LTD")
    postal = f"{r.randrange(10000, 99999)}"
    city = {"DE": "BERLIN", "FR": "LYON", "IT": "MILANO", "NL": "UTRECHT", "PL": "KRAKOW"}.get(cc, "CAPITAL")
    return (
        True,
        f"{label.upper()} {number[-4:]} {form}",
        f"{r.randint(1, 99)} MAIN STREET\n{postal} {city}",
        postal,
        city,
    )


def _match(given: str | None, actual: str | None, hidden: bool) -> Match:
    if given is None or actual is None:
        return "NOT_PROCESSED"
    if hidden:
        return "NOT_PROCESSED"
    return "VALID" if fold(given) == fold(actual) or fold(given) in fold(actual) else "INVALID"


def _check(ctx: Ctx, raw: str, country: str | None, field: str, requester: str | None = None,
           trader_name: str | None = None, postal: str | None = None, city: str | None = None) -> Trader:  # fmt: skip
    cc, number = _split(raw, country, field)
    valid, name, address, pc, town = _lookup(ctx, cc, number, field)
    hidden = cc in _NO_NAMES
    ident = None
    if requester is not None:
        rcc, rnum = _split(requester, None, "requester_vat_number")
        ident = f"WAPI{_rng(ctx.population.seed, 'id', rcc, rnum, cc, number, ctx.now()).randrange(10**11, 10**12)}"
    return Trader(
        country_code=cc, vat_number=number, valid=valid, name="---" if hidden and valid else name,
        address="---" if hidden and valid else address, request_date=ctx.now().replace(microsecond=0),
        request_identifier=ident, trader_name_match=_match(trader_name, name if valid else None, hidden),
        trader_postal_code_match=_match(postal, pc if valid else None, hidden),
        trader_city_match=_match(city, town if valid else None, hidden),
    )  # fmt: skip


# -- open-world tools ----------------------------------------------------------------------------------------


def _example_check(ctx: Ctx) -> dict[str, Any] | None:
    seed = ctx.population.seed
    for c in ctx.population.companies:
        cc = {"GR": "EL"}.get(c.address.country, c.address.country)
        if cc in _FORMATS and cc not in _DOWN:
            return {"vat_number": cc + vat_number_of(seed, cc, c.key)}
    return {"vat_number": "IT" + vat_number_of(seed, "IT", "example")}


@service.tool(intent="check an EU VAT number", open_world=True, example=_example_check)
def check_vat(
    ctx: Ctx, vat_number: VatNumber, country_code: MemberState | None = None, requester_vat_number: VatNumber | None = None,
    trader_name: str | None = None, trader_postal_code: str | None = None, trader_city: str | None = None,
) -> Trader:  # fmt: skip
    """Check a VAT number against VIES: whether it is valid, the registered name and address (where disclosed).

    Giving your own number as requester returns a consultation number, the proof for a zero-rated sale. Giving
    the trader's name, postal code or city returns whether they match the register.

    Args:
        vat_number: The number, with its prefix (DE123456789) or with country_code.
        country_code: The member state when the number has no prefix.
        requester_vat_number: Your own EU VAT number.
        trader_name: The name the customer gave, to match.
        trader_postal_code: The postal code the customer gave.
        trader_city: The city the customer gave.
    """
    return _check(ctx, vat_number, country_code, "vat_number", requester_vat_number, trader_name, trader_postal_code,
                  trader_city)  # fmt: skip


def _example_approx(ctx: Ctx) -> dict[str, Any] | None:
    seed = ctx.population.seed
    for c in ctx.population.customers:
        cc = c.address.country
        if cc in _FORMATS and cc not in _DOWN + _NO_NAMES:
            return {"vat_number": cc + vat_number_of(seed, cc, c.key), "trader_name": c.name,
                    "trader_postal_code": c.address.postal_code, "trader_city": c.address.city}  # fmt: skip
    return None


@service.tool(intent="match a trader's details against the VAT register", open_world=True, example=_example_approx)
def match_trader(
    ctx: Ctx, vat_number: VatNumber, trader_name: CompanyName, trader_postal_code: str | None = None,
    trader_city: str | None = None, requester_vat_number: VatNumber | None = None,
) -> Trader:  # fmt: skip
    """Match the name, postal code and city a customer gave against its registration (VIES checkVatApprox).

    Germany and Spain do not process matches (NOT_PROCESSED).

    Args:
        vat_number: The number with its member state prefix.
        trader_name: The company name the customer gave.
        trader_postal_code: The postal code the customer gave.
        trader_city: The city the customer gave.
        requester_vat_number: Your own EU number, to get a consultation number.
    """
    t = _check(ctx, vat_number, None, "vat_number", requester_vat_number, trader_name, trader_postal_code, trader_city)
    if not t.valid:
        raise NotFound(f"{t.country_code}{t.vat_number} is not a valid VAT number", field="vat_number",
                       hint="nothing to match: ask the customer for its current number")  # fmt: skip
    return t


def _example_batch(ctx: Ctx) -> dict[str, Any]:
    first = _example_check(ctx) or {}
    return {"vat_numbers": [first["vat_number"], "IT" + vat_number_of(ctx.population.seed, "IT", "batch")]}


@service.tool(intent="check several EU VAT numbers", open_world=True, example=_example_batch)
def check_vat_batch(
    ctx: Ctx, vat_numbers: Annotated[list[VatNumber], Field(min_length=1, max_length=MAX_BATCH)]
) -> list[Trader]:
    """Check up to 10 prefixed numbers at once.

    Args:
        vat_numbers: The numbers, each with its member state prefix.
    """
    return [_check(ctx, v, None, f"vat_numbers.{i}") for i, v in enumerate(vat_numbers)]


class FormatCheck(BaseModel):
    """A number's form, checked without asking VIES."""

    country_code: MemberState = Field(description="Member state.")
    vat_number: str = Field(description="The number without prefix.")
    member_state: str = Field(description="The state's name.")
    format: str = Field(description="The state's format, as a regular expression.")
    has_check_digit: bool = Field(description="Whether the state's numbers carry a check digit (which passed).")


_CHECKED = ("BE", "DE", "IT", "NL", "PL", "DK", "FI", "FR", "SE")


@service.tool(
    intent="check the format of a VAT number", open_world=True, example=fixed_example(vat_number="BE0403170701")
)
def validate_format(ctx: Ctx, vat_number: VatNumber, country_code: MemberState | None = None) -> FormatCheck:
    """Check a number's format and check digit locally, without asking VIES (refused when malformed).

    Args:
        vat_number: The number.
        country_code: The member state when the number has no prefix.
    """
    cc, number = _split(vat_number, country_code, "vat_number")
    return FormatCheck(country_code=cc, vat_number=number, member_state=_FORMATS[cc][1], format=_FORMATS[cc][0],
                       has_check_digit=cc in _CHECKED)  # fmt: skip


class StateStatus(BaseModel):
    """A member state's VIES service."""

    country_code: MemberState = Field(description="Member state.")
    name: str = Field(description="Its name.")
    availability: Literal["Available", "Unavailable"] = Field(description="Whether it answers now.")


@service.tool(intent="see which member states VIES can check", open_world=True)
def check_status(ctx: Ctx) -> list[StateStatus]:
    """Each member state's VIES availability (/check-status)."""
    down = _DOWN[ctx.population.seed % len(_DOWN)]
    return [StateStatus(country_code=cc, name=n, availability="Unavailable" if cc == down else "Available")
            for cc, (_, n) in sorted(_FORMATS.items())]  # fmt: skip


@service.tool(intent="get a member state's VAT number rules", open_world=True, example=fixed_example(country_code="NL"))
def get_member_state(ctx: Ctx, country_code: MemberState) -> FormatCheck:
    """A member state's VAT number format, whether it has a check digit, as an empty example check.

    Args:
        country_code: The member state (EL for Greece, XI for Northern Ireland).
    """
    if country_code not in _FORMATS:
        raise NotFound(f"{country_code} is not a VIES member state", field="country_code",
                       hint="list them with vatcheck__check_status (Greece is EL)")  # fmt: skip
    pattern, name = _FORMATS[country_code]
    return FormatCheck(country_code=country_code, vat_number="", member_state=name, format=pattern,
                       has_check_digit=country_code in _CHECKED)  # fmt: skip


# -- the customer VAT register -------------------------------------------------------------------------------


class Profile(Timestamped):
    """A business customer's VAT registration, as the company keeps it."""

    id: ProfileId
    customer_name: CompanyName
    """The customer's name."""
    country_code: MemberState
    """Member state of the number."""
    vat_number: str
    """The number without prefix (unique with its state)."""
    billing_email: Email | None = None
    """Where the customer's invoices go."""
    status: ProfileStatus = "unverified"
    """unverified, verified (valid in VIES), invalid or inactive."""
    registered_name: str | None = None
    """The name VIES gave at the last verification."""
    last_verified_at: DateTime | None = None
    """When it was last verified."""
    last_proof_id: ProofId | None = None
    """The proof of the last verification."""


class Proof(Created):
    """The record of one VIES verification: kept as evidence, never deleted."""

    id: ProofId
    profile_id: ProfileId
    """The profile verified."""
    country_code: MemberState
    """Member state."""
    vat_number: str
    """The number."""
    valid: bool
    """What VIES answered."""
    registered_name: str
    """Name VIES gave (--- when not disclosed)."""
    request_identifier: str | None = None
    """The consultation number."""
    checked_by: Email
    """The employee who ran it."""


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_profile_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Proof, profile_id=old.id) is not None:
        raise Conflict(f"profile {old.id} has VIES proofs, which must be kept", field="profile_id",
                       hint="deactivate it instead (vatcheck__deactivate_profile)")  # fmt: skip


profiles = service.resource(
    Profile, name="profile", plural="profiles", prefix="vp", create=False, guard_delete=_guard_profile_delete,
    filters=("status", "country_code", "vat_number", "billing_email"), search=("customer_name", "registered_name"),
    update=("customer_name", "billing_email"),
    transitions={"deactivate": Transition("status", ("unverified", "verified", "invalid"), "inactive",
                                          "deactivate the VAT profile")},
    title="VAT profile",
)  # fmt: skip
proofs = service.resource(
    Proof, name="proof", plural="proofs", prefix="vx", create=False, delete=False,
    filters=("profile_id", "valid", "checked_by", "country_code"), search=("registered_name",), title="VIES proof",
)  # fmt: skip


def _example_profile(ctx: Ctx) -> dict[str, Any] | None:
    seed = ctx.population.seed
    for c in ctx.population.customers:
        cc = c.address.country
        if cc in _FORMATS and cc not in _DOWN and ctx.first(Profile, vat_number=vat_number_of(seed, cc, c.key)) is None:
            return {"customer_name": c.name, "vat_number": cc + vat_number_of(seed, cc, c.key)}
    return {"customer_name": "Orbis Verde S.R.L.", "vat_number": "IT" + vat_number_of(seed, "IT", "orbis")}


@service.tool(intent="add a customer to the VAT register", write=True, example=_example_profile)
def create_profile(
    ctx: Ctx, customer_name: CompanyName, vat_number: VatNumber, billing_email: Email | None = None
) -> Profile:
    """Register a business customer's VAT number (well-formed, once); it starts unverified.

    Args:
        customer_name: The customer.
        vat_number: Its number with member state prefix.
        billing_email: Where its invoices go.
    """
    cc, number = _split(vat_number, None, "vat_number")
    other = ctx.first(Profile, vat_number=number, country_code=cc)
    if other is not None:
        raise Conflict(f"{cc}{number} is already registered as {other.id}", field="vat_number",
                       hint="update that profile instead")  # fmt: skip
    return ctx.create(Profile, customer_name=customer_name, country_code=cc, vat_number=number,
                      billing_email=billing_email)  # fmt: skip


def _verify(ctx: Ctx, p: Profile, checked_by: str, requester: str | None) -> Profile:
    t = _check(ctx, p.country_code + p.vat_number, None, "profile_id", requester)
    proof = ctx.create(Proof, profile_id=p.id, country_code=p.country_code, vat_number=p.vat_number, valid=t.valid,
                       registered_name=t.name, request_identifier=t.request_identifier, checked_by=checked_by)  # fmt: skip
    return ctx.update(p, status="verified" if t.valid else "invalid", registered_name=t.name,
                      last_verified_at=ctx.now(), last_proof_id=proof.id)  # fmt: skip


def _example_verify(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Profile, status="unverified"):
        if p.country_code not in _DOWN:
            return {"profile_id": p.id, "checked_by": ctx.population.employees[0].email}
    return None


@service.tool(intent="verify the customer's VAT number", write=True, example=_example_verify)
def verify_profile(
    ctx: Ctx, profile_id: ProfileId, checked_by: Email, requester_vat_number: VatNumber | None = None
) -> Profile:
    """Check a profile's number against VIES now, keep the proof and set it verified or invalid.

    Args:
        profile_id: The profile (not inactive).
        checked_by: The employee running it.
        requester_vat_number: Your own EU number, to get a consultation number.
    """
    p = ctx.get(Profile, profile_id, field="profile_id")
    if p.status == "inactive":
        raise RuleViolation(f"profile {p.id} is inactive", field="profile_id", hint="reactivate it first")
    _staff(ctx, checked_by, "checked_by")
    return _verify(ctx, p, checked_by, requester_vat_number)


def _example_stale(ctx: Ctx) -> dict[str, Any]:
    return {"checked_by": ctx.population.employees[0].email}


@service.tool(intent="re-verify stale VAT profiles", write=True, example=_example_stale)
def verify_stale(ctx: Ctx, checked_by: Email) -> list[Profile]:
    """Re-verify every active profile never verified or verified more than 90 days ago (skipping states that are down).

    Args:
        checked_by: The employee running it.
    """
    _staff(ctx, checked_by, "checked_by")
    down = _DOWN[ctx.population.seed % len(_DOWN)]
    cutoff = ctx.now() - dt.timedelta(days=FRESH_DAYS)
    out = []
    for p in list(ctx.scan(Profile)):
        if (
            p.status != "inactive"
            and p.country_code != down
            and (p.last_verified_at is None or p.last_verified_at < cutoff)
        ):
            out.append(_verify(ctx, p, checked_by, None))
    return out


@service.tool(intent="reactivate the VAT profile", write=True,
              example=first_example(Profile, "profile_id", where={"status": "inactive"}))  # fmt: skip
def reactivate_profile(ctx: Ctx, profile_id: ProfileId) -> Profile:
    """Bring an inactive profile back; it must be verified again before a zero-rated sale.

    Args:
        profile_id: The inactive profile.
    """
    p = ctx.get(Profile, profile_id, field="profile_id")
    if p.status != "inactive":
        raise RuleViolation(f"profile {p.id} is {p.status}", field="profile_id", hint="only inactive profiles")
    return ctx.update(p, status="unverified")


class Decision(BaseModel):
    """Whether an invoice to the customer may be zero-rated under the reverse charge."""

    profile_id: ProfileId = Field(description="The profile.")
    reverse_charge: bool = Field(description="True: invoice without VAT, 'reverse charge' on it.")
    reasons: list[str] = Field(description="Why not (empty when it applies).")
    proof_id: ProofId | None = Field(description="The proof that justifies it.")


@service.tool(
    intent="decide whether an invoice is reverse-charged",
    example=first_example(Profile, "profile_id", seller_country="FR"),
)
def reverse_charge(ctx: Ctx, profile_id: ProfileId, seller_country: MemberState) -> Decision:
    """Whether a B2B supply to the customer is zero-rated: valid, verified within 90 days, another member state.

    Args:
        profile_id: The customer's profile.
        seller_country: The member state you invoice from.
    """
    p = ctx.get(Profile, profile_id, field="profile_id")
    if seller_country not in _FORMATS:
        raise RuleViolation(f"{seller_country} is not a VIES member state", field="seller_country",
                            hint="the reverse charge applies between member states only")  # fmt: skip
    reasons = []
    if p.status != "verified":
        reasons.append(f"the number is {p.status}")
    if p.last_verified_at is None or p.last_verified_at < ctx.now() - dt.timedelta(days=FRESH_DAYS):
        reasons.append(f"no verification in the last {FRESH_DAYS} days")
    if p.country_code == seller_country:
        reasons.append("same member state: charge local VAT")
    return Decision(profile_id=p.id, reverse_charge=not reasons, reasons=reasons,
                    proof_id=p.last_proof_id if not reasons else None)  # fmt: skip


def _unregistered(seed: int, cc: str) -> str:
    """A well-formed number of ``cc`` that VIES reports as not valid."""
    k = 0
    while True:
        number = vat_number_of(seed, cc, f"lapsed-{k}")
        if _rng(seed, "trader", cc, number).random() < 0.2:
            return number
        k += 1


def _example_change(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Profile, status="verified")
    if p is None:
        return None
    return {
        "profile_id": p.id,
        "vat_number": p.country_code + vat_number_of(ctx.population.seed, p.country_code, "new"),
    }


@service.tool(intent="change the customer's VAT number", write=True, example=_example_change)
def change_vat_number(ctx: Ctx, profile_id: ProfileId, vat_number: VatNumber) -> Profile:
    """Record a customer's new VAT number (a re-registration or a move): the profile must be verified again.

    Args:
        profile_id: The profile.
        vat_number: The new number, with member state prefix.
    """
    p = ctx.get(Profile, profile_id, field="profile_id")
    cc, number = _split(vat_number, None, "vat_number")
    if (cc, number) == (p.country_code, p.vat_number):
        raise RuleViolation("that is the profile's number already", field="vat_number", hint="nothing to change")
    other = ctx.first(Profile, vat_number=number, country_code=cc)
    if other is not None:
        raise Conflict(f"{cc}{number} belongs to profile {other.id}", field="vat_number", hint="merge by hand")
    status: ProfileStatus = "inactive" if p.status == "inactive" else "unverified"
    return ctx.update(p, country_code=cc, vat_number=number, status=status, registered_name=None,
                      last_verified_at=None, last_proof_id=None)  # fmt: skip


class AuditPack(BaseModel):
    """The VIES evidence of a period."""

    start: DateTime = Field(description="From.")
    end: DateTime = Field(description="To.")
    proofs: list[Proof] = Field(description="Verifications in the period, oldest first.")
    valid: int = Field(description="Valid answers.")
    invalid: int = Field(description="Invalid answers.")
    with_consultation_number: int = Field(description="Proofs holding a consultation number.")


def _example_audit(ctx: Ctx) -> dict[str, Any]:
    return {"start": (ctx.now() - dt.timedelta(days=180)).isoformat(), "end": ctx.now().isoformat()}


@service.tool(intent="gather the VAT checks of a period for an audit", example=_example_audit)
def audit_pack(ctx: Ctx, start: DateTime, end: DateTime) -> AuditPack:
    """Every VIES verification between two times, as evidence for a tax audit or an EC Sales List.

    Args:
        start: From (inclusive).
        end: To (inclusive); at most a year after start.
    """
    if end < start or end - start > dt.timedelta(days=366):
        raise RuleViolation("the period must run forwards and last at most a year", field="end",
                            hint="ask for one year or less")  # fmt: skip
    found = sorted((p for p in ctx.scan(Proof) if start <= p.created_at <= end), key=lambda p: p.created_at)
    return AuditPack(start=start, end=end, proofs=found, valid=sum(p.valid for p in found),
                     invalid=sum(not p.valid for p in found),
                     with_consultation_number=sum(p.request_identifier is not None for p in found))  # fmt: skip


# -- seed ----------------------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """EU customers in the register: verified (one stale), one never verified, one invalid, one inactive."""
    pop = s.population
    finance = pop.staff("Finance", fallback=3)
    eu = [c for c in pop.customers if c.address.country in _FORMATS]
    for k, c in enumerate(eu[:6]):
        cc = c.address.country
        number = vat_number_of(pop.seed, cc, c.key)
        contact = pop.first_contact(c)
        days = 20 if k != 1 else 140
        status: ProfileStatus = ("verified", "verified", "unverified", "verified", "inactive", "verified")[k]
        p = s.create(Profile, customer_name=c.name, country_code=cc, vat_number=number,
                     billing_email=contact.email if contact else None, status=status,
                     created_at=s.ago(days=300 - k), updated_at=s.ago(days=days))  # fmt: skip
        if status in ("verified", "inactive"):
            proof = s.create(Proof, profile_id=p.id, country_code=cc, vat_number=number, valid=True,
                             registered_name="---" if cc in _NO_NAMES else c.name.upper(),
                             request_identifier=f"WAPI{s.rng.randrange(10**11, 10**12)}",
                             checked_by=finance[k % len(finance)].email, created_at=s.ago(days=days))  # fmt: skip
            s.update(
                p, registered_name=proof.registered_name, last_verified_at=s.ago(days=days), last_proof_id=proof.id
            )
    bad = s.create(Profile, customer_name="Lumen Trading S.R.L.", country_code="IT", vat_number=_unregistered(pop.seed, "IT"),
                   status="invalid", created_at=s.ago(days=60), updated_at=s.ago(days=59))  # fmt: skip
    proof = s.create(Proof, profile_id=bad.id, country_code="IT", vat_number=bad.vat_number, valid=False,
                     registered_name="---", checked_by=finance[0].email, created_at=s.ago(days=59))  # fmt: skip
    s.update(bad, last_verified_at=s.ago(days=59), last_proof_id=proof.id)
