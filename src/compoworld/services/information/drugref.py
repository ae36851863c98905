"""Medref Drug Reference: drug labels, NDC codes, RxNorm concepts, interactions, recalls and formularies.

Modeled on the openFDA drug APIs (``/drug/label.json`` with ``openfda.brand_name``,
``generic_name``, ``boxed_warning``, ``indications_and_usage``;
``/drug/ndc.json`` with ``product_ndc``, ``packaging``, ``dea_schedule``,
``marketing_category``; ``/drug/enforcement.json`` with ``recall_number``,
``classification`` Class I-III and ``status`` Ongoing / Completed / Terminated)
and the NLM RxNorm REST API (``/rxcui.json?name=``, ``/rxcui/{rxcui}/properties``,
``/rxcui/{rxcui}/related?tty=IN+BN`` and the interaction list by RxCUI pairs,
with ``severity`` high / moderate / low).

An open-world service: the drug database is a fixed set of common generic
products (the RxCUIs the EHR formulary uses, so that an order there looks up
here) with their labels, NDC products and packages; interactions follow from
the drug classes; the enforcement reports are a deterministic draw from the
world seed. Stored state is the plan's formulary, as a pharmacy benefit team
keeps it: a formulary (draft, active, archived) lists covered drugs with a
tier, prior authorisation and a quantity limit; a schedule II drug always needs
prior authorisation, an archived formulary is frozen, a formulary goes active
only with drugs on it, and entries whose drug is under an ongoing Class I or II
recall are suspended until reinstated.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, SemanticType, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "drugref",
    title="Medref Drug Reference",
    category="drug_reference",
    modeled_on="openFDA drug label, NDC directory and enforcement (recall) APIs with the NLM RxNorm REST API "
    "(rxcui by name, properties, related ingredients and brands, interactions), plus a PBM formulary",
    description="Drug reference: find drugs by name, NDC or RxCUI, read their labels, ingredients and brands, check "
    "interactions between drugs, search FDA recall enforcement reports, and keep the plan's formularies with tiers, "
    "prior authorisation and quantity limits.",
)

Rxcui = Annotated[str, SemanticType("drug.rxcui", kind="ref"), StringConstraints(pattern=r"^[0-9]{4,8}$")]
"""An RxNorm concept id (RxCUI)."""
Ndc = Annotated[
    str, SemanticType("drug.ndc", kind="ref"), StringConstraints(pattern=r"^[0-9]{5}-[0-9]{4}(-[0-9]{2})?$")
]
"""An NDC product code (5-4) or package code (5-4-2)."""
RecallNumber = Annotated[
    str, SemanticType("drug.recall_number", kind="ref"), StringConstraints(pattern=r"^D-[0-9]{4}-[0-9]{4}$")
]
FormularyId = Annotated[str, IdOf("drugref.formulary")]
EntryId = Annotated[str, IdOf("drugref.entry")]
Query = Annotated[str, StringConstraints(min_length=2, max_length=80)]

Severity = Literal["high", "moderate", "low"]
Classification = Literal["Class I", "Class II", "Class III"]
RecallStatus = Literal["Ongoing", "Completed", "Terminated"]
FormularyStatus = Literal["draft", "active", "archived"]
EntryStatus = Literal["covered", "suspended"]
Schedule = Literal["CII", "CIII", "CIV", "CV", "none"]
MAX_TIER = 5
MAX_ENTRIES = 60


@dataclass(frozen=True, slots=True)
class _Drug:
    rxcui: str
    name: str
    ingredient: str
    ingredient_rxcui: str
    brands: tuple[str, ...]
    drug_class: str
    pharm_class: str
    form: str
    route: str
    labeler: str
    product_ndc: str
    schedule: str = "none"
    otc: bool = False
    boxed_warning: str = ""
    indication: str = ""


_DRUG_TABLE = """
197361|Amlodipine 5 MG Oral Tablet|amlodipine|17767|Norvasc|calcium_channel_blocker|Calcium Channel Blocker [EPC]|TABLET|ORAL|Greenstone LLC|59762-1530|none|rx
314076|Lisinopril 10 MG Oral Tablet|lisinopril|29046|Zestril;Prinivil|ace_inhibitor|Angiotensin Converting Enzyme Inhibitor [EPC]|TABLET|ORAL|Lupin Pharmaceuticals|68180-0513|none|rx
860975|Metformin hydrochloride 500 MG Oral Tablet|metformin|6809|Glucophage|biguanide|Biguanide [EPC]|TABLET|ORAL|Zydus Pharmaceuticals|68382-0028|none|rx
617312|Atorvastatin 20 MG Oral Tablet|atorvastatin|83367|Lipitor|statin|HMG-CoA Reductase Inhibitor [EPC]|TABLET|ORAL|Greenstone LLC|59762-0155|none|rx
308182|Amoxicillin 500 MG Oral Capsule|amoxicillin|723|Amoxil|penicillin|Penicillin-class Antibacterial [EPC]|CAPSULE|ORAL|Aurobindo Pharma|65862-0015|none|rx
197806|Ibuprofen 600 MG Oral Tablet|ibuprofen|5640|Motrin|nsaid|Nonsteroidal Anti-inflammatory Drug [EPC]|TABLET|ORAL|Amneal Pharmaceuticals|65162-0467|none|rx
1049621|Oxycodone hydrochloride 5 MG Oral Tablet|oxycodone|7804|Roxicodone|opioid|Opioid Agonist [EPC]|TABLET|ORAL|Rhodes Pharmaceuticals|42858-0001|CII|rx
312938|Sertraline 50 MG Oral Tablet|sertraline|36437|Zoloft|ssri|Serotonin Reuptake Inhibitor [EPC]|TABLET|ORAL|Greenstone LLC|59762-4960|none|rx
745679|Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler|albuterol|435|ProAir HFA;Ventolin HFA|bronchodilator|beta2-Adrenergic Agonist [EPC]|AEROSOL, METERED|RESPIRATORY (INHALATION)|Teva Respiratory|59310-0579|none|rx
198335|Sulfamethoxazole 800 MG / Trimethoprim 160 MG Oral Tablet|sulfamethoxazole|10180|Bactrim DS|sulfonamide|Sulfonamide Antibacterial [EPC]|TABLET|ORAL|Sun Pharmaceutical|53489-0146|none|rx
855332|Warfarin sodium 5 MG Oral Tablet|warfarin|11289|Coumadin;Jantoven|anticoagulant|Vitamin K Antagonist [EPC]|TABLET|ORAL|Taro Pharmaceuticals|51672-4032|none|rx
308460|Azithromycin 250 MG Oral Tablet|azithromycin|18631|Zithromax|macrolide|Macrolide Antimicrobial [EPC]|TABLET|ORAL|Pfizer Laboratories|00069-3060|none|rx
310965|Ibuprofen 200 MG Oral Tablet|ibuprofen|5640|Advil|nsaid|Nonsteroidal Anti-inflammatory Drug [EPC]|TABLET|ORAL|Perrigo Company|45802-0952|none|otc
198211|Simvastatin 40 MG Oral Tablet|simvastatin|36567|Zocor|statin|HMG-CoA Reductase Inhibitor [EPC]|TABLET|ORAL|Accord Healthcare|16729-0005|none|rx
197591|Diazepam 5 MG Oral Tablet|diazepam|3322|Valium|benzodiazepine|Benzodiazepine [EPC]|TABLET|ORAL|Mylan Pharmaceuticals|00378-0345|CIV|rx
313782|Acetaminophen 325 MG Oral Tablet|acetaminophen|161|Tylenol|analgesic|Analgesic [EPC]|TABLET|ORAL|Major Pharmaceuticals|00904-1982|none|otc
"""
"""RxCUI | name | ingredient | ingredient RxCUI | brands | class | EPC class | form | route | labeler | product NDC | DEA schedule | rx or otc."""
_LABEL_TEXT = """
197361|Hypertension and coronary artery disease.|
314076|Hypertension, heart failure and acute myocardial infarction.|Fetal toxicity: discontinue as soon as pregnancy is detected.
860975|Type 2 diabetes mellitus, with diet and exercise.|Lactic acidosis: postmarketing cases have resulted in death.
617312|Hyperlipidemia; reduces the risk of myocardial infarction and stroke.|
308182|Infections of the ear, nose, throat, urinary tract and skin.|
197806|Rheumatoid arthritis, osteoarthritis, mild to moderate pain.|Cardiovascular thrombotic events and gastrointestinal bleeding.
1049621|Pain severe enough to require an opioid analgesic.|Addiction, abuse and misuse; respiratory depression; risks with benzodiazepines.
312938|Major depressive disorder, OCD, panic disorder, PTSD.|Suicidal thoughts and behaviors in children and young adults.
745679|Bronchospasm in reversible obstructive airway disease.|
198335|Urinary tract infections, otitis media, bronchitis.|
855332|Prophylaxis and treatment of venous thrombosis and pulmonary embolism.|Bleeding risk: major or fatal bleeding; monitor INR regularly.
308460|Respiratory, skin and sexually transmitted infections.|
310965|Temporary relief of minor aches, pains and fever.|
198211|Hyperlipidemia; reduces coronary events.|
197591|Anxiety disorders, acute alcohol withdrawal, muscle spasm.|Risks from concomitant use with opioids; abuse, misuse and dependence.
313782|Temporary relief of minor aches and pains; reduces fever.|
"""
"""RxCUI | indications and usage | boxed warning (none when empty)."""


def _load() -> tuple[_Drug, ...]:
    text = {row.split("|")[0]: row.split("|")[1:] for row in _LABEL_TEXT.strip().splitlines()}
    out = []
    for row in _DRUG_TABLE.strip().splitlines():
        f = row.split("|")
        indication, boxed = text[f[0]]
        out.append(
            _Drug(
                f[0],
                f[1],
                f[2],
                f[3],
                tuple(f[4].split(";")),
                f[5],
                f[6],
                f[7],
                f[8],
                f[9],
                f[10],
                f[11],
                f[12] == "otc",
                boxed,
                indication,
            )
        )
    return tuple(out)


_DRUGS = _load()
_BY_RXCUI: dict[str, _Drug] = {d.rxcui: d for d in _DRUGS}
_BY_NDC: dict[str, _Drug] = {d.product_ndc: d for d in _DRUGS}

_CLASS_RULES: dict[frozenset[str], tuple[Severity, str]] = {
    frozenset({"anticoagulant", "nsaid"}): ("high", "Increased risk of serious bleeding."),
    frozenset({"anticoagulant", "sulfonamide"}): ("high", "Sulfamethoxazole raises the INR: bleeding risk."),
    frozenset({"anticoagulant", "macrolide"}): ("moderate", "Macrolides may raise the anticoagulant effect."),
    frozenset({"anticoagulant", "ssri"}): ("moderate", "SSRIs add to the bleeding risk of anticoagulants."),
    frozenset({"opioid", "benzodiazepine"}): ("high", "Profound sedation, respiratory depression, coma and death."),
    frozenset({"statin", "macrolide"}): ("moderate", "Raised statin levels: risk of myopathy and rhabdomyolysis."),
    frozenset({"ace_inhibitor", "nsaid"}): ("moderate", "NSAIDs blunt the antihypertensive effect; renal risk."),
    frozenset({"ssri", "nsaid"}): ("moderate", "Increased risk of gastrointestinal bleeding."),
    frozenset({"ssri", "opioid"}): ("moderate", "Risk of serotonin syndrome."),
    frozenset({"calcium_channel_blocker", "statin"}): ("low", "Amlodipine slightly raises simvastatin levels."),
    frozenset({"biguanide", "sulfonamide"}): ("low", "Trimethoprim may raise metformin levels."),
    frozenset({"analgesic", "anticoagulant"}): ("low", "Regular acetaminophen may raise the INR."),
}
_SAME_INGREDIENT = ("high", "Same active ingredient: duplicate therapy and risk of overdose.")
_REASONS = (
    "Failed dissolution specifications",
    "Presence of foreign substance: metal particles",
    "CGMP deviations",
    "Superpotent: out-of-specification assay result",
    "Subpotent drug",
    "Labeling: incorrect strength on the bottle label",
    "Presence of N-nitrosamine impurity above the acceptable intake limit",
    "Defective container: cracked bottles",
)


def _drug(rxcui: str, field: str = "rxcui") -> _Drug:
    d = _BY_RXCUI.get(rxcui)
    if d is None:
        raise NotFound(f"no RxNorm concept {rxcui}", field=field, hint="find the RxCUI with drugref__find_rxcui")
    return d


# -- result models -----------------------------------------------------------------------------------------


class DrugLabel(BaseModel):
    """A structured product label (SPL) with its openFDA fields."""

    set_id: str = Field(description="SPL set id.")
    rxcui: Rxcui = Field(description="RxNorm concept of the product.")
    brand_names: list[str] = Field(description="openfda.brand_name.")
    generic_name: str = Field(description="openfda.generic_name.")
    product_ndc: Ndc = Field(description="openfda.product_ndc.")
    manufacturer_name: str = Field(description="openfda.manufacturer_name (the labeler).")
    pharm_class_epc: str = Field(description="Established pharmacologic class.")
    route: str = Field(description="Route of administration.")
    product_type: Literal["HUMAN PRESCRIPTION DRUG", "HUMAN OTC DRUG"] = Field(description="Rx or OTC.")
    boxed_warning: str = Field(description="The boxed warning, empty when there is none.")
    indications_and_usage: str = Field(description="What it is indicated for.")
    effective_time: Date = Field(description="When this label version took effect.")


class Package(BaseModel):
    """A package of an NDC product."""

    package_ndc: Ndc = Field(description="The 5-4-2 package code.")
    description: str = Field(description="What the package holds.")


class NdcProduct(BaseModel):
    """An NDC directory product."""

    product_ndc: Ndc = Field(description="The 5-4 product code.")
    rxcui: Rxcui = Field(description="RxNorm concept.")
    generic_name: str = Field(description="Generic name.")
    brand_name: str = Field(description="The first brand name.")
    labeler_name: str = Field(description="Who markets it.")
    dosage_form: str = Field(description="Dosage form.")
    route: str = Field(description="Route.")
    dea_schedule: Schedule = Field(description="DEA schedule, none when not controlled.")
    marketing_category: Literal["ANDA", "NDA", "OTC MONOGRAPH DRUG"] = Field(description="Marketing category.")
    packaging: list[Package] = Field(description="Its packages.")


class RxConcept(BaseModel):
    """An RxNorm concept's properties."""

    rxcui: Rxcui = Field(description="The RxCUI.")
    name: str = Field(description="The normalised name.")
    tty: Literal["SCD", "IN", "BN"] = Field(description="Term type: SCD clinical drug, IN ingredient, BN brand.")
    drug_class: str = Field(description="Its drug class.")
    score: float = Field(description="Match score of an approximate search, 100 for exact.")


