"""Trustgrid Certificates: template policy, approvals, issuance, renewals onto installations, revocation."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CERTS = ServiceTools("certs")
WORLD = CERTS.world
ok, refused, every = CERTS.ok, CERTS.refused, CERTS.every
POP = WORLD.population
DOMAIN = POP.home.domain
STAFF = {p.email for p in POP.employees}
ADMINS = sorted(p.email for p in POP.staff("IT", "Engineering", fallback=6))


def template(ep: Episode, ca: str) -> dict[str, Any]:
    return every(ep, "list_templates", ca=ca)[0]


def cert(ep: Episode, host: str) -> dict[str, Any]:
    return every(ep, "list_certificates", common_name=f"{host}.{DOMAIN}")[0]


def app(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_applications")[0]


def test_seeded_inventory_is_consistent(ep: Episode) -> None:
    for c in every(ep, "list_certificates"):
        req = ok(ep, "get_certificate_request", certificate_request_id=c["request_id"])
        assert (req["status"], req["certificate_id"], req["common_name"]) == ("issued", c["id"], c["common_name"])
        assert c["valid_from"] < c["valid_to"]
    for i in every(ep, "list_installations"):
        assert ok(ep, "get_certificate", certificate_id=i["certificate_id"])["status"] == "active"
    assert {a["owner_email"] for a in every(ep, "list_applications")} <= STAFF
    assert {c["status"] for c in every(ep, "list_certificates")} == {"active", "expired", "revoked", "retired"}


def test_an_acme_template_issues_at_once_within_its_policy(ep: Episode) -> None:
    tpl, owner = template(ep, "lets_encrypt"), app(ep)
    base = {"application_id": owner["id"], "template_id": tpl["id"], "requested_by": owner["owner_email"]}
    good = {"common_name": f"docs.{DOMAIN}", "key_type": "EC_P256", "validity_days": 90}
    req = ok(ep, "request_certificate", sans=[f"docs.{DOMAIN}", f"help.{DOMAIN}"], **base, **good)
    assert (req["status"], req["sans"]) == ("issued", [f"help.{DOMAIN}"])
    c = ok(ep, "get_certificate", certificate_id=req["certificate_id"])
    assert (c["status"], c["ca"], c["key_type"]) == ("active", "lets_encrypt", "EC_P256")
    refused(
        ep, "request_certificate", "rule_violation", "common_name", **base, **(good | {"common_name": "x.other.org"})
    )
    refused(
        ep, "request_certificate", "rule_violation", "common_name", **base, **(good | {"common_name": f"*.{DOMAIN}"})
    )
    refused(ep, "request_certificate", "rule_violation", "sans", sans=["evil.org"], **base, **good)
    refused(ep, "request_certificate", "rule_violation", "key_type", **base, **(good | {"key_type": "RSA_4096"}))
    refused(ep, "request_certificate", "rule_violation", "validity_days", **base, **(good | {"validity_days": 91}))


def test_an_ov_request_waits_for_a_second_administrator(ep: Episode) -> None:
    tpl, owner = template(ep, "digicert"), app(ep)
    requester = ADMINS[0]
    args = {"application_id": owner["id"], "template_id": tpl["id"], "key_type": "RSA_3072", "validity_days": 397}
    req = ok(ep, "request_certificate", common_name=f"*.app.{DOMAIN}", requested_by=requester, **args)
    assert (req["status"], req["certificate_id"]) == ("pending_approval", None)
    refused(
        ep,
        "request_certificate",
        "conflict",
        "common_name",
        common_name=f"*.app.{DOMAIN}",
        requested_by=requester,
        **args,
    )
    refused(ep, "approve_request", "rule_violation", "approver_email", request_id=req["id"], approver_email=requester)
    outsider = next(e for e in sorted(STAFF) if e not in ADMINS)
    refused(ep, "approve_request", "rule_violation", "approver_email", request_id=req["id"], approver_email=outsider)
    done = ok(ep, "approve_request", request_id=req["id"], approver_email=ADMINS[1])
    assert (done["status"], done["decided_by"]) == ("issued", ADMINS[1])
    assert ok(ep, "get_certificate", certificate_id=done["certificate_id"])["common_name"] == f"*.app.{DOMAIN}"
    refused(ep, "approve_request", "conflict", "request_id", request_id=req["id"], approver_email=ADMINS[1])


def test_rejections_need_a_reason_and_pending_requests_can_be_cancelled(ep: Episode) -> None:
    req = every(ep, "list_certificate_requests", status="pending_approval")[0]
    admin = next(e for e in ADMINS if e != req["requested_by"])
    refused(ep, "reject_request", "rule_violation", "reason", request_id=req["id"], approver_email=admin, reason=" ")
    out = ok(ep, "reject_request", request_id=req["id"], approver_email=admin, reason="Use the ACME template")
    assert (out["status"], out["error"]) == ("rejected", "Use the ACME template")
    refused(
        ep, "cancel_certificate_request", "rule_violation", "certificate_request_id", certificate_request_id=req["id"]
    )


def test_renewing_an_acme_certificate_moves_its_installations(ep: Episode) -> None:
    old = cert(ep, "portal")
    soon = [c["id"] for c in ok(ep, "expiring_certificates", within_days=30)]
    assert old["id"] in soon and cert(ep, "www")["id"] not in soon
    sites = every(ep, "list_installations", certificate_id=old["id"])
    req = ok(ep, "renew_certificate", certificate_id=old["id"])
    assert (req["status"], req["renewal_of"], req["validity_days"]) == ("issued", old["id"], 90)
    assert ok(ep, "get_certificate", certificate_id=old["id"])["replaced_by_id"] == req["certificate_id"]
    moved = every(ep, "list_installations", certificate_id=req["certificate_id"])
    assert [i["id"] for i in moved] == [i["id"] for i in sites] and sites
    assert old["id"] not in [c["id"] for c in ok(ep, "expiring_certificates", within_days=30)]
    refused(ep, "renew_certificate", "conflict", "certificate_id", certificate_id=old["id"])


def test_renewals_under_an_approval_template_wait_once(ep: Episode) -> None:
    old = cert(ep, "api")
    req = ok(ep, "renew_certificate", certificate_id=old["id"])
    assert req["status"] == "pending_approval"
    refused(ep, "renew_certificate", "conflict", "certificate_id", certificate_id=old["id"])
    admin = next(e for e in ADMINS if e != req["requested_by"])
    done = ok(ep, "approve_request", request_id=req["id"], approver_email=admin)
    assert every(ep, "list_installations", certificate_id=done["certificate_id"])
    assert every(ep, "list_installations", certificate_id=old["id"]) == []
    expired = cert(ep, "pay")
    assert ok(ep, "renew_certificate", certificate_id=expired["id"])["renewal_of"] == expired["id"]
    refused(ep, "renew_certificate", "rule_violation", "certificate_id", certificate_id=cert(ep, "smtp")["id"])


def test_revoked_certificates_cannot_be_installed_and_retire_once_removed(ep: Episode) -> None:
    c = cert(ep, "mail")
    revoked = ok(ep, "revoke_certificate", certificate_id=c["id"], reason="key_compromise")
    assert (revoked["status"], revoked["revocation_reason"]) == ("revoked", "key_compromise")
    refused(ep, "revoke_certificate", "conflict", "certificate_id", certificate_id=c["id"], reason="superseded")
    refused(
        ep,
        "install_certificate",
        "rule_violation",
        "certificate_id",
        certificate_id=c["id"],
        hostname="mx-02.corp",
        platform="nginx",
    )
    refused(ep, "retire_certificate", "conflict", "certificate_id", certificate_id=c["id"])
    for i in every(ep, "list_installations", certificate_id=c["id"]):
        ok(ep, "delete_installation", installation_id=i["id"])
    assert ok(ep, "retire_certificate", certificate_id=c["id"])["status"] == "retired"


def test_a_port_serves_one_certificate(ep: Episode) -> None:
    site = every(ep, "list_installations", certificate_id=cert(ep, "www")["id"])[0]
    new = cert(ep, "api")
    args = {"hostname": site["hostname"], "port": site["port"], "platform": "nginx"}
    swapped = ok(ep, "install_certificate", certificate_id=new["id"], **args)
    assert (swapped["id"], swapped["certificate_id"]) == (site["id"], new["id"])
    refused(ep, "install_certificate", "conflict", "hostname", certificate_id=new["id"], **args)
    refused(ep, "install_certificate", "rule_violation", "certificate_id", certificate_id=cert(ep, "pay")["id"], **args)
    extra = ok(ep, "install_certificate", certificate_id=new["id"], **(args | {"port": 8443}))
    assert extra["id"] != site["id"]


def test_applications_are_unique_owned_by_staff_and_deleted_when_empty(ep: Episode) -> None:
    first = app(ep)
    refused(ep, "create_application", "conflict", "name", name=first["name"].upper(), owner_email=first["owner_email"])
    refused(ep, "create_application", "rule_violation", "owner_email", name="Shop", owner_email="nobody@x.io")
    made = ok(ep, "create_application", name="Shop", owner_email=first["owner_email"])
    refused(ep, "update_application", "rule_violation", "owner_email", application_id=made["id"], owner_email="a@b.io")
    refused(ep, "delete_application", "conflict", "application_id", application_id=first["id"])
    legacy = every(ep, "list_applications", name="Legacy VPN")[0]
    ok(ep, "delete_application", application_id=legacy["id"])
