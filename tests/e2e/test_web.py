"""The page of `kgqa serve` in real headless Chromium (Debian's, driven by Playwright): a demo question
asked with the keyboard, the answer, its citation links, the evidence graph, a node's facts and its
expansion, an API error shown as a message, and the layout on a phone-sized screen."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from serve_helpers import Service, build_demo_db

pytestmark = pytest.mark.slow
sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip install -e '.[dev]')")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOT_DIR = Path(__file__).resolve().parents[2] / "docs" / "img"


@pytest.fixture(scope="module")
def service(tmp_path_factory, embedder):
    svc = Service(build_demo_db(tmp_path_factory.mktemp("web") / "demo.kuzu", embedder))
    yield svc
    assert svc.stop() == 0


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("needs Chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


def graph_nodes(page) -> dict[str, str]:
    return page.evaluate("() => Object.fromEntries(window.kgqaGraph.nodes().map(n => [n.id(), n.classes().join(' ')]))")


def test_ask_a_demo_question_and_explore_the_evidence(service, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(service.url + "/")
    sync_api.expect(page.locator("#status")).to_contain_text("35 hubs")
    sync_api.expect(page.locator("#status")).to_contain_text("446 triples")

    page.fill("#topic", "F01")
    page.fill("#hubs", "5")
    page.fill("#question", "Which papers were published at ICSA in 2019?")
    page.press("#question", "Enter")  # the keyboard submits
    sync_api.expect(page.locator("#sources > li")).to_have_count(5)
    sync_api.expect(page.locator("#answer")).to_contain_text(
        "Recovering Microservice Boundaries from Monolith Call Graphs"
    )

    cites = page.locator("#answer a.cite")
    assert cites.count() == 5 and cites.nth(0).get_attribute("href") == "#source-1"
    sync_api.expect(page.locator("#source-1")).to_contain_text("(P01)")
    sync_api.expect(page.locator("#source-1 ul")).to_contain_text("publication year, 2019")

    # the evidence graph is fetched after the answer is shown: wait until it is drawn
    page.wait_for_function("() => window.kgqaGraph !== undefined && window.kgqaGraph.edges().length > 0")
    nodes = graph_nodes(page)
    for hub in ("P01", "P02", "P03", "P04", "P05"):
        assert "hub" in nodes[hub]  # every cited hub root is drawn, marked as a hub
    assert "V01" in nodes and "literal" in " ".join(nodes.values())
    edges = page.evaluate("() => window.kgqaGraph.edges().length")
    assert edges == 10  # the 10 supporting triples

    page.click("#source-1 > a")  # a source link shows its facts
    sync_api.expect(page.locator("#facts h3")).to_contain_text("(P01)")
    sync_api.expect(page.locator("#facts")).to_contain_text("types: Paper")
    before = len(graph_nodes(page))
    page.click("#expand")  # expanding fetches the neighbours
    page.wait_for_function(f"() => window.kgqaGraph.nodes().length > {before}")
    page.screenshot(path=str(tmp_path / "web.png"), full_page=True)
    assert (tmp_path / "web.png").stat().st_size > 10_000
    if os.environ.get("KGQA_UPDATE_SCREENSHOT"):  # refresh the README's picture on request
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / "web.png", SCREENSHOT_DIR / "serve-web.png")

    sync_api.expect(page.locator("#recent")).to_contain_text("Which papers were published at ICSA in 2019?")

    page.fill("#topic", "NO_SUCH_ENTITY")  # an API error is a message, not a blank page
    page.press("#question", "Enter")
    sync_api.expect(page.locator("#error")).to_contain_text("404: no entity with id or label 'NO_SUCH_ENTITY'")
    sync_api.expect(page.locator("#error")).to_be_visible()
    page.close()


def test_phone_sized_screen_has_no_horizontal_scroll(service, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(service.url + "/")
    sync_api.expect(page.locator("#status")).to_contain_text("35 hubs")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.close()
