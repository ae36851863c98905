"""The shared population every service seeds its records from.

One seeded draw of people, companies, products and places. Services never draw
their own people: a person in the CRM, in the mail server, on an invoice and in
a calendar is the same :class:`Person`, with the same name, e-mail and address.

The *home* company is the organisation whose staff use the internal services
(mail, chat, calendar, HR, project tracking); the other companies are its
customers, suppliers and partners; consumers are private customers.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld.engine.entities import Company, Person, Place, Population, Product
from compoworld.engine.types import PostalAddress

__all__ = ["FIRST_NAMES", "LAST_NAMES", "PERSONAL_DOMAINS", "PLACES", "build_population"]

PERSONAL_DOMAINS = ("mailbox.net", "postbox.org", "inbox.io")
"""Mail providers of the people who work for no company of the world: their domain is nobody's website."""

FIRST_NAMES = [
    "Ada",
    "Alan",
    "Amara",
    "Amir",
    "Anika",
    "Arjun",
    "Astrid",
    "Beatriz",
    "Bilal",
    "Bruno",
    "Camila",
    "Carlos",
    "Chen",
    "Chiara",
    "Dario",
    "Dmitri",
    "Elena",
    "Emeka",
    "Emil",
    "Esther",
    "Farah",
    "Felix",
    "Freya",
    "Gabriel",
    "Grace",
    "Hana",
    "Hiro",
    "Ines",
    "Isaac",
    "Ivan",
    "Jana",
    "Javier",
    "Jonas",
    "Julia",
    "Kai",
    "Kamala",
    "Karim",
    "Kenji",
    "Lara",
    "Leila",
    "Liam",
    "Lina",
    "Luca",
    "Maya",
    "Mateo",
    "Mei",
    "Mira",
    "Nadia",
    "Naveen",
    "Nora",
    "Olga",
    "Omar",
    "Oscar",
    "Paula",
    "Priya",
    "Rafael",
    "Rania",
    "Rosa",
    "Ruben",
    "Sami",
    "Sara",
    "Sofia",
    "Soren",
    "Tariq",
    "Tess",
    "Theo",
    "Uma",
    "Valentina",
    "Victor",
    "Wei",
    "Yara",
    "Yusuf",
    "Zara",
    "Zoe",
    "Amelia",
    "Benedikt",
    "Clara",
    "Daniel",
    "Eliza",
    "Femi",
    "Greta",
    "Hugo",
    "Ingrid",
    "Jakob",
    "Keiko",
    "Lorenzo",
    "Magnus",
    "Nikolai",
    "Olivia",
    "Pablo",
    "Quinn",
    "Rhea",
    "Stefan",
    "Tomas",
    "Ursula",
    "Willa",
]

LAST_NAMES = [
    "Abara",
    "Alvarez",
    "Andersen",
    "Baker",
    "Bauer",
    "Becker",
    "Bianchi",
    "Brandt",
    "Carter",
    "Castillo",
    "Chen",
    "Cohen",
    "Costa",
    "Dahl",
    "Diaz",
    "Dubois",
    "Eriksen",
    "Fischer",
    "Fontaine",
    "Garcia",
    "Gupta",
    "Haddad",
    "Hansen",
    "Hoffmann",
    "Ibrahim",
    "Ito",
    "Jensen",
    "Johansson",
    "Kaur",
    "Keller",
    "Kim",
    "Kowalski",
    "Larsen",
    "Laurent",
    "Lee",
    "Lindqvist",
    "Lopez",
    "Mahmoud",
    "Martin",
    "Meyer",
    "Moreau",
    "Morales",
    "Mueller",
    "Nakamura",
    "Nguyen",
    "Novak",
    "Okafor",
    "Olsen",
    "Ortega",
    "Park",
    "Patel",
    "Pereira",
    "Petrov",
    "Quinn",
    "Ramos",
    "Reyes",
    "Richter",
    "Rossi",
    "Sato",
    "Schmidt",
    "Schneider",
    "Silva",
    "Singh",
    "Sorensen",
    "Suzuki",
    "Tanaka",
    "Torres",
    "Vargas",
    "Vogel",
    "Wagner",
    "Walsh",
    "Weber",
    "Wong",
    "Yamamoto",
    "Young",
    "Zhang",
    "Ziegler",
    "Achterberg",
    "Barros",
    "Cardoso",
    "Duarte",
    "Esposito",
    "Ferreira",
    "Gallo",
    "Horvat",
    "Iversen",
    "Janssen",
    "Kovacs",
    "Lindgren",
    "Mancini",
    "Nilsson",
    "Osei",
    "Popescu",
]

