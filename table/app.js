// The As-Nas table: one human against three AI seats, or friends at one table, through the
// public API only. This module starts the page: the settings bar, the keyboard's shortcuts,
// and the first screen (start.js; core.js fetches each screen when it is first shown).
import { $, fetched, guarded, openMatch, say, screen, showScreen, state, tokenKey, tr, trAny } from "./core.js";
import { displaySettings } from "./display.js";
import { commandOf, readLayout } from "./keys.js";
import { applyLook, LANGUAGES, store } from "./look.js";
import { firstLanguage, h, useLanguage } from "./words.js";

/** @param {string} lang */
async function setLanguage(lang) {
  state.t = await useLanguage(lang);
  document.title = tr("title");
  $("brand").textContent = tr("brand");
  renderSettings();
  redraw();
}

/** Every screen in the language now chosen, the status line included; focus stays put. */
function redraw() {
  if (state.screen === "match") fetched.match?.render();
  else if (state.screen) fetched[state.screen]?.draw(false);
  if (state.said) say(state.said, $("status").dataset.kind === "error" ? "error" : "info");
  const rules = /** @type {HTMLDialogElement | null} */ (document.getElementById("rules"));
  // Open, the rules' module is fetched already.
  if (rules?.open) import("./rules.js").then(({ rulesContent }) => rules.replaceChildren(...rulesContent()));
}

function renderSettings() {
  /** @param {string} id @param {string} label @param {Record<string, string>} options @param {string} value @param {(v: string) => void} change */
  const select = (id, label, options, value, change) => {
    const element = /** @type {HTMLSelectElement} */ (h("select", { id }));
    for (const [key, text] of Object.entries(options)) element.append(h("option", { value: key, text }));
    element.value = value;
    element.addEventListener("change", () => change(element.value));
    return h("label", { for: id }, h("span", { text: label }), element);
  };
  const rules = h("button", { type: "button", id: "open-rules", class: "quiet", text: tr("rules") });
  // The rules' module (with its example hands) is fetched when they are first opened.
  rules.addEventListener("click", async () => (await import("./rules.js")).showRules());
  const look = displaySettings(trAny);
  $("settings").replaceChildren(select("lang", tr("language"), LANGUAGES, store.get("lang") || "en", setLanguage), rules, look);
}

// Keyboard shortcuts: a physical key presses the button of its command (keys.js), on any
// layout and in every language. Not while a dialog is open: it has the keyboard.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest("input, select, textarea") || document.querySelector("dialog[open]")) return;
  /** @type {Map<string, HTMLButtonElement>} */
  const buttons = new Map();
  for (const button of document.querySelectorAll("button[data-command][aria-keyshortcuts]:not([disabled])"))
    buttons.set(/** @type {HTMLButtonElement} */ (button).dataset.command ?? "", /** @type {HTMLButtonElement} */ (button));
  const command = commandOf(event, buttons.keys());
  if (command) {
    event.preventDefault();
    buttons.get(command)?.click();
  }
});
// The buttons show the player's own characters once the browser has said what they are.
readLayout().then(() => fetched.match?.renderActions());

for (const query of ["(prefers-reduced-motion: reduce)", "(prefers-contrast: more)"])
  matchMedia(query).addEventListener("change", applyLook);

async function start() {
  applyLook();
  await setLanguage(firstLanguage());
  const fragment = new URLSearchParams(location.hash.slice(1));
  const [match, code] = [fragment.get("match"), fragment.get("invite")];
  if (match && code) state.invite = { match, code };
  const invite = state.invite;
  // A friend's invite asks a new visitor's name first: the table shows who sits at it.
  if (invite && !store.get(tokenKey)) return showScreen("login");
  if (invite) return guarded(async () => (await screen("invitation")).previewTable(invite));
  const resume = store.get(tokenKey) && location.hash.match(/match=([\w-]+)/);
  if (resume)
    await guarded(async () => {
      try {
        await openMatch(resume[1]);
      } catch (error) {
        await showScreen("lobby");
        throw error;
      }
    });
  // Everyone else, returning players too, meets the seed page's first screen, focused on
  // Start game unless the visitor has moved the focus while it loaded (to the rules, say):
  // asked once it has loaded, which on a slow line or a busy machine takes seconds.
  else {
    const first = await screen("start");
    first.draw(document.activeElement === document.body);
  }
}

start();
