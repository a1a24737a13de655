/* The coach's review page: played hands (rows as plain text, "front | middle | back", or
 * JSON lines; pasted, uploaded or dropped, or this browser's own Capsa session hands) go to
 * POST /v1/capsa/review; the page draws the summary, two charts (plain inline SVG, drawn
 * here), the lines not reviewed and every hand, the player's rows beside the best rows, and
 * offers the results as JSON lines and CSV. Every word comes from the review.* messages of
 * the page's language (i18n.js). An ES module, no build step. Card faces and the session
 * token's key come from the play page's shared module. */
import { lang, num, t, tn } from "./i18n.js";
import { TOKEN_KEY, cardFace, el } from "./play-ui.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const ROWS = ["front", "middle", "back"];
const RANKS = "AKQJT98765432";
const SUITS = "shdc";
const PAGE = 50; // hands drawn at a time in the list
// The coach's mistake classes (solver/games/capsa/coach.py), in its order: name and
// explanation are the messages review.mistake.<class> and review.mistake.<class>.why.
const MISTAKES = {
  foul: "#c0262d",
  natural_not_declared: "#7b3fa0",
  natural_declared: "#cc79a7",
  flush_or_straight_unmade: "#e69f00",
  pair_broken: "#0072b2",
  front_too_weak: "#8a6d00",
  front_too_strong: "#d55e00",
  kickers: "#56b4e9",
  other: "#6b7280",
};
const EXACT_COLOUR = "#1f6b47";
// The kinds of line the coach could not review (LineError.code): review.line_error.<code>
const LINE_ERRORS = ["unreadable", "format", "cards", "fields", "natural", "review"];
const CSV_COLUMNS = ["line", "hand", "ev", "best_ev", "ev_lost", "exact", "mistake", "mistakes",
  "mine_front", "mine_middle", "mine_back", "best_front", "best_middle", "best_back"];

const $ = (id) => document.getElementById(id);
const R = { data: null, sessionRules: null, shown: PAGE, busy: false };

// ------------------------------------------------------------------ small helpers
function f3(x) {
  const v = Number(Number(x).toFixed(3));
  return num(v === 0 ? 0 : v, 3);  // never "-0.000"
}
function signed3(x) {
  const s = f3(x);
  return Number(Number(x).toFixed(3)) > 0 ? "+" + s : s;
}
function pct(x) { return num(100 * Number(x), 1) + "%"; }
function known(m) { return Object.prototype.hasOwnProperty.call(MISTAKES, m); }
function mistakeName(m) {
  if (!m) return t("review.mistake.exact");
  return known(m) ? t("review.mistake." + m) : m;
}
function mistakeWhy(m) { return known(m) ? t("review.mistake." + m + ".why") : ""; }
function colour(h) { return h.exact || !h.mistake ? EXACT_COLOUR : MISTAKES[h.mistake] || MISTAKES.other; }
const NATURALS = ["dragon", "six_pairs", "three_straights", "three_flushes"];
function naturalName(kind) {
  return NATURALS.includes(kind) ? t("review.natural." + kind) : String(kind || "").replace(/_/g, " ");
}
function rowName(r) { return t("review.row." + r); }
function handsText(n) { return tn("review.count.hands", n); }
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

/* POST a JSON body; the answer's JSON, or an Error in the page's language naming the API's
 * refusal (``refusedKey``: the sentence it is said in). The profiles panel posts with it too. */
export async function api(path, body, refusedKey = "review.error.refused") {
  let r;
  try {
    r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new Error(t("review.error.unreachable", { detail: e.message }));
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const err = data && data.error;
    // the API's own words (they name the field and the value), after the page's
    let msg = err && err.message ? err.message : t("review.error.status", { status: r.status });
    const more = ((err && err.problems) || []).map((p) => p.message).filter((m) => m && !msg.includes(m));
    if (more.length) msg += " " + t("review.error.also", { more: more.join("; ") });
    msg = t(refusedKey, { message: msg });
    const e = new Error(msg);
    e.status = r.status;
    e.code = err && err.code;
    throw e;
  }
  if (!data) throw new Error(t("review.error.unreadable"));
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
    btn.textContent = t("review.submit");
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
    throw new Error(t("review.error.whole", { name: name, value: JSON.stringify(raw) }));
  }
  return n;
}

