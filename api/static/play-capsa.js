/* Capsa's table: the rows set by click, key or drag with the server's live foul check, the
 * solver's "best", and after the reveal every seat's rows, the referee's breakdown and the
 * review. The row editor serves the table and the drill (play-drill.js) alike: where it
 * draws, what it checks with and what a set of rows does come from the editor in use. */
import * as i18n from "./i18n.js";
import { sortHand } from "./play-picker.js";
import { lang, t } from "./i18n.js";
import {
  $, ROWS, S, api, cardFace, cardsEl, cardsText, clearError, el, hooks, kindName, seatName, showError,
  signed,
} from "./play-ui.js";
import { profileNames, profileSlot, storedProfiles } from "./profiles.js";

// A row's name as players say it: front/middle/back, atas/tengah/bawah, chi 3/2/1.
const rowName = (r) => t("row." + r);
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// (kindName, from play-ui.js: a hand kind's name in the page's language: "pair", "pasangan", "đôi")

// The table's editor: the "Your hand" part of the table panel, the session's live check,
// the move played through play.js, and the solver's "Best".
const TABLE = {
  pool: "my-hand", rows: "capsa-rows", controls: "controls", check: "/v1/sessions/check",
  cards: (v) => v.observation.hands[v.seat] || [],
  open: (v) => v.your_turn,
  play: (move) => hooks.play(move),
  view: () => S.view,
  best: true,
};
let E = TABLE;

// Use ``editor`` from now on ({pool, rows, controls: element ids; check: the check route;
// cards(v), open(v), play(move), view(); best: offer "Best"}); what the last one drew is cleared,
// so the ids of the buttons stay unique on the page.
export function useEditor(editor) {
  if (E === editor) return;
  [E.pool, E.rows, E.controls].forEach((id) => { const n = $(id); if (n) n.textContent = ""; });
  E = editor;
}

// Re-rendering the rows replaces the card buttons: keep the keyboard focus in place (on
// the same card while it stays in the hand, else on the card now at its place there).
export function renderCapsaMine(v) {
  const a = document.activeElement;
  const had = a && a.classList && a.classList.contains("in-hand") ? a.dataset.card : null;
  const pool = had ? [...$(E.pool).querySelectorAll("button.card")].map((b) => b.dataset.card) : [];
  drawCapsaMine(v);
  if (!had) return;
  const buttons = [...$(E.pool).querySelectorAll("button.card")];
  const same = buttons.find((b) => b.dataset.card === had);
  const wasPool = pool.includes(had);
  const target = (wasPool && same) || (wasPool && buttons[Math.min(pool.indexOf(had), buttons.length - 1)]) ||
    document.querySelector("#" + E.rows + ' button.card[data-card="' + had + '"]') || same;
  if (target) target.focus();
}

