// The HubLink page. Ask: /v1/ask, then the evidence (/v1/evidence) drawn with cytoscape, each hub's triples
// grouped, the hubs joined by the entities they share; citations [n] point at source n in the text, the list
// and the graph. Explore: find an entity (/v1/search), open it, expand its neighbours page by page
// (/v1/entities/{id}/neighbours), filter by type and predicate, shortest paths (/v1/paths), the schema
// (/v1/schema). Status: /v1/stats.
"use strict";
const $ = (id) => document.getElementById(id);
const SHORT = 26;           // characters of a label drawn; the full text is in the tooltip
const OPEN_SOURCES = 6;     // more sources than this: the list starts collapsed
const PAGE = 6;             // neighbours fetched per expansion
let cy = null, topicId = null, hubIds = new Set(), sourceOfHub = new Map(), sticky = null;
const nextOffset = new Map();   // "id|predicate|direction" -> offset of the next page

// ---- helpers ----------------------------------------------------------------------------------------------
async function api(method, path, body) {
  const headers = {"Content-Type": "application/json"};
  const token = $("token").value.trim();
  if (token) headers["Authorization"] = "Bearer " + token;
  const resp = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
  let data = null;
  try { data = await resp.json(); } catch (e) { data = {error: {message: resp.statusText}}; }
  if (!resp.ok) {
    const err = (data && data.error) || {};
    if (resp.status === 401) $("token-label").hidden = false;
    throw new Error(`${resp.status}: ${err.message || resp.statusText}` + (err.field ? ` (field ${err.field})` : ""));
  }
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
  return node;
}

function button(text, onClick, attrs) {
  const b = el("button", text, Object.assign({type: "button"}, attrs || {}));
  b.addEventListener("click", onClick);
  return b;
}

const shorten = (text, n = SHORT) => (text.length > n ? text.slice(0, n - 1) + "…" : text);
const q = (params) => new URLSearchParams(params).toString();

function note(text) { $("graph-note").textContent = text || ""; }

// ---- the graph --------------------------------------------------------------------------------------------
function style() {
  return [
    {selector: "node", style: {"label": "data(short)", "font-size": 9, "text-wrap": "ellipsis", "text-max-width": 130,
      "background-color": "#7a93b8", "width": 16, "height": 16, "color": "#1d2430", "text-valign": "bottom"}},
    {selector: "node.literal", style: {"shape": "round-rectangle", "background-color": "#e9eef5",
      "border-width": 1, "border-color": "#999"}},
    {selector: "node.hub", style: {"background-color": "#23395b", "width": 24, "height": 24, "font-weight": "bold"}},
    {selector: "node.topic", style: {"background-color": "#f0a202", "width": 30, "height": 30, "font-size": 11}},
    {selector: "node.group", style: {"background-color": "#f3f6fa", "background-opacity": 0.6, "border-width": 1,
      "border-color": "#c9d3e1", "label": "data(short)", "text-valign": "top", "font-size": 10, "color": "#23395b",
      "shape": "round-rectangle", "padding": 8}},
    {selector: "node.end", style: {"border-width": 3, "border-color": "#2a9d8f"}},
    {selector: "node:selected", style: {"border-width": 3, "border-color": "#d33"}},
    {selector: "edge", style: {"label": "data(short)", "font-size": 7, "curve-style": "bezier",
      "target-arrow-shape": "triangle", "width": 1.2, "line-color": "#aab4c3", "target-arrow-color": "#aab4c3",
      "text-rotation": "autorotate", "color": "#555", "min-zoomed-font-size": 7}},
    {selector: "edge.bridge", style: {"line-style": "dashed", "line-color": "#8fa7c9", "target-arrow-color": "#8fa7c9"}},
    {selector: "edge.path", style: {"line-color": "#2a9d8f", "target-arrow-color": "#2a9d8f", "width": 2.5}},
    {selector: ".dim", style: {"opacity": 0.18}},
    {selector: "node.hl", style: {"border-width": 4, "border-color": "#d33", "opacity": 1}},
    {selector: "edge.hl", style: {"line-color": "#d33", "target-arrow-color": "#d33", "width": 3, "opacity": 1,
      "color": "#8a1010"}},
    {selector: ".filtered", style: {"display": "none"}},
  ];
}

