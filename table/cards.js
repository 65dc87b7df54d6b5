// As-Nas cards drawn in SVG for this project: the five figures of the deck, the lion (As),
// the king (Shah), the queen (Bibi), the soldier (Sarbaz) and the dancer (Couli), in a few
// lines and shapes that stay readable at a phone's size. No images to fetch.

/** The lion's mane: a ring of sixteen points around its face. */
const mane = Array.from({ length: 32 }, (_, i) => {
  const angle = (i * Math.PI) / 16;
  const r = i % 2 ? 13 : 19;
  return `${(30 + r * Math.sin(angle)).toFixed(1)},${(52 - r * Math.cos(angle)).toFixed(1)}`;
}).join(" ");

const FIGURES = {
  As:
    `<polygon points="${mane}" class="fill"/><circle cx="30" cy="52" r="11" class="skin"/>` +
    '<circle cx="26" cy="49" r="1.6" class="ink"/><circle cx="34" cy="49" r="1.6" class="ink"/>' +
    '<path d="M27 54 L33 54 L30 57 Z" class="ink"/><path d="M30 57 V59 M26 60 Q30 63 34 60" class="line"/>',
  Shah:
    '<path d="M19 34 L19 24 L24 29 L30 21 L36 29 L41 24 L41 34 Z" class="fill"/>' +
    '<path d="M14 80 Q30 50 46 80 Z" class="fill"/><circle cx="30" cy="42" r="8" class="skin"/>' +
    '<path d="M22 44 Q22 62 30 64 Q38 62 38 44 Q34 50 30 50 Q26 50 22 44 Z" class="ink"/>' +
    '<circle cx="27" cy="41" r="1.2" class="ink"/><circle cx="33" cy="41" r="1.2" class="ink"/>',
  Bibi:
    '<path d="M18 80 Q20 30 30 28 Q40 30 42 80 Z" class="fill"/><circle cx="30" cy="42" r="8" class="skin"/>' +
    '<path d="M22 33 L25 27 L30 31 L35 27 L38 33" class="line"/><circle cx="30" cy="25" r="2" class="ink"/>' +
    '<circle cx="27" cy="41" r="1.2" class="ink"/><circle cx="33" cy="41" r="1.2" class="ink"/>' +
    '<path d="M27 46 Q30 48 33 46" class="line"/><path d="M22 80 Q30 62 38 80" class="line"/>',
  Sarbaz:
    '<path d="M22 41 Q22 31 30 31 Q38 31 38 41 Z" class="ink"/><path d="M30 31 V24" class="line"/>' +
    '<circle cx="30" cy="44" r="6.5" class="skin"/><path d="M22 80 L24 55 L36 55 L38 80 Z" class="fill"/>' +
    '<path d="M45 22 V80" class="line"/><path d="M41 30 L45 20 L49 30 Z" class="ink"/>' +
    '<circle cx="20" cy="64" r="7" class="skin"/><circle cx="20" cy="64" r="2.5" class="ink"/>',
  Couli:
    '<circle cx="30" cy="31" r="5.5" class="skin"/><path d="M14 22 Q20 40 30 40 Q40 40 46 22" class="line"/>' +
    '<circle cx="46" cy="21" r="4" class="fill"/><path d="M30 37 V52" class="line"/>' +
    '<path d="M30 48 L15 72 Q30 64 45 72 Z" class="fill"/><path d="M25 70 L22 80 M35 70 L39 80" class="line"/>',
};

const SVG = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false"';

/**
 * @param {string | null} rank null draws the back
 * @param {string} label the card's name in the page's language, written on it and read aloud
 * @param {boolean} [named] writes the name under the card, for hands too small for its corner
 * @returns {HTMLElement}
 */
export function card(rank, label, named = false) {
  const element = document.createElement("span");
  element.className = rank ? "card face" : "card back";
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", label);
  element.dataset.rank = rank || "";
  const inner = rank
    ? `<rect x="1" y="1" width="58" height="82" rx="6" class="paper"/><g class="figure">${
        FIGURES[/** @type {keyof typeof FIGURES} */ (rank)] || ""
      }</g><text x="30" y="14" class="corner">${label}</text>`
    : '<rect x="1" y="1" width="58" height="82" rx="6" class="cloth"/><path d="M10 12 L50 72 M50 12 L10 72" class="weave"/>';
  element.innerHTML = `<svg ${SVG}>${inner}</svg>${named && rank ? `<span class="name" aria-hidden="true">${label}</span>` : ""}`;
  return element;
}
