// The keyboard's shortcuts by physical key (KeyboardEvent.code): the same in every language
// and on every layout. Each button shows its key's character on the player's own layout
// (navigator.keyboard.getLayoutMap), else the English letter.

/** Each command's physical key. Leave and Resign never show together. */
export const KEYS = {
  look: "KeyL", call: "KeyC", hold: "KeyH", raise: "KeyR", fold: "KeyF",
  next: "KeyN", hint: "Slash", restart: "KeyS", resign: "KeyQ", leave: "KeyQ",
};
/** @typedef {keyof typeof KEYS} Command */

/** The characters `?` is typed as, on a layout whose key for it is not Slash's. */
const QUESTION_MARKS = new Set(["?", "؟"]);

/** The player's layout: physical key -> character, or null where the browser does not say.
 * @type {Map<string, string> | null} */
let layout = null;

/** Reads the player's layout once; the labels are English letters until it is read, and for
 * good where the browser keeps it to itself. */
export async function readLayout() {
  try {
    const keyboard = /** @type {any} */ (navigator).keyboard;
    if (keyboard?.getLayoutMap) layout = new Map(await keyboard.getLayoutMap());
  } catch {
    layout = null; // refused (a frame without the permission): the English letters stand
  }
}

/** The character shown for `command`'s key: the layout's own, upper-cased. The hint's is the
 * question mark that Shift and Slash type on an English or Persian keyboard, or the key's own
 * character on a layout that puts something else there. @param {Command} command */
export function keyLabel(command) {
  const code = KEYS[command];
  const own = layout?.get(code);
  if (code === "Slash") return !own || own === "/" ? "?" : own;
  return (own || code.slice("Key".length)).toLocaleUpperCase();
}

/** The command a key press asks for among `commands`, or null: by its physical key, and for
 * the hint by the character `?` too, wherever the layout puts it.
 * @param {KeyboardEvent} event @param {Iterable<string>} commands */
export function commandOf(event, commands) {
  for (const command of commands) {
    const code = KEYS[/** @type {Command} */ (command)];
    if (code && (event.code === code || (code === "Slash" && QUESTION_MARKS.has(event.key)))) return command;
  }
  return null;
}
