/* Play page: one human seat against the bots, through the session API (/v1/sessions).
 * Plain JS modules, no build step. Every move offered comes from the engine's legal moves;
 * the page never decides what is legal. What differs from game to game comes from the
 * server (each seat's roles, the seat's cards, the settlement in words, the default game)
 * or from the page module of the view's presentation (play-presentations.js): this module
 * knows no game by name. */
import { cardCounts, events, renderBoard } from "./play-board.js";
import { adoptDrill, drillNext, hideDrill, initDrill, showDrill, startDrill } from "./play-drill.js";
import { PRESENTATIONS, presentationOf } from "./play-presentations.js";
import {
  $, MODE_KEY, S, TOKEN_KEY, api, cardFace, cardsEl, clearError, el, hooks, moveEl, moveKey, moveText,
  notice, sameCards, seatName, seatText, showError, signed, words,
} from "./play-ui.js";

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
    } else if (e.status === 409 && e.code === "stale_version" && e.data && e.data.state) {
      // the table moved on (another tab, or an answer that never reached us): show it as it is
      if (e.data.state.mode === "drill") showDrill(e.data.state); else show(e.data.state);
      notice("The table had moved on since this page last saw it; here it is now.");
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
  $("mode-field").hidden = !g.drill;
  if (!g.drill) $("mode").value = "play";
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
  onModeChange();
}

// The drill (a game's solo mode, where the server offers one) deals only your cards: no
// bots, no seat to choose; the players say how many opponents the answer is against.
function drilling() {
  const g = S.games[$("game").value];
  return Boolean(g && g.drill && $("mode").value === "drill");
}

function onModeChange() {
  const drill = drilling();
  $("bots-field").hidden = $("seat-field").hidden = drill;
  $("seat-bots").hidden = drill;
  [...$("players").options].forEach((o) => {
    const n = Number(o.value);
    o.textContent = n + " (" + (n - 1) + (drill ? " opponent" : " bot") + (n > 2 ? "s" : "") +
      (drill ? " modelled)" : ")");
  });
  $("start-btn").textContent = drill ? "Start the drill" : "Start";
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
  const body = drilling() ? { game: g.name } : { game: g.name, bots: bots.length ? bots : $("bots").value,
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
    if (drilling()) {
      closeReplay();
      return startDrill(setupBody());
    }
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
  try {
    localStorage.setItem(TOKEN_KEY, v.token);
    localStorage.removeItem(MODE_KEY);
  } catch (e) { /* private mode */ }
  closeReplay();
  $("export-box").hidden = true;
  show(v);
  refreshHistory();
}

function forget() {
  S.token = null;
  S.view = null;
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(MODE_KEY);
  } catch (e) { /* ignore */ }
  hideDrill();
  $("table").hidden = true;
  $("history").hidden = true;
  closeReplay();
  $("setup").hidden = false;
}