class RelatedConcepts(BaseModel):
    """The ingredients and brands of a clinical drug (/related?tty=IN+BN)."""

    rxcui: Rxcui = Field(description="The clinical drug.")
    name: str = Field(description="Its name.")
    ingredients: list[RxConcept] = Field(description="Ingredients (IN).")
    brands: list[str] = Field(description="Brand names (BN).")
    same_class: list[RxConcept] = Field(description="Other clinical drugs of its class (alternatives).")


class Interaction(BaseModel):
    """An interaction between two drugs."""

    rxcui_a: Rxcui = Field(description="First drug.")
    rxcui_b: Rxcui = Field(description="Second drug.")
    name_a: str = Field(description="First drug's name.")
    name_b: str = Field(description="Second drug's name.")
    severity: Severity = Field(description="high, moderate or low.")
    description: str = Field(description="What happens.")


class InteractionReport(BaseModel):
    """Interactions among a list of drugs."""

    rxcuis: list[Rxcui] = Field(description="The drugs checked.")
    interactions: list[Interaction] = Field(description="Pairs that interact, most severe first.")
    highest_severity: Severity | None = Field(description="The worst severity found, None when nothing interacts.")


class Recall(BaseModel):
    """An FDA enforcement report of a drug recall."""

    recall_number: RecallNumber = Field(description="FDA recall number.")
    rxcui: Rxcui = Field(description="The recalled drug.")
    product_ndc: Ndc = Field(description="The recalled product.")
    product_description: str = Field(description="The product as reported.")
    recalling_firm: str = Field(description="Who recalls it.")
    classification: Classification = Field(description="Class I (serious harm) to Class III (unlikely harm).")
    status: RecallStatus = Field(description="Ongoing, Completed or Terminated.")
    reason_for_recall: str = Field(description="Why.")
    voluntary_mandated: str = Field(description="Voluntary or FDA mandated.")
    distribution_pattern: str = Field(description="Where it was distributed.")
    recall_initiation_date: Date = Field(description="When the firm started it.")
    report_date: Date = Field(description="When FDA published it.")
    lot_numbers: list[str] = Field(description="Affected lots.")


