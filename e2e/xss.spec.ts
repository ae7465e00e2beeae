// Stored and reflected XSS (issue 15, item 3): script-injection strings (support/naughty-strings.ts) go in through
// the API wherever members and admins write text (song titles, artist names, artist bio and links, report
// details, edit suggestions and their review notes, edit comments, waitlist names, search queries, usernames, an
// upload's file name), then every page that shows them is rendered in Chromium. A page passes when no payload ran
// (window.__xss unset, no dialog, no request to the probe host, no Content-Security-Policy violation: CSP would
// block an injected inline script, so a violation means markup got through) and none became markup (no element
// with an on* handler, srcdoc, a javascript: URL or a payload's <script> in the DOM).
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { uniqueSongWav } from "./support/audio-fixtures";
import { baseURL } from "./support/env";
import { as, expect, test, unique } from "./support/fixtures";
import { apiAs, apiAsVisitor, createMember } from "./support/members";
import { PROBE_HOST, packPayloads, XSS_PAYLOADS } from "./support/naughty-strings";
import { reportSong, uploadSong } from "./support/songs";

test.describe.configure({ timeout: 90_000 });

/** What a watched page saw that it should not have. */
type Watch = { dialogs: string[]; probes: string[] };

/** Record dialogs and requests to a payload's URL on every page of `context`, and CSP violations in every frame. */
async function watch(context: BrowserContext): Promise<Watch> {
  const seen: Watch = { dialogs: [], probes: [] };
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    );
  });
  // `.invalid` never resolves; aborting at once keeps a hit from waiting on DNS.
  const probed = (url: string) => {
    try {
      return new URL(url).hostname.endsWith(PROBE_HOST);
    } catch {
      return false;
    }
  };
  await context.route(
    (url) => url.hostname.endsWith(PROBE_HOST),
    (route) => route.abort(),
  );
  const onPage = (page: Page) => {
    page.on("dialog", (d) => {
      seen.dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss().catch(() => undefined);
    });
    page.on("request", (r) => {
      if (probed(r.url()) || /^javascript:/i.test(r.url())) seen.probes.push(r.url());
    });
  };
  context.on("page", onPage);
  for (const p of context.pages()) onPage(p);
  return seen;
}

/** Attributes whose value the browser loads or navigates to. */
const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "data", "xlink:href", "poster", "background", "srcset"];

