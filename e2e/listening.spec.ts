import type { Page } from "@playwright/test";
import { expect, test, toastWith, unique } from "./support/fixtures";
import { closeAll, createMember, memberPage } from "./support/members";
import { audioState, uploadSong } from "./support/songs";

// Issue 29: the player bar keeps playing while the pages change, plays a list in order, keeps its queue across a
// reload, shows the song on the lock screen (Media Session) and answers the keyboard shortcuts.

const bar = (page: Page) => page.getByRole("region", { name: "Player" });
const barTitle = (page: Page) => bar(page).getByRole("paragraph").first().getByRole("link");

/** Press Play on the first card of the trending grid that has audio; returns the card titles in order. */
async function playTrending(page: Page, at = 0): Promise<string[]> {
  await page.goto("/");
  const grid = page.getByRole("region", { name: "Trending songs" });
  const cards = grid.locator("article");
  await expect(cards.first()).toBeVisible();
  const titles = await cards.locator("h2, h3").allInnerTexts();
  expect(titles.length).toBeGreaterThan(3);
  await cards
    .nth(at)
    .getByRole("button", { name: `Play ${titles[at]}` })
    .click();
  await expect(barTitle(page)).toHaveText(titles[at] ?? "");
  await expect.poll(async () => (await audioState(page)).currentTime, { timeout: 10_000 }).toBeGreaterThan(0.3);
  return titles;
}

/** The titles in the queue panel, in order. */
async function queueTitles(page: Page): Promise<string[]> {
  const texts = await page.getByTestId("queue-title").allInnerTexts();
  return texts.map((t) => t.replace(/^(Now playing:|Play)\s+/, ""));
}

