/* The coach's review page: played hands (JSON lines pasted, uploaded or dropped, or this
 * browser's own Capsa session hands) go to POST /v1/capsa/review; the page draws the summary,
 * two charts (plain inline SVG, drawn here), the lines not reviewed and every hand, the
 * player's rows beside the best rows, and offers the results as JSON lines and CSV.
 * An ES module, no build step. Card faces and the session token's key come from the play
 * page's shared module. */
import { TOKEN_KEY, cardFace, el } from "./play-ui.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const ROWS = ["front", "middle", "back"];
const RANKS = "AKQJT98765432";
const SUITS = "shdc";
const PAGE = 50; // hands drawn at a time in the list
const MISTAKES = {
  foul: ["Foul", "The rows are out of order (the back weaker than the middle, or the middle " +
    "than the front): every row lost to every opponent, and the hand was scooped.", "#c0262d"],
  natural_not_declared: ["Natural not declared", "The hand holds a natural, and declaring it " +
    "was worth more than any rows.", "#7b3fa0"],
  natural_declared: ["Natural declared", "Setting rows was worth more than declaring the " +
    "natural.", "#cc79a7"],
  flush_or_straight_unmade: ["Flush or straight not made", "The best rows make more " +
    "straights or flushes in the middle and the back than yours.", "#e69f00"],
  pair_broken: ["Pair broken", "Cards of one rank that the best rows keep together are " +
    "spread over two or three of your rows.", "#0072b2"],
  front_too_strong: ["Front too strong", "Your front is stronger than the best's while your " +
    "middle or back is weaker.", "#d55e00"],
  kickers: ["Kickers", "The same kind of hand as the best in every row: the loss is in which " +
    "cards make them (which pair goes forward, which kickers stay back).", "#56b4e9"],
  other: ["Other", "None of the classes above.", "#6b7280"],
};
const EXACT_COLOUR = "#1f6b47";
const NATURAL_NAME = { dragon: "dragon", six_pairs: "six pairs", three_straights: "three straights",
  three_flushes: "three flushes" };
const CSV_COLUMNS = ["line", "hand", "ev", "best_ev", "ev_lost", "exact", "mistake", "mistakes",
  "mine_front", "mine_middle", "mine_back", "best_front", "best_middle", "best_back"];

const $ = (id) => document.getElementById(id);
const R = { data: null, sessionRules: null, shown: PAGE, busy: false };

// ------------------------------------------------------------------ small helpers
function f3(x) {
  const s = Number(x).toFixed(3);
  return s === "-0.000" ? "0.000" : s;
}
function signed3(x) {
  const s = f3(x);
  return Number(s) > 0 ? "+" + s : s;
}
function pct(x) { return (100 * Number(x)).toFixed(1) + "%"; }
function mistakeName(m) { return m ? (MISTAKES[m] ? MISTAKES[m][0] : m) : "Played exactly right"; }
function colour(h) { return h.exact || !h.mistake ? EXACT_COLOUR : (MISTAKES[h.mistake] || MISTAKES.other)[2]; }
function naturalName(kind) { return NATURAL_NAME[kind] || String(kind || "").replace(/_/g, " "); }
function isNatural(side) { return !!side && !side.front; }
function byRank(cards) {
  const key = (c) => RANKS.indexOf(c[0]) * 4 + SUITS.indexOf(c[1]);
  return cards.slice().sort((a, b) => key(a) - key(b));
}
function sameSet(a, b) {
  return a.length === b.length && a.every((c) => b.includes(c));
}
function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, String(v)));
  if (text !== undefined) e.textContent = text;
  return e;
}
function cardRow(cards) {
  const wrap = el("span", "cards small");
  byRank(cards || []).forEach((c) => wrap.appendChild(cardFace(c)));
  return wrap;
}

function showError(msg) {
  const box = $("error");
  box.textContent = msg;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}
function clearError() { $("error").hidden = true; $("error").textContent = ""; }
function notice(msg) { $("notice").textContent = msg || ""; $("notice").hidden = !msg; }

