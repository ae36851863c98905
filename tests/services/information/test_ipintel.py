"""Netlens IP: bogons, company and carrier networks, privacy flags, allow and deny lists and their rules."""

from __future__ import annotations

from compoworld import Episode
from compoworld.services.information.ipintel import company_block, website_ip
from tests.services.helpers import ServiceTools

IP = ServiceTools("ipintel")
WORLD = IP.world
ok, refused, every = IP.ok, IP.refused, IP.every
POP = WORLD.population
SEC = POP.employees[0].email
PARTNER = POP.customers[0]


def list_named(ep: Episode, name: str) -> dict[str, object]:
    return every(ep, "list_ip_lists", name=name)[0]


def test_reserved_addresses_are_bogons_and_carry_no_data(ep: Episode) -> None:
    for addr in ("10.1.2.3", "192.168.0.1", "127.0.0.1", "::1", "203.0.113.9"):
        d = ok(ep, "lookup_ip", ip=addr)
        assert d["bogon"] is True and d["asn"] is None and d["country"] is None
    refused(ep, "lookup_privacy", "rule_violation", "ip", ip="172.16.5.5")
    refused(ep, "lookup_ip", "rule_violation", "ip", ip="300.1.1.1")
    d = ok(ep, "lookup_ip", ip="3.121.4.20")
    assert (d["bogon"], d["asn"]["asn"], d["city"], d["privacy"]["hosting"]) == (False, "AS16509", "Frankfurt", True)


def test_a_company_network_answers_with_the_company_and_its_asn(ep: Episode) -> None:
    ranges = ok(ep, "lookup_ranges", domain=PARTNER.domain)
    assert ranges["num_ranges"] == 1
    route = ranges["ranges"][0]
    d = ok(ep, "lookup_ip", ip=route.replace(".0/24", ".77"))
    assert d["company"]["name"] == PARTNER.name and d["city"] == PARTNER.place.city
    assert d["abuse"]["email"] == f"abuse@{PARTNER.domain}" and d["asn"]["route"] == route
    asn = ok(ep, "lookup_asn", asn=int(d["asn"]["asn"][2:]))
    assert [p["netblock"] for p in asn["prefixes"]] == [route] and asn["num_ips"] == 256
    assert ok(ep, "lookup_ranges", domain="nothing-here.example")["num_ranges"] == 0
    refused(ep, "lookup_asn", "not_found", "asn", asn=64512)


def test_a_company_website_is_hosted_and_reverse_ip_finds_it(ep: Episode) -> None:
    site = website_ip(POP.seed, PARTNER.domain)
    assert PARTNER.domain in ok(ep, "hosted_domains", ip=site)["domains"]
    d = ok(ep, "lookup_ip", ip=site)
    assert d["privacy"]["hosting"] and d["asn"]["type"] == "hosting"
    me = ok(ep, "my_ip")
    assert me["company"]["domain"] == POP.home.domain and me["asn"]["type"] == "business"


def test_privacy_flags_tor_vpn_and_relays_and_summaries_count_them(ep: Episode) -> None:
    assert ok(ep, "lookup_privacy", ip="185.220.101.7")["tor"] is True
    vpn = ok(ep, "lookup_privacy", ip="146.70.12.9")
    assert (vpn["vpn"], vpn["service"]) == (True, "Mullvad")
    assert ok(ep, "lookup_privacy", ip="172.225.1.1")["relay"] is True
    assert ok(ep, "lookup_privacy", ip="73.5.6.7") == {
        "vpn": False,
        "proxy": False,
        "tor": False,
        "relay": False,
        "hosting": False,
        "service": "",
    }
    s = ok(ep, "summarize_ips", ips=["185.220.101.7", "185.220.101.7", "146.70.12.9", "73.5.6.7", "10.0.0.1"])
    assert (s["total"], s["unique"], s["bogons"]) == (5, 4, 1)
    assert s["privacy"]["tor"] == 2 and s["privacy"]["vpn"] == 1 and s["top_asns"]["AS60729"] == 2


def test_a_batch_keeps_the_order_and_names_the_bad_address(ep: Episode) -> None:
    res = ok(ep, "lookup_batch", ips=["73.5.6.7", "10.0.0.1", "3.121.4.20"])
    assert [r["ip"] for r in res["results"]] == ["73.5.6.7", "10.0.0.1", "3.121.4.20"]
    assert ok(ep, "lookup_ip", ip="73.5.6.7") == res["results"][0]
    refused(ep, "lookup_batch", "rule_violation", "ips.1", ips=["73.5.6.7", "1.2.3.4.5"])


