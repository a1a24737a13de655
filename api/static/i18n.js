// The pages' words in the player's language: English, Bahasa Indonesia or Tiếng Việt.
//
//   import { t, lang } from "./i18n.js";
//   t("play.start")                       -> "Mulai"
//   t("play.log.plays", {who, cards})     -> "{who} plays {cards}" filled in
//
// The catalog is fetched once, before any importing module runs (top-level await), so t() is
// synchronous everywhere. The language: ?lang= in the page's address, else the player's choice
// (localStorage, mirrored in the `lang` cookie so the server sees it too), else what the
// server picks from the browser's Accept-Language. Static text in a page is marked
// data-i18n="key" (its text), data-i18n-placeholder / -title / -aria-label (those
// attributes); an element [data-lang-picker] gets the language picker (else the first
// <header> does).

const STORE_KEY = "capsa.lang";
const COOKIE = "lang";
const CODES = ["en", "id", "vi"];
const FALLBACK_NAMES = { en: "English", id: "Bahasa Indonesia", vi: "Tiếng Việt" };
const ATTRS = ["placeholder", "title", "aria-label"];

function stored() {
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null;  // storage blocked: the cookie and the server decide
  }
}

function wanted() {
  const fromUrl = new URLSearchParams(location.search).get("lang");
  if (fromUrl && CODES.includes(fromUrl)) return fromUrl;
  const mine = stored();
  return mine && CODES.includes(mine) ? mine : null;
}

async function load() {
  const code = wanted();
  try {
    const res = await fetch(code ? `/i18n/${code}.json` : "/i18n.json",
                            { credentials: "same-origin" });
    if (res.ok) return await res.json();
  } catch {
    // offline or the server is down: the page still works, in its own words (the keys)
  }
  return { lang: "en", languages: CODES.map((c) => ({ code: c, name: FALLBACK_NAMES[c] })),
           messages: {} };
}

const DATA = await load();
const MESSAGES = DATA.messages || {};

/** The page's language code: "en", "id" or "vi". */
export function lang() {
  return DATA.lang;
}

/** The languages there are, each {code, name} with the name in its own language. */
export function languages() {
  return DATA.languages.slice();
}

/** Whether the catalog has `key` (for an optional message, such as an API error code's). */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(MESSAGES, key);
}

/** The message `key` with its {name} placeholders filled from `params`; an unknown key shows
 *  as itself, so that a missing translation is seen and not silently blank. */
export function t(key, params) {
  const text = has(key) ? MESSAGES[key] : key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

/** `key.one` when n is 1, else `key.other` (English needs both; the other two languages have
 *  no plural, their two messages are the same); `n` is passed as the {n} placeholder. */
export function tn(key, n, params) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { n, ...(params || {}) });
}

/** A number in the page's language (1,234.5 / 1.234,5). */
export function num(value, digits) {
  const opts = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return Number(value).toLocaleString(DATA.lang, opts);
}

/** Remember `code` for this browser (localStorage and the cookie) and show the page in it. */
export function setLang(code) {
  if (!CODES.includes(code)) return;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // the cookie alone remembers it
  }
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.toString());
}

/** Translate the marked elements under `root` (the whole page at load; call again for markup
 *  a script adds with data-i18n marks). */
export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n);
  }
  for (const attr of ATTRS) {
    const data = `data-i18n-${attr}`;
    for (const node of root.querySelectorAll(`[${data}]`)) {
      node.setAttribute(attr, t(node.getAttribute(data)));
    }
  }
}

/** The language picker: a labelled <select> that remembers the choice. */
export function picker() {
  const wrap = document.createElement("label");
  wrap.className = "lang-picker";
  const label = document.createElement("span");
  label.className = "lang-picker-label";
  label.textContent = t("common.language");
  const select = document.createElement("select");
  select.name = "lang";
  select.id = "lang-picker";
  for (const { code, name } of DATA.languages) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    option.selected = code === DATA.lang;
    select.append(option);
  }
  select.addEventListener("change", () => setLang(select.value));
  wrap.append(label, select);
  return wrap;
}

function mountPicker() {
  if (document.getElementById("lang-picker")) return;
  const spot = document.querySelector("[data-lang-picker]") || document.querySelector("header");
  if (spot) spot.append(picker());
}

// A page the server wrote in one language (the rules) while this browser chose another (its
// cookie gone, say): ask for it again in the chosen one.
const rendered = document.documentElement.dataset.renderedLang;
if (rendered && rendered !== DATA.lang && CODES.includes(DATA.lang)) {
  document.cookie = `${COOKIE}=${DATA.lang}; path=/; max-age=31536000; SameSite=Lax`;
  const url = new URL(location.href);
  url.searchParams.set("lang", DATA.lang);
  location.replace(url.toString());
}
document.documentElement.lang = DATA.lang;
translate();
mountPicker();
