/* What is on the table, for the live table and the replay alike: the public state of each
 * game and its log of public events. Reads an observation only. */
import { SUIT_NAME, SUIT_SYMBOL, cardsEl, el, moveText, seatName, words } from "./play-ui.js";

export function cardCounts(o) {
  if (o.cards_left) return o.cards_left;
  if (o.counts) return o.counts;
  if (o.hands) return o.hands.map((h, q) => (o.set && o.set[q] ? "set" : 13));
  return [];
}

// A board: what is public (and mine), for the live table and the replay alike.
export function renderBoard(o, v) {
  const wrap = el("div", "board-inner");
  const line = (label, content) => {
    const p = el("p", "board-line");
    p.appendChild(el("span", "label", label + ": "));
    if (typeof content === "string") p.appendChild(el("span", null, content));
    else p.appendChild(content);
    wrap.appendChild(p);
    return p;
  };
  if (o.game === "big-two") {
    if (o.table && o.table.cards && o.table.cards.length && o.phase !== "over") {
      const c = el("span");
      c.appendChild(cardsEl(o.table.cards));
      c.appendChild(el("span", "muted", " " + words(o.table.kind) + " by " +
        seatName(v, o.last_player)));
      line("To beat", c);
    } else if (o.phase !== "over") {
      line("To beat", "nothing: " + seatName(v, o.current_player) + " lead" +
        (o.current_player === v.seat ? "" : "s") + " any combination");
    }
    if (o.required) line("The first play must hold", cardsEl([o.required]));
    line("Passes in a row", String(o.passes || 0));
  } else if (o.game === "da-san") {
    if (o.phase === "auction") {
      line("Auction", o.bidder === null || o.bidder === undefined ? "no bid yet" :
        "high bid " + o.high_bid + " by " + seatName(v, o.bidder));
    } else {
      line("Bid", o.high_bid + " by " + seatName(v, o.bidder));
    }
    line("Kitty (" + o.kitty_size + " cards)", o.kitty ? cardsEl(o.kitty) :
      "face down until the auction ends");
    if (o.pile && o.pile.move) {
      const c = el("span");
      c.appendChild(cardsEl(o.pile.move.cards));
      c.appendChild(el("span", "muted", " " + words(o.pile.move.kind) + " by " +
        seatName(v, o.pile.player)));
      line("To beat", c);
    } else if (o.phase === "play") {
      line("To beat", "nothing: a new lead");
    }
  } else if (o.game === "da-bai-fen") {
    const trump = o.trump_suit ? (o.trump_rank === "T" ? "10" : o.trump_rank) +
      SUIT_SYMBOL[o.trump_suit] + " (" + SUIT_NAME[o.trump_suit] + ")" :
      (o.trump_rank === "T" ? "10" : o.trump_rank) + ", suit not fixed yet";
    line("Trump", trump);
    line("Levels", "team A (seats 0, 2): " + (o.levels[0] || "past A") + " · team B (seats 1, 3): " +
      (o.levels[1] || "past A") + (o.declarers !== null && o.declarers !== undefined ?
        " · declarers: team " + (o.declarers ? "B" : "A") : ""));
    if (o.phase === "draw") line("Drawing", o.drawn + " of 48 cards drawn");
    if (o.shown) line("Shown", (() => {
      const c = el("span");
      c.appendChild(cardsEl([o.shown.card]));
      c.appendChild(el("span", "muted", " by " + seatName(v, o.shown.player)));
      return c;
    })());
    if (o.revealed && o.revealed.length) line("Kitty cards turned", cardsEl(o.revealed));
    if (o.kitty) line("Kitty (you lead)", cardsEl(o.kitty));
    if (o.phase === "bury") line("Buried", o.buried ? cardsEl(o.buried) : o.buried_count + " of 6");
    else if (o.buried) line("Buried", cardsEl(o.buried));
    if (o.phase === "play" || o.phase === "over") {
      line("Points", "team A " + o.team_points[0] + " · team B " + o.team_points[1] +
        " · tricks played " + o.tricks.length);
    }
    if (o.phase === "play") {
      const t = el("span", "trick");
      if (!o.trick.length) t.appendChild(el("span", "muted",
        seatName(v, o.trick_leader) + " lead" + (o.trick_leader === v.seat ? "" : "s")));
      o.trick.forEach((play, i) => {
        const one = el("span", "play");
        one.appendChild(el("span", "muted", seatName(v, (o.trick_leader + i) % 4) + " "));
        one.appendChild(cardsEl(play, "small"));
        t.appendChild(one);
      });
      line("This trick", t);
    }
  } else if (o.game === "capsa") {
    const set = o.set.map((x, q) => (x ? seatName(v, q) : null)).filter(Boolean);
    line("Rows set", set.length ? set.join(", ") : "nobody yet");
    line("Opponents", String(o.num_players - 1));
  } else {
    Object.keys(o).forEach((k) => {
      if (["game", "player", "rules", "hand", "history"].includes(k)) return;
      line(words(k), JSON.stringify(o[k]));
    });
  }
  return wrap;
}

// Public events of the hand, in order (the log and "the bots' moves in turn").
export function events(o, v) {
  const out = [];
  if (o.history) {
    o.history.forEach((h) => out.push({ player: h.player, text: moveText(h.move), move: h.move }));
  } else if (o.game === "da-bai-fen") {
    if (o.shown) out.push({ player: o.shown.player, text: "Showed " + o.shown.card });
    (o.tricks || []).forEach((t, k) => {
      t.plays.forEach((play, i) => out.push({ player: (t.leader + i) % 4,
        text: "Trick " + (k + 1) + ": " + play.join(" ") +
          (i === 3 ? " — won by " + seatName(v, t.winner) + ", " + t.points + " points" : "") }));
    });
    (o.trick || []).forEach((play, i) => out.push({ player: (o.trick_leader + i) % 4,
      text: "Trick " + ((o.tricks || []).length + 1) + ": " + play.join(" ") }));
  } else if (o.game === "capsa") {
    (o.moves || []).forEach((m, q) => {
      if (m) out.push({ player: q, text: moveText(m) });
      else if (o.set[q]) out.push({ player: q, text: "set the rows (face down)" });
    });
  }
  return out;
}
