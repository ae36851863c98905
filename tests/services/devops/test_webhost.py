"""Canopy Hosting: the deploy state machine, build concurrency, publish, rollback and lock, domains, variables, forms."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.devops.webhost import LOAD_BALANCER_IP
from tests.services.helpers import ServiceTools

WH = ServiceTools("webhost")
WORLD = WH.world
ok, refused, every = WH.ok, WH.refused, WH.every
POP = WORLD.population
SHA = "0123456789abcdef0123456789abcdef01234567"


def site(ep: Episode, suffix: str) -> dict[str, Any]:
    return next(s for s in every(ep, "list_sites") if s["name"].endswith(f"-{suffix}"))


def deploys(ep: Episode, st: dict[str, Any], **filters: Any) -> list[dict[str, Any]]:
    return every(ep, "list_deploys", site_id=st["id"], **filters)


def build(ep: Episode, st: dict[str, Any], branch: str | None = None, **kw: Any) -> dict[str, Any]:
    """Trigger, start and finish a successful build; return the finished deploy."""
    d = ok(
        ep,
        "create_deploy",
        site_id=st["id"],
        branch=branch or st["production_branch"],
        commit_ref=SHA,
        title="Change",
        **kw,
    )
    ok(ep, "start_build_deploy", deploy_id=d["id"])
    return dict(ok(ep, "complete_build", deploy_id=d["id"], succeeded=True))


def test_seeded_sites_belong_to_staff_and_forms_hold_customers(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    assert all(s["owner_email"] in staff for s in every(ep, "list_sites"))
    people = {p.email: p for p in POP.people}
    real = every(ep, "list_submissions", spam=False)
    assert real and all(people[s["email"]].name == s["name"] and people[s["email"]].role != "employee" for s in real)
    www = site(ep, "www")
    ready = [d for d in deploys(ep, www, context="production", state="ready")]
    assert www["published_deploy_id"] == max(ready, key=lambda d: d["created_at"])["id"]
    assert www["url"] == f"https://{www['custom_domain']}"


def test_site_names_are_unique_dns_labels(ep: Episode) -> None:
    owner = POP.employees[0].email
    made = ok(ep, "create_site", name="careers-2026", owner_email=owner)
    assert made["url"] == "https://careers-2026.canopy.app" and made["plan"] == "starter"
    for bad in ("Careers", "-careers", "careers_site", "careers-"):
        refused(ep, "create_site", "rule_violation", "name", name=bad, owner_email=owner)
    refused(ep, "create_site", "conflict", "name", name=site(ep, "docs")["name"], owner_email=owner)


def test_a_production_deploy_goes_new_building_ready_and_is_published(ep: Episode) -> None:
    www = site(ep, "www")
    d = ok(ep, "create_deploy", site_id=www["id"], branch="main", commit_ref=SHA, title="Fix footer")
    assert (d["state"], d["context"]) == ("new", "production")
    refused(ep, "complete_build", "rule_violation", "deploy_id", deploy_id=d["id"], succeeded=True)
    assert ok(ep, "start_build_deploy", deploy_id=d["id"])["state"] == "building"
    refused(ep, "complete_build", "rule_violation", "error_message", deploy_id=d["id"], succeeded=False)
    done = ok(ep, "complete_build", deploy_id=d["id"], succeeded=True)
    assert done["state"] == "ready" and done["published_at"] is not None
    assert site(ep, "www")["published_deploy_id"] == d["id"]
    preview = build(ep, www, branch="faq-2", pull_request_number=77)
    assert preview["context"] == "deploy-preview" and site(ep, "www")["published_deploy_id"] == d["id"]
    failed = ok(ep, "create_deploy", site_id=www["id"], branch="main", commit_ref=SHA, title="Broken")
    ok(ep, "start_build_deploy", deploy_id=failed["id"])
    bad = ok(
        ep, "complete_build", deploy_id=failed["id"], succeeded=False, error_message="Command failed: npm run build"
    )
    assert bad["state"] == "error" and site(ep, "www")["published_deploy_id"] == d["id"]


def test_deploy_contexts_and_sites_without_a_repository(ep: Episode) -> None:
    app = site(ep, "app-staging")
    branch = ok(ep, "create_deploy", site_id=app["id"], branch="main", commit_ref=SHA, title="On main")
    assert branch["context"] == "branch-deploy"
    refused(
        ep,
        "create_deploy",
        "rule_violation",
        "branch",
        site_id=app["id"],
        branch="release",
        commit_ref=SHA,
        title="PR",
        pull_request_number=5,
    )
    refused(
        ep,
        "create_deploy",
        "rule_violation",
        "site_id",
        site_id=site(ep, "spring-landing")["id"],
        branch="main",
        commit_ref=SHA,
        title="x",
    )


def test_a_starter_site_builds_one_deploy_at_a_time_and_cancel_ends_in_error(ep: Episode) -> None:
    app = site(ep, "app-staging")
    running = deploys(ep, app, state="building")[0]
    queued = deploys(ep, app, state="new")[0]
    refused(ep, "start_build_deploy", "rule_violation", "deploy_id", deploy_id=queued["id"])
    canceled = ok(ep, "cancel_deploy", deploy_id=running["id"])
    assert (canceled["state"], canceled["error_message"]) == ("error", "Canceled build")
    refused(ep, "cancel_deploy", "rule_violation", "deploy_id", deploy_id=running["id"])
    assert ok(ep, "start_build_deploy", deploy_id=queued["id"])["state"] == "building"
    www = site(ep, "www")
    for _ in range(3):
        d = ok(ep, "create_deploy", site_id=www["id"], branch="main", commit_ref=SHA, title="Parallel")
        ok(ep, "start_build_deploy", deploy_id=d["id"])
    fourth = ok(ep, "create_deploy", site_id=www["id"], branch="main", commit_ref=SHA, title="One too many")
    refused(ep, "start_build_deploy", "rule_violation", "deploy_id", deploy_id=fourth["id"])


def test_locked_auto_publishing_holds_new_deploys_until_one_is_published(ep: Episode) -> None:
    docs = site(ep, "docs")
    assert docs["locked"]
    held = build(ep, docs)
    assert held["published_at"] is None and site(ep, "docs")["published_deploy_id"] == docs["published_deploy_id"]
    refused(ep, "lock_deploy", "rule_violation", "deploy_id", deploy_id=held["id"], locked=False)
    refused(ep, "lock_deploy", "conflict", "locked", deploy_id=docs["published_deploy_id"], locked=True)
    ok(ep, "restore_deploy", deploy_id=held["id"])
    assert site(ep, "docs")["locked"] and site(ep, "docs")["published_deploy_id"] == held["id"]
    ok(ep, "lock_deploy", deploy_id=held["id"], locked=False)
    newer = build(ep, docs)
    assert site(ep, "docs")["published_deploy_id"] == newer["id"]


def test_rollback_publishes_only_ready_production_deploys(ep: Episode) -> None:
    www = site(ep, "www")
    ready = sorted(deploys(ep, www, context="production", state="ready"), key=lambda d: d["created_at"])
    errored = deploys(ep, www, state="error")[0]
    preview = deploys(ep, www, context="deploy-preview", state="ready")[0]
    refused(ep, "restore_deploy", "rule_violation", "deploy_id", deploy_id=errored["id"])
    refused(ep, "restore_deploy", "rule_violation", "deploy_id", deploy_id=preview["id"])
    refused(ep, "restore_deploy", "conflict", "deploy_id", deploy_id=ready[-1]["id"])
    back = ok(ep, "restore_deploy", deploy_id=ready[-2]["id"])
    assert back["published_at"] is not None and site(ep, "www")["published_deploy_id"] == ready[-2]["id"]


def test_custom_domains_belong_to_one_site_and_verify_by_their_dns_record(ep: Episode) -> None:
    domain = POP.home.domain
    app = site(ep, "app-staging")
    refused(ep, "add_domain", "conflict", "hostname", site_id=app["id"], hostname=f"www.{domain}")
    refused(ep, "add_domain", "rule_violation", "hostname", site_id=app["id"], hostname="other.canopy.app")
    sub = ok(ep, "add_domain", site_id=app["id"], hostname=f"staging.{domain}")
    assert sub["primary"] and site(ep, "app-staging")["custom_domain"] == f"staging.{domain}"
    assert not ok(ep, "add_domain", site_id=app["id"], hostname=f"beta.{domain}")["primary"]
    refused(
        ep,
        "verify_domain",
        "rule_violation",
        "record_value",
        domain_id=sub["id"],
        record_type="CNAME",
        record_value="somewhere.else.net",
    )
    done = ok(ep, "verify_domain", domain_id=sub["id"], record_type="CNAME", record_value=f"{app['name']}.canopy.app.")
    assert (done["verified"], done["ssl_state"]) == (True, "provisioned")
    assert site(ep, "app-staging")["url"] == f"https://staging.{domain}"
    apex = ok(ep, "create_site", name="apex-test", owner_email=POP.employees[0].email)
    top = ok(ep, "add_domain", site_id=apex["id"], hostname="example-shop.com")
    refused(
        ep,
        "verify_domain",
        "rule_violation",
        "record_type",
        domain_id=top["id"],
        record_type="CNAME",
        record_value="apex-test.canopy.app",
    )
    assert ok(ep, "verify_domain", domain_id=top["id"], record_type="A", record_value=LOAD_BALANCER_IP)["verified"]


def test_environment_variables_follow_the_context_and_secret_rules(ep: Episode) -> None:
    www = site(ep, "www")["id"]
    prod = {"context": "production", "value": "x"}
    refused(ep, "set_env_var", "rule_violation", "key", site_id=www, key="URL", values=[prod])
    refused(ep, "set_env_var", "rule_violation", "key", site_id=www, key="2FA_KEY", values=[prod])
    refused(ep, "set_env_var", "rule_violation", "values", site_id=www, key="K", values=[prod, prod])
    refused(
        ep,
        "set_env_var",
        "rule_violation",
        "values",
        site_id=www,
        key="K",
        values=[{"context": "all", "value": "1"}, prod],
    )
    refused(
        ep,
        "set_env_var",
        "rule_violation",
        "values",
        site_id=www,
        key="K",
        is_secret=True,
        values=[{"context": "dev", "value": "1"}],
    )
    old = every(ep, "list_env_vars", site_id=www, key="ANALYTICS_ID")[0]
    new = ok(ep, "set_env_var", site_id=www, key="ANALYTICS_ID", values=[{"context": "all", "value": "G-9"}])
    assert new["id"] == old["id"] and [v["context"] for v in new["values"]] == ["all"]


def test_form_submissions_are_marked_as_spam_or_verified(ep: Episode) -> None:
    sub = every(ep, "list_submissions", spam=False)[0]
    assert ok(ep, "mark_submission_spam", submission_id=sub["id"], spam=True)["spam"]
    refused(ep, "mark_submission_spam", "conflict", "spam", submission_id=sub["id"], spam=True)
    spam = every(ep, "list_submissions", spam=True)
    assert {s["id"] for s in spam} >= {sub["id"]}
    ok(ep, "mark_submission_spam", submission_id=sub["id"], spam=False)
