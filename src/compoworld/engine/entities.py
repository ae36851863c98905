"""The shared business entities a world is made of: places, companies, people, products.

These are the *shapes* of the population every service seeds from (see
:mod:`compoworld.world.population` for how one is drawn): a person in the CRM,
in the mail server, on an invoice and in a calendar is the same
:class:`Person`, with the same name, e-mail and address. The engine knows them
because a tool's context and a seeder's context both hand the population to
service code.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from compoworld.engine.types import PostalAddress

__all__ = ["Company", "Person", "Place", "Population", "Product"]


@dataclass(frozen=True, slots=True)
class Place:
    """A city with what services need to know about it."""

    city: str
    country: str
    postal_prefix: str
    latitude: float
    longitude: float
    timezone: str
    currency: str
    language: str
    phone_prefix: str


@dataclass(frozen=True, slots=True)
class Company:
    """A company in the world; ``home`` marks the organisation using internal tools."""

    key: str
    name: str
    domain: str
    industry: str
    address: PostalAddress
    phone: str
    place: Place
    employees: int
    home: bool = False


@dataclass(frozen=True, slots=True)
class Person:
    """A person: an employee of the home company, a business contact or a consumer."""

    key: str
    first_name: str
    last_name: str
    email: str
    phone: str
    address: PostalAddress
    place: Place
    role: str  # "employee", "contact" or "consumer"
    company_key: str | None
    job_title: str
    department: str | None
    birth_date: dt.date
    hire_date: dt.date | None

    @property
    def name(self) -> str:
        """Full name."""
        return f"{self.first_name} {self.last_name}"


@dataclass(frozen=True, slots=True)
class Product:
    """A product the home company sells."""

    sku: str
    name: str
    category: str
    price_cents: int
    cost_cents: int
    weight_grams: int


@dataclass(frozen=True, slots=True)
class Population:
    """Everyone and everything in one world."""

    seed: int
    home: Company
    companies: tuple[Company, ...]
    people: tuple[Person, ...]
    products: tuple[Product, ...]
    places: tuple[Place, ...] = ()
    """The cities people and companies live in."""
    by_key: dict[str, Person] = field(default_factory=dict, compare=False)
    companies_by_key: dict[str, Company] = field(default_factory=dict, compare=False)

    @property
    def employees(self) -> tuple[Person, ...]:
        """People working at the home company."""
        return tuple(p for p in self.people if p.role == "employee")

    @property
    def contacts(self) -> tuple[Person, ...]:
        """People working at other companies."""
        return tuple(p for p in self.people if p.role == "contact")

    @property
    def consumers(self) -> tuple[Person, ...]:
        """Private customers."""
        return tuple(p for p in self.people if p.role == "consumer")

    @property
    def customers(self) -> tuple[Company, ...]:
        """Companies other than the home company."""
        return tuple(c for c in self.companies if not c.home)

    def staff(self, *departments: str, fallback: int | None = None) -> list[Person]:
        """The home company's employees in ``departments``, in order.

        When the company has none there, the first ``fallback`` employees (all of them when None)
        stand in, so that a service always finds someone to own its records.
        """
        employees = self.employees
        return [p for p in employees if p.department in departments] or list(employees[:fallback])

    def first_contact(self, company: Company) -> Person | None:
        """The first person working at ``company`` (its main contact), if any."""
        return next((p for p in self.people if p.company_key == company.key), None)

    def company_of(self, person: Person) -> Company | None:
        """The company a person works for, if any."""
        return self.companies_by_key.get(person.company_key) if person.company_key else None

    def people_at(self, company: Company) -> tuple[Person, ...]:
        """People working at ``company``."""
        return tuple(p for p in self.people if p.company_key == company.key)