COMPANY_WORDS = [
    "Acre",
    "Alder",
    "Apex",
    "Arbor",
    "Aster",
    "Atlas",
    "Beacon",
    "Birch",
    "Bright",
    "Cedar",
    "Cinder",
    "Clear",
    "Cobalt",
    "Comet",
    "Coral",
    "Crest",
    "Delta",
    "Ember",
    "Falcon",
    "Fern",
    "Flint",
    "Forge",
    "Granite",
    "Harbor",
    "Haven",
    "Helix",
    "Iris",
    "Juniper",
    "Kestrel",
    "Lumen",
    "Maple",
    "Meridian",
    "Mosaic",
    "Nimbus",
    "Northstar",
    "Oak",
    "Onyx",
    "Orbit",
    "Pebble",
    "Pine",
    "Prism",
    "Quarry",
    "Quill",
    "Raven",
    "Ridge",
    "River",
    "Sable",
    "Sage",
    "Slate",
    "Solstice",
    "Spruce",
    "Summit",
    "Tidal",
    "Timber",
    "Trellis",
    "Vale",
    "Vertex",
    "Willow",
    "Zephyr",
]

COMPANY_SUFFIXES = (
    ("Labs", "io"),
    ("Systems", "com"),
    ("Logistics", "com"),
    ("Foods", "co"),
    ("Health", "com"),
    ("Analytics", "io"),
    ("Manufacturing", "com"),
    ("Retail", "com"),
    ("Partners", "co"),
    ("Energy", "com"),
    ("Media", "co"),
    ("Robotics", "io"),
    ("Supply", "com"),
    ("Studios", "co"),
)

INDUSTRIES = {
    "Labs": "software",
    "Systems": "software",
    "Logistics": "logistics",
    "Foods": "food",
    "Health": "healthcare",
    "Analytics": "software",
    "Manufacturing": "manufacturing",
    "Retail": "retail",
    "Partners": "consulting",
    "Energy": "energy",
    "Media": "media",
    "Robotics": "hardware",
    "Supply": "wholesale",
    "Studios": "media",
}

STREETS = (
    "Main Street",
    "Oak Avenue",
    "Harbor Road",
    "Mill Lane",
    "King Street",
    "Station Road",
    "Park Avenue",
    "Elm Street",
    "Canal Street",
    "Market Square",
    "River Road",
    "High Street",
    "Church Lane",
    "Bridge Street",
    "Garden Row",
)

DEPARTMENTS = {
    "Engineering": (
        "Software Engineer",
        "Senior Software Engineer",
        "Engineering Manager",
        "Site Reliability Engineer",
        "QA Engineer",
    ),
    "Sales": ("Account Executive", "Sales Development Representative", "Sales Manager"),
    "Support": ("Support Specialist", "Support Team Lead", "Customer Success Manager"),
    "Finance": ("Accountant", "Financial Controller", "Billing Specialist"),
    "People": ("HR Generalist", "Recruiter", "People Operations Manager"),
    "Operations": ("Operations Manager", "Logistics Coordinator", "Office Manager"),
    "Marketing": ("Marketing Manager", "Content Strategist", "Growth Analyst"),
}

CUSTOMER_TITLES = (
    "Chief Executive Officer",
    "Chief Financial Officer",
    "Head of Procurement",
    "Operations Director",
    "IT Manager",
    "Purchasing Manager",
    "Office Manager",
    "Product Manager",
    "Finance Manager",
)

PRODUCT_ADJECTIVES = [
    "Compact",
    "Classic",
    "Deluxe",
    "Eco",
    "Ergonomic",
    "Heavy-Duty",
    "Lite",
    "Modular",
    "Pro",
    "Smart",
    "Ultra",
    "Wireless",
]
PRODUCT_NOUNS = {
    "electronics": ("Headset", "Monitor", "Keyboard", "Webcam", "Docking Station", "Speaker"),
    "office": ("Desk Lamp", "Notebook Set", "Desk Chair", "Whiteboard", "Filing Cabinet"),
    "home": ("Kettle", "Blender", "Air Purifier", "Coffee Grinder", "Thermostat"),
    "outdoor": ("Backpack", "Tent", "Water Bottle", "Camping Stove", "Rain Jacket"),
    "apparel": ("Hoodie", "T-Shirt", "Cap", "Sneakers", "Fleece Vest"),
}