// ------------------------------------------------------------------ the table
function show(v) {
  const prev = S.view;
  const newHand = !prev || prev.hand !== v.hand || prev.game !== v.game;
  hideDrill();
  S.view = v;
  const pres = presentationOf(v);
  if (newHand && pres.newHand) pres.newHand();
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

function renderSeats(v) {
  const body = document.querySelector("#seats tbody");
  body.textContent = "";
  const counts = cardCounts(v.observation);
  v.seats.forEach((s, p) => {
    const tr = el("tr");
    if (!v.terminal && (v.to_act || []).includes(p)) tr.classList.add("to-act");
    if (p === v.seat) tr.classList.add("me");
    const roles = (v.seat_roles && v.seat_roles[p]) || [];
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
  return v.own_cards || [];
}

function renderMine(v) {
  const pres = presentationOf(v);
  Object.values(PRESENTATIONS).forEach((p) => { if (p !== pres && p.hide) p.hide(); });
  $("mine-heading").textContent = "Your hand";
  $("my-hand").classList.remove("pool");
  if (pres.renderMine) return pres.renderMine(v);
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
    const v = await api("/v1/sessions/move", { token: S.token, move: move, version: S.view && S.view.version });
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

// ------------------------------------------------------------------ hint
async function hint() {
  if (!S.view || !S.view.advisor || !S.view.your_turn) return;
  const pres = presentationOf(S.view);
  if (pres.hint) return pres.hint();
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
  const n = adv.natural;
  const valued = n && typeof n.ev === "number";
  box.appendChild(el("h3", null, "The advisor suggests" + (valued && n.declare ? ": declare the natural" : "")));
  if (valued) {
    const best = adv.arrangements && adv.arrangements[0];
    const rows = best ? " (EV " + signed(best.ev) + ")" : "";
    const p = el("p", "hint-natural" + (n.declare ? " strong" : ""), n.declare ?
      "Declare the natural (" + words(n.kind) + "): EV " + signed(n.ev) + ", more than the best rows" + rows + "." :
      "The hand holds a natural (" + words(n.kind) + "): declaring it is worth EV " + signed(n.ev) +
        "; the best rows below are worth more" + rows + ".");
    p.id = "hint-natural";
    box.appendChild(p);
    if (n.declare && adv.arrangements) box.appendChild(el("p", "muted", "The best rows, if you set rows:"));
  }
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
  const review = $("review");
  review.textContent = "";
  review.hidden = true;
  const pres = presentationOf(v);
  if (v.summary) body.appendChild(el("p", "summary", seatText(v, v.summary)));
  if (pres.result) pres.result(body, v);
  if (v.game_over && v.game_over.text) body.appendChild(el("p", "strong", seatText(v, v.game_over.text)));
}

async function nextHand() {
  if (!S.view || !S.view.terminal) return;
  await run(async () => show(await api("/v1/sessions/next", { token: S.token, version: S.view && S.view.version })));
}

async function playAgain(n) {
  await run(async () => {
    const v = await api("/v1/sessions/replay", { token: S.token, n: n, version: S.view && S.view.version });
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
  const cards = f.own_cards || [];
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
  if (S.drill) {
    if ((ev.key === "n" || ev.key === "N") && S.drill.answered) { ev.preventDefault(); drillNext(); }
    return;
  }
  if (!S.view) return;
  if (ev.key === "h" || ev.key === "H") { ev.preventDefault(); hint(); }
  else if ((ev.key === "n" || ev.key === "N") && S.view.terminal) { ev.preventDefault(); nextHand(); }
  else if (ev.key === "Enter" && ev.target && ev.target.classList &&
           ev.target.classList.contains("in-hand") && presentationOf(S.view).selectsCards !== false) {
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
  $("drill-new-btn").addEventListener("click", () => { forget(); clearError(); notice(""); });
  $("mode").addEventListener("change", onModeChange);
  initDrill();
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
      names.includes(wanted) ? wanted : g.default);
    if (new URLSearchParams(location.search).get("mode") === "drill") $("mode").value = "drill";
    onGameChange();
  } catch (e) {
    showError("Could not load the list of games: " + e.message);
    return;
  }
  let saved = null, mode = null;
  try {
    saved = localStorage.getItem(TOKEN_KEY);
    mode = localStorage.getItem(MODE_KEY);
  } catch (e) { saved = null; }
  if (saved) {
    try {
      await resume(saved, mode === "drill");
      notice("Welcome back: your session continues.");
    } catch (e) {
      try {
        localStorage.removeItem(TOKEN_KEY);
        localStorage.removeItem(MODE_KEY);
      } catch (x) { /* ignore */ }
      if (e.status === 404) notice("Your last session has ended (sessions expire); start a new one.");
      else showError(e.message);
    }
  }
  document.body.dataset.ready = "true";
}

// The saved session: a table, or a drill (the server says which when the page was told wrong).
async function resume(token, drill) {
  try {
    const v = await api(drill ? "/v1/sessions/drill/state" : "/v1/sessions/state", { token: token });
    S.token = token;
    if (drill) showDrill(v);
    else { show(v); refreshHistory(); }
  } catch (e) {
    if (e.status !== 409 || !["drill_session", "not_a_drill"].includes(e.code)) throw e;
    const v = await api(drill ? "/v1/sessions/state" : "/v1/sessions/drill/state", { token: token });
    if (drill) { adopt({ ...v, token: token }); } else adoptDrill({ ...v, token: token });
  }
}

Object.assign(hooks, { play, run, showHint });
init();
