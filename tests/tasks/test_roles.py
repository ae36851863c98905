"""Value roles: whose value a result field holds and which roles a parameter accepts."""

from __future__ import annotations

import pytest

from compoworld import Catalog, Episode, World
from compoworld.engine.tools import Tool
from compoworld.tasks import roles
from compoworld.tasks.graph import input_ports, normalise_path, output_ports
from compoworld.tasks.roles import (
    ALL_ROLES,
    ROLE_BEARING,
    ROLES,
    decide_role,
    input_roles,
    output_role,
    role_coverage,
    role_fits,
)


def _tool(catalog: Catalog, name: str) -> Tool:
    return catalog.tools[name]


def test_a_crm_leads_email_and_company_are_a_customers(catalog: Catalog) -> None:
    lead = _tool(catalog, "crm__get_lead")
    assert output_role(lead, "email") == "customer"
    assert output_role(lead, "company") == "customer"
    assert output_role(_tool(catalog, "crm__list_leads"), "items[].email") == "customer"


def test_an_inventory_items_supplier_email_takes_a_vendor_and_refuses_a_customer(catalog: Catalog) -> None:
    accepted = input_roles(_tool(catalog, "inventory__update_item"), "supplier_email")
    assert accepted == frozenset({"vendor"})
    assert role_fits("vendor", accepted)
    lead_email = output_role(_tool(catalog, "crm__get_lead"), "email")
    assert lead_email is not None
    assert not role_fits(lead_email, accepted)


def test_a_procurement_suppliers_contact_fits_an_inventory_items_supplier(catalog: Catalog) -> None:
    contact = output_role(_tool(catalog, "procurement__create_supplier"), "contact_email")
    accepted = input_roles(_tool(catalog, "inventory__update_item"), "supplier_email")
    assert contact is not None and accepted is not None
    assert role_fits(contact, accepted)


@pytest.mark.parametrize("slot", ["to[]", "cc[]", "bcc[]"])
def test_a_mails_recipients_accept_employees_and_customers(catalog: Catalog, slot: str) -> None:
    accepted = input_roles(_tool(catalog, "mail__send_message"), slot)
    assert accepted is not None
    assert {"employee", "customer", "vendor"} <= accepted


def test_an_hr_employees_fields_are_an_employees(catalog: Catalog) -> None:
    employee = _tool(catalog, "hr__get_employee")
    for path in ("work_email", "work_phone", "home_address", "first_name", "job_title"):
        assert output_role(employee, path) == "employee", path
    assert output_role(_tool(catalog, "hr__list_employees"), "items[].work_email") == "employee"


def test_owners_are_employees_and_owner_slots_take_only_employees(catalog: Catalog) -> None:
    # CRM opportunities name no owner e-mail; accounts and dealflow deals do.
    assert output_role(_tool(catalog, "crm__get_account"), "owner_email") == "employee"
    assert output_role(_tool(catalog, "dealflow__get_deal"), "owner_email") == "employee"
    accepted = input_roles(_tool(catalog, "crm__create_account"), "owner_email")
    assert accepted == frozenset({"employee"})
    assert not role_fits("customer", accepted)


def test_indexed_paths_are_normalised(catalog: Catalog) -> None:
    assert normalise_path("items[0].email") == "items[].email"
    assert normalise_path("lines[12].items[3].email") == "lines[].items[].email"
    assert normalise_path("to[]") == "to[]"
    leads = _tool(catalog, "crm__list_leads")
    assert output_role(leads, "items[7].email") == "customer"
    assert input_roles(_tool(catalog, "mail__send_message"), "to[0]") == ALL_ROLES


def test_ports_that_bear_no_role_give_none(catalog: Catalog) -> None:
    leads = _tool(catalog, "crm__list_leads")
    typed = {p.path: p.semantic for p in output_ports(leads)}
    plain = next(path for path, semantic in typed.items() if semantic not in ROLE_BEARING)
    assert output_role(leads, plain) is None
    assert output_role(leads, "no_such_field") is None
    assert input_roles(_tool(catalog, "mail__send_message"), "subject") is None
    decision = decide_role(leads, plain, is_input=False)
    assert (decision.role, decision.accepted, decision.rule) == (None, None, "unknown")


def test_role_fits_is_membership() -> None:
    assert role_fits("employee", frozenset({"employee", "customer"}))
    assert not role_fits("patient", frozenset({"employee", "customer"}))
    assert not role_fits("employee", frozenset())
    assert all(role_fits(role, ALL_ROLES) for role in ROLES)


