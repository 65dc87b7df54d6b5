// The API client: every write carries an Idempotency-Key, kept across retries of the same
// intent, so a double click or a lost answer never acts twice.

/** @typedef {import('./schema').components['schemas']} Schemas */
/** @typedef {Schemas['MatchView']} MatchView */
/** @typedef {Schemas['MatchEvent']} MatchEvent */
/** @typedef {Schemas['MatchSummary']} MatchSummary */
/** @typedef {MatchView & {events?: MatchEvent[]}} WriteAnswer */
/** @typedef {{type?: string, title?: string, status?: number, detail?: string, code?: string}} ProblemBody */

/** An answer that is not 2xx, with its problem body and Retry-After in seconds. */
export class Problem extends Error {
  /** @param {number} status @param {ProblemBody} body @param {number} retryAfter */
  constructor(status, body, retryAfter) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || "http_" + status;
    this.retryAfter = retryAfter;
  }
}

/** The network failed before any answer: the request may or may not have been applied. */
export class Offline extends Error {}

/** @returns {string} 32 random hex digits (crypto.randomUUID needs a secure context). */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const RETRIES = 3;

/** The server's time, from each answer's Date header: turn clocks count down by it, not by a
 * client clock that may be set wrong. Date has whole seconds, so each answer bounds the skew
 * (server minus client) from both sides; the bounds of all answers narrow it down. */
export const serverClock = {
  low: -Infinity,
  high: Infinity,
  now() {
    return Date.now() + (Number.isFinite(this.low) ? (this.low + this.high) / 2 : 0);
  },
  /** @param {Response} response @param {number} sentAt the client's time when it was asked */
  read(response, sentAt) {
    const date = Date.parse(response.headers.get("Date") ?? "");
    if (!date) return;
    // Written between sending and now, at a server time in [date, date + 1 s).
    const low = date - Date.now();
    const high = date + 1000 - sentAt;
    // Bounds that no longer meet: a clock was set; start over from this answer.
    if (low > this.high || high < this.low) [this.low, this.high] = [low, high];
    else [this.low, this.high] = [Math.max(this.low, low), Math.min(this.high, high)];
  },
};

/**
 * @param {string} base the server's root URL, "" for this page's own server
 * @param {() => string | null} token
 */
export function apiClient(base, token) {
  const root = base.replace(/\/+$/, "") + "/api/v1";

  /** @param {string} method @param {string} path @param {object | undefined} body @param {string | undefined} key */
  async function once(method, path, body, key) {
    /** @type {Record<string, string>} */
    const headers = { Accept: "application/json" };
    const bearer = token();
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["Idempotency-Key"] = key;
    let response;
    const sentAt = Date.now();
    try {
      response = await fetch(root + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new Offline();
    }
    serverClock.read(response, sentAt);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const wait = Number(response.headers.get("Retry-After")) || 0;
      throw new Problem(response.status, data, wait);
    }
    return data;
  }

  /**
   * @param {string} method @param {string} path @param {object} [body] @param {string} [key]
   * @returns {Promise<any>}
   */
  async function request(method, path, body, key) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(method, path, body, key);
      } catch (error) {
        // Safe to repeat: a read, or a write under the same key (the server answers its first outcome).
        const retryable =
          error instanceof Offline ||
          (error instanceof Problem && error.code === "idempotency_in_progress");
        if (!retryable || attempt >= RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
      }
    }
  }

  return {
    /** The address of an API path, for EventSource. @param {string} path */
    url: (path) => root + path,
    /** @param {string} path */
    get: (path) => request("GET", path),
    /** A read whose code goes in a body, never a URL: it changes nothing, so it needs no key.
     * @param {string} path @param {object} body */
    read: (path, body) => request("POST", path, body),
    /** One write intent: one key for all its attempts. @param {string} path @param {object} body */
    write: (path, body) => request("POST", path, body, newKey()),
    /** A change that is the same however often it is sent (a name): no key. @param {string} path @param {object} body */
    patch: (path, body) => request("PATCH", path, body),
  };
}
