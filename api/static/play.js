/* Play page: one human seat against the bots, through the session API (/v1/sessions).
 * Plain JS modules, no build step. Every move offered comes from the engine's legal moves;
 * the page never decides what is legal. What differs from game to game comes from the
 * server (each seat's roles, the seat's cards, the settlement in words, the default game)
 * or from the page module of the view's presentation (play-presentations.js): this module
 * knows no game by name. */
import { t, tn } from "./i18n.js";
import { cardCounts, events, renderBoard } from "./play-board.js";
import { adoptDrill, drillNext, hideDrill, initDrill, showDrill, startDrill, syncDrillAgainst } from "./play-drill.js";
import { initSort, renderPicker, sortHand } from "./play-picker.js";
import { PRESENTATIONS, presentationOf } from "./play-presentations.js";
import {
  $, MODE_KEY, S, TOKEN_KEY, api, botName, cardFace, cardsEl, cardsText, choiceName, clearError, el, gameTitle, hooks,
  kindName, moveText, notice, optionHelp, optionName, phaseName, sayLine, seatName, seatText, serverText,
  showError, signed, words,
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
      showError(t("play.error.token_gone"));
    } else if (e.status === 409 && e.code === "stale_version" && e.data && e.data.state) {
      // the table moved on (another tab, or an answer that never reached us): show it as it is
      if (e.data.state.mode === "drill") showDrill(e.data.state); else show(e.data.state);
      notice(t("play.notice.moved_on"));
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

// The bots as players call them (Easy, Normal, Hard...), the engine's name in a tooltip.
function botOptions(sel, g, chosen) {
  const levels = g.bot_levels || {};
  fillSelect(sel, g.bots, g.bots.map((b) => botName(b, levels[b])), chosen);
  [...sel.options].forEach((o) => { o.title = o.value; });
}

// A new player's table: the bot of the middle level where the game has one.
function defaultBot(g) {
  const levels = g.bot_levels || {};
  return g.bots.find((b) => levels[b] === "normal") || g.bots[0];
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
  botOptions($("bots"), g, defaultBot(g));
  $("mode-field").hidden = !g.drill;
  if (!g.drill) $("mode").value = "play";
  onPlayersChange();
  const box = $("options-fields");
  box.textContent = "";
  g.options.filter((o) => o.name !== "players").forEach((o) => {
    const f = el("div", "field");
    const id = "opt-" + o.name;
    const lab = el("label", null, optionName(g.name, o.name));
    lab.htmlFor = id;
    let input;
    if (o.choices) {
      input = el("select");
      fillSelect(input, o.choices, o.choices.map((c) => choiceName(g.name, o.name, c)), o.default);
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
    input.title = optionHelp(g.name, o);
    f.appendChild(lab);
    f.appendChild(input);
    f.appendChild(el("p", "hint", optionHelp(g.name, o)));
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
    o.textContent = tn(drill ? "play.setup.players_drill" : "play.setup.players_bots", n - 1, { players: n });
  });
  $("start-btn").textContent = t(drill ? "play.setup.start_drill" : "play.setup.start");
  syncDrillAgainst(drill);
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
    const lab = el("label", null, t("play.seat", { n: p }));
    const sel = el("select");
    sel.id = "bot-seat-" + p;
    sel.dataset.seat = String(p);
    lab.htmlFor = sel.id;
    botOptions(sel, g, $("bots").value);
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
        throw new Error(opt.minimum !== null ?
          t("play.error.whole_number_range", { name: optionName(g.name, opt.name), min: opt.minimum,
            max: opt.maximum, got: JSON.stringify(input.value) }) :
          t("play.error.whole_number", { name: optionName(g.name, opt.name), got: JSON.stringify(input.value) }));
      }
      rules[opt.name] = v;
    } else rules[opt.name] = input.value;
  });
  if (Object.keys(rules).length) body.rules = rules;
  const seed = $("seed").value.trim();
  if (seed) {
    if (!/^\d{1,18}$/.test(seed)) {
      throw new Error(t("play.error.seed", { got: JSON.stringify(seed) }));
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
    focusTable();
  });
}