# -- the database ------------------------------------------------------------------------------------------


def _label(d: _Drug) -> DrugLabel:
    return DrugLabel(
        set_id=f"{int(d.rxcui):08x}-{d.product_ndc[:4]}-4{d.product_ndc[-3:]}-a{len(d.name):03d}-{d.rxcui:0>12}",
        rxcui=d.rxcui,
        brand_names=list(d.brands),
        generic_name=d.ingredient.upper(),
        product_ndc=d.product_ndc,
        manufacturer_name=d.labeler,
        pharm_class_epc=d.pharm_class,
        route=d.route,
        product_type="HUMAN OTC DRUG" if d.otc else "HUMAN PRESCRIPTION DRUG",
        boxed_warning=d.boxed_warning,
        indications_and_usage=d.indication,
        effective_time=dt.date(2023, 1 + int(d.rxcui) % 12, 1 + int(d.rxcui) % 28),
    )


def _product(d: _Drug) -> NdcProduct:
    count = "30" if d.form != "AEROSOL, METERED" else "1"
    unit = {"TABLET": "TABLET", "CAPSULE": "CAPSULE"}.get(d.form, "INHALER")
    return NdcProduct(
        product_ndc=d.product_ndc,
        rxcui=d.rxcui,
        generic_name=d.ingredient,
        brand_name=d.brands[0],
        labeler_name=d.labeler,
        dosage_form=d.form,
        route=d.route,
        dea_schedule=d.schedule,
        marketing_category="OTC MONOGRAPH DRUG" if d.otc else "ANDA",
        packaging=[
            Package(package_ndc=f"{d.product_ndc}-{k:02d}", description=f"{n} {unit} in 1 BOTTLE")
            for k, n in ((1, count), (5, "90" if count == "30" else "2"))
        ],
    )


