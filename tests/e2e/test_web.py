"""The page of `kgqa serve` in real headless Chromium (Debian's, driven by Playwright): a demo question
asked with the keyboard, the answer, its citations pointing at their source's triples in the text, the list
and the graph, the evidence joined by shared entities, a node's facts and its expansion, an API error shown
as a message, the explore views (search, a venue's papers page by page, the type filter, shortest paths on
the demo graph and on the ORKG graph, the schema), no console error, no request to another host, and the
layout on a phone-sized screen. `KGQA_UPDATE_SCREENSHOT=1` refreshes the pictures in docs/img/."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from serve_helpers import Service, build_demo_db

pytestmark = pytest.mark.slow
sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip install -e '.[dev]')")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOT_DIR = Path(__file__).resolve().parents[2] / "docs" / "img"
ORKG_GRAPH = Path(__file__).resolve().parents[3] / "shared" / "bench" / "orkg" / "graph_gv3.json"
#: Chromium without its own network traffic: every request the page makes is the page's.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


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
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def graph_nodes(page) -> dict[str, str]:
    return page.evaluate("() => Object.fromEntries(window.kgqaGraph.nodes().map(n => [n.id(), n.classes().join(' ')]))")


class Watch:
    """A page's console errors, uncaught exceptions and the hosts it requested."""

    def __init__(self, page, url: str) -> None:
        self.errors: list[str] = []
        self.hosts: set[str] = set()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.hosts.add(urlsplit(r.url).netloc))
        self.service_host = urlsplit(url).netloc

    def check(self) -> None:
        assert self.errors == []
        assert self.hosts == {self.service_host}


def screenshot(page, tmp_path: Path, name: str) -> None:
    """A full-page picture; copied to docs/img/ when KGQA_UPDATE_SCREENSHOT is set."""
    page.screenshot(path=str(tmp_path / name), full_page=True)
    assert (tmp_path / name).stat().st_size > 10_000
    if os.environ.get("KGQA_UPDATE_SCREENSHOT"):
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / name, SCREENSHOT_DIR / name)


