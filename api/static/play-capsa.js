/* Capsa's table: the rows set by click, key or drag with the server's live foul check, the
 * solver's "best", and after the reveal every seat's rows, the referee's breakdown and the
 * review. The row editor serves the table and the drill (play-drill.js) alike: where it
 * draws, what it checks with and what a set of rows does come from the editor in use. */
import {
  $, ROWS, S, api, cardFace, cardsEl, clearError, el, hooks, seatName, showError, signed, words,
} from "./play-ui.js";

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
  const all = E.cards(v);
  const open = E.open(v);
  hand.classList.toggle("pool", open);
  if (!open) {
    all.forEach((c) => hand.appendChild(cardFace(c)));
    return;
  }
  const placed = new Set([].concat(S.rows.front, S.rows.middle, S.rows.back));
  hand.dataset.row = "pool";
  all.filter((c) => !placed.has(c)).forEach((c) => hand.appendChild(capsaCard(c, "pool")));
  if (placed.size === 13) hand.appendChild(el("span", "muted", "every card is in a row"));
  const rowsBox = $(E.rows);
  rowsBox.textContent = "";
  ROWS.forEach(([name, size]) => {
    const row = el("div", "drop-row");
    row.dataset.row = name;
    if (S.target === name) row.classList.add("target");
    const head = el("button", "row-btn", name.charAt(0).toUpperCase() + name.slice(1) + " (" +
      S.rows[name].length + "/" + size + ")");
    head.type = "button";
    head.setAttribute("aria-pressed", S.target === name ? "true" : "false");
    head.title = "Cards you click go to this row";
    head.addEventListener("click", () => { S.target = name; renderCapsaMine(E.view()); });
    row.appendChild(head);
    const cards = el("div", "row-cards");
    S.rows[name].forEach((c) => cards.appendChild(capsaCard(c, name)));
    for (let k = S.rows[name].length; k < size; k++) cards.appendChild(el("span", "slot"));
    row.appendChild(cards);
    const kind = el("span", "row-kind");
    const info = S.check && S.check.rows[name];
    kind.textContent = info && info.kind ? words(info.kind) : "";
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
    foul.textContent = "Foul: " + S.check.problems.join("; ") + ".";
  } else if (S.check && S.check.complete) {
    foul.classList.add("good");
    foul.textContent = "No foul: the rows can be set.";
  } else {
    foul.textContent = "Put 3 cards in the front and 5 in the middle and in the back; the back " +
      "must be at least the middle, the middle at least the front.";
  }
  controls.appendChild(foul);
  // the solver's advice (Hint or Best) may be to declare the natural: then that is the
  // primary action, first, and setting rows a secondary one
  const declare = !!(v.natural_move && S.advice && S.advice.natural && S.advice.natural.declare);
  if (v.natural_move && declare) controls.appendChild(naturalButton(v, "primary"));
  const submit = el("button", declare ? "secondary" : "primary", "Set my rows");
  submit.type = "button";
  submit.id = "set-rows-btn";
  submit.disabled = !(S.check && S.check.complete && !S.check.foul && placed.size === 13);
  submit.addEventListener("click", () => E.play({ front: S.rows.front, middle: S.rows.middle,
    back: S.rows.back }));
  controls.appendChild(submit);
  if (E.best) {
    const best = el("button", "secondary", "Best");
    best.type = "button";
    best.id = "best-btn";
    best.title = "Fill the rows with the solver's best arrangement";
    best.addEventListener("click", fillBest);
    controls.appendChild(best);
  }
  const clear = el("button", "secondary", "Clear rows");
  clear.type = "button";
  clear.addEventListener("click", () => { S.rows = { front: [], middle: [], back: [] };
    S.target = "front"; checkRows(); });
  controls.appendChild(clear);
  if (v.natural_move && !declare) controls.appendChild(naturalButton(v, "secondary"));
}

function naturalButton(v, cls) {
  const nat = el("button", cls, "Declare the natural (" + words(v.natural_move.natural) + ")");
  nat.type = "button";
  nat.id = "natural-btn";
  const n = S.advice && S.advice.natural;
  if (n && typeof n.ev === "number") nat.title = "Declaring is worth EV " + signed(n.ev) +
    (n.declare ? ", more than the best rows" : ", less than the best rows");
  nat.addEventListener("click", () => E.play(v.natural_move));
  return nat;
}

