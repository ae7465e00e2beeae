import type { Locator, Page } from "@playwright/test";
import { MESSAGES, type Song } from "@unheard/shared";
import { uniqueSongWav } from "./support/audio-fixtures";
import { as, expect, toastWith, unique } from "./support/fixtures";
import { mailCount } from "./support/mail";
import { apiAs, approvedMembers, closeAll, createMember, memberPage } from "./support/members";
import { test } from "./support/pending-lock";
import { songCard, uploadSong } from "./support/songs";

// Issue 28: every action by keyboard alone, in a sensible order, with focus always visible. A member votes on a
// pending song, reports a song through the report dialog and uploads a song, with Tab, Shift+Tab, Enter, Space,
// the arrow keys and Escape only: no clicks. The one exception is the audio file, which a system file picker (not
// the page) would choose: the test sets it once the keyboard has reached the file field.

// The songs here must stay pending while a test looks at them.
test.use({ holdsPendingSongs: true });

/**
 * Where focus is, in the page: whether it is on `target`, whether it shows (an outline, or a ring, a box-shadow with
 * no offset and no blur, on the element or on its label: a file input hidden in its drop zone rings the label), and
 * what it is, for a failure message.
 */
function focusState(target: Element | null) {
  const el = document.activeElement;
  const shows = (e: Element) => {
    const cs = getComputedStyle(e);
    const outline = cs.outlineStyle !== "none" && Number.parseFloat(cs.outlineWidth) > 0;
    return outline || /0px 0px 0px [1-9]/.test(cs.boxShadow);
  };
  const labels = el instanceof HTMLInputElement && el.labels ? Array.from(el.labels) : [];
  // The calendar button inside a date input (Chromium's own shadow DOM, where :focus does not reach the input)
  // draws Chromium's own focus box.
  const inDatePicker = el instanceof HTMLInputElement && el.type === "date" && !el.matches(":focus");
  const name = el ? (el.getAttribute("aria-label") ?? (el.textContent ?? "").trim().slice(0, 40)) : "";
  return {
    reached: el === target,
    shown: inDatePicker || (el instanceof HTMLElement && [el, ...labels].some(shows)),
    what: el ? `${el.outerHTML.slice(0, 160)} "${name}"` : "nothing",
  };
}

/**
 * Press Tab (Shift+Tab with `back`) until `target` has focus, at most `max` times; every element focused on the
 * way must show its focus. Returns how many presses it took.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<number> {
  await expect(target).toBeVisible();
  const handle = await target.elementHandle();
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const state = await page.evaluate(focusState, handle);
    expect(state.shown, `focus is not visible on ${state.what}`).toBe(true);
    if (state.reached) return presses;
  }
  throw new Error(`${target} not reached with ${max} presses of ${back ? "Shift+Tab" : "Tab"}`);
}

/** The first Tab of a page reaches 'Skip to content'; Enter moves focus to the main area. */
async function skipToContent(page: Page): Promise<void> {
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
}

/** The toast with `text`, inside sonner's polite live region, so a screen reader says it. */
async function expectAnnounced(page: Page, text: string) {
  const toast = toastWith(page, text);
  await expect(toast).toBeVisible();
  await expect(page.locator('section[aria-live="polite"]').filter({ has: toast })).toHaveCount(1);
}

