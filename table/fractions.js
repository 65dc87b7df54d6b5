// Exact points: the API writes them as "7/3", "-1/2" or "4"; sums stay exact.

/** @param {number} a @param {number} b @returns {number} */
const gcd = (a, b) => (b ? gcd(b, a % b) : Math.abs(a));

/** @param {string} text @returns {[number, number]} */
export function parse(text) {
  const [num, den = "1"] = text.split("/");
  return [Number(num), Number(den)];
}

/** @param {string} a @param {string} b @returns {string} */
export function add(a, b) {
  const [p, q] = parse(a);
  const [r, s] = parse(b);
  const num = p * s + r * q;
  const den = q * s;
  const g = gcd(num, den) || 1;
  return den / g === 1 ? String(num / g) : `${num / g}/${den / g}`;
}

/** For drawing only. @param {string} text */
export const approx = (text) => {
  const [num, den] = parse(text);
  return num / den;
};

/** A signed display, "+7/3", "−1/2", "0". @param {string} text */
export const signed = (text) => (text.startsWith("-") ? "−" + text.slice(1) : text === "0" ? "0" : "+" + text);
