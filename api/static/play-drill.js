/* The Capsa drill (/v1/sessions/drill...): one hand of your 13 cards at a time, set with the
 * table's row editor (play-capsa.js) and its live foul check; the answer at once (EV lost,
 * your rows beside the best, the mistake class), the running figures with a trend chart
 * (inline SVG, drawn here) and the worst mistakes to practise again. The session lives on
 * the server; the page keeps only its token. */
import { has, t, tn } from "./i18n.js";
import { capsaRows, renderCapsaMine, useEditor } from "./play-capsa.js";
import {
  $, MODE_KEY, ROWS, S, TOKEN_KEY, api, cardFace, el, gameTitle, hooks, kindName, signed, words,
} from "./play-ui.js";
import { profileNames, storedProfiles } from "./profiles.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// The coach's mistake classes in words (solver/games/capsa/coach.py says how each is told):
// the catalog's mistake.<class> and mistake.<class>.help, else the English below.
const MISTAKE_EN = {
  foul: ["Foul", "the rows are out of order: every row loses and you are scooped"],
  natural_not_declared: ["Natural not declared", "declaring the natural the hand holds was worth more"],
  natural_declared: ["Natural declared", "setting rows was worth more than declaring the natural"],
  flush_or_straight_unmade: ["Flush or straight not made",
    "the best rows make more straights or flushes in the middle and back"],
  pair_broken: ["Pair broken up", "cards of one rank that the best rows keep together are spread over rows"],
  front_too_weak: ["Front too weak", "a strong hand kept in the middle or back where the best rows put a pair in front"],
  front_too_strong: ["Front too strong", "a stronger front than the best's, paid for in the middle or back"],
  kickers: ["Kickers", "the same kind of hand in each row as the best: the loss is in which cards make them"],
  other: ["Other", "none of the named patterns"],
};

// [name, what it means] of a mistake class, or undefined for a class the page does not know.
function mistake(name) {
  return has("mistake." + name) ? [t("mistake." + name), t("mistake." + name + ".help")] : MISTAKE_EN[name];
}

export function mistakeLabel(name) {
  return name ? (mistake(name) ? mistake(name)[0] : words(name)) : t("drill.mistake_none");
}
const rowName = (r) => t("row." + r);

// The editor of the drill's rows: its own part of the page, the drill's live check.
const DRILL = {
  pool: "drill-hand", rows: "drill-rows", controls: "drill-controls",
  check: "/v1/sessions/drill/check",
  cards: (v) => v.own_cards || [],
  open: (v) => !v.answered,
  play: (move) => setRows(move),
  view: () => S.drill,
  best: false,  // the best rows are the answer
};

const fmt = (x) => (x === null || x === undefined ? "—" : Number(x).toFixed(3));
const short = (x) => String(Math.round(Number(x) * 1000) / 1000);  // an axis value: 20, 2.5

// ------------------------------------------------------------------ session
const AGAINST_KEY = "capsa-drill-against";  // the profile's name the drill deals against

// The setup's choice of a kept profile to drill against (drill mode, profiles kept).
export function syncDrillAgainst(drill) {
  const names = profileNames();
  const field = $("drill-against-field");
  field.hidden = !(drill && names.length);
  const sel = $("drill-against");
  const was = sel.value;
  sel.textContent = "";
  const table = el("option", null, t("profile.drill.table"));
  table.value = "";
  sel.appendChild(table);
  names.forEach((name) => {
    const o = el("option", null, name);
    o.value = name;
    sel.appendChild(o);
  });
  sel.value = names.includes(was) ? was : "";
}

function againstName() {
  try { return localStorage.getItem(AGAINST_KEY) || ""; } catch (e) { return ""; }
}

export async function startDrill(body) {
  const name = $("drill-against-field").hidden ? "" : $("drill-against").value;
  const profile = name ? storedProfiles()[name] : null;
  if (profile) {  // every opponent set as that player
    const players = (body.rules && body.rules.players) || 4;
    body.opponent_profiles = Array.from({ length: players - 1 }, () => profile);
  }
  const v = await api("/v1/sessions/drill", body);
  try {
    if (profile) localStorage.setItem(AGAINST_KEY, name);
    else localStorage.removeItem(AGAINST_KEY);
  } catch (e) { /* private mode */ }
  adoptDrill(v);
}

