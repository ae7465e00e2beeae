// A press before the app has taken over a server-rendered page is kept, not lost (issue 38). The page's buttons are
// on screen from the first paint, but do nothing until the app's script has loaded and hydrated the page, which on
// a busy phone takes seconds. This small script loads first (async, in the head; vite.config.ts adds it): until
// <html data-hydrated> appears, a press on a button or a form's submission is held, the control marked busy
// (aria-busy, and [data-early-press] in index.css), and once the app is in charge each held control is pressed
// again, once, in the order first pressed. Links are left alone: they work without the app.
(() => {
  const html = document.documentElement;
  if (html.hasAttribute("data-hydrated")) return;
  /** @type {{ el: HTMLElement, kind: "click" | "submit", busy: string | null }[]} */
  const held = [];
  const CONTROL = "button, [role='button'], input[type='submit'], input[type='button']";

  /** The element of the app's page `target` is in, if it is one the app renders (inside #root). */
  const inApp = (/** @type {EventTarget | null} */ target) => {
    const root = document.getElementById("root");
    return target instanceof Element && root?.contains(target) ? target : null;
  };

  const hold = (/** @type {HTMLElement} */ el, /** @type {"click" | "submit"} */ kind) => {
    if (held.some((h) => h.el === el)) return;
    held.push({ el, kind, busy: el.getAttribute("aria-busy") });
    el.setAttribute("aria-busy", "true");
    el.setAttribute("data-early-press", "");
  };

  const onClick = (/** @type {MouseEvent} */ event) => {
    const control = inApp(event.target)?.closest(CONTROL);
    if (!(control instanceof HTMLElement) || control.matches(":disabled")) return;
    // The app's own listeners are not there yet; nothing else should act on the press either (a submit button
    // would send its form the browser's way, as a page load with the fields in the address).
    event.preventDefault();
    event.stopImmediatePropagation();
    hold(control, "click");
  };

  const onSubmit = (/** @type {SubmitEvent} */ event) => {
    const form = inApp(event.target);
    if (!(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    hold(form, "submit");
  };

  const replay = () => {
    window.removeEventListener("click", onClick, true);
    window.removeEventListener("submit", onSubmit, true);
    for (const { el, kind, busy } of held) {
      el.removeAttribute("data-early-press");
      if (busy === null) el.removeAttribute("aria-busy");
      else el.setAttribute("aria-busy", busy);
      // A control the app replaced while hydrating is not the one pressed: nothing to replay.
      if (!el.isConnected) continue;
      if (kind === "submit" && el instanceof HTMLFormElement) el.requestSubmit();
      else el.click();
    }
    held.length = 0;
  };

  window.addEventListener("click", onClick, true);
  window.addEventListener("submit", onSubmit, true);
  new MutationObserver((_, observer) => {
    if (!html.hasAttribute("data-hydrated")) return;
    observer.disconnect();
    replay();
  }).observe(html, { attributes: true, attributeFilter: ["data-hydrated"] });
})();
