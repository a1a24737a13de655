/* Shared pieces of the play page: its state, card faces, move labels, messages and the
 * call to the session API. An ES module (no build step). Every word through i18n.js. */
import { has, lang, t } from "./i18n.js";

export const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
// the names of suits and ranks in the page's language ("spades", "sekop", "bích")
export const SUIT_NAME = Object.fromEntries(["s", "h", "d", "c"].map((x) => [x, t("suit." + x)]));
export const RANK_NAME = Object.fromEntries(["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4",
  "3", "2"].map((r) => [r, t("rank." + r)]));
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
// A kind of move or hand ("full_house") in the page's language.
export function kindName(kind) {
  return has("kind." + kind) ? t("kind." + kind) : words(kind);
}
function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
// Cards as text with suit symbols, as players write them: "4♣ 4♥ 10♠".
export function cardText(card) {
  if (card === "BJ" || card === "SJ") return t(card === "BJ" ? "card.big_joker" : "card.small_joker");
  return (card[0] === "T" ? "10" : card[0]) + (SUIT_SYMBOL[card[1]] || card.slice(1));
}
export function cardsText(cards) { return (cards || []).map(cardText).join(" "); }
export function signed(x) {
  const v = Math.round(Number(x) * 1000) / 1000;
  return (v > 0 ? "+" : "") + v;
}
export function describe(card) {
  if (card === "BJ") return t("card.big_joker");
  if (card === "SJ") return t("card.small_joker");
  return t("card.name", { rank: RANK_NAME[card[0]] || card[0], suit: SUIT_NAME[card[1]] || card[1] });
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
  if (!cards || !cards.length) wrap.appendChild(el("span", "muted", t("play.none")));
  return wrap;
}
export function moveText(m) {
  if (!m) return t("play.move.hidden");
  const parts = [capital(kindName(m.kind))];
  if (m.amount !== undefined && m.amount !== null) parts.push(String(m.amount));
  if (m.front) parts.push([m.front, m.middle, m.back].map(cardsText).join(" | "));
  else if (m.cards && m.cards.length) parts.push(cardsText(m.cards));
  if (m.natural) parts.push("(" + kindName(m.natural) + ")");
  return parts.join(" ");
}
export function moveEl(m) {
  const wrap = el("span", "move-desc");
  wrap.appendChild(el("span", "kind", capital(kindName(m.kind)) +
    (m.amount !== undefined && m.amount !== null ? " " + m.amount : "")));
  if (m.cards && m.cards.length && !m.front) wrap.appendChild(cardsEl(m.cards, "small"));
  return wrap;
}
export function seatName(view, p) {
  if (p === null || p === undefined) return "";
  if (p === view.seat) return t("play.you");
  const s = view.seats && view.seats[p];
  return s ? t("play.seat_of", { n: p, player: botName(s.player, s.level) }) : t("play.seat", { n: p });
}
// A game's name as the players of the page's language call it (Mậu Binh, Capsa Banting).
export function gameTitle(name, english) {
  return has("game." + name) ? t("game." + name) : english;
}
// A rule option's name, its help and its choices, where the catalog has them.
export function optionName(game, name) {
  return has(`option.${game}.${name}`) ? t(`option.${game}.${name}`) : words(name);
}
export function optionHelp(game, o) {
  return has(`option.${game}.${o.name}.help`) ? t(`option.${game}.${o.name}.help`) : o.help;
}
export function choiceName(game, name, choice) {
  const key = `option.${game}.${name}.${choice}`;
  return has(key) ? t(key) : String(choice);
}
// A phase of a hand (auction, play...).
export function phaseName(phase) {
  return has("phase." + phase) ? t("phase." + phase) : words(phase);
}
// A bot's name as players say it: its level (Easy, Hard...) where the server gives one,
// else its engine's name (translated where the catalog has it).
export function botName(name, level) {
  if (level && has("table.level." + level)) return t("table.level." + level);
  return has("bot." + name) ? t("bot." + name) : name;
}
// A message from the server (key and parameters) as text, where the server sent one; else
// its English text with seats written {seat:N}.
export function serverText(view, m, english) {
  return m && m.key ? sayLine(view, m) : seatText(view, english);
}
// One parameter of a server message as text: a seat, seats, cards (as symbols), a term
// (another message: a hand kind, a suit, a team), a move, a number or a string.
export function paramText(view, p) {
  if (p === null || p === undefined) return "";
  if (typeof p !== "object") return String(p);
  if ("seat" in p) return seatName(view, p.seat);
  if ("seats" in p) return p.seats.map((q) => seatName(view, q)).join(", ");
  if ("seat_counts" in p) return p.seat_counts.map(([q, n]) => seatName(view, q) + " " + n).join(", ");
  if ("cards" in p) return cardsText(p.cards);
  if ("term" in p) return t(p.term);
  if ("move" in p) return moveText(p.move);
  if ("plays" in p) return p.plays.map(([q, cs]) => seatName(view, q) + " " + cardsText(cs)).join(" · ");
  return JSON.stringify(p);
}
// A server message ({key, params}) as text in the page's language.
export function sayLine(view, m) {
  return t(m.key).replace(/\{(\w+)\}/g, (whole, name) =>
    m.params && name in m.params ? paramText(view, m.params[name]) : whole);
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

// An error answer of the API in the page's language: its code's message where the catalog
// has one (with the fields it names), else the API's own message; in English the API's own,
// which says the most.
export function errorText(error) {
  if (!error) return null;
  if (lang() === "en" || !error.code || !has("error." + error.code)) return error.message;
  const fields = [...new Set((error.problems || []).map((p) => (p.loc || []).join(".")).filter(Boolean))];
  return t("error." + error.code) + (fields.length ? " (" + fields.join(", ") + ")" : "");
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
    throw new Error(t("error.no_answer", { detail: e.message }));
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const msg = errorText(data && data.error);
    const err = new Error(msg || t("error.status", { status: r.status }));
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
