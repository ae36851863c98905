"""Waypoint DNS (Cloudflare-style): record validation, CNAME rules, zone activation, renewals, transfers."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DNS = ServiceTools("dns")
WORLD = DNS.world
ok, refused, every, items, first = DNS.ok, DNS.refused, DNS.every, DNS.items, DNS.first
POP = WORLD.population
HOME = POP.home.domain
ORG = HOME.split(".")[0]


def zone(ep: Episode, name: str = HOME) -> dict[str, Any]:
    return first(ep, "zones", name=name)


def domain(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "domains", name=name)


def record(ep: Episode, **args: Any) -> dict[str, Any]:
    return dict(ok(ep, "create_record", zone_id=zone(ep)["id"], **args))


def bad_record(ep: Episode, field: str, etype: str = "rule_violation", **args: Any) -> str:
    return refused(ep, "create_record", etype, field, zone_id=zone(ep)["id"], **args)


# -- the seeded world -----------------------------------------------------------------------


def test_the_company_holds_its_own_domain_and_zones_match_registrations() -> None:
    ep = Episode(WORLD)
    home = domain(ep, HOME)
    assert (home["registrant_company"], home["auto_renew"], home["locked"]) == (POP.home.name, True, True)
    staff = {p.email for p in POP.employees}
    assert all(d["registrant_email"] in staff for d in every(ep, "list_domains"))
    for z in every(ep, "list_zones"):
        ns = [r["content"] for r in items(ep, "records", zone_id=z["id"], type="NS", name=z["name"])]
        assert sorted(ns) == sorted(z["name_servers"])
        if z["status"] == "active":
            assert set(z["name_servers"]) <= set(domain(ep, z["name"])["nameservers"])


# -- records --------------------------------------------------------------------------------


def test_record_content_must_fit_its_type(ep: Episode) -> None:
    bad_record(ep, "content", type="A", name=f"x.{HOME}", content="not-an-ip")
    bad_record(ep, "content", type="AAAA", name=f"x.{HOME}", content="203.0.113.1")
    bad_record(ep, "content", type="CNAME", name=f"x.{HOME}", content="has space")
    bad_record(ep, "priority", type="MX", name=f"x.{HOME}", content=f"mx.{HOME}")
    bad_record(ep, "priority", type="A", name=f"x.{HOME}", content="203.0.113.1", priority=5)
    bad_record(ep, "name", type="A", name="x.elsewhere.com", content="203.0.113.1")
    good = record(ep, type="AAAA", name=f"v6.{HOME}", content="2001:db8::99", ttl=300)
    assert (good["type"], good["ttl"], good["proxied"]) == ("AAAA", 300, False)


def test_proxying_is_for_web_records_with_automatic_ttl(ep: Episode) -> None:
    bad_record(ep, "proxied", type="TXT", name=f"t.{HOME}", content="hello", proxied=True)
    bad_record(ep, "ttl", type="A", name=f"p.{HOME}", content="203.0.113.5", proxied=True, ttl=300)
    rec = record(ep, type="A", name=f"p.{HOME}", content="203.0.113.5", proxied=True)
    refused(ep, "update_record", "rule_violation", "ttl", record_id=rec["id"], ttl=600)
    assert ok(ep, "update_record", record_id=rec["id"], proxied=False, ttl=600)["ttl"] == 600


def test_a_cname_cannot_share_its_name_and_duplicates_are_refused(ep: Episode) -> None:
    msg = bad_record(ep, "name", "conflict", type="A", name=f"www.{HOME}", content="203.0.113.9")
    assert "81053" in msg
    bad_record(ep, "name", "conflict", type="CNAME", name=f"api.{HOME}", content=f"lb.{HOME}")
    assert "81058" in bad_record(ep, "content", "conflict", type="A", name=f"api.{HOME}", content="203.0.113.20")
    record(ep, type="A", name=f"api.{HOME}", content="203.0.113.21", proxied=True)


def test_the_free_plan_limits_the_ttl_and_apex_ns_records_are_managed(ep: Episode) -> None:
    dev = zone(ep, f"{ORG}.dev")
    refused(
        ep,
        "create_record",
        "rule_violation",
        "ttl",
        zone_id=dev["id"],
        type="A",
        name=f"a.{ORG}.dev",
        content="203.0.113.1",
        ttl=30,
    )
    ok(ep, "update_zone", zone_id=dev["id"], plan="pro")
    ok(ep, "create_record", zone_id=dev["id"], type="A", name=f"a.{ORG}.dev", content="203.0.113.1", ttl=30)
    refused(ep, "update_zone", "rule_violation", "plan", zone_id=dev["id"], plan="free")
    apex_ns = first(ep, "records", zone_id=dev["id"], type="NS")
    refused(ep, "delete_record", "rule_violation", "record_id", record_id=apex_ns["id"])
    refused(
        ep,
        "create_record",
        "rule_violation",
        "name",
        zone_id=dev["id"],
        type="NS",
        name=f"{ORG}.dev",
        content="ns1.other.example",
    )


# -- resolving and exporting ----------------------------------------------------------------


def test_resolution_follows_cnames_and_hides_proxied_origins(ep: Episode) -> None:
    status = ok(ep, "resolve_name", name=f"status.{HOME}")
    assert (status["chain"], status["answers"], status["status"]) == (
        [f"status.{HOME}"],
        ["192.0.2.50"],
        "NOERROR",
    )
    apex = ok(ep, "resolve_name", name=HOME)
    assert apex["answers"] == ["104.16.0.1"]  # proxied: the proxy's address
    mx = ok(ep, "resolve_name", name=HOME, type="MX")
    assert mx["answers"] == [f"10 mx1.mail.{HOME}", f"20 mx2.mail.{HOME}"]
    assert ok(ep, "resolve_name", name=f"nope.{HOME}")["status"] == "NXDOMAIN"
    assert ok(ep, "resolve_name", name=f"vpn.{HOME}", type="AAAA")["status"] == "NODATA"
    assert ok(ep, "resolve_name", name="example.org")["status"] == "REFUSED"
    wild = ok(ep, "resolve_name", name=f"pr-42.preview.{ORG}.dev")
    assert wild["answers"] == ["203.0.113.31"]


def test_a_paused_zone_answers_with_origins_through_proxied_cnames_too(ep: Episode) -> None:
    www = ok(ep, "resolve_name", name=f"www.{HOME}")
    assert (www["chain"], www["answers"]) == ([f"www.{HOME}"], ["104.16.0.1"])
    ok(ep, "update_zone", zone_id=zone(ep)["id"], paused=True)
    www = ok(ep, "resolve_name", name=f"www.{HOME}")
    assert (www["chain"], www["answers"]) == ([f"www.{HOME}"], ["203.0.113.10"])


def test_the_zone_file_lists_every_record(ep: Episode) -> None:
    z = zone(ep)
    out = ok(ep, "export_zone_file", zone_id=z["id"])
    recs = items(ep, "records", zone_id=z["id"])
    assert out["records"] == len(recs) == len(out["text"].strip().splitlines()) - 2
    assert f'_dmarc.{HOME}.\t3600\tIN\tTXT\t"v=DMARC1' in out["text"]


# -- zones ----------------------------------------------------------------------------------


def test_a_zone_activates_only_when_the_domain_delegates_to_it(ep: Episode) -> None:
    org_domain = domain(ep, f"{ORG}.org")
    z = ok(ep, "create_zone", name=f"{ORG}.org")
    assert z["status"] == "pending" and len(items(ep, "records", zone_id=z["id"])) == 2
    refused(ep, "activate_zone", "rule_violation", "zone_id", zone_id=z["id"])
    ok(ep, "set_nameservers", domain_id=org_domain["id"], nameservers=list(z["name_servers"]))
    active = ok(ep, "activate_zone", zone_id=z["id"])
    assert active["status"] == "active" and active["activated_at"] is not None
    refused(ep, "activate_zone", "conflict", "zone_id", zone_id=z["id"])
    foreign = ok(ep, "create_zone", name="someone-else.com")
    refused(ep, "activate_zone", "rule_violation", "zone_id", zone_id=foreign["id"])
    refused(ep, "create_zone", "conflict", "name", name=HOME)


def test_deleting_a_zone_removes_its_records(ep: Episode) -> None:
    z = zone(ep, f"{ORG}-status.com")
    ok(ep, "delete_zone", zone_id=z["id"])
    assert [r for r in every(ep, "list_records") if r["zone_id"] == z["id"]] == []
    refused(ep, "list_records", "not_found", "zone_id", zone_id=z["id"])


# -- registrar ------------------------------------------------------------------------------


def test_registering_charges_the_tld_price_per_year(ep: Episode) -> None:
    res = ok(
        ep,
        "register_domain",
        name=f"{ORG}-shop.io",
        registrant_company=POP.home.name,
        registrant_email=POP.employees[0].email,
        years=2,
    )
    assert res["renewal"]["amount"] == 2 * 4900 and res["domain"]["locked"]
    refused(
        ep,
        "register_domain",
        "conflict",
        "name",
        name=HOME,
        registrant_company="X",
        registrant_email=POP.employees[0].email,
    )
    refused(
        ep,
        "register_domain",
        "rule_violation",
        "name",
        name=f"{ORG}.xyz",
        registrant_company="X",
        registrant_email=POP.employees[0].email,
    )


def test_renewals_stop_at_ten_years_and_redemption_costs_extra(ep: Episode) -> None:
    home = domain(ep, HOME)
    refused(ep, "renew_domain", "rule_violation", "years", domain_id=home["id"], years=10)
    res = ok(ep, "renew_domain", domain_id=home["id"], years=2)
    assert res["renewal"]["amount"] == 2 * 1044
    assert res["domain"]["expires_on"] > home["expires_on"]
    grace = domain(ep, f"{ORG}-legacy.net")
    assert ok(ep, "renew_domain", domain_id=grace["id"])["renewal"]["amount"] == 1144
    redemption = domain(ep, f"{ORG}-old.co")
    assert ok(ep, "renew_domain", domain_id=redemption["id"])["renewal"]["amount"] == 2500 + 8000


def test_expiring_domains_lists_the_ones_that_will_lapse() -> None:
    ep = Episode(WORLD)
    report = {e["name"]: e for e in ok(ep, "expiring_domains", within_days=30)}
    assert set(report) == {f"{ORG}-status.com", f"{ORG}-legacy.net", f"{ORG}-old.co"}
    assert report[f"{ORG}-old.co"]["state"] == "redemption" and report[f"{ORG}-old.co"]["renewal_price"] == 10500
    assert report[f"{ORG}-legacy.net"]["state"] == "grace"


def test_transfers_need_the_lock_off_an_old_enough_and_unexpired_domain(ep: Episode) -> None:
    home = domain(ep, HOME)
    refused(ep, "request_transfer_out", "rule_violation", "domain_id", domain_id=home["id"])
    expired = domain(ep, f"{ORG}-legacy.net")
    refused(ep, "request_transfer_out", "rule_violation", "domain_id", domain_id=expired["id"])
    young = domain(ep, f"get{ORG}.app")
    ok(ep, "update_domain", domain_id=young["id"], locked=False)
    refused(ep, "request_transfer_out", "rule_violation", "domain_id", domain_id=young["id"])
    movable = domain(ep, f"{ORG}.org")
    res = ok(ep, "request_transfer_out", domain_id=movable["id"])
    assert res["domain"]["transfer_out_pending"] and len(res["auth_code"]) == 16
    refused(ep, "request_transfer_out", "conflict", "domain_id", domain_id=movable["id"])
    refused(ep, "update_domain", "rule_violation", "locked", domain_id=movable["id"], locked=True)