function newGraph() {
  if (cy) cy.destroy();
  cy = cytoscape({container: $("graph"), style: style(), elements: []});
  cy.on("tap", "node", (ev) => { if (!ev.target.hasClass("group")) openNode(ev.target.id()); });
  cy.on("tap", "edge", (ev) => { const n = ev.target.data("source_n"); if (n) cite(n, true); });
  cy.on("tap", (ev) => { if (ev.target === cy) cite(null, true); });
  cy.on("mouseover", "node, edge", (ev) => {
    const d = ev.target.data();
    showTip(ev.originalEvent, d.triple || (d.full + (d.group ? "" : `  (${d.id})`)));
    const n = d.source_n || d.group_n;
    if (n && !sticky) cite(n, false);
  });
  cy.on("mouseout", "node, edge", () => { $("tip").hidden = true; if (!sticky) cite(null, false); });
  window.kgqaGraph = cy;   // for tests and the console
  nextOffset.clear();
  return cy;
}

function showTip(ev, text) {
  const tip = $("tip");
  if (!ev || !text) return;
  const box = $("graph-wrap").getBoundingClientRect();
  tip.textContent = text;
  tip.hidden = false;
  tip.style.left = Math.min(ev.clientX - box.left + 12, box.width - 260) + "px";
  tip.style.top = (ev.clientY - box.top + 12) + "px";
}

function nodeData(n) {
  const label = n.label || n.id;
  const num = sourceOfHub.get(n.id);
  return {id: n.id, full: label, short: (num ? `[${num}] ` : "") + shorten(label), types: n.types || [],
          literal: !!n.literal, source_n: num || null};
}

function nodeClasses(n) {
  const classes = [n.literal ? "literal" : "entity"];
  if (hubIds.has(n.id)) classes.push("hub");
  if (n.id === topicId) classes.push("topic");
  return classes.join(" ");
}

function edgeId(e) { return e.source + "|" + e.predicate + "|" + e.target; }

/** Add nodes and edges not drawn yet; new nodes start beside `near` (an expanded node). */
function addElements(nodes, edges, near) {
  const added = [];
  const at = near && cy.getElementById(near).nonempty() ? cy.getElementById(near).position() : null;
  nodes.forEach((n) => {
    if (cy.getElementById(n.id).nonempty()) return;
    const node = {group: "nodes", data: nodeData(n), classes: nodeClasses(n)};
    if (at) node.position = {x: at.x + (Math.random() - 0.5) * 80, y: at.y + (Math.random() - 0.5) * 80};
    added.push(node);
  });
  edges.forEach((e) => {
    const id = edgeId(e);
    if (cy.getElementById(id).nonempty()) return;
    added.push({group: "edges", classes: e.kind && e.kind !== "evidence" ? e.kind : "",
      data: {id, source: e.source, target: e.target, predicate: e.predicate, short: shorten(e.predicate, 22),
             triple: e.triple || `(${e.source}, ${e.predicate}, ${e.target})`, source_n: e.source_n || null}});
  });
  cy.add(added);
  return added.length;
}

/** Lay the graph out. `fresh`: start from rings (the topic in the middle, then the entities the hubs share,
 * the hubs, the rest), which the force-directed pass then refines, so the topic stays central. */
function layout(fresh) {
  if (fresh) {
    const rank = (n) => (n.id() === topicId ? 4 : n.hasClass("hub") ? 2 : n.degree() > 1 ? 3 : 1);
    cy.nodes().not(".group").layout({name: "concentric", concentric: rank, levelWidth: () => 1, animate: false,
                                     minNodeSpacing: 30}).run();
  }
  cy.layout({name: "cose", animate: false, randomize: false, nodeDimensionsIncludeLabels: true,
             idealEdgeLength: 60, nodeRepulsion: 6000, componentSpacing: 50, gravity: 1.2}).run();
  cy.fit(undefined, 20);
  refreshFilters();
}

