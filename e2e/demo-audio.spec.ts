import type { Locator } from "@playwright/test";
import { demoAudioProgressMessage, MESSAGES, type Song, type SongPage } from "@unheard/shared";
import { expect, sideMenu, test } from "./support/fixtures";
import { songCard } from "./support/songs";

/** The pieces of text inside `note` that do not fit their box (cut, or running past it): none when all is readable. */
function clippedText(note: Locator): Promise<string[]> {
  return note.evaluate((el) =>
    [el, ...Array.from(el.querySelectorAll("*"))]
      .filter((e) => e instanceof HTMLElement && e.textContent?.trim())
      .filter((e) => {
        const h = e as HTMLElement;
        const style = getComputedStyle(h);
        return h.scrollWidth > h.clientWidth + 1 || style.textOverflow === "ellipsis" || style.whiteSpace === "nowrap";
      })
      .map(
        (e) =>
          `${(e.textContent ?? "").trim()} (${(e as HTMLElement).scrollWidth} > ${(e as HTMLElement).clientWidth})`,
      ),
  );
}

// Issue 25: on a first start most demo songs have no audio for a few minutes while it is rendered in the
// background. Here the server's answers are changed on the way (the suite's server finished its audio long ago):
// /api/health reports the rendering, and the newest song has no audio until it is "done".
test("a song whose demo audio is being made says so on its card and page, then plays once it has it", async ({
  page,
}) => {
  let rendering = true;
  let waiting: { id: string; title: string } | undefined;
  const withoutAudio = (s: Song) => (rendering && s.id === waiting?.id ? { ...s, audio: null } : s);
  await page.route("**/api/health", async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as object;
    await route.fulfill({ response: res, json: { ...body, demoAudio: rendering ? { done: 120, total: 284 } : null } });
  });
  await page.route("**/api/songs?feed=newest*", async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as SongPage;
    const first = body.items[0];
    if (first && !waiting) waiting = { id: first.id, title: first.title };
    await route.fulfill({ response: res, json: { ...body, items: body.items.map(withoutAudio) } });
  });
  await page.route(
    (url) => url.pathname === `/api/songs/${waiting?.id}`,
    async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: withoutAudio((await res.json()) as Song) });
    },
  );

  // The home page's own HTML carries its feed (server-rendered, decision 026): reach it from another page, so the
  // feed comes from the API through the changes above.
  await page.goto("/developers");
  await sideMenu(page).getByRole("link", { name: "Home" }).click();
  const newSongs = page.getByRole("region", { name: "New Songs" });
  await expect(newSongs.getByRole("article").first()).toBeVisible();
  if (!waiting) throw new Error("the newest feed had no songs");
  const play = { name: `Play ${waiting.title}` };
  const card = songCard(newSongs, waiting.title);
  await expect(card).toContainText(MESSAGES.demoAudioPreparing);
  await expect(card).toContainText(demoAudioProgressMessage(120, 284));
  await expect(card).not.toContainText(MESSAGES.previewUnavailable);
  await expect(card.getByRole("button", play)).toHaveCount(0);
  // Issue 38: the card cut the words with an ellipsis, with no way to read the rest. Whole, at both widths.
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await card.scrollIntoViewIfNeeded();
    const note = card.getByText(MESSAGES.demoAudioPreparing).locator("xpath=..");
    expect(await clippedText(note), `${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  await card.getByRole("link", { name: waiting.title }).click();
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: waiting.title })).toBeVisible();
  await expect(main).toContainText(MESSAGES.demoAudioPreparing);
  await expect(main.getByRole("button", play)).toHaveCount(0);

  // The audio is ready: the next progress answer reloads the songs without audio, and the player appears.
  rendering = false;
  await expect(main.getByRole("button", play)).toBeVisible({ timeout: 10_000 });
  await expect(main).not.toContainText(MESSAGES.demoAudioPreparing);
  await page.goBack();
  await expect(card.getByRole("button", play)).toBeVisible();
  await expect(card).not.toContainText(MESSAGES.demoAudioPreparing);
});
