/* The opponent profiles this browser keeps, by player name, for the advice and play pages
 * ("use against this table" on the review page stores one). A profile is the JSON object
 * POST /v1/capsa/profile answers; the pages give it back in `opponent_profiles` as it is. */

export const PROFILES_KEY = "capsa-profiles";

/** The stored profiles, {name: profile}; nothing when storage is blocked or holds junk. */
export function storedProfiles() {
  let raw = null;
  try { raw = localStorage.getItem(PROFILES_KEY); } catch (e) { return {}; }
  if (!raw) return {};
  try {
    const d = JSON.parse(raw);
    if (!d || typeof d !== "object" || Array.isArray(d)) return {};
    const out = {};
    Object.entries(d).forEach(([name, p]) => {
      if (p && typeof p === "object" && p.format === "capsa-profile") out[name] = p;
    });
    return out;
  } catch (e) {
    return {};
  }
}

function write(all) {
  try {
    localStorage.setItem(PROFILES_KEY, JSON.stringify(all));
    return true;
  } catch (e) {
    return false;  // storage blocked or full: the caller says so
  }
}

/** Keep `profile` under `name` (replacing the one of that name); false when it cannot. */
export function storeProfile(name, profile) {
  const all = storedProfiles();
  all[name] = profile;
  return write(all);
}

/** Forget the profile of `name`. */
export function forgetProfile(name) {
  const all = storedProfiles();
  delete all[name];
  write(all);
}

/** The stored names, sorted. */
export function profileNames() {
  return Object.keys(storedProfiles()).sort((a, b) => a.localeCompare(b));
}

/* One opponent's choice among the stored profiles ``names``: a labelled select holding
 * ``chosen`` when it is stored, else the ``i``-th name (the advice page and the table's hint
 * each lay out one a seat). */
export function profileSlot(id, labelText, names, chosen, i) {
  const field = document.createElement("div");
  field.className = "field";
  const sel = document.createElement("select");
  sel.id = id;
  const label = document.createElement("label");
  label.textContent = labelText;
  label.htmlFor = id;
  names.forEach((name) => {
    const o = document.createElement("option");
    o.textContent = name;
    o.value = name;
    sel.appendChild(o);
  });
  sel.value = names.includes(chosen) ? chosen : names[i % names.length];
  field.append(label, sel);
  return { field, sel };
}