async function api(path, body) {
  let r;
  try {
    r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new Error("Could not reach the server (" + e.message + "). Is it running?");
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const err = data && data.error;
    let msg = err && err.message ? err.message : "The server answered " + r.status + " " + r.statusText + ".";
    const more = ((err && err.problems) || []).map((p) => p.message).filter((m) => m && !msg.includes(m));
    if (more.length) msg += " Also: " + more.join("; ") + ".";
    const e = new Error(msg);
    e.status = r.status;
    e.code = err && err.code;
    throw e;
  }
  if (!data) throw new Error("The server's answer could not be read.");
  return data;
}

async function busy(label, fn) {
  if (R.busy) return;
  R.busy = true;
  const btn = $("review-btn");
  btn.disabled = true;
  $("session-btn").disabled = true;
  btn.textContent = label;
  $("results").setAttribute("aria-busy", "true");
  document.body.setAttribute("aria-busy", "true");
  try {
    clearError();
    await fn();
  } catch (e) {
    showError(e.message);
  } finally {
    R.busy = false;
    btn.disabled = false;
    $("session-btn").disabled = false;
    btn.textContent = "Review";
    $("results").setAttribute("aria-busy", "false");
    document.body.removeAttribute("aria-busy");
  }
}

// ------------------------------------------------------------------ the request
// A whole number from a field (empty: the server's default); its range is the server's to check.
function wholeNumber(id, name) {
  const raw = $(id).value.trim();
  if (raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) {
    throw new Error(name + " must be a whole number, got " + JSON.stringify(raw) + ".");
  }
  return n;
}

function requestBody() {
  const text = $("lines").value;
  if (!text.trim()) {
    throw new Error("There is nothing to review: paste played hands (one JSON object a line), " +
      "upload a file of them, or load this browser's session hands.");
  }
  const rules = $("rules").value;
  const body = {
    text: text,
    rules: rules === "session" && R.sessionRules ? R.sessionRules : rules,
    opponents: Number($("opponents").value),
    method: $("method").value,
  };
  if (!$("card-removal").checked) body.card_removal = false;
  if (body.method === "montecarlo") {
    const samples = wholeNumber("samples", "Samples per hand");
    const seed = wholeNumber("seed", "The seed");
    if (samples !== undefined) body.samples = samples;
    if (seed !== undefined) body.seed = seed;
  }
  return body;
}

async function submit(ev) {
  if (ev) ev.preventDefault();
  await busy("Reviewing\u2026", async () => {
    const body = requestBody();
    const data = await api("/v1/capsa/review", body);
    render(data);
  });
}

// ------------------------------------------------------------------ the answer
function render(data) {
  R.data = data;
  R.shown = PAGE;
  $("results").hidden = false;
  const s = data.summary;
  const model = data.method === "montecarlo"
    ? "Monte Carlo, " + data.samples + " deals a hand, seed " + data.seed
    : "Table model";
  $("model-line").textContent = model + " \u00b7 card removal " + (data.card_removal ? "on" : "off") +
    (typeof data.elapsed_ms === "number" ? " \u00b7 reviewed in " + Math.round(data.elapsed_ms) + " ms" : "");
  renderSummary(s);
  drawCharts();
  renderErrors(data.errors || []);
  fillFilter();
  renderList();
  $("results-heading").focus({ preventScroll: true });
  $("results").scrollIntoView({ block: "start" });
}

function renderSummary(s) {
  const dl = $("summary");
  dl.textContent = "";
  const fact = (label, id, text, value, note) => {
    const box = el("div", "rv-fact");
    box.appendChild(el("dt", null, label));
    const dd = el("dd", null, text);
    dd.id = id;
    if (value !== undefined && value !== null) dd.dataset.value = String(value);
    box.appendChild(dd);
    if (note) {
      const n = el("dd", "rv-note", note);
      n.id = id + "-note";
      box.appendChild(n);
    }
    dl.appendChild(box);
  };
  const n = s.hands;
  const exactN = (R.data.hands || []).filter((h) => h.exact).length;
  fact("Hands reviewed", "sum-hands", String(n), n, s.errors ? s.errors + " line" +
    (s.errors === 1 ? "" : "s") + " not reviewed" : null);
  fact("Played exactly right", "sum-exact", s.exact_share === null || s.exact_share === undefined
    ? "\u2014" : pct(s.exact_share), s.exact_share, n ? exactN + " of " + n + " hands" : null);
  fact("Mean EV lost per hand", "sum-mean", f3(s.mean_ev_lost), s.mean_ev_lost, null);
  const ci = s.mean_ev_lost_ci95 || [0, 0];
  fact("95% confidence interval", "sum-ci", f3(ci[0]) + " to " + f3(ci[1]), ci.join(" "),
    n > 1 ? "of the mean EV lost" : "needs two hands or more");
  fact("EV lost in all", "sum-total", f3(s.ev_lost), s.ev_lost,
    "your EV " + signed3(s.ev) + ", the best's " + signed3(s.best_ev));
  if (s.known) {
    fact("On the actual tables", "sum-known", signed3(s.known.actual_points), s.known.actual_points,
      "points scored in " + s.known.hands + " hand" + (s.known.hands === 1 ? "" : "s") +
      "; the best response to the rows the others set: " + signed3(s.known.best_response_points));
  }
}

