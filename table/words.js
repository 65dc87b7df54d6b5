// Words on the table's pages: catalogue text with plurals, the page's digits and isolated
// values, written into elements with each isolated run as a <bdi>.
import { FSI, isolate, numbers, PDI } from "./fractions.js";
import { LANGUAGES, store } from "./look.js";

/** The page's language, as useLanguage set it. */
export const locale = () => document.documentElement.lang || "en";
/** A whole number in the page's language (Persian digits in Persian), isolated. @param {number} n */
export const num = (n) => isolate(numbers(locale()).format(n));

/** The language a page opens in: `?lang=`, else the one last chosen in this browser, else
 * the browser's own. */
export const firstLanguage = () =>
  new URLSearchParams(location.search).get("lang") || store.get("lang") || navigator.language.slice(0, 2);

/** The last language asked for, as useLanguage answers it.
 * @type {Promise<typeof import('./i18n/en.js').default> | null} */
let latest = null;

/**
 * The catalogue of `lang` (English where the table does not speak it), made the page's
 * language and direction and remembered in this browser, for every page of the table; or,
 * when another language was chosen before its words came, that one's.
 * @param {string} lang @returns {Promise<typeof import('./i18n/en.js').default>}
 */
export function useLanguage(lang) {
  const code = lang in LANGUAGES ? lang : "en";
  /** @type {Promise<typeof import('./i18n/en.js').default>} */
  const loading = import(`./i18n/${code}.js`).then(({ default: catalogue }) => {
    // Another language chosen while this one's words loaded: the last choice wins, or a
    // catalogue that arrived late turned the page back to a language no longer chosen.
    if (latest && latest !== loading) return latest;
    store.set("lang", code);
    document.documentElement.lang = code;
    document.documentElement.dir = catalogue.dir;
    return catalogue;
  });
  latest = loading;
  return loading;
}

/**
 * @param {string} tag @param {Record<string, string | boolean | number>} [attrs]
 * @param {...(Node | string | null | false)} children
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false) continue;
    if (name === "text") fill(element, String(value));
    else element.setAttribute(name, value === true ? "" : String(value).replace(/[\u2068\u2069]/g, ""));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** Writes `text` into `element`, each isolated run (FSI … PDI, nested) as a <bdi>.
 * @param {HTMLElement} element @param {string} text */
export function fill(element, text) {
  element.replaceChildren();
  const open = [element];
  for (const part of text.split(/([\u2068\u2069])/)) {
    if (part === FSI) open.push(open[open.length - 1].appendChild(document.createElement("bdi")));
    else if (part === PDI) open.length > 1 && open.pop();
    else if (part) open[open.length - 1].append(part);
  }
}

/** Every event type of a match, as the catalogue has its log line (`event_<type>`):
 * tests/clients/test_event_catalogue.py checks each catalogue's against openapi.yaml.
 * @param {Record<string, unknown>} catalogue @returns {string[]} */
export const eventTypes = (catalogue) =>
  Object.keys(catalogue)
    .filter((key) => key.startsWith("event_"))
    .map((key) => key.slice("event_".length));

/**
 * The catalogue's text for `key`: the plural form for `vars.n` (Intl.PluralRules) where it has
 * forms, numbers in the page's digits, and every value isolated from the sentence.
 * @param {Record<string, any>} catalogue @param {string} locale @param {string} key
 * @param {Record<string, string | number>} [vars]
 */
export function translate(catalogue, locale, key, vars = {}) {
  /** @type {string | Record<string, string>} */
  const entry = catalogue[key] ?? key;
  const text =
    typeof entry === "string" ? entry : (entry[new Intl.PluralRules(locale).select(Number(vars.n ?? 0))] ?? entry.other);
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return isolate(typeof value === "number" ? numbers(locale).format(value) : value);
  });
}
