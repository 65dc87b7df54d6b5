// Exact points: the API writes them as "7/3", "-1/2" or "4"; sums stay exact.

/** @type {Map<string, Intl.NumberFormat>} */
const formats = new Map();

/**
 * The formatter of `locale` and `options`, made once: making one takes about 20 µs in Chromium,
 * using it 0.4 µs, and a redraw of the table formats hundreds of numbers (#34).
 * @param {string} locale @param {Intl.NumberFormatOptions} [options] @returns {Intl.NumberFormat}
 */
export function numbers(locale, options = {}) {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

/** @param {number} a @param {number} b @returns {number} */
const gcd = (a, b) => (b ? gcd(b, a % b) : Math.abs(a));

/** @param {string} text @returns {[number, number]} */
export function parse(text) {
  const [num, den = "1"] = text.split("/");
  return [Number(num), Number(den)];
}

/** The API's exact "7/3", "-1/2" or "4" as BigInts, for sums and comparisons that must not
 * round. @param {string} text @returns {[bigint, bigint]} */
export function exactParts(text) {
  const [num, den = "1"] = text.split("/");
  return [BigInt(num), BigInt(den)];
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

/** First-strong isolation marks: a number or a name keeps its own direction inside a sentence
 * of the other (a "+1" in Persian, a Persian name in English). The page turns each isolated
 * run into a <bdi>. */
export const FSI = "\u2068";
export const PDI = "\u2069";
/** @param {string} text */
export const isolate = (text) => FSI + text + PDI;

/**
 * Exact points in the page's language: its digits, its signs, "7/3" as "۷/۳" in Persian.
 * @param {string} text the API's "7/3", "-1/2" or "4" @param {string} locale @param {boolean} [sign]
 */
export function points(text, locale, sign = false) {
  const [num, den] = parse(text);
  const format = numbers(locale, { signDisplay: sign ? "exceptZero" : "auto", useGrouping: false });
  const digits = numbers(locale, { useGrouping: false });
  return isolate(format.format(num) + (den === 1 ? "" : "/" + digits.format(den)));
}

/**
 * A skill figure (docs/skill.md) in the page's language, signed: exact while short ("+1",
 * "−3/4"), else rounded to two decimals and marked "≈", the one sign that says "rounded" in
 * every language the table speaks (its numerator and denominator run to fifty digits).
 * Not isolated: a sentence's placeholder isolates it.
 * @param {string} text the API's exact fraction @param {string} locale
 */
function figure(text, locale) {
  const [num, den = "1"] = text.split("/");
  if (num.length + den.length <= 8) {
    const format = numbers(locale, { signDisplay: "exceptZero", useGrouping: false });
    const digits = numbers(locale, { useGrouping: false });
    return format.format(Number(num)) + (den === "1" ? "" : "/" + digits.format(Number(den)));
  }
  const [n, d] = [BigInt(num), BigInt(den)];
  const size = (n < 0n ? -n : n) * 200n + d; // rounded half away from zero, in BigInt
  const hundredths = Number(size / (2n * d)) * (n < 0n ? -1 : 1);
  const rounded = numbers(locale, { signDisplay: "exceptZero", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `≈${rounded.format(hundredths / 100)}`;
}

/**
 * A seat's three skill figures in the page's language, each a sentence's value
 * (result.js, skillLine). @param {{ cards: string, play: string, table: string }} skill @param {string} locale
 */
export const skillFigures = (skill, locale) => ({
  cards: figure(skill.cards, locale),
  play: figure(skill.play, locale),
  table: figure(skill.table, locale),
});