def _concept(d: _Drug, score: float = 100.0) -> RxConcept:
    return RxConcept(rxcui=d.rxcui, name=d.name, tty="SCD", drug_class=d.drug_class, score=score)


def _interaction(a: _Drug, b: _Drug) -> Interaction | None:
    rule = (
        _SAME_INGREDIENT if a.ingredient == b.ingredient else _CLASS_RULES.get(frozenset({a.drug_class, b.drug_class}))
    )
    if rule is None or a.rxcui == b.rxcui:
        return None
    severity, text = rule
    return Interaction(
        rxcui_a=a.rxcui, rxcui_b=b.rxcui, name_a=a.name, name_b=b.name, severity=severity, description=text
    )


@lru_cache(maxsize=8)
def _recalls(seed: int, today: dt.date) -> dict[str, Recall]:
    """Enforcement reports of the last three years: about one drug in three, newest ongoing."""
    r = random.Random(f"drugref:{seed}:recalls")
    out: dict[str, Recall] = {}
    drugs = sorted(_DRUGS, key=lambda d: d.rxcui)
    picks = r.sample(drugs, 6)
    for k, d in enumerate(picks):
        started = today - dt.timedelta(days=20 + k * 150 + r.randrange(30))
        reported = started + dt.timedelta(days=r.randint(7, 25))
        if reported > today:
            reported = today
        status: RecallStatus = "Ongoing" if k < 3 else r.choice(("Completed", "Terminated"))
        cls: Classification = (
            ("Class II", "Class I", "Class III")[k % 3] if k < 3 else r.choice(("Class II", "Class III"))
        )
        number = f"D-{r.randint(100, 1999):04d}-{reported.year}"
        out[number] = Recall(
            recall_number=number,
            rxcui=d.rxcui,
            product_ndc=d.product_ndc,
            product_description=f"{d.name}, {d.labeler}, NDC {d.product_ndc}-01",
            recalling_firm=d.labeler,
            classification=cls,
            status=status,
            reason_for_recall=r.choice(_REASONS),
            voluntary_mandated="Voluntary: Firm initiated",
            distribution_pattern="Nationwide in the USA",
            recall_initiation_date=started,
            report_date=reported,
            lot_numbers=[f"{d.product_ndc[:2]}{r.randint(10000, 99999)}" for _ in range(r.randint(1, 3))],
        )
    return out