// ---- the answer and its evidence ---------------------------------------------------------------------------
/** Which source each evidence triple belongs to: its subject's hub, else the hub that links to its subject. */
function attribute(triples, edges, sources) {
  const byTriple = new Map();
  const hubOf = new Map();   // a non-hub subject -> the source that reaches it
  sources.forEach((s) => triples.forEach((t) => {
    if (t.startsWith("(" + s.hub_id + ":") || t.startsWith("(" + s.hub_id + ",")) byTriple.set(t, s.n);
  }));
  edges.forEach((e) => {
    const n = sourceOfHub.get(e.source);
    if (n && e.kind === "evidence" && !hubOf.has(e.target)) hubOf.set(e.target, n);
  });
  edges.forEach((e) => {
    if (e.kind !== "evidence") return;
    const n = byTriple.get(e.triple) || hubOf.get(e.source);
    if (n) { e.source_n = n; byTriple.set(e.triple, n); }
  });
  return byTriple;
}

function renderAnswer(a, byTriple) {
  const answer = $("answer");
  answer.replaceChildren();
  a.answer.split(/(\[\d+\])/).forEach((part) => {
    const m = part.match(/^\[(\d+)\]$/);
    if (!m) { answer.append(document.createTextNode(part)); return; }
    const link = el("a", part, {href: "#source-" + m[1], class: "cite", "data-n": m[1]});
    link.addEventListener("click", (ev) => { ev.preventDefault(); cite(Number(m[1]), true, true); });
    link.addEventListener("mouseenter", () => { if (!sticky) cite(Number(m[1]), false); });
    link.addEventListener("mouseleave", () => { if (!sticky) cite(null, false); });
    answer.append(link);
  });
  if (!a.sources.length) answer.append(el("p", "No source in the graph supports an answer.", {class: "empty"}));
  const list = $("sources");
  list.replaceChildren();
  const collapsed = a.sources.length > OPEN_SOURCES;
  a.sources.forEach((s) => {
    const li = el("li", undefined, {id: "source-" + s.n, "data-n": s.n});
    const details = el("details");
    details.open = !collapsed;
    const summary = el("summary");
    const badge = el("a", `[${s.n}]`, {href: "#", class: "cite badge", "data-n": s.n});
    badge.addEventListener("click", (ev) => { ev.preventDefault(); cite(s.n, true, false); openNode(s.hub_id); });
    const name = el("span", ` ${shorten(s.label, 80)} `, {title: s.label});
    summary.append(badge, name, el("span", `(${s.hub_id})`, {class: "id"}));
    summary.addEventListener("mouseenter", () => { if (!sticky) cite(s.n, false); });
    summary.addEventListener("mouseleave", () => { if (!sticky) cite(null, false); });
    const ul = el("ul");
    a.triples.filter((t) => byTriple.get(t) === s.n).forEach((t) => ul.append(el("li", t, {"data-triple": t})));
    details.append(summary, ul);
    li.append(details);
    list.append(li);
  });
  $("sources-head").hidden = !a.sources.length;
  $("sources-toggle").textContent = collapsed ? "Expand all" : "Collapse all";
}

/** Highlight source n (null: none) in the text, the list and the graph; `pin`: keep it until clicked again. */
function cite(n, pin, scroll) {
  const was = sticky;
  if (pin) sticky = (n === sticky ? null : n);
  const shown = pin ? sticky : n;
  document.querySelectorAll(".cite").forEach((c) => c.classList.toggle("active", Number(c.dataset.n) === shown));
  document.querySelectorAll("#sources > li").forEach((li) => {
    const on = Number(li.dataset.n) === shown;
    li.classList.toggle("active", on);
    li.querySelectorAll("li[data-triple]").forEach((t) => t.classList.toggle("hl", on));
    if (on && pin) { li.querySelector("details").open = true; if (scroll) li.scrollIntoView({block: "nearest"}); }
  });
  if (!cy) return;
  cy.elements().removeClass("hl dim");
  if (!shown) { if (pin && was) cy.fit(undefined, 20); return; }
  const hub = cy.nodes().filter((x) => x.data("source_n") === shown && x.hasClass("hub"));
  const edges = cy.edges().filter((x) => x.data("source_n") === shown);
  const lit = hub.union(edges).union(edges.connectedNodes());
  if (lit.empty()) return;
  cy.elements().not(lit).not(lit.parents()).addClass("dim");
  lit.addClass("hl");
  if (pin) zoomTo(lit);
}

