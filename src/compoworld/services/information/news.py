"""Newswire: top headlines, article search, sources and full articles over the world's news.

Modeled on the NewsAPI.org v2 REST API (``/v2/top-headlines``,
``/v2/everything``, ``/v2/top-headlines/sources``) with the developer plan's
limits: the archive reaches back 30 days and a query pages through at most
100 results. ``get_article`` reads one article in full, as a reader following
an article's URL would.

An open-world service: it stores no records. The news is a deterministic
function of the world seed and the calendar date, so an article is the same
whoever asks and in whatever order; an article is visible once the world's
clock has passed its publication time. Every world company makes the news
on a regular cycle (launches, funding rounds, appointments of the people the
world knows at the company, new offices, partnerships with other world
companies, results, interviews); the rest is generic headlines per source,
country and category.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Person, Population, Product
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Domain,
    JobTitle,
    Language,
    PersonName,
    Quantity,
    Sku,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.text import fold
from compoworld.services.kit.time import utc_at
from compoworld.world.geo import country_name
from compoworld.world.population import FIRST_NAMES, LAST_NAMES

__all__ = ["service"]

service = Service(
    "news",
    title="Newswire",
    category="news",
    modeled_on="NewsAPI.org v2 (top-headlines, everything, sources), developer plan",
    description="News search: live top headlines by country and category, a searchable 30-day archive of "
    "articles from national and business outlets, the list of sources, and full articles by URL. "
    "Companies and people of the world appear in the business news.",
)

Category = Literal["business", "entertainment", "general", "health", "science", "sports", "technology"]
SortBy = Literal["relevancy", "popularity", "publishedAt"]
SearchField = Literal["title", "description", "content"]

ARCHIVE_DAYS = 30
"""How far back the archive reaches (NewsAPI developer plan: one month)."""
HEADLINE_DAYS = 3
"""How far back top headlines reach."""
MAX_RESULTS = 100
"""The most results a query can page through (NewsAPI developer plan)."""
SEARCH_LANGUAGES = ("ar", "de", "en", "es", "fr", "he", "it", "nl", "no", "pt", "ru", "sv", "ud", "zh")
"""Languages the ``language`` filter accepts (NewsAPI's list)."""


@dataclass(frozen=True, slots=True)
class NewsSource:
    """A news outlet."""

    id: str
    name: str
    domain: str
    description: str
    category: str
    language: str
    country: str

    @property
    def url(self) -> str:
        """The outlet's home page."""
        return f"https://www.{self.domain}"


SOURCES: tuple[NewsSource, ...] = (
    NewsSource(
        "the-market-ledger",
        "The Market Ledger",
        "marketledger.com",
        "Markets, companies and the economy, reported from New York for an international readership.",
        "business",
        "en",
        "US",
    ),
    NewsSource(
        "techwire",
        "TechWire",
        "techwire.news",
        "Startups, software, hardware and the business of technology.",
        "technology",
        "en",
        "US",
    ),
    NewsSource(
        "daily-courier",
        "The Daily Courier",
        "dailycourier.com",
        "National and world news, cities, weather and culture.",
        "general",
        "en",
        "US",
    ),
    NewsSource(
        "healthbeat", "HealthBeat", "healthbeat.org", "Medicine, public health and wellbeing.", "health", "en", "US"
    ),
    NewsSource(
        "science-frontier",
        "Science Frontier",
        "sciencefrontier.com",
        "Research news from space, climate, energy and life sciences.",
        "science",
        "en",
        "US",
    ),
    NewsSource(
        "sports-desk", "The Sports Desk", "sportsdesk.com", "Scores, transfers and match reports.", "sports", "en", "US"
    ),
    NewsSource(
        "screen-scene",
        "Screen Scene",
        "screenscene.com",
        "Film, television, music and streaming.",
        "entertainment",
        "en",
        "US",
    ),
    NewsSource(
        "capital-wire",
        "Capital Wire",
        "capitalwire.co.uk",
        "British business, markets and the City.",
        "business",
        "en",
        "GB",
    ),
    NewsSource(
        "northern-post", "The Northern Post", "northernpost.co.uk", "News from across the UK.", "general", "en", "GB"
    ),
    NewsSource(
        "handelsblick",
        "Handelsblick",
        "handelsblick.de",
        "Wirtschaft, Unternehmen und Finanzen.",
        "business",
        "de",
        "DE",
    ),
    NewsSource(
        "berliner-rundschau",
        "Berliner Rundschau",
        "berliner-rundschau.de",
        "Nachrichten aus Berlin, Deutschland und der Welt.",
        "general",
        "de",
        "DE",
    ),
    NewsSource(
        "echos-du-marche",
        "Les Échos du Marché",
        "echosdumarche.fr",
        "L'actualité économique et financière.",
        "business",
        "fr",
        "FR",
    ),
    NewsSource(
        "le-quotidien",
        "Le Quotidien",
        "lequotidien.fr",
        "L'actualité en France et dans le monde.",
        "general",
        "fr",
        "FR",
    ),
    NewsSource(
        "economia-hoy", "Economía Hoy", "economiahoy.es", "Economía, empresas y mercados.", "business", "es", "ES"
    ),
    NewsSource(
        "diario-central", "Diario Central", "diariocentral.es", "Noticias de España y del mundo.", "general", "es", "ES"
    ),
    NewsSource(
        "milan-business-review",
        "Milan Business Review",
        "milanbusinessreview.it",
        "Italian business news in English.",
        "business",
        "en",
        "IT",
    ),
    NewsSource(
        "dutch-daily", "Dutch Daily", "dutchdaily.nl", "News from the Netherlands in English.", "general", "en", "NL"
    ),
    NewsSource(
        "nordic-tech-times",
        "Nordic Tech Times",
        "nordictechtimes.se",
        "Technology and startups in the Nordics, in English.",
        "technology",
        "en",
        "SE",
    ),
    NewsSource(
        "maple-business-news",
        "Maple Business News",
        "maplebusiness.ca",
        "Canadian business and markets.",
        "business",
        "en",
        "CA",
    ),
    NewsSource(
        "tokyo-business-journal",
        "Tokyo Business Journal",
        "tokyobusinessjournal.jp",
        "Japanese companies and markets, in English.",
        "business",
        "en",
        "JP",
    ),
    NewsSource(
        "straits-business",
        "Straits Business",
        "straitsbusiness.sg",
        "Business news from Singapore and South-East Asia.",
        "business",
        "en",
        "SG",
    ),
    NewsSource(
        "harbour-times",
        "The Harbour Times",
        "harbourtimes.com.au",
        "News from Sydney and Australia.",
        "general",
        "en",
        "AU",
    ),
    NewsSource(
        "brazil-business-report",
        "Brazil Business Report",
        "brazilbusiness.com.br",
        "Brazilian business news in English.",
        "business",
        "en",
        "BR",
    ),
)
SOURCES_BY_ID = {s.id: s for s in SOURCES}
SOURCES_BY_DOMAIN = {s.domain: s for s in SOURCES}
LOCAL_BUSINESS = {"DE": "handelsblick", "FR": "echos-du-marche", "ES": "economia-hoy"}
ENGLISH_BUSINESS = {
    "GB": "capital-wire",
    "IT": "milan-business-review",
    "CA": "maple-business-news",
    "JP": "tokyo-business-journal",
    "SG": "straits-business",
    "BR": "brazil-business-report",
    "SE": "nordic-tech-times",
}
TECH_INDUSTRIES = ("software", "hardware")

# What each industry makes, for product names and company descriptions (shared with websearch).
OFFERINGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "software": ("workflow software for mid-sized businesses", ("Insights", "Console", "Workflow", "Copilot", "Cloud")),
    "logistics": ("freight and last-mile delivery services", ("Route Planner", "Fleet Tracker", "Freight Hub")),
    "food": ("packaged foods and ingredients", ("Oat Bar", "Cold Brew", "Meal Kit", "Protein Bites")),
    "healthcare": ("digital health services for clinics and patients", ("Care App", "Clinic Suite", "Telehealth Hub")),
    "manufacturing": (
        "precision components for industrial customers",
        ("Precision Line", "Series 5 Press", "Smart Mill"),
    ),
    "retail": ("retail stores and online shopping", ("Members Club", "Same-Day Pickup", "Online Store")),
    "consulting": (
        "strategy and operations consulting",
        ("Transformation Program", "Advisory Practice", "AI Readiness Review"),
    ),
    "energy": ("renewable energy projects and storage", ("Solar Array", "Battery Pack", "Grid Service")),
    "media": ("digital media and content production", ("Podcast Network", "Streaming Channel", "Newsletter")),
    "hardware": ("robotics and automation hardware", ("Robot Arm", "Vision Sensor", "Warehouse Robot")),
    "wholesale": ("wholesale distribution of supplies", ("Trade Portal", "Distribution Center", "Supplier Network")),
}

