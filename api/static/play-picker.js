/* Picking a move by its cards, the primary way in for every game whose legal moves carry
 * cards: the player taps cards in the hand, and the page offers only the legal moves that
 * hold them (the exact one first), with one Play button for an exact match. Moves without
 * cards (pass, a bid, a draw) are always offered as buttons; the whole list of legal moves
 * stays reachable behind a toggle, as a fallback. A hint lights up the hinted move's cards.
 * Reads the view's legal moves only: it knows no game. */
import { t } from "./i18n.js";
import { $, S, el, moveEl, moveKey, moveText, sameCards } from "./play-ui.js";

const SHOWN_MAX = 6;  // candidates shown at once; more: tap more cards to narrow them
const SORT_KEY = "capsa.sort";
const SUIT_ORDER = "shcd";  // by suit: black, red, black, red

// ------------------------------------------------------------------ sorting the hand
function sortBy() {
  try {
    return localStorage.getItem(SORT_KEY) === "suit" ? "suit" : "rank";
  } catch {
    return "rank";
  }
}

/* The hand in the order the player chose: by rank is the server's order (each game's own
 * ranking); by suit groups the suits, each still in that order, jokers last. */
export function sortHand(cards) {
  if (sortBy() !== "suit") return cards.slice();
  const suit = (c) => { const i = SUIT_ORDER.indexOf(c[1]); return c.length === 2 && i >= 0 ? i : 9; };
  return cards.map((c, i) => [c, i]).sort((a, b) => suit(a[0]) - suit(b[0]) || a[1] - b[1])
    .map((x) => x[0]);
}

/* Wire the two sort buttons: remembered per browser; ``redraw()`` after a change. */
export function initSort(redraw) {
  const show = () => {
    const by = sortBy();
    $("sort-rank").setAttribute("aria-pressed", String(by === "rank"));
    $("sort-suit").setAttribute("aria-pressed", String(by === "suit"));
  };
  const pick = (by) => () => {
    try { localStorage.setItem(SORT_KEY, by); } catch { /* this page only */ }
    show();
    redraw();
  };
  $("sort-rank").addEventListener("click", pick("rank"));
  $("sort-suit").addEventListener("click", pick("suit"));
  show();
}

const hasCards = (m) => Boolean(m.cards && m.cards.length);

// The legal moves that hold every selected card: the exact matches first, then the
// smallest, each in the engine's order.
export function candidates(legal, selected) {
  const sel = [...selected];
  if (!sel.length) return [];
  const holding = legal.filter((m) => hasCards(m) && sel.every((c) => m.cards.includes(c)));
  const exact = holding.filter((m) => sameCards(m.cards, sel));
  const rest = holding.filter((m) => !exact.includes(m))
    .sort((a, b) => a.cards.length - b.cards.length);
  return exact.concat(rest);
}

// The move the advisor suggests, as the legal move it names (or null).
function hintedMove(v) {
  const want = S.hint && S.hint.moves && S.hint.moves[0] ? moveKey(S.hint.moves[0].move) : null;
  return want ? (v.legal_moves || []).find((m) => moveKey(m) === want) || null : null;
}

function moveButton(v, m, play, cls) {
  const b = el("button", "move " + (cls || ""));
  b.type = "button";
  b.dataset.index = String(v.legal_moves.indexOf(m));
  b.appendChild(moveEl(m));
  b.setAttribute("aria-label", moveText(m));
  b.addEventListener("click", () => play(m));
  return b;
}

/* Draw the controls (#controls), the offered moves (#pick-moves) and the fallback list
 * (#moves, inside #all-moves) for view ``v``; ``play(move)`` plays, ``clear()`` empties the
 * selection. */
