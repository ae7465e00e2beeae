import { type APIRequestContext, type Browser, chromium, expect, type Page } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { decodeAudio, type Pcm } from "./audio-fixtures";
import { CHROMIUM_PATH, E2E_CHROMIUM_FLAGS } from "./chromium";
import { baseURL, DEMO } from "./env";
import type { Member } from "./members";

/** An account to sign in with: a demo one or a new member. */
type Account = Pick<Member, "email" | "password">;

/** Sign in as `account` through the API (the context keeps the session cookie). */
export async function loginAs(request: APIRequestContext, account: Account): Promise<void> {
  const res = await request.post("/api/auth/login", {
    data: { email: account.email, password: account.password },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Sign in as the demo super admin through the API (the context keeps the session cookie). */
export async function loginSuper(request: APIRequestContext): Promise<void> {
  await loginAs(request, DEMO.super);
}

/** Every verified and pending song the super admin sees. */
export async function allSongs(request: APIRequestContext): Promise<Song[]> {
  const verified = (await (await request.get("/api/songs?feed=newest&limit=48")).json()) as { items: Song[] };
  const pending = (await (await request.get("/api/songs/pending")).json()) as { items: Song[] };
  return [...verified.items, ...pending.items];
}

/** A demo song by title, once the server has fingerprinted it (indexing runs in the background at start). */
export async function indexedSong(request: APIRequestContext, title: string): Promise<Song> {
  const song = (await allSongs(request)).find((s) => s.title === title);
  if (!song) throw new Error(`demo song ${title} not found`);
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/songs/${song.id}/fingerprints`);
        return res.ok() ? ((await res.json()) as { count: number }).count : 0;
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBeGreaterThan(0);
  return song;
}

/** The song's stored audio, decoded to mono at 22.05 kHz. */
export async function songPcm(request: APIRequestContext, song: Song): Promise<Pcm> {
  if (!song.audio) throw new Error(`${song.title} has no audio`);
  const res = await request.get(song.audio.url);
  expect(res.status()).toBe(200);
  return decodeAudio(await res.body(), 22050);
}

/** Below this window width the fake-microphone page is a phone (touch, 2x pixels, 812 px tall). */
const PHONE_WIDTH = 500;

/**
 * A separate Chromium whose microphone plays `wavPath` (the shared config's launch flags apply to every test, so
 * the fake-media flags live here), with a page signed in as `account` (the super admin unless told) in a window
 * `width` px wide (1440 unless told). Uncaught page errors are collected.
 */
export async function fakeMicrophonePage(
  wavPath: string,
  { account = DEMO.super, width = 1440 }: { account?: Account; width?: number } = {},
): Promise<{ browser: Browser; page: Page; pageErrors: string[] }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...E2E_CHROMIUM_FLAGS,
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${wavPath}`,
    ],
  });
  const phone = width < PHONE_WIDTH;
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: { width, height: phone ? 812 : 900 },
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  await loginAs(context.request, account);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (err) => pageErrors.push(err.message));
  return { browser, page, pageErrors };
}

/** True when a canvas has more than `minShare` of pixels that differ from its first pixel (not blank). */
export async function canvasIsDrawn(page: Page, testId: string, minShare = 0.2): Promise<boolean> {
  return page.getByTestId(testId).evaluate((el, share) => {
    const canvas = el as HTMLCanvasElement;
    const ctx = canvas.getContext("2d");
    if (!ctx || canvas.width === 0 || canvas.height === 0) return false;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const colours = new Set<number>();
    let differ = 0;
    for (let i = 0; i < data.length; i += 4) {
      const rgb = ((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number);
      colours.add(rgb);
      if (rgb !== (((data[0] as number) << 16) | ((data[1] as number) << 8) | (data[2] as number))) differ++;
    }
    return colours.size > 32 && differ / (data.length / 4) > share;
  }, minShare);
}