def test_ask_a_demo_question_and_explore_the_evidence(service, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    watch = Watch(page, service.url)
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
    sync_api.expect(page.locator("#source-1")).to_contain_text("[1]")
    # the exact answer lists the papers by title: [1] is 'A Decision Model ...' (P03)
    sync_api.expect(page.locator("#source-1")).to_contain_text("(P03)")
    sync_api.expect(page.locator("#source-1 ul")).to_contain_text("publication year, 2019")

    # the evidence graph is fetched after the answer is shown: wait until it is drawn
    page.wait_for_function("() => window.kgqaGraph !== undefined && window.kgqaGraph.edges().length > 0")
    nodes = graph_nodes(page)
    for hub in ("P01", "P02", "P03", "P04", "P05"):
        assert "hub" in nodes[hub]  # every cited hub root is drawn, marked as a hub
    assert "V01" in nodes and "literal" in " ".join(nodes.values())
    kinds = page.evaluate("() => window.kgqaGraph.edges().map(e => e.classes().join(' '))")
    assert kinds.count("") == 10  # the 10 supporting triples, drawn as evidence
    assert "topic" in nodes["F01"]  # the topic entity, joined to the hubs by paths
    # the hubs' shared venue, year and field join them: the evidence is one connected piece
    assert page.evaluate("() => window.kgqaGraph.elements().not('.group').components().length") == 1
    labels = page.evaluate("() => window.kgqaGraph.nodes().map(n => n.data('short'))")
    assert all(len(label) <= 32 for label in labels)  # shortened; the full text is the tooltip's
    assert "[3] Recovering Microservice" in " ".join(labels)  # the hub carries its source number

    # a citation points at its source: the same triples light up in the list and the graph
    page.click("#answer a.cite >> nth=2")
    sync_api.expect(page.locator("#source-3")).to_have_class("active")
    listed = page.locator("#source-3 li[data-triple].hl").all_inner_texts()
    lit = page.evaluate("() => window.kgqaGraph.edges('.hl').map(e => e.data('triple'))")
    assert listed and sorted(lit) == sorted(listed) and all(t.startswith("(P01:") for t in lit)
    assert "hl" in graph_nodes(page)["P01"] and "dim" in graph_nodes(page)["P03"]
    assert page.locator("#sources li[data-triple].hl").count() == len(listed)
    screenshot(page, tmp_path, "serve-web.png")
    page.hover("#answer a.cite >> nth=0")  # a pinned source stays while another is hovered
    assert "hl" in graph_nodes(page)["P01"]
    page.keyboard.press("Escape")  # Esc lets go of it
    page.wait_for_function("() => window.kgqaGraph.elements('.hl').length === 0")

    page.click("#source-1 summary a.cite")  # a source's number shows its hub's facts
    sync_api.expect(page.locator("#facts h3")).to_contain_text("(P03)")
    sync_api.expect(page.locator("#facts")).to_contain_text("types: Paper")
    before = len(graph_nodes(page))
    page.click("#expand")  # expanding fetches the neighbours
    page.wait_for_function(f"() => window.kgqaGraph.nodes().length > {before}")

    sync_api.expect(page.locator("#recent")).to_contain_text("Which papers were published at ICSA in 2019?")
    watch.check()

    page.fill("#topic", "NO_SUCH_ENTITY")  # an API error is a message, not a blank page
    page.press("#question", "Enter")
    sync_api.expect(page.locator("#error")).to_contain_text("404: no entity with id or label 'NO_SUCH_ENTITY'")
    sync_api.expect(page.locator("#error")).to_be_visible()
    sync_api.expect(page.locator("#facts")).to_be_empty()  # a new question clears the old facts
    assert page.locator("#recent li").count() == 1  # the failed question is not "recent"
    page.close()


def test_many_sources_stay_readable(service, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watch = Watch(page, service.url)
    page.goto(service.url + "/")
    page.select_option("#strategy", "direct")
    page.fill("#question", "Which papers were written by authors affiliated with a university?")
    page.press("#question", "Enter")
    page.wait_for_function("() => window.kgqaGraph !== undefined && window.kgqaGraph.edges().length > 0")
    n = page.locator("#sources > li").count()
    assert n > 6 and page.locator("#answer a.cite").count() >= n
    assert page.locator("#sources details[open]").count() == 0  # many sources: the list starts collapsed
    assert page.evaluate("() => window.kgqaGraph.nodes('.group').length") >= 1  # hubs boxed with their own
    numbers = page.evaluate("() => window.kgqaGraph.nodes('.hub').map(h => h.data('source_n')).filter(x => x)")
    assert sorted(numbers) == list(range(1, n + 1))  # every source numbered 1..n in the graph as in the list
    zoom = page.evaluate("() => window.kgqaGraph.zoom()")
    page.click("#answer a.cite >> nth=4")  # a pinned source is brought into view, its details opened
    sync_api.expect(page.locator("#source-5 details")).to_have_attribute("open", "")
    hub = page.evaluate("() => window.kgqaGraph.nodes('.hub.hl').map(h => h.id())")
    assert len(hub) == 1 and page.evaluate("() => window.kgqaGraph.zoom()") > zoom
    assert "(" + hub[0] + ")" in page.locator("#source-5 summary").inner_text()
    screenshot(page, tmp_path, "serve-many-sources.png")
    page.click("#sources-toggle")
    assert page.locator("#sources details[open]").count() == n
    watch.check()
    page.close()


def ask_demo(page, service) -> None:
    page.goto(service.url + "/")
    page.fill("#topic", "F01")
    page.fill("#hubs", "5")
    page.fill("#question", "Which papers were published at ICSA in 2019?")
    page.press("#question", "Enter")
    page.wait_for_function("() => window.kgqaGraph !== undefined && window.kgqaGraph.edges().length > 0")


def test_explore_a_venue_page_by_page_and_filter_by_type(service, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watch = Watch(page, service.url)
    ask_demo(page, service)
    page.fill("#topic", "")
    page.fill("#question", "")
    page.fill("#search", "2019")  # literals are found too
    page.click("#search-form button[type=submit]")
    sync_api.expect(page.locator("#search-results button.open").first).to_have_text("2019")
    page.keyboard.press("Escape")  # Esc closes the results
    sync_api.expect(page.locator("#search-results")).to_be_hidden()

    page.fill("#search", "ICSA")
    page.click("#search-form button[type=submit]")
    page.click("#search-results button.open[data-id='V01']")
    sync_api.expect(page.locator("#facts h3")).to_contain_text("(V01)")
    assert graph_nodes(page).keys() == {"V01"}  # a fresh graph holding the venue
    sync_api.expect(page.locator("#facts button.count")).to_have_text(["← venue (10)"])
    page.click("#facts button.count")  # the venue's papers, one page at a time
    sync_api.expect(page.locator("#expand-status")).to_contain_text("6 of 10 drawn")
    assert len(graph_nodes(page)) == 7
    page.click("#more")
    sync_api.expect(page.locator("#expand-status")).to_contain_text("10 of 10 drawn")
    sync_api.expect(page.locator("#more")).to_have_count(0)
    nodes = graph_nodes(page)
    papers = {n for n in nodes if n.startswith("P")}
    assert len(papers) == 10 and len(nodes) == 11
    edges = page.evaluate(
        "() => window.kgqaGraph.edges().map(e => [e.data('source'), e.data('predicate'), e.data('target')])"
    )
    assert sorted(edges) == sorted([p, "venue", "V01"] for p in papers)
    screenshot(page, tmp_path, "serve-explore.png")

    page.click("#filters summary")  # untick Paper: the papers are hidden, the venue stays
    page.uncheck("#type-filter input[value='Paper']")
    hidden = page.evaluate("() => window.kgqaGraph.nodes().filter(n => !n.visible()).map(n => n.id())")
    assert set(hidden) == papers and page.evaluate("() => window.kgqaGraph.getElementById('V01').visible()")
    page.check("#type-filter input[value='Paper']")
    assert page.evaluate("() => window.kgqaGraph.nodes().filter(n => !n.visible()).length") == 0
    page.uncheck("#predicate-filter input[value='venue']")
    assert page.evaluate("() => window.kgqaGraph.edges().filter(e => e.visible()).length") == 0

    page.click("#ask-about")  # ask about this: the node becomes the topic
    assert page.input_value("#topic") == "V01" and "International Conference" in page.input_value("#question")
    watch.check()
    page.close()


def draw_paths(page, source: str, target: str, depth: int) -> list[list[str]]:
    page.fill("#path-from", source)
    page.fill("#path-to", target)
    page.select_option("#path-depth", str(depth))
    page.click("#path-form button[type=submit]")
    page.wait_for_function("() => window.kgqaGraph && window.kgqaGraph.edges('.path').length > 0")
    return page.evaluate("() => window.kgqaGraph.edges('.path').map(e => [e.data('source'), e.data('target')])")


def test_paths_and_schema_on_the_demo_graph(service, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watch = Watch(page, service.url)
    page.goto(service.url + "/")
    edges = draw_paths(page, "P01", "P02", 3)
    sync_api.expect(page.locator("#graph-note")).to_contain_text("of 2 triples")
    ends = graph_nodes(page)
    assert "end" in ends["P01"] and "end" in ends["P02"]
    assert all("P01" in e or "P02" in e for e in edges)  # every path: P01 - shared entity - P02
    screenshot(page, tmp_path, "serve-paths.png")

    page.click("#schema-button")
    sync_api.expect(page.locator("#schema-types")).to_contain_text("Paper (35)")
    page.click("#schema-predicates button[data-predicate='venue']")  # a predicate draws a sample
    page.wait_for_function("() => window.kgqaGraph.edges().length === 25")
    assert set(page.evaluate("() => window.kgqaGraph.edges().map(e => e.data('predicate'))")) == {"venue"}
    screenshot(page, tmp_path, "serve-schema.png")
    page.click("#schema-types button[data-type='Venue']")  # a type lists its entities
    sync_api.expect(page.locator("#search-results button.open")).to_have_count(5)
    watch.check()
    page.close()


@pytest.fixture(scope="module")
def orkg_service(tmp_path_factory):
    """The ORKG graph (shared/, read-only) loaded without an index: exploring needs none."""
    if not ORKG_GRAPH.exists():
        pytest.skip(f"needs the ORKG graph at {ORKG_GRAPH}")
    from kgqa.api import Workspace
    from kgqa.config import Settings

    db = tmp_path_factory.mktemp("orkg") / "orkg.kuzu"
    with Workspace.init(Settings(db_path=db)) as ws:
        ws.load(ORKG_GRAPH)
    svc = Service(db)
    yield svc
    assert svc.stop() == 0


def test_a_path_between_two_orkg_venues(orkg_service, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    watch = Watch(page, orkg_service.url)
    page.goto(orkg_service.url + "/")
    icsa, ecsa = "R820814", "R821053"  # the ICSA and ECSA venues
    edges = draw_paths(page, icsa, ecsa, 4)
    sync_api.expect(page.locator("#graph-note")).to_contain_text("of 4 triples")
    nodes = graph_nodes(page)
    assert "end" in nodes[icsa] and "end" in nodes[ecsa]
    assert any(icsa in e for e in edges) and any(ecsa in e for e in edges)
    page.fill("#search", "Software Architecture")  # and the venue's papers, paged, on the real graph
    page.click("#search-form button[type=submit]")
    page.click(f"#search-results button.open[data-id='{icsa}']")
    page.click("#facts button.count[data-predicate='venue']")
    sync_api.expect(page.locator("#expand-status")).to_contain_text("6 of 90 drawn")
    page.click("#more")
    sync_api.expect(page.locator("#expand-status")).to_contain_text("12 of 90 drawn")
    watch.check()
    page.close()


def test_phone_sized_screen_has_no_horizontal_scroll(service, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(service.url + "/")
    sync_api.expect(page.locator("#status")).to_contain_text("35 hubs")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.close()