export function adoptDrill(v) {
  S.token = v.token;
  try {
    localStorage.setItem(TOKEN_KEY, v.token);
    localStorage.setItem(MODE_KEY, "drill");
  } catch (e) { /* private mode */ }
  showDrill(v);
}

export function hideDrill() {
  S.drill = null;
  $("drill").hidden = true;
  $("drill-figures").hidden = true;
}

async function setRows(move) {
  await hooks.run(async () => {
    const body = move.kind === "natural" ? { kind: "natural" } :
      { front: move.front, middle: move.middle, back: move.back };
    const v = await api("/v1/sessions/drill/move", { token: S.token, move: body, version: S.drill && S.drill.version });
    showDrill(v);
    $("drill-answer").scrollIntoView({ block: "nearest" });
    $("drill-next-btn").focus({ preventScroll: true });
  });
}

export async function drillNext() {
  if (!S.drill || !S.drill.answered) return;
  await hooks.run(async () => {
    showDrill(await api("/v1/sessions/drill/next", { token: S.token, version: S.drill.version }));
    focusHand();
  });
}

async function practise(n) {
  await hooks.run(async () => {
    showDrill(await api("/v1/sessions/drill/again", { token: S.token, n: n, version: S.drill && S.drill.version }));
    $("drill").scrollIntoView({ block: "start" });
    focusHand();
  });
}

function focusHand() {
  const b = document.querySelector("#drill-hand button.card");
  if (b) b.focus({ preventScroll: true });
}

// ------------------------------------------------------------------ the hand and the answer
export function showDrill(v) {
  const prev = S.drill;
  if (!prev || prev.hand !== v.hand) capsaRows.newHand();
  S.drill = v;
  S.view = null;
  $("setup").hidden = true;
  $("table").hidden = true;
  $("history").hidden = true;
  $("replay").hidden = true;
  $("drill").hidden = false;
  $("drill-figures").hidden = false;
  $("drill-heading").textContent = v.replay_of ?
    t("drill.title_again", { game: gameTitle("capsa", v.title), n: v.hand, of: v.replay_of }) :
    t("play.table.title", { game: gameTitle("capsa", v.title), n: v.hand });
  $("drill-status").textContent = v.answered ?
    (v.answer.exact ? t("drill.exact") :
      t("drill.lost", { points: fmt(v.answer.ev_lost), mistake: mistakeLabel(v.answer.mistake) })) :
    tn("drill.set_against", v.opponents);
  $("drill-mine-heading").textContent = t(v.answered ? "drill.your_cards" : "play.drill.mine");
  $("drill-rows").hidden = v.answered;
  useEditor(DRILL);
  renderCapsaMine(v);
  renderAnswer(v);
  renderFigures(v.stats, v);
}

function rowsBlock(title, arr, other, id, note) {
  const box = el("div", "drill-side");
  box.id = id;
  box.appendChild(el("h4", null, title));
  if (!arr || !arr.front) {
    box.appendChild(el("p", null, arr && arr.natural ? t("capsa.declare", { kind: kindName(arr.natural) }) :
      t("drill.declare")));
    return box;
  }
  const where = {};
  if (other && other.front) ROWS.forEach(([r]) => other[r].forEach((c) => { where[c] = r; }));
  let moved = 0;
  ROWS.forEach(([r]) => {
    const line = el("div", "reveal-row");
    line.dataset.row = r;
    line.appendChild(el("span", "label", rowName(r) + " "));
    const cards = el("span", "cards small");
    arr[r].forEach((c) => {
      const f = cardFace(c);
      if (where[c] && where[c] !== r) {
        f.classList.add("moved");
        f.setAttribute("aria-label", f.getAttribute("aria-label") + " (" + t(note, { row: rowName(where[c]) }) + ")");
        moved++;
      }
      cards.appendChild(f);
    });
    line.appendChild(cards);
    box.appendChild(line);
  });
  if (moved) box.appendChild(el("p", "hint", tn(note + "_count", moved)));
  return box;
}

