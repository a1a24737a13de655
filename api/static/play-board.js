/* What is on the table, for the live table and the replay alike: the board's lines and the
 * log of public events, as the server's presentation of the game gives them (message keys
 * with parameters, said here in the player's language). Names no game. */
import { t } from "./i18n.js";
import { cardsEl, el, paramText, sayLine, seatName } from "./play-ui.js";

export function cardCounts(o) {
  if (o.cards_left) return o.cards_left;
  if (o.counts) return o.counts;
  if (o.hands) return o.hands.map((h, q) => (o.set && o.set[q] ? t("play.seats.set") : 13));
  return [];
}

// One parameter of a board line: cards as card faces, a trick as each seat's cards; the
// rest as text.
function param(p, v) {
  if (p && typeof p === "object" && "cards" in p) return cardsEl(p.cards, "small");
  if (p && typeof p === "object" && "plays" in p) {
    const wrap = el("span", "trick");
    p.plays.forEach(([q, cs]) => {
      const one = el("span", "play");
      one.appendChild(el("span", "muted", seatName(v, q) + " "));
      one.appendChild(cardsEl(cs, "small"));
      wrap.appendChild(one);
    });
    return wrap;
  }
  return paramText(v, p);
}

/** A message from the server as text (cards as symbols: 4♣ 4♥). */
export function sayText(m, v) {
  return sayLine(v, m);
}

/** A message from the server as a node (cards as card faces). */
export function sayEl(m, v) {
  const span = el("span");
  const text = t(m.key);
  let at = 0;
  for (const found of text.matchAll(/\{(\w+)\}/g)) {
    if (found.index > at) span.appendChild(document.createTextNode(text.slice(at, found.index)));
    const p = m.params ? m.params[found[1]] : undefined;
    const part = p === undefined ? found[0] : param(p, v);
    span.appendChild(typeof part === "string" ? document.createTextNode(part) : part);
    at = found.index + found[0].length;
  }
  if (at < text.length) span.appendChild(document.createTextNode(text.slice(at)));
  return span;
}

// A board: what is public (and mine), for the live table and the replay alike.
export function renderBoard(lines, v) {
  const wrap = el("div", "board-inner");
  (lines || []).forEach((m) => {
    const p = el("p", "board-line");
    p.appendChild(el("span", "label", t("play.board.label", { label: t(m.label) })));
    p.appendChild(sayEl(m, v));
    wrap.appendChild(p);
  });
  return wrap;
}

// Public events of the hand, in order (the log and "the bots' moves in turn").
export function events(v) {
  return (v.log_lines || []).map((m) => ({ player: m.player, text: sayText(m, v), move: m.params.move &&
    m.params.move.move }));
}
