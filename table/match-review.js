// Your review (docs/review.md) as the match table reads it: once the server has worked it
// out, and the one-line verdict of each deal. Its screen, review.js, comes when first opened.
import { Problem } from "./api.js";
import { api, guarded, locale, say, showScreen, state, tr } from "./core.js";
import { exactParts, isolate, numbers } from "./fractions.js";
import { h } from "./words.js";

/** @typedef {import('./schema').components['schemas']['Review']} Review */
/** @typedef {Review['seats'][number]['deals'][number]} ReviewDeal */

/** The review of match `id`: while the server answers review_pending (a deal just ended), the
 * status line says so after what it said (`said`, the deal's result: a screen reader that
 * comes to the line late still hears who won) and it is asked for again after Retry-After,
 * 60 times at most, and only while it is `wanted`.
 * @param {string} id @param {() => boolean} [wanted] @param {(() => string) | null} [said]
 * @returns {Promise<Review>} */
export async function reviewWhenReady(id, wanted = () => true, said = null) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.get(`/matches/${id}/review`);
    } catch (error) {
      if (!(error instanceof Problem) || error.code !== "review_pending" || attempt >= 60 || !wanted()) throw error;
      say(() => [said?.(), tr("review_waiting")].filter(Boolean).join(" · "));
      await new Promise((resolve) => setTimeout(resolve, 1000 * (error.retryAfter || 1)));
      if (!wanted()) throw error;
    }
  }
}

/** `value`, the API's `exact` fraction ("-7/20") rounded to `places`, in the page's language
 * and isolated, marked "≈" where the rounding changed it, as the table marks its skill
 * figures: a quarter is "0.25", a third "≈0.33".
 * @param {string} exact @param {number} value @param {boolean} [sign] @param {number} [places] */
export function rounded(exact, value, sign = false, places = 2) {
  const [num, den] = exactParts(exact);
  const changed = (num * 10n ** BigInt(places)) % den !== 0n;
  const format = numbers(locale(), { minimumFractionDigits: places, maximumFractionDigits: places, signDisplay: sign ? "exceptZero" : "auto" });
  return isolate((changed ? "≈" : "") + format.format(value));
}

/** What a decision, a deal or a match lost, as a signed loss ("≈−0.42"). @param {{ lost: string | null, lost_rounded: number | null }} of */
export const lostWords = (of) => rounded(of.lost ?? "0", -(of.lost_rounded ?? 0), true);

/** "2 decisions, 1 mistake: ≈−0.42", blunders counted as mistakes. @param {ReviewDeal} deal */
export const verdictWords = (deal) =>
  tr("verdict", {
    decisions: tr("decisions", { n: deal.decisions.filter((d) => d.grade).length }),
    mistakes: tr("mistakes", { n: deal.counts.mistake + deal.counts.blunder }),
    lost: lostWords(deal),
  });

/** Reads your review after a deal's end and says its verdict after what was said; whether
 * there is one. None at a table of several humans before the end (it answers review_not_yet).
 * Play does not wait for it: once the match has moved on, the verdict is not said. */
export async function readReview() {
  const match = state.match;
  if (!match || (match.humans > 1 && match.status !== "finished")) return false;
  const said = state.said;
  const still = () => state.match?.id === match.id && state.match.version === match.version;
  try {
    state.review = await reviewWhenReady(match.id, still, said);
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    if (still()) say(() => tr("error"), "error");
    return false;
  }
  if (!still()) return false;
  const deal = shownDeal();
  if (deal) say(() => [said?.(), verdictWords(deal)].filter(Boolean).join(" · "));
  return true;
}

/** The reviewed deal whose result the table shows, if any. */
function shownDeal() {
  const [match, review] = [state.match, state.review];
  if (!match?.last_deal || review?.id !== match.id) return null;
  return review.seats[0]?.deals.find((deal) => deal.series === match.series && deal.deal_number === match.last_deal?.deal_number) ?? null;
}

/** The verdict under a deal's result, and at the match's end the way to the review screen. */
export function verdictPanel() {
  const deal = shownDeal();
  const open = h("button", { type: "button", id: "open-review", text: tr("review") });
  open.addEventListener("click", () =>
    guarded(async () => {
      state.review = await reviewWhenReady(/** @type {string} */ (state.match?.id));
      await showScreen("review");
    }),
  );
  return [deal && h("p", { id: "verdict", text: verdictWords(deal) }), state.match?.status === "finished" && open].filter((e) => e instanceof HTMLElement);
}