// After Start the keyboard and the screen reader go on at the table, not at <body>.
function focusTable() {
  const h = $("table-heading");
  h.tabIndex = -1;
  h.focus({ preventScroll: true });
  h.scrollIntoView({ block: "start" });
}

// Leaving a session gives up the hand being played (and the score, with the session's
// token): ask first, in a dialog whose default button keeps playing.
function askLeave() {
  const d = $("confirm-leave");
  if (!(S.view || S.drill) || typeof d.showModal !== "function") { forget(); clearError(); notice(""); return; }
  d.showModal();
  $("leave-cancel").focus();
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
    notice(t("play.notice.imported", { game: gameTitle(v.game, v.title) }));
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
  $("table-heading").textContent = v.replay_of ?
    t("play.table.title_again", { game: gameTitle(v.game, v.title), n: v.hand, of: v.replay_of }) :
    t("play.table.title", { game: gameTitle(v.game, v.title), n: v.hand });
  $("hint-btn").hidden = !(v.advisor && v.your_turn);
  $("rules-link").href = "/rules/" + encodeURIComponent(v.game);
  $("session-score").textContent = t("table.score.line", {
    hands: tn("table.score.hands", v.hands_played || 0), score: signed(v.score[v.seat]) });
  const fresh = renderLog(v, newHand);
  renderStatus(v, fresh);
  renderSeats(v);
  const board = $("board");
  board.textContent = "";
  board.appendChild(renderBoard(v.board_lines, v));
  renderMine(v);
  renderResult(v);
}

function renderStatus(v, fresh) {
  const o = v.observation;
  let text;
  if (v.terminal) text = t("play.status.over", { result: resultLine(v) });
  else if (v.your_turn) text = o.phase ? t("play.status.your_turn_phase", { phase: phaseName(o.phase) }) :
    t("play.status.your_turn");
  else text = t("play.status.waiting", { who: seatName(v, v.current_player) });
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
  return tn(mine > 0 ? "play.result.won" : mine < 0 ? "play.result.lost" : "play.result.even",
    Math.abs(mine));
}

function renderSeats(v) {
  const body = document.querySelector("#seats tbody");
  body.textContent = "";
  const counts = cardCounts(v.observation);
  const lastPlays = {};  // each seat's last play, where the presentation shows it at the seat
  if (presentationOf(v).lastPlay !== false) {
    events(v).forEach((e) => { if (e.player !== null && e.player !== undefined) lastPlays[e.player] = e; });
  }
  v.seats.forEach((s, p) => {
    const tr = el("tr");
    if (!v.terminal && (v.to_act || []).includes(p)) tr.classList.add("to-act");
    if (p === v.seat) tr.classList.add("me");
    const roles = v.role_lines ? (v.role_lines[p] || []).map((m) => sayLine(v, m)) :
      (v.seat_roles && v.seat_roles[p]) || [];
    const th = el("th", null, t("play.seat", { n: p }));
    th.scope = "row";
    tr.appendChild(th);
    const who = el("td", null, p === v.seat ? t("play.you") : botName(s.player, s.level));
    if (p !== v.seat) who.title = s.player;  // the engine's name
    if (roles.length) who.appendChild(el("span", "roles", " · " + roles.join(", ")));
    if (tr.classList.contains("to-act")) who.appendChild(el("span", "turn", " ◀ " + t("play.seats.to_play")));
    const last = lastPlays[p];
    if (last) {  // this seat's last play, at its seat
      const line = el("div", "last");
      line.dataset.seat = String(p);
      line.appendChild(el("span", "muted", t("table.seats.last") + ": "));
      line.appendChild(last.move && last.move.cards && last.move.cards.length ?
        cardsEl(last.move.cards, "small") : el("span", null, last.text));
      who.appendChild(line);
    }
    tr.appendChild(who);
    tr.appendChild(el("td", "num", counts[p] === undefined ? "" : String(counts[p])));
    tr.appendChild(el("td", "num", signed(v.score[p])));
    body.appendChild(tr);
  });
}

