"""Spotlight Creators: budgets, activations, product seeding, content approval and payments within fees."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

INF = ServiceTools("influencers")
WORLD = INF.world
ok, refused, every = INF.ok, INF.refused, INF.every
POP = WORLD.population
CONSUMERS = {p.email: p for p in POP.consumers}
OWNER = POP.employees[0].email


def campaign(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_campaigns", status=status)[0]


def creator(ep: Episode, stage: str) -> dict[str, Any]:
    return every(ep, "list_creators", stage=stage)[0]


def test_seeded_creators_are_the_worlds_people_and_fees_fit_budgets(ep: Episode) -> None:
    for c in every(ep, "list_creators"):
        person = CONSUMERS[c["email"]]
        assert c["name"] == person.name and c["country"] == person.place.country
    for camp in every(ep, "list_campaigns"):
        acts = every(ep, "list_activations", campaign_id=camp["id"])
        assert sum(a["fee_cents"] for a in acts if a["status"] != "declined") <= camp["budget_cents"]
    assert {c["status"] for c in every(ep, "list_campaigns")} == {"draft", "active", "completed", "cancelled"}


def test_invitations_stay_within_the_budget_and_move_the_creator_along(ep: Episode) -> None:
    camp = campaign(ep, "active")
    prospect = creator(ep, "contacted")
    refused(
        ep,
        "invite_creator",
        "rule_violation",
        "fee_cents",
        campaign_id=camp["id"],
        creator_id=prospect["id"],
        fee_cents=600_000,
    )
    act = ok(ep, "invite_creator", campaign_id=camp["id"], creator_id=prospect["id"], fee_cents=550_000)
    assert act["status"] == "invited"
    assert ok(ep, "get_creator", creator_id=prospect["id"])["stage"] == "negotiating"
    refused(
        ep, "invite_creator", "conflict", "creator_id", campaign_id=camp["id"], creator_id=prospect["id"], fee_cents=1
    )
    refused(ep, "update_campaign", "rule_violation", "budget_cents", campaign_id=camp["id"], budget_cents=1_000_000)
    gone = creator(ep, "inactive")
    refused(
        ep, "invite_creator", "rule_violation", "creator_id", campaign_id=camp["id"], creator_id=gone["id"], fee_cents=1
    )
    refused(
        ep,
        "invite_creator",
        "conflict",
        "campaign_id",
        campaign_id=campaign(ep, "completed")["id"],
        creator_id=prospect["id"],
        fee_cents=1,
    )


def test_only_accepted_creators_get_products(ep: Episode) -> None:
    camp = campaign(ep, "active")
    invited = every(ep, "list_activations", campaign_id=camp["id"], status="invited")[0]
    refused(
        ep, "seed_product", "rule_violation", "creator_id", campaign_id=camp["id"], creator_id=invited["creator_id"]
    )
    ok(ep, "accept_activation", activation_id=invited["id"])
    shp = ok(ep, "seed_product", campaign_id=camp["id"], creator_id=invited["creator_id"])
    assert (shp["status"], shp["sku"]) == ("pending", camp["product_sku"])
    refused(ep, "seed_product", "conflict", "sku", campaign_id=camp["id"], creator_id=invited["creator_id"])
    refused(ep, "deliver_shipment", "rule_violation", "shipment_id", shipment_id=shp["id"])
    shipped = ok(ep, "ship_shipment", shipment_id=shp["id"], tracking_number="1Z999AA10123456784")
    assert shipped["tracking_number"] == "1Z999AA10123456784"
    assert ok(ep, "deliver_shipment", shipment_id=shp["id"])["status"] == "delivered"


def test_content_waits_for_the_product_to_arrive(ep: Episode) -> None:
    camp = campaign(ep, "active")
    waiting = every(ep, "list_shipments", campaign_id=camp["id"], status="shipped")[0]
    args = {"campaign_id": camp["id"], "creator_id": waiting["creator_id"], "content_type": "reel"}
    url = "https://www.tiktok.com/@x/video/1"
    refused(ep, "submit_content", "rule_violation", "creator_id", url=url, **args)
    ok(ep, "deliver_shipment", shipment_id=waiting["id"])
    assert ok(ep, "submit_content", url=url, caption="#ad #spring", **args)["status"] == "submitted"


def test_approval_requires_the_campaign_hashtags(ep: Episode) -> None:
    camp = campaign(ep, "active")
    delivered = every(ep, "list_shipments", campaign_id=camp["id"], status="delivered")[0]
    made = ok(
        ep,
        "submit_content",
        campaign_id=camp["id"],
        creator_id=delivered["creator_id"],
        content_type="story",
        url="https://www.instagram.com/stories/x/1/",
        caption="so good #spring",
    )
    refused(ep, "approve_content", "rule_violation", "content_id", content_id=made["id"])
    refused(ep, "reject_content", "rule_violation", "feedback", content_id=made["id"], feedback=" ")
    rejected = ok(ep, "reject_content", content_id=made["id"], feedback="Add #ad")
    assert (rejected["status"], rejected["feedback"]) == ("rejected", "Add #ad")
    refused(ep, "approve_content", "conflict", "content_id", content_id=made["id"])
    refused(ep, "publish_content", "rule_violation", "content_id", content_id=made["id"])


def test_payments_need_approved_content_and_stay_within_the_fee(ep: Episode) -> None:
    camp = campaign(ep, "active")
    pending = every(ep, "list_payments", campaign_id=camp["id"], status="pending")[0]
    act = every(ep, "list_activations", campaign_id=camp["id"], creator_id=pending["creator_id"])[0]
    args = {"campaign_id": camp["id"], "creator_id": pending["creator_id"]}
    left = act["fee_cents"] - pending["amount_cents"]
    refused(ep, "create_payment", "rule_violation", "amount_cents", amount_cents=left + 1, **args)
    assert ok(ep, "create_payment", amount_cents=left, **args)["status"] == "pending"
    submitted = every(ep, "list_contents", campaign_id=camp["id"], status="submitted")[0]
    refused(
        ep,
        "create_payment",
        "rule_violation",
        "creator_id",
        campaign_id=camp["id"],
        creator_id=submitted["creator_id"],
        amount_cents=100,
    )
    paid = ok(ep, "pay_payment", payment_id=pending["id"])
    assert paid["status"] == "paid" and paid["paid_at"] is not None
    refused(ep, "pay_payment", "conflict", "payment_id", payment_id=pending["id"])
    refused(ep, "cancel_payment", "rule_violation", "payment_id", payment_id=pending["id"])


def test_a_campaign_needs_a_brief_to_launch(ep: Episode) -> None:
    refused(ep, "create_campaign", "rule_violation", "owner_email", name="X", owner_email="a@b.io", budget_cents=10)
    refused(
        ep,
        "create_campaign",
        "rule_violation",
        "product_sku",
        name="X",
        owner_email=OWNER,
        budget_cents=10,
        product_sku="NOPE-1",
    )
    camp = ok(ep, "create_campaign", name="Winter", owner_email=OWNER, budget_cents=500_000)
    refused(ep, "activate_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"])
    ok(ep, "update_campaign", campaign_id=camp["id"], brief="Unbox it on camera.")
    assert ok(ep, "activate_campaign", campaign_id=camp["id"])["status"] == "active"
    ok(ep, "complete_campaign", campaign_id=camp["id"])
    refused(ep, "update_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"], name="Later")


def test_creators_are_unique_and_keep_their_history(ep: Episode) -> None:
    known = every(ep, "list_creators")[0]
    refused(
        ep, "create_creator", "conflict", "email", name="A B", email=known["email"], handle="@new_one", network="tiktok"
    )
    refused(
        ep,
        "create_creator",
        "conflict",
        "handle",
        name="A B",
        email="ab@example.org",
        handle=known["handle"],
        network="tiktok",
    )
    refused(ep, "delete_creator", "conflict", "creator_id", creator_id=creator(ep, "active")["id"])
    made = ok(ep, "create_creator", name="A B", email="ab@example.org", handle="@new_one", network="youtube")
    assert made["stage"] == "prospect"
    ok(ep, "delete_creator", creator_id=made["id"])


def test_end_to_end_creator_collaboration(ep: Episode) -> None:
    sku = POP.products[0].sku
    camp = ok(
        ep, "create_campaign", name="Launch", owner_email=OWNER, budget_cents=100_000, brief="Show it", product_sku=sku
    )
    ok(ep, "update_campaign", campaign_id=camp["id"], hashtags=["#ad"])
    ok(ep, "activate_campaign", campaign_id=camp["id"])
    cr = creator(ep, "prospect")
    act = ok(ep, "invite_creator", campaign_id=camp["id"], creator_id=cr["id"], fee_cents=80_000)
    ok(ep, "accept_activation", activation_id=act["id"])
    shp = ok(ep, "seed_product", campaign_id=camp["id"], creator_id=cr["id"])
    ok(ep, "ship_shipment", shipment_id=shp["id"], tracking_number="TRK12345678")
    ok(ep, "deliver_shipment", shipment_id=shp["id"])
    post = ok(
        ep,
        "submit_content",
        campaign_id=camp["id"],
        creator_id=cr["id"],
        content_type="post",
        url="https://www.instagram.com/p/abc/",
        caption="My pick #ad",
    )
    ok(ep, "approve_content", content_id=post["id"])
    assert ok(ep, "publish_content", content_id=post["id"])["status"] == "live"
    pay = ok(ep, "create_payment", campaign_id=camp["id"], creator_id=cr["id"], amount_cents=80_000)
    assert ok(ep, "pay_payment", payment_id=pay["id"])["status"] == "paid"
    refused(
        ep,
        "create_payment",
        "rule_violation",
        "amount_cents",
        campaign_id=camp["id"],
        creator_id=cr["id"],
        amount_cents=1,
    )