PLACES: tuple[Place, ...] = (
    Place("Berlin", "DE", "10", 52.52, 13.405, "Europe/Berlin", "EUR", "de", "+4930"),
    Place("Munich", "DE", "80", 48.137, 11.575, "Europe/Berlin", "EUR", "de", "+4989"),
    Place("Paris", "FR", "75", 48.857, 2.352, "Europe/Paris", "EUR", "fr", "+331"),
    Place("Lyon", "FR", "69", 45.764, 4.836, "Europe/Paris", "EUR", "fr", "+334"),
    Place("Madrid", "ES", "28", 40.417, -3.704, "Europe/Madrid", "EUR", "es", "+3491"),
    Place("Milan", "IT", "20", 45.464, 9.19, "Europe/Rome", "EUR", "it", "+3902"),
    Place("Amsterdam", "NL", "10", 52.368, 4.904, "Europe/Amsterdam", "EUR", "nl", "+3120"),
    Place("Stockholm", "SE", "11", 59.329, 18.069, "Europe/Stockholm", "SEK", "sv", "+468"),
    Place("London", "GB", "EC", 51.507, -0.128, "Europe/London", "GBP", "en", "+4420"),
    Place("Manchester", "GB", "M1", 53.481, -2.243, "Europe/London", "GBP", "en", "+44161"),
    Place("New York", "US", "10", 40.713, -74.006, "America/New_York", "USD", "en", "+1212"),
    Place("Chicago", "US", "60", 41.878, -87.63, "America/Chicago", "USD", "en", "+1312"),
    Place("Austin", "US", "78", 30.267, -97.743, "America/Chicago", "USD", "en", "+1512"),
    Place("San Francisco", "US", "94", 37.775, -122.419, "America/Los_Angeles", "USD", "en", "+1415"),
    Place("Seattle", "US", "98", 47.606, -122.332, "America/Los_Angeles", "USD", "en", "+1206"),
    Place("Toronto", "CA", "M5", 43.653, -79.383, "America/Toronto", "CAD", "en", "+1416"),
    Place("Tokyo", "JP", "10", 35.676, 139.65, "Asia/Tokyo", "JPY", "ja", "+813"),
    Place("Singapore", "SG", "01", 1.352, 103.82, "Asia/Singapore", "SGD", "en", "+65"),
    Place("Sydney", "AU", "20", -33.869, 151.209, "Australia/Sydney", "AUD", "en", "+612"),
    Place("Sao Paulo", "BR", "01", -23.55, -46.633, "America/Sao_Paulo", "BRL", "pt", "+5511"),
)


def _address(rng: random.Random, place: Place) -> PostalAddress:
    street = f"{rng.randint(1, 240)} {rng.choice(STREETS)}"
    postal = f"{place.postal_prefix}{rng.randint(100, 999)}"
    return PostalAddress(street=street, city=place.city, postal_code=postal, country=place.country)


def _phone(rng: random.Random, place: Place) -> str:
    digits = 12 - len(place.phone_prefix) + 1
    return place.phone_prefix + "".join(str(rng.randint(0, 9)) for _ in range(max(digits, 6)))


_EPOCH_DATE = dt.date(2026, 3, 2)
"""The world's first day (the engine's ``EPOCH``): hire and birth dates count back from it."""


def build_population(seed: int, scale: float = 1.0) -> Population:
    """Draw the population of a world.

    Companies, then people, then products are drawn from one random stream, in that order.

    Args:
        seed: The world seed; the same seed gives the same population in any process.
        scale: Multiplies the number of companies, people and products.

    Returns:
        The population.
    """
    rng = random.Random(f"compoworld-population:{seed}")
    companies = _draw_companies(rng, max(4, round(30 * scale)))
    people = _draw_people(rng, companies, max(8, round(48 * scale)), max(8, round(60 * scale)))
    products = _draw_products(rng, max(6, round(40 * scale)))
    return Population(
        seed=seed,
        home=companies[0],
        companies=tuple(companies),
        people=tuple(people),
        products=tuple(products),
        places=PLACES,
        by_key={p.key: p for p in people},
        companies_by_key={c.key: c for c in companies},
    )


