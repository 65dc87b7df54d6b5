// The Puzzles screen (docs/puzzles.md), fetched when first shown: a decision of someone
// else's finished match where one action is clearly best, shown exactly as the API gives it
// (the seat's hand, the stakes, who acted how, the legal actions); your choice, by button or
// by its key, graded by the server: the best action, each action's exact value, your puzzle
// rating before and after; then the next puzzle.
import { Problem } from "./api.js";
import { card } from "./cards.js";
import { $, api, guarded, locale, num, say, showScreen, state, tr, trAny } from "./core.js";
import { isolate, numbers } from "./fractions.js";
import { keyLabel } from "./keys.js";
import { h } from "./words.js";

/** @typedef {import('./schema').components['schemas']['Puzzle']} Puzzle */
/** @typedef {import('./schema').components['schemas']['PuzzleGrade']} Grade */
/** @typedef {import('./keys.js').Command} Command */

/** The refusals this screen says in its own words, in place of a puzzle or beside a choice. */
const REFUSALS = new Set(["no_puzzle_left", "puzzle_tried"]);

/** What the screen shows: the puzzle, once tried its grade, or the API's refusal's code. */
let view = /** @type {{ puzzle: Puzzle | null, grade: Grade | null, refused: string | null }} */ ({ puzzle: null, grade: null, refused: null });

/** Asks the API for the next puzzle near your puzzle rating and shows it; a refusal the screen
 * knows (none left) is shown on it, any other goes to the status line as elsewhere. */
export async function open() {
  try {
    view = { puzzle: await api.get("/puzzles/next"), grade: null, refused: null };
  } catch (error) {
    if (!(error instanceof Problem && REFUSALS.has(error.code))) throw error;
    view = { puzzle: null, grade: null, refused: error.code };
  }
  say("");
  draw();
}

/** Draws the screen as it stands, focused on its heading, or on the grade once there is one,
 * unless a language switch (`focus` false) keeps the focus where it is. */
export function draw(focus = true) {
  state.screen = "puzzles";
  const { puzzle, grade, refused } = view;
  const body = h(
    "section",
    { class: "panel puzzles", id: "puzzles", "aria-labelledby": "puzzle-title" },
    h("h2", { id: "puzzle-title", tabindex: -1, text: tr("puzzles_title") }),
    ...(puzzle ? position(puzzle) : []),
    ...(puzzle && grade ? graded(grade) : puzzle && !refused ? [choices(puzzle)] : []),
    ...(refused ? [h("p", { id: "puzzle-refused", tabindex: -1, text: trAny(`problem_${refused}`) })] : []),
    h("div", { class: "row" }, ...nextStep(), lobbyButton()),
  );
  $("main").replaceChildren(body);
  if (!focus) return;
  const target = grade ? "puzzle-graded" : refused ? "puzzle-refused" : "puzzle-title";
  $(target).focus();
}

/** A seat told by its place after yours, as the puzzle tells it: play passes to the right, so
 * the seat after yours sits on your right. @param {number} place */
const seatWords = (place) => trAny(`puzzle_seat_${place}`);

/** A puzzle rating (mu - 3 sigma, a float) to two places in the page's digits. @param {number} value */
const rating = (value) => numbers(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);

/** The position as its seat saw it. @param {Puzzle} puzzle */
function position(puzzle) {
  const spot = puzzle.position;
  const seats = spot.seats.map((seat) => {
    const flags = [seat.position === spot.dealer && tr("dealer"), seat.folded && tr("folded"), seat.looked && !seat.folded && tr("looked")];
    const line = [`${seatWords(seat.position)}: ${tr("stake")} ${num(seat.stake)}`, ...flags.filter(Boolean)].join(" · ");
    return h("li", { "data-place": seat.position, text: line });
  });
  const hand = h("div", { class: "hand", id: "puzzle-hand", role: "group", "aria-label": tr("your_cards") });
  for (let i = 0; i < 5; i++) hand.append(card(spot.hand?.[i] ?? null, spot.hand ? trAny(spot.hand[i]) : tr("card_down")));
  const moves = spot.moves.map((move) => h("li", { "data-place": move.position, "data-action": move.action, text: `${seatWords(move.position)}: ${trAny(move.action)}` }));
  return [
    h("p", { id: "puzzle-ratings", text: tr("puzzle_ratings", { yours: rating(puzzle.your_rating), its: rating(puzzle.rating) }) }),
    h("p", { text: tr("puzzle_prompt") }),
    h("p", { id: "puzzle-pot", text: `${tr("pot")}: ${num(spot.pot)} · ${tr("high_stake")}: ${num(spot.high_stake)}` }),
    h("ul", { id: "puzzle-seats" }, ...seats),
    hand,
    h("h3", { text: tr("before_you") }),
    moves.length ? h("ol", { id: "puzzle-moves" }, ...moves) : h("p", { id: "puzzle-moves", text: tr("puzzle_no_moves") }),
  ];
}

/** A button with its key (keys.js), shown on the player's layout, pressed by that key too.
 * @param {Command} command @param {string} label @param {() => Promise<void>} run @param {string} [cls] */