INVESTORS = (
    "Northgate Ventures",
    "Bluewater Capital",
    "Lumina Partners",
    "Crescent Growth",
    "Halcyon Ventures",
    "Ironbridge Capital",
    "Foundry Street Fund",
)
QUOTES = {
    "en": (
        "We built this for the customers who kept asking us for it",
        "Our customers want fewer tools that do more",
        "This is the next step in a plan we set out three years ago",
        "Demand has been stronger than we expected",
        "We want to grow carefully and stay close to our customers",
        "The team has worked on this for more than a year",
    ),
    "de": (
        "Wir haben das für die Kunden gebaut, die immer wieder danach gefragt haben",
        "Unsere Kunden wollen weniger Werkzeuge, die mehr können",
        "Das ist der nächste Schritt eines Plans, den wir vor drei Jahren gefasst haben",
        "Die Nachfrage ist stärker als erwartet",
        "Wir wollen behutsam wachsen und nah an unseren Kunden bleiben",
        "Das Team hat mehr als ein Jahr daran gearbeitet",
    ),
    "fr": (
        "Nous l'avons conçu pour les clients qui nous le demandaient",
        "Nos clients veulent moins d'outils qui en font plus",
        "C'est la suite d'un plan lancé il y a trois ans",
        "La demande est plus forte que prévu",
        "Nous voulons grandir prudemment et rester proches de nos clients",
        "L'équipe y travaille depuis plus d'un an",
    ),
    "es": (
        "Lo creamos para los clientes que nos lo pedían",
        "Nuestros clientes quieren menos herramientas que hagan más",
        "Es el siguiente paso de un plan que trazamos hace tres años",
        "La demanda ha sido más fuerte de lo esperado",
        "Queremos crecer con cuidado y seguir cerca de nuestros clientes",
        "El equipo lleva más de un año trabajando en esto",
    ),
}
CITY_NAMES = {
    "de": {"Munich": "München", "Milan": "Mailand", "Tokyo": "Tokio", "Sao Paulo": "São Paulo"},
    "fr": {"London": "Londres", "Sao Paulo": "São Paulo", "Singapore": "Singapour"},
    "es": {
        "Berlin": "Berlín",
        "London": "Londres",
        "Munich": "Múnich",
        "Milan": "Milán",
        "Paris": "París",
        "Stockholm": "Estocolmo",
        "Tokyo": "Tokio",
        "New York": "Nueva York",
        "Amsterdam": "Ámsterdam",
        "Singapore": "Singapur",
        "Sydney": "Sídney",
        "Sao Paulo": "São Paulo",
    },
}
MONTHS = {
    "en": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "de": (
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ),
    "fr": (
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ),
    "es": (
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ),
}

# -- company events: (title, description) per language and kind ------------------------------

EVENT_KINDS = ("launch", "funding", "hire", "expansion", "partnership", "results", "interview")

