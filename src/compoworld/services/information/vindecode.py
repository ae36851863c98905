"""Autoscope VIN: vehicle identification, makes and models, recalls and the fleet's recall follow-up.

Modeled on NHTSA's vPIC API (``DecodeVinValues``, ``DecodeVINValuesBatch``,
``DecodeWMI``, ``GetAllMakes``, ``GetModelsForMakeYear``,
``GetManufacturerDetails``,
``GetVehicleTypesForMake``) and NHTSA's recalls and NCAP ratings APIs
(``recalls/recallsByVehicle``, recalls by VIN, ``SafetyRatings``). A VIN is
read the way vPIC reads it: positions 1-3 are the World Manufacturer
Identifier, 4-8 the vehicle descriptor (position 4 the model line, 5 the
trim), 9 the check digit (transliterated, weighted, modulo 11, 10 written
``X``), 10 the model year (``A``-``Y`` and ``1``-``9``, in 30-year cycles) and
11 the plant. Like vPIC, a decode never fails on a wrong check digit: it says so
in ``error_code`` ``1`` and decodes the rest; the letters I, O and Q, a wrong
length or a year before the make existed are refused.

An open-world service: makes, models, plants, recall campaigns (``23V512000``)
and star ratings are a deterministic model seeded by the world seed. An
unregistered WMI decodes to a make of its region (the first character: ``1``,
``4``, ``5`` United States, ``J`` Japan, ``W`` Germany …), as the catalogue of
the outside world is larger than ours. Stored state is the company's garage:
saved vehicles with their owners, NHTSA-style e-mail recall alerts per vehicle
(active ↔ paused → cancelled) and recall repairs per vehicle and campaign
(open → scheduled → completed, never scheduled while the remedy is not yet
available).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import EPOCH, SeedContext
from compoworld.engine.types import Country, Date, Email, IdOf, SemanticType, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "vindecode",
    title="Autoscope VIN",
    category="vehicle_data",
    modeled_on="NHTSA vPIC API (DecodeVinValues, DecodeVINValuesBatch, DecodeWMI, GetAllMakes, GetModelsForMakeYear, "
    "GetManufacturerDetails, GetVehicleTypesForMake) with NHTSA's recalls API (recallsByVehicle, recalls by VIN) "
    "and NCAP SafetyRatings",
    description="Vehicle identification: decode a VIN into make, model, year, body, engine and plant, list makes, "
    "models and manufacturers, look up safety recalls and crash-test ratings, and keep the company's garage of "
    "vehicles with recall alerts and the recall repairs they still need.",
)

VehicleId = Annotated[str, IdOf("vindecode.vehicle")]
AlertId = Annotated[str, IdOf("vindecode.alert")]
RepairId = Annotated[str, IdOf("vindecode.repair")]

Vin = Annotated[str, SemanticType("vehicle.vin", kind="ref"), StringConstraints(pattern=r"^[A-Za-z0-9]{17}$")]
"""A 17-character vehicle identification number."""
Campaign = Annotated[
    str, SemanticType("vehicle.recall_campaign", kind="ref"), StringConstraints(pattern=r"^\d{2}V\d{6}$")
]
"""An NHTSA recall campaign number (``23V512000``)."""
Make = Annotated[str, SemanticType("vehicle.make", generic=True), StringConstraints(min_length=1, max_length=40)]
"""A vehicle make (``Ford``)."""
ModelName = Annotated[str, SemanticType("vehicle.model", generic=True), StringConstraints(min_length=1, max_length=40)]
"""A vehicle model (``F-150``)."""
ModelYear = Annotated[int, Field(ge=1981, le=2040)]
Wmi = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9]{3}$")]

VehicleType = Literal["Passenger Car", "Multipurpose Passenger Vehicle (MPV)", "Truck", "Motorcycle", "Bus"]
AlertStatus = Literal["active", "paused", "cancelled"]
RepairStatus = Literal["open", "scheduled", "completed"]

YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789"
"""Position-10 model-year codes: A = 1980/2010 … Y = 2000/2030, 1 = 2001/2031 … 9 = 2009/2039."""
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
_TRANSLIT = dict(zip("ABCDEFGHJKLMNPRSTUVWXYZ", "12345678123457923456789", strict=True))
_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
MAX_BATCH = 50
MAX_VEHICLES_PER_OWNER = 5


@dataclass(frozen=True, slots=True)
class _Model:
    name: str
    vtype: VehicleType
    body: str
    fuel: str
    first: int
    last: int | None
    cylinders: int
    litres: float
    electrification: str | None = None


@dataclass(frozen=True, slots=True)
class _Make:
    make_id: int
    name: str
    manufacturer: str
    mfr_id: int
    country: str
    wmis: tuple[str, ...]
    founded: int
    models: tuple[_Model, ...]


_MAKES_TABLE = """
460 FORD|FORD MOTOR COMPANY, USA|976|US|1FA 1FM 1FT|1903
  F-150|T|Pickup|Gasoline|1981||6|3.5|
  Escape|M|Sport Utility Vehicle (SUV)|Gasoline|2001||4|1.5|
  Transit|T|Van|Diesel|2015||6|3.5|
  Mustang Mach-E|M|Sport Utility Vehicle (SUV)|Electric|2021||0|0|BEV
467 CHEVROLET|GENERAL MOTORS LLC|984|US|1G1 1GC 3GN|1911
  Malibu|C|Sedan/Saloon|Gasoline|1997||4|1.5|
  Silverado|T|Pickup|Gasoline|1999||8|5.3|
  Bolt EV|C|Hatchback|Electric|2017|2023|0|0|BEV
441 TESLA|TESLA, INC.|955|US|5YJ 7SA|2003
  Model 3|C|Sedan/Saloon|Electric|2017||0|0|BEV
  Model Y|M|Sport Utility Vehicle (SUV)|Electric|2020||0|0|BEV
448 TOYOTA|TOYOTA MOTOR CORPORATION|1057|JP|JTD JTM 4T1|1937
  Corolla|C|Sedan/Saloon|Gasoline|1981||4|1.8|
  RAV4|M|Sport Utility Vehicle (SUV)|Hybrid|1996||4|2.5|HEV
  Hilux|T|Pickup|Diesel|1981||4|2.8|
  Prius|C|Hatchback|Hybrid|2001||4|1.8|HEV