/** Bring `eles` into view, readable: fitted, but never zoomed in past 1.6. */
function zoomTo(eles) {
  cy.fit(eles, 60);
  if (cy.zoom() > 1.6) { cy.zoom(1.6); cy.center(eles); }
}

/** Each source's hub and its own (not shared) neighbours in one box; shared entities stay outside. */
function groupByHub(graph) {
  const touched = new Map();   // node -> hubs whose evidence touches it
  graph.edges.forEach((e) => {
    const n = sourceOfHub.get(e.source);
    if (!n) return;
    if (!touched.has(e.target)) touched.set(e.target, new Set());
    touched.get(e.target).add(n);
  });
  const parents = [];
  const own = (node, n) => {
    const x = cy.getElementById(node), hubs = touched.get(node);
    return hubs && hubs.size === 1 && hubs.has(n) && !hubIds.has(node) && node !== topicId && x.degree() <= 1;
  };
  sourceOfHub.forEach((n, hub) => {
    const box = "group:" + hub;
    const hubNode = cy.getElementById(hub);
    if (hubNode.empty() || ![...touched.keys()].some((node) => own(node, n))) return;   // nothing of its own
    parents.push({group: "nodes", classes: "group", data: {id: box, full: `source [${n}]`, short: `[${n}]`, group: true,
                                                           group_n: n}});
  });
  cy.add(parents);
  sourceOfHub.forEach((n, hub) => {
    const box = "group:" + hub;
    if (cy.getElementById(box).empty()) return;
    cy.getElementById(hub).move({parent: box});
    touched.forEach((hubs, node) => { if (own(node, n)) cy.getElementById(node).move({parent: box}); });
  });
}

async function ask(ev) {
  if (ev) ev.preventDefault();
  showError("");
  const question = $("question").value.trim();
  if (!question) { showError("Type a question first."); return; }
  const body = {question, strategy: $("strategy").value, retriever: $("retriever").value};
  const topic = $("topic").value.trim();
  if (topic) body.topic_entity = topic;
  if ($("hubs").value) body.hubs = Number($("hubs").value);
  $("ask-button").disabled = true;
  clearPanels();
  $("answer").textContent = "…";
  $("sources").replaceChildren();
  $("sources-head").hidden = true;
  try {
    const a = await api("POST", "/v1/ask", body);
    sourceOfHub = new Map(a.sources.map((s) => [s.hub_id, s.n]));
    hubIds = new Set(a.sources.map((s) => s.hub_id).concat(a.hubs.map((h) => h.hub_id)));
    topicId = a.topic_entity || null;
    if (topic && !topicId) {
      const found = await api("GET", "/v1/search?" + q({q: topic, limit: 1}));
      topicId = found.length ? found[0].id : null;
    }
    const graph = await api("POST", "/v1/evidence", {triples: a.triples, hubs: a.sources.map((s) => s.hub_id),
                                                     topic: topicId});
    const byTriple = attribute(a.triples, graph.edges, a.sources);
    renderAnswer(a, byTriple);
    newGraph();
    addElements(graph.nodes, graph.edges);
    if (a.sources.length > 1) groupByHub(graph);
    layout(true);
    note(graph.nodes.length ? "" : "No evidence to draw for this answer.");
    loadStatus();
  } catch (err) {
    $("answer").textContent = "";
    showError(err.message);
    note("The question could not be answered; see the message above.");
  } finally { $("ask-button").disabled = false; }
}

function clearPanels() {
  sticky = null;
  $("facts").replaceChildren();
  $("schema").hidden = true;
  $("search-results").hidden = true;
  $("tip").hidden = true;
}

// ---- explore ------------------------------------------------------------------------------------------------
function pageToGraph(page) {
  const nodes = [page.entity].concat(page.neighbours.map((n) => n.node));
  const edges = page.neighbours.map((n) => ({source: n.source, target: n.target, predicate: n.predicate,
    triple: `(${n.source}, ${n.predicate}, ${n.target})`}));
  return {nodes, edges};
}

