"""The seeding contract that ties the finance services' worlds together.

The procurement service seeds its suppliers from the population's companies
with a remit-to bank account each; the ledger seeds the same companies as
vendors and the bank seeds them as payees, under the same account numbers.
The ledger's bank accounts are the home company's accounts at the bank, with
the same account numbers. Each service seeds on its own, so they agree only
because they derive these values from the same rules, kept here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from compoworld.engine.entities import Company, Person, Population

__all__ = [
    "HOME_ACCOUNTS",
    "HomeAccount",
    "SupplierLink",
    "home_account_number",
    "routing_number",
    "suppliers",
]


@dataclass(frozen=True, slots=True)
class SupplierLink:
    """A company the home company buys from, as procurement seeds it.

    Attributes:
        company: The company.
        contact: Its first person, the supplier contact.
        index: Its position among procurement's suppliers.
        active: Whether procurement seeds it active.
        terms: Procurement's payment terms for it.
        remit_account: The bank account it is paid to.
    """

    company: Company
    contact: Person
    index: int
    active: bool
    terms: str
    remit_account: str


def suppliers(pop: Population) -> list[SupplierLink]:
    """The suppliers with a catalog that procurement seeds, in its order (see procurement's seeder)."""
    companies = [c for c in pop.customers if pop.people_at(c)]
    out: list[SupplierLink] = []
    for i, company in enumerate(companies[: max(4, len(companies) * 2 // 3)]):
        out.append(
            SupplierLink(
                company=company,
                contact=pop.people_at(company)[0],
                index=i,
                active=i % 7 != 6,
                terms=("net_30", "net_45", "net_15", "net_60")[i % 4],
                remit_account=f"ACCT-{company.key.upper()}-{1000 + i}",
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class HomeAccount:
    """One of the home company's bank accounts.

    Attributes:
        key: Short key (``operating``).
        name: Display name.
        kind: ``checking``, ``savings`` or ``treasury``.
        ledger_code: Code of the matching bank account in the ledger's chart of accounts.
        opening: Balance at the start of the year, in cents.
    """

    key: str
    name: str
    kind: str
    ledger_code: str
    opening: int


HOME_ACCOUNTS: tuple[HomeAccount, ...] = (
    HomeAccount("operating", "Operating Checking", "checking", "090", 412_500_00),
    HomeAccount("reserve", "Reserve Savings", "savings", "091", 250_000_00),
    HomeAccount("payroll", "Payroll Checking", "checking", "092", 96_000_00),
)
"""The home company's bank accounts, in the order the bank and the ledger seed them."""


def home_account_number(pop: Population, key: str) -> str:
    """The account number of one of the home company's bank accounts (``HOME_ACCOUNTS`` key)."""
    digits = str(int(hashlib.sha256(f"compoworld-bank:{pop.seed}:{key}".encode()).hexdigest(), 16))
    return f"{digits[:4]}{digits[4:12]}"


def routing_number(pop: Population) -> str:
    """The routing number of the home company's bank."""
    digits = str(int(hashlib.sha256(f"compoworld-routing:{pop.seed}".encode()).hexdigest(), 16))
    return digits[:9]