function renderAnswer(v) {
  const box = $("drill-answer");
  box.hidden = !v.answered;
  if (!v.answered) return;
  const a = v.answer;
  const lost = $("drill-lost");
  lost.textContent = t("drill.points", { points: fmt(a.ev_lost) });
  lost.className = a.exact ? "good" : "bad";
  $("drill-ev").textContent = signed(a.ev);
  $("drill-best-ev").textContent = signed(a.best_ev);
  naturalFacts(a);
  const m = $("drill-mistake");
  m.textContent = "";
  m.appendChild(el("span", "strong", mistakeLabel(a.mistake)));
  if (a.mistake && mistake(a.mistake)) m.appendChild(el("span", null, ": " + mistake(a.mistake)[1] + "."));
  const also = (a.mistakes || []).filter((x) => x !== a.mistake);
  if (also.length) m.appendChild(el("span", "muted", " " + t("drill.also", { list: also.map(mistakeLabel).join(", ") })));
  const cmp = $("drill-compare");
  cmp.textContent = "";
  cmp.appendChild(rowsBlock(t("drill.your_rows"), a.mine, a.best, "drill-mine-rows",
    "drill.moved_best"));
  cmp.appendChild(rowsBlock(t(a.exact ? "drill.best_rows_same" : "drill.best_rows"), a.best, a.mine,
    "drill-best-rows", "drill.moved_yours"));
  $("drill-model").textContent = S.drill && S.drill.against_profiles
    ? tn("profile.drill.model", a.opponents, { name: againstName() || "?" })
    : tn("drill.model", a.opponents,
      { method: has("method." + a.method) ? t("method." + a.method) : a.method });
}

// A hand holding a natural: both values beside Your EV / Best EV (declaring it, the best rows).
function naturalFacts(a) {
  const dl = $("drill-best-ev").parentNode;
  dl.querySelectorAll(".drill-natural").forEach((n) => n.remove());
  if (typeof a.natural_ev !== "number" || typeof a.rows_ev !== "number") return;
  const add = (k, val, id) => {
    const dt = el("dt", "drill-natural", k);
    const dd = el("dd", "drill-natural", val);
    dd.id = id;
    dl.appendChild(dt);
    dl.appendChild(dd);
  };
  const declare = a.natural_ev > a.rows_ev;
  add((a.natural ? t("capsa.review.declaring", { kind: kindName(a.natural) }) : t("drill.declaring")) +
    (declare ? " " + t("drill.best_mark") : ""), signed(a.natural_ev), "drill-natural-ev");
  add(t("drill.best_rows") + (declare ? "" : " " + t("drill.best_mark")), signed(a.rows_ev), "drill-rows-ev");
}

// ------------------------------------------------------------------ the figures
function fact(dl, k, val, id) {
  dl.appendChild(el("dt", null, k));
  const dd = el("dd", null, val);
  if (id) dd.id = id;
  dl.appendChild(dd);
}

function renderFigures(st, v) {
  const dl = $("drill-totals");
  dl.textContent = "";
  fact(dl, t("drill.hands"), String(st.hands), "drill-hands");
  fact(dl, t("drill.mean_all"), fmt(st.mean_ev_lost), "drill-mean");
  fact(dl, t("drill.mean_last", { n: st.last }), fmt(st.mean_ev_lost_last) +
    (st.hands > st.last_hands ? "" : st.hands ? " " + t("drill.so_far", { n: st.last_hands }) : ""), "drill-mean-last");
  fact(dl, t("drill.exact_count"), st.hands ? st.exact + " (" + Math.round(100 * st.exact_share) + "%)" : "—",
    "drill-exact");
  fact(dl, t("drill.lost_total"), fmt(st.ev_lost), "drill-total");
  renderTrend(st);
  renderClasses(st);
  renderWorst(st, v);
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  Object.entries(attrs || {}).forEach(([k, val]) => e.setAttribute(k, String(val)));
  if (text !== undefined) e.textContent = text;
  return e;
}

