"""Paystream Payroll: pay periods, calculated gross-to-net, submit deadlines, final paid payrolls."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PAYROLL = ServiceTools("payroll")
WORLD = PAYROLL.world
ok, refused, every = PAYROLL.ok, PAYROLL.refused, PAYROLL.every
POP = WORLD.population


def schedule(ep: Episode, frequency: str) -> dict[str, Any]:
    return dict(every(ep, "list_pay_schedules", frequency=frequency, active=True)[0])


def payroll_by_status(ep: Episode, status: str, off_cycle: bool = False) -> dict[str, Any]:
    return dict(every(ep, "list_payrolls", status=status, off_cycle=off_cycle)[0])


def salaried(ep: Episode, method: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    for emp in every(ep, "list_employees", terminated=False):
        comps = every(ep, "list_compensations", employee_id=emp["id"])
        latest = max(comps, key=lambda c: c["effective_date"])
        if latest["payment_unit"] == "year" and (method is None or emp["payment_method"] == method):
            return emp, latest
    raise AssertionError("no salaried employee")


def hourly(ep: Episode) -> dict[str, Any]:
    for emp in every(ep, "list_employees", terminated=False):
        if every(ep, "list_compensations", employee_id=emp["id"], payment_unit="hour"):
            return emp
    raise AssertionError("no hourly employee")


# -- the world ------------------------------------------------------------------------------


def test_employees_are_the_home_staff() -> None:
    ep = Episode(WORLD)
    emps = every(ep, "list_employees")
    staff = {p.email: p for p in POP.employees}
    assert {e["email"] for e in emps} == set(staff)
    for e in emps:
        p = staff[e["email"]]
        assert (e["first_name"], e["last_name"], e["hire_date"]) == (p.first_name, p.last_name, p.hire_date.isoformat())
    assert all(e["bank_account"] for e in emps if e["payment_method"] == "direct_deposit")


def test_seeded_payroll_totals_are_the_sum_of_their_lines_and_stubs() -> None:
    ep = Episode(WORLD)
    for p in every(ep, "list_payrolls"):
        if p["status"] == "open":
            continue
        lines = [i for i in every(ep, "list_payroll_items", payroll_id=p["id"]) if not i["excluded"]]
        assert p["gross_pay"] == sum(i["gross_pay"] for i in lines)
        assert p["net_pay"] == sum(i["net_pay"] for i in lines)
        assert p["company_debit"] == p["gross_pay"] + p["employer_taxes"] + p["reimbursements"]
        if p["status"] == "processed":
            stubs = every(ep, "list_pay_stubs", payroll_id=p["id"])
            assert sum(s["net_pay"] for s in stubs) == p["net_pay"]
            assert {s["employee_id"] for s in stubs} == {i["employee_id"] for i in lines}


# -- regular payrolls -----------------------------------------------------------------------


def test_the_next_regular_payroll_follows_the_last_pay_period(ep: Episode) -> None:
    sched = schedule(ep, "biweekly")
    last = max(p["pay_period_end"] for p in every(ep, "list_payrolls", pay_schedule_id=sched["id"]))
    payroll = ok(ep, "create_payroll", pay_schedule_id=sched["id"])
    assert (last, payroll["pay_period_start"], payroll["pay_period_end"]) == ("2026-02-15", "2026-02-16", "2026-03-01")
    assert (payroll["check_date"], payroll["status"]) == ("2026-03-06", "open")
    lines = every(ep, "list_payroll_items", payroll_id=payroll["id"])
    current = [e for e in every(ep, "list_employees", pay_schedule_id=sched["id"]) if not e["terminated"]]
    assert {i["employee_id"] for i in lines} >= {e["id"] for e in current}
    emp = hourly(ep)
    line = next(i for i in lines if i["employee_id"] == emp["id"])
    assert line["regular_hours"] == 80  # 10 weekdays of 8 hours
    refused(ep, "create_payroll", "conflict", "pay_schedule_id", pay_schedule_id=sched["id"])


def test_an_inactive_schedule_takes_no_payroll(ep: Episode) -> None:
    retired = every(ep, "list_pay_schedules", active=False)[0]
    refused(ep, "create_payroll", "rule_violation", "pay_schedule_id", pay_schedule_id=retired["id"])


def test_calculation_gives_salary_share_taxes_and_net(ep: Episode) -> None:
    sched = schedule(ep, "biweekly")
    payroll = ok(ep, "create_payroll", pay_schedule_id=sched["id"])
    emp = next(
        e
        for e in every(ep, "list_employees", pay_schedule_id=sched["id"], terminated=False)
        if max(every(ep, "list_compensations", employee_id=e["id"]), key=lambda c: c["effective_date"])["payment_unit"]
        == "year"
    )
    comp = max(every(ep, "list_compensations", employee_id=emp["id"]), key=lambda c: c["effective_date"])
    calc = ok(ep, "calculate_payroll", payroll_id=payroll["id"])
    assert calc["status"] == "calculated"
    line = every(ep, "list_payroll_items", payroll_id=payroll["id"], employee_id=emp["id"])[0]
    deds = every(ep, "list_deductions", employee_id=emp["id"], active=True)
    pre = sum(d["amount_per_paycheck"] for d in deds if d["pre_tax"])
    post = sum(d["amount_per_paycheck"] for d in deds if not d["pre_tax"])
    gross = comp["rate"] // 26
    taxable = gross - pre
    rate = {"single": 1200, "married": 900, "head_of_household": 1000}[emp["filing_status"]]

    def bp(x: int, b: int) -> int:
        return (x * b + 5000) // 10000

    taxes = bp(taxable, rate) + emp["extra_withholding"] + bp(taxable, 620) + bp(taxable, 145)
    assert (line["gross_pay"], line["pre_tax_deductions"], line["employee_taxes"]) == (gross, pre, taxes)
    assert line["net_pay"] == gross - pre - taxes - post + line["reimbursement"]
    lines = [i for i in every(ep, "list_payroll_items", payroll_id=payroll["id"]) if not i["excluded"]]
    assert calc["gross_pay"] == sum(i["gross_pay"] for i in lines)
    assert calc["net_pay"] == sum(i["net_pay"] for i in lines)


def test_submitting_needs_a_calculated_payroll_and_then_it_is_final(ep: Episode) -> None:
    sched = schedule(ep, "biweekly")
    payroll = ok(ep, "create_payroll", pay_schedule_id=sched["id"])
    msg = refused(ep, "submit_payroll", "rule_violation", "payroll_id", payroll_id=payroll["id"])
    assert "calculate" in msg or "open" in msg
    ok(ep, "calculate_payroll", payroll_id=payroll["id"])
    done = ok(ep, "submit_payroll", payroll_id=payroll["id"])
    assert done["status"] == "processed" and done["processed_at"] is not None
    stubs = every(ep, "list_pay_stubs", payroll_id=payroll["id"])
    assert sum(s["net_pay"] for s in stubs) == done["net_pay"]
    refused(ep, "submit_payroll", "conflict", "payroll_id", payroll_id=payroll["id"])
    line = every(ep, "list_payroll_items", payroll_id=payroll["id"])[0]
    refused(ep, "update_payroll_item", "rule_violation", "payroll_item_id", payroll_item_id=line["id"], bonus=100)


def test_editing_a_calculated_payroll_sends_it_back_to_open(ep: Episode) -> None:
    payroll = payroll_by_status(ep, "calculated")
    line = every(ep, "list_payroll_items", payroll_id=payroll["id"], excluded=False)[0]
    ok(ep, "update_payroll_item", payroll_item_id=line["id"], bonus=50_000)
    assert ok(ep, "get_payroll", payroll_id=payroll["id"])["status"] == "open"
    refused(ep, "submit_payroll", "rule_violation", "payroll_id", payroll_id=payroll["id"])
    again = ok(ep, "calculate_payroll", payroll_id=payroll["id"])
    assert again["gross_pay"] == payroll["gross_pay"] + 50_000


def test_overtime_and_hours_follow_the_employees_pay_type(ep: Episode) -> None:
    payroll = payroll_by_status(ep, "calculated")
    lines = every(ep, "list_payroll_items", payroll_id=payroll["id"])
    salaried_line = next(
        i
        for i in lines
        if every(ep, "list_compensations", employee_id=i["employee_id"], payment_unit="hour") == []
        and not i["excluded"]
    )
    refused(
        ep,
        "update_payroll_item",
        "rule_violation",
        "overtime_hours",
        payroll_item_id=salaried_line["id"],
        overtime_hours=4,
    )
    refused(
        ep,
        "update_payroll_item",
        "rule_violation",
        "regular_hours",
        payroll_item_id=salaried_line["id"],
        regular_hours=8,
    )


def test_direct_deposits_need_two_days_of_lead_time(ep: Episode) -> None:
    emp, _ = salaried(ep, "direct_deposit")
    tomorrow = "2026-03-03"
    payroll = ok(
        ep,
        "create_off_cycle_payroll",
        reason="bonus",
        check_date=tomorrow,
        employee_emails=[emp["email"]],
        bonus=80_000,
    )
    calc = ok(ep, "calculate_payroll", payroll_id=payroll["id"])
    assert calc["gross_pay"] == 80_000 and calc["deductions"] == 0
    msg = refused(ep, "submit_payroll", "rule_violation", "payroll_id", payroll_id=payroll["id"])
    assert "2026-03-01" in msg
    ok(ep, "cancel_payroll", payroll_id=payroll["id"])
    later = ok(
        ep,
        "create_off_cycle_payroll",
        reason="bonus",
        check_date="2026-03-06",
        employee_emails=[emp["email"]],
        bonus=80_000,
    )
    ok(ep, "calculate_payroll", payroll_id=later["id"])
    stub_payroll = ok(ep, "submit_payroll", payroll_id=later["id"])
    stub = every(ep, "list_pay_stubs", payroll_id=stub_payroll["id"])[0]
    assert (stub["email"], stub["bank_account"], stub["gross_pay"]) == (emp["email"], emp["bank_account"], 80_000)


def test_a_paid_payroll_cannot_be_cancelled_but_an_early_one_can(ep: Episode) -> None:
    processed = every(ep, "list_payrolls", status="processed", off_cycle=False)
    paid = next(p for p in processed if p["check_date"] < "2026-03-02")
    refused(ep, "cancel_payroll", "rule_violation", "payroll_id", payroll_id=paid["id"])
    early = next(p for p in processed if p["check_date"] >= "2026-03-04")
    done = ok(ep, "cancel_payroll", payroll_id=early["id"])
    assert done["status"] == "cancelled"
    assert all(s["voided"] for s in every(ep, "list_pay_stubs", payroll_id=early["id"]))
    refused(ep, "cancel_payroll", "conflict", "payroll_id", payroll_id=early["id"])


def test_net_pay_cannot_go_negative(ep: Episode) -> None:
    payroll = payroll_by_status(ep, "calculated")
    line = every(ep, "list_payroll_items", payroll_id=payroll["id"], excluded=False)[0]
    ok(ep, "create_deduction", employee_id=line["employee_id"], name="Garnishment", amount_per_paycheck=9_000_000)
    refused(ep, "calculate_payroll", "rule_violation", "payroll_id", payroll_id=payroll["id"])


def test_compensation_rules(ep: Episode) -> None:
    emp, comp = salaried(ep)
    refused(
        ep,
        "create_compensation",
        "rule_violation",
        "flsa_status",
        employee_id=emp["id"],
        rate=3_000,
        payment_unit="hour",
        flsa_status="exempt",
        effective_date="2026-04-01",
    )
    refused(
        ep,
        "create_compensation",
        "conflict",
        "effective_date",
        employee_id=emp["id"],
        rate=comp["rate"] + 100_000,
        payment_unit="year",
        flsa_status="exempt",
        effective_date=comp["effective_date"],
    )
    raised = ok(
        ep,
        "create_compensation",
        employee_id=emp["id"],
        rate=comp["rate"] + 520_000,
        payment_unit="year",
        flsa_status="exempt",
        effective_date="2026-03-01",
    )
    preview = ok(ep, "preview_paycheck", employee_id=emp["id"])
    sched = ok(ep, "get_pay_schedule", pay_schedule_id=emp["pay_schedule_id"])
    per_year = {"biweekly": 26, "semimonthly": 24}[sched["frequency"]]
    assert preview["gross_pay"] == raised["rate"] // per_year


def test_terminating_excludes_later_payrolls_and_freezes_the_employee(ep: Episode) -> None:
    sched = schedule(ep, "biweekly")
    payroll = ok(ep, "create_payroll", pay_schedule_id=sched["id"])
    line = every(ep, "list_payroll_items", payroll_id=payroll["id"])[0]
    emp = ok(ep, "get_employee", employee_id=line["employee_id"])
    refused(
        ep,
        "terminate_employee",
        "rule_violation",
        "termination_date",
        employee_id=emp["id"],
        termination_date="2001-01-01",
    )
    gone = ok(ep, "terminate_employee", employee_id=emp["id"], termination_date="2026-02-13")
    assert gone["terminated"]
    assert every(ep, "list_payroll_items", payroll_id=payroll["id"], employee_id=emp["id"])[0]["excluded"]
    assert not every(ep, "list_deductions", employee_id=emp["id"], active=True)
    refused(ep, "terminate_employee", "conflict", "employee_id", employee_id=emp["id"], termination_date="2026-02-13")
    refused(ep, "update_employee", "rule_violation", "employee_id", employee_id=emp["id"], job_title="Advisor")
    refused(
        ep,
        "create_off_cycle_payroll",
        "rule_violation",
        "employee_emails.0",
        reason="bonus",
        check_date="2026-03-10",
        employee_emails=[emp["email"]],
        bonus=1_000,
    )
    final = ok(
        ep, "create_off_cycle_payroll", reason="termination", check_date="2026-03-10", employee_emails=[emp["email"]]
    )
    assert final["off_cycle_reason"] == "termination"


def test_off_cycle_payrolls_pay_known_employees_only(ep: Episode) -> None:
    refused(
        ep,
        "create_off_cycle_payroll",
        "rule_violation",
        "employee_emails.0",
        reason="bonus",
        check_date="2026-03-10",
        employee_emails=["nobody@example.com"],
        bonus=1_000,
    )
    emp, _ = salaried(ep)
    refused(
        ep,
        "create_off_cycle_payroll",
        "rule_violation",
        "check_date",
        reason="bonus",
        check_date="2026-02-01",
        employee_emails=[emp["email"]],
        bonus=1_000,
    )


def test_direct_deposit_needs_a_bank_account(ep: Episode) -> None:
    sched = schedule(ep, "biweekly")
    base = dict(
        first_name="Noor",
        last_name="Haddad",
        email="noor.haddad@example.com",
        job_title="Analyst",
        hire_date="2026-03-16",
        pay_schedule_id=sched["id"],
    )
    refused(ep, "create_employee", "rule_violation", "bank_account", payment_method="direct_deposit", **base)
    retired = every(ep, "list_pay_schedules", active=False)[0]
    refused(ep, "create_employee", "rule_violation", "pay_schedule_id", **{**base, "pay_schedule_id": retired["id"]})
    hired = ok(ep, "create_employee", payment_method="direct_deposit", bank_account="US99PAYS000123", **base)
    assert hired["terminated"] is False
    refused(ep, "update_pay_schedule", "rule_violation", "active", pay_schedule_id=sched["id"], active=False)