/** Show a node's facts: types, counts per predicate (each expands that predicate), expand, ask, paths. */
async function openNode(id) {
  const box = $("facts");
  $("schema").hidden = true;
  try {
    const page = await api("GET", `/v1/entities/${encodeURIComponent(id)}/neighbours?` + q({limit: 1}));
    const e = page.entity;
    if (cy) { cy.elements().unselect(); cy.getElementById(id).select(); }
    const head = el("h3", `${e.label} `, {title: e.label});
    head.append(el("span", `(${e.id})`, {class: "id"}));
    box.replaceChildren(head);
    box.append(el("p", e.literal ? "literal" : "types: " + (e.types.join(", ") || "—"), {class: "types"}));
    const counts = el("ul", undefined, {class: "counts"});
    page.counts.forEach((c) => {
      const li = el("li");
      const arrow = c.direction === "out" ? "→" : "←";
      li.append(button(`${arrow} ${c.predicate} (${c.count})`, () => expand(e, c.predicate, c.direction),
                       {class: "plain count", "data-predicate": c.predicate, "data-direction": c.direction}));
      counts.append(li);
    });
    box.append(el("p", `${page.total} neighbours; click a predicate to draw its neighbours, ${PAGE} at a time:`),
               counts);
    const actions = el("div", undefined, {class: "actions"});
    actions.append(button("Expand neighbours", () => expand(e, "", "both"), {id: "expand"}),
      button("Ask about this", () => askAbout(e), {id: "ask-about"}),
      button("Path from here", () => { $("path-from").value = e.id; $("path-to").focus(); }, {class: "plain"}),
      button("Path to here", () => { $("path-to").value = e.id; $("path-from").focus(); }, {class: "plain"}));
    box.append(actions, el("p", "", {id: "expand-status"}));
    showError("");
  } catch (err) { showError(err.message); }
}

/** Draw the next page of `e`'s neighbours (of `predicate`, in `direction`); a "more" button if there are more. */
async function expand(e, predicate, direction) {
  const key = `${e.id}|${predicate}|${direction}`;
  const offset = nextOffset.get(key) || 0;
  try {
    const page = await api("GET", `/v1/entities/${encodeURIComponent(e.id)}/neighbours?` +
                                  q({predicate, direction, offset, limit: PAGE}));
    if (!cy) newGraph();
    const g = pageToGraph(page);
    addElements(g.nodes, g.edges, e.id);
    layout(false);
    const shown = offset + page.neighbours.length;
    nextOffset.set(key, shown);
    const status = $("expand-status");
    if (!status) return;
    const what = predicate ? `“${predicate}”` : "all";
    status.replaceChildren(el("span", `${what}: ${shown} of ${page.total} drawn. `));
    if (page.more) status.append(button(`More (${page.total - shown} left)`, () => expand(e, predicate, direction),
                                        {id: "more", class: "plain"}));
    showError("");
  } catch (err) { showError(err.message); }
}

function askAbout(e) {
  $("topic").value = e.id;
  $("question").value = `What is known about ${e.label}?`;
  $("question").focus();
  $("question").select();
}

async function search(ev) {
  ev.preventDefault();
  const text = $("search").value.trim();
  if (!text) return;
  try { showResults(`Entities matching “${text}”`, await api("GET", "/v1/search?" + q({q: text, limit: 20}))); }
  catch (err) { showError(err.message); }
}

function showResults(title, found) {
  const box = $("search-results");
  box.replaceChildren(el("h3", title), button("×", () => { box.hidden = true; }, {class: "close", "aria-label": "Close"}));
  if (!found.length) box.append(el("p", "Nothing found.", {class: "empty"}));
  const ul = el("ul");
  found.forEach((f) => {
    const li = el("li");
    li.append(button(shorten(f.label, 70), () => openEntity(f), {class: "plain open", "data-id": f.id, title: f.label}),
              el("span", ` ${f.literal ? "literal" : f.types.join(", ") || "resource"} · ${f.id}`, {class: "id"}));
    ul.append(li);
  });
  box.append(ul);
  box.hidden = false;
  showError("");
}

/** Start a new exploration from one entity: a fresh graph holding it, its facts shown. */
function openEntity(f) {
  $("search-results").hidden = true;
  hubIds = new Set(); sourceOfHub = new Map(); topicId = null; sticky = null;
  newGraph();
  addElements([f], []);
  layout(true);
  note("");
  openNode(f.id);
}