export function renderPicker(v, play, clear) {
  const controls = $("controls");
  controls.textContent = "";
  const wrap = $("moves-wrap");
  const offered = $("pick-moves");
  const box = $("moves");
  offered.textContent = "";
  box.textContent = "";
  document.querySelectorAll("#my-hand .card.hinted").forEach((c) => c.classList.remove("hinted"));
  if (!v.your_turn || !v.legal_moves) { wrap.hidden = true; return; }
  wrap.hidden = false;
  const legal = v.legal_moves;
  const sel = [...S.selected];
  const cands = candidates(legal, S.selected);
  const exact = cands.filter((m) => sameCards(m.cards, sel));
  const hinted = hintedMove(v);
  const hintKey = hinted ? moveKey(hinted) : null;
  // the cards no move can use (with those tapped) are set back a little, so a forced follow
  // shows which cards it may take
  const usable = new Set();
  (sel.length ? cands : legal).forEach((m) => (m.cards || []).forEach((c) => usable.add(c)));
  document.querySelectorAll("#my-hand .card.in-hand").forEach((card) => {
    card.classList.toggle("spare", !usable.has(card.dataset.card) && !S.selected.has(card.dataset.card));
  });
  if (hinted) {
    (hinted.cards || []).forEach((c) => {
      const card = document.querySelector(`#my-hand .card[data-card="${c}"]`);
      if (card) card.classList.add("hinted");
    });
  }

  // the Play button and what the selection means
  if (legal.some(hasCards)) {
    const playSel = el("button", "primary", t("table.picker.play"));
    playSel.type = "button";
    playSel.id = "play-sel-btn";
    playSel.disabled = !(sel.length && exact.length === 1);
    playSel.title = playSel.disabled ? (sel.length ? (exact.length ? t("table.picker.several") :
      t("table.picker.not_legal")) : t("table.picker.select_first")) : moveText(exact[0]);
    playSel.addEventListener("click", () => { if (exact.length === 1) play(exact[0]); });
    controls.appendChild(playSel);
    const why = el("span", "muted sel-note");
    why.id = "sel-note";
    why.setAttribute("aria-live", "polite");
    if (!sel.length) why.textContent = t("table.picker.tap");
    else if (!exact.length) why.textContent = cands.length ? t("table.picker.add_cards") :
      t("table.picker.no_move");
    else if (exact.length > 1) why.textContent = t("table.picker.several");
    controls.appendChild(why);
    if (sel.length) {
      const clr = el("button", "secondary", t("table.picker.clear"));
      clr.type = "button";
      clr.id = "clear-sel-btn";
      clr.addEventListener("click", clear);
      controls.appendChild(clr);
    }
  }

  // the moves offered: the hinted one, those holding the selection, those without cards
  const shown = [];
  const offer = (m, cls) => {
    if (shown.includes(m)) return;
    shown.push(m);
    offered.appendChild(moveButton(v, m, play, "pick-move " + (cls || "") +
      (hintKey && moveKey(m) === hintKey ? " hinted" : "")));
  };
  if (hinted) offer(hinted);
  cands.slice(0, SHOWN_MAX).forEach((m) => offer(m, exact.includes(m) ? "exact" : ""));
  // nothing tapped yet and only a few moves with cards (a forced follow): offer them all
  const withCards = legal.filter(hasCards);
  if (!sel.length && withCards.length <= SHOWN_MAX) withCards.forEach((m) => offer(m));
  legal.filter((m) => !hasCards(m)).forEach((m) => offer(m));
  if (cands.length > SHOWN_MAX) {
    offered.appendChild(el("p", "muted more-note",
      t("table.picker.more", { n: cands.length - SHOWN_MAX })));
  }
  offered.hidden = !offered.children.length;

  // the fallback: every legal move, folded away
  $("moves-count").textContent = "(" + legal.length + ")";
  legal.forEach((m, i) => {
    const b = moveButton(v, m, play, hintKey && moveKey(m) === hintKey ? "hinted" : "");
    if (i === 0) b.dataset.first = "true";
    box.appendChild(b);
  });
}
