import type { Locator, Page } from "@playwright/test";
import { SEARCH_DEBOUNCE_MS } from "@unheard/shared";
import { expect, test, unique } from "./support/fixtures";
import { songCard } from "./support/songs";

// Issue 26: the top bar's search box suggests songs and artists while typing (a WAI-ARIA combobox).

const combobox = (page: Page) => page.getByRole("combobox", { name: "Search songs" });
const listbox = (page: Page) => page.getByRole("listbox", { name: "Search suggestions" });
const group = (page: Page, name: "Artists" | "Songs") => listbox(page).getByRole("group", { name });
const liveRegion = (page: Page) => page.getByRole("search").getByRole("status");

/** Warm the server's search once, so the first suggestion is not waiting on a cold start. */
async function warmUp(page: Page): Promise<void> {
  expect((await page.request.get(`/api/search/suggest?q=warm${unique()}`)).ok()).toBe(true);
}

/**
 * Type `text` into the search box key by key and wait for `shown`, with no Enter pressed. How fast it shows is
 * measured by bench:search (suggest latency), not asserted here: a timed browser test measures the machine.
 */
async function typeUntil(page: Page, text: string, shown: Locator): Promise<void> {
  await page.keyboard.type(text);
  await shown.waitFor({ state: "visible", timeout: 5_000 });
}

/** Press ArrowDown until `option` is the active one (artists come before songs); fails past `max` presses. */
async function arrowTo(page: Page, option: Locator, max = 12): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("ArrowDown");
    if ((await option.getAttribute("aria-selected")) === "true") return;
  }
  throw new Error(`ArrowDown never reached the option after ${max} presses`);
}

test.describe("desktop (1440 px)", () => {
  test("a misspelt partial title suggests the song at once; ArrowDown + Enter opens it", async ({ page }) => {
    await warmUp(page);
    await page.goto("/about");
    await combobox(page).click();
    const song = group(page, "Songs").getByRole("option", { name: /Saltwater Letters/ });
    await typeUntil(page, "saltwatr let", song);

    const box = combobox(page);
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await expect(box).toHaveAttribute("aria-controls", /.+/);
    await expect(listbox(page)).toHaveAttribute("id", (await box.getAttribute("aria-controls")) ?? "");
    await expect(song).toContainText("Mara Vance");
    await expect(song.locator("mark").first()).toHaveText("Saltwat");
    await expect(liveRegion(page)).toHaveText(/^\d+ suggestions?$/);

    // The box's own results navigation after SEARCH_DEBOUNCE_MS keeps the list open and the typing as it was.
    await expect(page).toHaveURL(/\/\?q=saltwatr%20let$/);
    await expect(listbox(page)).toBeVisible();
    await expect(box).toHaveValue("saltwatr let");

    await arrowTo(page, song);
    await expect(box).toBeFocused();
    await expect(box).toHaveAttribute("aria-activedescendant", (await song.getAttribute("id")) ?? "");
    await expect(group(page, "Songs").getByRole("option", { selected: true })).toHaveCount(1);

    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/song\/[^/?]+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Saltwater Letters" })).toBeVisible();
    await expect(listbox(page)).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");
    // No results navigation that was still waiting follows the chosen song.
    await page.waitForTimeout(SEARCH_DEBOUNCE_MS + 200);
    await expect(page).toHaveURL(/\/song\/[^/?]+$/);
  });

  test("Enter with no active option opens the full results", async ({ page }) => {
    await warmUp(page);
    await page.goto("/about");
    await combobox(page).click();
    const song = group(page, "Songs").getByRole("option", { name: /Midnight Circuit/ });
    await typeUntil(page, "midnigt circ", song);
    await expect(combobox(page)).not.toHaveAttribute("aria-activedescendant");

    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/\?q=midnigt%20circ$/);
    await expect(page.getByRole("heading", { level: 1, name: "Search Results" })).toBeVisible();
    await expect(songCard(page, "Midnight Circuit")).toBeVisible();
    await expect(listbox(page)).toBeHidden();
    await expect(combobox(page)).toBeFocused();
    await expect(combobox(page)).toHaveValue("midnigt circ");
  });

  test("an artist suggestion opens the artist page", async ({ page }) => {
    await page.goto("/");
    await combobox(page).click();
    await page.keyboard.type("nova rey");
    const artist = group(page, "Artists").getByRole("option", { name: /Nova Reyes/ });
    await expect(artist).toBeVisible();
    await expect(artist).toContainText(/Artist · \d+ tracks?/);

    await artist.click();
    await expect(page).toHaveURL(/\/artists\/[^/?]+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Nova Reyes" })).toBeVisible();
    await expect(listbox(page)).toBeHidden();
    await expect(combobox(page)).toHaveValue("");
  });

  test("Escape closes the list and then clears; Tab and a click elsewhere close it; nothing found says so", async ({
    page,
  }) => {
    await page.goto("/about");
    const box = combobox(page);
    await box.click();
    await page.keyboard.type("static blo");
    const song = group(page, "Songs").getByRole("option", { name: /Static Bloom/ });
    await expect(song).toBeVisible();

    await page.keyboard.press("Escape");
    await expect(listbox(page)).toBeHidden();
    await expect(box).toHaveValue("static blo");
    await expect(liveRegion(page)).toHaveText("");
    // An arrow opens it again, its first option active.
    await page.keyboard.press("ArrowDown");
    await expect(listbox(page).getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowUp");
    await expect(listbox(page).getByRole("option").last()).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await expect(box).toHaveValue("");
    await expect(box).toBeFocused();

    await page.keyboard.type("static blo");
    await expect(song).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(box).not.toBeFocused();
    await expect(listbox(page)).toBeHidden();

    await box.click();
    await expect(song).toBeVisible();
    // An empty stretch of the top bar, away from the popup.
    await page.mouse.click(1200, 32);
    await expect(listbox(page)).toBeHidden();

    const nothing = `zzqx${unique()}`;
    await box.fill("");
    await box.pressSequentially(nothing);
    await expect(page.getByText(`No matches for “${nothing}”`)).toBeVisible();
    await expect(liveRegion(page)).toHaveText("No suggestions");
    await expect(box).toHaveAttribute("aria-expanded", "false");
  });
});

test.describe("phone (375 px)", () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test("the list spans the screen under the top bar, and a tap opens a song", async ({ page }) => {
    await warmUp(page);
    await page.goto("/");
    await combobox(page).tap();
    const song = group(page, "Songs").getByRole("option", { name: /Midnight Circuit/ });
    await typeUntil(page, "midnigt circ", song);

    const list = await listbox(page).boundingBox();
    const input = await combobox(page).boundingBox();
    expect(list && input).toBeTruthy();
    if (!list || !input) return;
    // Wider than the input squeezed between the logo and the bell, and still inside the screen.
    expect(list.x).toBeGreaterThanOrEqual(0);
    expect(list.x + list.width).toBeLessThanOrEqual(375);
    expect(list.width).toBeGreaterThan(input.width + 40);
    expect(list.y).toBeGreaterThanOrEqual(input.y + input.height);

    await song.tap();
    await expect(page).toHaveURL(/\/song\/[^/?]+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Midnight Circuit" })).toBeVisible();
    await expect(listbox(page)).toBeHidden();
    // Done with the box: the on-screen keyboard goes away.
    await expect(combobox(page)).not.toBeFocused();
  });
});