/** The rules chosen on the page: a preset's name, or the rules of this browser's session. */
export function chosenRules() {
  const rules = $("rules").value;
  return rules === "session" && R.sessionRules ? R.sessionRules : rules;
}

function requestBody() {
  const text = $("lines").value;
  if (!text.trim()) {
    throw new Error(t("review.error.empty"));
  }
  const body = {
    text: text,
    rules: chosenRules(),
    opponents: Number($("opponents").value),
    method: $("method").value,
  };
  if (!$("card-removal").checked) body.card_removal = false;
  if (body.method === "montecarlo") {
    const samples = wholeNumber("samples", t("review.samples.label"));
    const seed = wholeNumber("seed", t("review.seed.label"));
    if (samples !== undefined) body.samples = samples;
    if (seed !== undefined) body.seed = seed;
  }
  return body;
}

async function submit(ev) {
  if (ev) ev.preventDefault();
  await busy(t("review.submitting"), async () => {
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
  const parts = [data.method === "montecarlo"
    ? t("review.model.montecarlo", { samples: data.samples, seed: data.seed })
    : t("review.model.table"),
  t(data.card_removal ? "review.model.removal_on" : "review.model.removal_off")];
  if (typeof data.elapsed_ms === "number") {
    parts.push(t("review.model.elapsed", { ms: Math.round(data.elapsed_ms) }));
  }
  $("model-line").textContent = parts.join(" \u00b7 ");
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
  fact(t("review.sum.hands"), "sum-hands", String(n), n,
    s.errors ? tn("review.sum.not_reviewed", s.errors) : null);
  fact(t("review.sum.exact"), "sum-exact", s.exact_share === null || s.exact_share === undefined
    ? "\u2014" : pct(s.exact_share), s.exact_share,
  n ? t("review.sum.exact_of", { k: exactN, hands: handsText(n) }) : null);
  fact(t("review.sum.mean"), "sum-mean", f3(s.mean_ev_lost), s.mean_ev_lost, null);
  // a bootstrap interval over the hands: it never leaves the range of the hands' losses,
  // so it never goes below 0 ("between X and Y", not a confidence interval around 0)
  const ci = s.mean_ev_lost_ci95 || [0, 0];
  fact(t("review.sum.interval"), "sum-ci", t("review.sum.between",
    { low: f3(ci[0]), high: f3(ci[1]) }), ci.join(" "),
  n > 1 ? t("review.sum.interval_note") : t("review.sum.interval_one"));
  fact(t("review.sum.total"), "sum-total", f3(s.ev_lost), s.ev_lost,
    t("review.sum.total_note", { ev: signed3(s.ev), best: signed3(s.best_ev) }));
  if (s.known) {
    fact(t("review.sum.known"), "sum-known", signed3(s.known.actual_points), s.known.actual_points,
      t("review.sum.known_note", { hands: handsText(s.known.hands),
        best: signed3(s.known.best_response_points) }));
  }
  if (s.naturals) {
    const k = s.naturals;
    fact(t("review.sum.naturals"), "sum-naturals", String(k.hands), k.hands,
      t("review.sum.naturals_note", { declared: k.declared, natural: signed3(k.natural_ev),
        rows: signed3(k.rows_ev), lost: f3(k.ev_lost) }));
  }
}

function renderErrors(errors) {
  $("errors-box").hidden = !errors.length;
  const list = $("errors-list");
  list.textContent = "";
  errors.forEach((e) => {
    const li = el("li");
    li.dataset.line = String(e.line);
    li.dataset.code = e.code || "";
    li.appendChild(el("strong", null, t("review.errors.line", { line: e.line }) + " "));
    // what is wrong in the page's language (by the coach's code); the server's own words,
    // which name the card or the field, are English: shown on an English page (or for a
    // code the page does not know), else kept in the line's tooltip
    const known = LINE_ERRORS.includes(e.code);
    if (known) li.appendChild(el("span", "rv-err-what", t("review.line_error." + e.code) + " "));
    if (lang() === "en" || !known) {
      const detail = el("span", "rv-err-detail", t("review.errors.detail") + " ");
      const words = el("q", null, e.error);
      words.lang = "en";
      detail.appendChild(words);
      li.appendChild(detail);
    } else {
      li.title = e.error;
    }
    list.appendChild(li);
  });
}

// ------------------------------------------------------------------ charts
function drawCharts() {
  if (!R.data) return;
  drawHandChart(R.data.hands || []);
  drawMistakeChart(R.data.summary.by_mistake || {});
}

// An axis tick: at most three decimals, trailing zeros dropped ("0.5", "1", "2.25").
function axisNumber(x) {
  return num(Number(Number(x).toFixed(3)));
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
    box.appendChild(el("p", "muted", t("review.chart.none")));
    return;
  }
  const byLine = hands.slice().sort((a, b) => a.line - b.line);
  const W = Math.max(260, Math.floor(box.clientWidth || 600));
  const H = 210, left = 46, right = 8, top = 24, bottom = 26;
  const plotW = W - left - right, plotH = H - top - bottom;
  const most = byLine.reduce((a, h) => (h.ev_lost > a.ev_lost ? h : a), byLine[0]);
  const yMax = niceMax(most.ev_lost);
  const root = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
    class: "rv-svg", "aria-label": most.ev_lost > 0
      ? t("review.chart.aria_hands", { hands: handsText(byLine.length), most: f3(most.ev_lost),
        line: most.line })
      : t("review.chart.aria_exact", { hands: handsText(byLine.length) }) });
  [0, 0.5, 1].forEach((frac) => {
    const y = top + plotH * (1 - frac);
    root.appendChild(svg("line", { x1: left, x2: W - right, y1: y, y2: y, class: "rv-grid" }));
    root.appendChild(svg("text", { x: left - 6, y: y + 4, "text-anchor": "end", class: "rv-tick" },
      axisNumber(yMax * frac)));
  });
  root.appendChild(svg("text", { x: 2, y: 11, class: "rv-tick" }, t("review.chart.axis")));
  const band = plotW / byLine.length;
  const gap = band >= 4 ? Math.min(band * 0.2, 6) : 0;
  byLine.forEach((h, i) => {
    const hgt = Math.max((h.ev_lost / yMax) * plotH, h.exact ? 1.5 : 2);
    const r = svg("rect", { x: (left + i * band + gap / 2).toFixed(2), y: (top + plotH - hgt).toFixed(2),
      width: Math.max(band - gap, 0.6).toFixed(2), height: hgt.toFixed(2), fill: colour(h),
      class: "rv-bar" + (h.exact ? " exact" : ""), "data-line": h.line,
      "data-mistake": h.mistake || "exact" });
    r.appendChild(svg("title", {}, h.exact ? t("review.chart.bar_exact", { line: h.line })
      : t("review.chart.bar_lost", { line: h.line, lost: f3(h.ev_lost), mistake: mistakeName(h.mistake) })));
    r.addEventListener("click", () => openHand(h.line));
    root.appendChild(r);
  });
  root.appendChild(svg("line", { x1: left, x2: W - right, y1: top + plotH, y2: top + plotH, class: "rv-axis" }));
  const first = byLine[0].line, last = byLine[byLine.length - 1].line;
  root.appendChild(svg("text", { x: left, y: H - 8, class: "rv-tick" }, t("review.chart.line", { line: first })));
  if (last !== first) {
    root.appendChild(svg("text", { x: W - right, y: H - 8, "text-anchor": "end", class: "rv-tick" },
      t("review.chart.line", { line: last })));
  }
  box.appendChild(root);
  const present = new Set(byLine.map((h) => (h.exact ? "exact" : h.mistake || "other")));
  const order = ["exact"].concat(Object.keys(MISTAKES));
  order.filter((k) => present.has(k)).forEach((k) => {
    const li = el("li");
    const sw = el("span", "rv-swatch");
    sw.style.background = k === "exact" ? EXACT_COLOUR : MISTAKES[k];
    sw.setAttribute("aria-hidden", "true");
    li.appendChild(sw);
    li.appendChild(el("span", null, mistakeName(k === "exact" ? null : k)));
    legend.appendChild(li);
  });
}