474 HONDA|HONDA MOTOR CO., LTD|988|JP|JHM 1HG 2HK|1948
  Civic|C|Sedan/Saloon|Gasoline|1981||4|2.0|
  CR-V|M|Sport Utility Vehicle (SUV)|Gasoline|1997||4|1.5|
478 NISSAN|NISSAN MOTOR CO., LTD|1059|JP|JN1 1N4|1933
  Leaf|C|Hatchback|Electric|2011||0|0|BEV
  Rogue|M|Sport Utility Vehicle (SUV)|Gasoline|2008||4|2.5|
452 BMW|BMW AG|1051|DE|WBA WBS 5UX|1916
  3 Series|C|Sedan/Saloon|Gasoline|1981||4|2.0|
  X5|M|Sport Utility Vehicle (SUV)|Gasoline|2000||6|3.0|
  i4|C|Hatchback|Electric|2022||0|0|BEV
482 VOLKSWAGEN|VOLKSWAGEN AG|1148|DE|WVW WV1 3VW|1937
  Golf|C|Hatchback|Gasoline|1985||4|1.4|
  Transporter|T|Van|Diesel|1990||4|2.0|
  ID.4|M|Sport Utility Vehicle (SUV)|Electric|2021||0|0|BEV
449 MERCEDES-BENZ|MERCEDES-BENZ AG|1037|DE|WDD W1K WD3|1926
  C-Class|C|Sedan/Saloon|Gasoline|1994||4|2.0|
  Sprinter|T|Van|Diesel|2002||4|2.1|
499 VOLVO|VOLVO CAR CORPORATION|1183|SE|YV1 YV4|1927
  XC60|M|Sport Utility Vehicle (SUV)|Hybrid|2009||4|2.0|PHEV
  V60|C|Wagon|Gasoline|2011||4|2.0|
498 HYUNDAI|HYUNDAI MOTOR COMPANY|1036|KR|KMH 5NP|1967
  Elantra|C|Sedan/Saloon|Gasoline|1991||4|2.0|
  Ioniq 5|M|Sport Utility Vehicle (SUV)|Electric|2022||0|0|BEV
523 SUBARU|SUBARU CORPORATION|1111|JP|JF1 JF2 4S4|1953
  Outback|C|Wagon|Gasoline|1995||4|2.5|
  Forester|M|Sport Utility Vehicle (SUV)|Gasoline|1998||4|2.5|
485 RENAULT|RENAULT S.A.|1230|FR|VF1|1899
  Clio|C|Hatchback|Gasoline|1991||4|1.0|
  Kangoo|T|Van|Diesel|1998||4|1.5|
603 FIAT|STELLANTIS ITALY S.P.A.|1032|IT|ZFA|1899
  500|C|Hatchback|Gasoline|2008||4|1.2|
  Ducato|T|Van|Diesel|1981||4|2.3|
