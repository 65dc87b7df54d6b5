// The review of your decisions (docs/review.md) as the match table reads it: fetched once the
// server has worked it out, and the one-line verdict a deal's end shows. The review screen
// itself (review.js) is fetched when it is first opened.
import { Problem } from "./api.js";
import { api, guarded, locale, say, showScreen, state, tr } from "./core.js";
import { isolate } from "./fractions.js";
import { h } from "./words.js";

/** @typedef {import('./schema').components['schemas']['Review']} Review */
/** @typedef {Review['seats'][number]['deals'][number]} ReviewDeal */

/** How many times a review still being worked out is asked for again, Retry-After apart. */
const WAITS = 20;

/** The review of match `id`; while the server answers review_pending (a deal just ended), the
 * status line says so and the page asks again after Retry-After. @param {string} id @returns {Promise<Review>} */
export async function reviewWhenReady(id) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.get(`/matches/${id}/review`);
    } catch (error) {
      if (!(error instanceof Problem) || error.code !== "review_pending" || attempt >= WAITS) throw error;
      say(() => tr("review_waiting"));
      await new Promise((resolve) => setTimeout(resolve, 1000 * (error.retryAfter || 1)));
    }
  }
}

/** Points in the page's language, to two decimals, isolated. @param {number} value @param {boolean} [sign] */
export const rounded = (value, sign = false) =>
  isolate(new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: sign ? "exceptZero" : "auto" }).format(value));

/** "2 decisions, 1 mistake: −0.42" (mistakes and blunders both count as mistakes). @param {ReviewDeal} deal */
export function verdictWords(deal) {
  const classed = deal.decisions.filter((decision) => decision.grade !== null).length;
  const mistakes = deal.counts.mistake + deal.counts.blunder;
  return tr("verdict", { decisions: tr("decisions", { n: classed }), mistakes: tr("mistakes", { n: mistakes }), lost: rounded(-deal.lost_rounded, true) });
}

/** Your review once a deal has ended, for its verdict, said after what the deal's end said;
 * none at a table of several humans before the match ends (it answers review_not_yet).
 * Whether there is one to show. */
export async function readReview() {
  const match = state.match;
  if (!match || (match.humans > 1 && match.status !== "finished")) return false;
  const said = state.said;
  try {
    state.review = await reviewWhenReady(match.id);
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    say(() => tr("review_missing"), "error");
    return false;
  }
  const deal = lastReviewed();
  if (deal) say(() => [said?.(), verdictWords(deal)].filter(Boolean).join(" · "));
  return true;
}

/** The review's deal that the table shows the result of, if it is reviewed. */
function lastReviewed() {
  const last = state.match?.last_deal;
  const mine = state.review?.seats[0];
  if (!last || !mine || state.review?.id !== state.match?.id) return null;
  return mine.deals.find((deal) => deal.series === state.match?.series && deal.deal_number === last.deal_number) ?? null;
}

/** The verdict under a deal's result, and at the match's end the way to the review screen. */
export function verdictPanel() {
  const deal = lastReviewed();
  const open = h("button", { type: "button", id: "open-review", text: tr("review") });
  open.addEventListener("click", () =>
    guarded(async () => {
      const match = /** @type {NonNullable<typeof state.match>} */ (state.match);
      state.review = await reviewWhenReady(match.id);
      await showScreen("review");
    }),
  );
  return [
    ...(deal ? [h("p", { id: "verdict", class: "verdict", text: verdictWords(deal) })] : []),
    ...(state.match?.status === "finished" ? [open] : []),
  ];
}
