"""Switchyard Flags (LaunchDarkly-style): evaluation order, rollouts, segments, prerequisites, change rules."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FF = ServiceTools("featureflags")
WORLD = FF.world
ok, refused, every, items, first = FF.ok, FF.refused, FF.every, FF.items, FF.first
POP = WORLD.population
CONSUMERS = [p.email for p in POP.consumers]


def writer(ep: Episode) -> str:
    return str(first(ep, "members", role="writer")["email"])


def evaluate(ep: Episode, flag: str, email: str, env: str = "production", **attrs: Any) -> dict[str, Any]:
    return dict(
        ok(ep, "evaluate_flag", project_key="web", flag_key=flag, environment_key=env, user={"email": email, **attrs})
    )


def change(ep: Episode, tool: str, flag: str, env: str = "staging", **args: Any) -> dict[str, Any]:
    base = {"project_key": "web", "flag_key": flag, "environment_key": env, "actor_email": writer(ep)}
    return dict(ok(ep, tool, **base, **args))


# -- the seeded world -----------------------------------------------------------------------


def test_members_are_staff_and_segments_name_customers() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p.name for p in POP.employees}
    assert all(staff[m["email"]] == m["name"] for m in every(ep, "list_members"))
    beta = first(ep, "segments", key="beta-testers")
    assert set(beta["included"]) <= set(CONSUMERS)
    companies = {c.name for c in POP.customers}
    assert set(first(ep, "segments", key="enterprise")["companies"]) <= companies
    for flag in every(ep, "list_flags"):
        assert len(items(ep, "flag_configs", flag_id=flag["id"])) == len(items(ep, "environments"))


# -- evaluation -----------------------------------------------------------------------------


def test_a_rollout_is_deterministic_and_close_to_its_weight() -> None:
    ep = Episode(WORLD)
    results = [evaluate(ep, "new-checkout", e) for e in CONSUMERS[2:]]
    assert results == [evaluate(ep, "new-checkout", e) for e in CONSUMERS[2:]]
    share = sum(1 for r in results if r["value"] == "true") / len(results)
    assert 0.05 < share < 0.4
    assert all(r["reason"] == "FALLTHROUGH" and r["in_rollout"] for r in results)


def test_individual_targets_come_before_rules_and_the_fallthrough() -> None:
    ep = Episode(WORLD)
    targeted = evaluate(ep, "new-checkout", CONSUMERS[0])
    assert (targeted["value"], targeted["reason"]) == ("true", "TARGET_MATCH")


def test_rules_match_attributes_and_segments_in_order() -> None:
    ep = Episode(WORLD)
    eu = evaluate(ep, "pricing-page", CONSUMERS[10], country="DE")
    assert (eu["value"], eu["reason"], eu["rule_index"]) == ("annual-first", "RULE_MATCH", 0)
    big = first(ep, "segments", key="enterprise")["companies"][0]
    ent = evaluate(ep, "pricing-page", CONSUMERS[10], country="US", company=big)
    assert (ent["value"], ent["rule_index"]) == ("calculator", 1)
    plain = evaluate(ep, "pricing-page", CONSUMERS[10], country="US")
    assert (plain["value"], plain["reason"]) == ("control", "FALLTHROUGH")
    beta = first(ep, "segments", key="beta-testers")
    assert evaluate(ep, "dark-mode", beta["included"][0])["value"] == "true"
    assert evaluate(ep, "dark-mode", beta["excluded"][0])["value"] == "false"


def test_a_failed_prerequisite_serves_the_off_variation() -> None:
    ep = Episode(WORLD)
    lucky = CONSUMERS[0]  # individually targeted to the new checkout
    assert evaluate(ep, "advanced-reports", lucky, plan="pro")["reason"] == "RULE_MATCH"
    other = next(e for e in CONSUMERS[2:] if evaluate(ep, "new-checkout", e)["value"] == "false")
    res = evaluate(ep, "advanced-reports", other, plan="pro")
    assert (res["value"], res["reason"]) == ("false", "PREREQUISITE_FAILED")


def test_an_off_flag_serves_its_off_variation(ep: Episode) -> None:
    res = evaluate(ep, "maintenance-banner", CONSUMERS[3])
    assert (res["value"], res["reason"]) == ("false", "OFF")


# -- changing flags -------------------------------------------------------------------------


def test_production_changes_need_a_comment_and_readers_change_nothing(ep: Episode) -> None:
    base = {"project_key": "web", "flag_key": "maintenance-banner", "environment_key": "production", "on": True}
    refused(ep, "toggle_flag", "rule_violation", "comment", **base, actor_email=writer(ep))
    reader = first(ep, "members", role="reader")["email"]
    refused(ep, "toggle_flag", "rule_violation", "actor_email", **base, actor_email=reader, comment="Go")
    cfg = ok(ep, "toggle_flag", **base, actor_email=writer(ep), comment="Maintenance tonight")
    assert cfg["on"] and cfg["version"] == 2
    log = items(ep, "flag_changes", action="toggle")
    assert [(c["actor_email"], c["comment"]) for c in log] == [(writer(ep), "Maintenance tonight")]
    prod = first(ep, "environments", key="production")
    refused(
        ep,
        "update_environment",
        "rule_violation",
        "require_comments",
        environment_id=prod["id"],
        require_comments=False,
    )


def test_rollout_weights_must_add_up_to_100_percent(ep: Episode) -> None:
    bad = {"rollout": [{"variation": 0, "weight": 50000}, {"variation": 1, "weight": 40000}]}
    base = {"project_key": "web", "flag_key": "dark-mode", "environment_key": "staging", "actor_email": writer(ep)}
    refused(ep, "set_fallthrough", "rule_violation", "serve", **base, serve=bad)
    refused(ep, "set_fallthrough", "rule_violation", "serve", **base, serve={"variation": 5})
    cfg = change(ep, "set_fallthrough", "dark-mode", serve={"variation": 1})
    assert cfg["fallthrough"] == {"variation": 1, "rollout": None}
    assert evaluate(ep, "dark-mode", CONSUMERS[20], env="staging")["value"] == "false"


def test_a_user_is_targeted_to_one_variation_at_most(ep: Episode) -> None:
    email = CONSUMERS[30]
    change(ep, "set_individual_targets", "dark-mode", variation=0, emails=[email])
    cfg = change(ep, "set_individual_targets", "dark-mode", variation=1, emails=[email])
    assert cfg["targets"] == [{"variation": 1, "emails": [email]}]
    res = evaluate(ep, "dark-mode", email, env="staging")
    assert (res["value"], res["reason"]) == ("false", "TARGET_MATCH")


def test_rules_can_be_added_in_position_and_removed(ep: Episode) -> None:
    rule = {"clauses": [{"attribute": "email", "op": "ends_with", "values": ["@inbox.io"]}], "serve": {"variation": 1}}
    cfg = change(ep, "add_targeting_rule", "pricing-page", env="production", rule=rule, position=0, comment="Inbox")
    assert cfg["rules"][0]["clauses"][0]["values"] == ["@inbox.io"]
    bad = {
        "clauses": [{"attribute": "segment", "op": "segment_match", "values": ["ghosts"]}],
        "serve": {"variation": 0},
    }
    base = {"project_key": "web", "flag_key": "pricing-page", "environment_key": "staging", "actor_email": writer(ep)}
    refused(ep, "add_targeting_rule", "rule_violation", "rule", **base, rule=bad)
    after = change(ep, "remove_targeting_rule", "pricing-page", env="production", rule_index=0, comment="Done")
    assert len(after["rules"]) == len(cfg["rules"]) - 1
    refused(ep, "remove_targeting_rule", "rule_violation", "rule_index", **base, rule_index=9)


def test_prerequisites_cannot_form_a_cycle(ep: Episode) -> None:
    base = {
        "project_key": "web",
        "flag_key": "new-checkout",
        "environment_key": "production",
        "actor_email": writer(ep),
        "comment": "Tie them",
    }
    pre = [{"flag_key": "advanced-reports", "variation": 0}]
    refused(ep, "set_prerequisites", "rule_violation", "prerequisites", **base, prerequisites=pre)
    refused(
        ep,
        "set_prerequisites",
        "rule_violation",
        "prerequisites",
        **base,
        prerequisites=[{"flag_key": "new-checkout", "variation": 0}],
    )


def test_archiving_needs_the_flag_off_everywhere_and_unrequired(ep: Episode) -> None:
    args = {"project_key": "web", "actor_email": writer(ep)}
    refused(ep, "archive_flag", "rule_violation", "flag_key", flag_key="dark-mode", **args)
    refused(ep, "archive_flag", "conflict", "flag_key", flag_key="holiday-theme", **args)
    done = ok(ep, "archive_flag", flag_key="maintenance-banner", **args)
    assert done["archived"]
    refused(
        ep,
        "toggle_flag",
        "rule_violation",
        "flag_key",
        flag_key="maintenance-banner",
        environment_key="staging",
        on=True,
        **args,
    )
    refused(ep, "update_flag", "rule_violation", "flag_id", flag_id=done["id"], name="Back")


def test_copying_settings_and_flag_statuses(ep: Episode) -> None:
    statuses = {s["flag_key"]: s["status"] for s in ok(ep, "flag_statuses", project_key="web")}
    assert statuses["legacy-search"] == "launched" and statuses["maintenance-banner"] == "inactive"
    assert statuses["holiday-theme"] == "archived" and statuses["new-checkout"] == "active"
    cfg = ok(
        ep,
        "copy_flag_config",
        project_key="web",
        flag_key="pricing-page",
        from_environment="production",
        to_environment="test",
        actor_email=writer(ep),
    )
    refused(
        ep,
        "copy_flag_config",
        "rule_violation",
        "comment",
        project_key="web",
        flag_key="pricing-page",
        from_environment="test",
        to_environment="production",
        actor_email=writer(ep),
    )
    refused(
        ep,
        "copy_flag_config",
        "not_found",
        "to_environment",
        project_key="web",
        flag_key="pricing-page",
        from_environment="test",
        to_environment="qa",
        actor_email=writer(ep),
    )
    prod = evaluate(ep, "pricing-page", CONSUMERS[5], country="FR")
    assert evaluate(ep, "pricing-page", CONSUMERS[5], env="test", country="FR")["value"] == prod["value"]
    assert cfg["on"]


def test_a_new_flag_is_off_everywhere_and_keys_are_unique(ep: Episode) -> None:
    flag = ok(ep, "create_flag", project_key="web", key="smart-search", name="Smart search", actor_email=writer(ep))
    cfgs = items(ep, "flag_configs", flag_id=flag["id"])
    assert len(cfgs) == 3 and not any(c["on"] for c in cfgs)
    assert evaluate(ep, "smart-search", CONSUMERS[0])["value"] == "false"
    refused(
        ep,
        "create_flag",
        "conflict",
        "key",
        project_key="web",
        key="smart-search",
        name="Again",
        actor_email=writer(ep),
    )
    refused(
        ep,
        "create_flag",
        "rule_violation",
        "variations",
        project_key="web",
        key="colour",
        name="Colour",
        actor_email=writer(ep),
        kind="multivariate",
        variations=[{"value": "red"}, {"value": "red"}],
    )
