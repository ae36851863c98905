"""Registry Lens: RDAP records of the world's domains, DNS answers, availability, the watch list and its alerts."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.information.ipintel import website_ip
from tests.services.helpers import ServiceTools

DOM = ServiceTools("domaininfo")
WORLD = DOM.world
ok, refused, every = DOM.ok, DOM.refused, DOM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
IT = POP.employees[0].email
PARTNER = POP.customers[0]
WORDS = ("amber", "birch", "cobalt", "dune", "ember", "fjord", "granite", "harbor", "iris", "juniper", "kelp", "lumen")


def unknown_names() -> list[str]:
    return [f"{a}-{b}-works.com" for a in WORDS for b in WORDS if a != b]


def test_a_world_company_domain_is_registered_to_it_and_points_at_its_website(ep: Episode) -> None:
    rec = ok(ep, "lookup_domain", domain=f"www.{PARTNER.domain}")
    assert rec["ldh_name"] == PARTNER.domain and rec["registrant_organization"] == PARTNER.name
    assert rec["registrant"]["country"] == PARTNER.address.country and rec["days_to_expiry"] > 0
    assert "active" in rec["status"]
    registrar = ok(ep, "lookup_registrar", iana_id=int(rec["registrar"]["handle"]))
    assert registrar["name"] == rec["registrar"]["name"]
    a = ok(ep, "resolve_dns", name=PARTNER.domain, type="A")["answer"]
    assert [r["data"] for r in a] == [website_ip(POP.seed, PARTNER.domain)]
    ns = ok(ep, "resolve_dns", name=PARTNER.domain, type="NS")["answer"]
    assert sorted(r["data"].rstrip(".") for r in ns) == sorted(rec["nameservers"])
    assert ok(ep, "lookup_nameserver", nameserver=rec["nameservers"][0])["domains_served"] >= 1


def test_reserved_names_and_unknown_tlds_are_refused(ep: Episode) -> None:
    refused(ep, "lookup_domain", "rule_violation", "domain", domain="shop.example")
    refused(ep, "lookup_domain", "rule_violation", "domain", domain="example.com")
    refused(ep, "lookup_domain", "not_found", "domain", domain="acme.zz")
    refused(ep, "check_availability", "rule_violation", "domain", domain="co.uk")
    refused(ep, "lookup_domains", "rule_violation", "domains.1", domains=[PARTNER.domain, "my.test"])
    assert "com" in {t["tld"] for t in ok(ep, "list_tlds")}


def test_a_free_name_has_no_record_no_dns_and_is_available(ep: Episode) -> None:
    free = next(n for n in unknown_names() if ok(ep, "check_availability", domain=n)["available"])
    refused(ep, "lookup_domain", "not_found", "domain", domain=free)
    assert ok(ep, "resolve_dns", name=f"www.{free}", type="A") == {
        "status": 3,
        "name": f"www.{free}",
        "type": "A",
        "answer": [],
    }
    bulk = ok(ep, "lookup_domains", domains=[free, PARTNER.domain])
    assert bulk["not_registered"] == [free] and [r["ldh_name"] for r in bulk["registered"]] == [PARTNER.domain]


def test_an_expired_registration_goes_through_grace_and_frees_later(ep: Episode) -> None:
    lapsed: dict[str, Any] | None = None
    for n in unknown_names():
        av = ok(ep, "check_availability", domain=n)
        if av["available_from"] is not None:
            lapsed = av
            break
    assert lapsed is not None and not lapsed["available"]
    assert {"auto renew period", "redemption period"} & set(lapsed["status"])
    assert lapsed["available_from"] > TODAY.isoformat()
    rec = ok(ep, "lookup_domain", domain=lapsed["domain"])
    assert rec["days_to_expiry"] < 0 and rec["status"] == lapsed["status"]


def test_mail_security_grades_the_records_it_reads(ep: Episode) -> None:
    for c in POP.customers[:6]:
        m = ok(ep, "mail_security", domain=c.domain)
        mx = ok(ep, "resolve_dns", name=c.domain, type="MX")["answer"]
        assert m["mx"] == [r["data"].split(" ")[1].rstrip(".") for r in mx]
        dmarc = ok(ep, "resolve_dns", name=f"_dmarc.{c.domain}", type="TXT")["answer"]
        assert (m["dmarc_policy"] is None) == (dmarc == [])
        expected = (
            "F"
            if m["spf"] is None
            else ("A" if m["dnssec"] else "B")
            if m["dmarc_policy"] in ("reject", "quarantine")
            else "C"
        )
        assert m["grade"] == expected


def test_watching_needs_a_registered_unwatched_domain_and_an_employee(ep: Episode) -> None:
    free = next(n for n in unknown_names() if ok(ep, "check_availability", domain=n)["available"])
    refused(ep, "watch_domain", "not_found", "domain", domain=free, owner_email=IT)
    watched = every(ep, "list_watches")[0]
    refused(ep, "watch_domain", "conflict", "domain", domain=f"www.{watched['domain']}", owner_email=IT)
    other = next(c for c in POP.customers if not every(ep, "list_watches", domain=c.domain))
    refused(ep, "watch_domain", "rule_violation", "owner_email", domain=other.domain, owner_email="x@y.io")
    w = ok(ep, "watch_domain", domain=other.domain, owner_email=IT, alert_days_before=90)
    rec = ok(ep, "lookup_domain", domain=other.domain)
    assert (w["expires_on"], w["last_status"]) == (rec["expires_on"], rec["status"])
    raised = every(ep, "list_alerts", watch_id=w["id"])
    assert len(raised) == (1 if rec["days_to_expiry"] <= 90 else 0)


def test_an_expiring_domain_raises_one_alert_per_expiry(ep: Episode) -> None:
    home = every(ep, "list_watches", domain=POP.home.domain)[0]
    seeded = every(ep, "list_alerts", watch_id=home["id"])
    assert [a["kind"] for a in seeded] == ["expiring"]
    assert ok(ep, "check_watch", watch_id=home["id"]) == []
    ok(ep, "update_watch", watch_id=home["id"], alert_days_before=5)
    assert ok(ep, "check_watch", watch_id=home["id"]) == []
    assert len(every(ep, "list_alerts", watch_id=home["id"])) == 1


def test_a_status_change_since_the_last_check_is_reported(ep: Episode) -> None:
    stale = next(w for w in every(ep, "list_watches") if w["last_status"] == ["active"])
    raised = ok(ep, "check_watch", watch_id=stale["id"])
    assert [a["kind"] for a in raised if a["kind"] == "status_changed"] == ["status_changed"]
    again = ok(ep, "get_watch", watch_id=stale["id"])
    assert again["last_status"] == ok(ep, "lookup_domain", domain=stale["domain"])["status"]
    assert [a for a in ok(ep, "check_watch", watch_id=stale["id"]) if a["kind"] == "status_changed"] == []


def test_paused_watches_are_not_checked(ep: Episode) -> None:
    paused = every(ep, "list_watches", status="paused")[0]
    refused(ep, "check_watch", "rule_violation", "watch_id", watch_id=paused["id"])
    ok(ep, "run_checks")
    assert ok(ep, "get_watch", watch_id=paused["id"])["last_checked_at"] == paused["last_checked_at"]
    assert ok(ep, "resume_watch", watch_id=paused["id"])["status"] == "watching"


def test_an_alert_is_acknowledged_once_by_an_employee(ep: Episode) -> None:
    alert = every(ep, "list_alerts", status="open")[0]
    refused(
        ep, "acknowledge_alert", "rule_violation", "acknowledged_by", alert_id=alert["id"], acknowledged_by="a@b.io"
    )
    done = ok(ep, "acknowledge_alert", alert_id=alert["id"], acknowledged_by=IT)
    assert (done["status"], done["acknowledged_by"]) == ("acknowledged", IT)
    refused(ep, "acknowledge_alert", "conflict", "alert_id", alert_id=alert["id"], acknowledged_by=IT)