function keyed(command, label, run, cls = "play") {
  const key = keyLabel(command);
  const element = h("button", { type: "button", class: cls, "data-command": command, "aria-keyshortcuts": key }, label, h("kbd", { "aria-hidden": "true", text: key }));
  element.addEventListener("click", () => guarded(run));
  return element;
}

/** The legal actions, one button and one key each. @param {Puzzle} puzzle */
function choices(puzzle) {
  const buttons = puzzle.actions.map((action) => {
    const choice = keyed(/** @type {Command} */ (action), trAny(action), () => choose(puzzle, action));
    choice.dataset.choice = action;
    return choice;
  });
  return h(
    "div",
    {},
    h("h3", { id: "puzzle-choose", text: tr("choose_again") }),
    h("div", { class: "actions", role: "group", "aria-labelledby": "puzzle-choose" }, ...buttons),
  );
}

/** Sends the choice; the grade is the server's. A second try (from another tab, or a retry
 * whose first answer was lost) is refused: said on the screen, with the next puzzle offered.
 * @param {Puzzle} puzzle @param {string} action */
async function choose(puzzle, action) {
  try {
    view = { puzzle, grade: await api.write(`/puzzles/${puzzle.id}/try`, { action }), refused: null };
  } catch (error) {
    if (!(error instanceof Problem && REFUSALS.has(error.code))) throw error;
    view = { puzzle, grade: null, refused: error.code };
  }
  draw();
}

/** An exact value as the API writes it ("-7/6", or fractions of sixty digits and more), in
 * the page's digits and signs, digit for digit: never through a float, which would round it.
 * @param {string} text @param {boolean} [sign] */
function exact(text, sign = true) {
  const format = numbers(locale(), { signDisplay: "always" });
  const mark = (/** @type {number} */ n) => format.formatToParts(n).find((part) => part.type.endsWith("Sign"))?.value ?? "";
  const digits = (/** @type {string} */ run) => run.replace(/\d/g, (d) => numbers(locale()).format(Number(d)));
  const negative = text.startsWith("-");
  const figures = digits(negative ? text.slice(1) : text);
  return isolate((negative ? mark(-1) : sign && text !== "0" ? mark(1) : "") + figures);
}

/** A rounded figure, two places in the page's digits. @param {number} value @param {boolean} [sign] */
const roughly = (value, sign = true) =>
  numbers(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: sign ? "exceptZero" : "auto" }).format(value);

/** The grade: solved or not, the best action, every action's exact value (and rounded), the
 * themes, your puzzle rating before and after and the puzzle's. @param {Grade} grade */
function graded(grade) {
  const verdict = grade.solved
    ? tr("puzzle_solved", { action: trAny(grade.best) })
    : tr("puzzle_missed", { action: trAny(grade.action), best: trAny(grade.best), rounded: roughly(grade.lost_rounded, false) });
  const head = [tr("hint_action"), tr("puzzle_rounded"), tr("puzzle_exact")];
  const rows = grade.values.map((v) => {
    const marks = [v.best && tr("grade_best"), v.action === grade.action && tr("puzzle_yours")].filter(Boolean);
    return h(
      "tr",
      { "data-action": v.action, "data-value": v.value, class: v.best ? "best" : "" },
      h("th", { scope: "row", text: trAny(v.action) + (marks.length ? ` (${marks.join(", ")})` : "") }),
      h("td", { text: `≈${roughly(v.value_rounded)}` }),
      h("td", { class: "exact", text: exact(v.value) }),
    );
  });
  const themes = grade.themes.map((theme) => trAny(`theme_${theme}`));
  return [
    h("p", { id: "puzzle-graded", tabindex: -1, "data-solved": String(grade.solved), "data-best": grade.best, text: verdict }),
    ...(grade.solved ? [] : [h("p", { id: "puzzle-lost", class: "exact", text: tr("puzzle_exact_loss", { lost: exact(grade.lost, false) }) })]),
    h(
      "table",
      { id: "puzzle-values" },
      h("caption", { text: tr("values") }),
      h("thead", {}, h("tr", {}, ...head.map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, ...rows),
    ),
    ...(themes.length ? [h("p", { id: "puzzle-themes", text: tr("puzzle_themes", { themes: new Intl.ListFormat(locale(), { type: "conjunction" }).format(themes) }) })] : []),
    h("p", { id: "puzzle-rating-change", text: tr("puzzle_rating_change", { before: rating(grade.rating_before), after: rating(grade.rating) }) }),
    h("p", { id: "puzzle-its-rating", text: tr("puzzle_its_rating", { rating: rating(grade.puzzle_rating) }) }),
  ];
}

/** The next puzzle, once this one is graded or refused (none is left: the lobby alone). */
function nextStep() {
  if (view.refused === "no_puzzle_left" || !(view.grade || view.refused)) return [];
  return [keyed("next", tr("puzzle_next"), open)];
}

function lobbyButton() {
  const lobby = h("button", { type: "button", class: "quiet", id: "puzzles-lobby", text: tr("lobby") });
  lobby.addEventListener("click", () => guarded(() => showScreen("lobby")));
  return lobby;
}
