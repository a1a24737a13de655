/* The page modules that draw a game in their own way, keyed by the presentation name the
 * server sends with every view (a game's GameInfo.presentation). A game without one of its
 * own is "generic": its cards to select and its legal moves as buttons, drawn by play.js. */
import { capsaRows } from "./play-capsa.js";

export const PRESENTATIONS = { capsa_rows: capsaRows };

export const GENERIC = {};

export function presentationOf(v) {
  return (v && PRESENTATIONS[v.presentation]) || GENERIC;
}