"""
"""Makes (``make_id NAME|manufacturer|mfr_id|country|WMIs|founded``) and their models (indented:
``name|type C/M/T|body|fuel|first year|last year|cylinders|litres|electrification``)."""
_TYPES: dict[str, VehicleType] = {"C": "Passenger Car", "M": "Multipurpose Passenger Vehicle (MPV)", "T": "Truck"}


def _parse_makes(table: str) -> tuple[_Make, ...]:
    out: list[_Make] = []
    head: list[str] = []
    models: list[_Model] = []

    def close() -> None:
        if head:
            make_id, name = head[0].split(" ", 1)
            out.append(
                _Make(
                    int(make_id),
                    name,
                    head[1],
                    int(head[2]),
                    head[3],
                    tuple(head[4].split()),
                    int(head[5]),
                    tuple(models),
                )
            )

    for line in table.strip().splitlines():
        if not line.startswith(" "):
            close()
            head, models = line.split("|"), []
            continue
        name, kind, body, fuel, first, last, cyl, litres, elec = line.strip().split("|")
        models.append(
            _Model(
                name,
                _TYPES[kind],
                body,
                fuel,
                int(first),
                int(last) if last else None,
                int(cyl),
                float(litres),
                elec or None,
            )
        )
    close()
    return tuple(out)


_MAKES = _parse_makes(_MAKES_TABLE)
_BY_MAKE: dict[str, _Make] = {m.name: m for m in _MAKES}
_BY_WMI: dict[str, _Make] = {w: m for m in _MAKES for w in m.wmis}
_REGIONS: dict[str, str] = {c: "US" for c in "123457"} | {
    "J": "JP",
    "L": "JP",
    "K": "KR",
    "W": "DE",
    "S": "DE",
    "Y": "SE",
    "V": "FR",
    "Z": "IT",
}
"""The country a WMI's first character stands for, where an unregistered WMI's make is looked for."""
_PLANTS: dict[str, tuple[str, ...]] = {
    "US": ("DEARBORN", "FREMONT", "LANSING", "LOUISVILLE", "GEORGETOWN"),
    "JP": ("TOYOTA CITY", "SUZUKA", "YOKOSUKA", "OTA"),
    "DE": ("WOLFSBURG", "MUNICH", "SINDELFINGEN", "DINGOLFING"),
    "SE": ("TORSLANDA", "GHENT"),
    "KR": ("ULSAN", "ASAN"),
    "FR": ("FLINS", "MAUBEUGE"),
    "IT": ("MIRAFIORI", "ATESSA"),
}
_COMPONENTS_TABLE = """
AIR BAGS|The passenger frontal air bag may not deploy as intended in a crash.|A non-deployed air bag increases the risk of injury.|Dealers will replace the occupant classification sensor.
ELECTRICAL SYSTEM|The rearview camera image may not display when reversing.|A blank camera display reduces rear visibility, increasing the risk of a crash.|Dealers will update the camera software, free of charge.
FUEL SYSTEM, GASOLINE|The fuel pump may fail, causing an engine stall.|An engine stall while driving increases the risk of a crash.|Dealers will replace the low-pressure fuel pump.
STEERING|The steering column intermediate shaft may separate.|Loss of steering control increases the risk of a crash.|Dealers will inspect and replace the intermediate shaft.
SERVICE BRAKES, HYDRAULIC|The brake master cylinder may leak fluid into the booster.|Reduced braking increases the risk of a crash.|Dealers will replace the brake master cylinder.
SEAT BELTS|The front seat belt pretensioner may not have been properly attached.|An unattached pretensioner may not restrain an occupant in a crash.|Dealers will reattach the pretensioner.
ELECTRICAL SYSTEM: PROPULSION SYSTEM: TRACTION BATTERY|The high-voltage battery may short circuit internally.|A short circuit increases the risk of a fire.|Dealers will replace the battery modules.
"""
_COMPONENTS: tuple[tuple[str, ...], ...] = tuple(
    tuple(line.split("|")) for line in _COMPONENTS_TABLE.strip().splitlines()
)
"""Recalled components: component, defect summary, consequence, remedy."""
_EV_ONLY = "ELECTRICAL SYSTEM: PROPULSION SYSTEM: TRACTION BATTERY"
_FUEL_ONLY = "FUEL SYSTEM, GASOLINE"


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(("vindecode", str(seed), *map(str, parts))))


# -- VIN arithmetic -------------------------------------------------------------------------------------------


def check_digit(vin: str) -> str:
    """The check digit (position 9) a VIN should carry."""
    total = 0
    for ch, weight in zip(vin.upper(), _WEIGHTS, strict=True):
        total += int(ch if ch.isdigit() else _TRANSLIT[ch]) * weight
    rest = total % 11
    return "X" if rest == 10 else str(rest)


def _year_of(code: str, this_year: int) -> int | None:
    k = YEAR_CODES.find(code)
    if k < 0:
        return None
    later = 2010 + k
    return later if later <= this_year + 1 else 1980 + k


def _clean(vin: str, field: str = "vin") -> str:
    vin = vin.strip().upper()
    if len(vin) != 17:
        raise RuleViolation(f"a VIN has 17 characters; {vin!r} has {len(vin)}", field=field, hint="copy the whole VIN")
    bad = sorted({c for c in vin if c in "IOQ"})
    if bad:
        raise RuleViolation(
            f"VIN {vin} contains {', '.join(bad)}, which VINs never use",
            field=field,
            hint="I, O and Q are read as 1, 0 and 0 on the plate: correct the VIN",
        )
    return vin


def _make_of(seed: int, wmi: str) -> tuple[_Make, bool]:
    """The make of a WMI and whether the WMI is registered (else a make of its region stands in)."""
    known = _BY_WMI.get(wmi)
    if known is not None:
        return known, True
    region = _REGIONS.get(wmi[0], "US")
    pool = [m for m in _MAKES if m.country == region] or list(_MAKES)
    return pool[_rng(seed, "wmi", wmi).randrange(len(pool))], False


def _models_in(make: _Make, year: int) -> list[_Model]:
    return [m for m in make.models if m.first <= year and (m.last is None or year <= m.last)]


def make_vin(seed: int, make: str, model: str, year: int, serial: int) -> str:
    """A valid VIN (right check digit) of a make's model and year."""
    mk = _BY_MAKE[make]
    live = _models_in(mk, year)
    idx = next(i for i, m in enumerate(live) if m.name == model)
    r = _rng(seed, "vin", make, model, year, serial)
    pos4 = r.choice([c for i, c in enumerate(VIN_CHARS) if i % len(live) == idx])
    vds = pos4 + "".join(r.choice(VIN_CHARS) for _ in range(4))
    year_code = YEAR_CODES[(year - 1980) % 30]
    body = mk.wmis[serial % len(mk.wmis)] + vds + "0" + year_code + r.choice("ABCDEFGHJK") + f"{serial:06d}"[-6:]
    return body[:8] + check_digit(body) + body[9:]


# -- result models ------------------------------------------------------------------------------------------


class DecodedVin(BaseModel):
    """A VIN decoded as vPIC's DecodeVinValues does."""

    vin: Vin = Field(description="The VIN, upper case.")
    error_code: str = Field(description="0 clean; 1 check digit wrong; 7 WMI not registered; comma-joined.")
    error_text: str = Field(description="What the error codes mean.")
    check_digit_valid: bool = Field(description="Whether position 9 matches the computed check digit.")
    wmi: str = Field(description="World Manufacturer Identifier (positions 1-3).")
    make: Make = Field(description="The make.")
    make_id: int = Field(description="vPIC make id.")
    manufacturer: str = Field(description="The manufacturer's registered name.")
    model: ModelName = Field(description="The model.")
    model_year: int = Field(description="Model year (position 10).")
    trim: str = Field(description="Trim level (position 5).")
    vehicle_type: VehicleType = Field(description="Vehicle type.")
    body_class: str = Field(description="Body class.")
    fuel_type_primary: str = Field(description="Primary fuel.")
    electrification_level: str | None = Field(description="BEV, PHEV or HEV; none for combustion only.")
    engine_cylinders: int = Field(description="Cylinders (0 for electric).")
    displacement_l: float = Field(description="Displacement in litres (0 for electric).")
    plant_city: str = Field(description="Assembly plant (position 11).")
    plant_country: Country = Field(description="Country of the plant.")


class BatchResult(BaseModel):
    """Several VINs decoded at once."""

    count: int = Field(description="VINs decoded.")
    results: list[DecodedVin] = Field(description="One decode per VIN, in the order given.")


class WmiInfo(BaseModel):
    """What a World Manufacturer Identifier stands for."""

    wmi: str = Field(description="The WMI.")
    registered: bool = Field(description="Whether it is in the registry (else the make is inferred from the region).")
    make: Make = Field(description="The make.")
    manufacturer: str = Field(description="The manufacturer.")
    country: Country = Field(description="Country of the manufacturer.")
    vehicle_types: list[VehicleType] = Field(description="Vehicle types the make builds.")


class MakeInfo(BaseModel):
    """A make."""

    make_id: int = Field(description="vPIC make id.")
    make: Make = Field(description="The make.")
    manufacturer: str = Field(description="Its manufacturer.")
    country: Country = Field(description="Home country.")