def _recall_db(ctx: Ctx) -> dict[str, Recall]:
    return _recalls(ctx.population.seed, ctx.today())


def _recalled(ctx: Ctx, rxcui: str) -> Recall | None:
    """An ongoing Class I or II recall of a drug, if any."""
    for rc in _recall_db(ctx).values():
        if rc.rxcui == rxcui and rc.status == "Ongoing" and rc.classification != "Class III":
            return rc
    return None


# -- open-world tools --------------------------------------------------------------------------------------


@service.tool(intent="search drug labels by name", open_world=True, example=fixed_example(name="atorvastatin"))
def search_labels(ctx: Ctx, name: Query, otc: bool | None = None) -> list[DrugLabel]:
    """Search drug labels by brand or generic name (/drug/label.json?search=openfda.brand_name OR generic_name).

    Args:
        name: A brand or generic name, or part of it.
        otc: True: OTC labels only; False: prescription labels only.
    """
    q = fold(name)
    return [
        _label(d)
        for d in _DRUGS
        if (q in fold(d.name) or any(q in fold(b) for b in d.brands)) and (otc is None or d.otc == otc)
    ]


@service.tool(intent="get the drug label", open_world=True, example=fixed_example(rxcui="855332"))
def get_label(ctx: Ctx, rxcui: Rxcui) -> DrugLabel:
    """Get the label of a drug: brands, labeler, class, boxed warning and indications.

    Args:
        rxcui: The drug's RxCUI.
    """
    return _label(_drug(rxcui))


@service.tool(intent="look up a drug by NDC", open_world=True, example=fixed_example(ndc="59762-0155-01"))
def lookup_ndc(ctx: Ctx, ndc: Ndc) -> NdcProduct:
    """Look up an NDC product code (5-4) or package code (5-4-2) in the NDC directory (/drug/ndc.json).

    Args:
        ndc: The code, with dashes.
    """
    d = _BY_NDC.get(ndc[:10])
    if d is None or (len(ndc) > 10 and ndc not in {p.package_ndc for p in _product(d).packaging}):
        raise NotFound(
            f"no NDC {ndc} in the directory",
            field="ndc",
            hint="check the code on the package, or search by name with drugref__search_labels",
        )
    return _product(d)


@service.tool(intent="find the RxCUI of a drug name", open_world=True, example=fixed_example(name="warfarin 5 mg"))
def find_rxcui(ctx: Ctx, name: Query) -> list[RxConcept]:
    """Find RxNorm concepts by name, exact or approximate (/rxcui.json, /approximateTerm.json), best first.

    Args:
        name: A drug name, with or without strength and form (brand names work too).
    """
    q = fold(name)
    words = set(q.split())
    out = []
    for d in _DRUGS:
        known = set(fold(d.name).split()) | {w for b in d.brands for w in fold(b).split()}
        if d.ingredient in words or any(fold(b) in q for b in d.brands):
            out.append(_concept(d, round(100.0 * len(words & known) / len(words), 1)))
    return sorted(out, key=lambda c: (-c.score, c.rxcui))


@service.tool(intent="list a drug's ingredients and brands", open_world=True, example=fixed_example(rxcui="314076"))
def get_related(ctx: Ctx, rxcui: Rxcui) -> RelatedConcepts:
    """Get a clinical drug's ingredients, brand names and other drugs of its class (/related?tty=IN+BN).

    Args:
        rxcui: The clinical drug's RxCUI.
    """
    d = _drug(rxcui)
    ingredient = RxConcept(rxcui=d.ingredient_rxcui, name=d.ingredient, tty="IN", drug_class=d.drug_class, score=100.0)
    return RelatedConcepts(
        rxcui=d.rxcui,
        name=d.name,
        ingredients=[ingredient],
        brands=list(d.brands),
        same_class=[_concept(o) for o in _DRUGS if o.drug_class == d.drug_class and o is not d],
    )


