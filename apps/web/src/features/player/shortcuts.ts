import { currentItem, next, playerState, previous, seekBy, setVolume, toggleMute, togglePlay } from "./player-store";

const SEEK_STEP_SEC = 5;
const VOLUME_STEP = 0.1;

/** The shortcuts, as the queue panel lists them. */
export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: "Space", does: "Play or pause" },
  { keys: "← / →", does: `Back or forward ${SEEK_STEP_SEC} seconds` },
  { keys: "Shift + ↑ / ↓", does: "Volume up or down" },
  { keys: "N / P", does: "Next or previous song" },
  { keys: "M", does: "Mute or unmute" },
];

// Where a key means typing, or the focused control's own keys (a slider's arrows, a button's space).
const TYPING = "input, textarea, select, [contenteditable]:not([contenteditable='false'])";
const OWN_KEYS =
  "button, a[href], summary, audio, video, [role='button'], [role='slider'], [role='tab'], [role='menuitem'], " +
  "[role='option'], [role='checkbox'], [role='radio'], [role='switch'], [role='listbox'], [role='menu'], " +
  "[role='combobox'], [role='gridcell']";

function targetOf(event: KeyboardEvent): Element | null {
  return event.target instanceof Element ? event.target : null;
}

/** What a key does to the player, or null when it is not a shortcut here (typing, a control's own key). */
export function shortcutFor(event: KeyboardEvent): (() => void) | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return null;
  const target = targetOf(event);
  if (target?.closest(TYPING)) return null;
  // An open dialog (the queue panel, a report) keeps its keys.
  if (target?.closest("[role='dialog'], [role='alertdialog']")) return null;
  const ownKeys = !!target?.closest(OWN_KEYS);
  switch (event.key) {
    case " ":
      return ownKeys ? null : togglePlay;
    case "ArrowLeft":
      return ownKeys || event.shiftKey ? null : () => seekBy(-SEEK_STEP_SEC);
    case "ArrowRight":
      return ownKeys || event.shiftKey ? null : () => seekBy(SEEK_STEP_SEC);
    // Plain up/down keep scrolling the page; with Shift they set the volume.
    case "ArrowUp":
      return event.shiftKey && !ownKeys ? () => setVolume(playerState().volume + VOLUME_STEP) : null;
    case "ArrowDown":
      return event.shiftKey && !ownKeys ? () => setVolume(playerState().volume - VOLUME_STEP) : null;
    case "n":
    case "N":
      return next;
    case "p":
    case "P":
      return previous;
    case "m":
    case "M":
      return toggleMute;
    default:
      return null;
  }
}

/** Listen for the shortcuts on the whole page while the player has a song and they are on; returns the stop. */
export function installShortcuts(): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (!playerState().shortcuts || !currentItem()) return;
    const action = shortcutFor(event);
    if (!action) return;
    event.preventDefault();
    action();
  };
  window.addEventListener("keydown", onKey);
  return () => window.removeEventListener("keydown", onKey);
}