class MakeList(BaseModel):
    """Makes."""

    count: int = Field(description="Makes listed.")
    makes: list[MakeInfo] = Field(description="The makes, by name.")


class ModelInfo(BaseModel):
    """A model of a make in a year."""

    make: Make = Field(description="The make.")
    model: ModelName = Field(description="The model.")
    vehicle_type: VehicleType = Field(description="Vehicle type.")
    body_class: str = Field(description="Body class.")
    fuel_type_primary: str = Field(description="Primary fuel.")
    first_year: int = Field(description="First model year.")
    last_year: int | None = Field(description="Last model year; none while still built.")


class ModelList(BaseModel):
    """Models of a make."""

    make: Make = Field(description="The make.")
    model_year: int | None = Field(description="The model year asked for.")
    count: int = Field(description="Models listed.")
    models: list[ModelInfo] = Field(description="The models.")


class Manufacturer(BaseModel):
    """A manufacturer, as GetManufacturerDetails gives it."""

    mfr_id: int = Field(description="vPIC manufacturer id.")
    name: str = Field(description="Registered name.")
    country: Country = Field(description="Country.")
    makes: list[Make] = Field(description="Its makes.")
    wmis: list[str] = Field(description="Its registered WMIs.")
    vehicle_types: list[VehicleType] = Field(description="Vehicle types it builds.")


class Recall(BaseModel):
    """A safety recall campaign."""

    campaign: Campaign = Field(description="NHTSA campaign number.")
    manufacturer: str = Field(description="The recalling manufacturer.")
    make: Make = Field(description="The make.")
    model: ModelName = Field(description="The model.")
    model_years: list[int] = Field(description="Model years covered.")
    report_received_date: Date = Field(description="When NHTSA received the report.")
    component: str = Field(description="The component.")
    summary: str = Field(description="The defect.")
    consequence: str = Field(description="The safety risk.")
    remedy: str = Field(description="The remedy.")
    remedy_available: bool = Field(description="False: 'remedy not yet available', owners notified later.")
    park_it: bool = Field(description="Do not drive the vehicle until repaired.")
    units_affected: int = Field(description="Vehicles potentially affected.")


class RecallList(BaseModel):
    """Recalls of a vehicle."""

    count: int = Field(description="Recalls listed.")
    results: list[Recall] = Field(description="Newest first.")


class VinRecall(BaseModel):
    """A recall as it applies to one VIN."""

    recall: Recall = Field(description="The campaign.")
    status: Literal["incomplete", "remedy_not_yet_available", "complete"] = Field(
        description="Whether this VIN's repair is done (as dealers report it)."
    )


class VinRecalls(BaseModel):
    """Recalls of one VIN."""

    vin: Vin = Field(description="The VIN.")
    make: Make = Field(description="Its make.")
    model: ModelName = Field(description="Its model.")
    model_year: int = Field(description="Its model year.")
    unrepaired: int = Field(description="Recalls not complete on this VIN.")
    recalls: list[VinRecall] = Field(description="Every campaign covering it, newest first.")


class SafetyRating(BaseModel):
    """NCAP 5-star crash ratings of a model year."""

    make: Make = Field(description="The make.")
    model: ModelName = Field(description="The model.")
    model_year: int = Field(description="The year.")
    overall_rating: int = Field(description="Overall stars, 1-5.")
    frontal_crash_rating: int = Field(description="Frontal crash stars.")
    side_crash_rating: int = Field(description="Side crash stars.")
    rollover_rating: int = Field(description="Rollover stars.")
    rollover_possibility_pct: float = Field(description="Risk of rollover in a single-vehicle crash, percent.")
    complaints_count: int = Field(description="Owner complaints filed with NHTSA.")
    recalls_count: int = Field(description="Recall campaigns.")


# -- the world model ----------------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _recalls(seed: int) -> dict[str, Recall]:
    out: dict[str, Recall] = {}
    for mk in _MAKES:
        for md in mk.models:
            r = _rng(seed, "recalls", mk.name, md.name)
            start = max(md.first, 2005)
            for _ in range(r.randint(1, 4)):
                y = r.randint(start, max(start, min(md.last or EPOCH.year, EPOCH.year)))
                years = [v for v in range(y, y + r.randint(1, 3)) if v <= min(md.last or EPOCH.year, EPOCH.year)]
                if not years:
                    continue
                comps = [
                    c
                    for c in _COMPONENTS
                    if (c[0] != _EV_ONLY or md.fuel == "Electric") and (c[0] != _FUEL_ONLY or md.fuel == "Gasoline")
                ]
                comp, summary, consequence, remedy = r.choice(comps)
                received = min(
                    dt.date(years[0], r.randint(1, 12), r.randint(1, 28)),
                    EPOCH.date() - dt.timedelta(days=r.randint(5, 90)),
                )
                number = f"{received.year % 100:02d}V{r.randint(1, 899):03d}000"
                while number in out:
                    number = f"{received.year % 100:02d}V{r.randint(1, 899):03d}000"
                out[number] = Recall(
                    campaign=number,
                    manufacturer=mk.manufacturer,
                    make=mk.name,
                    model=md.name,
                    model_years=years,
                    report_received_date=received,
                    component=comp,
                    summary=summary,
                    consequence=consequence,
                    remedy=remedy,
                    remedy_available=r.random() < 0.8,
                    park_it=comp == _EV_ONLY and r.random() < 0.5,
                    units_affected=r.randint(400, 480000),
                )
    return out


def _vehicle_recalls_on(seed: int, make: str, model: str, year: int | None, today: dt.date) -> list[Recall]:
    """Recalls of a make's model (in a model year, or any) reported by ``today``, newest first."""
    found = [
        rc
        for rc in _recalls(seed).values()
        if rc.make == make
        and rc.model.lower() == model.lower()
        and (year is None or year in rc.model_years)
        and rc.report_received_date <= today
    ]
    return sorted(found, key=lambda rc: (rc.report_received_date, rc.campaign), reverse=True)


def _vehicle_recalls(ctx: Ctx, make: str, model: str, year: int) -> list[Recall]:
    return _vehicle_recalls_on(ctx.population.seed, make, model, year, ctx.today())


