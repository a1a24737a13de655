/* Shared pieces of the play page: its state, card faces, move labels, messages and the
 * call to the session API. An ES module (no build step). */

export const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
export const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
export const RANK_NAME = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine",
  8: "Eight", 7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" };
export const ROWS = [["front", 3], ["middle", 5], ["back", 5]];
export const TOKEN_KEY = "capsa-play-token";
export const MODE_KEY = "capsa-play-mode";  // "drill" when the saved token is a drill's

export const $ = (id) => document.getElementById(id);
export const S = {
  games: {}, token: null, view: null, selected: new Set(),
  rows: { front: [], middle: [], back: [] }, target: "front", check: null, checkSeq: 0,
  hint: null, replay: null, frame: 0, busy: false, seenHistory: 0, drill: null,
};

// ------------------------------------------------------------------ helpers
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
export function words(label) { return String(label || "").replace(/_/g, " "); }
export function signed(x) {
  const v = Math.round(Number(x) * 1000) / 1000;
  return (v > 0 ? "+" : "") + v;
}
export function describe(card) {
  if (card === "BJ") return "Big joker";
  if (card === "SJ") return "Small joker";
  return (RANK_NAME[card[0]] || card[0]) + " of " + (SUIT_NAME[card[1]] || card[1]);
}
export function cardFace(card, tag) {
  const e = el(tag || "span", "card");
  e.dataset.card = card;
  if (card === "BJ" || card === "SJ") {
    e.classList.add(card === "BJ" ? "red" : "black", "joker");
    e.appendChild(el("span", "rank", card === "BJ" ? "BJ" : "SJ"));
    e.appendChild(el("span", "suit", "\u2605"));
  } else {
    e.classList.add(card[1] === "h" || card[1] === "d" ? "red" : "black");
    e.appendChild(el("span", "rank", card[0] === "T" ? "10" : card[0]));
    const s = el("span", "suit", SUIT_SYMBOL[card[1]] || "?");
    s.setAttribute("aria-hidden", "true");
    e.appendChild(s);
  }
  e.setAttribute(tag === "button" ? "aria-label" : "title", describe(card));
  if (tag !== "button") e.setAttribute("role", "img"), e.setAttribute("aria-label", describe(card));
  return e;
}
export function cardsEl(cards, cls) {
  const wrap = el("span", "cards " + (cls || ""));
  (cards || []).forEach((c) => wrap.appendChild(cardFace(c)));
  if (!cards || !cards.length) wrap.appendChild(el("span", "muted", "none"));
  return wrap;
}
export function moveText(m) {
  if (!m) return "a hidden move";
  const kind = words(m.kind);
  const parts = [kind.charAt(0).toUpperCase() + kind.slice(1)];
  if (m.amount !== undefined && m.amount !== null) parts.push(String(m.amount));
  if (m.front) parts.push(m.front.join(" ") + " | " + m.middle.join(" ") + " | " + m.back.join(" "));
  else if (m.cards && m.cards.length) parts.push(m.cards.join(" "));
  if (m.natural) parts.push("(" + words(m.natural) + ")");
  return parts.join(" ");
}
export function moveEl(m) {
  const wrap = el("span", "move-desc");
  const kind = words(m.kind);
  wrap.appendChild(el("span", "kind", kind.charAt(0).toUpperCase() + kind.slice(1) +
    (m.amount !== undefined && m.amount !== null ? " " + m.amount : "")));
  if (m.cards && m.cards.length && !m.front) wrap.appendChild(cardsEl(m.cards, "small"));
  return wrap;
}
export function seatName(view, p) {
  if (p === null || p === undefined) return "";
  if (p === view.seat) return "You";
  const s = view.seats && view.seats[p];
  return "Seat " + p + (s ? " (" + s.player + ")" : "");
}
// A text from the server with seats written {seat:N}: each named as the page names seats.
export function seatText(view, text) {
  return String(text || "").replace(/\{seat:(\d+)\}/g, (_, p) => seatName(view, Number(p)));
}
// One spelling of a move whatever the order of its fields or cards (the advisor's moves
// are matched against the legal moves with it).
export function moveKey(m) {
  const keys = Object.keys(m || {}).filter((k) => k !== "cards").sort();
  return JSON.stringify([[...((m && m.cards) || [])].sort(), keys.map((k) => [k, m[k]])]);
}
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

// ------------------------------------------------------------------ errors and API
export function showError(msg) {
  const box = $("error");
  box.textContent = msg;
  box.hidden = false;
}
export function clearError() { $("error").hidden = true; $("error").textContent = ""; }
export function notice(msg) {
  const n = $("notice");
  n.textContent = msg || "";
  n.hidden = !msg;
}

export async function api(path, body, method) {
  let r;
  try {
    r = await fetch(path, {
      method: method || "POST",
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new Error("The server did not answer (" + e.message + "). Is it running? " +
      "Your session is kept on the server; try again when it is back.");
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const msg = data && data.error && data.error.message;
    const err = new Error(msg || ("The server answered " + r.status + " " + r.statusText));
    err.status = r.status;
    err.code = data && data.error && data.error.code;
    err.data = data;
    throw err;
  }
  return data;
}

// Set by play.js, for the modules that act on the table (play a move, run a request with the
// error handling of the page, show an advice).
export const hooks = { play: null, run: null, showHint: null };