function drawCapsaMine(v) {
  const hand = $(E.pool);
  hand.textContent = "";
  $("moves-wrap").hidden = true;
  const controls = $(E.controls);
  controls.textContent = "";
  const all = sortHand(E.cards(v));
  const open = E.open(v);
  hand.classList.toggle("pool", open);
  if (!open) {
    all.forEach((c) => hand.appendChild(cardFace(c)));
    return;
  }
  const placed = new Set([].concat(S.rows.front, S.rows.middle, S.rows.back));
  hand.dataset.row = "pool";
  all.filter((c) => !placed.has(c)).forEach((c) => hand.appendChild(capsaCard(c, "pool")));
  if (placed.size === 13) hand.appendChild(el("span", "muted", t("capsa.all_placed")));
  const rowsBox = $(E.rows);
  rowsBox.textContent = "";
  ROWS.forEach(([name, size]) => {
    const row = el("div", "drop-row");
    row.dataset.row = name;
    if (S.target === name) row.classList.add("target");
    const head = el("button", "row-btn", t("capsa.row_count", { row: capital(rowName(name)),
      n: S.rows[name].length, size: size }));
    head.type = "button";
    head.setAttribute("aria-pressed", S.target === name ? "true" : "false");
    head.title = t("capsa.row_target");
    head.addEventListener("click", () => { S.target = name; renderCapsaMine(E.view()); });
    row.appendChild(head);
    const cards = el("div", "row-cards");
    S.rows[name].forEach((c) => cards.appendChild(capsaCard(c, name)));
    for (let k = S.rows[name].length; k < size; k++) cards.appendChild(el("span", "slot"));
    row.appendChild(cards);
    const kind = el("span", "row-kind");
    const info = S.check && S.check.rows[name];
    kind.textContent = info && info.kind ? kindName(info.kind) : "";
    row.appendChild(kind);
    dropTarget(row, name);
    rowsBox.appendChild(row);
  });
  dropTarget(hand, "pool");
  const foul = el("p", "foul-note");
  foul.id = "foul";
  foul.setAttribute("role", "status");
  if (S.check && S.check.foul) {
    foul.classList.add("bad");
    // the check's problems are the server's English: said in English, else the rule itself
    foul.textContent = lang() === "en" && S.check.problems && S.check.problems.length ?
      t("capsa.foul_detail", { problems: S.check.problems.join("; ") }) : t("capsa.foul");
  } else if (S.check && S.check.complete) {
    foul.classList.add("good");
    foul.textContent = t("capsa.no_foul");
  } else {
    foul.textContent = t("capsa.how_to_set");
  }
  controls.appendChild(foul);
  // the solver's advice (Hint or Best) may be to declare the natural: then that is the
  // primary action, first, and setting rows a secondary one
  const declare = !!(v.natural_move && S.advice && S.advice.natural && S.advice.natural.declare);
  if (v.natural_move && declare) controls.appendChild(naturalButton(v, "primary"));
  const submit = el("button", declare ? "secondary" : "primary", t("capsa.set_rows"));
  submit.type = "button";
  submit.id = "set-rows-btn";
  submit.disabled = !(S.check && S.check.complete && !S.check.foul && placed.size === 13);
  submit.addEventListener("click", () => E.play({ front: S.rows.front, middle: S.rows.middle,
    back: S.rows.back }));
  controls.appendChild(submit);
  if (E.best) {
    const best = el("button", "secondary", t("capsa.best"));
    best.type = "button";
    best.id = "best-btn";
    best.title = t("capsa.best_title");
    best.addEventListener("click", fillBest);
    controls.appendChild(best);
  }
  const clear = el("button", "secondary", t("capsa.clear_rows"));
  clear.type = "button";
  clear.addEventListener("click", () => { S.rows = { front: [], middle: [], back: [] };
    S.target = "front"; checkRows(); });
  controls.appendChild(clear);
  if (v.natural_move && !declare) controls.appendChild(naturalButton(v, "secondary"));
}

function naturalButton(v, cls) {
  const nat = el("button", cls, t("capsa.declare", { kind: kindName(v.natural_move.natural) }));
  nat.type = "button";
  nat.id = "natural-btn";
  const n = S.advice && S.advice.natural;
  if (n && typeof n.ev === "number") {
    nat.title = t(n.declare ? "capsa.declare_more" : "capsa.declare_less", { ev: signed(n.ev) });
  }
  nat.addEventListener("click", () => E.play(v.natural_move));
  return nat;
}

function capsaCard(c, where) {
  const b = cardFace(c, "button");
  b.type = "button";
  b.draggable = true;
  b.classList.add("in-hand");
  b.title = where === "pool" ? t("capsa.card_to_row", { row: rowName(S.target) })
    : t("capsa.card_back");
  b.addEventListener("click", () => (where === "pool" ? place(c, null) : unplace(c)));
  b.addEventListener("keydown", (ev) => {
    const row = { 1: "front", 2: "middle", 3: "back" }[ev.key];
    if (row) { ev.preventDefault(); ev.stopPropagation(); place(c, row); }
    else if ((ev.key === "Backspace" || ev.key === "Delete") && where !== "pool") {
      ev.preventDefault(); unplace(c);
    }
  });
  b.addEventListener("dragstart", (ev) => {
    ev.dataTransfer.setData("text/plain", c);
    ev.dataTransfer.effectAllowed = "move";
  });
  return b;
}