def _decode(ctx: Ctx, raw: str, field: str = "vin") -> DecodedVin:
    vin = _clean(raw, field)
    seed = ctx.population.seed
    year = _year_of(vin[9], ctx.today().year)
    if year is None:
        raise RuleViolation(
            f"position 10 of {vin} ({vin[9]!r}) is no model-year code",
            field=field,
            hint="model-year codes are A-Y (without I, O, Q, U, Z) and 1-9: check the VIN",
        )
    mk, registered = _make_of(seed, vin[:3])
    live = _models_in(mk, year)
    if not live:
        raise RuleViolation(
            f"{mk.name} built no vehicles in model year {year}", field=field, hint="check position 10 of the VIN"
        )
    md = live[VIN_CHARS.index(vin[3]) % len(live)] if vin[3] in VIN_CHARS else live[0]
    codes, texts = [], []
    valid = vin[8] == check_digit(vin)
    if not valid:
        codes.append("1")
        texts.append("1 - Check Digit (9th position) does not calculate properly")
    if not registered:
        codes.append("7")
        texts.append("7 - Manufacturer is not registered with NHTSA; make inferred from the WMI's region")
    plants = _PLANTS.get(mk.country, _PLANTS["US"])
    trims = ("Base", "S", "SE", "Limited", "Sport", "Premium")
    return DecodedVin(
        vin=vin,
        error_code=",".join(codes) or "0",
        error_text="; ".join(texts) or "0 - VIN decoded clean. Check Digit (9th position) is correct",
        check_digit_valid=valid,
        wmi=vin[:3],
        make=mk.name,
        make_id=mk.make_id,
        manufacturer=mk.manufacturer,
        model=md.name,
        model_year=year,
        trim=trims[VIN_CHARS.index(vin[4]) % len(trims)] if vin[4] in VIN_CHARS else "Base",
        vehicle_type=md.vtype,
        body_class=md.body,
        fuel_type_primary=md.fuel,
        electrification_level=md.electrification,
        engine_cylinders=md.cylinders,
        displacement_l=md.litres,
        plant_city=plants[VIN_CHARS.index(vin[10]) % len(plants)] if vin[10] in VIN_CHARS else plants[0],
        plant_country=mk.country,
    )


def _make(name: str, field: str = "make") -> _Make:
    mk = _BY_MAKE.get(name.strip().upper())
    if mk is None:
        raise NotFound(f"make {name!r} is unknown", field=field, hint="list makes with vindecode__list_makes")
    return mk


def _model(mk: _Make, name: str, field: str = "model") -> _Model:
    for md in mk.models:
        if md.name.lower() == name.strip().lower():
            return md
    raise NotFound(
        f"{mk.name} has no model {name!r}",
        field=field,
        hint=f"list its models with vindecode__list_models (make={mk.name})",
    )


def _vin_status(
    seed: int, vin: str, rc: Recall, today: dt.date
) -> Literal["incomplete", "remedy_not_yet_available", "complete"]:
    if not rc.remedy_available:
        return "remedy_not_yet_available"
    age = (today - rc.report_received_date).days
    return (
        "complete" if age > 60 and _rng(seed, "fix", vin, rc.campaign).random() < min(0.9, age / 900) else "incomplete"
    )


def _vin_recalls(ctx: Ctx, vin: str, field: str = "vin") -> VinRecalls:
    d = _decode(ctx, vin, field)
    today, seed = ctx.today(), ctx.population.seed
    found = [
        VinRecall(recall=rc, status=_vin_status(seed, d.vin, rc, today))
        for rc in _vehicle_recalls(ctx, d.make, d.model, d.model_year)
    ]
    return VinRecalls(
        vin=d.vin,
        make=d.make,
        model=d.model,
        model_year=d.model_year,
        unrepaired=sum(v.status != "complete" for v in found),
        recalls=found,
    )


# -- stored records ------------------------------------------------------------------------------------------


class Vehicle(Timestamped):
    """A vehicle in the company's garage, saved with its decode."""

    id: VehicleId
    vin: Vin
    """Its VIN (unique in the garage)."""
    nickname: Title
    """What the company calls it (``Van 3``)."""
    owner_email: Email
    """The employee who drives or looks after it."""
    make: Make
    """Decoded make."""
    model_name: ModelName
    """Decoded model."""
    model_year: ModelYear
    """Decoded model year."""
    license_plate: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9 -]{2,12}$")] | None = None
    """Its number plate."""
    notes: Text = ""
    """Free notes."""


class RecallAlert(Created):
    """An e-mail subscription to new recalls of a saved vehicle."""

    id: AlertId
    vehicle_id: VehicleId
    """The vehicle watched."""
    email: Email
    """Who is notified."""
    status: AlertStatus = "active"
    """active, paused or cancelled."""
    last_notified_on: Date | None = None
    """When the last recall notice went out."""


class Repair(Timestamped):
    """A recall repair one saved vehicle needs."""

    id: RepairId
    vehicle_id: VehicleId
    """The vehicle."""
    vin: Vin
    """Its VIN."""
    campaign: Campaign
    """The recall campaign."""
    component: str
    """The recalled component."""
    status: RepairStatus = "open"
    """open, scheduled (at a dealer on a date) or completed."""
    dealer: Title | None = None
    """The dealer doing the repair."""
    scheduled_on: Date | None = None
    """The booked date."""
    completed_on: Date | None = None
    """When it was repaired."""


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _owner_ok(ctx: Ctx, email: str, counted: int = 0) -> None:
    """The owner is an employee with room for one more vehicle (``counted``: the vehicle is already theirs)."""
    _staff(ctx, email, "owner_email")
    if len(ctx.where(Vehicle, owner_email=email)) - counted >= MAX_VEHICLES_PER_OWNER:
        raise RuleViolation(
            f"{email} already looks after {MAX_VEHICLES_PER_OWNER} vehicles",
            field="owner_email",
            hint="give the vehicle to another employee",
        )


def _guard_vehicle(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email != old.owner_email:
        _owner_ok(ctx, new.owner_email, counted=1)


def _guard_vehicle_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Repair, vehicle_id=old.id, status="scheduled") is not None:
        raise Conflict(
            f"vehicle {old.id} has a scheduled recall repair",
            field="vehicle_id",
            hint="complete the repair first (vindecode__complete_repair)",
        )
    for a in ctx.where(RecallAlert, vehicle_id=old.id):
        ctx.delete(a)


