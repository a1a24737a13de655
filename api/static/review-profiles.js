/* The review page's opponent profiles: hands shown by other players (pasted, uploaded or
 * dropped), each line naming its player, are split by player and each player's lines go to
 * POST /v1/capsa/profile (one request a player). Per player the page shows the hands fitted,
 * what the profile learnt in the server's words, a chart of each habit beside table's, and
 * offers the profile as a JSON file and "use against this table" (kept in this browser for
 * the advice and play pages, profiles.js). The player is the coach's id field: the first of
 * four fields of a plain text line (name | front | middle | back), the field before
 * "natural", or a JSON line's "player" (sent on as "id") or "id". */
import { lang, num, t, tn } from "./i18n.js";
import { el } from "./play-ui.js";
import { forgetProfile, profileNames, storeProfile, storedProfiles } from "./profiles.js";
import { api, chosenRules, download } from "./review.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const NATURAL_WORDS = ["natural", "istimewa", "m\u1eadu binh", "mau binh"];  // the coach's
const LINE_ERRORS = ["unreadable", "format", "cards", "fields", "natural", "review"];
const MAX_PLAYERS = 12;
const $ = (id) => document.getElementById(id);
const P = { busy: false, players: [] };

// a share as players read it: whole percents, one decimal under 10% (a 0.2% foul rate is not 0%)
function pct(x) {
  const v = 100 * Number(x);
  return num(v, v > 0 && v < 9.95 ? 1 : 0) + "%";
}

/** The player a line names (trimmed), and the line to send for it; name null when it names
 *  none. JSON lines' "player" becomes the coach's "id", which the profile reader accepts. */
export function lineOwner(raw) {
  const line = raw.trim();
  if (line.startsWith("{")) {
    let o;
    try { o = JSON.parse(line); } catch (e) { return { name: null, line: raw }; }
    if (!o || typeof o !== "object" || Array.isArray(o)) return { name: null, line: raw };
    const who = Object.prototype.hasOwnProperty.call(o, "player") ? o.player : o.id;
    if (typeof who !== "string" || !who.trim()) return { name: null, line: raw };
    if (Object.prototype.hasOwnProperty.call(o, "player")) {
      delete o.player;
      o.id = who.trim();
    }
    return { name: who.trim(), line: JSON.stringify(o) };
  }
  const sep = line.includes("|") ? "|" : (line.includes("\t") ? "\t" : null);
  if (!sep) return { name: null, line: raw };
  const fields = line.split(sep).map((f) => f.trim());
  const words = fields.map((f) => f.toLowerCase().split(/\s+/).join(" "));
  const said = words.findIndex((w) => NATURAL_WORDS.includes(w));
  const named = said >= 0 ? said === 1 : fields.length === 4;
  return { name: named && fields[0] ? fields[0] : null, line: raw };
}

/** The lines of `text` by player, in the order players first appear: [{name, lines,
 *  numbers}], and the numbers of the lines that name no player. */
export function splitByPlayer(text) {
  const players = new Map();
  const unnamed = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const { name, line: out } = lineOwner(raw);
    if (name === null) {
      unnamed.push(i + 1);
      return;
    }
    if (!players.has(name)) players.set(name, { name: name, lines: [], numbers: [] });
    players.get(name).lines.push(out);
    players.get(name).numbers.push(i + 1);
  });
  return { players: [...players.values()], unnamed: unnamed };
}