function renderLog(v, newHand) {
  const list = $("log");
  list.textContent = "";
  const evs = events(v);
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
  $("mine-heading").textContent = t("play.mine");
  $("my-hand").classList.remove("pool");
  if (pres.renderMine) return pres.renderMine(v);
  const hand = $("my-hand");
  hand.textContent = "";
  const playable = v.your_turn && v.legal_moves && v.legal_moves.some((m) => m.cards && m.cards.length);
  sortHand(myCards(v)).forEach((c) => {
    const b = cardFace(c, playable ? "button" : "span");
    b.classList.add("in-hand");
    if (playable) {
      b.type = "button";
      b.setAttribute("aria-pressed", String(S.selected.has(c)));
      b.classList.toggle("on", S.selected.has(c));
      b.addEventListener("click", () => toggleSelect(c));
    }
    hand.appendChild(b);
  });
  if (!myCards(v).length) hand.appendChild(el("span", "muted", t("play.no_cards")));
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

function renderMoves(v) {
  renderPicker(v, play, () => { S.selected.clear(); renderMine(S.view); });
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
    document.querySelector("#my-hand button.card") || document.querySelector("#pick-moves button.move");
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
  box.appendChild(el("h3", null, t(valued && n.declare ? "play.hint.suggests_natural" : "play.hint.suggests")));
  if (adv.against) {  // asked against the opponents' profiles: say whom
    const who = el("p", "hint-against-line", t("profile.advice.hint_against", { names: adv.against.join(", ") }));
    who.id = "hint-against-line";
    box.appendChild(who);
  }
  if (valued) {
    const best = adv.arrangements && adv.arrangements[0];
    const rows = best ? " (EV " + signed(best.ev) + ")" : "";
    const p = el("p", "hint-natural" + (n.declare ? " strong" : ""), n.declare ?
      t("play.hint.declare", { kind: kindName(n.kind), ev: signed(n.ev), rows: rows }) :
      t("play.hint.natural_less", { kind: kindName(n.kind), ev: signed(n.ev), rows: rows }) +
        "; the best rows below are worth more" + rows + ".");
    p.id = "hint-natural";
    box.appendChild(p);
    if (n.declare && adv.arrangements) box.appendChild(el("p", "muted", t("play.hint.best_rows_if")));
  }
  const list = el("ol", "hint-list");
  if (adv.arrangements) {
    adv.arrangements.slice(0, 5).forEach((a) => {
      const li = el("li");
      li.appendChild(el("span", "ev", t("play.ev", { ev: signed(a.ev) }) + " "));
      li.appendChild(el("span", null, [a.front, a.middle, a.back].map(cardsText).join(" | ")));
      list.appendChild(li);
    });
  } else {
    (adv.moves || []).slice(0, 5).forEach((m) => {
      const li = el("li");
      li.appendChild(el("span", null, moveText(m.move)));
      if (m.value !== undefined) li.appendChild(el("span", "ev", " " + t("play.hint.value", { value: signed(m.value) }) +
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
  const tbl = el("table", "returns");
  const head = el("tr");
  ["play.seats.seat", "play.result.this_hand", "play.result.session"].forEach((h) => head.appendChild(el("th", null, t(h))));
  tbl.appendChild(head);
  v.returns.forEach((r, p) => {
    const tr = el("tr", p === v.seat ? "me" : "");
    tr.appendChild(el("td", null, seatName(v, p)));
    tr.appendChild(el("td", "num", signed(r)));
    tr.appendChild(el("td", "num", signed(v.score[p])));
    tbl.appendChild(tr);
  });
  body.appendChild(tbl);
  if (v.leftovers) body.appendChild(leftoversEl(v));
  const review = $("review");
  review.textContent = "";
  review.hidden = true;
  const pres = presentationOf(v);
  if (v.summary) body.appendChild(el("p", "summary", v.summary_lines ?
    v.summary_lines.map((m) => sayLine(v, m)).join(" ") : seatText(v, v.summary)));
  if (pres.result) pres.result(body, v);
  if (v.game_over && v.game_over.text) body.appendChild(el("p", "strong", serverText(v, v.game_over, v.game_over.text)));
}

// The cards the other seats kept, laid down at the end of the hand (where the rules show them).
function leftoversEl(v) {
  const box = el("section", "leftovers");
  box.id = "leftovers";
  box.appendChild(el("h4", null, t("table.leftovers.title")));
  v.leftovers.forEach((cards, p) => {
    if (p === v.seat || !cards) return;
    const line = el("div", "leftover");
    line.dataset.seat = String(p);
    line.appendChild(el("strong", null, seatName(v, p) + ":"));
    line.appendChild(cards.length ? cardsEl(cards, "small") : el("span", "muted", t("table.leftovers.none")));
    box.appendChild(line);
  });
  return box;
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
    const txt = t(hand.replay_of ? "play.history.hand_again" : "play.history.hand",
      { n: hand.n, of: hand.replay_of, points: signed(hand.points), moves: hand.moves }) +
      (hand.cost !== null && hand.cost !== undefined ? t("play.history.cost", { cost: hand.cost.toFixed(3) }) : "");
    li.appendChild(el("span", "history-text", txt));
    const btns = el("span", "buttons tight");
    const actions = [[t("play.history.replay"), () => openReplay(hand.n), "replay"],
      [t("play.again"), () => playAgain(hand.n), "again"]];
    if (hand.exportable) actions.push([t("play.history.export"), () => exportHand(hand.n), "export"]);
    else btns.appendChild(el("span", "muted no-export", t("play.history.no_export")));
    actions.forEach(([label, fn, cls]) => {
      const b = el("button", "secondary small-btn " + cls, label);
      b.type = "button";
      b.setAttribute("aria-label", t("play.history.action_label", { action: label, n: hand.n }));
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
  $("replay-step").textContent = t("play.replay.step", { n: S.frame, of: last });
  $("replay-move").textContent = S.frame === 0 ? t("play.replay.deal") :
    t("play.replay.move", { who: seatName(ctx, f.player), move: moveText(f.move) }) +
    (S.frame === last ? " " + t("play.replay.end", { points: signed(r.returns[r.seat]) }) : "");
  const board = $("replay-board");
  board.textContent = "";
  board.appendChild(renderBoard(f.board_lines, ctx));
  const hand = $("replay-hand");
  hand.textContent = "";
  const cards = f.own_cards || [];
  hand.appendChild(el("span", "label", t("play.board.label", { label: t("play.mine") })));
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
  $("new-btn").addEventListener("click", askLeave);
  initSort(() => { if (S.view) renderMine(S.view); });
  $("leave-cancel").addEventListener("click", () => $("confirm-leave").close());
  $("leave-ok").addEventListener("click", () => {
    $("confirm-leave").close();
    forget(); clearError(); notice("");
    $("game").focus();
  });
  $("drill-new-btn").addEventListener("click", askLeave);
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
    fillSelect($("game"), names, names.map((n) => gameTitle(n, S.games[n].title)),
      names.includes(wanted) ? wanted : g.default);
    if (new URLSearchParams(location.search).get("mode") === "drill") $("mode").value = "drill";
    onGameChange();
  } catch (e) {
    showError(t("play.error.games", { detail: e.message }));
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
      notice(t("play.notice.welcome_back"));
    } catch (e) {
      try {
        localStorage.removeItem(TOKEN_KEY);
        localStorage.removeItem(MODE_KEY);
      } catch (x) { /* ignore */ }
      if (e.status === 404) notice(t("play.notice.expired"));
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
