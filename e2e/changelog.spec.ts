import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { MESSAGES, type Song } from "@unheard/shared";
import { newArtistName, uploadByArtist } from "./support/artists";
import { as, expect, unique } from "./support/fixtures";
import { apiAs, apiAsVisitor, closeAll } from "./support/members";
import { test } from "./support/pending-lock";
import { uploadSong } from "./support/songs";

// Issue 37: every change told. An edit of a song's leak details (a year-only leak date, links, snippet → full) shows on
// its page, is a line of its artist's Updates (source Edit) and of the site-wide Recent changes, with the artist's
// and the song's links; a pending song's lines are the members' only; Updates pages with "Show more".

/** PATCH /api/songs/:id as `api` (its owner or an admin): the song's current values with `change` over them. */
async function editSong(api: APIRequestContext, id: string, change: Record<string, unknown>, comment = "e2e edit") {
  const song = (await (await api.get(`/api/songs/${id}`)).json()) as Song;
  const res = await api.patch(`/api/songs/${id}`, {
    data: {
      title: song.title,
      artists: song.artists.map((a) => a.name),
      genre: song.genre,
      releaseDate: song.releaseDate,
      soundcloudUrl: song.soundcloudUrl,
      era: song.era,
      producers: song.producers,
      features: song.features,
      references: song.references,
      aliases: song.aliases,
      versionLabel: song.versionLabel,
      tags: song.tags,
      leakDate: song.leakDate,
      fileDate: song.fileDate,
      trackLength: song.trackLength,
      availability: song.availability,
      quality: song.quality,
      notes: song.notes,
      links: song.links,
      ...change,
      comment,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(((await res.json()) as { applied: boolean }).applied).toBe(true);
}

/** Verify a song as an admin. */
async function verify(admin: APIRequestContext, id: string) {
  const res = await admin.post(`/api/songs/${id}/verify`);
  expect(res.status(), await res.text()).toBe(200);
}

/** The artist page's Updates panel. */
const updates = (page: Page) => page.getByRole("region", { name: "Updates" });
/** The changelog lines of a panel or page. */
const lines = (scope: Page | Locator) => scope.getByTestId("change-list").getByRole("listitem");
/** The line that says `text`. */
const line = (scope: Page | Locator, text: string) => lines(scope).filter({ hasText: text });

test.describe("the changelog", () => {
  test.use({ storageState: as("admin"), holdsPendingSongs: true });

  test("an edit of a song's leak details shows on its page and is told in its artist's Updates and in Recent changes", async ({
    page,
    browser,
  }) => {
    test.slow();
    const admin = await apiAs("admin");
    const artist = newArtistName("Mara Quill");
    const title = `Undertow ${unique()}`;
    const { song } = await uploadByArtist(admin, artist, title);
    await editSong(admin, song.id, { availability: "snippet", quality: "low" }, "A snippet surfaced");
    await verify(admin, song.id);
    const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });

    try {
      await test.step("edit the leak details: a year for the leak date, two links, the full song", async () => {
        await page.goto(`/songs/${song.id}/edit`);
        await expect(page.getByRole("heading", { level: 1, name: "Edit Song" })).toBeVisible();
        // The section opens by itself: the song has leak details.
        const leakDate = page.getByLabel("Leak date");
        // A text field: a date field would refuse a year alone.
        expect(await leakDate.evaluate((el) => (el as HTMLInputElement).type)).toBe("text");
        await expect(leakDate).toHaveAccessibleDescription(/YYYY, YYYY-MM or YYYY-MM-DD/);
        // A date the schema cannot read is refused before anything is sent.
        await leakDate.fill("Summer 2019");
        await page.getByLabel("Comment").fill("The full song leaked");
        await page.getByRole("button", { name: "Save changes" }).click();
        await expect(leakDate).toHaveAccessibleDescription(MESSAGES.invalidLeakDate);
        await leakDate.fill("2019");
        await page
          .getByLabel("Links")
          .fill("https://pixeldrain.com/u/e2e-full\nhttps://www.example.org/mirror/undertow");
        await page.getByLabel("Availability").selectOption("full");
        await page.getByLabel("Audio quality").selectOption("cd_quality");
        const saved = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().endsWith(song.id));
        await page.getByRole("button", { name: "Save changes" }).click();
        expect((await saved).status()).toBe(200);
        await expect(page).toHaveURL(new RegExp(`/song/${song.id}$`));
      });

      await test.step("the song page shows the year and the links, opening elsewhere", async () => {
        const details = page.getByTestId("leak-details");
        await expect(details).toContainText(/Leak date\s*2019/);
        await expect(details).toContainText(/Availability\s*Full/);
        const first = details.getByRole("link", { name: "pixeldrain.com/u/e2e-full (opens in a new tab)" });
        await expect(first).toHaveAttribute("href", "https://pixeldrain.com/u/e2e-full");
        await expect(first).toHaveAttribute("target", "_blank");
        await expect(first).toHaveAttribute("rel", "nofollow ugc noopener noreferrer");
        await expect(
          details.getByRole("link", { name: "example.org/mirror/undertow (opens in a new tab)" }),
        ).toHaveAttribute("href", "https://www.example.org/mirror/undertow");
      });

      await test.step("the edit form reads them back as they were saved", async () => {
        await page.goto(`/songs/${song.id}/edit`);
        await expect(page.getByLabel("Leak date")).toHaveValue("2019");
        await expect(page.getByLabel("Links")).toHaveValue(
          "https://pixeldrain.com/u/e2e-full\nhttps://www.example.org/mirror/undertow",
        );
      });

      const told = `${title}: snippet → full, CD quality`;
      const visitorPage = await visitor.newPage();
      await test.step("a visitor sees the line in the artist's Updates, source Edit, the song linked", async () => {
        await visitorPage.goto(`/artists/${song.artists[0]?.id}`);
        const panel = updates(visitorPage);
        const edited = line(panel, told);
        await expect(edited).toHaveCount(1);
        await expect(edited).toContainText("Source: Edit");
        await expect(edited.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
        await expect(edited.locator("time")).toHaveText(/just now|min ago/);
        // Newest first: the edit, then the snippet's line, then the upload's.
        await expect(lines(panel).first()).toContainText(told);
        await expect(line(panel, `${title}: snippet, LQ`)).toHaveCount(1);
        await expect(line(panel, `New: ${title}`)).toContainText("Source: Upload");
        await expect(panel.getByRole("link", { name: "Subscribe (Atom)" })).toHaveAttribute(
          "href",
          `/api/artists/${song.artists[0]?.id}/changes.atom`,
        );
        await edited.getByRole("link", { name: title, exact: true }).click();
        await expect(visitorPage.getByRole("heading", { level: 1, name: title })).toBeVisible();
      });

      await test.step("and in Recent changes, from the menu, with the artist", async () => {
        await visitorPage.getByRole("complementary").getByRole("link", { name: "Recent changes" }).click();
        await expect(visitorPage.getByRole("heading", { level: 1, name: "Recent changes" })).toBeVisible();
        const edited = line(visitorPage, told);
        await expect(edited).toContainText(artist);
        await expect(edited).toContainText("Source: Edit");
        await expect(visitorPage.getByRole("link", { name: "Subscribe (Atom)" })).toHaveAttribute(
          "href",
          "/api/changes.atom",
        );
        await edited.getByRole("link", { name: artist, exact: true }).click();
        await expect(visitorPage.getByRole("heading", { level: 1, name: artist })).toBeVisible();
      });

      await test.step("the feeds carry it", async () => {
        const feed = await visitor.request.get(`/api/artists/${song.artists[0]?.id}/changes.atom`);
        expect(feed.headers()["content-type"]).toContain("application/atom+xml");
        expect(await feed.text()).toContain(told);
      });
    } finally {
      await admin.dispose();
      await closeAll(visitor);
    }
  });

  test("a pending song's lines are for members only, and Updates pages with Show more", async ({ page, browser }) => {
    test.slow();
    const admin = await apiAs("admin");
    const artist = newArtistName("Iris Vale");
    const pendingTitle = `Secret Take ${unique()}`;
    const { artistId } = await uploadByArtist(admin, artist, pendingTitle);
    const shown = await uploadSong(admin, { title: `Open Take ${unique()}`, artists: [artist] });
    await verify(admin, shown.id);
    // Eleven more lines of the verified song: notes changed one at a time (the panel shows ten a page).
    for (let i = 1; i <= 11; i++) await editSong(admin, shown.id, { notes: `Note ${i}` });
    const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const visitorApi = await apiAsVisitor();

    try {
      await test.step("the API keeps the pending song's line from a visitor", async () => {
        const all = (await (await visitorApi.get(`/api/artists/${artistId}/changes?limit=100`)).json()) as {
          items: { summary: string }[];
        };
        expect(all.items.map((i) => i.summary)).toContain(`New: ${shown.title}`);
        expect(all.items.map((i) => i.summary).join("\n")).not.toContain(pendingTitle);
      });

      const visitorPage = await visitor.newPage();
      await test.step("a visitor's Updates: ten lines, then Show more brings the rest and takes focus", async () => {
        await visitorPage.goto(`/artists/${artistId}`);
        const panel = updates(visitorPage);
        await expect(lines(panel)).toHaveCount(10);
        await expect(lines(panel).first()).toContainText(`${shown.title}: notes updated`);
        const more = panel.getByRole("button", { name: "Show more" });
        await more.focus();
        await visitorPage.keyboard.press("Enter");
        // 11 notes, the upload: 12 lines a visitor may see.
        await expect(lines(panel)).toHaveCount(12);
        await expect(lines(panel).nth(10)).toBeFocused();
        await expect(more).toHaveCount(0);
        await expect(lines(panel).last()).toContainText(`New: ${shown.title}`);
        await expect(panel).not.toContainText(pendingTitle);
      });

      await test.step("nor does Recent changes name it to a visitor", async () => {
        await visitorPage.goto("/changes");
        await expect(line(visitorPage, `New: ${shown.title}`)).toHaveCount(1);
        await expect(visitorPage.getByTestId("change-list")).not.toContainText(pendingTitle);
      });

      await test.step("a member sees it", async () => {
        await page.goto(`/artists/${artistId}`);
        const panel = updates(page);
        await panel.getByRole("button", { name: "Show more" }).click();
        await expect(line(panel, `New: ${pendingTitle}`)).toContainText("Source: Upload");
      });
    } finally {
      await admin.dispose();
      await visitorApi.dispose();
      await closeAll(visitor);
    }
  });
});