EVENT_TEXT: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "launch": (
            "{co} launches {product}",
            "{co}, the {city}-based provider of {offering}, has launched {product}, {product_note}.",
        ),
        "funding": (
            "{co} raises ${millions} million in Series {round} round",
            "{co} has raised ${millions} million in a Series {round} round led by {investor} to expand its {offering}.",
        ),
        "hire": (
            "{co} names {person} {title}",
            "{co} has named {person} as {title}, the {city}-based company said on {weekday}.",
        ),
        "expansion": (
            "{co} opens new office in {city2}",
            "{co} is opening an office in {city2}, {country2}, and plans to hire {hires} people there over the next year.",
        ),
        "partnership": (
            "{co} and {other} announce partnership",
            "{co} and {other} will work together on {offering}, the two companies said on {weekday}.",
        ),
        "results": (
            "{co} reports {pct}% revenue growth",
            "{co} said revenue grew {pct}% year on year in the latest quarter, helped by demand for its {offering}.",
        ),
        "interview": (
            "{person} of {co} on the year ahead",
            "In an interview, {co}'s {title} {person} talks about customers, hiring and plans for {year}.",
        ),
    },
    "de": {
        "launch": (
            "{co} bringt {product} auf den Markt",
            "{co} aus {city} hat {product} vorgestellt, ein neues Angebot für Geschäftskunden.",
        ),
        "funding": (
            "{co} sammelt {millions} Millionen Dollar ein",
            "{co} hat in einer Series-{round}-Finanzierungsrunde unter Führung von {investor} {millions} Millionen Dollar eingesammelt.",
        ),
        "hire": (
            "{co} beruft {person} zum {title}",
            "{co} hat {person} als {title} gewonnen, teilte das Unternehmen aus {city} mit.",
        ),
        "expansion": (
            "{co} eröffnet Büro in {city2}",
            "{co} eröffnet einen Standort in {city2} und will dort im nächsten Jahr {hires} Mitarbeiter einstellen.",
        ),
        "partnership": (
            "{co} und {other} vereinbaren Partnerschaft",
            "{co} und {other} wollen künftig eng zusammenarbeiten, teilten die Unternehmen mit.",
        ),
        "results": (
            "{co} steigert Umsatz um {pct} Prozent",
            "{co} hat den Umsatz im vergangenen Quartal um {pct} Prozent gesteigert.",
        ),
        "interview": (
            "{person} von {co} im Interview",
            "Im Interview spricht {person}, {title} bei {co}, über Kunden, Wachstum und Pläne für {year}.",
        ),
    },
    "fr": {
        "launch": (
            "{co} lance {product}",
            "{co}, basée à {city}, a lancé {product}, une nouvelle offre pour ses clients professionnels.",
        ),
        "funding": (
            "{co} lève {millions} millions de dollars",
            "{co} a levé {millions} millions de dollars lors d'une série {round} menée par {investor}.",
        ),
        "hire": (
            "{co} nomme {person} au poste de {title}",
            "{co} a nommé {person} au poste de {title}, a annoncé l'entreprise basée à {city}.",
        ),
        "expansion": (
            "{co} ouvre un bureau à {city2}",
            "{co} ouvre un bureau à {city2} et prévoit d'y recruter {hires} personnes l'an prochain.",
        ),
        "partnership": (
            "{co} et {other} annoncent un partenariat",
            "{co} et {other} vont travailler ensemble, ont annoncé les deux entreprises.",
        ),
        "results": (
            "{co} annonce une croissance de {pct} % de son chiffre d'affaires",
            "Le chiffre d'affaires de {co} a progressé de {pct} % sur un an au dernier trimestre.",
        ),
        "interview": (
            "{person} ({co}) : « nous restons proches de nos clients »",
            "Dans un entretien, {person}, {title} chez {co}, évoque les clients, les recrutements et l'année {year}.",
        ),
    },
    "es": {
        "launch": (
            "{co} lanza {product}",
            "{co}, con sede en {city}, ha lanzado {product}, una nueva oferta para clientes empresariales.",
        ),
        "funding": (
            "{co} capta {millions} millones de dólares",
            "{co} ha captado {millions} millones de dólares en una ronda serie {round} liderada por {investor}.",
        ),
        "hire": (
            "{co} nombra a {person} {title}",
            "{co} ha nombrado a {person} como {title}, informó la empresa con sede en {city}.",
        ),
        "expansion": (
            "{co} abre una oficina en {city2}",
            "{co} abrirá una oficina en {city2} y prevé contratar a {hires} personas el próximo año.",
        ),
        "partnership": (
            "{co} y {other} anuncian una alianza",
            "{co} y {other} trabajarán juntas, anunciaron ambas empresas.",
        ),
        "results": (
            "{co} aumenta sus ingresos un {pct} %",
            "Los ingresos de {co} crecieron un {pct} % interanual en el último trimestre.",
        ),
        "interview": (
            "{person}, de {co}: «queremos crecer con cuidado»",
            "En una entrevista, {person}, {title} de {co}, habla de clientes, contratación y planes para {year}.",
        ),
    },
}
QUOTE_LINE = {
    "en": "“{quote}”, said {person}, {title} at {co}.",
    "de": "„{quote}“, sagte {person}, {title} bei {co}.",
    "fr": "« {quote} », a déclaré {person}, {title} chez {co}.",
    "es": "«{quote}», dijo {person}, {title} de {co}.",
}
ABOUT_LINE = {
    "en": "{co} employs about {employees} people and is headquartered in {city}, {country}. Its website is {domain}.",
    "de": "{co} beschäftigt rund {employees} Mitarbeiter und hat seinen Sitz in {city}. Website: {domain}.",
    "fr": "{co} emploie environ {employees} personnes et a son siège à {city}. Site web : {domain}.",
    "es": "{co} emplea a unas {employees} personas y tiene su sede en {city}. Sitio web: {domain}.",
}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# -- generic headlines: (title, description, second paragraph) per language and category -----