test.describe("listening", () => {
  test("a song started on home keeps playing on an artist's page and a song page, the page's controls in step", async ({
    page,
  }) => {
    const titles = await playTrending(page);
    const src = (await audioState(page)).src;

    // Through the bar's artist link to the artist's page: the music goes on.
    const before = (await audioState(page)).currentTime;
    await bar(page).getByRole("paragraph").nth(1).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/artists\//);
    await expect
      .poll(async () => (await audioState(page)).currentTime, { timeout: 10_000 })
      .toBeGreaterThan(before + 0.5);
    expect((await audioState(page)).paused).toBe(false);
    expect((await audioState(page)).src).toBe(src);

    // To the song's own page: its big player shows the same playback (Pause), and time still moves.
    await barTitle(page).click();
    await expect(page).toHaveURL(/\/song\//);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[0] ?? "");
    await expect(page.getByRole("main").getByRole("button", { name: `Pause ${titles[0]}` })).toBeVisible();
    const mid = (await audioState(page)).currentTime;
    await expect.poll(async () => (await audioState(page)).currentTime, { timeout: 10_000 }).toBeGreaterThan(mid + 0.5);

    // Pausing on the page pauses the bar.
    await page
      .getByRole("main")
      .getByRole("button", { name: `Pause ${titles[0]}` })
      .click();
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
    await expect(bar(page).getByRole("button", { name: "Play", exact: true })).toBeVisible();
    expect(await page.locator("audio").count()).toBe(1);
  });

  test("the list plays in order: the next song starts when one ends, and the queue panel reorders", async ({
    page,
  }) => {
    const titles = await playTrending(page);
    await bar(page)
      .getByRole("button", { name: /^Queue/ })
      .click();
    const panel = page.getByRole("dialog", { name: "Queue" });
    await expect(panel).toBeVisible();
    await expect.poll(() => queueTitles(page)).toEqual(titles);

    // Move the fourth song up twice: it plays next.
    const fourth = titles[3] ?? "";
    await panel.getByRole("button", { name: `Move ${fourth} up` }).click();
    // Focus follows the moved song, so a keyboard user presses again.
    await expect(panel.getByRole("button", { name: `Move ${fourth} up` })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect.poll(() => queueTitles(page)).toEqual([titles[0], fourth, titles[1], titles[2], ...titles.slice(4)]);
    // Remove the last one.
    const last = titles.at(-1) ?? "";
    await panel.getByRole("button", { name: `Remove ${last} from the queue` }).click();
    await expect(panel.getByTestId("queue-item")).toHaveCount(titles.length - 1);
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();

    // Near the end of the first song: when it ends, the moved song starts by itself.
    await page.locator("audio[data-player]").evaluate((el: HTMLAudioElement) => {
      el.currentTime = Math.max(0, el.duration - 1);
    });
    await expect(barTitle(page)).toHaveText(fourth, { timeout: 10_000 });
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    await expect.poll(async () => (await audioState(page)).currentTime, { timeout: 10_000 }).toBeGreaterThan(0.3);
    // Screen readers hear it.
    await expect(bar(page).getByText(`Now playing “${fourth}”`)).toBeAttached();
  });

  test("a reload brings back the queue and the place in the song", async ({ page }) => {
    const titles = await playTrending(page, 1);
    await page.locator("audio[data-player]").evaluate((el: HTMLAudioElement) => {
      el.currentTime = Math.min(12, el.duration / 2);
    });
    await bar(page).getByRole("button", { name: "Pause" }).click();
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
    const at = (await audioState(page)).currentTime;

    await page.reload();
    await expect(barTitle(page)).toHaveText(titles[1] ?? "");
    await expect.poll(async () => (await audioState(page)).currentTime).toBeCloseTo(at, 0);
    expect((await audioState(page)).paused).toBe(true);
    await bar(page)
      .getByRole("button", { name: /^Queue/ })
      .click();
    await expect.poll(() => queueTitles(page)).toEqual(titles);
    await page.keyboard.press("Escape");

    // Play goes on from there.
    await bar(page).getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    expect((await audioState(page)).currentTime).toBeGreaterThanOrEqual(at - 0.5);
  });

  test("the lock screen and the OS media controls get the song, its artists and cover (Media Session)", async ({
    page,
  }) => {
    const titles = await playTrending(page);
    const artists = await bar(page).getByRole("paragraph").nth(1).innerText();
    const meta = await page.evaluate(() => {
      const m = navigator.mediaSession.metadata;
      return m ? { title: m.title, artist: m.artist, artwork: m.artwork.map((a) => a.src) } : null;
    });
    expect(meta?.title).toBe(titles[0]);
    expect(meta?.artist.replace(" and ", ", ")).toBe(artists);
    expect(meta?.artwork[0]).toMatch(/\/api\/songs\/.+\/cover\.svg/);
    expect(await page.evaluate(() => navigator.mediaSession.playbackState)).toBe("playing");
    await bar(page).getByRole("button", { name: "Pause" }).click();
    await expect.poll(() => page.evaluate(() => navigator.mediaSession.playbackState)).toBe("paused");
    // The next song replaces it there.
    await bar(page).getByRole("button", { name: "Next song" }).click();
    await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe(titles[1]);
  });

  test("keyboard shortcuts drive the player, and do nothing while typing in the search box", async ({ page }) => {
    const titles = await playTrending(page);
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    // Space pauses and plays.
    await page.keyboard.press("Space");
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
    await page.keyboard.press("Space");
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    // Right arrow: 5 s on.
    const t = (await audioState(page)).currentTime;
    await page.keyboard.press("ArrowRight");
    await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(t + 4);
    // M mutes; N goes to the next song, P back to the start of it / the one before.
    await page.keyboard.press("m");
    await expect.poll(() => page.locator("audio[data-player]").evaluate((el: HTMLAudioElement) => el.muted)).toBe(true);
    await page.keyboard.press("m");
    await page.keyboard.press("n");
    await expect(barTitle(page)).toHaveText(titles[1] ?? "");
    await page.keyboard.press("p");
    await expect(barTitle(page)).toHaveText(titles[0] ?? "");

    // In the search box the same keys are typing.
    const search = page.getByRole("combobox", { name: /search/i }).first();
    await search.click();
    await page.keyboard.type("n m p");
    await expect(search).toHaveValue("n m p");
    await expect(barTitle(page)).toHaveText(titles[0] ?? "");
    expect(await page.locator("audio[data-player]").evaluate((el: HTMLAudioElement) => el.muted)).toBe(false);
    expect((await audioState(page)).paused).toBe(false);

    // Turned off in the queue panel (WCAG 2.1.4), they do nothing.
    await page.keyboard.press("Escape");
    await bar(page)
      .getByRole("button", { name: /^Queue/ })
      .click();
    await page.getByRole("switch", { name: "Keyboard shortcuts" }).click();
    await page.keyboard.press("Escape");
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.press("n");
    await page.keyboard.press("Space");
    await expect(barTitle(page)).toHaveText(titles[0] ?? "");
    expect((await audioState(page)).paused).toBe(false);
  });

  test("Play next and Add to queue, from a card and a song page; Play era on an artist's tracker", async ({ page }) => {
    const titles = await playTrending(page);
    const grid = page.getByRole("region", { name: "New Songs" });
    const newTitles = await grid.locator("article").locator("h2, h3").allInnerTexts();
    const added = newTitles.find((t) => !titles.includes(t)) ?? newTitles[0] ?? "";
    await grid
      .getByRole("button", { name: `Add to queue: ${added}` })
      .first()
      .click();
    await bar(page)
      .getByRole("button", { name: /^Queue/ })
      .click();
    await expect.poll(async () => (await queueTitles(page)).at(-1)).toBe(added);
    const length = (await queueTitles(page)).length;
    await page.keyboard.press("Escape");

    // Issue 38, decision 031: pressed again, it stays where it is, once, and the person is told.
    await grid
      .getByRole("button", { name: `Add to queue: ${added}` })
      .first()
      .click();
    await expect(toastWith(page, `“${added}” is already in the queue`)).toBeVisible();
    await bar(page)
      .getByRole("button", { name: /^Queue/ })
      .click();
    await expect.poll(async () => (await queueTitles(page)).filter((t) => t === added).length).toBe(1);
    expect(await queueTitles(page)).toHaveLength(length);
    await page.keyboard.press("Escape");

    // On a song page: Play next moves it up to right after the current song, still once.
    await grid.getByRole("link", { name: added }).first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(added);
    await page.getByRole("button", { name: "Play next" }).click();
    await expect(toastWith(page, `“${added}” plays next`)).toBeVisible();
    await bar(page)
      .getByRole("button", { name: /^Queue/ })
      .click();
    await expect.poll(async () => (await queueTitles(page))[1]).toBe(added);
    expect(await queueTitles(page)).toHaveLength(length);
    await page.keyboard.press("Escape");

    // An artist's era, played from its first song.
    await bar(page).getByRole("paragraph").nth(1).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/artists\//);
    const era = page.getByTestId("tracker-eras").locator("section").first();
    // (Its first song may be the one playing: its button then says Pause.)
    const control = /^(Play|Pause) /;
    const firstPlayable = era
      .locator("li")
      .filter({ has: page.getByRole("button", { name: control }) })
      .first();
    const label = await firstPlayable.getByRole("button", { name: control }).getAttribute("aria-label");
    const firstTitle = label?.replace(control, "");
    await era.getByRole("button", { name: /^Play era/ }).click();
    await expect(barTitle(page)).toHaveText(firstTitle ?? "");
    await expect(firstPlayable.getByRole("button", { name: `Pause ${firstTitle}` })).toBeVisible();
  });
});

test.describe("leaving the app", () => {
  test("going back to the landing page (no player bar there) pauses the music", async ({ page }) => {
    await page.goto("/landing");
    await page.getByRole("navigation", { name: "Landing" }).getByRole("link", { name: "Browse songs" }).click();
    await expect(page).toHaveURL(/\/$/);
    const grid = page.getByRole("region", { name: "Trending songs" });
    await grid
      .getByRole("button", { name: /^Play / })
      .first()
      .click();
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    await page.goBack();
    await expect(page).toHaveURL(/\/landing$/);
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
  });
});

test.describe("songs without audio", () => {
  test("are passed over with a note when the queue reaches them", async ({ page, request }) => {
    const feed = (await (await request.get("/api/songs?feed=newest&limit=10")).json()) as {
      items: {
        id: string;
        title: string;
        coverUrl: string;
        artists: { id: string; name: string }[];
        audio: { url: string; durationSec: number } | null;
      }[];
    };
    const [a, c] = feed.items.filter((s) => s.audio);
    if (!a || !c) throw new Error("two demo songs with audio expected");
    const asItem = (s: typeof a, audio: typeof a.audio) => ({
      key: `${s.id}:e2e`,
      songId: s.id,
      title: s.title,
      artists: s.artists,
      coverUrl: s.coverUrl,
      audio,
    });
    // The queue as the app keeps it, with a song between that has no audio (a list can hold such songs).
    const lost = { ...asItem(c, null), key: "lost:e2e", songId: "lost-tape", title: "Lost Tape" };
    await page.goto("/about");
    await page.evaluate((saved) => localStorage.setItem("unheard:player", JSON.stringify(saved)), {
      items: [asItem(a, a.audio), lost, asItem(c, c.audio)],
      index: 0,
      position: 0,
      volume: 1,
      muted: false,
      shortcuts: true,
    });
    await page.reload();
    await expect(barTitle(page)).toHaveText(a.title);
    await bar(page).getByRole("button", { name: "Play", exact: true }).click();
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    await page.locator("audio[data-player]").evaluate((el: HTMLAudioElement) => {
      el.currentTime = Math.max(0, el.duration - 0.5);
    });
    await expect(page.getByText("Skipped “Lost Tape”: preview not available")).toBeVisible({ timeout: 10_000 });
    await expect(barTitle(page)).toHaveText(c.title);
    await expect.poll(async () => (await audioState(page)).src).toContain(`/api/songs/${c.id}/audio`);
    // The last song ends: it stays, paused back at its start, so Play plays it again.
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    await page.locator("audio[data-player]").evaluate((el: HTMLAudioElement) => {
      el.currentTime = Math.max(0, el.duration - 0.5);
    });
    await expect(bar(page).getByRole("button", { name: "Play", exact: true })).toBeVisible({ timeout: 10_000 });
    await expect.poll(async () => (await audioState(page)).currentTime).toBe(0);
    await expect(barTitle(page)).toHaveText(c.title);
  });
});

test.describe("listening counts", () => {
  test("a play is counted once the song has played long enough (half of a short song), once an hour", async ({
    browser,
  }) => {
    const member = await createMember("plays", { approve: true });
    const song = await uploadSong(member.api, { title: `Counted ${unique()}`, artists: ["Count Basie Test"] });
    const { page, context } = await memberPage(browser, member);
    try {
      await page.goto(`/song/${song.id}`);
      await expect(page.getByTestId("play-count")).toHaveText("0 plays");
      await page
        .getByRole("main")
        .getByRole("button", { name: `Play ${song.title}` })
        .click();
      // Its 2 s of audio: counted after 1 s, shown on the page without a reload.
      await expect(page.getByTestId("play-count")).toHaveText("1 play", { timeout: 10_000 });
      // Played again within the hour: not counted again.
      await expect.poll(async () => (await audioState(page)).paused, { timeout: 10_000 }).toBe(true);
      await page
        .getByRole("main")
        .getByRole("button", { name: `Play ${song.title}` })
        .click();
      await expect.poll(async () => (await audioState(page)).paused, { timeout: 10_000 }).toBe(true);
      const res = await member.api.get(`/api/songs/${song.id}`);
      expect(((await res.json()) as { playCount: number }).playCount).toBe(1);
    } finally {
      await closeAll(context);
    }
  });
});