function renderErrors(errors) {
  $("errors-box").hidden = !errors.length;
  const list = $("errors-list");
  list.textContent = "";
  errors.forEach((e) => {
    const li = el("li");
    li.dataset.line = String(e.line);
    li.appendChild(el("strong", null, "Line " + e.line + ": "));
    li.appendChild(el("span", null, e.error));
    list.appendChild(li);
  });
}

// ------------------------------------------------------------------ charts
function drawCharts() {
  if (!R.data) return;
  drawHandChart(R.data.hands || []);
  drawMistakeChart(R.data.summary.by_mistake || {});
}

function niceMax(x) {
  if (!(x > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

function drawHandChart(hands) {
  const box = $("chart-hands");
  box.textContent = "";
  const legend = $("chart-legend");
  legend.textContent = "";
  if (!hands.length) {
    box.appendChild(el("p", "muted", "No hand was reviewed."));
    return;
  }
  const byLine = hands.slice().sort((a, b) => a.line - b.line);
  const W = Math.max(260, Math.floor(box.clientWidth || 600));
  const H = 210, left = 46, right = 8, top = 24, bottom = 26;
  const plotW = W - left - right, plotH = H - top - bottom;
  const most = byLine.reduce((a, h) => (h.ev_lost > a.ev_lost ? h : a), byLine[0]);
  const yMax = niceMax(most.ev_lost);
  const root = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
    class: "rv-svg", "aria-label": "EV lost by each of the " + byLine.length + " hands, in line order; " +
      (most.ev_lost > 0 ? "the most, " + f3(most.ev_lost) + ", at line " + most.line + "." :
        "every hand was played exactly right.") });
  [0, 0.5, 1].forEach((t) => {
    const y = top + plotH * (1 - t);
    root.appendChild(svg("line", { x1: left, x2: W - right, y1: y, y2: y, class: "rv-grid" }));
    root.appendChild(svg("text", { x: left - 6, y: y + 4, "text-anchor": "end", class: "rv-tick" },
      f3(yMax * t).replace(/\.?0+$/, "") || "0"));
  });
  root.appendChild(svg("text", { x: 2, y: 11, class: "rv-tick" }, "EV lost"));
  const band = plotW / byLine.length;
  const gap = band >= 4 ? Math.min(band * 0.2, 6) : 0;
  byLine.forEach((h, i) => {
    const hgt = Math.max((h.ev_lost / yMax) * plotH, h.exact ? 1.5 : 2);
    const r = svg("rect", { x: (left + i * band + gap / 2).toFixed(2), y: (top + plotH - hgt).toFixed(2),
      width: Math.max(band - gap, 0.6).toFixed(2), height: hgt.toFixed(2), fill: colour(h),
      class: "rv-bar" + (h.exact ? " exact" : ""), "data-line": h.line,
      "data-mistake": h.mistake || "exact" });
    r.appendChild(svg("title", {}, "Line " + h.line + ": " + (h.exact ? "played exactly right" :
      f3(h.ev_lost) + " lost, " + mistakeName(h.mistake))));
    r.addEventListener("click", () => openHand(h.line));
    root.appendChild(r);
  });
  root.appendChild(svg("line", { x1: left, x2: W - right, y1: top + plotH, y2: top + plotH, class: "rv-axis" }));
  const first = byLine[0].line, last = byLine[byLine.length - 1].line;
  root.appendChild(svg("text", { x: left, y: H - 8, class: "rv-tick" }, "line " + first));
  if (last !== first) {
    root.appendChild(svg("text", { x: W - right, y: H - 8, "text-anchor": "end", class: "rv-tick" },
      "line " + last));
  }
  box.appendChild(root);
  const present = new Set(byLine.map((h) => (h.exact ? "exact" : h.mistake || "other")));
  const order = ["exact"].concat(Object.keys(MISTAKES));
  order.filter((k) => present.has(k)).forEach((k) => {
    const li = el("li");
    const sw = el("span", "rv-swatch");
    sw.style.background = k === "exact" ? EXACT_COLOUR : MISTAKES[k][2];
    sw.setAttribute("aria-hidden", "true");
    li.appendChild(sw);
    li.appendChild(el("span", null, k === "exact" ? "Played exactly right" : MISTAKES[k][0]));
    legend.appendChild(li);
  });
}

function drawMistakeChart(by) {
  const box = $("chart-mistakes");
  box.textContent = "";
  const entries = Object.entries(by).sort((a, b) => b[1].ev_lost - a[1].ev_lost);
  if (!entries.length) {
    box.appendChild(el("p", "muted", "No EV was lost: no mistake to show."));
    return;
  }
  const W = Math.max(260, Math.floor(box.clientWidth || 400));
  const rowH = 44, valueRoom = Math.min(130, W * 0.4);
  const H = entries.length * rowH + 4;
  const max = entries[0][1].ev_lost || 1;
  const label = entries.map(([k, v]) => mistakeName(k) + ": " + v.hands + " hand" +
    (v.hands === 1 ? "" : "s") + ", " + f3(v.ev_lost) + " lost (" + pct(v.share_of_lost) + ")").join("; ");
  const root = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
    class: "rv-svg", "aria-label": "EV lost per mistake class. " + label + "." });
  entries.forEach(([k, v], i) => {
    const y = i * rowH;
    root.appendChild(svg("text", { x: 0, y: y + 14, class: "rv-label" },
      mistakeName(k) + " \u00b7 " + v.hands + " hand" + (v.hands === 1 ? "" : "s")));
    const w = Math.max(((W - valueRoom) * v.ev_lost) / max, 2);
    const r = svg("rect", { x: 0, y: y + 20, width: w.toFixed(2), height: 16, rx: 3,
      fill: (MISTAKES[k] || MISTAKES.other)[2], class: "rv-mbar", "data-mistake": k });
    r.appendChild(svg("title", {}, mistakeName(k) + ": mean " + f3(v.mean_ev_lost) + " a hand"));
    r.addEventListener("click", () => { $("filter").value = k; renderList(true); });
    root.appendChild(r);
    root.appendChild(svg("text", { x: w + 6, y: y + 33, class: "rv-value" },
      f3(v.ev_lost) + " (" + pct(v.share_of_lost) + ")"));
  });
  box.appendChild(root);
}