GENERIC: dict[tuple[str, str], tuple[tuple[str, str, str], ...]] = {
    ("en", "business"): (
        (
            "Central bank holds rates as inflation eases to {pct1}%",
            "Policymakers kept borrowing costs unchanged, citing slower price growth and a cooling labour market.",
            "Economists expect the first cut in the second half of the year.",
        ),
        (
            "Retail sales in {country} rise {pct1}% in {month}",
            "Shoppers spent more on groceries and home goods, official figures showed.",
            "Online sales grew faster than sales in stores for the fifth month running.",
        ),
        (
            "Oil prices slip as supply concerns fade",
            "Benchmark crude fell {pct1}% on the week as shipping through key routes returned to normal.",
            "Analysts said demand from manufacturers remains the main uncertainty.",
        ),
        (
            "Office vacancies in {city} climb to {pct}%",
            "More companies are cutting floor space as hybrid work becomes permanent, a broker's survey found.",
            "Landlords are offering longer rent-free periods to keep tenants.",
        ),
        (
            "Container shipping rates jump {pct}% on busy trade lanes",
            "Importers are booking earlier ahead of the summer season, freight forwarders said.",
            "Port congestion has eased since last year but remains above normal levels.",
        ),
        (
            "Small-business confidence improves for a third month",
            "Owners reported better sales expectations and easier access to credit in {month}.",
            "Hiring plans remained cautious, the survey of {n} firms showed.",
        ),
    ),
    ("en", "technology"): (
        (
            "Chipmakers race to meet demand for AI servers",
            "Suppliers are adding capacity as data-centre orders outpace forecasts.",
            "Lead times for some components have doubled since last year.",
        ),
        (
            "Cloud outage disrupts online services across {country}",
            "Banking apps, shops and airline check-ins were affected for several hours on {weekday}.",
            "The provider blamed a faulty configuration change and apologised to customers.",
        ),
        (
            "Regulators in {country} propose new rules for app stores",
            "The draft would let developers use their own payment systems.",
            "Large platforms have until {month} to respond to the consultation.",
        ),
        (
            "Smartphone shipments grow {pct1}% as upgrades pick up",
            "Mid-range models drove the recovery, market researchers said.",
            "Foldable phones still account for a small share of sales.",
        ),
        (
            "Ransomware attack hits logistics firms in {city}",
            "Several companies reported delays after their systems were locked on {weekday}.",
            "Investigators said no customer payment data appears to have been taken.",
        ),
        (
            "{city} startups closed {n} funding rounds last quarter",
            "Software and climate companies attracted most of the money, new data shows.",
            "Early-stage rounds grew while late-stage deals remained scarce.",
        ),
    ),
    ("en", "general"): (
        (
            "{city} unveils plan to expand its tram network",
            "The city council presented routes for three new lines on {weekday}.",
            "Construction could begin next year if funding is approved.",
        ),
        (
            "Storm brings heavy rain and travel delays to {city}",
            "Trains were cancelled and several roads were closed after {n} millimetres of rain fell overnight.",
            "Forecasters expect calmer weather by the weekend.",
        ),
        (
            "{city} marathon draws a record {n} runners",
            "Organisers said entries rose by a fifth compared with last year.",
            "Roads in the city centre will be closed from early morning.",
        ),
        (
            "Museum in {city} reopens after two-year renovation",
            "The refurbished galleries add space for the permanent collection and a new education centre.",
            "Entry will be free for the first weekend.",
        ),
        (
            "Rail workers in {country} announce strike dates",
            "Unions said talks over pay and working hours had stalled.",
            "Operators advised passengers to check timetables before travelling.",
        ),
        (
            "{city} council approves budget for new parks",
            "The plan includes tree planting along major roads and two new playgrounds.",
            "Residents can comment on the designs until the end of {month}.",
        ),
    ),
    ("en", "health"): (
        (
            "Flu cases climb as season peaks in {country}",
            "Doctors urged older people to get vaccinated as hospital admissions rose.",
            "Case numbers are expected to fall within weeks.",
        ),
        (
            "Study links {n} minutes of daily walking to better sleep",
            "Researchers followed {n2} adults over two years.",
            "The benefits held regardless of the time of day people walked.",
        ),
        (
            "Hospitals in {city} expand telehealth appointments",
            "Patients can now see specialists by video for follow-up visits.",
            "Waiting times for some clinics have fallen by a third.",
        ),
        (
            "New guidance on screen time for young children",
            "Paediatricians recommend screen-free meals and an hour without devices before bed.",
            "The guidance replaces advice issued five years ago.",
        ),
    ),
    ("en", "science"): (
        (
            "Telescope captures sharpest image yet of a distant galaxy",
            "Astronomers say the image reveals star-forming regions never seen before.",
            "The observations took {n} hours over several nights.",
        ),
        (
            "Researchers in {city} develop faster-charging battery material",
            "The new electrode could cut charging times for electric cars by {pct}%.",
            "The team hopes to test it in commercial cells within two years.",
        ),
        (
            "Sea ice reached its second-lowest extent on record",
            "Scientists said warmer ocean temperatures slowed the winter freeze.",
            "Satellite records go back more than four decades.",
        ),
        (
            "Fossil found in {country} sheds light on early birds",
            "The well-preserved skeleton shows feathers and teeth.",
            "Palaeontologists estimate it is {n} million years old.",
        ),
    ),
    ("en", "sports"): (
        (
            "{team1} beat {team2} {s1}-{s2} to go top of the table",
            "A late goal settled a tight match in front of a sold-out crowd.",
            "The sides meet again in the cup next month.",
        ),
        (
            "{team1} and {team2} draw {s1}-{s1} in tense derby",
            "Both teams had chances to win in a lively second half.",
            "The result leaves both clubs in the chasing pack.",
        ),
        (
            "{city} to host international tennis tournament",
            "The event will bring {n} players to the city next summer.",
            "Organisers expect more than 100,000 visitors.",
        ),
    ),
    ("en", "entertainment"): (
        (
            "Film festival in {city} announces its lineup",
            "This year's programme includes {n} premieres from first-time directors.",
            "Tickets go on sale on {weekday}.",
        ),
        (
            "Streaming series breaks viewing records in its first week",
            "The drama was watched in {n} million homes, the platform said.",
            "A second season has already been commissioned.",
        ),
        (
            "Concert tour adds second night in {city}",
            "The first show sold out within an hour.",
            "Extra tickets will be released on {weekday} morning.",
        ),
    ),
    ("de", "business"): (
        (
            "Inflation in Deutschland sinkt auf {pct1} Prozent",
            "Die Verbraucherpreise stiegen im {month} langsamer als erwartet.",
            "Ökonomen rechnen mit einer Zinssenkung im Sommer.",
        ),
        (
            "Einzelhandelsumsatz steigt um {pct1} Prozent",
            "Vor allem Lebensmittel und Haushaltswaren waren gefragt.",
            "Der Onlinehandel wuchs erneut schneller als der stationäre Handel.",
        ),
        (
            "Mittelstand blickt optimistischer auf das Jahr",
            "Die Stimmung in kleinen und mittleren Unternehmen hat sich im {month} verbessert.",
            "Bei Neueinstellungen bleiben die Firmen aber vorsichtig.",
        ),
    ),
    ("de", "general"): (
        (
            "{city} plant Ausbau des Straßenbahnnetzes",
            "Der Stadtrat stellte am Montag die Pläne für drei neue Linien vor.",
            "Baubeginn könnte bereits im kommenden Jahr sein.",
        ),
        (
            "Unwetter sorgt für Verspätungen rund um {city}",
            "Nach starken Regenfällen fielen zahlreiche Züge aus.",
            "Zum Wochenende soll sich das Wetter beruhigen.",
        ),
        (
            "Museum in {city} öffnet nach Renovierung wieder",
            "Die neu gestalteten Säle bieten mehr Platz für die Sammlung.",
            "Am ersten Wochenende ist der Eintritt frei.",
        ),
    ),
    ("fr", "business"): (
        (
            "L'inflation ralentit à {pct1} % en France",
            "Les prix à la consommation ont progressé moins vite que prévu en {month}.",
            "Les économistes anticipent une baisse des taux cet été.",
        ),
        (
            "Les ventes au détail progressent de {pct1} %",
            "L'alimentation et l'équipement de la maison tirent la consommation.",
            "Le commerce en ligne continue de croître plus vite que les magasins.",
        ),
        (
            "Le moral des PME s'améliore pour le troisième mois",
            "Les chefs d'entreprise se montrent plus confiants sur leurs ventes.",
            "Les intentions d'embauche restent prudentes.",
        ),
    ),
    ("fr", "general"): (
        (
            "{city} prévoit d'étendre son réseau de tramway",
            "La municipalité a présenté le tracé de trois nouvelles lignes.",
            "Les travaux pourraient commencer l'an prochain.",
        ),
        (
            "Orages : retards sur les trains autour de {city}",
            "De fortes pluies ont entraîné l'annulation de nombreux trains.",
            "Le temps devrait se calmer d'ici le week-end.",
        ),
        (
            "Le musée de {city} rouvre après deux ans de travaux",
            "Les salles rénovées offrent plus d'espace aux collections.",
            "L'entrée sera gratuite le premier week-end.",
        ),
    ),
    ("es", "business"): (
        (
            "La inflación en España baja al {pct1} %",
            "Los precios de consumo subieron menos de lo previsto en {month}.",
            "Los economistas esperan una bajada de tipos en verano.",
        ),
        (
            "Las ventas minoristas suben un {pct1} %",
            "La alimentación y el hogar impulsan el consumo.",
            "El comercio electrónico sigue creciendo más rápido que las tiendas.",
        ),
        (
            "Mejora la confianza de las pymes por tercer mes",
            "Los empresarios esperan más ventas en los próximos meses.",
            "Los planes de contratación siguen siendo prudentes.",
        ),
    ),
    ("es", "general"): (
        (
            "{city} ampliará su red de tranvía",
            "El ayuntamiento presentó el trazado de tres nuevas líneas.",
            "Las obras podrían empezar el próximo año.",
        ),
        (
            "Las tormentas provocan retrasos en los trenes de {city}",
            "Las fuertes lluvias obligaron a cancelar numerosos trenes.",
            "Se espera que el tiempo mejore el fin de semana.",
        ),
        (
            "El museo de {city} reabre tras dos años de obras",
            "Las salas renovadas ofrecen más espacio para la colección.",
            "La entrada será gratuita el primer fin de semana.",
        ),
    ),
}
CLOSING = {
    "en": (
        "More details are expected in the coming days.",
        "The announcement was welcomed by industry groups.",
        "Officials said they would publish a full report later this year.",
        "Reporting contributed by the news desk.",
    ),
    "de": ("Weitere Details sollen in den kommenden Tagen folgen.", "Mit Material der Nachrichtenagenturen."),
    "fr": ("Plus de détails sont attendus dans les prochains jours.", "Avec les agences."),
    "es": ("Se esperan más detalles en los próximos días.", "Con información de agencias."),
}