test("a member votes on a pending song from the pending grid with the keyboard", async ({ browser }) => {
  const [uploader, voter] = await approvedMembers("kb-owner", "kb-voter");
  const title = `Keyboard Vote ${unique()}`;
  await uploadSong(uploader.api, { title, artists: ["Tab Order"] });
  const { context, page } = await memberPage(browser, voter);
  await page.goto("/pending");
  const card = songCard(page, title);
  await expect(card).toBeVisible();

  // Skip past the menus, then through the grid to the card: its title, artist, preview, queue, votes, favourite.
  await skipToContent(page);
  await tabTo(page, card.getByRole("link", { name: title }));
  await page.keyboard.press("Tab");
  await expect(card.getByRole("link", { name: "Tab Order" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(card.getByRole("button", { name: `Play ${title}` })).toBeFocused();
  // Issue 29: the preview's queue buttons.
  await page.keyboard.press("Tab");
  await expect(card.getByRole("button", { name: `Play next: ${title}` })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(card.getByRole("button", { name: `Add to queue: ${title}` })).toBeFocused();
  await page.keyboard.press("Tab");
  const up = card.getByRole("button", { name: /^Upvote/ });
  await expect(up).toBeFocused();

  // The count is a polite live region: the new total is announced.
  await expect(card.getByTestId("vote-net").locator("xpath=..")).toHaveAttribute("aria-live", "polite");
  await page.keyboard.press("Enter");
  await expectAnnounced(page, MESSAGES.upvoted);
  await expect(up).toHaveAttribute("aria-pressed", "true");
  await expect(card.getByTestId("vote-net")).toHaveText("1 / 3");
  // Focus stays on the button while the vote is sent and after.
  await expect(up).toBeFocused();

  // The next stops: Downvote, then the favourite; Shift+Tab goes back, and Space withdraws the upvote.
  await page.keyboard.press("Tab");
  await expect(card.getByRole("button", { name: /^Downvote/ })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(card.getByRole("button", { name: new RegExp(`favorites?: ${title}$`) })).toBeFocused();
  await tabTo(page, up, { back: true, max: 2 });
  await page.keyboard.press("Space");
  await expectAnnounced(page, MESSAGES.voteRemoved);
  await expect(up).toHaveAttribute("aria-pressed", "false");
  await expect(card.getByTestId("vote-net")).toHaveText("0 / 3");
  await closeAll(context);
});

test("a member reports a song through the dialog with the keyboard; Escape and Cancel give focus back", async ({
  browser,
}) => {
  const [uploader, reporter] = await approvedMembers("kb-reported", "kb-reporter");
  const song = await uploadSong(uploader.api, { title: `Keyboard Report ${unique()}`, artists: ["Esc Key"] });
  // Only a verified song can be reported.
  const admin = await apiAs("admin");
  const verified = await admin.post(`/api/songs/${song.id}/verify`);
  expect(verified.status(), await verified.text()).toBe(200);
  await admin.dispose();

  const { context, page } = await memberPage(browser, reporter);
  await page.goto(`/song/${song.id}`);
  await expect(page.getByRole("heading", { level: 1, name: song.title })).toBeVisible();
  const report = page.getByRole("main").getByRole("button", { name: "Report", exact: true });
  const dialog = page.getByRole("dialog", { name: "Report song" });
  const focusInDialog = () => dialog.evaluate((d) => d.contains(document.activeElement));

  await skipToContent(page);
  await tabTo(page, report);

  // Enter opens it with focus inside; Escape closes it and focus is back on Report.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  expect(await focusInDialog()).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(report).toBeFocused();

  // Space opens it too. Focus is trapped: Tab and Shift+Tab go round the dialog and never leave it.
  await page.keyboard.press("Space");
  await expect(dialog).toBeVisible();
  for (const key of ["Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key);
    expect(await focusInDialog(), `focus left the dialog after ${key}`).toBe(true);
  }
  // Cancel closes it, and focus is back on Report again.
  await tabTo(page, dialog.getByRole("button", { name: "Cancel" }), { max: 10 });
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(report).toBeFocused();

  // Now the report: the reasons are one radio group (arrow keys choose), then the details, then send.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  const radios = dialog.getByRole("radio");
  await tabTo(page, radios.first(), { max: 10 });
  await page.keyboard.press("ArrowDown");
  await expect(radios.nth(1)).toBeChecked();
  await expect(radios.nth(1)).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Details")).toBeFocused();
  await page.keyboard.type("The credits name the wrong artist");
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/api/songs/${song.id}/reports`));
  await tabTo(page, dialog.getByRole("button", { name: "Submit report" }), { max: 5 });
  await page.keyboard.press("Enter");
  expect((await sent).postDataJSON()).toMatchObject({ details: "The credits name the wrong artist" });
  await expect(dialog).toBeHidden();
  await expectAnnounced(page, MESSAGES.reportSent);
  await expect(report).toBeFocused();
  await closeAll(context);
});

test("a member uploads a song with the keyboard", async ({ browser }) => {
  test.setTimeout(60_000);
  const member = await createMember("kb-uploader", { approve: true });
  const { context, page } = await memberPage(browser, member);
  await page.goto("/upload");
  await expect(page.getByRole("heading", { level: 1, name: "Upload Song" })).toBeVisible();
  const title = `Typed Upload ${unique()}`;
  const artist = `Keyboard Artist ${unique()}`;

  await skipToContent(page);
  await tabTo(page, page.getByLabel("Title"));
  await page.keyboard.type(title);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Primary artist")).toBeFocused();
  await page.keyboard.type(artist);

  // A select chooses by typing, as a closed list box does.
  const genre = page.getByLabel("Genre");
  await tabTo(page, genre, { max: 5 });
  await page.keyboard.type("Rock");
  await expect(genre).toHaveValue("Rock");

  // The file field is reached by keyboard (its drop zone shows the focus); the file itself would come from the
  // system's picker, which is not the page.
  const file = page.getByLabel("Audio file");
  await tabTo(page, file);
  await file.setInputFiles({ name: "typed.wav", mimeType: "audio/wav", buffer: uniqueSongWav(2, 11025) });
  await expect(page.getByTestId("audio-file-name")).toHaveText("typed.wav");

  const created = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/songs"));
  await tabTo(page, page.getByRole("button", { name: "Upload Song" }), { max: 5 });
  await page.keyboard.press("Enter");
  const response = await created;
  expect(response.status(), await response.text()).toBe(201);
  const song = (await response.json()) as { id: string; genre: string };
  expect(song.genre).toBe("Rock");
  await expectAnnounced(page, MESSAGES.uploadSuccess);
  await expect(page).toHaveURL(new RegExp(`/song/${song.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await closeAll(context);
});

// Issue 38: Tab from E-mail went to "Forgot password?" (between the Password label and its field), the password
// was typed into nothing, and Enter sent a reset e-mail. Now the e-mail field has focus on arrival, Tab goes E-mail,
// Password, Log In, and "Forgot password?" (after the form) only opens the reset form.
test("a member logs in with the keyboard alone, and no press meant for logging in sends a reset e-mail", async ({
  browser,
}) => {
  const member = await createMember("kb-login");
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const mailsBefore = await mailCount(member.email);
  await page.goto("/login");
  const email = page.getByLabel("Email");
  const password = page.getByLabel("Password", { exact: true });
  const logIn = page.getByRole("button", { name: "Log In" });
  const forgot = page.getByRole("button", { name: "Forgot password?" });

  // Focus is in the e-mail field on arrival.
  await expect(email).toBeFocused();
  await page.keyboard.type(member.email);
  await tabTo(page, password, { max: 1 });
  await page.keyboard.type("not-the-password");
  await tabTo(page, logIn, { max: 1 });
  await tabTo(page, forgot, { max: 1 });
  // Back to the password, and Enter there logs in (a wrong password here): never a reset.
  await tabTo(page, password, { back: true, max: 2 });
  await page.keyboard.press("Enter");
  await expect(toastWith(page, MESSAGES.loginFailed)).toBeVisible();

  // "Forgot password?" with Enter opens the reset form, with the address carried over and focused; it sends nothing.
  await tabTo(page, forgot, { max: 4 });
  await page.keyboard.press("Enter");
  const reset = page.getByRole("form", { name: "Reset your password" });
  await expect(reset).toBeVisible();
  await expect(reset.getByLabel("Email")).toBeFocused();
  await expect(reset.getByLabel("Email")).toHaveValue(member.email);
  await tabTo(page, reset.getByRole("button", { name: "Back to log in" }), { max: 2 });
  await page.keyboard.press("Enter");
  await expect(email).toBeFocused();
  expect(await mailCount(member.email)).toBe(mailsBefore);

  // The login itself, by keyboard alone.
  await expect(email).toHaveValue(member.email);
  await tabTo(page, password, { max: 1 });
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(member.password);
  await page.keyboard.press("Enter");
  await expectAnnounced(page, MESSAGES.loginSuccess);
  await expect(page).toHaveURL(/\/$/);
  expect(await mailCount(member.email)).toBe(mailsBefore);
  await closeAll(context);
});

test.describe("as the listener", () => {
  test.use({ storageState: as("listener") });

  test("every Tab stop on the main pages shows its focus", async ({ page, request }) => {
    test.setTimeout(60_000);
    const found = await request.get("/api/search?q=Midnight%20Circuit");
    const song = ((await found.json()) as { songs: Song[] }).songs.find((s) => s.title === "Midnight Circuit");
    if (!song?.artists[0]) throw new Error("the demo song Midnight Circuit is missing");
    const pages = [
      "/",
      `/song/${song.id}`,
      `/artists/${song.artists[0].id}?view=table`,
      "/upload",
      "/landing",
      "/developers",
    ];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator("h1").first()).toBeVisible();
      // Up to 40 stops: the skip link, the menus and search, then well into the page, or to its end (focus leaves
      // the page for the browser's own controls: nothing in the page has it).
      for (let stop = 1; stop <= 40; stop++) {
        await page.keyboard.press("Tab");
        const state = await page.evaluate(focusState, null);
        if (state.what.startsWith("<body")) break;
        expect(state.shown, `${path}, stop ${stop}: focus is not visible on ${state.what}`).toBe(true);
      }
    }
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the menu sheet opens from the keyboard with focus inside, and Escape gives focus back", async ({ page }) => {
    await page.goto("/about");
    const open = page.getByRole("button", { name: "Open menu" });
    await tabTo(page, open, { max: 5 });
    await page.keyboard.press("Enter");
    const sheet = page.getByRole("dialog", { name: "Menu" });
    await expect(sheet).toBeVisible();
    await expect.poll(() => sheet.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await tabTo(page, sheet.getByRole("link", { name: "About" }), { max: 15 });
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(open).toBeFocused();
  });
});
