// The HubLink page: asks /v1/ask, draws the evidence (/v1/evidence) with cytoscape, shows a node's facts
// and expands it (/v1/entities/{id}), autocompletes the topic entity (/v1/entities?q=), shows /v1/stats.
"use strict";
const $ = (id) => document.getElementById(id);
let cy = null, topicId = null, hubIds = new Set();

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
  if (text !== undefined) node.textContent = text;
  Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
  return node;
}

function renderAnswer(a) {
  const answer = $("answer");
  answer.replaceChildren();
  // Each [i] links to its source below.
  a.answer.split(/(\[\d+\])/).forEach((part) => {
    const m = part.match(/^\[(\d+)\]$/);
    if (m) answer.append(el("a", part, {href: "#source-" + m[1], class: "cite"}));
    else answer.append(document.createTextNode(part));
  });
  const list = $("sources");
  list.replaceChildren();
  a.sources.forEach((s) => {
    const li = el("li", undefined, {id: "source-" + s.n, value: s.n});
    const link = el("a", `${s.label} (${s.hub_id})`, {href: "#", "data-node": s.hub_id});
    link.addEventListener("click", (ev) => { ev.preventDefault(); selectNode(s.hub_id); });
    li.append(link);
    const ul = el("ul");
    a.triples.filter((t) => t.startsWith("(" + s.hub_id + ":") || t.startsWith("(" + s.hub_id + ","))
      .forEach((t) => ul.append(el("li", t)));
    li.append(ul);
    list.append(li);
  });
}

function style() {
  return [
    {selector: "node", style: {"label": "data(short)", "font-size": 9, "text-wrap": "ellipsis", "text-max-width": 110,
      "background-color": "#7a93b8", "width": 18, "height": 18, "color": "#1d2430"}},
    {selector: "node.literal", style: {"shape": "round-rectangle", "background-color": "#e9eef5",
      "border-width": 1, "border-color": "#999"}},
    {selector: "node.hub", style: {"background-color": "#23395b", "width": 26, "height": 26}},
    {selector: "node.topic", style: {"background-color": "#f0a202", "width": 28, "height": 28}},
    {selector: "node:selected", style: {"border-width": 3, "border-color": "#d33"}},
    {selector: "edge", style: {"label": "data(predicate)", "font-size": 8, "curve-style": "bezier",
      "target-arrow-shape": "triangle", "width": 1.2, "line-color": "#aab4c3", "target-arrow-color": "#aab4c3",
      "text-rotation": "autorotate", "color": "#555"}},
  ];
}

function addElements(nodes, edges) {
  const added = [];
  nodes.forEach((n) => {
    if (cy.getElementById(n.id).nonempty()) return;
    const classes = [n.literal ? "literal" : "entity"];
    if (hubIds.has(n.id)) classes.push("hub");
    if (n.id === topicId) classes.push("topic");
    added.push({group: "nodes", data: {id: n.id, label: n.label,
      short: n.label.length > 40 ? n.label.slice(0, 38) + "…" : n.label}, classes: classes.join(" ")});
  });
  edges.forEach((e) => {
    const id = e.source + "|" + e.predicate + "|" + e.target;
    if (cy.getElementById(id).nonempty()) return;
    added.push({group: "edges", data: {id, source: e.source, target: e.target, predicate: e.predicate}});
  });
  cy.add(added);
  cy.layout({name: "cose", animate: false, nodeDimensionsIncludeLabels: true}).run();
}

function drawEvidence(graph) {
  if (cy) cy.destroy();
  cy = cytoscape({container: $("graph"), style: style(), elements: [], wheelSensitivity: 0.3});
  addElements(graph.nodes, graph.edges);
  cy.on("tap", "node", (ev) => showFacts(ev.target.id()));
  window.kgqaGraph = cy;   // for tests and the console
}

function selectNode(id) {
  if (!cy) return;
  cy.elements().unselect();
  const node = cy.getElementById(id);
  if (node.nonempty()) { node.select(); cy.center(node); }
  showFacts(id);
}

async function showFacts(id) {
  const box = $("facts");
  try {
    const e = await api("GET", "/v1/entities/" + encodeURIComponent(id) + "?limit=50");
    box.replaceChildren(el("h3", `${e.label} (${e.id})`));
    if (e.types.length) box.append(el("p", "types: " + e.types.join(", ")));
    const ul = el("ul");
    e.out.concat(e.in).forEach((t) => ul.append(el("li", t.triple)));
    box.append(ul);
    if (e.truncated) box.append(el("p", "(more not shown)"));
    const expand = el("button", "Expand neighbours", {type: "button", id: "expand"});
    expand.addEventListener("click", () => addElements(e.out.map((t) => t.node).concat(e.in.map((t) => t.node))
      .concat([{id: e.id, label: e.label, literal: e.literal}]), e.out.concat(e.in)));
    box.append(expand);
    showError("");
  } catch (err) { showError(err.message); }
}

async function ask(ev) {
  ev.preventDefault();
  showError("");
  const body = {question: $("question").value.trim(), strategy: $("strategy").value,
                retriever: $("retriever").value};
  const topic = $("topic").value.trim();
  if (topic) body.topic_entity = topic;
  if ($("hubs").value) body.hubs = Number($("hubs").value);
  $("ask-button").disabled = true;
  $("answer").textContent = "…";
  try {
    const a = await api("POST", "/v1/ask", body);
    hubIds = new Set(a.sources.map((s) => s.hub_id).concat(a.hubs.map((h) => h.hub_id)));
    topicId = null;
    if (topic) {
      const found = await api("GET", "/v1/entities?q=" + encodeURIComponent(topic) + "&limit=1");
      topicId = found.length ? found[0].id : topic;
    }
    renderAnswer(a);
    drawEvidence(await api("POST", "/v1/evidence", {triples: a.triples}));
    loadStatus();
  } catch (err) {
    $("answer").textContent = "";
    showError(err.message);
  } finally { $("ask-button").disabled = false; }
}

let suggestTimer = null;
function suggest() {
  clearTimeout(suggestTimer);
  const text = $("topic").value.trim();
  if (text.length < 2) return;
  suggestTimer = setTimeout(async () => {
    try {
      const found = await api("GET", "/v1/entities?q=" + encodeURIComponent(text) + "&limit=10");
      $("topic-options").replaceChildren(...found.map((f) => el("option", f.label, {value: f.id})));
    } catch (err) { /* autocomplete is best effort */ }
  }, 200);
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
    $("recent").replaceChildren(...s.recent.map((r) => el("li", r.question)));
  } catch (err) { showError(err.message); }
}

$("ask-form").addEventListener("submit", ask);
$("question").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); $("ask-form").requestSubmit(); }
});
$("topic").addEventListener("input", suggest);
$("token-label").hidden = true;
loadStatus();