# -- the generated news ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewsItem:
    """One generated article (shared with the websearch service, which links to and renders articles)."""

    source: NewsSource
    url: str
    title: str
    description: str
    paragraphs: tuple[str, ...]
    author: str | None
    published_at: dt.datetime
    image_url: str
    category: str
    kind: str
    companies: tuple[Company, ...]
    people: tuple[Person, ...]
    products: tuple[Product, ...]
    popularity: int
    words: tuple[str, str, str] = ("", "", "")
    """Title, description and text as space-padded lower-case words, for search."""

    @property
    def text(self) -> str:
        """The article's full text."""
        return "\n\n".join(self.paragraphs)


def keyed(pop: Population, *parts: object) -> random.Random:
    """A generator seeded by the world seed and an entity key: the same key gives the same draws anywhere.

    Article text must not depend on which tool (or which call) produced it, so
    article content is keyed by the article, not by the call.
    """
    return random.Random("news|" + "|".join([str(pop.seed), *(str(p) for p in parts)]))


def slugify(text: str, limit: int = 80) -> str:
    """Lower-case ASCII words joined by hyphens, cut at a word boundary after ``limit`` characters."""
    words = fold(text, sharp_s=True).split()
    out: list[str] = []
    for word in words:
        if out and len("-".join([*out, word])) > limit:
            break
        out.append(word)
    return "-".join(out) or "article"


def _fmt_thousands(n: int) -> str:
    return f"{n:,}"


def _company_cycle(pop: Population, company: Company) -> tuple[int, int]:
    r = keyed(pop, "cycle", company.key)
    period = 5 + r.randrange(5)
    return period, r.randrange(period)


def _has_event(pop: Population, company: Company, day: dt.date) -> bool:
    period, offset = _company_cycle(pop, company)
    return (day.toordinal() + offset) % period == 0


def _author(r: random.Random) -> str | None:
    if r.random() < 0.15:
        return None
    return f"{r.choice(FIRST_NAMES)} {r.choice(LAST_NAMES)}"


def _published(r: random.Random, day: dt.date) -> dt.datetime:
    return utc_at(day, r.randint(5, 21), r.randrange(60))


def _article_url(source: NewsSource, day: dt.date, title: str, code: str) -> str:
    return f"https://www.{source.domain}/{day:%Y/%m/%d}/{slugify(title)}-{code}"


def _event_items(pop: Population, company: Company, day: dt.date) -> list[NewsItem]:
    r = keyed(pop, "event", company.key, day.isoformat())
    people = pop.people_at(company)
    kinds = [k for k in EVENT_KINDS if people or k not in ("hire", "interview")]
    kind = r.choice(kinds)
    person = r.choice(people) if people else None
    others = [c for c in pop.companies if c.key != company.key]
    other = r.choice(others)
    places = [p for p in pop.places if p.city != company.place.city]
    place2 = r.choice(places)
    offering, nouns = OFFERINGS.get(company.industry, OFFERINGS["software"])
    products: tuple[Product, ...] = ()
    if company.home and pop.products:
        product = r.choice(pop.products)
        products = (product,)
        product_name = product.name
        product_note = f"priced at {product.price_cents / 100:,.2f} {company.place.currency}"
    else:
        product_name = f"{company.name.split()[0]} {r.choice(nouns)}"
        product_note = f"aimed at customers of its {offering}"
    small = company.employees < 100
    values: dict[str, Any] = {
        "co": company.name,
        "city": company.place.city,
        "country": country_name(company.place.country, article=True),
        "offering": offering,
        "product": product_name,
        "product_note": product_note,
        "millions": r.choice((3, 5, 8, 12) if small else (20, 35, 50, 80, 120)),
        "round": r.choice(("A", "B") if small else ("B", "C", "D")),
        "investor": r.choice(INVESTORS),
        "person": person.name if person else "",
        "title": person.job_title if person else "",
        "weekday": WEEKDAYS[day.weekday()],
        "city2": place2.city,
        "country2": country_name(place2.country, article=True),
        "hires": r.choice((10, 15, 25, 40, 60)),
        "other": other.name,
        "pct": r.randint(4, 38),
        "year": day.year,
        "employees": _fmt_thousands(company.employees),
        "domain": company.domain,
        "quote": r.randrange(len(QUOTES["en"])),
    }
    companies = (company, other) if kind == "partnership" else (company,)
    mentioned = (person,) if person else ()
    popularity = r.randint(2000, 90000)
    time = _published(r, day)
    author = _author(r)
    outlets: list[tuple[NewsSource, str]] = []
    if company.place.country in ENGLISH_BUSINESS and (
        company.place.country != "SE" or company.industry in TECH_INDUSTRIES
    ):
        outlets.append((SOURCES_BY_ID[ENGLISH_BUSINESS[company.place.country]], "en"))
    elif company.industry in TECH_INDUSTRIES:
        outlets.append((SOURCES_BY_ID["techwire"], "en"))
    else:
        outlets.append((SOURCES_BY_ID["the-market-ledger"], "en"))
    if company.place.country in LOCAL_BUSINESS:
        outlets.append((SOURCES_BY_ID[LOCAL_BUSINESS[company.place.country]], company.place.language))
    items = []
    for n, (source, lang) in enumerate(outlets):
        local = {
            **values,
            "city": _city(lang, company.place.city),
            "city2": _city(lang, place2.city),
            "quote": QUOTES[lang][values["quote"]],
        }
        title_t, desc_t = EVENT_TEXT[lang][kind]
        title = title_t.format(**local)
        desc = desc_t.format(**local)
        paragraphs = [desc]
        if person is not None:
            paragraphs.append(QUOTE_LINE[lang].format(**local))
        if kind == "partnership":
            paragraphs.append(ABOUT_LINE[lang].format(**{**local, **_about_values(other, lang)}))
        paragraphs.append(ABOUT_LINE[lang].format(**local))
        code = company.key
        items.append(
            NewsItem(
                source=source,
                url=_article_url(source, day, title, code),
                title=title,
                description=desc,
                paragraphs=tuple(paragraphs),
                author=author if n == 0 else _author(r),
                published_at=time + dt.timedelta(minutes=47 * n),
                image_url=f"https://cdn.{source.domain}/images/{day:%Y/%m}/{code}-{slugify(title, 40)}.jpg",
                category="technology" if source.category == "technology" else "business",
                kind=kind,
                companies=companies,
                people=mentioned,
                products=products if kind == "launch" else (),
                popularity=popularity // (n + 1),
            )
        )
    return items


def _city(lang: str, city: str) -> str:
    return CITY_NAMES.get(lang, {}).get(city, city)


