// The choices of the page's language menu, and the look every page of the table takes from
// the table's Display settings kept in this browser: contrast, grain, color temperature, motion.

export const LANGUAGES = { en: "English", es: "Español", pl: "Polski", da: "Dansk", fr: "Français", fa: "فارسی" };
/** The look sliders, 0 to 100 %, 50 % by default (the seed page's settings bar). */
export const SLIDERS = /** @type {const} */ (["contrast", "grain", "temperature"]);

/** The table's settings in this browser's localStorage, under "asnas:NAME". */
export const store = {
  /** @param {string} name */
  get: (name) => localStorage.getItem(`asnas:${name}`),
  /** @param {string} name @param {string | null} value */
  set: (name, value) =>
    value === null ? localStorage.removeItem(`asnas:${name}`) : localStorage.setItem(`asnas:${name}`, value),
};

export function reducedMotion() {
  const choice = store.get("motion") || "system";
  return choice === "reduced" || (choice === "system" && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** The palette at 0 %, 50 % and 100 % contrast; every step between is mixed, and each one
 * keeps text at 4.5:1 or more (WCAG AA), even over the darkest speck of the strongest grain
 * (which is why muted and accent are darker than the eye alone would pick). */
const PALETTES = {
  bg: ["#e9e4d6", "#f4f1e8", "#ffffff"],
  fg: ["#3a372f", "#1d1b16", "#000000"],
  muted: ["#524d42", "#545048", "#000000"],
  paper: ["#f3efe3", "#fffdf6", "#ffffff"],
  line: ["#a39c87", "#8a8272", "#000000"],
  felt: ["#2a6b50", "#1f6b4a", "#003d1f"],
  "felt-fg": ["#f2efe4", "#f6f3e8", "#ffffff"],
  accent: ["#833427", "#932c1d", "#8b0000"],
  cloth: ["#3b5278", "#27406b", "#001e52"],
  rim: ["#7a5b3e", "#6b4a2b", "#3d2510"],
  focus: ["#1d4ea0", "#174ea6", "#0030a8"],
};
/** The page's paper, cooled (0 %) or warmed (100 %) by the color temperature. */
const TINTS = { cool: "#dde8f3", warm: "#f6e2bf" };

/** @param {string} a @param {string} b @param {number} t 0 gives a, 1 gives b */
function mix(a, b, t) {
  const channel = (/** @type {string} */ hex, /** @type {number} */ i) => parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
  return "#" + [0, 1, 2].map((i) => Math.round(channel(a, i) + (channel(b, i) - channel(a, i)) * t).toString(16).padStart(2, "0")).join("");
}

/** A slider's value, 0 to 100; the browser's "more contrast" starts Contrast at 100. @param {string} name */
export function slider(name) {
  const kept = store.get(name);
  if (kept !== null && kept !== "" && !Number.isNaN(Number(kept))) return Math.min(100, Math.max(0, Number(kept)));
  return name === "contrast" && matchMedia("(prefers-contrast: more)").matches ? 100 : 50;
}

export function applyLook() {
  const root = document.documentElement;
  const contrast = slider("contrast") / 50;
  const warmth = (slider("temperature") - 50) / 50;
  for (const [name, [low, mid, high]] of Object.entries(PALETTES)) {
    let colour = contrast <= 1 ? mix(low, mid, contrast) : mix(mid, high, contrast - 1);
    // Only the page and the paper take the tint: the text keeps its contrast.
    if (name === "bg" || name === "paper") colour = mix(colour, warmth < 0 ? TINTS.cool : TINTS.warm, Math.abs(warmth) * 0.6);
    root.style.setProperty(`--${name}`, colour);
  }
  // At most a light veil: the grain must not eat into the text contrast that axe cannot see.
  root.style.setProperty("--grain", String(slider("grain") / 500));
  root.dataset.contrast = String(slider("contrast"));
  root.dataset.motion = reducedMotion() ? "reduced" : "full";
}