def _draw_companies(rng: random.Random, count: int) -> list[Company]:
    """The home company (first) and ``count`` others, each with a unique domain."""
    used_domains: set[str] = set()
    companies: list[Company] = []
    word_pairs = [(w, s) for w in COMPANY_WORDS for s in COMPANY_SUFFIXES]
    rng.shuffle(word_pairs)
    for i in range(count + 1):
        word, (suffix, tld) = word_pairs[i % len(word_pairs)]
        base = f"{word.lower()}{suffix.lower()}"
        domain = f"{base}.{tld}"
        n = 2
        while domain in used_domains:
            domain = f"{base}{n}.{tld}"
            n += 1
        used_domains.add(domain)
        place = rng.choice(PLACES)
        name = f"{word} {suffix}" if i < len(word_pairs) else f"{word} {suffix} {i // len(word_pairs) + 1}"
        companies.append(
            Company(
                key=f"co{i:04d}",
                name=name,
                domain=domain,
                industry=INDUSTRIES[suffix],
                address=_address(rng, place),
                phone=_phone(rng, place),
                place=place,
                employees=rng.choice((12, 40, 85, 150, 400, 1200, 5000)),
                home=i == 0,
            )
        )
    return companies


class _PeopleDrawer:
    """Draws people one by one, keeping their keys and e-mail addresses unique."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.people: list[Person] = []
        self._emails: set[str] = set()

    def _email(self, first: str, last: str, domain: str) -> str:
        local = f"{first}.{last}".lower().replace(" ", "")
        candidate = f"{local}@{domain}"
        n = 2
        while candidate in self._emails:
            candidate = f"{local}{n}@{domain}"
            n += 1
        self._emails.add(candidate)
        return candidate

    def add(self, role: str, company: Company | None, title: str, dept: str | None) -> None:
        """Draw one person of ``role`` (working at ``company``, if any) and keep them."""
        rng = self.rng
        first = rng.choice(FIRST_NAMES)
        last = rng.choice(LAST_NAMES)
        place = company.place if company and rng.random() < 0.8 else rng.choice(PLACES)
        domain = company.domain if company else rng.choice(PERSONAL_DOMAINS)
        hire = _EPOCH_DATE - dt.timedelta(days=rng.randint(30, 3000)) if role == "employee" else None
        self.people.append(
            Person(
                key=f"p{len(self.people):05d}",
                first_name=first,
                last_name=last,
                email=self._email(first, last, domain),
                phone=_phone(rng, place),
                address=_address(rng, place),
                place=place,
                role=role,
                company_key=company.key if company else None,
                job_title=title,
                department=dept,
                birth_date=_EPOCH_DATE - dt.timedelta(days=rng.randint(22 * 365, 64 * 365)),
                hire_date=hire,
            )
        )


def _draw_people(rng: random.Random, companies: list[Company], employees: int, consumers: int) -> list[Person]:
    """The home company's employees, one to three contacts per other company, then private consumers."""
    drawer = _PeopleDrawer(rng)
    depts = list(DEPARTMENTS)
    for i in range(employees):
        dept = depts[i % len(depts)]
        drawer.add("employee", companies[0], rng.choice(DEPARTMENTS[dept]), dept)
    for company in companies[1:]:
        for _ in range(rng.randint(1, 3)):
            drawer.add("contact", company, rng.choice(CUSTOMER_TITLES), None)
    for _ in range(consumers):
        drawer.add("consumer", None, "Private customer", None)
    return drawer.people


def _draw_products(rng: random.Random, count: int) -> list[Product]:
    """``count`` products across the categories in turn, with unique names and SKUs."""
    products: list[Product] = []
    used_names: set[str] = set()
    categories = list(PRODUCT_NOUNS)
    while len(products) < count:
        category = categories[len(products) % len(categories)]
        name = f"{rng.choice(PRODUCT_ADJECTIVES)} {rng.choice(PRODUCT_NOUNS[category])}"
        if name in used_names:
            name = f"{name} {len(products) + 1}"
        used_names.add(name)
        price = rng.randint(8, 400) * 100 - rng.choice((1, 5, 0)) * 1
        products.append(
            Product(
                sku=f"{category[:3].upper()}-{len(products) + 1001}",
                name=name,
                category=category,
                price_cents=price,
                cost_cents=price * rng.randint(35, 70) // 100,
                weight_grams=rng.randint(80, 9000),
            )
        )
    return products