def _about_values(company: Company, lang: str) -> dict[str, Any]:
    return {
        "co": company.name,
        "employees": _fmt_thousands(company.employees),
        "city": _city(lang, company.place.city),
        "country": country_name(company.place.country, article=True),
        "domain": company.domain,
    }


def _generic_items(pop: Population, source: NewsSource, day: dt.date) -> list[NewsItem]:
    r = keyed(pop, "generic", source.id, day.isoformat())
    lang = source.language if (source.language, source.category) in GENERIC else "en"
    bank = GENERIC.get((lang, source.category)) or GENERIC[("en", "general")]
    local = [p for p in pop.places if p.country == source.country] or list(pop.places)
    month_idx = (day.month - 2) % 12
    items = []
    count = 2 + r.randrange(3)
    picks = r.sample(range(len(bank)), min(count, len(bank)))
    for idx, pick in enumerate(picks):
        title_t, desc_t, more_t = bank[pick]
        place = r.choice(local)
        teams = r.sample([p.city for p in local] + ["United", "Rovers", "Athletic"], 2)
        values = {
            "city": _city(lang, place.city),
            "country": country_name(source.country, article=True),
            "pct": r.randint(6, 24),
            "pct1": f"{r.randint(12, 49) / 10:.1f}",
            "n": r.choice((12, 18, 25, 30, 40, 45, 60, 75)),
            "n2": _fmt_thousands(r.randint(20, 90) * 100),
            "month": MONTHS.get(lang, MONTHS["en"])[month_idx],
            "weekday": WEEKDAYS[day.weekday()],
            "team1": f"{teams[0]} FC",
            "team2": f"{teams[1]} FC",
            "s1": r.randint(1, 3),
            "s2": r.randint(0, 1),
        }
        title = title_t.format(**values)
        code = f"n{idx + 1}"
        paragraphs = (desc_t.format(**values), more_t.format(**values), r.choice(CLOSING.get(lang, CLOSING["en"])))
        items.append(
            NewsItem(
                source=source,
                url=_article_url(source, day, title, code),
                title=title,
                description=paragraphs[0],
                paragraphs=paragraphs,
                author=_author(r),
                published_at=_published(r, day),
                image_url=f"https://cdn.{source.domain}/images/{day:%Y/%m}/{code}-{slugify(title, 40)}.jpg",
                category=source.category,
                kind="general",
                companies=(),
                people=(),
                products=(),
                popularity=r.randint(100, 60000),
            )
        )
    return items


_DAY_CACHE: dict[tuple[int, int, int, int, dt.date], tuple[NewsItem, ...]] = {}


def day_items(pop: Population, day: dt.date) -> tuple[NewsItem, ...]:
    """Every article published on ``day`` (whatever the clock), newest first."""
    key = (pop.seed, len(pop.companies), len(pop.people), len(pop.products), day)
    cached = _DAY_CACHE.get(key)
    if cached is not None:
        return cached
    items: list[NewsItem] = []
    for company in pop.companies:
        if _has_event(pop, company, day):
            items.extend(_event_items(pop, company, day))
    for source in SOURCES:
        items.extend(_generic_items(pop, source, day))
    items = [dataclasses.replace(a, words=(_words(a.title), _words(a.description), _words(a.text))) for a in items]
    items.sort(key=lambda a: (-a.published_at.timestamp(), a.url))
    if len(_DAY_CACHE) > 4096:
        _DAY_CACHE.clear()
    _DAY_CACHE[key] = result = tuple(items)
    return result


def items_between(pop: Population, start: dt.datetime, end: dt.datetime) -> Iterator[NewsItem]:
    """Articles published in ``[start, end]``, newest first."""
    day = end.date()
    while day >= start.date():
        for item in day_items(pop, day):
            if start <= item.published_at <= end:
                yield item
        day -= dt.timedelta(days=1)


def company_articles(pop: Population, company: Company, now: dt.datetime, days: int = ARCHIVE_DAYS) -> list[NewsItem]:
    """Articles about ``company`` in the ``days`` before ``now``, newest first."""
    start = now - dt.timedelta(days=days)
    return [a for a in items_between(pop, start, now) if any(c.key == company.key for c in a.companies)]


_ARTICLE_PATH = re.compile(r"^/(\d{4})/(\d{2})/(\d{2})/([a-z0-9-]+)-(co\d{4}|n\d{1,2})$")


def normalize_url(url: str) -> tuple[str, str] | None:
    """``(host without www., path without trailing slash)`` of an http(s) URL, or None."""
    m = re.match(r"^https?://([^/?#]+)([^?#]*)", url.strip(), re.IGNORECASE)
    if m is None:
        return None
    host = m.group(1).lower().split(":")[0].removeprefix("www.")
    path = m.group(2).rstrip("/") or "/"
    return host, path


def find_article(pop: Population, url: str, now: dt.datetime) -> NewsItem | None:
    """The article at ``url`` if one has been published by ``now``."""
    parts = normalize_url(url)
    if parts is None or parts[0] not in SOURCES_BY_DOMAIN:
        return None
    m = _ARTICLE_PATH.match(parts[1].lower())
    if m is None:
        return None
    try:
        day = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
    if day > now.date():
        return None
    wanted = f"https://www.{parts[0]}{parts[1].lower()}"
    for item in day_items(pop, day):
        if item.url == wanted and item.published_at <= now:
            return item
    return None


def find_source(domain: str) -> NewsSource | None:
    """The news outlet at a host name (with or without ``www.``)."""
    return SOURCES_BY_DOMAIN.get(domain.lower().removeprefix("www."))


# -- results -----------------------------------------------------------------------------------


class ArticleSource(BaseModel):
    """The outlet an article comes from."""

    id: str = Field(description="The source's id, usable in the sources filters.")
    name: str = Field(description="The source's display name.")


class MentionedCompany(BaseModel):
    """A company an article is about."""

    name: CompanyName = Field(description="The company's name.")
    domain: Domain = Field(description="The company's web domain.")
    city: City = Field(description="City of the company's headquarters.")
    country: Country = Field(description="Country of the company's headquarters.")


class MentionedPerson(BaseModel):
    """A person quoted or named in an article."""

    name: PersonName = Field(description="The person's full name.")
    job_title: JobTitle = Field(description="Their job title as reported.")
    company: CompanyName = Field(description="The company they work for.")
    company_domain: Domain = Field(description="That company's web domain.")


class MentionedProduct(BaseModel):
    """A product an article reports on."""

    sku: Sku = Field(description="The product's SKU.")
    name: str = Field(description="The product's name.")
    price: Cents = Field(description="Its list price in minor units.")
    currency: Currency = Field(description="Currency of the price.")


class Article(BaseModel):
    """One article as a list shows it (NewsAPI's article object)."""

    source: ArticleSource = Field(description="The outlet that published it.")
    author: PersonName | None = Field(description="The byline, if the article has one.")
    title: Title = Field(description="The headline.")
    description: Text = Field(description="The standfirst: a one-sentence summary.")
    url: Url = Field(description="The article's URL; read it in full with get_article.")
    url_to_image: Url | None = Field(description="URL of the article's lead image.")
    published_at: DateTime = Field(description="When it was published (UTC).")
    content: Text = Field(description="The start of the text, truncated to 200 characters with a '[+N chars]' marker.")
    category: Category = Field(description="The news category.")
    language: Language = Field(description="The article's language.")
    country: Country = Field(description="The outlet's country.")
    companies: list[MentionedCompany] = Field(description="World companies the article is about.")
    people: list[MentionedPerson] = Field(description="People named in the article.")


