"""Scriptline eRx: controlled-substance rules, safety alerts, refills, returns, transfers and renewals."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

RX = ServiceTools("pharmacy")
WORLD = RX.world
ok, refused, every = RX.ok, RX.refused, RX.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def med(ep: Episode, drug_class: str) -> dict[str, Any]:
    return every(ep, "list_medications", drug_class=drug_class)[0]


def clean_patient(ep: Episode) -> dict[str, Any]:
    """A patient without allergies or active prescriptions."""
    return dict(
        ok(
            ep,
            "create_patient",
            name="Robin Vale",
            email="robin.vale@inbox.io",
            phone="+14155550123",
            birth_date="1990-04-01",
            address={"street": "1 Elm Street", "city": "Berlin", "postal_code": "10115", "country": "DE"},
            allergies=["penicillin"],
            preferred_pharmacy_id=every(ep, "list_pharmacies", dispenses_controlled=True)[0]["id"],
        )
    )


def send(ep: Episode, patient: dict[str, Any], medication: dict[str, Any], **over: Any) -> dict[str, Any]:
    args = {
        "patient_id": patient["id"],
        "prescriber_id": every(ep, "list_prescribers")[0]["id"],
        "medication_id": medication["id"],
        "sig": "Take one tablet daily",
        "quantity": 30,
        "days_supply": 30,
        "refills": 2,
    }
    args.update(over)
    return args


def dea_prescriber(ep: Episode, has: bool) -> dict[str, Any]:
    return next(p for p in every(ep, "list_prescribers") if (p["dea_number"] is not None) == has)


# -- the world ------------------------------------------------------------------------------------


def test_prescribers_are_the_clinics_providers() -> None:
    both = service_world("clinic", "pharmacy")
    providers = {r.email: r for r in both.tables["clinic.providers"].records.values()}
    scribers = list(both.tables["pharmacy.prescribers"].records.values())
    assert len(scribers) == len(providers)
    for p in scribers:
        assert (providers[p.email].name, providers[p.email].npi) == (p.name, p.npi)
    patients = {r.email for r in both.tables["clinic.patients"].records.values()}
    shared = [r for r in both.tables["pharmacy.patients"].records.values() if r.email in patients]
    assert len(shared) >= 20


def test_seeded_refill_counts_follow_the_fills() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for pat in every(ep, "list_patients"):
        assert people[pat["email"]].birth_date.isoformat() == pat["birth_date"]
    for rx in every(ep, "list_prescriptions"):
        fills = [f for f in every(ep, "list_fills", prescription_id=rx["id"]) if f["status"] != "returned_to_stock"]
        assert rx["refills_used"] == max(0, len(fills) - 1) <= rx["refills_authorized"]
        assert (rx["status"] == "completed") == (rx["refills_used"] >= rx["refills_authorized"] and bool(fills))
        pharmacy = ok(ep, "get_pharmacy", pharmacy_id=rx["pharmacy_id"])
        assert all(f["currency"] == pharmacy["currency"] for f in fills)


# -- prescribing ----------------------------------------------------------------------------------


def test_controlled_substances_need_a_dea_prescriber_a_dispensing_pharmacy_and_few_refills(ep: Episode) -> None:
    pat = clean_patient(ep)
    oxy = every(ep, "list_medications", schedule="II")[0]
    no_dea, dea = dea_prescriber(ep, False), dea_prescriber(ep, True)
    refused(
        ep,
        "send_prescription",
        "rule_violation",
        "prescriber_id",
        **send(ep, pat, oxy, prescriber_id=no_dea["id"], refills=0),
    )
    refused(
        ep, "send_prescription", "rule_violation", "refills", **send(ep, pat, oxy, prescriber_id=dea["id"], refills=1)
    )
    plain = every(ep, "list_pharmacies", dispenses_controlled=False)[0]
    refused(
        ep,
        "send_prescription",
        "rule_violation",
        "pharmacy_id",
        **send(ep, pat, oxy, prescriber_id=dea["id"], refills=0, pharmacy_id=plain["id"]),
    )
    alprazolam = every(ep, "list_medications", schedule="IV")[0]
    refused(
        ep,
        "send_prescription",
        "rule_violation",
        "refills",
        **send(ep, pat, alprazolam, prescriber_id=dea["id"], refills=6),
    )
    rx = ok(ep, "send_prescription", **send(ep, pat, oxy, prescriber_id=dea["id"], refills=0, days_supply=7))
    assert rx["expires_on"] > rx["written_on"] and rx["pharmacy_id"] == pat["preferred_pharmacy_id"]
    assert rx["rx_number"].startswith("RX-")


def test_allergies_and_severe_interactions_block_unless_overridden(ep: Episode) -> None:
    pat = clean_patient(ep)
    amox = med(ep, "penicillin")
    alerts = ok(ep, "check_interactions", patient_id=pat["id"], medication_id=amox["id"])
    assert [(a["kind"], a["severity"]) for a in alerts] == [("allergy", "severe")]
    refused(ep, "send_prescription", "rule_violation", "medication_id", **send(ep, pat, amox))
    ok(ep, "send_prescription", **send(ep, pat, amox, override_reason="Desensitised in 2024"))
    warfarin = ok(ep, "send_prescription", **send(ep, pat, med(ep, "anticoagulant")))
    ibu = med(ep, "nsaid")
    [alert] = ok(ep, "check_interactions", patient_id=pat["id"], medication_id=ibu["id"])
    assert (alert["severity"], alert["with_prescription_id"]) == ("severe", warfarin["id"])
    refused(ep, "send_prescription", "rule_violation", "medication_id", **send(ep, pat, ibu))
    sertraline = ok(ep, "send_prescription", **send(ep, pat, med(ep, "ssri")))
    moderate = ok(ep, "check_interactions", patient_id=pat["id"], medication_id=med(ep, "triptan")["id"])
    assert [(a["severity"], a["with_prescription_id"]) for a in moderate] == [("moderate", sertraline["id"])]
    ok(ep, "send_prescription", **send(ep, pat, med(ep, "triptan")))


def test_a_patient_without_a_preferred_pharmacy_must_name_one(ep: Episode) -> None:
    pat = clean_patient(ep)
    ok(ep, "update_patient", patient_id=pat["id"], allergies=[])
    bare = ok(
        ep,
        "create_patient",
        name="Ari Stone",
        email="ari.stone@inbox.io",
        phone="+14155550124",
        birth_date="1985-01-01",
        address={"street": "2 Elm Street", "city": "Berlin", "postal_code": "10115", "country": "DE"},
    )
    refused(ep, "send_prescription", "rule_violation", "pharmacy_id", **send(ep, bare, med(ep, "thyroid")))
    refused(ep, "send_prescription", "rule_violation", "sig", **send(ep, pat, med(ep, "thyroid"), sig="  "))


# -- dispensing -------------------------------------------------------------------------------------


def test_fill_pick_up_and_refill_timing(ep: Episode) -> None:
    pat = clean_patient(ep)
    thyroid = med(ep, "thyroid")
    rx = ok(ep, "send_prescription", **send(ep, pat, thyroid, refills=1))
    fill = ok(ep, "fill_prescription", prescription_id=rx["id"])
    pharmacy = ok(ep, "get_pharmacy", pharmacy_id=rx["pharmacy_id"])
    rate = {"USD": 1.0, "EUR": 0.92, "GBP": 0.79, "CAD": 1.36, "SEK": 10.5, "AUD": 1.52, "SGD": 1.34, "BRL": 5.0}
    assert fill["fill_number"] == 0 and fill["status"] == "queued"
    if pharmacy["currency"] in rate:
        assert fill["price"] == round(thyroid["unit_price_usd"] * 30 * rate[pharmacy["currency"]])
    refused(ep, "fill_prescription", "conflict", "prescription_id", prescription_id=rx["id"])
    refused(ep, "pick_up_fill", "rule_violation", "fill_id", fill_id=fill["id"])
    ok(ep, "mark_ready_fill", fill_id=fill["id"])
    picked = ok(ep, "pick_up_fill", fill_id=fill["id"])
    assert picked["status"] == "picked_up" and picked["picked_up_at"] is not None
    msg = refused(ep, "fill_prescription", "rule_violation", "prescription_id", prescription_id=rx["id"])
    assert "too soon" in msg


def test_a_due_refill_uses_one_refill_and_the_last_completes_the_prescription(ep: Episode) -> None:
    due = None
    for rx in every(ep, "list_prescriptions", status="active"):
        res = ep.call("pharmacy__fill_prescription", {"prescription_id": rx["id"]})
        if res.ok and res.result["fill_number"] > 0:
            due = (rx, res.result)
            break
    assert due is not None
    rx, fill = due
    after = ok(ep, "get_prescription", prescription_id=rx["id"])
    assert after["refills_used"] == rx["refills_used"] + 1 == fill["fill_number"]
    assert (after["status"] == "completed") == (after["refills_used"] == after["refills_authorized"])


def test_returning_an_unclaimed_refill_gives_the_refill_back(ep: Episode) -> None:
    fill = next(f for f in every(ep, "list_fills", status="ready") if f["fill_number"] > 0)
    rx = ok(ep, "get_prescription", prescription_id=fill["prescription_id"])
    ok(ep, "return_to_stock_fill", fill_id=fill["id"])
    back = ok(ep, "get_prescription", prescription_id=rx["id"])
    assert back["refills_used"] == rx["refills_used"] - 1 and back["status"] == "active"


# -- transfers, cancellations and renewals ------------------------------------------------------------


def test_transfers_move_the_prescription_except_schedule_two_and_waiting_fills(ep: Episode) -> None:
    pat = clean_patient(ep)
    dea = dea_prescriber(ep, True)
    oxy = every(ep, "list_medications", schedule="II")[0]
    other = next(p for p in every(ep, "list_pharmacies") if p["id"] != pat["preferred_pharmacy_id"])
    ii = ok(ep, "send_prescription", **send(ep, pat, oxy, prescriber_id=dea["id"], refills=0, days_supply=7))
    refused(
        ep,
        "transfer_prescription",
        "rule_violation",
        "prescription_id",
        prescription_id=ii["id"],
        to_pharmacy_id=other["id"],
    )
    rx = ok(ep, "send_prescription", **send(ep, pat, med(ep, "thyroid")))
    ok(ep, "fill_prescription", prescription_id=rx["id"])
    refused(
        ep, "transfer_prescription", "conflict", "prescription_id", prescription_id=rx["id"], to_pharmacy_id=other["id"]
    )
    fresh = ok(ep, "send_prescription", **send(ep, pat, med(ep, "biguanide")))
    refused(
        ep,
        "transfer_prescription",
        "rule_violation",
        "to_pharmacy_id",
        prescription_id=fresh["id"],
        to_pharmacy_id=fresh["pharmacy_id"],
    )
    moved = ok(ep, "transfer_prescription", prescription_id=fresh["id"], to_pharmacy_id=other["id"])
    assert moved["pharmacy_id"] == other["id"]
    assert ok(ep, "fill_prescription", prescription_id=fresh["id"])["pharmacy_id"] == other["id"]


def test_cancelling_returns_waiting_fills_to_stock(ep: Episode) -> None:
    fill = every(ep, "list_fills", status="queued")[0]
    refused(ep, "cancel_prescription", "rule_violation", "reason", prescription_id=fill["prescription_id"], reason=" ")
    rx = ok(ep, "cancel_prescription", prescription_id=fill["prescription_id"], reason="Switched therapy")
    assert (rx["status"], rx["cancel_reason"]) == ("cancelled", "Switched therapy")
    assert ok(ep, "get_fill", fill_id=fill["id"])["status"] == "returned_to_stock"
    refused(ep, "fill_prescription", "rule_violation", "prescription_id", prescription_id=rx["id"])


def test_renewals_are_for_used_up_prescriptions_and_approval_sends_a_new_one(ep: Episode) -> None:
    active = next(
        r for r in every(ep, "list_prescriptions", status="active") if r["refills_used"] < r["refills_authorized"]
    )
    refused(ep, "request_renewal", "rule_violation", "prescription_id", prescription_id=active["id"])
    pending = every(ep, "list_renewal_requests", status="pending")[0]
    refused(ep, "request_renewal", "conflict", "prescription_id", prescription_id=pending["prescription_id"])
    refused(ep, "respond_to_renewal", "rule_violation", "note", renewal_request_id=pending["id"], approve=False)
    answer = ok(ep, "respond_to_renewal", renewal_request_id=pending["id"], approve=True, refills=3)
    assert answer["status"] == "approved"
    old = ok(ep, "get_prescription", prescription_id=pending["prescription_id"])
    new = ok(ep, "get_prescription", prescription_id=answer["new_prescription_id"])
    assert (new["medication_id"], new["patient_id"], new["pharmacy_id"]) == (
        old["medication_id"],
        old["patient_id"],
        old["pharmacy_id"],
    )
    assert (new["refills_authorized"], new["refills_used"], new["status"]) == (3, 0, "active")
    assert new["written_on"] == TODAY.isoformat()
    refused(
        ep, "respond_to_renewal", "rule_violation", "renewal_request_id", renewal_request_id=pending["id"], approve=True
    )
