"""The explorer in headless Chromium: a reader's path through catalog, task, failed run and playground.

Each step saves a screenshot under ``out/test-artifacts/explore/``. Chromium and
ChromeDriver come from Debian (``make test`` installs them as root); without them
the tests skip, except in CI, where they must run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compoworld.serve.listen import ANNOUNCE

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
ARTIFACTS = Path(__file__).resolve().parents[2] / "out" / "test-artifacts" / "explore"
WAIT = 60  # seconds: generous, as the server shares two cores with other test workers in CI

if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium and chromium-driver for the browser tests: run `make test`")
    pytest.skip("no Chromium here (apt-get install chromium chromium-driver)", allow_module_level=True)

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def server(explore_data: Path) -> Iterator[str]:
    """``compoworld explore`` on a free loopback port, stopped after the module."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "compoworld",
            "explore",
            "--tasks",
            str(explore_data / "tasks" / "tasks.jsonl"),
            "--runs",
            str(explore_data / "runs"),
            "--port",
            "0",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    url = ""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if line.startswith(ANNOUNCE):
            url = line[len(ANNOUNCE) :].strip().rstrip("/")
            break
    if not url:
        proc.kill()
        pytest.fail(f"the explorer did not start: {proc.stderr.read()[-2000:]}")
    yield url
    proc.terminate()
    proc.wait(timeout=15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium, its background traffic off (the machine's network is closed)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="explore-chromium-")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _shot(driver: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000  # a rendered page, not a blank one
    return path


def test_catalog_and_search(browser: Any, server: str) -> None:
    browser.get(server + "/catalog")
    assert "services" in browser.find_element(By.TAG_NAME, "h1").text
    _shot(browser, "catalog")
    box = browser.find_element(By.ID, "search")
    box.send_keys("archive product\n")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "results"))
    browser.find_element(By.LINK_TEXT, "shop__archive_product").click()
    WebDriverWait(browser, WAIT).until(lambda d: "shop__archive_product" in d.find_element(By.TAG_NAME, "h1").text)
    assert browser.find_element(By.ID, "fed-by").text
    _shot(browser, "tool")


def test_open_a_task(browser: Any, server: str) -> None:
    browser.get(server + "/tasks")
    links = browser.find_elements(By.CSS_SELECTOR, "#task-table a.mono")
    assert len(links) == 12
    links[0].click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "instruction"))
    assert browser.find_elements(By.CSS_SELECTOR, "svg.criteria g.node")
    _shot(browser, "task")


def test_follow_a_failed_trajectory_to_its_first_failed_criterion(
    browser: Any, server: str, explore_data: Path
) -> None:
    browser.get(server + "/runs?failed=1")
    _shot(browser, "runs")
    browser.find_element(By.CSS_SELECTOR, "#matrix a.fail").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.ID, "first-failed"))
    link = browser.find_element(By.CSS_SELECTOR, "#first-failed a")
    target = link.get_attribute("href").split("#")[1]
    link.click()
    assert browser.execute_script("return location.hash") == "#" + target
    row = browser.find_element(By.ID, target)
    assert row.find_element(By.CSS_SELECTOR, ".fail").text == "FAIL"
    assert browser.execute_script("return document.querySelector(':target').id") == target
    _shot(browser, "trajectory")


def test_play_two_calls_and_see_the_diff(browser: Any, server: str) -> None:
    browser.get(server + "/playground?services=crm")
    try:
        WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "pg").get_attribute("data-ready") == "1")
    except Exception:
        _shot(browser, "playground-not-ready")
        logs = browser.get_log("browser")
        pytest.fail(f"the playground did not get ready; browser log: {logs}")
    Select(browser.find_element(By.ID, "pg-tool")).select_by_value("crm__create_lead")
    values = {"first_name": "Ada", "last_name": "Quill", "email": "ada.quill@example.org", "company": "Quill Works"}
    for name, value in values.items():
        browser.find_element(By.CSS_SELECTOR, f'#pg-form [name="{name}"]').send_keys(value)
    browser.find_element(By.ID, "pg-call").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pg-log .call .pg-result"))
    created = json.loads(browser.find_element(By.CSS_SELECTOR, "#pg-log .call .pg-result").text)
    lead_id = created["id"]
    Select(browser.find_element(By.ID, "pg-tool")).select_by_value("crm__update_lead")
    browser.find_element(By.CSS_SELECTOR, '#pg-form [name="lead_id"]').send_keys(lead_id)
    browser.find_element(By.CSS_SELECTOR, '#pg-form [name="company"]').send_keys("Quill Operations Ltd")
    browser.find_element(By.ID, "pg-call").click()
    WebDriverWait(browser, WAIT).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#pg-log .call")) == 2)
    # The diff is fetched after the call is logged: wait for it rather than race it.
    try:
        WebDriverWait(browser, WAIT).until(lambda d: "Quill Operations Ltd" in d.find_element(By.ID, "pg-diff").text)
    except Exception:
        _shot(browser, "playground-no-diff")
        log = browser.find_element(By.ID, "pg-log").text
        pytest.fail(
            f"no diff with the update; calls: {log[:2000]}; diff: {browser.find_element(By.ID, 'pg-diff').text}"
        )
    assert "ok" in browser.find_element(By.CSS_SELECTOR, "#pg-log .call").text
    diff = browser.find_element(By.ID, "pg-diff").text
    assert "crm.leads" in diff and lead_id in diff and "Quill Operations Ltd" in diff
    assert re.search(r"added .*Quill", diff)
    _shot(browser, "playground")