def test_each_rule_decides_where_it_should(catalog: Catalog) -> None:
    # "lead" names a customer in sales tools, but a tracker project's lead is one of the staff.
    lead = decide_role(_tool(catalog, "tracker__list_projects"), "items[].lead_email", is_input=False)
    assert (lead.role, lead.rule) == ("employee", "override")
    owner = decide_role(_tool(catalog, "crm__get_account"), "owner_email", is_input=False)
    assert (owner.role, owner.rule) == ("employee", "name")
    # Live chat holds customers, but its admins are the home company's agents.
    admin = decide_role(_tool(catalog, "livechat__list_admins"), "items[].email", is_input=False)
    assert (admin.role, admin.rule) == ("employee", "resource")
    payroll = decide_role(_tool(catalog, "payroll__get_employee"), "email", is_input=False)
    assert (payroll.role, payroll.rule) == ("employee", "service")


def test_roles_found_by_reading_the_services(catalog: Catalog) -> None:
    # Received mail comes mostly from customers; a search by sender may also name a colleague.
    assert output_role(_tool(catalog, "mail__get_message"), "from_email") == "customer"
    # A help desk ticket's requester is a customer; a service desk caller is staff.
    assert input_roles(_tool(catalog, "helpdesk__create_ticket"), "requester_email") == frozenset({"customer"})
    assert output_role(_tool(catalog, "servicedesk__get_incident"), "caller_email") == "employee"
    # The home company's training is for its staff, not students.
    assert output_role(_tool(catalog, "training__list_learners"), "items[].email") == "employee"
    # A campaign's reply-to address is the home company's own, not a recipient slot.
    assert input_roles(_tool(catalog, "campaigns__create_campaign"), "reply_to") == frozenset({"employee"})
    # A payout's recipient is a payee, not a message's recipient.
    assert input_roles(_tool(catalog, "payouts__list_payouts"), "recipient_email") == frozenset({"vendor"})
    assert output_role(_tool(catalog, "clinic__get_patient"), "email") == "patient"
    assert output_role(_tool(catalog, "recruiting__get_candidate"), "email") == "candidate"


def test_every_role_is_described_and_every_table_entry_is_live(catalog: Catalog) -> None:
    seen: set[str] = set()
    keys: set[str] = set()
    for tool in catalog.tools.values():
        for is_input, ports in ((True, input_ports(tool)), (False, output_ports(tool))):
            for port in ports:
                if port.semantic not in ROLE_BEARING:
                    continue
                decision = decide_role(tool, port.path, is_input=is_input)
                if decision.role is not None:
                    seen.add(decision.role)
                if decision.accepted is not None:
                    assert decision.accepted <= ALL_ROLES, (tool.name, port.path)
                    assert decision.accepted, (tool.name, port.path)
                    seen |= decision.accepted
                field = roles._resource_field(tool, port.path)
                keys |= {f"{tool.name}:{port.path}", f"{tool.resource}:{field}", f"{tool.service}:{field}"}
    assert seen <= set(ROLES)
    # An override that matches no port is a typo or a renamed field: it silently stops working.
    assert sorted(k for k in roles._OVERRIDES if k not in keys) == []
    resources = {t.resource for t in catalog.tools.values()}
    assert sorted(set(roles._RESOURCE_ROLES) - resources) == []
    assert sorted(set(roles._SERVICE_ROLES) - set(catalog.services)) == []


def test_full_catalog_coverage_leaves_few_unknown(catalog: Catalog) -> None:
    coverage = role_coverage(catalog)
    assert set(coverage) == set(roles.RULES)
    total = sum(coverage.values())
    ports = sum(
        1
        for tool in catalog.tools.values()
        for port in [*input_ports(tool), *output_ports(tool)]
        if port.semantic in ROLE_BEARING
    )
    assert total == ports > 4000
    assert coverage["unknown"] <= 0.02 * total
    # Names and the tables each do real work; none is a dead letter.
    assert all(coverage[rule] > 100 for rule in ("override", "name", "resource", "service"))


def test_an_artist_releasing_through_the_distributor_is_its_customer(world: World) -> None:
    # The artists the world holds are consumers: a filter that took only vendors would find none of them.
    tool = world.catalog.tools["musicdistro__list_artists"]
    accepted = input_roles(tool, "email")
    assert accepted is not None and "customer" in accepted
    people = {p.email: p for p in world.population.people}
    artists = Episode(world).call(tool.name, {}).result["items"]
    assert artists and all(people[a["email"]].role == "consumer" for a in artists)
    # Collaborators on royalty splits stay the distributor's vendors.
    assert input_roles(world.catalog.tools["musicdistro__list_splits"], "collaborator_email") == frozenset({"vendor"})