function drawMistakeChart(by) {
  const box = $("chart-mistakes");
  box.textContent = "";
  const entries = Object.entries(by).sort((a, b) => b[1].ev_lost - a[1].ev_lost);
  if (!entries.length) {
    box.appendChild(el("p", "muted", t("review.chart.no_mistake")));
    return;
  }
  const W = Math.max(260, Math.floor(box.clientWidth || 400));
  const rowH = 44, valueRoom = Math.min(130, W * 0.4);
  const H = entries.length * rowH + 4;
  const max = entries[0][1].ev_lost || 1;
  const label = entries.map(([k, v]) => t("review.chart.aria_mistake", { mistake: mistakeName(k),
    hands: handsText(v.hands), lost: f3(v.ev_lost), share: pct(v.share_of_lost) })).join("; ");
  const root = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
    class: "rv-svg", "aria-label": t("review.chart.aria_mistakes", { list: label }) });
  entries.forEach(([k, v], i) => {
    const y = i * rowH;
    root.appendChild(svg("text", { x: 0, y: y + 14, class: "rv-label" },
      mistakeName(k) + " \u00b7 " + handsText(v.hands)));
    const w = Math.max(((W - valueRoom) * v.ev_lost) / max, 2);
    const r = svg("rect", { x: 0, y: y + 20, width: w.toFixed(2), height: 16, rx: 3,
      fill: MISTAKES[k] || MISTAKES.other, class: "rv-mbar", "data-mistake": k });
    r.appendChild(svg("title", {}, t("review.chart.mean", { mistake: mistakeName(k), mean: f3(v.mean_ev_lost) })));
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
  add("all", t("review.filter.all", { n: hands.length }));
  add("lost", t("review.filter.lost", { n: hands.filter((h) => !h.exact).length }));
  add("exact", t("review.filter.exact", { n: hands.filter((h) => h.exact).length }));
  Object.keys(MISTAKES).forEach((k) => {
    const n = hands.filter((h) => h.mistake === k).length;
    if (n) add(k, t("review.filter.class", { mistake: mistakeName(k), n: n }));
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
  $("hand-count").textContent = hands.length
    ? t("review.list.showing", { shown: shown, hands: handsText(hands.length) })
    : t("review.list.none");
  const more = $("more-btn");
  more.hidden = shown >= hands.length;
  more.textContent = t("review.list.more", { n: Math.min(PAGE, hands.length - shown),
    left: hands.length - shown });
}

function handItem(h) {
  const li = el("li", "rv-hand");
  li.dataset.line = String(h.line);
  li.dataset.mistake = h.mistake || "exact";
  const d = el("details");
  const sum = el("summary");
  sum.appendChild(el("span", "rv-line", t("review.hand.line", { line: h.line })));
  sum.appendChild(el("span", "rv-lost", h.exact ? t("review.hand.no_loss")
    : t("review.hand.lost", { lost: f3(h.ev_lost) })));
  const tag = el("span", "rv-tag", mistakeName(h.mistake));
  tag.style.borderColor = colour(h);
  sum.appendChild(tag);
  if (h.id !== undefined && h.id !== null) {
    sum.appendChild(el("span", "muted rv-id", typeof h.id === "string" ? h.id
      : t("review.hand.id", { id: JSON.stringify(h.id) })));
  }
  const cards = cardRow(h.hand);
  cards.setAttribute("aria-hidden", "true");
  cards.classList.add("rv-summary-cards");
  sum.appendChild(cards);
  sum.appendChild(el("span", "sr-only", t("review.hand.cards", { cards: h.hand.join(" ") })));
  d.appendChild(sum);
  const body = el("div", "rv-body");
  d.appendChild(body);
  d.addEventListener("toggle", () => { if (d.open && !body.childElementCount) fillHand(body, h); });
  li.appendChild(d);
  return li;
}

function side(title, cls, rows, other, note, declared) {
  const box = el("section", "rv-side " + cls);
  box.appendChild(el("h4", null, title));
  if (note) box.appendChild(el("p", "rv-side-note", note));
  if (isNatural(rows)) {
    box.appendChild(el("p", "rv-natural", t(declared ? "review.side.declared" : "review.side.declare",
      { kind: naturalName(rows.natural) })));
    return box;
  }
  ROWS.forEach((r) => {
    const line = el("div", "rv-row");
    line.dataset.row = r;
    line.appendChild(el("span", "label", rowName(r)));
    line.appendChild(cardRow(rows[r]));
    if (other && !isNatural(other) && !sameSet(rows[r], other[r])) {
      line.classList.add("rv-diff");
      line.appendChild(el("span", "rv-diff-mark", t("review.row.differs")));
    }
    box.appendChild(line);
  });
  return box;
}

function fillHand(body, h) {
  const facts = el("p", "rv-facts");
  const parts = [t("review.hand.evs", { ev: signed3(h.ev), best: signed3(h.best_ev), lost: f3(h.ev_lost) }),
    tn("review.hand.against", h.opponents)];
  if (h.natural) parts.push(t("review.hand.holds", { kind: naturalName(h.natural) }));
  if (h.foul) parts.push(t("review.hand.fouls"));
  facts.textContent = parts.join(" \u00b7 ");
  body.appendChild(facts);
  if (typeof h.natural_ev === "number" && typeof h.rows_ev === "number") {
    // both values: declaring the natural and the best rows, under the same model
    const declare = h.natural_ev > h.rows_ev;
    body.appendChild(el("p", "rv-facts rv-natural-facts", t("review.hand.natural_vs_rows",
      { natural: signed3(h.natural_ev), rows: signed3(h.rows_ev) }) + " \u00b7 " +
      t(declare ? "review.hand.declare_better" : "review.hand.rows_better")));
  }
  if (h.mistakes && h.mistakes.length) {
    const ul = el("ul", "rv-mistakes");
    h.mistakes.forEach((m, i) => {
      const li = el("li");
      li.appendChild(el("strong", null, (i === 0 && h.mistakes.length > 1
        ? t("review.hand.counted", { mistake: mistakeName(m) }) : mistakeName(m)) + ": "));
      li.appendChild(el("span", null, mistakeWhy(m)));
      ul.appendChild(li);
    });
    body.appendChild(ul);
  }
  const cmp = el("div", "rv-compare");
  cmp.appendChild(side(t("review.side.mine"), "rv-mine", h.mine, h.best,
    t("review.side.ev", { ev: signed3(h.ev) }), true));
  cmp.appendChild(side(t("review.side.best"), "rv-best", h.best, h.mine,
    t("review.side.ev", { ev: signed3(h.best_ev) })));
  if (h.best_response) {
    const br = h.best_response;
    cmp.appendChild(side(t("review.side.br"), "rv-br",
      br.front ? { front: br.front, middle: br.middle, back: br.back } : { natural: br.natural },
      null, t("review.side.br_note", { points: signed3(br.points), actual: signed3(h.actual_points) })));
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
/* Offer ``text`` as the file ``name`` (the profiles panel saves profiles with it too). */
export function download(name, text, type = "application/json") {
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
  if (isNatural(rows)) return ["natural " + (rows.natural || ""), "", ""];  // data, as the API
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
    showError(t("review.error.file", { name: file.name, detail: e.message }));
    return;
  }
  text = text.replace(/^\ufeff/, ""); // a byte order mark is not part of the first line
  $("lines").value = text;
  clearError();
  const n = text.split(/\r\n|\r|\n/).filter((l) => l.trim()).length;
  notice(tn("review.file.read", n, { name: file.name }));
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
      ? t("review.session.ended") : t("review.session.unreadable", { detail: e.message });
    return;
  }
  box.hidden = false;
  if (h.game !== "capsa") {
    $("session-text").textContent = t("review.session.other_game", { game: h.game });
    return;
  }
  const n = h.hands.length;
  if (!n) {
    $("session-text").textContent = t("review.session.empty");
    return;
  }
  R.session = { token: token, hands: h.hands };
  $("session-text").textContent = tn("review.session.has", n);
  const b = $("session-btn");
  b.textContent = t("review.session.button_n", { n: n });
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
  line.id = hand.replay_of ? t("review.session.id_again", { n: hand.n, of: hand.replay_of })
    : t("review.session.id", { n: hand.n });
  const rules = Object.assign({}, o.rules || {});
  delete rules.players;
  return { line: line, rules: rules, players: o.num_players };
}

async function loadSession() {
  if (!R.session) return;
  await busy(t("review.session.loading"), async () => {
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
    if (!got.length) throw new Error(t("review.session.none_finished"));
    $("lines").value = got.map((x) => JSON.stringify(x.line)).join("\n") + "\n";
    R.sessionRules = got[0].rules;
    let opt = $("rules").querySelector('option[value="session"]');
    if (!opt) {
      opt = el("option", null, t("review.session.rules"));
      opt.value = "session";
      $("rules").appendChild(opt);
    }
    $("rules").value = "session";
    const opp = String(Math.min(3, Math.max(1, got[0].players - 1)));
    if ([...$("opponents").options].some((o) => o.value === opp)) $("opponents").value = opp;
    notice(tn("review.session.loaded", got.length));
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