class FullArticle(Article):
    """One article in full."""

    text: Text = Field(description="The complete article text, paragraphs separated by blank lines.")
    word_count: Quantity = Field(description="Number of words in the text.")
    products: list[MentionedProduct] = Field(description="Products the article reports on.")
    related: list[Url] = Field(description="URLs of other recent articles about the same companies, newest first.")


class ArticleList(BaseModel):
    """A page of articles."""

    status: Literal["ok"] = Field(description="Always 'ok' for a successful request.")
    total_results: Quantity = Field(description="How many articles match in all (the plan pages through at most 100).")
    page: int = Field(description="The page returned (1-based).")
    page_size: int = Field(description="Articles per page.")
    articles: list[Article] = Field(description="The articles on this page.")


class SourceInfo(BaseModel):
    """A news source (NewsAPI's source object)."""

    id: str = Field(description="The source's id, usable in the sources filters.")
    name: str = Field(description="Display name.")
    description: Text = Field(description="What it covers.")
    url: Url = Field(description="Its home page.")
    domain: Domain = Field(description="Its web domain, usable in the domains filter of search_articles.")
    category: Category = Field(description="The category it covers.")
    language: Language = Field(description="The language it publishes in.")
    country: Country = Field(description="Its country.")


class SourceList(BaseModel):
    """The sources matching a filter."""

    status: Literal["ok"] = Field(description="Always 'ok' for a successful request.")
    sources: list[SourceInfo] = Field(description="The sources, by id.")


def _article(item: NewsItem) -> dict[str, Any]:
    text = item.text
    content = text if len(text) <= 200 else f"{text[:200]}… [+{len(text) - 200} chars]"
    return {
        "source": ArticleSource(id=item.source.id, name=item.source.name),
        "author": item.author,
        "title": item.title,
        "description": item.description,
        "url": item.url,
        "url_to_image": item.image_url,
        "published_at": item.published_at,
        "content": content,
        "category": item.category,
        "language": item.source.language,
        "country": item.source.country,
        "companies": [
            MentionedCompany(name=c.name, domain=c.domain, city=c.place.city, country=c.place.country)
            for c in item.companies
        ],
        "people": [
            MentionedPerson(name=p.name, job_title=p.job_title, company=co.name, company_domain=co.domain)
            for p in item.people
            if (co := _employer(item, p)) is not None
        ],
    }


def _employer(item: NewsItem, person: Person) -> Company | None:
    for company in item.companies:
        if company.key == person.company_key:
            return company
    return None


# -- query language ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Clause:
    must: tuple[str, ...]
    must_not: tuple[str, ...]


_TOKEN = re.compile(r'([+-]?)"([^"]*)"|(\S+)')


def _parse_query(q: str) -> list[_Clause]:
    """NewsAPI's q: words and "phrases" must all appear; +word must, -word/NOT word must not; OR alternates."""
    clauses: list[_Clause] = []
    must: list[str] = []
    must_not: list[str] = []
    negate = False
    for m in _TOKEN.finditer(q):
        sign, phrase, word = m.group(1), m.group(2), m.group(3)
        if word is not None:
            if word == "OR":
                clauses.append(_Clause(tuple(must), tuple(must_not)))
                must, must_not = [], []
                continue
            if word == "AND":
                continue
            if word == "NOT":
                negate = True
                continue
            sign = "-" if word.startswith("-") else ""
            phrase = word.lstrip("+-")
        text = " ".join(re.findall(r"\w+", (phrase or "").lower()))
        if text:
            (must_not if sign == "-" or negate else must).append(text)
        negate = False
    clauses.append(_Clause(tuple(must), tuple(must_not)))
    return [c for c in clauses if c.must or c.must_not]


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


def _score(item: NewsItem, clauses: list[_Clause], search_in: tuple[str, ...]) -> int:
    texts = {k: v for k, v in zip(("title", "description", "content"), item.words, strict=True) if k in search_in}
    best = 0
    for clause in clauses:
        if any(f" {t} " in text for t in clause.must_not for text in texts.values()):
            continue
        score = 0
        for term in clause.must:
            hits = [k for k, text in texts.items() if f" {term} " in text]
            if not hits:
                break
            score += sum(3 if k == "title" else 1 for k in hits)
        else:
            best = max(best, score or 1)
    return best


def _page(items: list[NewsItem], page: int, page_size: int) -> ArticleList:
    start = (page - 1) * page_size
    return ArticleList(
        status="ok",
        total_results=len(items),
        page=page,
        page_size=page_size,
        articles=[Article(**_article(a)) for a in items[start : start + page_size]],
    )


def _check_paging(page: int, page_size: int) -> None:
    if page < 1:
        raise RuleViolation("page must be 1 or more", field="page", hint="pages are numbered from 1")
    if not 1 <= page_size <= 100:
        raise RuleViolation("page_size must be between 1 and 100", field="page_size", hint="use at most 100 per page")
    if (page - 1) * page_size >= MAX_RESULTS:
        raise RuleViolation(
            f"maximumResultsReached: the developer plan pages through at most {MAX_RESULTS} results",
            field="page",
            hint="narrow the query (dates, sources, language) instead of paging further",
        )


def _check_sources(ids: list[str] | None) -> list[NewsSource]:
    if not ids:
        return []
    if len(ids) > 20:
        raise RuleViolation("sourcesTooMany: at most 20 sources per request", field="sources", hint="split the request")
    out = []
    for sid in ids:
        found = SOURCES_BY_ID.get(sid.strip().lower())
        if found is None:
            raise NotFound(
                f"sourceDoesNotExist: no source with id {sid!r}",
                field="sources",
                hint="list valid source ids with news__get_sources",
            )
        out.append(found)
    return out


# -- tools -------------------------------------------------------------------------------------


def _example_headlines(ctx: Ctx) -> dict[str, Any]:
    return {"country": ctx.population.home.place.country}


