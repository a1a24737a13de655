/* Capsa Susun solver page: pick 13 cards, POST /v1/capsa/arrange, draw the answer.
   Plain JS (an ES module), no build step. The text field is the source of truth for what is
   sent; the grid mirrors the cards it can read from it. Every word through i18n.js. */
import { lang, t } from "./i18n.js";
import { errorText } from "./play-ui.js";
import { profileNames, profileSlot, storedProfiles } from "./profiles.js";

{
  const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
  const SUITS = ["s", "h", "d", "c"];
  const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const SUIT_NAME = Object.fromEntries(["s", "h", "d", "c"].map((x) => [x, t("suit." + x)]));
  const SYMBOL_SUIT = { "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c" };
  const RANK_NAME = Object.fromEntries(RANKS.map((r) => [r, t("rank." + r)]));
  // hand kinds, naturals and rows as players say them (pasangan, sám cô; atas, chi 3)
  const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const KIND_NAME = Object.fromEntries(["high_card", "pair", "two_pair", "trips", "straight", "flush",
    "full_house", "quads", "straight_flush", "royal_flush"].map((k) => [k, capital(t("kind." + k))]));
  const NATURAL_NAME = Object.fromEntries(["dragon", "six_pairs", "three_straights", "three_flushes"]
    .map((k) => [k, capital(t("kind." + k))]));
  const ROW_NAME = Object.fromEntries(["front", "middle", "back"].map((r) => [r, capital(t("row." + r))]));
  const HAND_SIZE = 13;

  const $ = (id) => document.getElementById(id);
  const deck = $("deck");
  const text = $("hand-text");
  const form = $("solve-form");
  const errorBox = $("error");
  const results = $("results");
  const solveBtn = $("solve-btn");
  const buttons = new Map(); // "As" -> button
  let lastAgainst = null; // the players the last advice was against (their names)

  /* ---------- card text ---------- */

  /** Canonical "As" for one token ("10h", "as", "♠A", "A♠"), or null. */
  function canonical(token) {
    let s = token.trim();
    if (s.length < 2) return null;
    if (SYMBOL_SUIT[s[0]]) s = s.slice(1) + s[0];
    let rank = s.slice(0, -1).toUpperCase();
    let suit = s.slice(-1);
    suit = SYMBOL_SUIT[suit] || suit.toLowerCase();
    if (rank === "10") rank = "T";
    if (rank.length !== 1 || !RANKS.includes(rank) || !SUITS.includes(suit)) return null;
    return rank + suit;
  }

  function tokens(str) {
    return str.split(/[\s,;]+/).filter(Boolean);
  }

  /** The distinct readable cards of the text field, in order. */
  function cardsInText() {
    const seen = [];
    for (const tok of tokens(text.value)) {
      const c = canonical(tok);
      if (c && !seen.includes(c)) seen.push(c);
    }
    return seen;
  }

  function describe(card) {
    return t("card.name", { rank: RANK_NAME[card[0]], suit: SUIT_NAME[card[1]] });
  }

  function face(card) {
    return card[0] === "T" ? "10" : card[0];
  }

  function isRed(card) {
    return card[1] === "h" || card[1] === "d";
  }

  /* ---------- the 52-card grid ---------- */

  function buildDeck() {
    SUITS.forEach((suit, row) => {
      RANKS.forEach((rank, col) => {
        const card = rank + suit;
        const b = document.createElement("button");
        b.type = "button";
        b.className = "pick card " + (isRed(card) ? "red" : "black");
        b.dataset.card = card;
        b.dataset.row = String(row);
        b.dataset.col = String(col);
        b.setAttribute("aria-pressed", "false");
        b.setAttribute("aria-label", describe(card));
        b.tabIndex = row === 0 && col === 0 ? 0 : -1;
        b.innerHTML = '<span class="rank"></span><span class="suit" aria-hidden="true"></span>';
        b.querySelector(".rank").textContent = face(card);
        b.querySelector(".suit").textContent = SUIT_SYMBOL[suit];
        b.addEventListener("click", () => toggle(card));
        buttons.set(card, b);
        deck.appendChild(b);
      });
    });
    deck.addEventListener("keydown", onGridKey);
  }

  function onGridKey(ev) {
    const b = ev.target.closest("button.pick");
    if (!b) return;
    let row = Number(b.dataset.row);
    let col = Number(b.dataset.col);
    switch (ev.key) {
      case "ArrowRight": col = (col + 1) % RANKS.length; break;
      case "ArrowLeft": col = (col + RANKS.length - 1) % RANKS.length; break;
      case "ArrowDown": row = (row + 1) % SUITS.length; break;
      case "ArrowUp": row = (row + SUITS.length - 1) % SUITS.length; break;
      case "Home": col = 0; break;
      case "End": col = RANKS.length - 1; break;
      default: return;
    }
    ev.preventDefault();
    focusCell(buttons.get(RANKS[col] + SUITS[row]));
  }

  function focusCell(b) {
    buttons.forEach((other) => { other.tabIndex = -1; });
    b.tabIndex = 0;
    b.focus();
  }

  function toggle(card) {
    const cards = cardsInText();
    const i = cards.indexOf(card);
    if (i >= 0) {
      cards.splice(i, 1);
    } else if (cards.length >= HAND_SIZE) {
      showError(t("solver.error.full", { card: describe(card) }));
      return;
    } else {
      cards.push(card);
    }
    hideError();
    text.value = cards.join(" ");
    syncGrid();
    const b = buttons.get(card);
    if (document.activeElement !== b) focusCell(b);
  }

  function syncGrid() {
    const picked = new Set(cardsInText());
    buttons.forEach((b, card) => {
      const on = picked.has(card);
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.classList.toggle("on", on);
    });
    $("count-n").textContent = String(picked.size);
    $("count").classList.toggle("full", picked.size === HAND_SIZE);
    // more than a hand (typed in the text): never "14 / 13", say it is too many
    const over = picked.size > HAND_SIZE;
    $("count").classList.toggle("over", over);
    $("count-of").hidden = over;
    $("count-over").hidden = !over;
  }

  function dealRandom() {
    const all = [];
    SUITS.forEach((s) => RANKS.forEach((r) => all.push(r + s)));
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [all[i], all[j]] = [all[j], all[i]];
    }
    text.value = all.slice(0, HAND_SIZE).join(" ");
    hideError();
    syncGrid();
  }

  /* ---------- advice against this table (stored profiles) ---------- */

  /** One select a opponent seat, each choosing one of the stored profiles (by name). */
  function drawSlots() {
    const names = profileNames();
    $("against-box").hidden = !names.length;
    const slots = $("against-slots");
    const was = [...slots.querySelectorAll("select")].map((s) => s.value);
    slots.replaceChildren();
    slots.hidden = !$("against-use").checked;
    const n = Number($("opponents").value);
    for (let i = 0; i < n; i++) {
      const { field } = profileSlot("against-" + (i + 1), t("profile.advice.slot", { n: i + 1 }),
                                    names, was[i], i);
      slots.appendChild(field);
    }
  }

  /** The profiles chosen for the opponents, [{name, profile}], or null when not used. */
  function chosenProfiles() {
    if ($("against-box").hidden || !$("against-use").checked) return null;
    const all = storedProfiles();
    const picked = [...$("against-slots").querySelectorAll("select")]
      .map((s) => ({ name: s.value, profile: all[s.value] }));
    return picked.length && picked.every((x) => x.profile) ? picked : null;
  }

  /* ---------- request ---------- */

  function requestBody() {
    const body = {
      hand: text.value,
      rules: $("rules").value,
      opponents: Number($("opponents").value),
      method: $("method").value,
      top: Number($("top").value),
    };
    if (!$("card-removal").checked) body.card_removal = false;
    const against = chosenProfiles();
    if (against) {  // advice against the stored players: Monte Carlo, one profile an opponent
      body.method = "montecarlo";
      body.opponent_profiles = against.map((x) => x.profile);
    }
    if (body.method === "montecarlo") {
      const n = Number($("samples").value);
      if (Number.isFinite(n) && $("samples").value !== "") body.samples = n;
    }
    return body;
  }

  async function solve(ev) {
    ev.preventDefault();
    hideError();
    solveBtn.disabled = true;
    solveBtn.textContent = t("solver.solving");
    results.setAttribute("aria-busy", "true");
    const against = chosenProfiles();
    lastAgainst = against ? against.map((x) => x.name) : null;
    try {
      const resp = await fetch("/v1/capsa/arrange", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(requestBody()),
      });
      let data = null;
      try {
        data = await resp.json();
      } catch (_) {
        data = null;
      }
      if (!resp.ok) {
        const msg = (data && errorText(data.error)) || t("error.status", { status: resp.status });
        showError(msg);
        results.hidden = true;
        return;
      }
      if (!data || !Array.isArray(data.arrangements)) {
        showError(t("solver.error.unreadable"));
        return;
      }
      render(data);
    } catch (err) {
      showError(t("solver.error.unreachable", { detail: err.message }));
    } finally {
      solveBtn.disabled = false;
      solveBtn.textContent = t("solver.solve");
      results.setAttribute("aria-busy", "false");
    }
  }

  /* ---------- rendering ---------- */

  function el(tag, cls, content) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined) e.textContent = content;
    return e;
  }

  function cardEl(card) {
    const c = canonical(card) || card;
    const e = el("span", "card " + (isRed(c) ? "red" : "black"));
    e.dataset.card = c;
    e.setAttribute("role", "img");
    e.setAttribute("aria-label", describe(c));
    e.appendChild(el("span", "rank", face(c)));
    const s = el("span", "suit", SUIT_SYMBOL[c[1]] || "?");
    s.setAttribute("aria-hidden", "true");
    e.appendChild(s);
    return e;
  }

  function pct(x) {
    return (100 * x).toFixed(x > 0 && x < 0.001 ? 2 : 1).replace(/\.0+$/, "") + "%";
  }

  function signed(x, digits) {
    const s = Number(x).toFixed(digits);
    return x > 0 ? "+" + s : s;
  }

  /** Highest rank first, as players hold them; the API's order is not meaningful. */
  function byRankDesc(cards) {
    const key = (c) => {
      const k = canonical(c);
      return k ? RANKS.indexOf(k[0]) * 4 + SUITS.indexOf(k[1]) : 99;
    };
    return cards.slice().sort((a, b) => key(a) - key(b));
  }

  function rowEl(name, cards, info) {
    const row = el("div", "row row-" + name);
    row.dataset.row = name;
    const head = el("div", "row-head");
    head.appendChild(el("span", "row-name", ROW_NAME[name]));
    if (info && info.kind) head.appendChild(el("span", "kind", KIND_NAME[info.kind] || info.kind));
    row.appendChild(head);
    const hand = el("div", "cards");
    hand.setAttribute("aria-label", t("solver.row_aria", { row: ROW_NAME[name] }));
    byRankDesc(cards).forEach((c) => hand.appendChild(cardEl(c)));
    row.appendChild(hand);
    if (info && typeof info.win === "number") {
      const p = el("div", "prob");
      const bar = el("div", "bar");
      bar.setAttribute("aria-hidden", "true");
      const win = el("span", "bar-win");
      win.style.width = pct(Math.min(1, Math.max(0, info.win)));
      const tie = el("span", "bar-tie");
      tie.style.width = pct(Math.min(1, Math.max(0, info.tie || 0)));
      bar.append(win, tie);
      p.appendChild(bar);
      let label = t("solver.win", { p: pct(info.win) });
      if (typeof info.tie === "number") label += " \u00b7 " + t("solver.tie", { p: pct(info.tie) });
      p.appendChild(el("span", "prob-text", label));
      row.appendChild(p);
    }
    return row;
  }

  function render(data) {
    const list = $("arrangements");
    list.replaceChildren();
    const parts = [];
    if (typeof data.valid_arrangements === "number") {
      parts.push(t("solver.valid", { n: data.valid_arrangements.toLocaleString(lang()) }));
    }
    if (typeof data.elapsed_ms === "number") parts.push(t("solver.elapsed", { ms: data.elapsed_ms.toFixed(1) }));
    if (data.method === "montecarlo" && lastAgainst) {
      parts.unshift(t("profile.advice.against", { names: lastAgainst.join(", ") }));
    }
    $("summary").textContent = parts.join(" \u00b7 ");
    const old = results.querySelector(".natural");
    if (old) old.remove();
    if (data.natural) {
      const nat = data.natural;
      const name = NATURAL_NAME[nat.kind] || nat.kind;
      const units = typeof nat.units === "number" ? " " + t("solver.natural.units", { n: nat.units }) : "";
      const best = data.arrangements && data.arrangements[0];
      const head = t("solver.natural.head", { name: name + units });
      const ev = typeof nat.ev === "number" ? signed(nat.ev, 3) : null;
      const rows = best ? signed(best.ev, 3) : null;
      let text;
      if (ev === null) {
        text = head + " " + t("solver.natural.scored");
      } else if (nat.declare) {
        text = head + " " + (rows === null ? t("solver.natural.declare", { ev }) :
          t("solver.natural.declare_more", { ev, rows }));
      } else {
        text = head + " " + (rows === null ? t("solver.natural.set_rows", { ev }) :
          t("solver.natural.set_rows_less", { ev, rows }));
      }
      const n = el("p", "natural" + (typeof nat.ev === "number" ? (nat.declare ? " declare" : " rows") : ""), text);
      n.id = "natural-advice";
      $("summary").after(n);
    }
    data.arrangements.forEach((a, i) => {
      const li = el("li", "arrangement");
      li.dataset.rank = String(i + 1);
      const head = el("div", "arr-head");
      head.appendChild(el("span", "arr-rank", "#" + (i + 1)));
      const ev = el("span", "ev", t("play.ev", { ev: signed(a.ev, 3) }));
      ev.dataset.ev = String(a.ev);
      ev.title = t("solver.ev_title");
      head.appendChild(ev);
      const extra = [];
      if (typeof a.scoop === "number") extra.push(t("solver.scoop", { p: pct(a.scoop) }));
      if (a.royalties) extra.push(t("solver.royalties", { n: a.royalties }));
      if (extra.length) head.appendChild(el("span", "arr-extra", extra.join(" \u00b7 ")));
      li.appendChild(head);
      const infos = {};
      (a.rows || []).forEach((r) => { infos[r.row] = r; });
      ["front", "middle", "back"].forEach((name) => {
        li.appendChild(rowEl(name, a[name] || [], infos[name]));
      });
      list.appendChild(li);
    });
    results.hidden = false;
    $("results-heading").focus({ preventScroll: true });
    results.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function showError(msg) {
    errorBox.textContent = msg;
    errorBox.hidden = false;
  }

  function hideError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
  }

  /* ---------- wiring ---------- */

  buildDeck();
  $("results-heading").tabIndex = -1;
  text.addEventListener("input", () => { hideError(); syncGrid(); });
  $("clear-btn").addEventListener("click", () => { text.value = ""; hideError(); syncGrid(); text.focus(); });
  $("random-btn").addEventListener("click", dealRandom);
  $("method").addEventListener("change", () => {
    $("samples-field").hidden = $("method").value !== "montecarlo";
    if ($("method").value !== "montecarlo" && $("against-use").checked) {
      $("against-use").checked = false;  // the profiles are Monte Carlo's opponents
      drawSlots();
    }
  });
  form.addEventListener("submit", solve);
  $("opponents").addEventListener("change", drawSlots);
  $("against-use").addEventListener("change", () => {
    if ($("against-use").checked) {
      $("method").value = "montecarlo";
      $("samples-field").hidden = false;
    }
    drawSlots();
  });
  window.addEventListener("storage", drawSlots);
  drawSlots();
  syncGrid();
}
