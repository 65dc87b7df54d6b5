// Other seats' moves as they happen: an EventSource opened with a single-use stream ticket
// (EventSource cannot send the bearer token), resumed with a fresh ticket and ?after= after a
// drop, since the used ticket cannot open it again. Long-polling only when streams fail.
import { Problem } from "./api.js";

/** @typedef {import('./api.js').MatchEvent} MatchEvent */
/** @typedef {ReturnType<typeof import('./api.js').apiClient>} Api */

/** Drops in a row, with nothing received, before streams count as failed. */
const GIVE_UP = 3;
const LONG_POLL_SECONDS = 25;

const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows match `id` from seq `after`, handing each event (in seq order, none twice) to `onEvent`.
 * `types` names every event type of a match (words.js eventTypes): EventSource dispatches each
 * SSE `event:` name on its own.
 * @param {Api} api @param {string} id @param {number} after @param {(event: MatchEvent) => void} onEvent
 * @param {string[]} types
 * @returns {{ stop: () => void, mode: () => string }}
 */
export function follow(api, id, after, onEvent, types) {
  let stopped = false;
  let last = after;
  let mode = "stream";
  /** @type {EventSource | null} */
  let source = null;

  /** @param {MatchEvent} event */
  const deliver = (event) => {
    if (stopped || event.seq <= last) return;
    last = event.seq;
    onEvent(event);
    // The server ends the stream here: the match is over, or every human has left. (It also
    // ends a leaver's stream at their own seat_freed, where the page stops following.)
    if (event.type === "match_finished" || (event.type === "player_left" && event.abandoned)) stop();
  };

  const stop = () => {
    stopped = true;
    source?.close();
  };

  /** @param {number} drops failed openings in a row @returns {Promise<unknown>} */
  async function stream(drops = 0) {
    let ticket;
    try {
      ticket = (await api.write("/stream-tickets", { match_id: id })).ticket;
    } catch (error) {
      // No stream tickets on this server (404), or none to be had: poll instead.
      if (error instanceof Problem && error.status !== 429) return poll();
      if (drops + 1 >= GIVE_UP) return poll();
      await pause(1000 * (drops + 1));
      return stopped || stream(drops + 1);
    }
    if (stopped) return;
    const opened = new EventSource(api.url(`/matches/${id}/stream?ticket=${encodeURIComponent(ticket)}&after=${last}`));
    source = opened;
    let received = false;
    for (const type of types)
      opened.addEventListener(type, (message) => {
        received = true;
        deliver(JSON.parse(/** @type {MessageEvent} */ (message).data));
      });
    opened.onerror = () => {
      // The browser would retry with the same ticket, which is used up: open anew instead.
      opened.close();
      if (stopped) return;
      const next = received ? 0 : drops + 1;
      if (next >= GIVE_UP) poll();
      else pause(500 * next).then(() => stopped || stream(next));
    };
  }

  async function poll() {
    mode = "poll";
    let wait = `&wait=${LONG_POLL_SECONDS}`;
    while (!stopped) {
      try {
        const page = await api.get(`/matches/${id}/events?after=${last}${wait}`);
        page.events.forEach(deliver);
        if (!wait && !page.events.length) await pause(2000);
      } catch (error) {
        // A server without long-poll refuses `wait`: ask plainly, every two seconds.
        if (error instanceof Problem && error.status === 400 && wait) wait = "";
        else await pause(3000);
      }
    }
  }

  stream();
  return { stop, mode: () => mode };
}