// ------------------------------------------------------------------ the hands
function fillFilter() {
  const sel = $("filter");
  const was = sel.value;
  sel.textContent = "";
  const hands = R.data.hands || [];
  const add = (value, text) => {
    const o = el("option", null, text);
    o.value = value;
    sel.appendChild(o);
  };
  add("all", "Every hand (" + hands.length + ")");
  add("lost", "Hands that lost EV (" + hands.filter((h) => !h.exact).length + ")");
  add("exact", "Played exactly right (" + hands.filter((h) => h.exact).length + ")");
  Object.keys(MISTAKES).forEach((k) => {
    const n = hands.filter((h) => h.mistake === k).length;
    if (n) add(k, MISTAKES[k][0] + " (" + n + ")");
  });
  sel.value = [...sel.options].some((o) => o.value === was) ? was : "all";
}

function chosenHands() {
  const f = $("filter").value;
  const sort = $("sort").value;
  const order = Object.keys(MISTAKES);
  const rank = (h) => (h.mistake ? order.indexOf(h.mistake) : order.length);
  return (R.data.hands || []).filter((h) => f === "all" || (f === "lost" && !h.exact) ||
      (f === "exact" && h.exact) || h.mistake === f)
    .sort((a, b) => {
      if (sort === "line") return a.line - b.line;
      if (sort === "mistake" && rank(a) !== rank(b)) return rank(a) - rank(b);
      return b.ev_lost - a.ev_lost || a.line - b.line;
    });
}

