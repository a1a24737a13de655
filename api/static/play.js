/* Play page: one human seat against the bots, through the session API (/v1/sessions).
 * Plain JS, no build step. Every move offered comes from the engine's legal moves; the page
 * never decides what is legal. */
(function () {
  "use strict";

  const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const RANK_NAME = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine",
    8: "Eight", 7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" };
  const ROWS = [["front", 3], ["middle", 5], ["back", 5]];
  const TOKEN_KEY = "capsa-play-token";

  const $ = (id) => document.getElementById(id);
  const S = {
    games: {}, token: null, view: null, selected: new Set(),
    rows: { front: [], middle: [], back: [] }, target: "front", check: null, checkSeq: 0,
    hint: null, replay: null, frame: 0, busy: false, seenHistory: 0,
  };

  // ------------------------------------------------------------------ helpers
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function words(label) { return String(label || "").replace(/_/g, " "); }
  function signed(x) {
    const v = Math.round(Number(x) * 1000) / 1000;
    return (v > 0 ? "+" : "") + v;
  }
  function describe(card) {
    if (card === "BJ") return "Big joker";
    if (card === "SJ") return "Small joker";
    return (RANK_NAME[card[0]] || card[0]) + " of " + (SUIT_NAME[card[1]] || card[1]);
  }
  function cardFace(card, tag) {
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
  function cardsEl(cards, cls) {
    const wrap = el("span", "cards " + (cls || ""));
    (cards || []).forEach((c) => wrap.appendChild(cardFace(c)));
    if (!cards || !cards.length) wrap.appendChild(el("span", "muted", "none"));
    return wrap;
  }
  function moveText(m) {
    if (!m) return "a hidden move";
    const kind = words(m.kind);
    const parts = [kind.charAt(0).toUpperCase() + kind.slice(1)];
    if (m.amount !== undefined && m.amount !== null) parts.push(String(m.amount));
    if (m.front) parts.push(m.front.join(" ") + " | " + m.middle.join(" ") + " | " + m.back.join(" "));
    else if (m.cards && m.cards.length) parts.push(m.cards.join(" "));
    if (m.natural) parts.push("(" + words(m.natural) + ")");
    return parts.join(" ");
  }
  function moveEl(m) {
    const wrap = el("span", "move-desc");
    const kind = words(m.kind);
    wrap.appendChild(el("span", "kind", kind.charAt(0).toUpperCase() + kind.slice(1) +
      (m.amount !== undefined && m.amount !== null ? " " + m.amount : "")));
    if (m.cards && m.cards.length && !m.front) wrap.appendChild(cardsEl(m.cards, "small"));
    return wrap;
  }
  function seatName(view, p) {
    if (p === null || p === undefined) return "";
    if (p === view.seat) return "You";
    const s = view.seats && view.seats[p];
    return "Seat " + p + (s ? " (" + s.player + ")" : "");
  }
  // One spelling of a move whatever the order of its fields or cards (the advisor's moves
  // are matched against the legal moves with it).
  function moveKey(m) {
    const keys = Object.keys(m || {}).filter((k) => k !== "cards").sort();
    return JSON.stringify([[...((m && m.cards) || [])].sort(), keys.map((k) => [k, m[k]])]);
  }
  function sameCards(a, b) {
    if (a.length !== b.length) return false;
    const x = [...a].sort(), y = [...b].sort();
    return x.every((c, i) => c === y[i]);
  }

  // ------------------------------------------------------------------ errors and API
  function showError(msg) {
    const box = $("error");
    box.textContent = msg;
    box.hidden = false;
  }
  function clearError() { $("error").hidden = true; $("error").textContent = ""; }
  function notice(msg) {
    const n = $("notice");
    n.textContent = msg || "";
    n.hidden = !msg;
  }

  async function api(path, body, method) {
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
      throw err;
    }
    return data;
  }

  async function run(fn) {
    if (S.busy) return;
    S.busy = true;
    document.body.setAttribute("aria-busy", "true");
    try {
      clearError();
      await fn();
    } catch (e) {
      if (e.status === 404 && e.code === "not_found" && /token/.test(e.message)) {
        forget();
        showError(e.message + " Start a new session.");
      } else {
        showError(e.message);
      }
    } finally {
      S.busy = false;
      document.body.removeAttribute("aria-busy");
    }
  }

  // ------------------------------------------------------------------ setup
  function fillSelect(sel, values, labels, chosen) {
    sel.textContent = "";
    values.forEach((v, i) => {
      const o = el("option", null, labels ? labels[i] : String(v));
      o.value = String(v);
      if (String(v) === String(chosen)) o.selected = true;
      sel.appendChild(o);
    });
  }

  function onGameChange() {
    const g = S.games[$("game").value];
    if (!g) return;
    const playersOpt = g.options.find((o) => o.name === "players");
    const lo = g.players[0], hi = g.players[1];
    const counts = [];
    for (let n = lo; n <= hi; n++) counts.push(n);
    fillSelect($("players"), counts, counts.map((n) => n + " (" + (n - 1) + " bot" +
      (n > 2 ? "s" : "") + ")"), playersOpt ? playersOpt.default : hi);
    $("players-field").hidden = counts.length < 2;
    fillSelect($("bots"), g.bots, null, g.bots[0]);
    onPlayersChange();
    const box = $("options-fields");
    box.textContent = "";
    g.options.filter((o) => o.name !== "players").forEach((o) => {
      const f = el("div", "field");
      const id = "opt-" + o.name;
      const lab = el("label", null, words(o.name));
      lab.htmlFor = id;
      let input;
      if (o.choices) {
        input = el("select");
        fillSelect(input, o.choices, null, o.default);
      } else if (typeof o.default === "boolean") {
        input = el("input");
        input.type = "checkbox";
        input.checked = o.default;
        f.classList.add("check");
      } else {
        input = el("input");
        input.type = "number";
        if (o.minimum !== null) input.min = o.minimum;
        if (o.maximum !== null) input.max = o.maximum;
        input.value = o.default;
      }
      input.id = id;
      input.dataset.option = o.name;
      input.title = o.help;
      f.appendChild(lab);
      f.appendChild(input);
      f.appendChild(el("p", "hint", o.help));
      box.appendChild(f);
    });
    $("options").hidden = !box.children.length;
  }

  function onPlayersChange() {
    const n = Number($("players").value) || S.games[$("game").value].players[1];
    const seats = [];
    for (let p = 0; p < n; p++) seats.push(p);
    const seat = Math.min(Number($("seat").value) || 0, n - 1);
    fillSelect($("seat"), seats, seats.map((p) => "Seat " + p), seat);
    renderSeatBots();
  }

  // One bot choice per other seat (the "Bots play" choice sets them all).
  function renderSeatBots() {
    const g = S.games[$("game").value];
    const n = Number($("players").value) || g.players[1];
    const me = Number($("seat").value) || 0;
    const box = $("seat-bots-fields");
    box.textContent = "";
    for (let p = 0; p < n; p++) {
      if (p === me) continue;
      const f = el("div", "field");
      const lab = el("label", null, "Seat " + p);
      const sel = el("select");
      sel.id = "bot-seat-" + p;
      sel.dataset.seat = String(p);
      lab.htmlFor = sel.id;
      fillSelect(sel, g.bots, null, $("bots").value);
      f.appendChild(lab);
      f.appendChild(sel);
      box.appendChild(f);
    }
  }

  function setupBody() {
    const g = S.games[$("game").value];
    const bots = [...document.querySelectorAll("#seat-bots-fields select")].map((x) => x.value);
    const body = { game: g.name, bots: bots.length ? bots : $("bots").value,
      seat: Number($("seat").value) };
    const rules = {};
    if (g.options.some((o) => o.name === "players")) rules.players = Number($("players").value);
    document.querySelectorAll("#options-fields [data-option]").forEach((input) => {
      const opt = g.options.find((o) => o.name === input.dataset.option);
      if (input.type === "checkbox") rules[opt.name] = input.checked;
      else if (input.type === "number") {
        const v = Number(input.value);
        if (input.value.trim() === "" || !Number.isInteger(v)) {
          throw new Error(words(opt.name) + " must be a whole number" +
            (opt.minimum !== null ? " from " + opt.minimum + " to " + opt.maximum : "") +
            ", got " + JSON.stringify(input.value));
        }
        rules[opt.name] = v;
      } else rules[opt.name] = input.value;
    });
    if (Object.keys(rules).length) body.rules = rules;
    const seed = $("seed").value.trim();
    if (seed) {
      if (!/^\d{1,18}$/.test(seed)) {
        throw new Error("The seed must be a whole number of up to 18 digits, got " +
          JSON.stringify(seed));
      }
      body.seed = Number(seed);
    }
    return body;
  }

  async function start(ev) {
    ev.preventDefault();
    await run(async () => {
      const v = await api("/v1/sessions", setupBody());
      adopt(v);
    });
  }

  async function importHand() {
    await run(async () => {
      let doc;
      try {
        doc = JSON.parse($("import-text").value);
      } catch (e) {
        throw new Error("The imported text is not valid JSON: " + e.message);
      }
      if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
        throw new Error("An imported hand is a JSON object (as Export gives it).");
      }
      const v = await api("/v1/sessions/import", { hand: doc });
      adopt(v);
      notice("Imported a hand of " + v.title + ".");
    });
  }

  function adopt(v) {
    S.token = v.token;
    try { localStorage.setItem(TOKEN_KEY, v.token); } catch (e) { /* private mode */ }
    closeReplay();
    $("export-box").hidden = true;
    show(v);
    refreshHistory();
  }

  function forget() {
    S.token = null;
    S.view = null;
    try { localStorage.removeItem(TOKEN_KEY); } catch (e) { /* ignore */ }
    $("table").hidden = true;
    $("history").hidden = true;
    closeReplay();
    $("setup").hidden = false;
  }

  // ------------------------------------------------------------------ the table
  function show(v) {
    const prev = S.view;
    const newHand = !prev || prev.hand !== v.hand || prev.game !== v.game;
    S.view = v;
    if (newHand) {
      S.rows = { front: [], middle: [], back: [] };
      S.target = "front";
      S.check = null;
    }
    S.selected.clear();
    S.hint = null;
    $("hint-box").hidden = true;
    $("setup").hidden = true;
    $("table").hidden = false;
    $("history").hidden = false;
    $("table-heading").textContent = v.title + " · hand " + v.hand +
      (v.replay_of ? " (deal of hand " + v.replay_of + " again)" : "");
    $("hint-btn").hidden = !(v.advisor && v.your_turn);
    const fresh = renderLog(v, newHand);
    renderStatus(v, fresh);
    renderSeats(v);
    const board = $("board");
    board.textContent = "";
    board.appendChild(renderBoard(v.observation, v));
    renderMine(v);
    renderResult(v);
  }

  function renderStatus(v, fresh) {
    const o = v.observation;
    let text;
    if (v.terminal) text = "The hand is over. " + resultLine(v);
    else if (v.your_turn) text = "Your turn" + (o.phase ? " (" + words(o.phase) + ")" : "") + ".";
    else text = "Waiting for " + seatName(v, v.current_player) + ".";
    $("status").textContent = text;
    const since = $("since");
    // The bots' moves since mine, in the order they were made (screen readers hear them too).
    const shown = (fresh || []).slice(-8);
    since.textContent = shown.length ? (fresh.length > shown.length ? "… " : "") +
      shown.map((e) => seatName(v, e.player) + ": " + e.text).join(" · ") : "";
    since.hidden = !shown.length;
  }

  function resultLine(v) {
    const r = v.returns || [];
    const mine = r[v.seat];
    return "You " + (mine > 0 ? "won " : mine < 0 ? "lost " : "scored ") +
      (mine === 0 ? "0" : Math.abs(mine)) + " point" + (Math.abs(mine) === 1 ? "" : "s") + ".";
  }

  function cardCounts(o) {
    if (o.cards_left) return o.cards_left;
    if (o.counts) return o.counts;
    if (o.hands) return o.hands.map((h, q) => (o.set && o.set[q] ? "set" : 13));
    return [];
  }

  function renderSeats(v) {
    const body = document.querySelector("#seats tbody");
    body.textContent = "";
    const counts = cardCounts(v.observation);
    const o = v.observation;
    v.seats.forEach((s, p) => {
      const tr = el("tr");
      if (!v.terminal && (v.to_act || []).includes(p) && (o.game !== "capsa" || !o.set[p])) {
        tr.classList.add("to-act");
      }
      if (p === v.seat) tr.classList.add("me");
      const roles = [];
      if (o.dealer === p) roles.push("dealer");
      if (o.game === "da-san" && o.bidder === p) roles.push("bidder " + o.high_bid);
      if (o.game === "da-bai-fen" && o.leader === p) roles.push("leader");
      if (o.game === "da-bai-fen") roles.push("team " + (p % 2 ? "B" : "A"));
      const th = el("th", null, "Seat " + p);
      th.scope = "row";
      tr.appendChild(th);
      const who = el("td", null, p === v.seat ? "You" : s.player + " bot");
      if (roles.length) who.appendChild(el("span", "roles", " · " + roles.join(", ")));
      if (tr.classList.contains("to-act")) who.appendChild(el("span", "turn", " ◀ to play"));
      tr.appendChild(who);
      tr.appendChild(el("td", "num", counts[p] === undefined ? "" : String(counts[p])));
      tr.appendChild(el("td", "num", signed(v.score[p])));
      body.appendChild(tr);
    });
  }

  // A board: what is public (and mine), for the live table and the replay alike.
  function renderBoard(o, v) {
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
  function events(o, v) {
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

  function renderLog(v, newHand) {
    const list = $("log");
    list.textContent = "";
    const evs = events(v.observation, v);
    if (newHand) S.seenHistory = 0;
    evs.forEach((e, i) => {
      const li = el("li", e.player === v.seat ? "mine" : "");
      if (i >= S.seenHistory && e.player !== v.seat) li.classList.add("fresh");
      li.appendChild(el("strong", null, seatName(v, e.player) + ": "));
      li.appendChild(el("span", null, e.text));
      list.appendChild(li);
    });
    const fresh = evs.slice(S.seenHistory).filter((e) => e.player !== v.seat);
    S.seenHistory = evs.length;
    $("log-box").hidden = !evs.length;
    list.scrollTop = list.scrollHeight;
    return fresh;
  }

  // ------------------------------------------------------------------ my hand and moves
  function myCards(v) {
    const o = v.observation;
    if (o.game === "capsa") return o.hands[v.seat] || [];
    return o.hand || [];
  }

  function renderMine(v) {
    const capsa = v.presentation === "capsa_rows";
    $("capsa-rows").hidden = !capsa || !v.your_turn;
    $("mine-heading").textContent = capsa && v.your_turn ? "Your 13 cards: set the rows" : "Your hand";
    $("my-hand").classList.remove("pool");
    if (capsa) return renderCapsaMine(v);
    const hand = $("my-hand");
    hand.textContent = "";
    const playable = v.your_turn && v.legal_moves && v.legal_moves.some((m) => m.cards && m.cards.length);
    myCards(v).forEach((c) => {
      const b = cardFace(c, playable ? "button" : "span");
      b.classList.add("in-hand");
      if (playable) {
        b.type = "button";
        b.setAttribute("aria-pressed", "false");
        b.addEventListener("click", () => toggleSelect(c));
      }
      hand.appendChild(b);
    });
    if (!myCards(v).length) hand.appendChild(el("span", "muted", "no cards left"));
    renderMoves(v);
  }

  function toggleSelect(c) {
    if (S.selected.has(c)) S.selected.delete(c); else S.selected.add(c);
    document.querySelectorAll("#my-hand .in-hand").forEach((b) => {
      const on = S.selected.has(b.dataset.card);
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    renderMoves(S.view);
  }

  function matchingMoves(v) {
    const sel = [...S.selected];
    return (v.legal_moves || []).filter((m) => sel.every((c) => (m.cards || []).includes(c)));
  }

  function renderMoves(v) {
    const controls = $("controls");
    controls.textContent = "";
    const wrap = $("moves-wrap");
    const box = $("moves");
    box.textContent = "";
    if (!v.your_turn || !v.legal_moves) { wrap.hidden = true; return; }
    wrap.hidden = false;
    const moves = matchingMoves(v);
    $("moves-count").textContent = "(" + moves.length + (S.selected.size ? " with your selection, " +
      v.legal_moves.length + " in all" : "") + ")";
    const exact = moves.filter((m) => sameCards(m.cards || [], [...S.selected]));
    const playSel = el("button", "primary", "Play the selection");
    playSel.type = "button";
    playSel.id = "play-sel-btn";
    playSel.disabled = !(S.selected.size && exact.length === 1);
    playSel.title = playSel.disabled ? (S.selected.size ? (exact.length ? "more than one move uses these cards: pick one below" :
      "these cards are not a legal move") : "select cards first") : moveText(exact[0]);
    playSel.addEventListener("click", () => { if (exact.length === 1) play(exact[0]); });
    if (v.legal_moves.some((m) => m.cards && m.cards.length)) {
      controls.appendChild(playSel);
      const why = el("span", "muted sel-note");
      why.id = "sel-note";
      if (S.selected.size && !exact.length) why.textContent = " Not a legal move yet: " +
        (moves.length ? "add cards, or pick a move below." : "no legal move holds these cards.");
      controls.appendChild(why);
      if (S.selected.size) {
        const clr = el("button", "secondary", "Clear the selection");
        clr.type = "button";
        clr.addEventListener("click", () => { S.selected.clear(); renderMine(S.view); });
        controls.appendChild(clr);
      }
    }
    const hintKey = S.hint && S.hint.moves && S.hint.moves[0] ? moveKey(S.hint.moves[0].move) : null;
    moves.forEach((m, i) => {
      const b = el("button", "move");
      b.type = "button";
      b.dataset.index = String(v.legal_moves.indexOf(m));
      b.appendChild(moveEl(m));
      b.setAttribute("aria-label", moveText(m));
      if (hintKey && moveKey(m) === hintKey) b.classList.add("hinted");
      b.addEventListener("click", () => play(m));
      box.appendChild(b);
      if (i === 0) b.dataset.first = "true";
    });
    if (!moves.length) box.appendChild(el("p", "muted", "No legal move holds the selected cards."));
  }

  async function play(move) {
    await run(async () => {
      const v = await api("/v1/sessions/move", { token: S.token, move: move });
      show(v);
      if (v.terminal) refreshHistory();
      focusTurn(v);
    });
  }

  // After a move the buttons are new: give the keyboard a place to go on from.
  function focusTurn(v) {
    const next = v.terminal ? $("next-btn") :
      document.querySelector("#my-hand button.card") || document.querySelector("#moves button.move");
    if (next) next.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------ Capsa rows
  // Re-rendering the rows replaces the card buttons: keep the keyboard focus in place (on
  // the same card while it stays in the hand, else on the card now at its place there).
  function renderCapsaMine(v) {
    const a = document.activeElement;
    const had = a && a.classList && a.classList.contains("in-hand") ? a.dataset.card : null;
    const pool = had ? [...$("my-hand").querySelectorAll("button.card")].map((b) => b.dataset.card) : [];
    drawCapsaMine(v);
    if (!had) return;
    const buttons = [...$("my-hand").querySelectorAll("button.card")];
    const same = buttons.find((b) => b.dataset.card === had);
    const wasPool = pool.includes(had);
    const target = (wasPool && same) || (wasPool && buttons[Math.min(pool.indexOf(had), buttons.length - 1)]) ||
      document.querySelector('#capsa-rows button.card[data-card="' + had + '"]') || same;
    if (target) target.focus();
  }

  function drawCapsaMine(v) {
    const hand = $("my-hand");
    hand.textContent = "";
    $("moves-wrap").hidden = true;
    const controls = $("controls");
    controls.textContent = "";
    const all = myCards(v);
    hand.classList.toggle("pool", v.your_turn);
    if (!v.your_turn) {
      all.forEach((c) => hand.appendChild(cardFace(c)));
      return;
    }
    const placed = new Set([].concat(S.rows.front, S.rows.middle, S.rows.back));
    hand.dataset.row = "pool";
    all.filter((c) => !placed.has(c)).forEach((c) => hand.appendChild(capsaCard(c, "pool")));
    if (placed.size === 13) hand.appendChild(el("span", "muted", "every card is in a row"));
    const rowsBox = $("capsa-rows");
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
      head.addEventListener("click", () => { S.target = name; renderCapsaMine(S.view); });
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
    const submit = el("button", "primary", "Set my rows");
    submit.type = "button";
    submit.id = "set-rows-btn";
    submit.disabled = !(S.check && S.check.complete && !S.check.foul && placed.size === 13);
    submit.addEventListener("click", () => play({ front: S.rows.front, middle: S.rows.middle,
      back: S.rows.back }));
    controls.appendChild(submit);
    const best = el("button", "secondary", "Best");
    best.type = "button";
    best.id = "best-btn";
    best.title = "Fill the rows with the solver's best arrangement";
    best.addEventListener("click", fillBest);
    controls.appendChild(best);
    const clear = el("button", "secondary", "Clear rows");
    clear.type = "button";
    clear.addEventListener("click", () => { S.rows = { front: [], middle: [], back: [] };
      S.target = "front"; checkRows(); });
    controls.appendChild(clear);
    if (v.natural_move) {
      const nat = el("button", "secondary", "Declare the natural (" + words(v.natural_move.natural) + ")");
      nat.type = "button";
      nat.id = "natural-btn";
      nat.addEventListener("click", () => play(v.natural_move));
      controls.appendChild(nat);
    }
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
    renderCapsaMine(S.view);
    const seq = ++S.checkSeq;
    try {
      const out = await api("/v1/sessions/check", { token: S.token, rows: S.rows });
      if (seq !== S.checkSeq) return;
      S.check = out;
    } catch (e) {
      if (seq !== S.checkSeq) return;
      S.check = null;
      showError(e.message);
    }
    renderCapsaMine(S.view);
    const f = $("foul");
    if (f) f.dataset.checked = String(seq);
  }

  async function fillBest() {
    await run(async () => {
      const adv = await api("/v1/sessions/advice", { token: S.token });
      const a = adv.arrangements && adv.arrangements[0];
      if (!a) throw new Error("The solver gave no arrangement for this hand.");
      S.rows = { front: a.front.slice(), middle: a.middle.slice(), back: a.back.slice() };
      showHint(adv);
    });
    if (S.view && S.view.presentation === "capsa_rows") await checkRows();
  }

  // ------------------------------------------------------------------ hint
  async function hint() {
    if (!S.view || !S.view.advisor || !S.view.your_turn) return;
    if (S.view.presentation === "capsa_rows") return fillBest();
    await run(async () => {
      const adv = await api("/v1/sessions/advice", { token: S.token });
      S.hint = adv;
      renderMoves(S.view);
      showHint(adv);
    });
  }

  function showHint(adv) {
    const box = $("hint-box");
    box.textContent = "";
    box.appendChild(el("h3", null, "The advisor suggests"));
    const list = el("ol", "hint-list");
    if (adv.arrangements) {
      adv.arrangements.slice(0, 5).forEach((a) => {
        const li = el("li");
        li.appendChild(el("span", "ev", "EV " + signed(a.ev) + " "));
        li.appendChild(el("span", null, [a.front, a.middle, a.back].map((r) => r.join(" ")).join(" | ")));
        list.appendChild(li);
      });
    } else {
      (adv.moves || []).slice(0, 5).forEach((m) => {
        const li = el("li");
        li.appendChild(el("span", null, moveText(m.move)));
        if (m.value !== undefined) li.appendChild(el("span", "ev", " value " + signed(m.value) +
          (m.stderr !== undefined && m.stderr !== null ? " ± " + Math.round(m.stderr * 1000) / 1000 : "")));
        list.appendChild(li);
      });
    }
    box.appendChild(list);
    box.hidden = false;
  }

  // ------------------------------------------------------------------ settlement and review
  function renderResult(v) {
    const box = $("result");
    box.hidden = !v.terminal;
    if (!v.terminal) return;
    const body = $("result-body");
    body.textContent = "";
    const o = v.observation;
    const t = el("table", "returns");
    const head = el("tr");
    ["Seat", "This hand", "Session score"].forEach((h) => head.appendChild(el("th", null, h)));
    t.appendChild(head);
    v.returns.forEach((r, p) => {
      const tr = el("tr", p === v.seat ? "me" : "");
      tr.appendChild(el("td", null, seatName(v, p)));
      tr.appendChild(el("td", "num", signed(r)));
      tr.appendChild(el("td", "num", signed(v.score[p])));
      t.appendChild(tr);
    });
    body.appendChild(t);
    const res = o.result || o.settlement;
    if (o.game === "capsa" && o.result) body.appendChild(capsaReveal(o, v));
    else if (o.game === "big-two" && res) {
      body.appendChild(el("p", null, seatName(v, res.winner) + " went out first" +
        (res.dragon ? " with a dragon" : "") + ". Cards left: " +
        res.cards_left.map((n, p) => seatName(v, p) + " " + n).join(", ") + "."));
    } else if (o.game === "da-san" && res) {
      body.appendChild(el("p", null, seatName(v, res.winner) + " went out first. " +
        seatName(v, res.bidder) + " bid " + res.bid + " and " + (res.bidder_made ? "made it." : "failed.")));
    } else if (o.game === "da-bai-fen" && res) {
      body.appendChild(el("p", null, "Defenders " + res.defenders_points + " points (kitty bonus " +
        res.kitty_bonus + "), declarers " + res.declarers_points + ". Declarers (team " +
        (res.declarers ? "B" : "A") + ") go up " + res.declarers_up + ", defenders up " +
        res.defenders_up + (res.defenders_declare ? "; the defenders declare next." :
          "; the declarers stay.") + " Next leader: " + seatName(v, res.next_leader) + "."));
    }
    if (v.game_over) body.appendChild(el("p", "strong", "Team " + (v.game_over.winner_team ? "B" : "A") +
      " went up past A and wins the game; the next hand starts a new game."));
    renderReview(v.review);
  }

  function capsaReveal(o, v) {
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

  function renderReview(rev) {
    const box = $("review");
    box.textContent = "";
    box.hidden = !rev;
    if (!rev) return;
    box.appendChild(el("h3", null, "Review"));
    if (rev.declared_natural) {
      box.appendChild(el("p", null, "You declared a natural; there is no arrangement to review."));
      return;
    }
    const dl = el("dl", "review-facts");
    const fact = (k, val, id) => {
      dl.appendChild(el("dt", null, k));
      const dd = el("dd", null, val);
      if (id) dd.id = id;
      dl.appendChild(dd);
    };
    fact("Your arrangement's EV", signed(rev.mine.ev), "review-mine");
    fact("Best arrangement's EV", signed(rev.best[0].ev), "review-best");
    fact("What your choice cost", rev.cost.toFixed(3) + " points per table", "review-cost");
    fact("You scored on this table", signed(rev.actual_points), "review-actual");
    fact("Best response to the actual opponents", signed(rev.best_response.points) + " (" +
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

  async function nextHand() {
    if (!S.view || !S.view.terminal) return;
    await run(async () => show(await api("/v1/sessions/next", { token: S.token })));
  }

  async function playAgain(n) {
    await run(async () => {
      const v = await api("/v1/sessions/replay", { token: S.token, n: n });
      closeReplay();
      show(v);
      window.scrollTo(0, 0);
    });
  }

  // ------------------------------------------------------------------ history, export, replay
  async function refreshHistory() {
    if (!S.token) return;
    let h;
    try {
      h = await api("/v1/sessions/history", { token: S.token });
    } catch (e) { showError(e.message); return; }
    const list = $("history-list");
    list.textContent = "";
    $("history-empty").hidden = h.hands.length > 0;
    h.hands.slice().reverse().forEach((hand) => {
      const li = el("li", "history-item");
      li.dataset.n = String(hand.n);
      const txt = "Hand " + hand.n + (hand.replay_of ? " (deal of hand " + hand.replay_of + ")" : "") +
        ": you " + signed(hand.points) + ", " + hand.moves + " moves" +
        (hand.cost !== null && hand.cost !== undefined ? ", cost " + hand.cost.toFixed(3) : "");
      li.appendChild(el("span", "history-text", txt));
      const btns = el("span", "buttons tight");
      const actions = [["Replay", () => openReplay(hand.n), "replay"],
        ["Play this deal again", () => playAgain(hand.n), "again"]];
      if (hand.exportable) actions.push(["Export", () => exportHand(hand.n), "export"]);
      else btns.appendChild(el("span", "muted no-export", "no export: other seats' cards stay hidden"));
      actions.forEach(([label, fn, cls]) => {
        const b = el("button", "secondary small-btn " + cls, label);
        b.type = "button";
        b.setAttribute("aria-label", label + " (hand " + hand.n + ")");
        b.addEventListener("click", fn);
        btns.appendChild(b);
      });
      li.appendChild(btns);
      list.appendChild(li);
    });
  }

  async function exportHand(n) {
    await run(async () => {
      const doc = await api("/v1/sessions/export", { token: S.token, n: n });
      const text = JSON.stringify(doc, null, 1);
      $("export-text").value = text;
      $("export-n").textContent = String(n);
      const link = $("export-link");
      if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
      const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      link.href = url;
      link.dataset.url = url;
      link.download = doc.game + "-hand-" + n + ".json";
      $("export-box").hidden = false;
    });
  }

  async function openReplay(n) {
    await run(async () => {
      S.replay = await api("/v1/sessions/hand", { token: S.token, n: n });
      S.frame = 0;
      $("replay-n").textContent = String(n);
      $("replay").hidden = false;
      renderFrame();
      $("replay").scrollIntoView({ block: "start" });
      $("replay-next").focus();
    });
  }

  function closeReplay() {
    S.replay = null;
    $("replay").hidden = true;
  }

  function stepReplay(to) {
    if (!S.replay) return;
    const last = S.replay.frames.length - 1;
    S.frame = Math.max(0, Math.min(last, to));
    renderFrame();
  }

  function renderFrame() {
    const r = S.replay;
    const f = r.frames[S.frame];
    const last = r.frames.length - 1;
    const ctx = { seat: r.seat, seats: S.view ? S.view.seats : [] };
    $("replay-step").textContent = "Step " + S.frame + " of " + last;
    $("replay-move").textContent = S.frame === 0 ? "The deal." :
      seatName(ctx, f.player) + ": " + moveText(f.move) + "." +
      (S.frame === last ? " End of the hand: you " + signed(r.returns[r.seat]) + "." : "");
    const board = $("replay-board");
    board.textContent = "";
    board.appendChild(renderBoard(f.observation, ctx));
    const hand = $("replay-hand");
    hand.textContent = "";
    const o = f.observation;
    const cards = o.game === "capsa" ? o.hands[r.seat] || [] : o.hand || [];
    hand.appendChild(el("span", "label", "Your hand: "));
    hand.appendChild(cardsEl(cards));
    $("replay-first").disabled = $("replay-prev").disabled = S.frame === 0;
    $("replay-last").disabled = $("replay-next").disabled = S.frame === last;
  }

  // ------------------------------------------------------------------ keyboard
  function onKey(ev) {
    if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (S.replay && !$("replay").hidden) {
      if (ev.key === "ArrowRight") { ev.preventDefault(); return stepReplay(S.frame + 1); }
      if (ev.key === "ArrowLeft") { ev.preventDefault(); return stepReplay(S.frame - 1); }
      if (ev.key === "Home") { ev.preventDefault(); return stepReplay(0); }
      if (ev.key === "End") { ev.preventDefault(); return stepReplay(1e9); }
      if (ev.key === "Escape") { return closeReplay(); }
    }
    if (!S.view) return;
    if (ev.key === "h" || ev.key === "H") { ev.preventDefault(); hint(); }
    else if ((ev.key === "n" || ev.key === "N") && S.view.terminal) { ev.preventDefault(); nextHand(); }
    else if (ev.key === "Enter" && ev.target && ev.target.classList &&
             ev.target.classList.contains("in-hand") && S.view.presentation !== "capsa_rows") {
      const b = $("play-sel-btn");
      if (b && !b.disabled) { ev.preventDefault(); b.click(); }
    }
  }

  // ------------------------------------------------------------------ start-up
  async function init() {
    $("setup-form").addEventListener("submit", start);
    $("game").addEventListener("change", onGameChange);
    $("players").addEventListener("change", onPlayersChange);
    $("seat").addEventListener("change", renderSeatBots);
    $("bots").addEventListener("change", () => {
      document.querySelectorAll("#seat-bots-fields select").forEach((x) => { x.value = $("bots").value; });
    });
    $("import-btn").addEventListener("click", importHand);
    $("hint-btn").addEventListener("click", hint);
    $("next-btn").addEventListener("click", nextHand);
    $("again-btn").addEventListener("click", () => S.view && playAgain(S.view.hand));
    $("new-btn").addEventListener("click", () => { forget(); clearError(); notice(""); });
    $("replay-close").addEventListener("click", closeReplay);
    $("replay-first").addEventListener("click", () => stepReplay(0));
    $("replay-prev").addEventListener("click", () => stepReplay(S.frame - 1));
    $("replay-next").addEventListener("click", () => stepReplay(S.frame + 1));
    $("replay-last").addEventListener("click", () => stepReplay(1e9));
    document.addEventListener("keydown", onKey);
    try {
      const g = await api("/v1/sessions/games", null, "GET");
      g.games.filter((x) => x.playable).forEach((x) => { S.games[x.name] = x; });
      const names = Object.keys(S.games);
      const wanted = new URLSearchParams(location.search).get("game");
      fillSelect($("game"), names, names.map((n) => S.games[n].title),
        names.includes(wanted) ? wanted : "capsa");
      onGameChange();
    } catch (e) {
      showError("Could not load the list of games: " + e.message);
      return;
    }
    let saved = null;
    try { saved = localStorage.getItem(TOKEN_KEY); } catch (e) { saved = null; }
    if (saved) {
      try {
        const v = await api("/v1/sessions/state", { token: saved });
        S.token = saved;
        show(v);
        refreshHistory();
        notice("Welcome back: your session continues.");
      } catch (e) {
        try { localStorage.removeItem(TOKEN_KEY); } catch (x) { /* ignore */ }
        if (e.status === 404) notice("Your last session has ended (sessions expire); start a new one.");
        else showError(e.message);
      }
    }
    document.body.dataset.ready = "true";
  }

  document.addEventListener("DOMContentLoaded", init);
})();
