// "Your turn" while the page is hidden: the title says so, a chime plays unless turned off,
// and a system notification shows once asked for; the clock's last seconds count down in
// the title, with the chime once more.
import { h } from "./words.js";
import { store } from "./look.js";

/** @typedef {(key: any, vars?: Record<string, string | number>) => string} Tr */

/** The page's own title, given back when the player comes back to it. */
let ownTitle = "";
/** The last turn notified, and the last clock whose last seconds chimed: once each. */
let noticed = "";
let chimedFor = "";
/** Whether the player opened the choices: the table is drawn anew at each move. */
let open = false;

const plain = (/** @type {string} */ text) => text.replace(/[\u2068\u2069]/g, "");
const soundOn = () => store.get("turn_sound") !== "off";
const notifying = () => store.get("turn_notify") === "on" && "Notification" in window && Notification.permission === "granted";

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && ownTitle) {
    document.title = ownTitle;
    ownTitle = "";
  }
});

/** A short two-note chime (Web Audio: no file to fetch). */
function chime() {
  const audio = new AudioContext();
  const gain = audio.createGain();
  gain.connect(audio.destination);
  gain.gain.setValueAtTime(0.12, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
  [660, 880].forEach((pitch, i) => {
    const tone = audio.createOscillator();
    tone.frequency.value = pitch;
    tone.connect(gain);
    tone.start(audio.currentTime + i * 0.12);
    tone.stop(audio.currentTime + 0.35);
  });
  setTimeout(() => audio.close(), 600);
}

/** Your turn `turn` (an id of the turn: the match's version) has come: told only while the
 * page is hidden, once. @param {string} turn @param {Tr} tr */
export function yourTurn(turn, tr) {
  if (!document.hidden || noticed === turn) return;
  noticed = turn;
  ownTitle ||= document.title;
  document.title = plain(tr("turn_title", { title: ownTitle }));
  if (soundOn()) chime();
  if (notifying()) new Notification(plain(tr("title")), { body: plain(tr("turn_notice")), tag: "asnas-turn", lang: document.documentElement.lang });
}

/** Your turn has passed (the clock played it): the page's own title again. */
export function turnPassed() {
  if (!ownTitle) return;
  document.title = ownTitle;
  ownTitle = "";
}

/** The clock's last seconds of your turn (the one ending at `deadline`), shown as `time`
 * in the hidden page's title; the sound once more as they begin.
 * @param {string} deadline @param {string} time @param {Tr} tr */
export function lastSeconds(deadline, time, tr) {
  if (!document.hidden) return;
  ownTitle ||= document.title;
  document.title = `${plain(time)} · ${plain(tr("turn_title", { title: ownTitle }))}`;
  if (chimedFor !== deadline && soundOn()) chime();
  chimedFor = deadline;
}

/** The chime (on until turned off) and notifications (off until asked for), folded.
 * @param {Tr} tr */
export function noticeChoices(tr) {
  const sound = /** @type {HTMLInputElement} */ (h("input", { id: "turn-sound", type: "checkbox" }));
  sound.checked = soundOn();
  sound.addEventListener("change", () => store.set("turn_sound", sound.checked ? "on" : "off"));
  const notify = /** @type {HTMLInputElement} */ (h("input", { id: "turn-notify", type: "checkbox" }));
  notify.checked = notifying();
  const refused = h("p", { id: "turn-notify-refused", role: "status" });
  notify.addEventListener("change", async () => {
    if (!notify.checked) return store.set("turn_notify", "off");
    const answer = "Notification" in window ? await Notification.requestPermission() : "denied";
    notify.checked = answer === "granted";
    store.set("turn_notify", notify.checked ? "on" : "off");
    refused.textContent = notify.checked ? "" : plain(tr("turn_notify_denied"));
  });
  const choices = /** @type {HTMLDetailsElement} */ (
    h(
      "details",
      { id: "turn-notices", class: "look" },
      h("summary", { text: tr("turn_notices") }),
      h("label", { for: "turn-sound", class: "check" }, sound, tr("turn_sound")),
      h("label", { for: "turn-notify", class: "check" }, notify, tr("turn_notify")),
      refused,
    )
  );
  choices.open = open;
  choices.addEventListener("toggle", () => (open = choices.open));
  return choices;
}