def _guard_alert(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Vehicle, new.vehicle_id, field="vehicle_id")
        for a in ctx.where(RecallAlert, vehicle_id=new.vehicle_id, email=new.email):
            if a.id != new.id and a.status != "cancelled":
                raise Conflict(
                    f"{new.email} already has alert {a.id} on vehicle {new.vehicle_id}",
                    field="email",
                    hint="resume that alert instead",
                )


vehicles = service.resource(
    Vehicle,
    name="vehicle",
    plural="vehicles",
    prefix="veh",
    create=False,
    filters=("owner_email", "make", "model_year", "vin"),
    search=("nickname", "model_name", "notes"),
    update=("nickname", "owner_email", "license_plate", "notes"),
    unique=("vin",),
    guard_update=_guard_vehicle,
    guard_delete=_guard_vehicle_delete,
)
alerts = service.resource(
    RecallAlert,
    name="alert",
    plural="alerts",
    prefix="ral",
    create=("vehicle_id", "email"),
    filters=("vehicle_id", "email", "status"),
    delete=False,
    title="recall alert",
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the recall alert"),
        "resume": Transition("status", ("paused",), "active", "resume the recall alert"),
        "cancel": Transition("status", ("active", "paused"), "cancelled", "cancel the recall alert", destructive=True),
    },
    guard_create=_guard_alert,
)
repairs = service.resource(
    Repair,
    name="repair",
    plural="repairs",
    prefix="rep",
    create=False,
    update=(),
    delete=False,
    filters=("vehicle_id", "campaign", "status", "vin"),
    search=("component", "dealer"),
    title="recall repair",
)


# -- open-world tools ----------------------------------------------------------------------------------------


def _example_vin(ctx: Ctx) -> dict[str, Any]:
    return {"vin": make_vin(ctx.population.seed, "FORD", "Transit", 2021, 4711)}


@service.tool(intent="decode the VIN", open_world=True, example=_example_vin)
def decode_vin(ctx: Ctx, vin: Vin) -> DecodedVin:
    """Decode a VIN into make, model, model year, trim, body, engine and plant (DecodeVinValues).

    A wrong check digit does not stop the decode: error_code 1 says so.

    Args:
        vin: The 17-character VIN.
    """
    return _decode(ctx, vin)


def _example_batch(ctx: Ctx) -> dict[str, Any]:
    seed = ctx.population.seed
    return {"vins": [make_vin(seed, "TESLA", "Model Y", 2023, 1), make_vin(seed, "TOYOTA", "Hilux", 2019, 2)]}


@service.tool(intent="decode several VINs at once", open_world=True, example=_example_batch)
def decode_vin_batch(ctx: Ctx, vins: Annotated[list[Vin], Field(min_length=1, max_length=MAX_BATCH)]) -> BatchResult:
    """Decode up to 50 VINs in one call (DecodeVINValuesBatch).

    Args:
        vins: The VINs.
    """
    return BatchResult(count=len(vins), results=[_decode(ctx, v, f"vins.{i}") for i, v in enumerate(vins)])


@service.tool(intent="look up the manufacturer identifier", open_world=True, example=fixed_example(wmi="1FT"))
def decode_wmi(ctx: Ctx, wmi: Wmi) -> WmiInfo:
    """Say which make and manufacturer a World Manufacturer Identifier (VIN positions 1-3) stands for.

    Args:
        wmi: The three characters.
    """
    w = wmi.upper()
    mk, registered = _make_of(ctx.population.seed, w)
    return WmiInfo(
        wmi=w,
        registered=registered,
        make=mk.name,
        manufacturer=mk.manufacturer,
        country=mk.country,
        vehicle_types=sorted({m.vtype for m in mk.models}),
    )


@service.tool(intent="list vehicle makes", open_world=True)
def list_makes(ctx: Ctx, vehicle_type: VehicleType | None = None, country: Country | None = None) -> MakeList:
    """List vehicle makes (GetAllMakes / GetMakesForVehicleType), by name.

    Args:
        vehicle_type: Only makes building this type.
        country: Only makes from this country.
    """
    found = [
        m
        for m in _MAKES
        if (vehicle_type is None or any(md.vtype == vehicle_type for md in m.models))
        and (country is None or m.country == country)
    ]
    return MakeList(
        count=len(found),
        makes=[
            MakeInfo(make_id=m.make_id, make=m.name, manufacturer=m.manufacturer, country=m.country)
            for m in sorted(found, key=lambda m: m.name)
        ],
    )


@service.tool(intent="list the models of a make", open_world=True, example=fixed_example(make="FORD", model_year=2022))
def list_models(
    ctx: Ctx, make: Make, model_year: ModelYear | None = None, vehicle_type: VehicleType | None = None
) -> ModelList:
    """List a make's models, optionally those built in one model year (GetModelsForMakeYear).

    Args:
        make: The make.
        model_year: Only models built that year.
        vehicle_type: Only models of this type.
    """
    mk = _make(make)
    if model_year is not None and model_year > ctx.today().year + 1:
        raise RuleViolation(
            f"model year {model_year} is not on sale yet",
            field="model_year",
            hint=f"ask for a year up to {ctx.today().year + 1}",
        )
    pool = list(mk.models) if model_year is None else _models_in(mk, model_year)
    pool = [m for m in pool if vehicle_type is None or m.vtype == vehicle_type]
    return ModelList(
        make=mk.name,
        model_year=model_year,
        count=len(pool),
        models=[
            ModelInfo(
                make=mk.name,
                model=m.name,
                vehicle_type=m.vtype,
                body_class=m.body,
                fuel_type_primary=m.fuel,
                first_year=m.first,
                last_year=m.last,
            )
            for m in pool
        ],
    )


def _mfr(makes: list[_Make]) -> Manufacturer:
    m = makes[0]
    return Manufacturer(
        mfr_id=m.mfr_id,
        name=m.manufacturer,
        country=m.country,
        makes=[x.name for x in makes],
        wmis=sorted(w for x in makes for w in x.wmis),
        vehicle_types=sorted({md.vtype for x in makes for md in x.models}),
    )