function dropTarget(node, name) {
  node.addEventListener("dragover", (ev) => { ev.preventDefault(); node.classList.add("over"); });
  node.addEventListener("dragleave", () => node.classList.remove("over"));
  node.addEventListener("drop", (ev) => {
    ev.preventDefault();
    node.classList.remove("over");
    const c = ev.dataTransfer.getData("text/plain");
    if (!c) return;
    if (name === "pool") unplace(c); else place(c, name);
  });
}

function place(c, row) {
  const size = Object.fromEntries(ROWS);
  let target = row || S.target;
  if (S.rows[target].length >= size[target] && !S.rows[target].includes(c)) {
    if (row) { showError(t("capsa.row_full", { row: rowName(row), n: size[row] })); return; }
    target = ROWS.map((r) => r[0]).find((r) => S.rows[r].length < size[r]);
    if (!target) return;
  }
  ROWS.forEach(([r]) => { S.rows[r] = S.rows[r].filter((x) => x !== c); });
  S.rows[target].push(c);
  if (S.rows[target].length >= size[target] && !row) {
    const next = ROWS.map((r) => r[0]).find((r) => S.rows[r].length < size[r]);
    if (next) S.target = next;
  }
  clearError();
  checkRows();
}

function unplace(c) {
  ROWS.forEach(([r]) => { S.rows[r] = S.rows[r].filter((x) => x !== c); });
  checkRows();
}

async function checkRows() {
  renderCapsaMine(E.view());
  const seq = ++S.checkSeq;
  try {
    const out = await api(E.check, { token: S.token, rows: S.rows });
    if (seq !== S.checkSeq) return;
    S.check = out;
  } catch (e) {
    if (seq !== S.checkSeq) return;
    S.check = null;
    showError(e.message);
  }
  renderCapsaMine(E.view());
  const f = $("foul");
  if (f) f.dataset.checked = String(seq);
}

// ------------------------------------------------------------------ hint against profiles
// With opponent profiles kept in this browser (the review page's "use against this table"),
// the table offers one a bot seat; Hint and Best then ask Monte Carlo against them.
const AGAINST = {};  // seat -> the profile's name chosen for it

function otherSeats(v) {
  const n = v.observation.num_players;
  return Array.from({ length: n - 1 }, (_, i) => (v.seat + 1 + i) % n);
}

function renderAgainst(v) {
  const box = $("hint-against");
  if (!box) return;
  const names = profileNames();
  box.hidden = !(names.length && v.your_turn && v.advisor);
  if (box.hidden) return;
  const slots = $("hint-against-slots");
  slots.hidden = !$("hint-against-use").checked;
  slots.textContent = "";
  otherSeats(v).forEach((q, i) => {
    const { field, sel } = profileSlot("hint-against-" + q, seatName(v, q), names, AGAINST[q], i);
    AGAINST[q] = sel.value;
    sel.addEventListener("change", () => { AGAINST[q] = sel.value; });
    slots.appendChild(field);
  });
}

// The profiles chosen for the other seats, in seat order after the human's, or null.
function chosenAgainst(v) {
  const box = $("hint-against");
  if (!box || box.hidden || !$("hint-against-use").checked) return null;
  const all = storedProfiles();
  const picked = otherSeats(v).map((q) => ({ name: AGAINST[q], profile: all[AGAINST[q]] }));
  return picked.every((x) => x.profile) ? picked : null;
}

function initAgainst() {
  const use = $("hint-against-use");
  if (!use) return;
  use.addEventListener("change", () => { if (S.view) renderAgainst(S.view); });
}