function showError(msg) {
  const box = $("error");
  box.textContent = msg;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

async function build(ev) {
  if (ev) ev.preventDefault();
  if (P.busy) return;
  const text = $("shown-lines").value;
  const { players, unnamed } = splitByPlayer(text);
  $("error").hidden = true;
  if (!players.length) {
    showError(text.trim() ? t("profile.error.no_player") : t("profile.error.empty"));
    return;
  }
  if (players.length > MAX_PLAYERS) {
    showError(t("profile.error.too_many", { n: players.length, max: MAX_PLAYERS }));
    return;
  }
  P.busy = true;
  const btn = $("profile-btn");
  btn.disabled = true;
  btn.textContent = t("profile.submitting");
  document.body.setAttribute("aria-busy", "true");
  try {
    const rules = chosenRules();
    const out = [];
    for (const p of players) {  // one at a time: the compute pool is shared
      const data = await api("/v1/capsa/profile", { text: p.lines.join("\n"), rules: rules },
        "profile.error.refused");
      out.push({ name: p.name, numbers: p.numbers, profile: data });
    }
    P.players = out;
    render(out, unnamed);
  } catch (e) {
    showError(e.message);
  } finally {
    P.busy = false;
    btn.disabled = false;
    btn.textContent = t("profile.submit");
    document.body.removeAttribute("aria-busy");
  }
}

function render(players, unnamed) {
  $("profiles").hidden = false;
  $("pf-skipped-box").hidden = !unnamed.length;
  $("pf-skipped").textContent = unnamed.length
    ? tn("profile.skipped.lines", unnamed.length, { lines: unnamed.join(", ") }) : "";
  const box = $("pf-players");
  box.textContent = "";
  players.forEach((p) => box.appendChild(playerCard(p)));
  $("profiles-results-heading").focus({ preventScroll: true });
  $("profiles").scrollIntoView({ block: "start" });
  document.body.dataset.profiles = String(players.length);
}

function playerCard(p) {
  const prof = p.profile;
  const art = el("article", "pf-player");
  art.dataset.player = p.name;
  art.appendChild(el("h3", null, p.name));
  const facts = [tn("profile.player.hands", prof.hands)];
  if (prof.naturals_declared) facts.push(tn("profile.player.naturals", prof.naturals_declared));
  if (prof.heldout) {
    facts.push(t("profile.player.heldout", { mine: num(prof.heldout.loglik_per_hand, 2),
      table: num(prof.heldout.table_loglik_per_hand, 2) }));
  }
  art.appendChild(el("p", "pf-facts", facts.join(" \u00b7 ")));
  if (prof.hands < 20) art.appendChild(el("p", "hint pf-few", t("profile.player.few")));
  // what the profile learnt, in the page's language from its message keys (an older
  // server's answer without them: its English words, marked so)
  art.appendChild(el("h4", null, t("profile.words.heading")));
  const words = el("ul", "pf-words");
  if (Array.isArray(prof.words_i18n) && prof.words_i18n.length) {
    prof.words_i18n.forEach((m) => words.appendChild(el("li", null, t(m.key, m.params || {}))));
  } else {
    words.lang = "en";
    (prof.words || []).forEach((w) => words.appendChild(el("li", null, w)));
  }
  art.appendChild(words);
  art.appendChild(el("h4", null, t("profile.chart.heading")));
  art.appendChild(habitChart(prof));
  const errors = prof.errors || [];
  if (errors.length) {
    art.appendChild(el("h4", null, t("profile.errors.heading")));
    const ol = el("ol", "rv-errors");
    errors.forEach((e) => {
      const line = p.numbers[e.line - 1] || e.line;  // the line of the whole text
      const li = el("li");
      li.dataset.line = String(line);
      li.appendChild(el("strong", null, t("review.errors.line", { line: line }) + " "));
      const known = LINE_ERRORS.includes(e.code);
      if (known) li.appendChild(el("span", null, t("review.line_error." + e.code) + " "));
      if (lang() === "en" || !known) {  // the server's English words (as the review's list)
        const q = el("q", null, e.error);
        q.lang = "en";
        li.appendChild(q);
      } else {
        li.title = e.error;
      }
      ol.appendChild(li);
    });
    art.appendChild(ol);
  }
  const buttons = el("div", "buttons");
  const save = el("button", "secondary pf-save", t("profile.save"));
  save.type = "button";
  save.addEventListener("click", () => download(fileName(p.name), JSON.stringify(prof, null, 1) + "\n"));
  const use = el("button", "primary pf-use", t("profile.use"));
  use.type = "button";
  use.addEventListener("click", () => {
    // kept without the lines it could not read: it goes with every advice request
    const kept = Object.assign({}, prof);
    delete kept.elapsed_ms;
    delete kept.errors;
    const ok = storeProfile(p.name, kept);
    use.textContent = ok ? t("profile.used", { name: p.name }) : t("profile.error.storage");
    art.dataset.stored = ok ? "true" : "false";
    showStored();
  });
  buttons.append(save, use);
  art.appendChild(buttons);
  return art;
}

/** What the profile does beside what table does, as paired bars (shares of hands). */
function habitChart(prof) {
  const s = prof.summary || {};
  const q = prof.shares || {};
  const rows = [];
  if (typeof s.table_best === "number") rows.push(["table_best", s.table_best, 1]);
  if (typeof s.strongest_back === "number") rows.push(["strongest_back", s.strongest_back, s.table_strongest_back]);
  if (s.pair_hands) rows.push(["front_pair", s.front_pair, s.table_front_pair]);
  rows.push(["naive", q.naive || 0, 0], ["random", q.random || 0, 0], ["foul", q.foul || 0, 0]);
  const W = 320, rowH = 50, labelH = 16, barH = 12, room = 48;
  const H = rows.length * rowH + 22;
  const root = document.createElementNS(SVG_NS, "svg");
  const set = (e, a) => { Object.entries(a).forEach(([k, v]) => e.setAttribute(k, String(v))); return e; };
  const node = (tag, a, text) => {
    const e = set(document.createElementNS(SVG_NS, tag), a);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  set(root, { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", class: "rv-svg pf-chart",
    "aria-label": rows.map(([k, mine, table]) => t("profile.chart.aria_row",
      { habit: t("profile.habit." + k), mine: pct(mine), table: pct(table || 0) })).join("; ") });
  rows.forEach(([k, mine, table], i) => {
    const y = i * rowH;
    root.appendChild(node("text", { x: 0, y: y + 13, class: "rv-label" }, t("profile.habit." + k)));
    [[mine, "#0072b2", "mine"], [table || 0, "#b8c4bd", "table"]].forEach(([v, fill, who], j) => {
      const w = Math.max((W - room) * Math.min(1, Math.max(0, v)), 1.5);
      const by = y + labelH + 2 + j * (barH + 2);
      root.appendChild(node("rect", { x: 0, y: by, width: w.toFixed(1), height: barH, rx: 2, fill: fill,
        class: "pf-bar", "data-habit": k, "data-who": who, "data-value": v }));
      root.appendChild(node("text", { x: w + 4, y: by + barH - 2, class: "rv-value" }, pct(v)));
    });
  });
  const ly = rows.length * rowH + 12;
  root.appendChild(node("rect", { x: 0, y: ly - 9, width: 10, height: 10, fill: "#0072b2" }));
  root.appendChild(node("text", { x: 14, y: ly, class: "rv-tick" }, t("profile.chart.player")));
  root.appendChild(node("rect", { x: W / 2, y: ly - 9, width: 10, height: 10, fill: "#b8c4bd" }));
  root.appendChild(node("text", { x: W / 2 + 14, y: ly, class: "rv-tick" }, t("profile.chart.table")));
  const wrap = el("div", "pf-chart-box");
  wrap.appendChild(root);
  return wrap;
}

function fileName(name) {
  const safe = name.replace(/[^\p{L}\p{N}_-]+/gu, "-").replace(/^-+|-+$/g, "") || "player";
  return `capsa-profile-${safe}.json`;
}

function showStored() {
  const line = $("stored-line");
  line.textContent = "";
  const names = profileNames();
  if (!names.length) return;
  line.appendChild(el("span", null, t("profile.stored", { names: names.join(", ") }) + " "));
  const forget = el("button", "secondary small-btn", t("profile.forget"));
  forget.type = "button";
  forget.id = "forget-btn";
  forget.addEventListener("click", () => {
    Object.keys(storedProfiles()).forEach(forgetProfile);
    showStored();
  });
  line.appendChild(forget);
}

async function readFile(file) {
  if (!file) return;
  try {
    $("shown-lines").value = (await file.text()).replace(/^\ufeff/, "");
  } catch (e) {
    showError(t("review.error.file", { name: file.name, detail: e.message }));
    return;
  }
  document.body.dataset.shownLoaded = file.name;
}

function init() {
  $("profile-form").addEventListener("submit", build);
  $("shown-file").addEventListener("change", () => readFile($("shown-file").files[0]));
  [$("shown-drop"), $("shown-lines")].forEach((node) => {
    node.addEventListener("dragover", (ev) => {
      if (ev.dataTransfer && [...ev.dataTransfer.types].includes("Files")) ev.preventDefault();
    });
    node.addEventListener("drop", (ev) => {
      const f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
      if (!f) return;
      ev.preventDefault();
      ev.stopPropagation();
      readFile(f);
    });
  });
  showStored();
}

init();