@service.tool(intent="get a manufacturer's details", open_world=True, example=fixed_example(manufacturer="tesla"))
def get_manufacturer(
    ctx: Ctx, manufacturer: Annotated[str, StringConstraints(min_length=2, max_length=80)]
) -> Manufacturer:
    """Get a manufacturer's details by (part of) its name or a make (GetManufacturerDetails).

    Args:
        manufacturer: Part of the manufacturer's name, or one of its makes.
    """
    key = manufacturer.strip().upper()
    found = [m for m in _MAKES if key in m.manufacturer or key == m.name]
    if not found:
        raise NotFound(
            f"no manufacturer matches {manufacturer!r}",
            field="manufacturer",
            hint="list them with vindecode__list_manufacturers",
        )
    return _mfr(found[:1])


def _example_vehicle(ctx: Ctx) -> dict[str, Any]:
    return {"make": "FORD", "model": "Escape", "model_year": 2020}


@service.tool(intent="look up the recalls of a vehicle model", open_world=True, example=_example_vehicle)
def recalls_by_vehicle(ctx: Ctx, make: Make, model: ModelName, model_year: ModelYear) -> RecallList:
    """Safety recalls of a make, model and model year (recallsByVehicle), newest first.

    Args:
        make: The make.
        model: The model.
        model_year: The model year.
    """
    md = _model(_make(make), model)
    found = _vehicle_recalls(ctx, make.strip().upper(), md.name, model_year)
    return RecallList(count=len(found), results=found)


@service.tool(intent="check the open recalls of a VIN", open_world=True, example=_example_vin)
def recalls_by_vin(ctx: Ctx, vin: Vin) -> VinRecalls:
    """Recalls covering one VIN and whether each is repaired on it (NHTSA's VIN lookup).

    Args:
        vin: The VIN.
    """
    return _vin_recalls(ctx, vin)


def _example_campaign(ctx: Ctx) -> dict[str, Any]:
    today = ctx.today()
    return {"campaign": min(n for n, r in _recalls(ctx.population.seed).items() if r.report_received_date <= today)}


@service.tool(intent="get the recall campaign", open_world=True, example=_example_campaign)
def get_recall(ctx: Ctx, campaign: Campaign) -> Recall:
    """Get one recall campaign by its NHTSA number.

    Args:
        campaign: The campaign number (``23V512000``).
    """
    rc = _recalls(ctx.population.seed).get(campaign)
    if rc is None or rc.report_received_date > ctx.today():
        raise NotFound(
            f"no recall campaign {campaign}", field="campaign", hint="find campaigns with vindecode__recalls_by_vehicle"
        )
    return rc


@service.tool(intent="get the crash-test ratings of a vehicle", open_world=True, example=_example_vehicle)
def safety_rating(ctx: Ctx, make: Make, model: ModelName, model_year: ModelYear) -> SafetyRating:
    """NCAP 5-star safety ratings of a model year (tested from 2011), with complaint and recall counts.

    Args:
        make: The make.
        model: The model.
        model_year: The model year.
    """
    mk = _make(make)
    md = _model(mk, model)
    if (
        model_year < max(2011, md.first)
        or (md.last is not None and model_year > md.last)
        or model_year > ctx.today().year + 1
    ):
        raise NotFound(
            f"NCAP did not rate the {model_year} {mk.name} {md.name}",
            field="model_year",
            hint=f"ratings exist from {max(2011, md.first)} while the model was built",
        )
    r = _rng(ctx.population.seed, "ncap", mk.name, md.name, model_year)
    stars = [r.choice((4, 5, 5)) for _ in range(3)]
    roll = round(r.uniform(7, 12) if md.vtype == "Passenger Car" else r.uniform(12, 24), 1)
    return SafetyRating(
        make=mk.name,
        model=md.name,
        model_year=model_year,
        overall_rating=round(sum(stars) / 3),
        frontal_crash_rating=stars[0],
        side_crash_rating=stars[1],
        rollover_rating=stars[2],
        rollover_possibility_pct=roll,
        complaints_count=r.randint(0, 400),
        recalls_count=len(_vehicle_recalls(ctx, mk.name, md.name, model_year)),
    )


# -- garage tools --------------------------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any]:
    return {
        "vin": make_vin(ctx.population.seed, "RENAULT", "Kangoo", 2022, 99),
        "nickname": "Service van 9",
        "owner_email": ctx.population.employees[-1].email,
    }


@service.tool(intent="add a vehicle to the garage", write=True, example=_example_add)
def add_vehicle(
    ctx: Ctx,
    vin: Vin,
    nickname: Title,
    owner_email: Email,
    license_plate: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9 -]{2,12}$")] | None = None,
) -> Vehicle:
    """Decode a VIN and save the vehicle in the company's garage; a VIN is saved once.

    Args:
        vin: Its VIN (a wrong check digit is refused here: a saved vehicle must be real).
        nickname: What the company calls it.
        owner_email: The employee looking after it.
        license_plate: Its number plate.
    """
    d = _decode(ctx, vin)
    if not d.check_digit_valid:
        raise RuleViolation(
            f"the check digit of {d.vin} is wrong (expected {check_digit(d.vin)})",
            field="vin",
            hint="a typo is likely: compare the VIN with the plate on the vehicle",
        )
    _owner_ok(ctx, owner_email)
    other = ctx.first(Vehicle, vin=d.vin)
    if other is not None:
        raise Conflict(f"VIN {d.vin} is already saved as {other.id}", field="vin", hint="update that vehicle")
    return ctx.create(
        Vehicle,
        vin=d.vin,
        nickname=nickname,
        owner_email=owner_email,
        make=d.make,
        model_name=d.model,
        model_year=d.model_year,
        license_plate=license_plate,
    )