export async function fillBest() {
  await hooks.run(async () => {
    const body = { token: S.token };
    const against = S.view && S.view.presentation === "capsa_rows" ? chosenAgainst(S.view) : null;
    if (against) body.opponent_profiles = against.map((x) => x.profile);
    const adv = await api("/v1/sessions/advice", body);
    if (against) adv.against = against.map((x) => x.name);
    S.advice = adv;
    const a = adv.arrangements && adv.arrangements[0];
    // the advice is to declare the natural: the rows stay as they are, the natural's
    // button becomes the primary action
    if (!(adv.natural && adv.natural.declare)) {
      if (!a) throw new Error(t("capsa.no_arrangement"));
      S.rows = { front: a.front.slice(), middle: a.middle.slice(), back: a.back.slice() };
    }
    hooks.showHint(adv);
  });
  if (S.view && S.view.presentation === "capsa_rows") {
    await checkRows();
    const nat = $("natural-btn");
    if (nat && nat.classList.contains("primary")) nat.focus({ preventScroll: true });
  }
}

export function capsaReveal(o, v) {
  const wrap = el("div", "reveal");
  o.moves.forEach((m, q) => {
    const pr = o.result.players[q];
    const card = el("div", "reveal-seat" + (q === v.seat ? " me" : ""));
    card.appendChild(el("h4", null, seatName(v, q) + ": " + signed(pr.points) +
      (pr.foul ? " " + t("capsa.reveal.foul") : "") +
      (pr.natural ? " " + t("capsa.reveal.natural", { kind: kindName(pr.natural) }) : "")));
    if (m && m.front) {
      // each row: its kind, and how it did against you (your own: the sum over the others)
      const mine = o.result.players[v.seat];
      const vsMe = q === v.seat ? null : (mine.vs.find((x) => x.opponent === q) || null);
      ROWS.forEach(([r], i) => {
        const line = el("div", "reveal-row");
        line.dataset.row = r;
        line.appendChild(el("span", "label", rowName(r) + " "));
        line.appendChild(cardsEl(m[r], "small"));
        if (pr.kinds) line.appendChild(el("span", "row-kind", kindName(pr.kinds[i])));
        const n = q === v.seat ? mine.vs.reduce((a, x) => a + x.rows[i], 0) :
          (vsMe ? -vsMe.rows[i] : null);
        if (n !== null) {
          const res = el("span", "row-res " + (n > 0 ? "won" : n < 0 ? "lost" : "tied"),
            i18n.t(q === v.seat ? "table.reveal.row_total" : "table.reveal.row_vs_you",
              { n: signed(n) }));
          line.appendChild(res);
        }
        card.appendChild(line);
      });
    } else if (m) card.appendChild(cardsEl(m.cards, "small"));
    wrap.appendChild(card);
  });
  const mine = o.result.players[v.seat];
  const tbl = el("table", "breakdown");
  tbl.setAttribute("aria-label", t("capsa.breakdown.aria"));
  const head = el("tr");
  const labels = ["capsa.breakdown.against", "row.front", "row.middle", "row.back", "capsa.breakdown.scoop",
    "capsa.breakdown.royalties", "capsa.breakdown.natural", "capsa.breakdown.points"].map((k) => capital(t(k)));
  labels.forEach((h) => head.appendChild(el("th", null, h)));
  tbl.appendChild(head);
  mine.vs.forEach((x) => {
    const tr = el("tr");
    tr.appendChild(el("td", null, seatName(v, x.opponent)));
    x.rows.forEach((r) => tr.appendChild(el("td", "num", signed(r))));
    [x.scoop, x.royalties, x.natural, x.points].forEach((n) => tr.appendChild(el("td", "num", signed(n))));
    // each figure names its column too: on a phone the table turns into a block per opponent
    [...tr.children].forEach((td, i) => { if (i) td.dataset.label = head.children[i].textContent; });
    tbl.appendChild(tr);
  });
  wrap.appendChild(tbl);
  return wrap;
}