function niceMax(x) {
  if (!(x > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  return [1, 2, 2.5, 5, 10].map((k) => k * p).find((k) => k >= x);
}

// Bars: each hand's EV lost; lines: the running mean and the mean of the last 20 then.
function renderTrend(st) {
  const box = $("drill-trend");
  box.textContent = "";
  const pts = st.trend;
  const cap = $("drill-trend-caption");
  $("drill-trend-table-box").hidden = !pts.length;
  if (!pts.length) {
    box.appendChild(el("p", "muted", t("drill.trend.empty")));
    cap.textContent = "";
    return;
  }
  // drawn at the width it is shown (so the labels keep their size on a phone)
  const W = Math.round(Math.max(280, Math.min(720, box.clientWidth || 600)));
  const H = W < 480 ? 170 : 200, left = 44, right = 10, top = 12, bottom = 28;
  const pw = W - left - right, ph = H - top - bottom;
  const ymax = niceMax(Math.max(...pts.map((p) => Math.max(p.ev_lost, p.mean, p.mean_last))));
  const band = pw / pts.length;
  const x = (i) => left + band * (i + 0.5);
  const y = (val) => top + ph - (ph * Math.min(val, ymax)) / ymax;
  const first = pts[0], last = pts[pts.length - 1];
  const label = t("drill.trend.caption", { first: first.n, last: last.n, max: short(ymax),
    mean_first: fmt(first.mean), mean_last: fmt(last.mean), n: st.last,
    window_first: fmt(first.mean_last), window_last: fmt(last.mean_last) });
  const root = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "drill-svg", role: "img",
    "aria-label": t("drill.trend.aria"), "aria-describedby": "drill-trend-caption",
    preserveAspectRatio: "xMidYMid meet" });
  [0, 0.5, 1].forEach((f) => {
    const yy = top + ph - ph * f;
    root.appendChild(svg("line", { x1: left, x2: W - right, y1: yy, y2: yy, class: "grid" }));
    root.appendChild(svg("text", { x: left - 6, y: yy + 4, "text-anchor": "end", class: "tick" },
      short(ymax * f)));
  });
  pts.forEach((p, i) => {
    const h = top + ph - y(p.ev_lost);
    const bw = Math.min(Math.max(band * 0.7, 1), 28);
    const r = svg("rect", { x: (x(i) - bw / 2).toFixed(2), y: y(p.ev_lost).toFixed(2),
      width: bw.toFixed(2), height: Math.max(h, p.ev_lost > 0 ? 1 : 0).toFixed(2),
      class: "lost-bar" + (p.replay_of ? " again" : "") });
    r.appendChild(svg("title", null, t("drill.hand_lost", { n: p.n, points: fmt(p.ev_lost) }) +
      (p.mistake ? " (" + mistakeLabel(p.mistake) + ")" : "")));
    root.appendChild(r);
  });
  const line = (key, cls) => {
    const d = pts.map((p, i) => x(i).toFixed(2) + "," + y(p[key]).toFixed(2)).join(" ");
    if (pts.length === 1) {
      root.appendChild(svg("circle", { cx: x(0), cy: y(pts[0][key]), r: 4, class: cls + " dot" }));
    } else root.appendChild(svg("polyline", { points: d, class: cls }));
  };
  line("mean", "mean");
  line("mean_last", "mean-last");
  root.appendChild(svg("text", { x: left, y: H - 8, class: "tick" }, t("drill.trend.hand", { n: first.n })));
  root.appendChild(svg("text", { x: W - right, y: H - 8, "text-anchor": "end", class: "tick" },
    t("drill.trend.hand", { n: last.n })));
  box.appendChild(root);
  const legend = el("p", "drill-legend");
  legend.setAttribute("aria-hidden", "true");
  const keys = [["lost-bar", t("drill.trend.bar")], ["mean", t("drill.trend.mean")],
    ["mean-last", t("drill.trend.mean_last", { n: st.last })]];
  if (pts.some((p) => p.replay_of)) keys.splice(1, 0, ["lost-bar again", t("drill.trend.again")]);
  keys.forEach(([cls, text]) => {
    const item = el("span", "legend-item");
    item.appendChild(el("span", "swatch " + cls));
    item.appendChild(el("span", null, text));
    legend.appendChild(item);
  });
  box.appendChild(legend);
  cap.textContent = label;
  const tbl = $("drill-trend-table");
  tbl.textContent = "";
  const head = el("tr");
  [t("drill.col.hand"), t("play.drill.ev_lost"), t("play.drill.mistake"), t("drill.col.mean_all"),
    t("drill.col.mean_last", { n: st.last })].forEach((h) => {
    const th = el("th", null, h);
    th.scope = "col";
    head.appendChild(th);
  });
  tbl.appendChild(head);
  pts.slice().reverse().forEach((p) => {
    const tr = el("tr");
    tr.appendChild(el("td", null, String(p.n) + (p.replay_of ? " " + t("drill.again_of", { n: p.replay_of }) : "")));
    tr.appendChild(el("td", "num", fmt(p.ev_lost)));
    tr.appendChild(el("td", null, p.mistake ? mistakeLabel(p.mistake) : "—"));
    tr.appendChild(el("td", "num", fmt(p.mean)));
    tr.appendChild(el("td", "num", fmt(p.mean_last)));
    tbl.appendChild(tr);
  });
}

