"""Ledgerline Planning: version approval and locking, plan edits, actuals imports, variances, reforecasts, scenarios."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FPA = ServiceTools("fpa")
WORLD = FPA.world
ok, refused, every = FPA.ok, FPA.refused, FPA.every
POP = WORLD.population
YEAR = WORLD.epoch.year
THIS_MONTH = WORLD.epoch.strftime("%Y-%m")
FIN = [p.email for p in POP.staff("Finance", fallback=3)]
REVENUE = {"4000", "4100"}


def model(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_planning_models", status="active")[0]


def version(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_versions", status=status)[0]


def totals(ep: Episode, version_id: str) -> dict[tuple[str, str, str], int]:
    lines = every(ep, "list_plan_lines", version_id=version_id)
    return {(x["department"], x["account_code"], x["period"]): x["amount"] for x in lines}


def test_seeding_uses_the_company_departments_finance_staff_and_closed_months(ep: Episode) -> None:
    m = model(ep)
    assert m["owner_email"] in FIN and m["fiscal_year"] == YEAR
    assert set(m["departments"]) <= {p.department for p in POP.employees}
    assert {v["status"] for v in every(ep, "list_versions")} == {"draft", "submitted", "approved", "locked"}
    months = sorted(i["period"] for i in every(ep, "list_actuals_imports", model_id=m["id"], status="loaded"))
    assert months == [f"{YEAR}-{k:02d}" for k in range(1, WORLD.epoch.month)]
    assert all(v["submitted_by"] != v["approved_by"] for v in every(ep, "list_versions", status="locked"))


def test_only_drafts_are_edited_within_the_models_departments_and_year(ep: Episode) -> None:
    draft, locked = version(ep, "draft"), version(ep, "locked")
    cell = {"department": "Sales", "account_code": "6300", "period": f"{YEAR}-11"}
    refused(ep, "set_plan_amount", "rule_violation", "version_id", version_id=locked["id"], amount=1, **cell)
    refused(
        ep,
        "set_plan_amount",
        "rule_violation",
        "department",
        version_id=draft["id"],
        amount=1,
        **(cell | {"department": "People"}),
    )
    refused(
        ep,
        "set_plan_amount",
        "rule_violation",
        "period",
        version_id=draft["id"],
        amount=1,
        **(cell | {"period": f"{YEAR + 1}-01"}),
    )
    before = len(every(ep, "list_plan_lines", version_id=draft["id"]))
    first = ok(ep, "set_plan_amount", version_id=draft["id"], amount=5_000_00, **cell)
    again = ok(ep, "set_plan_amount", version_id=draft["id"], amount=7_000_00, **cell)
    assert first["id"] == again["id"] and again["amount"] == 7_000_00
    assert len(every(ep, "list_plan_lines", version_id=draft["id"])) == before


def test_a_version_is_submitted_reviewed_approved_by_someone_else_and_locked(ep: Episode) -> None:
    v = version(ep, "draft")
    sub = ok(ep, "submit_version", version_id=v["id"], submitted_by=FIN[0])
    assert sub["status"] == "submitted"
    refused(ep, "approve_version", "rule_violation", "approved_by", version_id=v["id"], approved_by=FIN[0])
    refused(ep, "approve_version", "rule_violation", "approved_by", version_id=v["id"], approved_by="cfo@else.io")
    refused(ep, "send_back_version", "rule_violation", "comment", version_id=v["id"], comment=" ")
    back = ok(ep, "send_back_version", version_id=v["id"], comment="Cut travel by 10%.")
    assert (back["status"], back["review_comment"], back["submitted_by"]) == ("draft", "Cut travel by 10%.", None)
    ok(ep, "submit_version", version_id=v["id"], submitted_by=FIN[0])
    assert ok(ep, "approve_version", version_id=v["id"], approved_by=FIN[1])["status"] == "approved"
    refused(ep, "lock_version", "rule_violation", "version_id", version_id=version(ep, "submitted")["id"])
    assert ok(ep, "lock_version", version_id=v["id"])["status"] == "locked"
    refused(ep, "lock_version", "rule_violation", "version_id", version_id=v["id"])


def test_a_model_keeps_one_approved_budget_and_empty_versions_are_not_submitted(ep: Episode) -> None:
    m = model(ep)
    budget = version(ep, "locked")
    refused(ep, "create_version", "conflict", "name", model_id=m["id"], name=budget["name"])
    v = ok(ep, "create_version", model_id=m["id"], name="Budget v2", kind="budget")
    refused(ep, "submit_version", "rule_violation", "version_id", version_id=v["id"], submitted_by=FIN[0])
    ok(
        ep,
        "set_plan_amount",
        version_id=v["id"],
        department="Sales",
        account_code="4000",
        period=f"{YEAR}-06",
        amount=1_000_00,
    )
    ok(ep, "submit_version", version_id=v["id"], submitted_by=FIN[0])
    refused(ep, "approve_version", "conflict", "version_id", version_id=v["id"], approved_by=FIN[1])


def test_actuals_load_once_per_closed_month_unless_replaced(ep: Episode) -> None:
    m = model(ep)
    who = FIN[0]
    row = {"department": "Sales", "account_code": "6000", "amount": 170_000_00}
    refused(
        ep,
        "import_actuals",
        "rule_violation",
        "period",
        model_id=m["id"],
        period=THIS_MONTH,
        rows=[row],
        imported_by=who,
    )
    done = every(ep, "list_actuals_imports", model_id=m["id"], status="loaded")[0]
    args = {"model_id": m["id"], "period": done["period"], "imported_by": who}
    refused(ep, "import_actuals", "conflict", "period", rows=[row], **args)
    refused(ep, "import_actuals", "rule_violation", "rows", rows=[row, row], replace=True, **args)
    new = ok(ep, "import_actuals", rows=[row], replace=True, **args)
    assert ok(ep, "get_actuals_import", actuals_import_id=done["id"])["status"] == "replaced"
    [only] = every(ep, "list_actuals", model_id=m["id"], period=done["period"])
    assert (only["amount"], only["import_id"]) == (170_000_00, new["id"])


def test_the_variance_report_compares_plan_and_actuals_over_imported_months(ep: Episode) -> None:
    m, budget = model(ep), version(ep, "locked")
    rep = ok(ep, "variance_report", version_id=budget["id"], department="Sales")
    assert rep["periods"] == [f"{YEAR}-{k:02d}" for k in range(1, WORLD.epoch.month)]
    plan = totals(ep, budget["id"])
    acts = [a for a in every(ep, "list_actuals", model_id=m["id"], department="Sales")]
    for line in rep["lines"]:
        code = line["account_code"]
        assert line["plan"] == sum(
            v for (d, c, p), v in plan.items() if d == "Sales" and c == code and p in rep["periods"]
        )
        assert line["actual"] == sum(a["amount"] for a in acts if a["account_code"] == code)
        better = line["actual"] >= line["plan"] if code in REVENUE else line["actual"] <= line["plan"]
        assert line["favorable"] == better and line["variance"] == line["actual"] - line["plan"]
    sign = {ln["account_code"]: 1 if ln["account_code"] in REVENUE else -1 for ln in rep["lines"]}
    assert rep["net_income_actual"] == sum(sign[ln["account_code"]] * ln["actual"] for ln in rep["lines"])


def test_a_reforecast_takes_actuals_for_closed_months_and_the_plan_after(ep: Episode) -> None:
    m, budget = model(ep), version(ep, "locked")
    last = f"{YEAR}-{WORLD.epoch.month - 1:02d}"
    refused(
        ep,
        "create_reforecast",
        "rule_violation",
        "actuals_through",
        version_id=budget["id"],
        name="RF",
        actuals_through=THIS_MONTH,
    )
    rf = ok(ep, "create_reforecast", version_id=budget["id"], name="Reforecast", actuals_through=last)
    assert (rf["status"], rf["kind"], rf["based_on_id"], rf["actuals_through"]) == (
        "draft",
        "forecast",
        budget["id"],
        last,
    )
    got, src = totals(ep, rf["id"]), totals(ep, budget["id"])
    for a in every(ep, "list_actuals", model_id=m["id"]):
        assert got[(a["department"], a["account_code"], a["period"])] == a["amount"]
    later = {k: v for k, v in src.items() if k[2] > last}
    assert {k: v for k, v in got.items() if k[2] > last} == later


def test_a_scenario_scales_only_the_chosen_side(ep: Episode) -> None:
    budget = version(ep, "locked")
    base = {"version_id": budget["id"], "name": "Downside"}
    refused(ep, "create_scenario", "rule_violation", "change_percent", applies_to="revenue", change_percent=0, **base)
    sc = ok(ep, "create_scenario", applies_to="revenue", change_percent=-10, **base)
    assert (sc["kind"], sc["status"]) == ("scenario", "draft")
    got, src = totals(ep, sc["id"]), totals(ep, budget["id"])
    assert got.keys() == src.keys()
    for key, amount in src.items():
        assert got[key] == (round(amount * 0.9) if key[1] in REVENUE else amount)


def test_drafts_are_deleted_with_their_lines_and_archived_models_take_no_versions(ep: Episode) -> None:
    draft, locked = version(ep, "draft"), version(ep, "locked")
    refused(ep, "delete_version", "rule_violation", "version_id", version_id=locked["id"])
    everything = len(every(ep, "list_plan_lines"))
    mine = len(every(ep, "list_plan_lines", version_id=draft["id"]))
    ok(ep, "delete_version", version_id=draft["id"])
    assert mine and len(every(ep, "list_plan_lines")) == everything - mine
    m = model(ep)
    ok(ep, "archive_planning_model", planning_model_id=m["id"])
    refused(ep, "create_version", "rule_violation", "model_id", model_id=m["id"], name="Late")
    refused(ep, "copy_version", "rule_violation", "model_id", version_id=locked["id"], name="Late copy")


def test_a_model_needs_an_employee_owner_and_keeps_departments_that_hold_plans(ep: Episode) -> None:
    m = model(ep)
    refused(
        ep,
        "create_planning_model",
        "rule_violation",
        "owner_email",
        name="FY+1",
        fiscal_year=YEAR + 1,
        departments=["Sales"],
        owner_email="x@y.io",
    )
    refused(
        ep,
        "create_planning_model",
        "rule_violation",
        "departments",
        name="FY+1",
        fiscal_year=YEAR + 1,
        departments=["Sales", "Sales"],
        owner_email=FIN[0],
    )
    refused(
        ep, "update_planning_model", "rule_violation", "departments", planning_model_id=m["id"], departments=["Sales"]
    )
    copy = ok(ep, "copy_version", version_id=version(ep, "locked")["id"], name="Working copy")
    assert (copy["status"], copy["kind"]) == ("draft", "forecast")
    assert totals(ep, copy["id"]) == totals(ep, version(ep, "locked")["id"])