@service.tool(intent="get the top news headlines", open_world=True, example=_example_headlines)
def top_headlines(
    ctx: Ctx,
    country: Country | None = None,
    category: Category | None = None,
    sources: list[str] | None = None,
    q: str | None = None,
    page_size: int = 20,
    page: int = 1,
) -> ArticleList:
    """Live top headlines of the last three days, newest first (NewsAPI /v2/top-headlines).

    Give at least one of country, category, sources or q. ``sources`` cannot be
    combined with ``country`` or ``category``.

    Args:
        country: ISO 3166-1 alpha-2 code of the country whose outlets to read (e.g. "DE").
        category: The news category.
        sources: Source ids (from get_sources) to read, at most 20.
        q: Keywords or a phrase that must appear in the headline or text.
        page_size: Articles per page, 1 to 100.
        page: The page to return, from 1.
    """
    _check_paging(page, page_size)
    if sources and (country or category):
        raise RuleViolation(
            "parameterInvalid: sources cannot be mixed with country or category",
            field="sources",
            hint="either name sources, or filter by country and category",
        )
    if not (country or category or sources or (q and q.strip())):
        raise RuleViolation(
            "parametersMissing: give at least one of sources, q, country or category",
            field="country",
            hint="e.g. country='US' or category='business'",
        )
    chosen = {s.id for s in _check_sources(sources)}
    clauses = _parse_query(q) if q and q.strip() else []
    now = ctx.now()
    found = []
    for item in items_between(ctx.population, now - dt.timedelta(days=HEADLINE_DAYS), now):
        if chosen and item.source.id not in chosen:
            continue
        if country and item.source.country != country:
            continue
        if category and item.category != category:
            continue
        if clauses and not _score(item, clauses, ("title", "description", "content")):
            continue
        found.append(item)
    return _page(found, page, page_size)


def _example_search(ctx: Ctx) -> dict[str, Any]:
    return {"q": ctx.population.customers[0].name}


@service.tool(intent="search news articles", open_world=True, example=_example_search)
def search_articles(
    ctx: Ctx,
    q: str,
    search_in: list[SearchField] | None = None,
    sources: list[str] | None = None,
    domains: list[Domain] | None = None,
    from_date: Date | None = None,
    to_date: Date | None = None,
    language: Language | None = None,
    sort_by: SortBy = "publishedAt",
    page_size: int = 20,
    page: int = 1,
) -> ArticleList:
    """Search the 30-day archive of every source (NewsAPI /v2/everything).

    ``q`` supports "exact phrases", +must and -mustnot words, and AND / OR / NOT;
    plain words must all appear. Results are sorted newest first, by relevancy
    (matches in the headline count most) or by popularity.

    Args:
        q: Keywords or phrases to look for, at most 500 characters.
        search_in: Fields to search (title, description, content); default all three.
        sources: Source ids (from get_sources) to restrict to, at most 20.
        domains: Outlet domains to restrict to (e.g. "techwire.news").
        from_date: Oldest publication date, at most 30 days ago (default: 30 days ago).
        to_date: Newest publication date (default: now).
        language: ISO 639-1 code of the language to return articles in.
        sort_by: relevancy, popularity or publishedAt.
        page_size: Articles per page, 1 to 100.
        page: The page to return, from 1.
    """
    if not q.strip():
        raise RuleViolation("q must not be empty", field="q", hint="give keywords or a quoted phrase")
    if len(q) > 500:
        raise RuleViolation("q is longer than 500 characters", field="q", hint="use fewer, more specific keywords")
    _check_paging(page, page_size)
    now = ctx.now()
    oldest = now.date() - dt.timedelta(days=ARCHIVE_DAYS)
    if from_date is not None and from_date < oldest:
        raise RuleViolation(
            f"parameterInvalid: the plan permits articles from {oldest.isoformat()} onwards",
            field="from_date",
            hint=f"use a from_date on or after {oldest.isoformat()}",
        )
    if from_date is not None and to_date is not None and to_date < from_date:
        raise RuleViolation("to_date is before from_date", field="to_date", hint="swap the two dates")
    if language is not None and language not in SEARCH_LANGUAGES:
        raise RuleViolation(
            f"parameterInvalid: unsupported language {language!r}",
            field="language",
            hint=f"one of {', '.join(SEARCH_LANGUAGES)}",
        )
    chosen = {s.id for s in _check_sources(sources)}
    wanted_domains = {d.removeprefix("www.") for d in domains or ()}
    clauses = _parse_query(q)
    if not clauses:
        raise RuleViolation("q has no searchable words", field="q", hint="give at least one word to look for")
    fields = tuple(search_in) if search_in else ("title", "description", "content")
    start = utc_at(from_date or oldest)
    end = min(now, dt.datetime.combine(to_date, dt.time(23, 59, 59), tzinfo=dt.UTC)) if to_date else now
    scored: list[tuple[int, NewsItem]] = []
    for item in items_between(ctx.population, start, end):
        if chosen and item.source.id not in chosen:
            continue
        if wanted_domains and item.source.domain not in wanted_domains:
            continue
        if language and item.source.language != language:
            continue
        score = _score(item, clauses, fields)
        if score:
            scored.append((score, item))
    if sort_by == "relevancy":
        scored.sort(key=lambda s: (-s[0], -s[1].published_at.timestamp(), s[1].url))
    elif sort_by == "popularity":
        scored.sort(key=lambda s: (-s[1].popularity, s[1].url))
    return _page([item for _, item in scored], page, page_size)


@service.tool(intent="list the available news sources", open_world=True)
def get_sources(
    ctx: Ctx,
    category: Category | None = None,
    language: Language | None = None,
    country: Country | None = None,
) -> SourceList:
    """List the news sources, optionally filtered (NewsAPI /v2/top-headlines/sources).

    Args:
        category: Only sources covering this category.
        language: Only sources publishing in this ISO 639-1 language.
        country: Only sources from this ISO 3166-1 alpha-2 country.
    """
    found = [
        SourceInfo(
            id=s.id,
            name=s.name,
            description=s.description,
            url=s.url,
            domain=s.domain,
            category=s.category,
            language=s.language,
            country=s.country,
        )
        for s in sorted(SOURCES, key=lambda s: s.id)
        if (category is None or s.category == category)
        and (language is None or s.language == language)
        and (country is None or s.country == country)
    ]
    return SourceList(status="ok", sources=found)


def _example_article(ctx: Ctx) -> dict[str, Any] | None:
    pop = ctx.population
    for company in pop.customers:
        found = company_articles(pop, company, ctx.now())
        if found:
            return {"url": found[0].url}
    return None


@service.tool(intent="read the news article", open_world=True, example=_example_article)
def get_article(ctx: Ctx, url: Url) -> FullArticle:
    """Read one article in full by its URL, with the companies, people and products it mentions.

    Args:
        url: The article's URL, as a list of articles gives it.
    """
    pop = ctx.population
    parts = normalize_url(url)
    if parts is None or parts[0] not in SOURCES_BY_DOMAIN:
        raise NotFound(
            f"{url} is not an article of a known news source",
            field="url",
            hint="use a URL from top_headlines or search_articles; list outlets with get_sources",
        )
    item = find_article(pop, url, ctx.now())
    if item is None:
        raise NotFound(
            f"no article at {url}",
            field="url",
            hint="the URL may be mistyped or not yet published; find articles with search_articles",
        )
    related: list[str] = []
    for company in item.companies:
        for other in company_articles(pop, company, ctx.now()):
            if other.url != item.url and other.url not in related:
                related.append(other.url)
    currency = pop.home.place.currency
    return FullArticle(
        **_article(item),
        text=item.text,
        word_count=len(item.text.split()),
        products=[
            MentionedProduct(sku=p.sku, name=p.name, price=p.price_cents, currency=currency) for p in item.products
        ],
        related=related[:10],
    )
