/* The four-colour deck: spades black, hearts red, diamonds blue, clubs green, for players
 * who tell suits apart by colour at a glance (and for colour-blind players, whose red and
 * black can look alike). The choice is remembered per browser (localStorage) and set as
 * data-deck="four" on <html>, which the CSS custom properties of style.css follow. Each page
 * that loads this module gets a checkbox in its header (or in [data-deck-toggle]). */
import { t } from "./i18n.js";

const KEY = "capsa.deck";

function saved() {
  try {
    return localStorage.getItem(KEY) === "four";
  } catch {
    return false;  // storage blocked: two colours
  }
}

/** Use the four-colour deck (true) or the two-colour one, and remember it. */
export function setFourColour(on) {
  document.documentElement.dataset.deck = on ? "four" : "two";
  try {
    localStorage.setItem(KEY, on ? "four" : "two");
  } catch {
    // not remembered; this page still shows it
  }
}

function toggle() {
  const host = document.querySelector("[data-deck-toggle]") || document.querySelector("header");
  if (!host || host.querySelector(".deck-toggle")) return;
  const label = document.createElement("label");
  label.className = "deck-toggle";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = "four-colour";
  box.checked = saved();
  box.addEventListener("change", () => setFourColour(box.checked));
  label.appendChild(box);
  label.appendChild(document.createTextNode(t("table.deck.four")));
  label.title = t("table.deck.four_title");
  host.appendChild(label);
}

document.documentElement.dataset.deck = saved() ? "four" : "two";
toggle();
