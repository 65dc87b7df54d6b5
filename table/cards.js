// Card faces drawn in SVG: each rank its own emblem, no images.

const EMBLEMS = {
  As: '<circle cx="30" cy="52" r="14"/><circle cx="30" cy="52" r="6" class="hole"/>',
  Shah: '<path d="M14 66 L14 46 L22 54 L30 40 L38 54 L46 46 L46 66 Z"/>',
  Bibi: '<path d="M30 38 C42 38 44 52 30 68 C16 52 18 38 30 38 Z"/>',
  Sarbaz: '<path d="M28 36 H32 V58 H38 V62 H32 V70 H28 V62 H22 V58 H28 Z"/>',
  Couli: '<path d="M30 38 L44 54 L30 70 L16 54 Z"/>',
};

const SVG = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false"';

/**
 * @param {string | null} rank null draws the back
 * @param {string} label the card's name in the page's language, written on it and read aloud
 * @returns {HTMLElement}
 */
export function card(rank, label) {
  const element = document.createElement("span");
  element.className = rank ? "card face" : "card back";
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", label);
  element.dataset.rank = rank || "";
  const inner = rank
    ? `<rect x="1" y="1" width="58" height="82" rx="6" class="paper"/><g class="emblem">${
        EMBLEMS[/** @type {keyof typeof EMBLEMS} */ (rank)] || ""
      }</g><text x="30" y="20" class="corner">${label}</text>`
    : '<rect x="1" y="1" width="58" height="82" rx="6" class="cloth"/><path d="M10 12 L50 72 M50 12 L10 72" class="weave"/>';
  element.innerHTML = `<svg ${SVG}>${inner}</svg>`;
  return element;
}