@service.tool(
    intent="check a list of drugs for interactions",
    open_world=True,
    example=fixed_example(rxcuis=["855332", "198335", "617312"]),
)
def check_interactions(
    ctx: Ctx, rxcuis: Annotated[list[Rxcui], Field(min_length=2, max_length=20)]
) -> InteractionReport:
    """Check every pair of a patient's drugs for interactions (the interaction list API), most severe first.

    Args:
        rxcuis: Two to twenty RxCUIs.
    """
    drugs = [_drug(x, f"rxcuis.{i}") for i, x in enumerate(rxcuis)]
    for k, x in enumerate(rxcuis):
        if x in rxcuis[:k]:
            raise RuleViolation(f"{x} is listed twice", field=f"rxcuis.{k}", hint="name each drug once")
    found = [i for a, b in combinations(drugs, 2) if (i := _interaction(a, b)) is not None]
    order = {"high": 0, "moderate": 1, "low": 2}
    found.sort(key=lambda i: (order[i.severity], i.rxcui_a, i.rxcui_b))
    return InteractionReport(
        rxcuis=list(rxcuis), interactions=found, highest_severity=found[0].severity if found else None
    )


@service.tool(intent="search drug recall enforcement reports", open_world=True)
def search_recalls(
    ctx: Ctx,
    rxcui: Rxcui | None = None,
    classification: Classification | None = None,
    status: RecallStatus | None = None,
    since: Date | None = None,
) -> list[Recall]:
    """Search FDA drug recall enforcement reports (/drug/enforcement.json), newest first.

    Args:
        rxcui: Only recalls of this drug.
        classification: Only this class.
        status: Only Ongoing, Completed or Terminated recalls.
        since: Only reports published on or after this date.
    """
    found = [
        rc
        for rc in _recall_db(ctx).values()
        if (rxcui is None or rc.rxcui == rxcui)
        and (classification is None or rc.classification == classification)
        and (status is None or rc.status == status)
        and (since is None or rc.report_date >= since)
    ]
    return sorted(found, key=lambda rc: (rc.report_date, rc.recall_number), reverse=True)


def _example_recall(ctx: Ctx) -> dict[str, Any]:
    return {"recall_number": next(iter(_recall_db(ctx)))}


@service.tool(intent="get the recall enforcement report", open_world=True, example=_example_recall)
def get_recall(ctx: Ctx, recall_number: RecallNumber) -> Recall:
    """Get one enforcement report by its recall number.

    Args:
        recall_number: The FDA recall number (D-0123-2026).
    """
    rc = _recall_db(ctx).get(recall_number)
    if rc is None:
        raise NotFound(f"no recall {recall_number}", field="recall_number", hint="search with drugref__search_recalls")
    return rc


# -- formularies -------------------------------------------------------------------------------------------


class Formulary(Timestamped):
    """A plan's list of covered drugs."""

    id: FormularyId
    name: Title
    """Its name (2026 Employee Health Plan)."""
    plan_year: Annotated[int, Field(ge=2000, le=2100)]
    """The plan year it applies to."""
    owner_email: Email
    """The pharmacy benefit manager (an employee) who keeps it."""
    description: Text = ""
    """What it covers."""
    status: FormularyStatus = "draft"
    """draft, active (in force) or archived (frozen)."""


class Entry(Timestamped):
    """A drug covered by a formulary."""

    id: EntryId
    formulary_id: FormularyId
    """The formulary."""
    rxcui: Rxcui
    """The drug."""
    drug_name: str
    """Its name."""
    tier: Annotated[int, Field(ge=1, le=MAX_TIER)]
    """Cost-sharing tier: 1 preferred generic … 5 specialty."""
    prior_authorization: bool = False
    """Whether a prescriber must get approval first."""
    quantity_limit: Annotated[int, Field(ge=1, le=1000)] | None = None
    """Most units per 30 days, None for no limit."""
    status: EntryStatus = "covered"
    """covered, or suspended (under recall)."""
    suspension_reason: str = ""
    """Why it was suspended."""


def _owner(ctx: Ctx, email: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field="owner_email", hint="a formulary is kept by staff")


def _guard_formulary(ctx: Ctx, new: Formulary, old: Formulary | None) -> None:
    if old is None or new.owner_email != old.owner_email:
        _owner(ctx, new.owner_email)
    if old is not None and old.status == "archived" and new.status == "archived":
        raise RuleViolation(f"formulary {old.id} is archived", field="formulary_id", hint="create a new formulary")
    if new.status == "active" and (old is None or old.status != "active"):
        if not ctx.where(Entry, formulary_id=new.id):
            raise RuleViolation(
                f"formulary {new.id} lists no drugs",
                field="formulary_id",
                hint="add drugs with drugref__add_drug before publishing",
            )
        for other in ctx.where(Formulary, name=new.name, status="active"):
            if other.id != new.id:
                raise Conflict(
                    f"{other.id} named {new.name!r} is already active",
                    field="formulary_id",
                    hint="archive the active one first",
                )


def _guard_formulary_delete(ctx: Ctx, new: None, old: Formulary) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"formulary {old.id} is {old.status}; only a draft can be deleted",
            field="formulary_id",
            hint="archive it instead",
        )
    for e in ctx.where(Entry, formulary_id=old.id):
        ctx.delete(e)