/** Assert that nothing on `page` (in any frame) ran a payload or turned one into markup. */
async function expectClean(page: Page, seen: Watch, where: string): Promise<void> {
  // A payload's handler (onerror, onload) runs as its element loads: let the page settle first.
  await page.waitForLoadState("load");
  await page.waitForTimeout(100);
  for (const frame of page.frames()) {
    const state = await frame
      .evaluate((URL_ATTRIBUTES) => {
        const w = window as unknown as { __xss?: unknown; __csp?: string[] };
        const injected: string[] = [];
        for (const el of Array.from(document.querySelectorAll("*"))) {
          const tag = el.tagName.toLowerCase();
          const bad =
            // Data blocks (the server-rendered page's query data, JSON-LD) are never run; a payload's text in them
            // is escaped JSON, and the browser parses it as data.
            (tag === "script" &&
              !/^application\/(ld\+)?json$/.test(el.getAttribute("type") ?? "") &&
              /__xss|alert\(|prompt\(|confirm\(/.test(el.textContent ?? "")) ||
            ["iframe", "object", "embed", "base", "frame"].includes(tag) ||
            (tag === "meta" && el.getAttribute("http-equiv")?.toLowerCase() === "refresh") ||
            Array.from(el.attributes).some(
              (a) =>
                /^on/i.test(a.name) ||
                a.name === "srcdoc" ||
                a.name === "autofocus" ||
                // Only URL attributes: a text field's value may well hold "javascript:" as the text typed.
                (URL_ATTRIBUTES.includes(a.name.toLowerCase()) &&
                  /^\s*(javascript|vbscript|data:text\/html)/i.test(a.value)),
            );
          if (bad) injected.push(el.outerHTML.slice(0, 200));
        }
        // zod probes whether it may compile validators with `new Function("")` (its JIT): the page's own
        // code, refused by the CSP as meant. Any other violation is a payload's.
        const csp = (w.__csp ?? []).filter((v) => v.trim() !== "script-src eval");
        return { xss: w.__xss, csp, injected };
      }, URL_ATTRIBUTES)
      .catch(() => ({ xss: undefined, csp: [], injected: [] as string[] }));
    expect(state.xss, `${where}: window.__xss was set`).toBeUndefined();
    expect(state.injected, `${where}: payload markup in the DOM`).toEqual([]);
    expect(state.csp, `${where}: Content-Security-Policy violations`).toEqual([]);
  }
  expect(seen.dialogs, `${where}: dialogs opened`).toEqual([]);
  expect(seen.probes, `${where}: requests to a payload's URL`).toEqual([]);
}

/** The first 40 characters of `text`, for `getByText` (long payload strings wrap and truncate on cards). */
const head = (text: string) => text.slice(0, 40);

/** Search queries tried as reflected input: one per kind of context. */
const REFLECTED = XSS_PAYLOADS.filter((p) =>
  /^(<script>window|<img src=x|<svg onload|javascript:|"><iframe|\{\{constructor|<\/title>|<img src=https|<base|\$'|'><script>|＜script＞)/.test(
    p,
  ),
);

/** How often `re` (global) matches `text`. */
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** Undo the five escapes of the server's HTML writer. */
const unescapeHtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? e,
  );

/**
 * Show `path`: a full load the first time (or when `reload`), afterwards a navigation inside the app (the router
 * follows history changes), which spares reloading the app on a busy machine. The window stays the same, so a
 * payload that ran on any page earlier still shows in window.__xss.
 */
async function visit(page: Page, path: string, reload = false): Promise<void> {
  const inApp = !reload && page.url().startsWith(baseURL()) && !page.url().includes("/api/");
  if (!inApp) {
    await page.goto(path);
    return;
  }
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

/** Verify songs as the admin, so the feeds and search show them. */
async function verifyAll(admin: APIRequestContext, songs: Song[]): Promise<void> {
  for (const song of songs) {
    const res = await admin.post(`/api/songs/${song.id}/verify`);
    expect(res.status(), await res.text()).toBe(200);
  }
}

test.describe("stored XSS, as a visitor", () => {
  test("song titles and artist names on the song page, its cover, feeds, search and artist pages", async ({ page }) => {
    const tag = `xss${unique()}`;
    const seen = await watch(page.context());
    const listener = await apiAs("listener");
    const admin = await apiAs("admin");
    // Every payload is in a title and, on its own, an artist name (10 credits per song at most).
    const titles = packPayloads(XSS_PAYLOADS, 200, tag.length + 1).map((t) => `${t} ${tag}`);
    const songs: Song[] = [];
    let next = 0;
    for (const title of titles) {
      const artists = XSS_PAYLOADS.slice(next, next + 10).map((p) => `${p.slice(0, 80)} ${tag}`);
      next += 10;
      songs.push(await uploadSong(listener, { title, artists: artists.length ? artists : [`Artist ${tag}`] }));
    }
    expect(next, "every payload is an artist name").toBeGreaterThanOrEqual(XSS_PAYLOADS.length);
    await verifyAll(admin, songs);

    // The server writes the title into the served page's <head> (title, Open Graph tags and the JSON-LD of
    // issue 28): as text, whole. The JSON-LD and a rendered page's query data hold no "<" (escaped as \u003c), so
    // each block ends at its own </script>; taken out, the page has the same scripts as the home page (whether
    // either was rendered or, past the render budget, sent plain).
    const JSON_LD = /<script type="application\/ld\+json">([^<]*)<\/script>/g;
    const DATA = /<script type="application\/json" id="[\w-]+">([^<]*)<\/script>/g;
    const inert = (html: string) => html.replace(JSON_LD, "").replace(DATA, "");
    const plain = inert(await (await page.request.get("/")).text());
    for (const song of songs) {
      const html = await (await page.request.get(`/song/${song.id}`)).text();
      expect(count(html, /<title[\s>]/g), `one <title> in the page served for ${song.title}`).toBe(1);
      expect(count(inert(html), /<script[\s>]/g), "no <script> added to the served page").toBe(
        count(plain, /<script[\s>]/g),
      );
      const og = /<meta property="og:title" content="([^"]*)"/.exec(html)?.[1] ?? "";
      expect(unescapeHtml(og), "og:title carries the title verbatim").toContain(song.title);
      const data = [...html.matchAll(JSON_LD)].map((m) => JSON.parse(m[1] ?? "") as { name?: string });
      expect(
        data.map((d) => d.name),
        "the JSON-LD carries the title verbatim",
      ).toContain(song.title);
    }

    // Song pages in the browser: the first one loaded, the rest reached inside the app (faster than reloading it).
    for (const [i, song] of songs.entries()) {
      await visit(page, `/song/${song.id}`, i === 0);
      await expect(page.getByRole("heading", { level: 1, name: song.title })).toBeVisible({ timeout: 15_000 });
      await expectClean(page, seen, `song page ${song.title}`);
    }

    await visit(page, "/");
    await expect(page.getByText(head(songs.at(-1)?.title ?? "")).first()).toBeVisible();
    await expectClean(page, seen, "home feeds");

    await visit(page, `/?q=${tag}`);
    await expect(page.getByRole("heading", { name: "Search Results" })).toBeVisible();
    await expect(page.getByText(head(songs[0]?.title ?? "")).first()).toBeVisible();
    await expectClean(page, seen, "search results");

    // Artist pages render every name the same way: the first song's ten (the rest are on the pages above).
    for (const artist of songs[0]?.artists ?? []) {
      await visit(page, `/artists/${artist.id}`);
      await expect(page.getByRole("heading", { level: 1, name: artist.name })).toBeVisible();
      await expectClean(page, seen, `artist page of ${artist.name}`);
    }

    // The generated cover is an SVG document of its own when opened directly.
    for (const song of songs) {
      const res = await page.goto(song.coverUrl);
      expect(res?.status()).toBe(200);
      expect(await page.locator("script").count(), "no <script> in the cover").toBe(0);
      await expectClean(page, seen, `cover of ${song.title}`);
    }
    await Promise.all([listener.dispose(), admin.dispose()]);
  });
});

test.describe("stored and reflected XSS, as the listener", () => {
  test.use({ storageState: as("listener") });

  test("search queries and an upload's file name are shown as text", async ({ page }) => {
    const seen = await watch(page.context());
    // A sample of contexts (element, attribute, URL, template, network probe); the search page renders them all alike.
    for (const q of REFLECTED) {
      await visit(page, `/?q=${encodeURIComponent(q)}`);
      await expect(page.getByRole("heading", { name: "Search Results" })).toBeVisible();
      await expectClean(page, seen, `search for ${q}`);
    }

    // The upload page shows the chosen file's name; the server never stores it.
    const tag = `xss${unique()}`;
    const fileName = `<img src=x onerror="window.__xss=1"><svg onload=alert(1)> ${tag}.wav`;
    await visit(page, "/upload");
    await page.getByLabel("Title").fill(`File Name ${tag}`);
    await page.getByLabel("Primary artist").fill(`Uploader ${tag}`);
    await page.getByLabel("Genre").selectOption("Pop");
    await page.getByLabel("Audio file").setInputFiles({
      name: fileName,
      mimeType: "audio/wav",
      buffer: uniqueSongWav(2, 11025),
    });
    await expect(page.getByTestId("audio-file-name")).toHaveText(fileName);
    await expectClean(page, seen, "upload form with the file chosen");
    const uploaded = page.waitForResponse((r) => r.url().endsWith("/api/songs") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Upload Song" }).click();
    const response = await uploaded;
    expect(response.status()).toBe(201);
    const song = (await response.json()) as { id: string };
    // The success screen, then the new song's page (spec §4, issue 25).
    await expect(page).toHaveURL(new RegExp(`/song/${song.id}$`), { timeout: 15_000 });
    await expectClean(page, seen, "after the upload");
  });
});

test.describe("stored XSS, as an admin", () => {
  test.use({ storageState: as("admin") });

  test("reports, edit suggestions, edit comments, waitlist names, notifications and the audit log", async ({
    page,
    browser,
  }) => {
    const tag = `xss${unique()}`;
    const [first, second, third] = packPayloads(XSS_PAYLOADS, 1000 - tag.length - 1).map((t) => `${t} ${tag}`);
    const long = first ?? "";
    const titles = packPayloads(XSS_PAYLOADS, 200, tag.length + 1).map((t) => `${t} ${tag}`);
    const listener = await apiAs("listener");
    const admin = await apiAs("admin");
    const superAdmin = await apiAs("super");
    const member = await createMember("xss", { approve: true });

    // The member follows an artist whose name is a payload, so a new song of theirs notifies them.
    const artistName = `<svg onload=window.__xss=1> ${tag}`;
    const song = await uploadSong(listener, { title: titles[0] ?? tag, artists: [artistName] });
    const artistId = song.artists[0]?.id ?? "";
    expect((await member.api.put(`/api/artists/${artistId}/follow`)).status()).toBe(200);
    const followed = await uploadSong(listener, { title: titles[1] ?? `${tag} 2`, artists: [artistName] });
    await verifyAll(admin, [song, followed]);

    // A report with payload details (as the member, who is then told it was processed).
    await reportSong(member.api, song.id, "other", long);
    // An edit suggestion: payload title, artists and reason.
    const suggestion = await member.api.post(`/api/songs/${song.id}/edit-suggestions`, {
      data: {
        title: titles[2] ?? `${tag} 3`,
        artists: XSS_PAYLOADS.slice(0, 10).map((p) => p.slice(0, 90)),
        genre: "Electronic",
        releaseDate: null,
        soundcloudUrl: null,
        reason: second ?? long,
      },
    });
    expect(suggestion.status(), await suggestion.text()).toBe(201);
    // An admin's direct edit with a payload comment (the song's history shows it).
    const edit = await admin.patch(`/api/songs/${followed.id}`, {
      data: { title: titles[3] ?? titles[1], artists: [artistName], genre: "Rock", comment: third ?? long },
    });
    expect(edit.status(), await edit.text()).toBe(200);
    // A waitlist entry with a payload name.
    const visitor = await apiAsVisitor();
    const joined = await visitor.post("/api/waitlist", {
      data: { name: `${XSS_PAYLOADS[1]} ${tag}`.slice(0, 100), email: `xss-${tag}@example.com` },
    });
    expect(joined.status(), await joined.text()).toBe(200);

    const seen = await watch(page.context());
    await visit(page, "/reports");
    await expect(page.getByText(head(long)).first()).toBeVisible();
    await expectClean(page, seen, "reports queue");

    await visit(page, "/edit-suggestions");
    await expect(page.getByText(head(second ?? long)).first()).toBeVisible();
    await expectClean(page, seen, "edit suggestions queue");

    await visit(page, "/admin/waitlist");
    await expect(page.getByText(tag).first()).toBeVisible();
    await expectClean(page, seen, "waitlist management");

    await visit(page, `/song/${followed.id}`);
    await expect(page.getByTestId("history-entry").filter({ hasText: tag }).first()).toBeVisible();
    await expectClean(page, seen, "song page history");

    // Process the report and reject the suggestion with payload notes; hide and show the song (audit entries).
    const reportList = (await (await admin.get("/api/reports")).json()) as { items: { id: string; songId: string }[] };
    const report = reportList.items.find((r) => r.songId === song.id);
    expect(report, "the member's report is queued").toBeTruthy();
    expect((await admin.post(`/api/reports/${report?.id}/process`, { data: { action: "resolve" } })).status()).toBe(
      200,
    );
    const suggestions = (await (await admin.get("/api/edit-suggestions")).json()) as {
      items: { id: string; songId: string }[];
    };
    const pending = suggestions.items.find((s) => s.songId === song.id);
    const review = await admin.post(`/api/edit-suggestions/${pending?.id}/review`, {
      data: { action: "reject", notes: third ?? long },
    });
    expect(review.status(), await review.text()).toBe(200);
    for (const hidden of [true, false]) {
      const res = await admin.put(`/api/songs/${song.id}/hidden`, { data: { hidden } });
      expect(res.status(), await res.text()).toBe(200);
    }

    // The member's notifications: a new song by the followed artist, the report and the suggestion processed.
    const memberContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const memberSeen = await watch(memberContext);
    const login = await memberContext.request.post("/api/auth/login", {
      data: { email: member.email, password: member.password },
    });
    expect(login.status()).toBe(200);
    const memberView = await memberContext.newPage();
    await memberView.goto("/");
    await memberView.getByRole("button", { name: /^Notifications/ }).click();
    const list = memberView.getByRole("dialog", { name: "Notifications" });
    await expect(list.getByText(tag).first()).toBeVisible();
    await expectClean(memberView, memberSeen, "notifications");
    await visit(memberView, "/profile");
    await expect(memberView.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
    await expectClean(memberView, memberSeen, "profile");

    // Usernames cannot hold markup at all.
    for (const username of XSS_PAYLOADS.slice(0, 8)) {
      const res = await member.api.patch("/api/me", { data: { username: username.slice(0, 30) } });
      expect(res.status(), `username ${username}`).toBe(400);
    }

    // The super admin's audit log names the songs it acted on.
    const superContext = await browser.newContext({ storageState: as("super") });
    const superSeen = await watch(superContext);
    const superView = await superContext.newPage();
    await superView.goto("/admin/audit");
    await expect(superView.getByText(head(song.title)).first()).toBeVisible();
    await expectClean(superView, superSeen, "audit log");
    await Promise.all([memberContext.close(), superContext.close()]);
    await Promise.all([listener.dispose(), admin.dispose(), superAdmin.dispose(), member.api.dispose()]);
    await visitor.dispose();
  });

  test("an artist's bio and links", async ({ page }) => {
    const tag = `xss${unique()}`;
    const listener = await apiAs("listener");
    const admin = await apiAs("admin");
    const song = await uploadSong(listener, { title: `Bio ${tag}`, artists: [`Bio Artist ${tag}`] });
    const artistId = song.artists[0]?.id ?? "";
    const bio = (packPayloads(XSS_PAYLOADS, 1000 - tag.length - 1)[0] ?? "").concat(` ${tag}`);
    // Links must be http(s): a javascript: URL is refused outright.
    const refused = await admin.patch(`/api/artists/${artistId}`, {
      data: { bio, instagram: "javascript:window.__xss=1", twitter: "", website: "" },
    });
    expect(refused.status(), await refused.text()).toBe(400);
    // A valid URL with markup in it stays an attribute value.
    const res = await admin.patch(`/api/artists/${artistId}`, {
      data: {
        bio,
        instagram: "",
        twitter: "",
        website: `https://example.com/?q="><svg onload=window.__xss=1>&u=https://${PROBE_HOST}/`,
      },
    });
    expect(res.status(), await res.text()).toBe(200);

    const seen = await watch(page.context());
    await page.goto(`/artists/${artistId}`);
    await expect(page.getByText(head(bio)).first()).toBeVisible();
    await expectClean(page, seen, "artist page with the bio");
    await Promise.all([listener.dispose(), admin.dispose()]);
  });
});