async function findPaths(ev) {
  ev.preventDefault();
  const source = $("path-from").value.trim(), target = $("path-to").value.trim();
  if (!source || !target) { showError("Give both ends of the path (entity ids)."); return; }
  try {
    const r = await api("GET", "/v1/paths?" + q({source, target, max_depth: $("path-depth").value}));
    hubIds = new Set(); sourceOfHub = new Map(); topicId = null; sticky = null;
    newGraph();
    addElements([r.source, r.target], []);
    r.paths.forEach((p) => p.forEach((t) => addElements(t.nodes, [Object.assign({kind: "path"}, t)])));
    cy.getElementById(r.source.id).addClass("end");
    cy.getElementById(r.target.id).addClass("end");
    layout(true);
    note(r.depth === null ? `No path of at most ${r.max_depth} triples between ${source} and ${target}.`
      : `${r.paths.length} shortest path${r.paths.length === 1 ? "" : "s"} of ${r.depth} triple${r.depth === 1 ? "" : "s"}` +
        (r.truncated ? " (capped: more may exist)" : "") + ".");
    $("facts").replaceChildren();
    showError("");
  } catch (err) { showError(err.message); }
}

async function showSchema() {
  const box = $("schema");
  if (!box.hidden) { box.hidden = true; return; }
  try {
    const s = await api("GET", "/v1/schema?limit=100");
    box.replaceChildren(el("h3", `Schema: ${s.type_count} types, ${s.predicate_count} predicates`),
      button("×", () => { box.hidden = true; }, {class: "close", "aria-label": "Close"}));
    const types = el("ul", undefined, {class: "chips", id: "schema-types"});
    s.types.forEach((t) => { const li = el("li"); li.append(button(`${t.type} (${t.count})`, () => listType(t.type),
      {class: "plain chip", "data-type": t.type})); types.append(li); });
    const preds = el("ul", undefined, {class: "chips", id: "schema-predicates"});
    s.predicates.forEach((p) => { const li = el("li"); li.append(button(`${p.predicate} (${p.count})`,
      () => drawPredicate(p.predicate), {class: "plain chip", "data-predicate": p.predicate})); preds.append(li); });
    box.append(el("h4", "Types (click: list its entities)"), types,
               el("h4", "Predicates (click: draw a sample of its triples)"), preds);
    if (s.untyped_resources) box.append(el("p", `${s.untyped_resources} resources have no type.`));
    box.hidden = false;
    showError("");
  } catch (err) { showError(err.message); }
}

async function listType(type) {
  try { showResults(`Entities of type ${type}`, await api("GET", "/v1/search?" + q({type, limit: 50}))); }
  catch (err) { showError(err.message); }
}

async function drawPredicate(predicate) {
  try {
    const triples = await api("GET", "/v1/schema/triples?" + q({predicate, limit: 25}));
    hubIds = new Set(); sourceOfHub = new Map(); topicId = null; sticky = null;
    newGraph();
    triples.forEach((t) => addElements(t.nodes, [t]));
    layout(true);
    note(`A sample of ${triples.length} triples of “${predicate}”.`);
  } catch (err) { showError(err.message); }
}

// ---- filters ----------------------------------------------------------------------------------------------
const hiddenTypes = new Set(), hiddenPredicates = new Set();
const typeOf = (d) => (d.literal ? ["(literal)"] : d.types.length ? d.types : ["(untyped)"]);

function checkbox(fieldset, value, count, hidden, onChange) {
  const label = el("label", undefined, {class: "check"});
  const box = el("input", undefined, {type: "checkbox", value});
  box.checked = !hidden.has(value);
  box.addEventListener("change", () => { if (box.checked) hidden.delete(value); else hidden.add(value); onChange(); });
  label.append(box, document.createTextNode(` ${value} (${count})`));
  fieldset.append(label);
}