function renderList(reset) {
  if (reset) R.shown = PAGE;
  const hands = chosenHands();
  const list = $("hand-list");
  list.textContent = "";
  hands.slice(0, R.shown).forEach((h) => list.appendChild(handItem(h)));
  const shown = Math.min(R.shown, hands.length);
  $("hand-count").textContent = hands.length ? "Showing " + shown + " of " + hands.length +
    " hand" + (hands.length === 1 ? "" : "s") + "; open one to see your rows beside the best." :
    "No hand to show with this choice.";
  const more = $("more-btn");
  more.hidden = shown >= hands.length;
  more.textContent = "Show " + Math.min(PAGE, hands.length - shown) + " more hands (" +
    (hands.length - shown) + " not shown)";
}

function handItem(h) {
  const li = el("li", "rv-hand");
  li.dataset.line = String(h.line);
  li.dataset.mistake = h.mistake || "exact";
  const d = el("details");
  const sum = el("summary");
  sum.appendChild(el("span", "rv-line", "Line " + h.line));
  sum.appendChild(el("span", "rv-lost", h.exact ? "no EV lost" : "lost " + f3(h.ev_lost)));
  const tag = el("span", "rv-tag", mistakeName(h.mistake));
  tag.style.borderColor = colour(h);
  sum.appendChild(tag);
  if (h.id !== undefined && h.id !== null) {
    sum.appendChild(el("span", "muted rv-id", typeof h.id === "string" ? h.id : "id " + JSON.stringify(h.id)));
  }
  const cards = cardRow(h.hand);
  cards.setAttribute("aria-hidden", "true");
  cards.classList.add("rv-summary-cards");
  sum.appendChild(cards);
  sum.appendChild(el("span", "sr-only", "hand " + h.hand.join(" ")));
  d.appendChild(sum);
  const body = el("div", "rv-body");
  d.appendChild(body);
  d.addEventListener("toggle", () => { if (d.open && !body.childElementCount) fillHand(body, h); });
  li.appendChild(d);
  return li;
}

function side(title, cls, rows, other, note, verb) {
  const box = el("section", "rv-side " + cls);
  box.appendChild(el("h4", null, title));
  if (note) box.appendChild(el("p", "rv-side-note", note));
  if (isNatural(rows)) {
    box.appendChild(el("p", "rv-natural", (verb || "Declare") + " the natural" +
      (rows.natural ? " (" + naturalName(rows.natural) + ")" : "")));
    return box;
  }
  ROWS.forEach((r) => {
    const line = el("div", "rv-row");
    line.dataset.row = r;
    line.appendChild(el("span", "label", r.charAt(0).toUpperCase() + r.slice(1)));
    line.appendChild(cardRow(rows[r]));
    if (other && !isNatural(other) && !sameSet(rows[r], other[r])) {
      line.classList.add("rv-diff");
      line.appendChild(el("span", "rv-diff-mark", "differs"));
    }
    box.appendChild(line);
  });
  return box;
}

function fillHand(body, h) {
  const facts = el("p", "rv-facts");
  facts.textContent = "Your EV " + signed3(h.ev) + " \u00b7 best EV " + signed3(h.best_ev) +
    " \u00b7 lost " + f3(h.ev_lost) + " \u00b7 against " + h.opponents + " opponent" +
    (h.opponents === 1 ? "" : "s") + (h.natural ? " \u00b7 the hand holds a natural (" +
      naturalName(h.natural) + ")" : "") + (h.foul ? " \u00b7 your rows foul" : "");
  body.appendChild(facts);
  if (typeof h.natural_ev === "number" && typeof h.rows_ev === "number") {
    // both values: declaring the natural and the best rows, under the same model
    const declare = h.natural_ev > h.rows_ev;
    body.appendChild(el("p", "rv-facts rv-natural-facts", "Declaring the natural: EV " +
      signed3(h.natural_ev) + " \u00b7 the best rows: EV " + signed3(h.rows_ev) + " \u00b7 " +
      (declare ? "declaring is better" : "the rows are better")));
  }
  if (h.mistakes && h.mistakes.length) {
    const ul = el("ul", "rv-mistakes");
    h.mistakes.forEach((m, i) => {
      const li = el("li");
      li.appendChild(el("strong", null, mistakeName(m) + (i === 0 && h.mistakes.length > 1 ?
        " (counted here)" : "") + ": "));
      li.appendChild(el("span", null, MISTAKES[m] ? MISTAKES[m][1] : ""));
      ul.appendChild(li);
    });
    body.appendChild(ul);
  }
  const cmp = el("div", "rv-compare");
  cmp.appendChild(side("Your rows", "rv-mine", h.mine, h.best, "EV " + signed3(h.ev), "You declared"));
  cmp.appendChild(side("Best rows", "rv-best", h.best, h.mine, "EV " + signed3(h.best_ev)));
  if (h.best_response) {
    const br = h.best_response;
    cmp.appendChild(side("Best response to the actual rows", "rv-br",
      br.front ? { front: br.front, middle: br.middle, back: br.back } : { natural: br.natural },
      null, "scores " + signed3(br.points) + "; you scored " + signed3(h.actual_points)));
  }
  body.appendChild(cmp);
}