def test_entries_are_networks_that_do_not_overlap_or_contradict(ep: Episode) -> None:
    deny = list_named(ep, "blocked_scrapers")["id"]
    allow = list_named(ep, "partner_apis")["id"]
    base = {"ip_list_id": deny, "added_by": SEC}
    refused(ep, "add_entry", "rule_violation", "cidr", cidr="159.89.14.5/24", **base)
    refused(ep, "add_entry", "rule_violation", "cidr", cidr="159.89.0.0/15", **base)
    refused(ep, "add_entry", "conflict", "cidr", cidr="88.198.22.128/25", **base)
    partner_block = str(company_block(POP.seed, POP.companies.index(PARTNER)))
    if any(e["cidr"] == partner_block for e in every(ep, "list_entries", list_id=allow)):
        refused(ep, "add_entry", "conflict", "cidr", cidr=partner_block, **base)
    office = str(company_block(POP.seed, POP.companies.index(POP.home)))
    refused(ep, "add_entry", "rule_violation", "cidr", cidr=office.replace(".0/24", ".9"), **base)
    refused(ep, "add_entry", "rule_violation", "cidr", cidr="192.168.1.0/24", **base)
    refused(ep, "add_entry", "rule_violation", "added_by", cidr="159.89.14.0/24", **(base | {"added_by": "a@b.io"}))
    made = ok(ep, "add_entry", cidr="159.89.14.7", comment="Scraper", **base)
    assert made["cidr"] == "159.89.14.7/32"
    refused(ep, "add_entry", "conflict", "cidr", ip_list_id=allow, added_by=SEC, cidr="159.89.14.0/24")


def test_deny_wins_and_expired_or_disabled_entries_do_not_count(ep: Episode) -> None:
    assert ok(ep, "evaluate_ip", ip="185.220.101.7")["verdict"] == "deny"
    expired = next(e for e in every(ep, "list_entries") if e["expires_on"] and e["cidr"].endswith("/32"))
    assert ok(ep, "evaluate_ip", ip=expired["cidr"][:-3])["verdict"] == "none"
    legacy = list_named(ep, "legacy_vpn")
    old = every(ep, "list_entries", list_id=legacy["id"])[0]["cidr"]
    assert ok(ep, "evaluate_ip", ip=old.replace(".0/24", ".5"))["verdict"] == "none"
    ok(ep, "enable_ip_list", ip_list_id=legacy["id"])
    hit = ok(ep, "evaluate_ip", ip=old.replace(".0/24", ".5"))
    assert hit["verdict"] == "allow" and len(hit["matched_entry_ids"]) == 1
    vpn = ok(ep, "evaluate_ip", ip="146.70.12.9")
    assert vpn["verdict"] == "none" and "consider denying" in vpn["advice"]


def test_denying_an_asn_adds_its_networks_once_and_refuses_too_wide_ones(ep: Episode) -> None:
    deny = list_named(ep, "blocked_scrapers")["id"]
    made = ok(ep, "deny_asn", ip_list_id=deny, asn=9009, added_by=SEC)
    assert sorted(e["cidr"] for e in made) == ["146.70.0.0/16", "185.156.172.0/22"]
    assert ok(ep, "deny_asn", ip_list_id=deny, asn=9009, added_by=SEC) == []
    assert ok(ep, "evaluate_ip", ip="146.70.12.9")["verdict"] == "deny"
    refused(ep, "deny_asn", "rule_violation", "asn", ip_list_id=deny, asn=13335, added_by=SEC)
    allow = list_named(ep, "office_egress")["id"]
    refused(ep, "deny_asn", "rule_violation", "ip_list_id", ip_list_id=allow, asn=9009, added_by=SEC)


def test_lists_have_unique_names_employee_owners_and_are_deleted_only_when_disabled(ep: Episode) -> None:
    refused(ep, "create_ip_list", "conflict", "name", name="tor_exits", kind="deny", owner_email=SEC)
    refused(ep, "create_ip_list", "rule_violation", "owner_email", name="new_one", kind="deny", owner_email="x@y.io")
    made = ok(ep, "create_ip_list", name="new_one", kind="allow", owner_email=SEC)
    assert made["status"] == "active"
    tor = list_named(ep, "tor_exits")["id"]
    refused(ep, "delete_ip_list", "conflict", "ip_list_id", ip_list_id=tor)
    ok(ep, "disable_ip_list", ip_list_id=tor)
    refused(ep, "add_entry", "rule_violation", "ip_list_id", ip_list_id=tor, cidr="159.89.14.0/24", added_by=SEC)
    ok(ep, "delete_ip_list", ip_list_id=tor)
    assert all(e["list_id"] != tor for e in every(ep, "list_entries"))


def test_seeded_lists_are_owned_by_staff_and_allow_the_office_and_partners(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    for lst in every(ep, "list_ip_lists"):
        assert lst["owner_email"] in staff
    assert ok(ep, "evaluate_ip", ip=ok(ep, "my_ip")["ip"])["verdict"] == "allow"
    for e in every(ep, "list_entries", list_id=list_named(ep, "partner_apis")["id"]):
        holder = ok(ep, "lookup_ip", ip=e["cidr"].replace(".0/24", ".1"))["company"]["name"]
        assert holder in e["comment"]
