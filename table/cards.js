// Card faces drawn in SVG: each rank its own emblem, no images.

const EMBLEMS = {
  As: '<circle cx="30" cy="45" r="14"/><circle cx="30" cy="45" r="6" class="hole"/>',
  Shah: '<path d="M14 56 L14 36 L22 44 L30 30 L38 44 L46 36 L46 56 Z"/>',
  Bibi: '<path d="M30 30 C42 30 44 44 30 60 C16 44 18 30 30 30 Z"/>',
  Sarbaz: '<path d="M28 28 H32 V50 H38 V54 H32 V62 H28 V54 H22 V50 H28 Z"/>',
  Couli: '<path d="M30 30 L44 46 L30 62 L16 46 Z"/>',
};

const SVG = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false"';

/**
 * @param {string | null} rank null draws the back
 * @param {string} label the card's accessible name
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
      }</g><text x="6" y="16" class="corner">${rank[0]}</text>`
    : '<rect x="1" y="1" width="58" height="82" rx="6" class="cloth"/><path d="M10 12 L50 72 M50 12 L10 72" class="weave"/>';
  element.innerHTML = `<svg ${SVG}>${inner}</svg>`;
  return element;
}