function renderClasses(st) {
  const tbl = $("drill-classes");
  tbl.textContent = "";
  const head = el("tr");
  [t("play.drill.mistake"), t("drill.col.hands"), t("play.drill.ev_lost"), t("drill.col.mean")].forEach((h) => {
    const th = el("th", null, h);
    th.scope = "col";
    head.appendChild(th);
  });
  tbl.appendChild(head);
  const rows = st.mistake_classes.filter((m) => st.by_mistake[m].hands > 0);
  rows.forEach((m) => {
    const c = st.by_mistake[m];
    const tr = el("tr");
    tr.dataset.mistake = m;
    const th = el("th", null, mistakeLabel(m));
    th.scope = "row";
    th.title = mistake(m) ? mistake(m)[1] : "";
    tr.appendChild(th);
    tr.appendChild(el("td", "num", String(c.hands)));
    tr.appendChild(el("td", "num", fmt(c.ev_lost)));
    tr.appendChild(el("td", "num", fmt(c.mean_ev_lost)));
    tbl.appendChild(tr);
  });
  const ok = el("tr");
  ok.dataset.mistake = "exact";
  const th = el("th", null, t("drill.exact_row"));
  th.scope = "row";
  ok.appendChild(th);
  ok.appendChild(el("td", "num", String(st.exact)));
  ok.appendChild(el("td", "num", fmt(0)));
  ok.appendChild(el("td", "num", st.exact ? fmt(0) : "—"));
  tbl.appendChild(ok);
}

function renderWorst(st, v) {
  const list = $("drill-worst");
  list.textContent = "";
  const note = $("drill-worst-note");
  if (!st.worst.length) {
    note.textContent = t("drill.worst.empty");
    return;
  }
  note.textContent = t(v.answered ? "drill.worst.note" : "drill.worst.note_first");
  st.worst.forEach((w) => {
    const li = el("li", "history-item worst-item");
    li.dataset.n = String(w.n);
    const text = el("div", "worst-text");
    text.appendChild(el("span", "strong", t("drill.hand_lost", { n: w.n, points: fmt(w.ev_lost) })));
    text.appendChild(el("span", null, " · " + mistakeLabel(w.mistake)));
    if (w.tries > 1) {
      text.appendChild(el("span", w.fixed ? "good" : "muted", " · " + t("drill.tries",
        { n: w.tries, last: fmt(w.last_ev_lost) }) + (w.fixed ? " ✓ " + t("drill.fixed") : "")));
    }
    const cards = el("span", "cards small");
    w.hand.forEach((c) => cards.appendChild(cardFace(c)));
    text.appendChild(el("br"));
    text.appendChild(cards);
    li.appendChild(text);
    const b = el("button", "secondary small-btn practise", t("drill.practise"));
    b.type = "button";
    b.setAttribute("aria-label", t("drill.practise_n", { n: w.n }));
    b.disabled = !v.answered;
    if (b.disabled) b.title = t("drill.set_first");
    b.addEventListener("click", () => practise(w.n));
    li.appendChild(b);
    list.appendChild(li);
  });
}

export function initDrill() {
  let width = 0;
  window.addEventListener("resize", () => {
    const w = $("drill-trend").clientWidth;
    if (S.drill && w !== width) { width = w; renderTrend(S.drill.stats); }
  });
  $("drill-next-btn").addEventListener("click", drillNext);
  $("drill-again-btn").addEventListener("click", () => S.drill && practise(S.drill.hand));
}