function openHand(line) {
  if (!R.data) return;
  let hands = chosenHands();
  if (!hands.some((h) => h.line === line)) {
    $("filter").value = "all";
    hands = chosenHands();
  }
  const i = hands.findIndex((h) => h.line === line);
  if (i < 0) return;
  if (i >= R.shown) R.shown = Math.ceil((i + 1) / PAGE) * PAGE;
  renderList();
  const li = $("hand-list").querySelector('li[data-line="' + line + '"]');
  const d = li.querySelector("details");
  d.open = true;
  const s = li.querySelector("summary");
  s.focus({ preventScroll: true });
  li.scrollIntoView({ block: "center" });
}

// ------------------------------------------------------------------ downloads
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type: type }));
  const a = el("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function csvCell(v) {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

function rowCells(rows) {
  if (!rows) return ["", "", ""];
  if (isNatural(rows)) return ["natural " + (rows.natural || ""), "", ""];
  return ROWS.map((r) => rows[r].join(" "));
}

export function toCsv(hands) {
  const lines = [CSV_COLUMNS.join(",")];
  hands.forEach((h) => {
    lines.push([h.line, h.hand.join(" "), h.ev, h.best_ev, h.ev_lost, h.exact, h.mistake || "",
      (h.mistakes || []).join(" ")].concat(rowCells(h.mine), rowCells(h.best)).map(csvCell).join(","));
  });
  return lines.join("\r\n") + "\r\n";
}

function byLine() {
  return (R.data.hands || []).slice().sort((a, b) => a.line - b.line);
}

// ------------------------------------------------------------------ input: file, drop, session
async function readFile(file) {
  if (!file) return;
  let text;
  try {
    text = await file.text();
  } catch (e) {
    showError("Could not read " + file.name + ": " + e.message);
    return;
  }
  text = text.replace(/^\ufeff/, ""); // a byte order mark is not part of the first line
  $("lines").value = text;
  clearError();
  const n = text.split(/\r\n|\r|\n/).filter((l) => l.trim()).length;
  notice("Read " + file.name + ": " + n + " line" + (n === 1 ? "" : "s") + " with text. Press Review.");
  document.body.dataset.loaded = file.name;
}

function dropTarget(node) {
  node.addEventListener("dragover", (ev) => {
    if (ev.dataTransfer && [...ev.dataTransfer.types].includes("Files")) {
      ev.preventDefault();
      $("drop").classList.add("over");
    }
  });
  node.addEventListener("dragleave", () => $("drop").classList.remove("over"));
  node.addEventListener("drop", (ev) => {
    $("drop").classList.remove("over");
    const f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
    if (!f) return;
    ev.preventDefault();
    readFile(f);
  });
}

function savedToken() {
  try { return localStorage.getItem(TOKEN_KEY); } catch (e) { return null; }
}

async function checkSession() {
  const token = savedToken();
  if (!token) return;
  const box = $("session-box");
  let h;
  try {
    h = await api("/v1/sessions/history", { token: token });
  } catch (e) {
    box.hidden = false;
    $("session-text").textContent = e.status === 404
      ? "The play session saved in this browser has ended: there are no session hands to review."
      : "Could not read this browser's play session: " + e.message;
    return;
  }
  box.hidden = false;
  if (h.game !== "capsa") {
    $("session-text").textContent = "This browser's play session is a game of " + h.game +
      "; only Capsa hands can be reviewed here.";
    return;
  }
  const n = h.hands.length;
  if (!n) {
    $("session-text").textContent = "This browser's Capsa session has no finished hand yet.";
    return;
  }
  R.session = { token: token, hands: h.hands };
  $("session-text").textContent = "This browser's Capsa session has " + n + " finished hand" +
    (n === 1 ? "" : "s") + ".";
  const b = $("session-btn");
  b.textContent = "Review this browser's session hands (" + n + ")";
  b.hidden = false;
}

// A finished Capsa hand of the session as a review line: the human seat's cards and rows (or
// its declared natural), the other seats' rows as its opponents.
function sessionLine(hand) {
  const frames = hand.frames || [];
  const last = frames.slice().reverse().find((f) => f.observation && f.observation.result) ||
    frames[frames.length - 1];
  const o = last && last.observation;
  if (!o || !o.moves || o.moves.some((m) => !m)) return null;
  const mine = o.moves[hand.seat];
  const line = mine.front ? { hand: mine.cards, front: mine.front, middle: mine.middle, back: mine.back }
    : { hand: mine.cards, natural: true };
  line.opponents = o.moves.filter((m, q) => q !== hand.seat).map((m) => (m.front
    ? { front: m.front, middle: m.middle, back: m.back } : { hand: m.cards }));
  line.id = "session hand " + hand.n + (hand.replay_of ? " (deal of hand " + hand.replay_of + ")" : "");
  const rules = Object.assign({}, o.rules || {});
  delete rules.players;
  return { line: line, rules: rules, players: o.num_players };
}

async function loadSession() {
  if (!R.session) return;
  await busy("Loading the session\u2026", async () => {
    const { token, hands } = R.session;
    const out = new Array(hands.length);
    let next = 0;
    const worker = async () => {
      while (next < hands.length) {
        const i = next++;
        out[i] = sessionLine(await api("/v1/sessions/hand", { token: token, n: hands[i].n }));
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const got = out.filter(Boolean);
    if (!got.length) throw new Error("None of the session's hands is finished with every seat's rows shown.");
    $("lines").value = got.map((x) => JSON.stringify(x.line)).join("\n") + "\n";
    R.sessionRules = got[0].rules;
    let opt = $("rules").querySelector('option[value="session"]');
    if (!opt) {
      opt = el("option", null, "As in the play session");
      opt.value = "session";
      $("rules").appendChild(opt);
    }
    $("rules").value = "session";
    const opp = String(Math.min(3, Math.max(1, got[0].players - 1)));
    if ([...$("opponents").options].some((o) => o.value === opp)) $("opponents").value = opp;
    notice("Loaded " + got.length + " finished hand" + (got.length === 1 ? "" : "s") +
      " of this browser's Capsa session, with the rows the other seats set.");
    const data = await api("/v1/capsa/review", requestBody());
    render(data);
  });
}

// ------------------------------------------------------------------ start-up
function init() {
  $("review-form").addEventListener("submit", submit);
  $("method").addEventListener("change", () => {
    const mc = $("method").value === "montecarlo";
    $("samples-field").hidden = !mc;
    $("seed-field").hidden = !mc;
  });
  $("file").addEventListener("change", () => readFile($("file").files[0]));
  dropTarget($("drop"));
  dropTarget($("lines"));
  $("session-btn").addEventListener("click", loadSession);
  $("filter").addEventListener("change", () => renderList(true));
  $("sort").addEventListener("change", () => renderList(true));
  $("more-btn").addEventListener("click", () => { R.shown += PAGE; renderList(); });
  $("dl-jsonl").addEventListener("click", () => R.data && download("capsa-review.jsonl",
    byLine().map((h) => JSON.stringify(h)).join("\n") + "\n", "application/x-ndjson"));
  $("dl-csv").addEventListener("click", () => R.data && download("capsa-review.csv",
    toCsv(byLine()), "text/csv"));
  let frame = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(drawCharts);
  });
  checkSession().finally(() => { document.body.dataset.ready = "true"; });
}

init();