export function renderReview(rev) {
  const box = $("review");
  box.textContent = "";
  box.hidden = !rev;
  if (!rev) return;
  box.appendChild(el("h3", null, t("capsa.review.heading")));
  const n = rev.natural;  // the hand held a natural: what declaring it was worth
  if (rev.declared_natural) {
    box.appendChild(el("p", null, !n ? t("capsa.review.declared") :
      t(n.declare ? "capsa.review.declared_right" : "capsa.review.declared_wrong", { kind: kindName(n.kind) })));
    if (!n) return;
  }
  const dl = el("dl", "review-facts");
  const fact = (k, val, id) => {
    dl.appendChild(el("dt", null, k));
    const dd = el("dd", null, val);
    if (id) dd.id = id;
    dl.appendChild(dd);
  };
  if (rev.mine) fact(t("capsa.review.mine_ev"), signed(rev.mine.ev), "review-mine");
  if (n) fact((rev.declared_natural ? t("capsa.review.natural_ev") : t("capsa.review.declaring",
    { kind: kindName(n.kind) })) + (n.declare ? " " + t("capsa.review.best_choice") : ""), signed(n.ev), "review-natural");
  if (rev.best.length) fact(t("capsa.review.best_ev"), signed(rev.best[0].ev), "review-best");
  const cost = n ? n.ev_lost : rev.cost;
  fact(t("capsa.review.cost"), t("capsa.review.points_per_table", { points: cost.toFixed(3) }), "review-cost");
  fact(t("capsa.review.scored"), signed(rev.actual_points), "review-actual");
  if (n && !rev.declared_natural) fact(t("capsa.review.would_score"), signed(n.points), "review-natural-points");
  if (rev.best_response) fact(t("capsa.review.best_response"), signed(rev.best_response.points) + " (" +
    [rev.best_response.front, rev.best_response.middle, rev.best_response.back]
      .map(cardsText).join(" | ") + ")", "review-br");
  box.appendChild(dl);
  box.appendChild(el("p", "hint", t("capsa.review.model", { samples: rev.samples })));
  // the hint's EV of the same rows differs: say why, where both are seen
  const why = el("p", "hint", t("review.play.differ"));
  why.id = "review-why-differ";
  box.appendChild(why);
  box.appendChild(el("h4", null, t("capsa.review.top5")));
  const ol = el("ol", "top5");
  rev.best.forEach((a) => {
    const li = el("li");
    li.appendChild(el("span", "ev", t("play.ev", { ev: signed(a.ev) }) + " "));
    ROWS.forEach(([r]) => {  // each row named, as players name it
      const part = el("span", "top5-row");
      part.dataset.row = r;
      part.appendChild(el("span", "top5-label", capital(rowName(r))));
      part.appendChild(cardsEl(a[r], "small"));
      li.appendChild(part);
    });
    ol.appendChild(li);
  });
  box.appendChild(ol);
}

// The "capsa_rows" presentation: what the page asks of it (see play-presentations.js).
export const capsaRows = {
  // A new hand: empty rows, the front first.
  newHand() {
    S.advice = null;
    S.rows = { front: [], middle: [], back: [] };
    S.target = "front";
    S.check = null;
  },
  hide() {
    $("capsa-rows").hidden = true;
    $("hint-against").hidden = true;
  },
  renderMine(v) {
    useEditor(TABLE);
    renderAgainst(v);
    $("capsa-rows").hidden = !v.your_turn;
    $("mine-heading").textContent = t(v.your_turn ? "play.drill.mine" : "play.mine");
    renderCapsaMine(v);
  },
  hint: fillBest,
  // Every seat's rows, the breakdown against each opponent, and the review.
  result(body, v) {
    if (v.observation.result) body.appendChild(capsaReveal(v.observation, v));
    renderReview(v.review);
  },
  selectsCards: false,  // cards go to rows: Enter does not play a selection
  lastPlay: false,  // one move a seat, all 13 cards: the reveal shows them, not the seats
};

initAgainst();
