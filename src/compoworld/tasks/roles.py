"""Value roles: whose e-mail, name, phone or address a tool's field holds, and whose a parameter takes.

The dependency graph links a value to any parameter of the same semantic type, so
a walk can hand a CRM lead's e-mail to an inventory item's ``supplier_email``.
Values that belong to someone (an e-mail, a phone number, a person's or company's
name, a postal address) carry a *role* besides their type: an employee of the home
company, a customer, a vendor, a patient … This module says which role a result
field holds (:func:`output_role`), which roles a parameter accepts
(:func:`input_roles`) and whether a link's roles fit (:func:`role_fits`).

A role is decided by the first rule that knows, in this order: an explicit
override for the cases names get wrong; the field's own name and the names of its
enclosing objects (``owner_email``, ``supplier.email``, ``attendees[].email``); the
tool's resource (a ``crm.lead``'s e-mail is a customer's); the service (whatever
the HR service holds belongs to employees). :func:`role_coverage` counts how often
each rule decided, so gaps in the tables show.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from compoworld.tasks.graph import input_ports, normalise_path, output_ports

if TYPE_CHECKING:
    from compoworld.engine.catalog import Catalog
    from compoworld.engine.tools import Tool

__all__ = [
    "ALL_ROLES",
    "ROLES",
    "ROLE_BEARING",
    "RULES",
    "RoleDecision",
    "decide_role",
    "input_roles",
    "output_role",
    "role_coverage",
    "role_fits",
    "sends",
    "subject_email",
]

_SENDS = re.compile(r"author|from|sender|admin|reply_to")


def sends(param: str) -> bool:
    """Whether a parameter names who sends or writes something (``from_email``, ``author_email``), not who gets it."""
    return _SENDS.search(param) is not None


def subject_email(params: Sequence[str]) -> str | None:
    """Which of a record's e-mail parameters is the person the record is about.

    The plain ``email`` if there is one; else the only one that does not name a sender (``to``
    beside ``from_email``); else the only one. None when several people are named and none is
    the record's own (``owner_email`` beside ``cc``): a name then belongs to nobody in particular.
    """
    if "email" in params:
        return "email"
    others = [p for p in params if not sends(p)]
    if len(others) == 1:
        return others[0]
    return params[0] if len(params) == 1 else None


ROLE_BEARING: frozenset[str] = frozenset(
    {
        "email",
        "phone",
        "person.name",
        "person.first_name",
        "person.last_name",
        "person.job_title",
        "company.name",
        "company.domain",
        "postal_address",
    }
)
"""Semantic types whose values belong to a person or a company (see ``compoworld.engine.types``)."""

ROLES: dict[str, str] = {
    "employee": "staff of the home company (owners, assignees, agents, authors, approvers, hosts, "
    "members of internal tools) and the home company itself",
    "customer": "people and companies buying from or courted by the home company (leads, contacts, accounts, "
    "shoppers, subscribers, clients, registrants, policyholders)",
    "vendor": "companies and people the home company buys from or pays (suppliers, carriers, contractors, "
    "couriers, drivers, payees, merchants, agents of other firms)",
    "candidate": "job applicants, job seekers and people being screened for a job",
    "patient": "patients of a clinic or pharmacy",
    "student": "students and learners of a school or course, and their guardians",
    "guest": "guests and riders of hospitality and transport services (hotel and restaurant guests, riders, "
    "passengers)",
    "tenant": "tenants renting the property a landlord manages",
    "donor": "donors and constituents of a fundraising organisation",
    "public": "people and companies of public record with no tie to the home company (news, company "
    "registers, stock listings, web search, social networks)",
}
"""Each value role with what it covers."""

ALL_ROLES: frozenset[str] = frozenset(ROLES)
"""Every role: what a slot that takes anyone (a mail's recipients) accepts."""

RULES: tuple[str, ...] = ("override", "name", "resource", "service", "unknown")
"""The rules that decide a role, in the order they are tried; ``unknown`` when none did."""

Rule = Literal["override", "name", "resource", "service", "unknown"]

# Tables use "role" or "role|role" (an input accepts all listed; an output holds the first), "*" for an
# input that accepts every role, and "out;in" where a service's outputs hold one role but its inputs
# take others (a company register holds public records yet looks up anyone's company).

_OVERRIDES: dict[str, str] = {
    # The home company's own sender identity, billing contact and registrations.
    "adsmanager.account:billing_email": "employee",
    "adsmanager.invoice:billing_email": "employee",
    "campaigns:from_email": "employee",
    "campaigns:from_name": "employee",
    "campaigns:reply_to": "employee",
    "transmail:reply_to": "employee",
    "dns:registrant_company": "employee",
    "dns:registrant_email": "employee",
    "dns:domain.registrant_company": "employee",
    "dns:domain.registrant_email": "employee",
    "notify.app:email_from": "employee",
    "notify.app:sms_from": "employee",
    "sms:from_number": "employee",
    "sms:auto_reply.from_number": "employee",
    "sms:message.from_number": "employee",
    "sms.opt_out:sender": "employee",
    "statuspage.page:company": "employee",
    "statuspage.page:support_email": "employee",
    "surveys.collector:sender_email": "employee",
    "esign:sender_email": "employee",
    "esign:envelope.sender_email": "employee",
    "esign.envelope:sender_email": "employee",
    "transmail:from_email": "employee",
    "transmail:message.from_email": "employee",
    "transmail:domain": "employee",
    "transmail.sender_domain:domain": "employee",
    # Received mail is mostly from customers; a search by sender may name a colleague too.
    "mail:from_email": "customer|employee",
    "mail:from_name": "customer|employee",
    # A payout's recipient is the payee, not a message's.
    "payouts:recipient_email": "vendor",
    "payouts:payouts[].recipient_email": "vendor",
    # Who signed for a delivery is the customer at the drop-off.
    "delivery:signed_by": "customer",
    # Bank transactions: money comes in from customers and goes out to payees.
    "banking:counterparty_company": "vendor|customer",
    "banking:counterparty_person": "vendor|customer",
    "banking:credit.counterparty_company": "customer",
    "banking:credit.counterparty_person": "customer",
    "banking:payer_company": "customer",
    "banking:payer_person": "customer",
    # Claim payments go to the claimant or to a repair shop.
    "insurance:payee_company": "customer|vendor",
    "insurance:payee_email": "customer|vendor",
    "insurance:payee_person": "customer|vendor",
    # Opposing parties in a law firm's matters are outsiders, not clients.
    "legalmatters:adverse_party": "public",
    # A patient's insurer is part of the patient's record.
    "clinic:insurance_payer": "patient",
    "clinic:provider_name": "employee",
    # A project's lead and a news article's author: names that mean something else elsewhere.
    "tracker:lead_email": "employee",
    "news:author": "public",
    "news:articles[].author": "public",
    "websearch:images[].host_domain": "public",
    # Training is the home company's training of its own staff; its providers sell courses.
    "training:learner_email": "employee",
    "training:learner_emails[]": "employee",
    "training:learner_name": "employee",
    "training:provider": "vendor",
    "training.course:provider": "vendor",
    # Flight watchers track the home company's travelling staff.
    "flightstatus:passenger_email": "employee",
    "flightstatus:passenger_name": "employee",
    # Real-estate listings: owners sell through agents; a property manager's owners are its clients.
    "listings:owner_email": "customer",
    "listings:owner_name": "customer",
    "propertymgmt:owner": "customer",
    # Marketplace shops belong to independent sellers.
    "marketplace:owner_email": "vendor",
    "marketplace:owner_name": "vendor",
    # End users of the home company's product, seen by its engineering tools.
    "errortracking:user_email": "customer",
    "errortracking:affected_users[]": "customer",
    "errortracking:event.user_email": "customer",
    "logs:user_email": "customer",
    "logs:logs[].user_email": "customer",
    "knowledgebase:user_email": "customer",
    "featureflags:user.email": "customer",
    "featureflags:user.company": "customer",
    "featureflags:companies[]": "customer",
    "featureflags:emails[]": "customer",
    "featureflags:included[]": "customer",
    "featureflags:excluded[]": "customer",
    "featureflags:targets[].emails[]": "customer",
    # A BI question's rows list the home company's customers.
    "bidash:rows[].company": "customer",
    # The rides billed to a business profile are the home company's.
    "rides:business": "employee",
    "rides:business_profile": "employee",
    "rides:driver_name": "vendor",
    # Fleet fuel stations and airlines are suppliers.
    "fleet:station": "vendor",
    "flightstatus:airline": "vendor",
    "flightstatus:flights[].airline": "vendor",
    # A food order's restaurant.
    "fooddelivery:restaurant_name": "vendor",
    # Domain tools returning records whose resource tools are covered by the resource table.
    "jobboard:contact_email": "employee",
    "jobboard:title": "employee",
    "jobboard:postings[].title": "employee",
    "jobboard:name": "employee",
    "booking:location_address": "employee",
    "booking:scheduled_event.location_address": "employee",
    "booking.scheduled_event:location_address": "employee",
    "sms:phone_number": "employee",
    "errortracking:emails[]": "customer",
    # Whoever answers a survey invitation is one of its (customer) recipients.
    "surveys:recipient_email": "customer",
    # Only an envelope's sender voids, reminds and corrects it.
    "esign:acting_email": "employee",
    "guildchat.message:author_email": "customer|employee",
    "waba:display_phone_number": "employee",
    "waba:verified_name": "employee",
    "docstore:owner_email": "employee",
    "docstore.cluster:owner_email": "employee",
    "emailcheck:owner_email": "employee",
    "emailcheck:owner_name": "employee",
    "ipdocket.matter:owner": "employee",
    "ipdocket:owner": "employee",
    "ipdocket.attorney:firm": "employee|vendor",
    "lakehouse:owner_email": "employee",
    "lakehouse:user_email": "employee",
    "lastmile:signer_name": "customer",
    "lastmile.team:hub_address": "employee",
    "lastmile.worker:name": "employee",
    "lastmile.worker:phone": "employee",
    "objectstore:owner_email": "employee",
    "objectstore:uploaded_by": "employee",
    "objectstore:issued_to_email": "customer|vendor",
    "objectstore.presigned_url:issued_to_email": "customer|vendor",
    "searchidx:issued_to_email": "employee|customer",
    "searchidx.api_key:issued_to_email": "employee|customer",
    "webhost:owner_email": "employee",
    "webhost:hostname": "employee",
    "webhost:custom_domain": "employee",
    "webhost.submission:email": "customer",
    "webhost.submission:name": "customer",
    "webhost:email": "customer",
    "webhost:name": "customer",
    "cpq:owner_email": "employee",
    "cpq:approver_email": "employee",
    "cpq:signer_name": "customer",
    "cpq:signer_email": "customer",
    "cpq:account_name": "customer",
    "cpq:buyer_name": "customer",
    "cpq:buyer_email": "customer",
    "affiliates:customer_email": "customer",
    "affiliates:customer_name": "customer",
    "affiliates:payout_email": "vendor",
    "affiliates.partner:company": "vendor",
    "affiliates.partner:email": "vendor",
    "affiliates.partner:name": "vendor",
    "feedback:owner_email": "employee",
    "feedback:changer_email": "employee",
    "feedback.post:author_email": "customer|employee",
    "feedback.post:author_name": "customer|employee",
    "feedback.comment:author_email": "customer|employee",
    "feedback.comment:author_name": "customer|employee",
    "feedback:voter_email": "customer|employee",
    "feedback:voter_name": "customer|employee",
    "billpay:created_by_email": "employee",
    "billpay:approver_email": "employee",
    "billpay:payer_email": "employee",
    "billpay:approvers[]": "employee",
    "billpay:approved_by[]": "employee",
    "localize.task:created_by_email": "employee",
    "reviews:author_email": "employee",
    "reviews:reply.author_email": "employee",
    "reviews:reported_by_email": "employee",
    "reviews:flagged_by_email": "employee",
    "textlens:owner_email": "employee",
    "textlens.document:owner_email": "employee",
    "compliance.vendor:owner_email": "employee",
    "compliance:reviewer_email": "employee",
    "itassets.hardware:manufacturer": "vendor",
    "itassets.hardware:supplier": "vendor",
    "itassets.license:manufacturer": "vendor",
    "itassets.accessory:manufacturer": "vendor",
    "erp.sale_order:salesperson_email": "employee",
    "mes.material:supplier_name": "vendor",
    "carrental:driver_name": "customer|employee",
    "carrental:driver_email": "customer|employee",
    "carrental:driver_phone": "customer|employee",
    "catering.caterer:name": "vendor",
    "catering.caterer:email": "vendor",
    "catering.caterer:phone": "vendor",
    "catering:contact_name": "employee",
    "catering:contact_email": "employee",
    "catering:contact_phone": "employee",
    "grants:officer_email": "employee",
    "grants.program:officer_email": "employee",
    "grants:reviewer_email": "vendor;vendor|employee",
    "grants:payee_name": "vendor",
    "parking.facility:operator": "vendor",
    "parking:owner_name": "customer|employee",
    "parking:owner_email": "customer|employee",
    "parking:owner_phone": "customer|employee",
    "parking:driver_email": "customer|employee",
    "podcasts:owner_email": "employee",
    "podcasts:author": "employee",
    "podcasts.subscriber:email": "customer;customer|employee",
    "realtycrm.agent:email": "employee",
    "realtycrm.agent:phone": "employee",
    "realtycrm.agent:first_name": "employee",
    "realtycrm.agent:last_name": "employee",
    "streamlive:broadcaster_email": "employee",
    "streamlive.channel:broadcaster_email": "employee",
    "streamlive:user_email": "customer",
    "volunteers:coordinator_email": "employee",
    "volunteers.opportunity:coordinator_email": "employee",
    "volunteers:volunteer_email": "donor;donor|employee|customer",
    "warranty:customer_name": "customer",
    "warranty:customer_email": "customer",
    "warranty:customer_phone": "customer",
    "kitchen.employee:email": "employee",
    "kitchen.employee:phone": "employee",
    "kitchen.employee:first_name": "employee",
    "kitchen.employee:last_name": "employee",
    "kitchen:customer_name": "customer",
    "kitchen:customer_phone": "customer",
    "kitchen:customer_email": "customer",
    # barcodes, domaininfo, ipintel, sanctions, vatcheck, vindecode
    "ipintel__my_ip:asn.name": "employee",
    "ipintel__my_ip:asn.domain": "employee",
    "ipintel__my_ip:company.name": "employee",
    "ipintel__my_ip:company.domain": "employee",
    "ipintel__my_ip:abuse.email": "employee",
    "ipintel__my_ip:abuse.phone": "employee",
    "sanctions:subject_email": "customer|vendor;*",
    # facilities, fieldservice, solarmon, utilitybill, visitors
    "solarmon:owner_email": "customer",
    "solarmon:owner_name": "customer",
    "solarmon:installer_email": "employee",
    "visitors:front_desk_email": "employee",
    "visitors:recipient_email": "employee",
    "visitors:host_email": "employee",
    # civic311, courtfiling, memberships, publicrecords, shelter
    "civic311:assignee_email": "public",
    "civic311:agent_emails[]": "public",
    "civic311:author_email": "public;*",
    "publicrecords:officer_emails[]": "public",
    "publicrecords:point_of_contact": "public",
    "publicrecords:officer_email": "public",
    "shelter:vet_email": "employee",
    "shelter:partner_org": "public",
    "shelter:source_org": "public",
    "courtfiling:filer_email": "employee",
    # customs, dockyard, edi, plm, qms
    "customs:seller_name": "vendor",
    "customs:filer_email": "employee",
    "customs.importer:name": "employee|customer",
    "customs.importer:contact_email": "employee|customer",
    # addressval, drugref, patents, scholar, transit
    "scholar:email": "employee|customer",
    "patents:email": "employee|customer",
    "addressval:contact_email": "customer;*",
    # admissions, dental, labs, priorauth, tutoring
    "labs.result:called_to": "employee",
    "labs:called_to": "employee",
    # ediscovery, escrow, hoa, legalbilling, mortgage
    "ediscovery:opposing_party": "public",
    "ediscovery:recipient_email": "public",
    "mortgage:loan_officer_email": "employee",
    "escrow:escrow_officer_email": "employee",
    "escrow:lender_name": "customer",
    "legalbilling:attorney_email": "employee",
    # books, carbon, econstats, hazards, sports
    "books:email": "employee",
    "sports:shirt_sponsor": "customer",
    # cdp, experiments, influencers, referrals
    "seo:domain": "employee",
    "seo:referring_domain": "customer;*",
    "seo__domain_overview:domain": "public;*",
    # compbands, engagement, eor, equity, headcount
    "equity.stakeholder:entity_name": "public;*",
    "equity__add_stakeholder:entity_name": "public;*",
    "equity__add_stakeholder:email": "employee;employee|vendor|customer|public",
    "equity__add_stakeholder:name": "employee;employee|vendor|customer|public",
    # apigw, backup, certs, depscan, pam
    "apigw:contact_email": "customer",
    "apigw:company": "customer",
    # callcenter, hubcrm, outreach, partners, sharedinbox, successhub
    "outreach:user_email": "employee",
    "sharedinbox.inbox:address": "employee",
    "sharedinbox:address": "employee",
    "sharedinbox.message:sender_email": "customer|employee",
    "sharedinbox.message:to_email": "customer|employee",
    "successhub:csm_email": "employee",
    "callcenter.number:digits": "employee",
    "callcenter__set_availability:email": "employee",
    "callcenter__set_availability:first_name": "employee",
    "callcenter__set_availability:last_name": "employee",
    "partners:submitted_by": "vendor",
    # appstore, directmail, flowmail, prdesk, smsmarketing, socialads
    "flowmail:from_email": "employee",
    "socialads:billing_email": "employee",
    "socialads__add_audience_users:emails[]": "customer",
    "prdesk:sender_email": "employee",
    # edr, iac, k8s, mlops, passwords, queues
    "passwords:recipients[]": "vendor|employee|customer",
    # census, clinicaltrials, courtdata, docai, npiregistry, trademarks
    "clinicaltrials:central_contact_email": "public",
    "npiregistry:contact_email": "employee|public",
    # bnpl, brokerage, collections, exchange, rewards, usagebilling
    "brokerage:owner_name": "customer",
    "rewards:recipient_email": "customer;customer|employee",
    "rewards:recipient_name": "customer;customer|employee",
    "rewards:recipients[].email": "customer;customer|employee",
    "rewards:recipients[].name": "customer;customer|employee",
    # assessments, immigration, leavecases, recognition, references, retirement
    "assessments.test:role": "employee",
    "references__request_report:referees[].name": "public;*",
    "references:job_title": "employee",
    "references:name": "public;*",
    "references:email": "public;*",
    "references:company": "public;*",
    "immigration:attorney_email": "vendor",
    "leavecases:provider_name": "public;*",
    # cryptodata, eventsearch, localbiz, movies, propertydata, recipes
    "propertydata__get_property:owner_email": "public",
    "propertydata__get_property_by_address:owner_email": "public",
    "propertydata__search_properties:[].owner_email": "public",
    # construction, evcharging, salon, tours, vacationrental, vetclinic
    "construction:owner_company": "customer",
    "construction:project_manager": "employee",
    "construction:rfi_manager": "employee",
    "construction:assignee": "vendor",
    "construction:submitted_by": "vendor",
    "construction:ball_in_court": "employee|vendor",
    "construction:approvers[]": "employee|vendor",
    "construction:approved_by": "employee",
    "construction__respond_to_rfi:responder": "vendor",
    "construction__review_submittal:reviewer": "employee|vendor",
    "construction__list_rfis:items[].ball_in_court": "employee|vendor",
    "evcharging__acknowledge_fault:technician": "employee",
    "evcharging:acknowledged_by": "employee",
    "vacationrental:owner_email": "customer",
    "vacationrental:owner_name": "customer",
    "vacationrental:cleaner_email": "employee",
    "vacationrental__assign_cleaning:cleaner_email": "employee",
    "vacationrental__generate_owner_statement:owner_email": "customer",
    "tours:guide_email": "employee",
    "vetclinic:owner_email": "customer",
    # accessreviews, cdn, emailsec, patching, siem, synthetics
    "emailsec.threat:sender_email": "public",
    "emailsec.threat:sender_domain": "public",
    "emailsec.threat:impersonated": "public|vendor|employee",
    "emailsec.message:sender_email": "public|vendor|customer",
    # financialaid, homecare, interviewsched, medbilling, mentoring, onboarding
    "onboarding:personal_email": "candidate;candidate|employee",
    "onboarding:new_hire_name": "candidate;candidate|employee",
    "onboarding:signer_email": "candidate;candidate|employee",
    "onboarding:ship_to_name": "candidate;candidate|employee",
    "interviewsched.loop:job_title": "candidate",
    "interviewsched:candidate_email": "candidate",
    # charities, jobmarket, podcastsearch, secfilings
    "secfilings.watch:company_name": "public;*",
    "secfilings.alert:company_name": "public;*",
    # commissions, farmops, loadboard, proposals, revintel, wholesale
    "revintel.call:participants[].email": "customer|employee",
    "revintel.call:participants[].name": "customer|employee",
    "revintel:reviewee_email": "employee",
    "commissions:company_name": "customer",
    "commissions:lines[].company_name": "customer",
    "loadboard:shipper_name": "employee",
    "farmops:operator_email": "employee",
    "loadboard:consignee_name": "customer",
    "loadboard:pod_signed_by": "customer",
    "loadboard.rate_confirmation:signed_by": "vendor",
    "loadboard__sign_rate_confirmation:signed_by": "vendor",
    "loadboard__submit_pod:signed_by": "customer",
    # coworking, demandresponse, industrialiot, lims, selfstorage, venues
    "lims.sample:customer_name": "customer",
    "lims.certificate:recipient_email": "customer",
    "lims.custody_entry:to_email": "employee",
    "lims__receive_sample:to_email": "employee",
    "lims__transfer_custody:to_email": "employee",
    # fpa, internalaudit, lending, taxforms, treasury, xborder
    "treasury:approvals[]": "employee",
    "treasury:counterparty": "customer|vendor",
    "treasury:beneficiary_name": "vendor",
    "lending:underwriter_email": "employee",
    "internalaudit:lead_email": "employee",
    "internalaudit:tester_email": "employee",
    # assetlib, chatbots, giveaways, newsletters, phonesystem, printondemand
    "phonesystem:email": "employee",
    "phonesystem:name": "employee",
    "assetlib:requester_email": "vendor",
    "assetlib:shared_with[]": "vendor",
    "assetlib:emails[]": "vendor",
    "assetlib:licensor": "vendor",
    # appmarket, commodities, inspections, legislation, packages, tides
    "packages__search_packages:maintainer_email": "public;*",
    # advising, ceu, ctms, patientintake, proctoring, radiology
    "patientintake.visit:provider_name": "employee",
    "patientintake:provider_name": "employee",
    "patientintake:payer": "patient",
    "radiology:ordering_provider": "employee",
    "radiology:technologist": "employee",
    "radiology:communicated_to": "employee",
    "radiology:critical_communicated_to": "employee",
    "ctms:principal_investigator": "employee",
    "ctms:monitor_email": "employee",
    "ctms:sponsor": "customer",
    "proctoring:instructor_email": "employee",
    "proctoring:reviewed_by": "employee",
    "proctoring:approved_by": "employee",
    "advising:raised_by": "employee",
    "advising.advisor:name": "employee",
    "advising.advisor:email": "employee",
    "ceu:provider_name": "vendor",
    # channelmanager, coldchain, fuelcards, groupbooking, lockers, yard
    "coldchain:shipper": "employee",
    "coldchain:consignee": "customer",
    "coldchain:consignee_email": "customer",
    "lockers:recipient_name": "employee",
    "lockers:recipient_email": "employee",
    "groupbooking:planner_email": "employee",
    "yard:driver_email": "employee",
    "yard:carrier": "vendor",
    # benefitcases, casemanage, codeenforce, elections, ethicsline, fireinspect, foodbank, jury, paratransit, parksrec, propertytax, vitalrecords
    "parksrec.activity:instructor_email": "employee",
    "benefitcases.application:caseworker_email": "employee",
    "codeenforce.case:officer_email": "employee",
    "codeenforce.inspection:inspector_email": "employee",
    "codeenforce:officer_email": "employee",
    "codeenforce:inspector_email": "employee",
    "fireinspect:inspector_email": "employee",
    "fireinspect.inspection:inspector_email": "employee",
    "paratransit:driver_email": "employee",
    "paratransit.run:driver_email": "employee",
    "foodbank.donation:donor_name": "donor",
    "foodbank.donation:donor_email": "donor;*",
    "foodbank:donor_name": "donor",
    "foodbank:donor_email": "donor;*",
    "casemanage:case_manager_email": "employee",
    "casemanage.client:case_manager_email": "employee",
    "casemanage:lead_email": "employee",
    "casemanage.program:lead_email": "employee",
    "casemanage:author_email": "employee",
    "casemanage.note:author_email": "employee",
    "casemanage:organization": "public",
    # bedboard, behavioral, bloodbank, caremanage, carereferrals, dme, immunize, nutrition, occhealth, optometry, physio, seniorliving
    "physio.patient:referring_physician": "employee",
    "physio:physician": "employee",
    "immunize.facility:contact_email": "customer",
    "immunize:administered_by": "employee",
    "seniorliving.resident:responsible_party_email": "customer",
    "seniorliving:assessor_email": "employee",
    "seniorliving:staff_email": "employee",
    "seniorliving:reported_by": "employee",
    "seniorliving:prescriber": "public",
    "bloodbank:reported_by": "employee",
    "bloodbank.reaction:reported_by": "employee",
    "dme.order:physician": "employee",
    "dme:physician": "employee",
    "dme.delivery:signed_by": "patient",
    "dme:signed_by": "patient",
    "caremanage.enrollment:care_manager_email": "employee",
    "caremanage:care_manager_email": "employee",
    "caremanage.patient:pcp_name": "employee",
    "bedboard.unit:manager_email": "employee",
    "bedboard:attending": "employee",
    "bedboard.patient:attending": "employee",
    # datacatalog, fax, featurestore, filetransfer, labeling, mailinglists, massnotify, privacy, reverseetl, roadmaps, vectordb
    "labeling.member:email": "*;employee|vendor",
    "labeling.label:labeler_email": "vendor;employee|vendor",
    "labeling:labeler_email": "vendor;employee|vendor",
    "polls:email": "customer;employee|customer",
    "polls:name": "customer;employee|customer",
    "filetransfer:recipients[]": "customer;*",
    "filetransfer:email": "customer;*",
    "filetransfer:uploader_email": "customer;*",
    "fax:deliver_to[]": "employee",
    "fax:forwarded_to[]": "customer;*",
    "fax:to[]": "customer;*",
    "mailinglists:moderator_email": "employee",
    "mailinglists:banned_by": "employee",
    "mailinglists:owner_email": "employee",
    "mailinglists:added_by": "employee",
    # campgrounds, fitstudio, golf, homeinspect, laundry, marina, moving, museum, petcare, retransact, tolls, weddings
    "homeinspect.inspection:agent_email": "vendor",
    "homeinspect__schedule_inspection:agent_email": "vendor",
    "homeinspect.repair_request:requested_by": "customer|vendor",
    "homeinspect__create_repair_request:requested_by": "customer|vendor",
    "homeinspect__cancel_inspection:agent_email": "vendor",
    "homeinspect__confirm_inspection:agent_email": "vendor",
    "homeinspect__publish_report:agent_email": "vendor",
    "homeinspect__reschedule_inspection:agent_email": "vendor",
    "homeinspect__sign_agreement:agent_email": "vendor",
    "homeinspect__send_repair_request:requested_by": "customer|vendor",
    "marina.fuel_sale:attendant_email": "employee",
    "marina.boat:owner_name": "customer",
    "marina.boat:owner_email": "customer",
    "marina.boat:owner_phone": "customer",
    "marina__record_fuel_sale:attendant_email": "employee",
    "moving:crew_emails[]": "employee",
    "moving:surveyor_email": "employee",
    "moving:sales_rep_email": "employee",
    "museum:contact_email": "vendor",
    "museum:contact_name": "vendor",
    "petcare:verified_by": "employee",
    "petcare:reported_by": "employee",
    "retransact__add_participant:email": "customer|vendor|employee",
    "retransact__add_participant:full_name": "customer|vendor|employee",
    "retransact__add_participant:phone": "customer|vendor|employee",
    "retransact:email": "customer|vendor|employee",
    "retransact:full_name": "customer|vendor|employee",
    "retransact:phone": "customer|vendor|employee",
    "weddings:contact_email": "vendor",
    "weddings:contact_name": "vendor",
    "weddings:company": "vendor",
    "weddings:planner_email": "employee",
    # campushousing, childcare, gamebackend, musicdistro, schoolbus, transcripts
    "stockmedia:licensee_email": "employee",
    "stockmedia:user_email": "employee",
    "rights:approver_email": "employee",
    "rights:licensor": "vendor",
    "rights.rights_in:licensor": "vendor",
    "rights:licensee": "customer",
    "rights:licensee_email": "customer",
    "listening:recipients[]": "employee|customer",
    "listening.alert:recipients[]": "employee",
    "landingpages:owner_email": "employee",
    "landingpages:email": "customer",
    "landingpages:name": "customer",
    "landingpages:hostname": "employee",
    "calltracking:caller_number": "customer",
    "calltracking:tracking_number": "employee",
    "calltracking:destination_number": "employee",
    "calltracking:number": "employee",
    "transcripts:placed_by": "employee",
    "transcripts:recipient_name": "customer|student",
    "transcripts:recipient_email": "customer|student",
    "transcripts:requester_org": "customer",
    "transcripts:requester_email": "customer",
    "childcare:staff_email": "employee",
    "childcare:lead_teacher_email": "employee",
    "schoolbus:requester_email": "employee",
    # cashapp, closebook, creditbureau, dealrooms, enablement, factoring, fieldsales, fixedassets, leadrouting, leaseacct, revrec, territories
    "cashapp.posting_batch:posted_by": "employee",
    "cashapp.exception:assigned_to": "employee",
    "enablement.pitch:recipient_email": "customer",
    "enablement.pitch:recipient_name": "customer",
    "leadrouting.queue:members[]": "employee",
    "leadrouting.account_owner:owner_email": "employee",
    "leadrouting.sla_breach:owner_email": "employee",
    "leadrouting.meeting:owner_email": "employee",
    "dealrooms.room:owner_email": "employee",
    "enablement:recipient_email": "customer",
    "enablement:recipient_name": "customer",
    "enablement:company_name": "customer",
    "enablement.pitch:company_name": "customer",
    "fieldsales.account:name": "customer",
    "fieldsales.stop:account_name": "customer",
    "fieldsales:name": "customer",
    "leaseacct.lease:lessor_name": "vendor",
    "leaseacct:lessor_name": "vendor",
    "territories.assignment:account_name": "customer",
    "territories.carve_out:account_name": "customer",
    "territories.rebalance_request:account_name": "customer",
    "territories:account_name": "customer",
    # cloudcost, devportal, dlp, doors, eventstreams, fraud, functions, kyc, llmobs, pentests, threatintel
    "threatintel.sharing_group:organisations[]": "public",
    "pentests.client:name": "customer",
    "pentests.client:poc_email": "customer",
    "pentests:poc_email": "customer",
    "pentests.finding:owner_email": "customer|employee",
    "pentests.retest:requested_by": "customer|employee",
    "pentests:owner_email": "customer|employee",
    "pentests:requested_by": "customer|employee",
    "fraud:analyst": "employee",
    "fraud.applied_decision:analyst": "employee",
    "fraud.review:analyst": "employee",
    "kyc:reviewer": "employee",
    "kyc.inquiry:reviewer": "employee",
    "kyc:assignee": "employee",
    "kyc.case:assignee": "employee",
    # assettrack, consignment, crowdfund, demandplan, drones, ehs, outages, pim, siteaudits, vending, waste, wellops
    "wellops.run_ticket:purchaser": "customer",
    "wellops:purchaser": "customer",
    "wellops.workover:rig_company": "vendor",
    "wellops:rig_company": "vendor",
    "demandplan.item:supplier": "vendor",
    "demandplan.suggestion:supplier": "vendor",
    "demandplan:supplier": "vendor",
}
"""``tool:path``, ``service.resource:field`` or ``service:field`` -> roles, for the cases names get wrong.

A field is the path inside the tool's record (a list result's ``items[].`` dropped).
"""

_NAME_ROLES: dict[str, str] = {
    # the home company's staff
    "employee": "employee",
    "employees": "employee",
    "staff": "employee",
    "owner": "employee",
    "owners": "employee",
    "assignee": "employee",
    "assignees": "employee",
    "assigned": "employee",
    "agent": "employee",
    "agents": "employee",
    "admin": "employee",
    "author": "employee",
    "editor": "employee",
    "editors": "employee",
    "approver": "employee",
    "approvers": "employee",
    "manager": "employee",
    "reviewer": "employee",
    "reviewers": "employee",
    "host": "employee",
    "organizer": "employee",
    "creator": "employee",
    "interviewer": "employee",
    "recruiter": "employee",
    "hiring": "employee",
    "teacher": "employee",
    "instructor": "employee",
    "grader": "employee",
    "decider": "employee",
    "maintainer": "employee",
    "responder": "employee",
    "panelist": "employee",
    "cardholder": "employee",
    # customers
    "customer": "customer",
    "customers": "customer",
    "client": "customer",
    "buyer": "customer",
    "shopper": "customer",
    "lead": "customer",
    "prospect": "customer",
    "subscriber": "customer",
    "registrant": "customer",
    "respondent": "customer",
    "insured": "customer",
    "claimant": "customer",
    "policyholder": "customer",
    "bill": "customer",
    "billing": "customer",
    "detractor": "customer",
    # vendors
    "supplier": "vendor",
    "vendor": "vendor",
    "carrier": "vendor",
    "contractor": "vendor",
    "manufacturer": "vendor",
    "merchant": "vendor",
    "payee": "vendor",
    "dasher": "vendor",
    "courier": "vendor",
    # the other roles
    "candidate": "candidate",
    "applicant": "candidate",
    "seeker": "candidate",
    "patient": "patient",
    "student": "student",
    "students": "student",
    "learner": "student",
    "learners": "student",
    "guardian": "student",
    "guest": "guest",
    "rider": "guest",
    "passenger": "guest",
    "tenant": "tenant",
    "donor": "donor",
    "constituent": "donor",
}
"""Words of a field's or an enclosing object's name that say whose value it is."""

_RECIPIENT_SLOTS: frozenset[str] = frozenset(
    {
        "to",
        "cc",
        "bcc",
        "recipient",
        "recipients",
        "attendee",
        "attendees",
        "invitee",
        "invitees",
        "participant",
        "participants",
        "optional",
        "send_to",
        "sent_to",
        "mailed_to",
    }
)
"""Names of a slot that anyone can be put in (a message's recipients, an event's attendees), once the
value words (``email``, ``name`` …) are dropped: as an input it takes every role."""

_VALUE_WORDS: frozenset[str] = frozenset({"email", "emails", "name", "names", "phone", "number", "address"})

_ACTOR_WORD = "by"
"""``created_by``, ``approved_by``: who acted in a tool of the home company, one of its staff."""

_RESOURCE_ROLES: dict[str, str] = {
    # staff records inside services whose other people are someone else
    "banking.team_member": "employee",
    "booking.host": "employee",
    "booking.event_type": "employee",
    "clinic.department": "employee",
    "clinic.provider": "employee",
    "contracts.reviewer": "employee",
    "delivery.store": "employee",
    "insurance.adjuster": "employee",
    "inventory.location": "employee",
    "jobboard.employer": "employee",
    "jobboard.posting": "employee",
    "legalmatters.user": "employee",
    "livechat.admin": "employee",
    "meetings.user": "employee",
    "pos.location": "employee",
    "recruiting.job": "employee",
    "schoolsis.teacher": "employee",
    "shop.location": "employee",
    "sms.phone_number": "employee",
    "transmail.sender": "employee",
    "warehouse.warehouse": "employee",
    "webinars.panelist": "employee",
    "pharmacy.prescriber": "employee",
    # users of mixed roles: most are the service's own people, some are staff
    "helpdesk.user": "customer|employee",
    "lms.user": "student|employee",
    # customers inside internal tools
    "projects.project": "customer",
    "timetracking.client": "customer",
    # vendors
    "delivery.dasher": "vendor",
    "events.venue": "vendor",
    "fooddelivery.restaurant": "vendor",
    "hotels.property": "vendor",
    "listings.agent": "vendor",
    "marketplace.shop": "vendor",
    "pharmacy.pharmacy": "vendor",
    "reservations.restaurant": "vendor",
    "rides.driver": "vendor",
    # the home company as the entity collecting tax
    "tax.company": "employee",
    "botchat.user": "customer|employee",
    "docstore.cluster": "employee",
    "docstore.collection": "employee",
    "docstore.document": "customer|employee",
    "docstore.index": "employee",
    "emailcheck.leads_list": "customer",
    "emailcheck.lead": "customer",
    "gitlane.user": "employee",
    "ipdocket.attorney": "employee|vendor",
    "ipdocket.matter": "employee",
    "ipdocket.event": "employee",
    "ipdocket.deadline": "employee",
    "lakehouse.dataset": "employee",
    "lakehouse.table": "employee",
    "lakehouse.job": "employee",
    "lakehouse.scheduled_query": "employee",
    "lastmile.team": "employee",
    "lastmile.worker": "employee",
    "lastmile.recipient": "customer",
    "lastmile.task": "customer",
    "objectstore.bucket": "employee",
    "objectstore.object_version": "employee",
    "objectstore.lifecycle_rule": "employee",
    "objectstore.presigned_url": "customer|vendor",
    "okrs.user": "employee",
    "okrs.team": "employee",
    "okrs.period": "employee",
    "okrs.objective": "employee",
    "okrs.key_result": "employee",
    "okrs.check_in": "employee",
    "searchidx.index": "employee",
    "searchidx.record": "employee",
    "searchidx.synonym": "employee",
    "searchidx.rule": "employee",
    "searchidx.api_key": "employee|customer",
    "webhost.site": "employee",
    "webhost.deploy": "employee",
    "webhost.domain": "employee",
    "webhost.env_var": "employee",
    "webhost.submission": "customer",
    "cpq.quote": "customer",
    "cpq.product": "customer",
    "cpq.price_book": "customer",
    "cpq.price_book_entry": "customer",
    "cpq.quote_line": "customer",
    "affiliates.program": "employee",
    "affiliates.partner": "vendor",
    "affiliates.link": "vendor",
    "affiliates.referral": "customer",
    "affiliates.conversion": "customer",
    "affiliates.commission": "vendor",
    "feedback.board": "employee",
    "feedback.post": "customer|employee",
    "feedback.vote": "customer|employee",
    "feedback.comment": "customer|employee",
    "feedback.changelog_entry": "employee",
    "loyalty.member": "customer",
    "loyalty.ledger_entry": "customer",
    "loyalty.redemption": "customer",
    "loyalty.reward": "customer",
    "loyalty.earning_rule": "customer",
    "loyalty.tier": "customer",
    "forum.category": "employee",
    "forum.user": "customer|employee",
    "forum.topic": "customer|employee",
    "forum.post": "customer|employee",
    "forum.like": "customer|employee",
    "forum.flag": "customer|employee",
    "tunes.user": "customer",
    "tunes.playlist": "customer",
    "tunes.artist": "public",
    "tunes.album": "public",
    "tunes.track": "public",
    # An artist releasing through the distributor is its customer (collaborators on splits stay vendors).
    "musicdistro.artist": "customer",
    "fittrack.athlete": "customer|employee",
    "fittrack.club_membership": "customer|employee",
    "billpay.vendor": "vendor",
    "billpay.bill": "vendor",
    "billpay.payment": "vendor",
    "billpay.vendor_credit": "vendor",
    "ehr.practitioner": "employee",
    "ehr.patient": "patient",
    "hotelpms.customer": "guest",
    "hotelpms.reservation": "guest",
    "library.library": "employee",
    "library.patron": "customer",
    "localize.contributor": "employee|vendor",
    "localize.translation": "employee|vendor",
    "localize.task": "employee|vendor",
    "rentals.customer": "customer",
    "rentals.order": "customer",
    "returns.order": "customer",
    "returns.return": "customer",
    "reviews.review": "customer",
    "reviews.invitation": "customer",
    "reviews.business_unit": "employee",
    "shifts.employee": "employee",
    "shifts.location": "employee",
    "telehealth.provider": "employee",
    "telehealth.patient": "patient",
    "textlens.document": "customer",
    "textlens.analysis": "customer",
    "todo.project": "employee",
    "todo.task": "employee",
    "todo.comment": "employee",
    "awareness.user": "employee",
    "awareness.group": "employee",
    "awareness.campaign": "employee",
    "awareness.enrollment": "employee",
    "awareness.phishing_test": "employee",
    "awareness.recipient": "employee",
    "compliance.framework": "employee",
    "compliance.control": "employee",
    "compliance.test": "employee",
    "compliance.evidence": "employee",
    "compliance.vendor": "vendor",
    "compliance.person": "employee",
    "itassets.hardware": "employee",
    "itassets.location": "employee",
    "itassets.license": "employee",
    "itassets.license_seat": "employee",
    "itassets.accessory": "employee",
    "mdm.computer": "employee",
    "mdm.mobile_device": "employee",
    "mdm.configuration_profile": "employee",
    "mdm.policy": "employee",
    "mdm.command": "employee",
    "secops.alert": "employee",
    "secops.case": "employee",
    "secops.task": "employee",
    "secops.observable": "employee",
    "vulnscan.asset": "employee",
    "vulnscan.scan": "employee",
    "vulnscan.finding": "employee",
    "vulnscan.exception": "employee",
    "erp.partner": "customer|vendor",
    "erp.sale_order": "customer",
    "erp.purchase_order": "vendor",
    "erp.picking": "customer|vendor",
    "erp.invoice": "customer",
    "mes.material": "vendor",
    "mes.manufacturing_order": "employee",
    "mes.operation": "employee",
    "carrental.location": "employee",
    "carrental.vehicle_class": "employee",
    "carrental.vehicle": "employee",
    "carrental.reservation": "customer|employee",
    "carrental.agreement": "customer|employee",
    "carrental.damage_report": "customer|employee",
    "catering.caterer": "vendor",
    "catering.menu_item": "vendor",
    "catering.order": "employee",
    "grants.program": "employee",
    "grants.application": "vendor;vendor|customer|public",
    "grants.reviewer": "vendor;vendor|employee",
    "grants.review": "vendor;vendor|employee",
    "grants.tranche": "vendor",
    "parking.facility": "vendor",
    "parking.zone": "public",
    "parking.vehicle": "customer|employee",
    "parking.reservation": "customer|employee",
    "parking.session": "customer|employee",
    "parking.citation": "customer|employee",
    "permits.address": "public",
    "permits.contact": "public;*",
    "permits.permit": "public",
    "permits.fee": "public",
    "permits.inspection": "public",
    "podcasts.show": "employee",
    "podcasts.episode": "employee",
    "podcasts.subscriber": "customer;customer|employee",
    "realtycrm.agent": "employee",
    "realtycrm.person": "customer",
    "realtycrm.property": "customer",
    "realtycrm.deal": "customer",
    "realtycrm.appointment": "customer",
    "realtycrm.action_plan": "employee",
    "realtycrm.enrollment": "customer",
    "realtycrm.task": "employee",
    "streamlive.user": "customer;customer|employee|public",
    "streamlive.channel": "employee",
    "streamlive.stream": "employee",
    "streamlive.schedule_segment": "employee",
    "streamlive.clip": "customer",
    "streamlive.moderator": "customer",
    "streamlive.ban": "customer",
    "streamlive.subscription": "customer",
    "volunteers.volunteer": "donor;donor|employee|customer",
    "volunteers.opportunity": "employee",
    "volunteers.shift": "employee",
    "volunteers.signup": "donor;donor|employee|customer",
    "volunteers.hour_entry": "donor",
    "warranty.product": "employee",
    "warranty.plan": "vendor",
    "warranty.contract": "customer",
    "warranty.claim": "customer",
    "kitchen.employee": "employee",
    "kitchen.menu_item": "employee",
    "kitchen.dining_table": "employee",
    "kitchen.order": "customer",
    "kitchen.check": "customer",
    "kitchen.ticket": "customer",
    # barcodes, domaininfo, ipintel, sanctions, vatcheck, vindecode
    "vindecode.vehicle": "employee",
    "vindecode.alert": "employee",
    "vindecode.repair": "employee",
    "ipintel.ip_list": "employee",
    "ipintel.entry": "employee",
    "domaininfo.watch": "customer;*",
    "domaininfo.alert": "customer;*",
    "barcodes.policy": "employee",
    "barcodes.approval": "employee",
    "sanctions.screening": "customer|vendor;*",
    "sanctions.exemption": "customer|vendor;*",
    "vatcheck.profile": "customer",
    "vatcheck.proof": "customer",
    # facilities, fieldservice, solarmon, utilitybill, visitors
    "utilitybill.account": "customer",
    "utilitybill.property": "customer",
    "utilitybill.meter_point": "customer",
    "utilitybill.bill": "customer",
    "utilitybill.payment": "customer",
    "solarmon.system": "customer",
    "fieldservice.client": "customer",
    "fieldservice.property": "customer",
    "facilities.location": "employee",
    "visitors.location": "employee",
    "visitors.block": "public;*",
    "visitors.invite": "customer|vendor|candidate",
    "visitors.entry": "customer|vendor|candidate",
    # civic311, courtfiling, memberships, publicrecords, shelter
    "civic311.department": "public",
    "civic311.service_type": "public",
    "civic311.request": "public;*",
    "civic311.comment": "public;*",
    "publicrecords.department": "public",
    "publicrecords.request": "public;*",
    "memberships.contact": "customer",
    "memberships.registration": "customer",
    "memberships.invoice": "customer",
    "memberships.bundle": "customer",
    "shelter.person": "customer",
    "shelter.application": "customer",
    "shelter.outcome": "customer",
    "shelter.intake": "customer",
    "shelter.medical_record": "employee",
    "courtfiling.service_contact": "public;*",
    "courtfiling.party": "public;*",
    "courtfiling.service_record": "public;*",
    "courtfiling.envelope": "employee",
    "courtfiling.case": "employee",
    # customs, dockyard, edi, plm, qms
    "customs.importer": "employee|customer",
    "customs.commercial_invoice": "vendor",
    "customs.entry": "employee",
    "customs.classification": "employee",
    "dockyard.carrier": "vendor",
    "dockyard.warehouse": "employee",
    "qms.document": "employee",
    "qms.training_record": "employee",
    "plm.supplier": "vendor",
    "plm.supplier_item": "vendor",
    "plm.item": "employee",
    "plm.change": "employee",
    "edi.partner": "customer",
    # addressval, drugref, patents, scholar, transit
    "drugref.formulary": "employee",
    "drugref.entry": "employee",
    "scholar.reading_list": "employee",
    "scholar.item": "employee",
    "patents.watchlist": "employee",
    "patents.watch": "employee",
    "patents.alert": "employee",
    "transit.commute": "employee",
    "addressval.address_book": "employee",
    "addressval.address": "customer;*",
    # admissions, dental, labs, priorauth, tutoring
    "labs.patient": "patient",
    "labs.provider": "employee",
    "labs.order": "patient",
    "labs.result": "patient",
    "labs.specimen": "employee",
    "dental.patient": "patient",
    "dental.provider": "employee",
    "priorauth.member": "patient",
    "priorauth.prescriber": "employee",
    "priorauth.payer": "vendor",
    "admissions.prospect": "student",
    "admissions.reader": "employee",
    "admissions.application": "student",
    "tutoring.client": "customer",
    "tutoring.student": "student",
    "tutoring.tutor": "employee",
    # books, carbon, econstats, hazards, sports
    "books.shelf": "employee",
    "books.entry": "employee",
    "sports.follow": "employee",
    "sports.alert": "employee",
    "hazards.site": "employee",
    "hazards.alert": "employee",
    "carbon.ledger": "employee",
    "carbon.entry": "employee",
    "econstats.dashboard": "employee",
    "econstats.panel": "employee",
    # cdp, experiments, influencers, referrals
    "cdp.profile": "customer",
    "influencers.creator": "vendor",
    # compbands, engagement, eor, equity, headcount
    "equity.stakeholder": "employee;employee|vendor|customer|public",
    "equity.grant": "employee;employee|vendor",
    "equity.exercise": "employee;employee|vendor",
    "equity.consent": "employee",
    "eor.contract": "vendor;employee|vendor",
    "eor.invoice": "vendor;employee|vendor",
    # apigw, backup, certs, depscan, pam
    "pam.safe": "employee",
    "pam.safe_member": "employee",
    "pam.account": "employee",
    "pam.access_request": "employee",
    "pam.checkout": "employee",
    "pam.recording": "employee",
    "backup.repository": "employee",
    "backup.workload": "employee",
    "backup.job": "employee",
    "backup.session": "employee",
    "backup.restore_point": "employee",
    "backup.restore": "employee",
    "certs.application": "employee",
    "certs.template": "employee",
    "certs.certificate_request": "employee",
    "certs.certificate": "employee",
    "certs.installation": "employee",
    "apigw.service": "employee",
    "apigw.route": "employee",
    "apigw.consumer": "customer",
    "apigw.key": "customer",
    "apigw.acl": "customer",
    "apigw.plugin": "employee",
    "apigw.upstream": "employee",
    "apigw.target": "employee",
    "depscan.organization": "employee",
    "depscan.license_rule": "employee",
    "depscan.project": "employee",
    "depscan.issue": "employee",
    "depscan.ignore": "employee",
    "depscan.fix_pr": "employee",
    # callcenter, hubcrm, outreach, partners, sharedinbox, successhub
    "hubcrm.owner": "employee",
    "outreach.mailbox": "employee",
    "sharedinbox.teammate": "employee",
    "callcenter.user": "employee",
    # appstore, directmail, flowmail, prdesk, smsmarketing, socialads
    "directmail.bank_account": "employee",
    # edr, iac, k8s, mlops, passwords, queues
    "edr.host": "employee",
    "edr.detection": "employee",
    "edr.policy": "employee",
    "edr.containment": "employee",
    "edr.ioc": "employee",
    "k8s.namespace": "employee",
    "k8s.deployment": "employee",
    "k8s.pod": "employee",
    "k8s.service": "employee",
    "k8s.config_map": "employee",
    "k8s.job": "employee",
    "iac.organization": "employee",
    "iac.workspace": "employee",
    "iac.variable": "employee",
    "iac.run": "employee",
    "iac.policy_set": "employee",
    "iac.state_version": "employee",
    "passwords.member": "employee",
    "passwords.group": "employee",
    "passwords.vault": "employee",
    "passwords.vault_access": "employee",
    "passwords.item": "employee",
    "passwords.item_version": "employee",
    "passwords.share": "employee",
    "mlops.experiment": "employee",
    "mlops.run": "employee",
    "mlops.registered_model": "employee",
    "mlops.model_version": "employee",
    "mlops.transition_request": "employee",
    "queues.queue": "employee",
    "queues.message": "employee",
    "queues.move_task": "employee",
    "queues.permission": "employee",
    # census, clinicaltrials, courtdata, docai, npiregistry, trademarks
    "docai.processor": "employee",
    "docai.review_task": "employee",
    "docai.document": "vendor;*",
    "courtdata.docket_alert": "employee",
    "courtdata.search_alert": "employee",
    "clinicaltrials.saved_search": "employee",
    "clinicaltrials.saved_study": "employee",
    "npiregistry.checklist": "employee",
    "npiregistry.monitor": "employee",
    "census.report": "employee",
    "trademarks.clearance": "employee",
    "trademarks.hit": "employee",
    # assessments, immigration, leavecases, recognition, references, retirement
    "assessments.invite": "candidate",
    "assessments.answer": "candidate",
    "assessments.test": "employee",
    "assessments.question": "employee",
    "references.request": "candidate",
    "references.referee": "public;*",
    "references.response": "public;*",
    "references.signal": "public;*",
    # cryptodata, eventsearch, localbiz, movies, propertydata, recipes
    "recipes.meal_plan": "employee",
    "recipes.plan_item": "employee",
    "recipes.shopping_item": "employee",
    "movies.watch_item": "employee",
    "movies.list": "employee",
    "movies.list_item": "employee",
    "cryptodata.price_alert": "employee",
    "cryptodata.portfolio": "employee",
    "cryptodata.holding": "employee",
    "propertydata.property_list": "employee",
    "propertydata.saved_property": "public;*",
    "localbiz.collection": "employee",
    "localbiz.collection_item": "public;*",
    "eventsearch.event_alert": "employee",
    "eventsearch.alert_match": "employee",
    # construction, evcharging, salon, tours, vacationrental, vetclinic
    "construction.member": "employee|vendor",
    "evcharging.driver": "customer|employee",
    "vacationrental.guest": "guest",
    "salon.staff": "employee",
    "salon.client": "customer",
    "tours.booking": "customer",
    "vetclinic.owner": "customer",
    "vetclinic.clinician": "employee",
    # financialaid, homecare, interviewsched, medbilling, mentoring, onboarding
    "interviewsched.interviewer": "employee",
    "homecare.caregiver": "employee",
    "homecare.credential": "employee",
    "medbilling.payer": "vendor",
    "medbilling.provider": "employee",
    # charities, jobmarket, podcastsearch, secfilings
    "secfilings.watchlist": "employee",
    "secfilings.watch": "employee",
    "secfilings.alert": "employee",
    "jobmarket.saved_search": "employee",
    "jobmarket.benchmark": "employee",
    "dictionary.glossary": "employee",
    "dictionary.term": "employee",
    "charities.check": "employee",
    "charities.finding": "employee",
    "vehiclevalues.appraisal": "employee",
    "podcastsearch.playlist": "employee",
    "podcastsearch.item": "employee",
    # bookmarks, budgeting, contacts, dmv, newsroom, photos
    "contacts.contact": "customer",
    "contacts.other_contact": "customer",
    "budgeting.payee": "vendor",
    # commissions, farmops, loadboard, proposals, revintel, wholesale
    "loadboard.carrier": "vendor",
    "wholesale.brand": "vendor",
    "wholesale.retailer": "customer",
    # coworking, demandresponse, industrialiot, lims, selfstorage, venues
    "coworking.location": "employee",
    "selfstorage.facility": "employee",
    "venues.venue": "employee",
    # fpa, internalaudit, lending, taxforms, treasury, xborder
    "treasury.user": "employee",
    "treasury.payment": "vendor",
    "lending.business": "customer",
    "taxforms.payee": "vendor",
    "xborder.recipient": "vendor",
    # assetlib, chatbots, giveaways, newsletters, phonesystem, printondemand
    "phonesystem.extension": "employee",
    "phonesystem.forwarding_number": "employee",
    "phonesystem.phone_number": "employee",
    # bugbounty, dataobs, etl, gitops, loadtesting, ztna
    "bugbounty.hacker": "public",
    # dropship, giftregistry, productreviews, repricing, sellercentral, subscriptionbox
    "repricing.competitor": "public",
    "dropship.supplier": "vendor",
    # desks, i9, relocation, stipends, vms, workerscomp
    "workerscomp.injury": "employee",
    "workerscomp.claim": "employee",
    "workerscomp.policy": "employee",
    "i9.form": "employee",
    "i9.case": "employee",
    "relocation.relocation": "employee",
    "relocation.agreement": "employee",
    "vms.supplier": "vendor",
    "vms.rate_card": "vendor",
    "vms.posting": "employee",
    "vms.submission": "candidate",
    "vms.work_order": "vendor",
    "vms.sow": "vendor",
    "vms.timesheet": "vendor",
    "stipends.enrollment": "employee",
    "stipends.claim": "employee",
    "desks.reservation": "employee",
    "desks.schedule": "employee",
    "desks.desk": "employee",
    # appmarket, commodities, inspections, legislation, packages, tides
    "packages.watch": "employee",
    "tides.alert": "employee",
    "legislation.tracking": "employee",
    "commodities.watch": "employee",
    "appmarket.tracked_app": "employee",
    "inspections.monitor": "employee",
    # advising, ceu, ctms, patientintake, proctoring, radiology
    "patientintake.patient": "patient",
    "patientintake.visit": "patient",
    "patientintake.form": "patient",
    "patientintake.insurance_card": "patient",
    "patientintake.consent": "patient",
    "patientintake.payment": "patient",
    "radiology.radiologist": "employee",
    "radiology.order": "patient",
    "radiology.study": "patient",
    "radiology.report": "patient",
    "radiology.addendum": "employee",
    "ctms.study": "customer",
    "ctms.site": "customer",
    "ctms.subject": "patient",
    "ctms.visit": "patient",
    "ctms.adverse_event": "patient",
    "ctms.monitoring_visit": "employee",
    "ctms.deviation": "patient",
    "proctoring.exam": "employee",
    "proctoring.session": "student",
    "proctoring.incident": "student",
    "proctoring.accommodation": "student",
    "advising.advisor": "employee",
    "advising.student": "student",
    "advising.appointment": "student",
    "advising.alert": "student",
    "advising.case": "student",
    "advising.note": "student",
    "advising.success_plan": "student",
    "ceu.licensee": "employee",
    "ceu.requirement": "public",
    "ceu.course": "vendor",
    "ceu.cycle": "employee",
    "ceu.credit": "employee",
    "ceu.audit": "employee",
    # channelmanager, coldchain, fuelcards, groupbooking, lockers, yard
    "channelmanager.booking": "guest",
    "channelmanager.property": "employee",
    "fuelcards.card": "employee",
    "fuelcards.exception": "employee",
    "fuelcards.hold": "employee",
    "coldchain.shipment": "customer",
    "lockers.delivery": "employee",
    "groupbooking.rfp": "employee",
    "groupbooking.rooming_entry": "employee",
    "yard.move": "employee",
    # boardportal, charityauction, entities, policies
    "entities.agent": "vendor",
    "entities.officer": "employee",
    "entities.filing": "employee",
    "boardportal.member": "employee",
    "boardportal.agenda_item": "employee",
    # bedboard, behavioral, bloodbank, caremanage, carereferrals, dme, immunize, nutrition, occhealth, optometry, physio, seniorliving
    "optometry.doctor": "employee",
    "physio.therapist": "employee",
    "behavioral.clinician": "employee",
    "carereferrals.provider": "customer|employee",
    "bloodbank.patient": "patient",
    "bloodbank.crossmatch": "patient",
    "bloodbank.reaction": "patient",
    "nutrition.dietitian": "employee",
    # datacatalog, fax, featurestore, filetransfer, labeling, mailinglists, massnotify, privacy, reverseetl, roadmaps, vectordb
    "fax.number": "employee",
    "fax.contact": "customer",
    # campgrounds, fitstudio, golf, homeinspect, laundry, marina, moving, museum, petcare, retransact, tolls, weddings
    "fitstudio.teacher": "employee",
    "golf.course": "employee",
    "homeinspect.inspector": "employee",
    "marina.marina": "employee",
    "museum.loan": "vendor",
    "retransact.participant": "customer|vendor|employee",
    "weddings.vendor_booking": "vendor",
    "weddings.payment": "vendor",
    # campushousing, childcare, gamebackend, musicdistro, schoolbus, transcripts
    "selfpublish.author": "vendor|employee",
    "stockmedia.subscription": "employee",
    "stockmedia.license": "employee",
    "stockmedia.collection": "employee",
    "rights.property": "employee",
    "rights.deal": "customer",
    "listening.query": "employee",
    "listening.alert": "employee",
    "listening.author": "public",
    "listening.report": "employee|customer",
    "landingpages.page": "employee",
    "landingpages.lead": "customer",
    "calltracking.call": "customer",
    "calltracking.form_submission": "customer",
    "calltracking.tracking_number": "employee",
    "calltracking.company": "employee",
    "childcare.room": "employee",
    "childcare.staff_shift": "employee",
    "campushousing.hall": "employee",
    "schoolbus.driver": "employee",
    "schoolbus.field_trip": "employee",
    # assettrack, consignment, crowdfund, demandplan, drones, ehs, outages, pim, siteaudits, vending, waste, wellops
    "outages.premise": "customer",
    "outages.call": "customer",
    "outages.crew": "employee",
    "waste.customer": "customer",
    "waste.route": "employee",
    "vending.location": "customer",
    "vending.visit": "employee",
    "crowdfund.pledge": "customer",
    "crowdfund.campaign": "employee",
    "crowdfund.reward": "employee",
}
"""A resource -> the role of the people and companies its records are about."""

_SERVICE_ROLES: dict[str, str] = {
    # the home company's internal tools: their people are its staff
    "adsmanager": "employee",
    "bidash": "employee",
    "benefits": "employee",
    "calendar": "employee",
    "cards": "employee",
    "chat": "employee",
    "ci": "employee",
    "cloud": "employee",
    "cms": "employee",
    "codehost": "employee",
    "dns": "employee",
    "docs": "employee",
    "errortracking": "employee",
    "expenses": "employee",
    "featureflags": "employee",
    "fleet": "employee",
    "flightstatus": "employee",
    "hr": "employee",
    "identity": "employee",
    "kanban": "employee",
    "knowledgebase": "employee",
    "links": "employee",
    "logs": "employee",
    "mail": "employee",
    "monitoring": "employee",
    "notes": "employee",
    "oncall": "employee",
    "payroll": "employee",
    "perfreviews": "employee",
    "projects": "employee",
    "registry": "employee",
    "secrets": "employee",
    "servicedesk": "employee",
    "smarthome": "employee",
    "socialposts": "employee",
    "storage": "employee",
    "teamchat": "employee",
    "timeoff": "employee",
    "timetracking": "employee",
    "tracker": "employee",
    "training": "employee",
    "travel": "employee",
    "wiki": "employee",
    # selling, marketing and support: the people are customers
    "analytics": "customer",
    "booking": "customer",
    "campaigns": "customer",
    "crm": "customer",
    "dealflow": "customer",
    "delivery": "customer",
    "esign": "customer",
    "events": "customer",
    "fooddelivery": "customer",
    "forms": "customer",
    "helpdesk": "customer",
    "insurance": "customer",
    "invoicing": "customer",
    "legalmatters": "customer",
    "livechat": "customer",
    "marketplace": "customer",
    "meetings": "customer",
    "notify": "customer",
    "nurture": "customer",
    "payments": "customer",
    "pos": "customer",
    "shop": "customer",
    "sms": "customer",
    "statuspage": "customer",
    "subscriptions": "customer",
    "surveys": "customer",
    "tax": "customer",
    "transmail": "customer",
    "webinars": "customer",
    # buying, shipping and paying out: the people are vendors
    "banking": "vendor",
    "contracts": "customer|vendor",
    "freight": "vendor",
    "inventory": "vendor",
    "ledger": "vendor",
    "payouts": "vendor",
    "procurement": "vendor",
    "shipping": "customer",
    "warehouse": "vendor",
    # the other roles' own services
    "backgroundcheck": "candidate",
    "jobboard": "candidate",
    "recruiting": "candidate",
    "clinic": "patient",
    "pharmacy": "patient",
    "lms": "student",
    "schoolsis": "student",
    "hotels": "guest",
    "reservations": "guest",
    "rides": "guest",
    "listings": "customer",
    "propertymgmt": "tenant",
    "fundraising": "donor",
    # public information: records of anyone, looked up for anyone
    "companyinfo": "public;*",
    "encyclopedia": "public;*",
    "holidays": "employee",
    "maps": "public;*",
    "microblog": "public",
    "news": "public;*",
    "stocks": "public;*",
    "translate": "public;*",
    "websearch": "public;*",
    "botchat": "customer",
    "feeds": "public;*",
    "guildchat": "customer|employee",
    "vidhub": "customer",
    "waba": "customer",
    "docstore": "employee",
    "emailcheck": "public;*",
    "gitlane": "employee",
    "ipdocket": "employee",
    "lakehouse": "employee",
    "lastmile": "employee",
    "objectstore": "employee",
    "okrs": "employee",
    "searchidx": "employee",
    "webhost": "employee",
    "gridbase": "employee|customer",
    "tablebase": "employee|customer",
    "sheets": "employee|customer",
    "cpq": "customer",
    "affiliates": "vendor",
    "feedback": "customer|employee",
    "loyalty": "customer",
    "forum": "customer|employee",
    "tunes": "customer",
    "fittrack": "customer|employee",
    "billpay": "vendor",
    "ehr": "patient",
    "hotelpms": "guest",
    "library": "customer",
    "localize": "employee|vendor",
    "rentals": "customer",
    "returns": "customer",
    "reviews": "customer",
    "shifts": "employee",
    "telehealth": "patient",
    "textlens": "public;*",
    "todo": "employee",
    "awareness": "employee",
    "compliance": "employee",
    "itassets": "employee",
    "mdm": "employee",
    "secops": "employee",
    "vulnscan": "employee",
    "erp": "customer|vendor",
    "mes": "employee",
    "carrental": "customer",
    "catering": "employee",
    "grants": "vendor",
    "parking": "customer",
    "permits": "public",
    "podcasts": "employee",
    "realtycrm": "customer",
    "streamlive": "customer",
    "volunteers": "donor",
    "warranty": "customer",
    "kitchen": "customer",
    # barcodes, domaininfo, ipintel, sanctions, vatcheck, vindecode
    "vindecode": "employee",
    "ipintel": "public;*",
    "domaininfo": "public;*",
    "barcodes": "public;*",
    "sanctions": "public;*",
    "vatcheck": "customer;*",
    # facilities, fieldservice, solarmon, utilitybill, visitors
    "utilitybill": "customer",
    "solarmon": "customer",
    "fieldservice": "customer",
    "facilities": "employee",
    "visitors": "customer|vendor|candidate",
    # civic311, courtfiling, memberships, publicrecords, shelter
    "civic311": "public;*",
    "publicrecords": "public;*",
    "memberships": "customer",
    "shelter": "customer",
    "courtfiling": "public;*",
    # customs, dockyard, edi, plm, qms
    "customs": "employee",
    "dockyard": "vendor",
    "qms": "employee",
    "plm": "employee",
    "edi": "customer",
    # addressval, drugref, patents, scholar, transit
    "drugref": "employee",
    "scholar": "employee",
    "patents": "employee",
    "transit": "employee",
    "addressval": "employee",
    # admissions, dental, labs, priorauth, tutoring
    "labs": "patient",
    "dental": "patient",
    "priorauth": "patient",
    "admissions": "student",
    "tutoring": "customer",
    # ediscovery, escrow, hoa, legalbilling, mortgage
    "ediscovery": "employee",
    "mortgage": "customer",
    "escrow": "customer",
    "hoa": "customer",
    "legalbilling": "vendor",
    # books, carbon, econstats, hazards, sports
    "books": "employee",
    "sports": "employee",
    "hazards": "employee",
    "carbon": "employee",
    "econstats": "employee",
    # cdp, experiments, influencers, referrals
    "experiments": "employee",
    "cdp": "customer",
    "influencers": "vendor",
    "referrals": "customer",
    # compbands, engagement, eor, equity, headcount
    "equity": "employee",
    "eor": "vendor;employee|vendor",
    "engagement": "employee",
    "compbands": "employee",
    "headcount": "employee",
    # apigw, backup, certs, depscan, pam
    "pam": "employee",
    "backup": "employee",
    "certs": "employee",
    "apigw": "employee",
    "depscan": "employee",
    # callcenter, hubcrm, outreach, partners, sharedinbox, successhub
    "hubcrm": "customer",
    "outreach": "customer",
    "sharedinbox": "customer",
    "successhub": "customer",
    "callcenter": "customer",
    "partners": "vendor",
    # appstore, directmail, flowmail, prdesk, smsmarketing, socialads
    "flowmail": "customer",
    "socialads": "employee",
    "smsmarketing": "customer",
    "directmail": "customer|vendor|employee",
    "prdesk": "public",
    "appstore": "customer|employee",
    # edr, iac, k8s, mlops, passwords, queues
    "edr": "employee",
    "k8s": "employee",
    "iac": "employee",
    "passwords": "employee",
    "mlops": "employee",
    "queues": "employee",
    # census, clinicaltrials, courtdata, docai, npiregistry, trademarks
    "docai": "employee",
    "courtdata": "employee",
    "clinicaltrials": "employee",
    "npiregistry": "employee",
    "census": "employee",
    "trademarks": "employee",
    # bnpl, brokerage, collections, exchange, rewards, usagebilling
    "brokerage": "customer",
    "exchange": "employee",
    "usagebilling": "customer",
    "collections": "customer",
    "rewards": "customer",
    "bnpl": "customer",
    # assessments, immigration, leavecases, recognition, references, retirement
    "assessments": "candidate",
    "references": "candidate",
    "immigration": "employee",
    "recognition": "employee",
    "retirement": "employee",
    "leavecases": "employee",
    # cryptodata, eventsearch, localbiz, movies, propertydata, recipes
    "recipes": "employee",
    "movies": "employee",
    "cryptodata": "employee",
    "propertydata": "public;*",
    "localbiz": "public;*",
    "eventsearch": "employee",
    # construction, evcharging, salon, tours, vacationrental, vetclinic
    "construction": "vendor",
    "evcharging": "customer",
    "vacationrental": "guest",
    "salon": "customer",
    "tours": "customer",
    "vetclinic": "customer",
    # accessreviews, cdn, emailsec, patching, siem, synthetics
    "cdn": "employee",
    "emailsec": "employee",
    "patching": "employee",
    "accessreviews": "employee",
    "siem": "employee",
    "synthetics": "employee",
    # financialaid, homecare, interviewsched, medbilling, mentoring, onboarding
    "onboarding": "employee",
    "interviewsched": "employee",
    "mentoring": "employee",
    "homecare": "patient",
    "medbilling": "patient",
    "financialaid": "student",
    # charities, jobmarket, podcastsearch, secfilings
    "secfilings": "public;*",
    "jobmarket": "public;*",
    "charities": "public;*",
    "podcastsearch": "public;*",
    # bookmarks, budgeting, contacts, dmv, newsroom, photos
    "bookmarks": "employee",
    "contacts": "customer",
    "photos": "employee",
    "budgeting": "employee",
    "dmv": "public;*",
    "newsroom": "employee",
    # commissions, farmops, loadboard, proposals, revintel, wholesale
    "proposals": "customer",
    "revintel": "customer",
    "commissions": "employee",
    "loadboard": "vendor",
    "farmops": "customer",
    "wholesale": "customer",
    # coworking, demandresponse, industrialiot, lims, selfstorage, venues
    "coworking": "customer",
    "selfstorage": "tenant",
    "demandresponse": "customer",
    "lims": "employee",
    "industrialiot": "employee",
    "venues": "customer",
    # fpa, internalaudit, lending, taxforms, treasury, xborder
    "treasury": "employee",
    "fpa": "employee",
    "lending": "customer",
    "taxforms": "vendor",
    "internalaudit": "employee",
    "xborder": "vendor",
    # assetlib, chatbots, giveaways, newsletters, phonesystem, printondemand
    "newsletters": "customer",
    "phonesystem": "customer",
    "printondemand": "customer",
    "assetlib": "employee",
    "giveaways": "customer",
    "chatbots": "customer",
    # bugbounty, dataobs, etl, gitops, loadtesting, ztna
    "gitops": "employee",
    "etl": "employee",
    "ztna": "employee",
    "bugbounty": "employee",
    "dataobs": "employee",
    "loadtesting": "employee",
    # dropship, giftregistry, productreviews, repricing, sellercentral, subscriptionbox
    "repricing": "employee",
    "subscriptionbox": "customer",
    "productreviews": "customer",
    "dropship": "customer",
    "sellercentral": "customer",
    "giftregistry": "customer",
    # desks, i9, relocation, stipends, vms, workerscomp
    "workerscomp": "employee",
    "i9": "employee",
    "relocation": "employee",
    "vms": "vendor",
    "stipends": "employee",
    "desks": "employee",
    # appmarket, commodities, inspections, legislation, packages, tides
    "packages": "public;*",
    "tides": "employee",
    "legislation": "employee",
    "commodities": "employee",
    "appmarket": "employee",
    "inspections": "employee",
    # advising, ceu, ctms, patientintake, proctoring, radiology
    "patientintake": "patient",
    "radiology": "patient",
    "ctms": "patient",
    "proctoring": "student",
    "advising": "student",
    "ceu": "employee",
    # channelmanager, coldchain, fuelcards, groupbooking, lockers, yard
    "channelmanager": "guest",
    "fuelcards": "employee",
    "coldchain": "customer",
    "lockers": "employee",
    "groupbooking": "employee",
    "yard": "vendor",
    # intranet, signage, teamqa, transcription, videomsg, whiteboard
    "videomsg": "employee",
    "transcription": "employee",
    "intranet": "employee",
    "signage": "employee",
    "teamqa": "employee",
    "whiteboard": "employee",
    # boardportal, charityauction, entities, policies
    "entities": "employee",
    "boardportal": "employee",
    "charityauction": "donor",
    "policies": "employee",
    # benefitcases, casemanage, codeenforce, elections, ethicsline, fireinspect, foodbank, jury, paratransit, parksrec, propertytax, vitalrecords
    "elections": "public;*",
    "parksrec": "public;*",
    "benefitcases": "public;*",
    "codeenforce": "public;*",
    "jury": "public;*",
    "propertytax": "public;*",
    "fireinspect": "public;*",
    "paratransit": "guest;*",
    "vitalrecords": "public;*",
    "foodbank": "public;*",
    "casemanage": "public;*",
    "ethicsline": "employee",
    # bedboard, behavioral, bloodbank, caremanage, carereferrals, dme, immunize, nutrition, occhealth, optometry, physio, seniorliving
    "optometry": "patient",
    "physio": "patient",
    "behavioral": "patient",
    "immunize": "patient",
    "seniorliving": "patient",
    "carereferrals": "patient",
    "bloodbank": "donor",
    "nutrition": "customer",
    "dme": "patient",
    "occhealth": "customer",
    "caremanage": "patient",
    "bedboard": "patient",
    # datacatalog, fax, featurestore, filetransfer, labeling, mailinglists, massnotify, privacy, reverseetl, roadmaps, vectordb
    "datacatalog": "employee",
    "vectordb": "employee",
    "labeling": "employee",
    "reverseetl": "employee",
    "featurestore": "employee",
    "filetransfer": "employee",
    "fax": "customer",
    "massnotify": "employee",
    "mailinglists": "customer;employee|customer",
    "roadmaps": "customer",
    "privacy": "customer",
    # campgrounds, fitstudio, golf, homeinspect, laundry, marina, moving, museum, petcare, retransact, tolls, weddings
    "campgrounds": "guest",
    "fitstudio": "customer",
    "golf": "customer",
    "homeinspect": "customer",
    "laundry": "customer",
    "marina": "customer",
    "moving": "customer",
    "museum": "employee",
    "petcare": "customer",
    "retransact": "employee",
    "tolls": "customer",
    "weddings": "customer",
    # campushousing, childcare, gamebackend, musicdistro, schoolbus, transcripts
    "musicdistro": "vendor",
    "gamebackend": "customer",
    "transcripts": "student",
    "childcare": "student",
    "campushousing": "student",
    "schoolbus": "student",
    # cashapp, closebook, creditbureau, dealrooms, enablement, factoring, fieldsales, fixedassets, leadrouting, leaseacct, revrec, territories
    "revrec": "customer",
    "fixedassets": "employee",
    "factoring": "customer",
    "leaseacct": "employee",
    "closebook": "employee",
    "cashapp": "customer",
    "creditbureau": "customer|vendor",
    "enablement": "employee",
    "territories": "employee",
    "leadrouting": "customer",
    "fieldsales": "employee",
    "dealrooms": "customer",
    # cloudcost, devportal, dlp, doors, eventstreams, fraud, functions, kyc, llmobs, pentests, threatintel
    "dlp": "employee",
    "threatintel": "employee",
    "pentests": "employee",
    "doors": "employee",
    "fraud": "customer;*",
    "kyc": "customer;*",
    "cloudcost": "employee",
    "devportal": "employee",
    "llmobs": "employee",
    "eventstreams": "employee",
    "functions": "employee",
    # assettrack, consignment, crowdfund, demandplan, drones, ehs, outages, pim, siteaudits, vending, waste, wellops
    "ehs": "employee",
    "demandplan": "employee",
    "siteaudits": "employee",
    "assettrack": "employee",
    "wellops": "employee",
    "outages": "customer",
    "waste": "customer",
    "drones": "employee",
    "pim": "employee",
    "vending": "employee",
    "consignment": "customer",
    "crowdfund": "customer",
}
"""A service -> the role of the people and companies it holds when nothing narrower says."""


@dataclass(frozen=True, slots=True)
class RoleDecision:
    """How one port's role was decided.

    Attributes:
        role: The role an output holds (None for a slot that takes anyone, or when unknown).
        accepted: The roles an input accepts (None when unknown).
        rule: Which rule decided: one of :data:`RULES`.
    """

    role: str | None
    accepted: frozenset[str] | None
    rule: Rule


def _parse(spec: str) -> frozenset[str]:
    return ALL_ROLES if spec == "*" else frozenset(spec.split("|"))


def _from_spec(spec: str, rule: Rule, is_input: bool) -> RoleDecision | None:
    """The decision a table entry gives, or None when it says nothing for this direction."""
    out_spec, _, in_spec = spec.partition(";")
    if is_input:
        return RoleDecision(None, _parse(in_spec or out_spec), rule)
    if out_spec == "*":
        return None
    return RoleDecision(out_spec.split("|", 1)[0], None, rule)


def _segments(path: str) -> list[str]:
    """The names along a path, innermost first, without list markers."""
    return [s for s in reversed(path.replace("[]", "").split(".")) if s]


def _by_name(path: str, is_input: bool) -> RoleDecision | None:
    """The role a field's name or its enclosing objects' names give, if any."""
    for segment in _segments(path):
        words = segment.split("_")
        for word in words:
            role = _NAME_ROLES.get(word)
            if role is not None:
                return RoleDecision(role, frozenset({role}), "name")
        if "_".join(w for w in words if w not in _VALUE_WORDS) in _RECIPIENT_SLOTS:
            if is_input:
                return RoleDecision(None, ALL_ROLES, "name")
            # Whose address a message went to is a fact of the service's data, not of the slot.
            continue
        if _ACTOR_WORD in words:
            return RoleDecision("employee", frozenset({"employee"}), "name")
    return None


def _resource_field(tool: Tool, path: str) -> str:
    """The path relative to the tool's record: a list result's ``items[].`` wrapper dropped."""
    for prefix in ("items[].", "[]."):
        if path.startswith(prefix):
            return path[len(prefix) :]
    return path


def decide_role(tool: Tool, path: str, *, is_input: bool) -> RoleDecision:
    """Decide the role of one port of ``tool`` by the rules in order.

    Args:
        tool: The tool.
        path: The port's path (indices are normalised).
        is_input: True for a parameter, False for a result field.

    Returns:
        The decision, with the rule that made it. A port whose semantic type is not
        role-bearing (or no port at all) gives ``RoleDecision(None, None, "unknown")``.
    """
    path = normalise_path(path)
    semantic = _semantic(tool, path, is_input)
    if semantic is None or semantic not in ROLE_BEARING:
        return RoleDecision(None, None, "unknown")
    field = _resource_field(tool, path)
    for key in (f"{tool.name}:{path}", f"{tool.resource}:{field}", f"{tool.service}:{field}"):
        spec = _OVERRIDES.get(key)
        decided = _from_spec(spec, "override", is_input) if spec is not None else None
        if decided is not None:
            return decided
    decided = _by_name(path, is_input)
    if decided is not None:
        return decided
    spec = _RESOURCE_ROLES.get(tool.resource) if tool.resource is not None else None
    decided = _from_spec(spec, "resource", is_input) if spec is not None else None
    if decided is not None:
        return decided
    spec = _SERVICE_ROLES.get(tool.service)
    decided = _from_spec(spec, "service", is_input) if spec is not None else None
    if decided is not None:
        return decided
    return RoleDecision(None, None, "unknown")


_PORTS: dict[tuple[int, bool], tuple[Tool, dict[str, str]]] = {}


def _semantic(tool: Tool, path: str, is_input: bool) -> str | None:
    """The semantic type of ``tool``'s port at ``path``, ports read once per tool."""
    key = (id(tool), is_input)
    cached = _PORTS.get(key)
    if cached is None or cached[0] is not tool:
        ports = input_ports(tool) if is_input else output_ports(tool)
        cached = (tool, {p.path: p.semantic for p in ports})
        _PORTS[key] = cached
    return cached[1].get(path)


def output_role(tool: Tool, path: str) -> str | None:
    """Whose value a result field of ``tool`` holds.

    Args:
        tool: The producing tool.
        path: The result field's path (``email``, ``items[].owner_email``, ``items[0].email``).

    Returns:
        A key of :data:`ROLES`, or None when the field is not role-bearing or its role is unknown.
    """
    return decide_role(tool, path, is_input=False).role


def input_roles(tool: Tool, path: str) -> frozenset[str] | None:
    """Which value roles a parameter of ``tool`` accepts.

    Args:
        tool: The consuming tool.
        path: The parameter's path (``to[]``, ``owner_email``, ``lines[0].email``).

    Returns:
        The accepted roles (every role for a slot that takes anyone, such as a mail's
        recipients), or None when the parameter is not role-bearing or its roles are unknown.
    """
    return decide_role(tool, path, is_input=True).accepted


def role_fits(value_role: str, accepted: frozenset[str]) -> bool:
    """Whether a value of ``value_role`` may be passed to a parameter accepting ``accepted``.

    Args:
        value_role: The role the value holds (:func:`output_role`).
        accepted: The roles the parameter accepts (:func:`input_roles`).

    Returns:
        True when the role is among those accepted.
    """
    return value_role in accepted


def role_coverage(catalog: Catalog) -> dict[str, int]:
    """Count the role-bearing ports of a catalog (inputs and outputs) by the rule that decided their role.

    An output that is a slot for anyone (a message's ``to``) counts under the rule that
    finally gave its role; one no rule gave a role counts as ``unknown``.

    Args:
        catalog: The catalog.

    Returns:
        ``{rule: count}`` for every rule of :data:`RULES` (zeros included).
    """
    counts: Counter[str] = Counter({rule: 0 for rule in RULES})
    for tool in catalog.tools.values():
        for is_input, ports in ((True, input_ports(tool)), (False, output_ports(tool))):
            for port in ports:
                if port.semantic in ROLE_BEARING:
                    decision = decide_role(tool, port.path, is_input=is_input)
                    known = decision.accepted if is_input else decision.role
                    counts[decision.rule if known is not None else "unknown"] += 1
    return dict(counts)