function capsaCard(c, where) {
  const b = cardFace(c, "button");
  b.type = "button";
  b.draggable = true;
  b.classList.add("in-hand");
  b.title = where === "pool" ? "Click: to the " + S.target + " row; keys 1, 2, 3: front, middle, back"
    : "Click: back to your hand";
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
    if (row) { showError("The " + row + " row already holds " + size[row] + " cards."); return; }
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

export async function fillBest() {
  await hooks.run(async () => {
    const adv = await api("/v1/sessions/advice", { token: S.token });
    S.advice = adv;
    const a = adv.arrangements && adv.arrangements[0];
    // the advice is to declare the natural: the rows stay as they are, the natural's
    // button becomes the primary action
    if (!(adv.natural && adv.natural.declare)) {
      if (!a) throw new Error("The solver gave no arrangement for this hand.");
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
      (pr.foul ? " (foul)" : "") + (pr.natural ? " (natural: " + words(pr.natural) + ")" : "")));
    if (m && m.front) {
      ROWS.forEach(([r]) => {
        const line = el("div", "reveal-row");
        line.appendChild(el("span", "label", r + " "));
        line.appendChild(cardsEl(m[r], "small"));
        card.appendChild(line);
      });
    } else if (m) card.appendChild(cardsEl(m.cards, "small"));
    wrap.appendChild(card);
  });
  const mine = o.result.players[v.seat];
  const t = el("table", "breakdown");
  t.setAttribute("aria-label", "Your result against each opponent");
  const head = el("tr");
  ["Against", "Front", "Middle", "Back", "Scoop", "Royalties", "Natural", "Points"].forEach(
    (h) => head.appendChild(el("th", null, h)));
  t.appendChild(head);
  mine.vs.forEach((x) => {
    const tr = el("tr");
    tr.appendChild(el("td", null, seatName(v, x.opponent)));
    x.rows.forEach((r) => tr.appendChild(el("td", "num", signed(r))));
    [x.scoop, x.royalties, x.natural, x.points].forEach((n) => tr.appendChild(el("td", "num", signed(n))));
    t.appendChild(tr);
  });
  wrap.appendChild(t);
  return wrap;
}

export function renderReview(rev) {
  const box = $("review");
  box.textContent = "";
  box.hidden = !rev;
  if (!rev) return;
  box.appendChild(el("h3", null, "Review"));
  const n = rev.natural;  // the hand held a natural: what declaring it was worth
  if (rev.declared_natural) {
    box.appendChild(el("p", null, "You declared a natural" + (n ? " (" + words(n.kind) + ")" : "") +
      (n ? (n.declare ? ": the right choice." : ": setting the best rows was worth more.") : ".")));
    if (!n) return;
  }
  const dl = el("dl", "review-facts");
  const fact = (k, val, id) => {
    dl.appendChild(el("dt", null, k));
    const dd = el("dd", null, val);
    if (id) dd.id = id;
    dl.appendChild(dd);
  };
  if (rev.mine) fact("Your arrangement's EV", signed(rev.mine.ev), "review-mine");
  if (n) fact((rev.declared_natural ? "Your natural's EV" : "Declaring the natural (" +
    words(n.kind) + ")") + (n.declare ? " (the best choice)" : ""), signed(n.ev), "review-natural");
  if (rev.best.length) fact("Best arrangement's EV", signed(rev.best[0].ev), "review-best");
  const cost = n ? n.ev_lost : rev.cost;
  fact("What your choice cost", cost.toFixed(3) + " points per table", "review-cost");
  fact("You scored on this table", signed(rev.actual_points), "review-actual");
  if (n && !rev.declared_natural) fact("Declaring would have scored", signed(n.points), "review-natural-points");
  if (rev.best_response) fact("Best response to the actual opponents", signed(rev.best_response.points) + " (" +
    [rev.best_response.front, rev.best_response.middle, rev.best_response.back]
      .map((r) => r.join(" ")).join(" | ") + ")", "review-br");
  box.appendChild(dl);
  box.appendChild(el("p", "hint", "EVs against the same opponent model (" + rev.samples +
    " Monte Carlo deals of the unseen cards, opponents set by the table strategy), on the " +
    "same deals for every arrangement."));
  box.appendChild(el("h4", null, "The solver's top 5"));
  const ol = el("ol", "top5");
  rev.best.forEach((a) => {
    const li = el("li");
    li.appendChild(el("span", "ev", "EV " + signed(a.ev) + " "));
    ROWS.forEach(([r]) => li.appendChild(cardsEl(a[r], "small")));
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
  hide() { $("capsa-rows").hidden = true; },
  renderMine(v) {
    useEditor(TABLE);
    $("capsa-rows").hidden = !v.your_turn;
    $("mine-heading").textContent = v.your_turn ? "Your 13 cards: set the rows" : "Your hand";
    renderCapsaMine(v);
  },
  hint: fillBest,
  // Every seat's rows, the breakdown against each opponent, and the review.
  result(body, v) {
    if (v.observation.result) body.appendChild(capsaReveal(v.observation, v));
    renderReview(v.review);
  },
  selectsCards: false,  // cards go to rows: Enter does not play a selection
};
