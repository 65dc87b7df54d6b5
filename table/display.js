// The settings bar's Display panel and Rules button, shared by the table (app.js) and the
// spectators' page (watch.js): each page gives its catalogue's words.
import { numbers } from "./fractions.js";
import { applyLook, slider, SLIDERS, store } from "./look.js";
import { fill, h, locale } from "./words.js";

/** @typedef {(key: string) => string} Words */

/** The Display settings: Contrast, Grain and Color temperature sliders, applied as they move
 * and kept in this browser, and Motion. Folded away on a phone, where they would push the
 * table below the fold; a redraw keeps them as the player left them.
 * @param {Words} tr */
export function displaySettings(tr) {
  const percent = (/** @type {number} */ value) =>
    numbers(locale(), { style: "percent" }).format(value / 100);
  /** @param {typeof SLIDERS[number]} name */
  const range = (name) => {
    const input = /** @type {HTMLInputElement} */ (h("input", { id: name, type: "range", min: 0, max: 100, step: 5, value: slider(name) }));
    const shown = h("output", { for: name, text: percent(slider(name)) });
    input.addEventListener("input", () => {
      store.set(name, input.value);
      fill(shown, percent(Number(input.value)));
      applyLook();
    });
    return h("label", { for: name }, h("span", { text: tr(name) }), input, shown);
  };
  const motion = /** @type {HTMLSelectElement} */ (h("select", { id: "motion" }));
  for (const choice of ["system", "full", "reduced"]) motion.append(h("option", { value: choice, text: tr(choice) }));
  motion.value = store.get("motion") || "system";
  motion.addEventListener("change", () => (store.set("motion", motion.value), applyLook()));
  const wasOpen = /** @type {HTMLDetailsElement | null} */ (document.getElementById("look"))?.open;
  const look = /** @type {HTMLDetailsElement} */ (
    h(
      "details",
      { id: "look", class: "look" },
      h("summary", { text: tr("display") }),
      h("div", { class: "settings" }, ...SLIDERS.map(range), h("label", { for: "motion" }, h("span", { text: tr("motion") }), motion)),
    )
  );
  look.open = wasOpen ?? matchMedia("(min-width: 40rem)").matches;
  return look;
}