def _editable(ctx: Ctx, formulary_id: str, field: str = "formulary_id") -> Formulary:
    f = ctx.get(Formulary, formulary_id, field=field)
    if f.status == "archived":
        raise RuleViolation(f"formulary {f.id} is archived", field=field, hint="archived formularies are frozen")
    return f


def _check_entry(d: _Drug, prior_authorization: bool) -> None:
    if d.schedule == "CII" and not prior_authorization:
        raise RuleViolation(
            f"{d.name} is schedule II: it needs prior authorisation",
            field="prior_authorization",
            hint="set prior_authorization to true",
        )


def _guard_entry(ctx: Ctx, new: Entry, old: Entry | None) -> None:
    _editable(ctx, new.formulary_id, "entry_id")
    _check_entry(_drug(new.rxcui), new.prior_authorization)


def _guard_entry_delete(ctx: Ctx, new: None, old: Entry) -> None:
    _editable(ctx, old.formulary_id, "entry_id")


formularies = service.resource(
    Formulary,
    name="formulary",
    plural="formularies",
    prefix="frm",
    create=("name", "plan_year", "owner_email", "description"),
    filters=("status", "plan_year", "owner_email"),
    search=("name", "description"),
    update=("name", "description", "owner_email"),
    transitions={
        "publish": Transition("status", ("draft",), "active", "publish the formulary"),
        "archive": Transition("status", ("active",), "archived", "archive the formulary", destructive=True),
    },
    guard_create=_guard_formulary,
    guard_update=_guard_formulary,
    guard_delete=_guard_formulary_delete,
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="fde",
    create=False,
    title="formulary entry",
    filters=("formulary_id", "rxcui", "tier", "status", "prior_authorization"),
    search=("drug_name",),
    update=("tier", "prior_authorization", "quantity_limit"),
    guard_update=_guard_entry,
    guard_delete=_guard_entry_delete,
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.scan(Formulary):
        if f.status != "archived":
            have = {e.rxcui for e in ctx.where(Entry, formulary_id=f.id)}
            free = [
                d for d in _DRUGS if d.rxcui not in have and d.schedule != "CII" and _recalled(ctx, d.rxcui) is None
            ]
            if free:
                return {"formulary_id": f.id, "rxcui": free[0].rxcui, "tier": 2}
    return None


@service.tool(intent="add a drug to the formulary", write=True, example=_example_add)
def add_drug(
    ctx: Ctx,
    formulary_id: FormularyId,
    rxcui: Rxcui,
    tier: Annotated[int, Field(ge=1, le=MAX_TIER)],
    prior_authorization: bool = False,
    quantity_limit: Annotated[int, Field(ge=1, le=1000)] | None = None,
) -> Entry:
    """Cover a drug on a formulary at a tier; a drug is listed once, and not while under a serious recall.

    Args:
        formulary_id: The formulary (draft or active).
        rxcui: The drug's RxCUI.
        tier: Cost-sharing tier, 1 (preferred generic) to 5 (specialty).
        prior_authorization: Whether prescribers need approval (required for schedule II).
        quantity_limit: Most units per 30 days.
    """
    f = _editable(ctx, formulary_id)
    d = _drug(rxcui)
    if ctx.first(Entry, formulary_id=f.id, rxcui=rxcui) is not None:
        raise Conflict(f"{d.name} is already on formulary {f.id}", field="rxcui", hint="update its entry instead")
    if len(ctx.where(Entry, formulary_id=f.id)) >= MAX_ENTRIES:
        raise RuleViolation(
            f"formulary {f.id} already lists {MAX_ENTRIES} drugs", field="formulary_id", hint="remove a drug first"
        )
    _check_entry(d, prior_authorization)
    rc = _recalled(ctx, rxcui)
    if rc is not None:
        raise RuleViolation(
            f"{d.name} is under {rc.classification} recall {rc.recall_number}",
            field="rxcui",
            hint="cover another drug of its class (drugref__get_related)",
        )
    return ctx.create(
        Entry,
        formulary_id=f.id,
        rxcui=rxcui,
        drug_name=d.name,
        tier=tier,
        prior_authorization=prior_authorization,
        quantity_limit=quantity_limit,
    )


class Coverage(BaseModel):
    """Whether a formulary covers a drug, and on what terms."""

    formulary_id: FormularyId = Field(description="The formulary.")
    rxcui: Rxcui = Field(description="The drug asked about.")
    covered: bool = Field(description="Whether it is covered (listed and not suspended).")
    entry: Entry | None = Field(description="Its entry, if listed.")
    alternatives: list[Entry] = Field(description="Covered drugs of the same class, lowest tier first.")


@service.tool(
    intent="check whether the formulary covers a drug",
    example=first_example(Formulary, "formulary_id", where={"status": "active"}, rxcui="197806"),
)
def check_coverage(ctx: Ctx, formulary_id: FormularyId, rxcui: Rxcui) -> Coverage:
    """Check a drug's coverage on a formulary: its tier and limits, or covered alternatives of its class.

    Args:
        formulary_id: The formulary.
        rxcui: The drug's RxCUI.
    """
    f = ctx.get(Formulary, formulary_id, field="formulary_id")
    d = _drug(rxcui)
    entry = ctx.first(Entry, formulary_id=f.id, rxcui=rxcui)
    alts = [
        e
        for e in ctx.where(Entry, formulary_id=f.id, status="covered")
        if e.rxcui != rxcui and _drug(e.rxcui).drug_class == d.drug_class
    ]
    return Coverage(
        formulary_id=f.id,
        rxcui=rxcui,
        covered=entry is not None and entry.status == "covered",
        entry=entry,
        alternatives=sorted(alts, key=lambda e: (e.tier, e.id)),
    )


@service.tool(
    intent="suspend the formulary's recalled drugs",
    write=True,
    example=first_example(Formulary, "formulary_id", where={"status": "active"}),
)
def apply_recalls(ctx: Ctx, formulary_id: FormularyId) -> list[Entry]:
    """Suspend every covered entry whose drug is under an ongoing Class I or II recall; returns those suspended.

    Args:
        formulary_id: The formulary (draft or active).
    """
    f = _editable(ctx, formulary_id)
    out = []
    for e in ctx.where(Entry, formulary_id=f.id, status="covered"):
        rc = _recalled(ctx, e.rxcui)
        if rc is not None:
            reason = f"{rc.classification} recall {rc.recall_number}: {rc.reason_for_recall}"
            out.append(ctx.update(e, status="suspended", suspension_reason=reason))
    return out


@service.tool(
    intent="reinstate the suspended formulary entry",
    write=True,
    example=first_example(
        Entry, "entry_id", where={"status": "suspended"}, match=lambda ctx, e: _recalled(ctx, e.rxcui) is None
    ),
)
def reinstate_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Cover a suspended entry again, once its drug's recall is no longer ongoing.

    Args:
        entry_id: The entry.
    """
    e = ctx.get(Entry, entry_id, field="entry_id")
    if e.status != "suspended":
        raise RuleViolation(f"entry {e.id} is {e.status}, not suspended", field="entry_id", hint="nothing to do")
    _editable(ctx, e.formulary_id, "entry_id")
    rc = _recalled(ctx, e.rxcui)
    if rc is not None:
        raise RuleViolation(
            f"recall {rc.recall_number} of {e.drug_name} is still ongoing",
            field="entry_id",
            hint="wait until the recall is completed or terminated",
        )
    return ctx.update(e, status="covered", suspension_reason="")


# -- seed --------------------------------------------------------------------------------------------------

_TIER1 = {"biguanide", "ace_inhibitor", "calcium_channel_blocker", "penicillin", "sulfonamide", "analgesic"}
_TIER3 = {"bronchodilator", "opioid", "benzodiazepine"}


@service.seeder
def seed(s: SeedContext) -> None:
    """The benefits team's formularies: last year's archived, this year's active (one drug suspended), next year's draft."""
    pop = s.population
    team = pop.staff("People", "Finance", fallback=3)
    year = s.now.date().year
    recalls = _recalls(pop.seed, s.now.date())
    serious = {rc.rxcui for rc in recalls.values() if rc.status == "Ongoing" and rc.classification != "Class III"}
    plans = ((year - 1, "archived", 400), (year, "active", 60), (year + 1, "draft", 5))
    for k, (plan_year, status, days) in enumerate(plans):
        owner = team[k % len(team)].email
        f = s.create(
            Formulary,
            name=f"{plan_year} {pop.home.name} Health Plan",
            plan_year=plan_year,
            owner_email=owner,
            status=status,
            description=f"Prescription drug list of the {plan_year} plan.",
            created_at=s.ago(days=days),
            updated_at=s.ago(days=max(1, days - 10)),
        )
        drugs = _DRUGS if status != "draft" else _DRUGS[:5]
        suspended_one = False
        for d in drugs:
            if d.otc:
                continue
            state: EntryStatus = "covered"
            reason = ""
            ended = next((rc for rc in recalls.values() if rc.rxcui == d.rxcui and rc.status != "Ongoing"), None)
            if status == "active" and ended is not None and d.rxcui not in serious:
                state = "suspended"
                reason = f"{ended.classification} recall {ended.recall_number}: {ended.reason_for_recall}"
            if d.rxcui in serious:
                if status == "active" and not suspended_one:
                    state, suspended_one = "suspended", True
                    rc = next(rc for rc in recalls.values() if rc.rxcui == d.rxcui)
                    reason = f"{rc.classification} recall {rc.recall_number}: {rc.reason_for_recall}"
                elif status == "draft":
                    continue
            s.create(
                Entry,
                formulary_id=f.id,
                rxcui=d.rxcui,
                drug_name=d.name,
                tier=1 if d.drug_class in _TIER1 else 3 if d.drug_class in _TIER3 else 2,
                prior_authorization=d.schedule != "none",
                quantity_limit=120 if d.schedule != "none" else None,
                status=state,
                suspension_reason=reason,
                created_at=s.ago(days=days),
                updated_at=s.ago(days=max(1, days - 10)),
            )