function refreshFilters() {
  if (!cy) return;
  const types = new Map(), preds = new Map();
  cy.nodes().not(".group").forEach((n) => typeOf(n.data()).forEach((t) => types.set(t, (types.get(t) || 0) + 1)));
  cy.edges().forEach((e) => preds.set(e.data("predicate"), (preds.get(e.data("predicate")) || 0) + 1));
  const tf = $("type-filter"), pf = $("predicate-filter");
  tf.replaceChildren(el("legend", "Types"));
  pf.replaceChildren(el("legend", "Predicates"));
  [...types].sort((a, b) => b[1] - a[1]).forEach(([t, n]) => checkbox(tf, t, n, hiddenTypes, applyFilters));
  [...preds].sort((a, b) => b[1] - a[1]).forEach(([p, n]) => checkbox(pf, p, n, hiddenPredicates, applyFilters));
  applyFilters();
}

/** Hide nodes all of whose types are unticked and edges whose predicate is unticked. */
function applyFilters() {
  if (!cy) return;
  cy.batch(() => {
    cy.nodes().not(".group").forEach((n) => n.toggleClass("filtered", typeOf(n.data()).every((t) => hiddenTypes.has(t))));
    cy.edges().forEach((e) => e.toggleClass("filtered", hiddenPredicates.has(e.data("predicate"))));
  });
  // Cytoscape applies a class change lazily (at the next frame drawn or the next pstyle read) and until then
  // visible()/hidden() answer from a cache of the old style; reading the style now makes them true at once.
  cy.elements().forEach((x) => x.pstyle("display"));
}

// ---- autocomplete, status, keys ------------------------------------------------------------------------------
function suggest(input, list) {
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const text = input.value.trim();
    if (text.length < 2) return;
    timer = setTimeout(async () => {
      try {
        const found = await api("GET", "/v1/search?" + q({q: text, limit: 10}));
        list.replaceChildren(...found.map((f) => el("option", (f.literal ? "literal: " : "") + shorten(f.label, 80),
                                                    {value: f.id})));
      } catch (err) { /* autocomplete is best effort */ }
    }, 200);
  });
}

async function loadStatus() {
  try {
    const s = await api("GET", "/v1/stats");
    $("db").textContent = s.db_path;
    const rows = [["graph", `${s.graph.entities} entities, ${s.graph.literals} literals, ${s.graph.triples} triples`],
      ["model", s.model], ["store", s.store]];
    if (s.index) rows.push(["index", `${s.index.status}: ${s.index.hubs} hubs, ${s.index.paths} paths, ${s.index.vectors} vectors`],
      ["hub types", (s.index.params.hub_types || []).join(", ") || "—"], ["dirty hubs", String(s.index.dirty_hubs)]);
    else rows.push(["index", "none: run `kgqa index build`"]);
    rows.push(["answered", `${s.questions_answered} (p50 ${s.latency_ms.p50 ?? "—"} ms)`]);
    $("status").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", k), el("dd", v)]));
    const questions = [...new Set(s.recent.map((r) => (r.question || "").trim()).filter((x) => x))];
    $("recent").replaceChildren(...questions.map((question) => {
      const li = el("li");
      li.append(button(question, () => { $("question").value = question; $("question").focus(); }, {class: "plain"}));
      return li;
    }));
  } catch (err) { showError(err.message); }
}

$("ask-form").addEventListener("submit", ask);
$("question").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); $("ask-form").requestSubmit(); }
});
$("search-form").addEventListener("submit", search);
$("path-form").addEventListener("submit", findPaths);
$("schema-button").addEventListener("click", showSchema);
$("fit-button").addEventListener("click", () => { if (cy) cy.fit(undefined, 20); });
$("sources-toggle").addEventListener("click", () => {
  const all = document.querySelectorAll("#sources details");
  const open = [...all].some((d) => !d.open);
  all.forEach((d) => { d.open = open; });
  $("sources-toggle").textContent = open ? "Collapse all" : "Expand all";
});
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape") return;
  $("schema").hidden = true;
  $("search-results").hidden = true;
  $("tip").hidden = true;
  $("filters").open = false;
  if (sticky) cite(sticky, true);
});
suggest($("topic"), $("topic-options"));
suggest($("search"), $("search-options"));
suggest($("path-from"), $("path-options"));
suggest($("path-to"), $("path-options"));
$("token-label").hidden = true;
loadStatus();