@service.tool(
    intent="find the recall repairs a saved vehicle needs", write=True, example=first_example(Vehicle, "vehicle_id")
)
def sync_recalls(ctx: Ctx, vehicle_id: VehicleId) -> list[Repair]:
    """Check a saved vehicle's VIN for recalls and open a repair for each incomplete one not yet tracked.

    Returns the repairs opened now (empty when nothing is new).

    Args:
        vehicle_id: The vehicle.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    made = []
    for vr in _vin_recalls(ctx, v.vin).recalls:
        if vr.status != "complete" and ctx.first(Repair, vehicle_id=v.id, campaign=vr.recall.campaign) is None:
            made.append(
                ctx.create(
                    Repair, vehicle_id=v.id, vin=v.vin, campaign=vr.recall.campaign, component=vr.recall.component
                )
            )
    for a in ctx.where(RecallAlert, vehicle_id=v.id, status="active"):
        if made:
            ctx.update(a, last_notified_on=ctx.today())
    return made


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    seed = ctx.population.seed
    for rep in ctx.where(Repair, status="open"):
        if _recalls(seed)[rep.campaign].remedy_available:
            return {
                "repair_id": rep.id,
                "dealer": "Riverside Motors",
                "scheduled_on": str(ctx.today() + dt.timedelta(days=7)),
            }
    return None


@service.tool(intent="book the recall repair", write=True, example=_example_schedule)
def schedule_repair(ctx: Ctx, repair_id: RepairId, dealer: Title, scheduled_on: Date) -> Repair:
    """Book an open recall repair at a dealer; only once the manufacturer has a remedy.

    Args:
        repair_id: The repair.
        dealer: The dealer.
        scheduled_on: The date, today or later.
    """
    rep = ctx.get(Repair, repair_id, field="repair_id")
    if rep.status == "completed":
        raise Conflict(f"repair {rep.id} is already completed", field="repair_id", hint="nothing to book")
    if not _recalls(ctx.population.seed)[rep.campaign].remedy_available:
        raise RuleViolation(
            f"campaign {rep.campaign} has no remedy yet",
            field="repair_id",
            hint="dealers cannot repair it yet; wait for the owner notification",
        )
    if scheduled_on < ctx.today():
        raise RuleViolation(f"{scheduled_on} is in the past", field="scheduled_on", hint="pick today or later")
    return ctx.update(rep, status="scheduled", dealer=dealer, scheduled_on=scheduled_on)


@service.tool(
    intent="record the recall repair as done",
    write=True,
    example=first_example(Repair, "repair_id", where={"status": "scheduled"}),
)
def complete_repair(ctx: Ctx, repair_id: RepairId, completed_on: Date | None = None) -> Repair:
    """Record a scheduled recall repair as done.

    Args:
        repair_id: The repair.
        completed_on: When it was done (default today; not in the future).
    """
    rep = ctx.get(Repair, repair_id, field="repair_id")
    if rep.status != "scheduled":
        raise RuleViolation(
            f"repair {rep.id} is {rep.status}, not scheduled",
            field="repair_id",
            hint="book it with vindecode__schedule_repair first" if rep.status == "open" else "done",
        )
    day = completed_on or ctx.today()
    if day > ctx.today():
        raise RuleViolation(f"{day} is in the future", field="completed_on", hint="record it once it is done")
    return ctx.update(rep, status="completed", completed_on=day)


# -- seed ----------------------------------------------------------------------------------------------------

_GARAGE: tuple[tuple[str, str, int, str], ...] = (
    ("FORD", "Transit", 2019, "Service van 1"),
    ("FORD", "Transit", 2021, "Service van 2"),
    ("TESLA", "Model 3", 2022, "Pool car"),
    ("TOYOTA", "RAV4", 2020, "Sales car north"),
    ("VOLKSWAGEN", "ID.4", 2023, "Sales car south"),
    ("MERCEDES-BENZ", "Sprinter", 2018, "Delivery van"),
    ("VOLVO", "XC60", 2021, "Executive car"),
    ("CHEVROLET", "Silverado", 2020, "Site truck"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's vehicles with their drivers, recall alerts and recall repairs in every state."""
    pop = s.population
    ops = pop.staff("Operations", "Sales", fallback=6)
    today = s.now.date()
    booked = 0
    fleet = []
    for make, model, default_year, nick in _GARAGE:
        newest = _vehicle_recalls_on(pop.seed, make, model, None, today)  # newest first
        fleet.append((make, model, newest[0].model_years[-1] if newest else default_year, nick))
    # Two pool cars under fresh recalls that have a remedy: repairs still to book, whatever the draw.
    fresh = [
        rc
        for rc in _recalls(pop.seed).values()
        if rc.remedy_available and 0 <= (today - rc.report_received_date).days <= 60
    ]
    fresh.sort(key=lambda rc: (rc.report_received_date, rc.campaign), reverse=True)
    fleet += [(rc.make, rc.model, rc.model_years[-1], f"Pool car {j + 1}") for j, rc in enumerate(fresh[:2])]
    for k, (make, model, year, nick) in enumerate(fleet):
        owner = ops[k % len(ops)]
        vin = make_vin(pop.seed, make, model, year, 1000 + k)
        v = s.create(
            Vehicle,
            vin=vin,
            nickname=nick,
            owner_email=owner.email,
            make=make,
            model_name=model,
            model_year=year,
            license_plate=f"CW {100 + k}",
            created_at=s.ago(days=300 - 20 * k),
            updated_at=s.ago(days=30),
        )
        if k % 3 != 2:
            s.create(
                RecallAlert,
                vehicle_id=v.id,
                email=owner.email,
                status="paused" if k == 4 else "active",
                created_at=s.ago(days=200),
            )
        for rc in _vehicle_recalls_on(pop.seed, make, model, year, today):
            status: RepairStatus = "open"
            if _vin_status(pop.seed, vin, rc, today) == "complete":
                status = "completed"
            elif rc.remedy_available:
                status, booked = ("scheduled" if booked % 2 == 0 else "open"), booked + 1
            s.create(
                Repair,
                vehicle_id=v.id,
                vin=vin,
                campaign=rc.campaign,
                component=rc.component,
                status=status,
                dealer="Riverside Motors" if status != "open" else None,
                scheduled_on=today + dt.timedelta(days=5)
                if status == "scheduled"
                else (today - dt.timedelta(days=20) if status == "completed" else None),
                completed_on=today - dt.timedelta(days=20) if status == "completed" else None,
                created_at=s.ago(days=60),
                updated_at=s.ago(days=20),
            )
