import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { as, expect, unique } from "./support/fixtures";
import { apiAs } from "./support/members";
import { test } from "./support/pending-lock";
import { uploadSong } from "./support/songs";
import { trackerNames, trackerWorkbook } from "./support/tracker-workbook";

// Issue 28: WCAG 2.2 AA (docs/ACCESSIBILITY.md). axe-core checks every page of the app, and the dialogs, menus,
// popups and toasts that open on them, for each role (visitor, listener, admin, super admin), on a desktop and on a
// phone. A serious or critical violation fails the test, named by rule, element and page. Nothing here changes data
// (but one song of a new artist per worker, for issue 37's changelog and links): dialogs are opened and left unsent.
// Each test checks several pages in one browser page, to keep the run short.

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
// WCAG 2.5.3 (label in name): axe keeps this rule among its experimental ones, off unless asked for.
const AXE_RULES = { "label-content-name-mismatch": { enabled: true } };
const FAILING = new Set(["serious", "critical"]);

type Role = "visitor" | "listener" | "admin" | "super";
const ROLES: Role[] = ["visitor", "listener", "admin", "super"];
const MEMBERS: Role[] = ["listener", "admin", "super"];
const ADMINS: Role[] = ["admin", "super"];

const WIDTHS = [
  { name: "1440", viewport: { width: 1440, height: 900 } },
  { name: "375", viewport: { width: 375, height: 812 } },
] as const;
type Width = (typeof WIDTHS)[number]["name"];

/** Demo catalogue ids (random per server start), looked up once per worker. */
type Ids = {
  /** Midnight Circuit: verified, by Nova Reyes, uploaded by the listener (its owner: Edit, no Report). */
  song: string;
  /** A seeded verified song somebody else uploaded (Report, Suggest edit). */
  other: string;
  /** A seeded pending song somebody else uploaded (vote buttons, the downvote dialog). */
  pending: string;
  /** Nova Reyes: a verified artist whose songs have eras (the tracker). */
  artist: string;
  /** Kid Halcyon: an unclaimed profile created from a song's credits. */
  placeholder: string;
  /** One of Nova Reyes's named eras (its own page: ?era=). */
  era: string;
  /** Issue 37: a verified song with links and a year-only leak date, edited from snippet to full. */
  linked: string;
  /** Its artist: a tracker with an Updates panel of three lines (upload, two edits). */
  changed: string;
};

let idsOnce: Promise<Ids> | undefined;
const demoIds = () => {
  idsOnce ??= lookUpIds();
  return idsOnce;
};

async function getJson<T>(api: APIRequestContext, url: string): Promise<T> {
  const res = await api.get(url);
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/**
 * Issue 37: a song of a new artist, uploaded and verified by the admin and edited twice (links, a year-only leak
 * date, snippet → full), so its page lists links and its artist's Updates has lines of each kind of source.
 */
async function changelogSong(): Promise<{ linked: string; changed: string }> {
  const admin = await apiAs("admin");
  try {
    const song = await uploadSong(admin, { title: `Undertow ${unique()}`, artists: [`A11y Tracker ${unique()}`] });
    const edit = async (change: Record<string, unknown>) => {
      const res = await admin.patch(`/api/songs/${song.id}`, {
        data: { title: song.title, artists: song.artists.map((a) => a.name), genre: song.genre, ...change },
      });
      expect(res.status(), await res.text()).toBe(200);
    };
    await edit({ availability: "snippet", quality: "low", comment: "A snippet" });
    const verified = await admin.post(`/api/songs/${song.id}/verify`);
    expect(verified.status(), await verified.text()).toBe(200);
    await edit({
      availability: "full",
      quality: "cd_quality",
      leakDate: "2019",
      links: ["https://pixeldrain.com/u/a11y-full", "https://www.example.org/mirror/undertow"],
      comment: "The full song",
    });
    return { linked: song.id, changed: song.artists[0]?.id ?? "" };
  } finally {
    await admin.dispose();
  }
}

async function lookUpIds(): Promise<Ids> {
  const changelog = changelogSong();
  const listener = await apiAs("listener");
  try {
    // Seeded songs are dated before the server started; other specs' songs may change or go while this one runs.
    const seeded = (s: Song) => !s.isOwner && Date.parse(s.createdAt) < Date.now() - 864e5;
    const [midnight, kid, newest, pendingPage] = await Promise.all([
      getJson<{ songs: Song[] }>(listener, "/api/search?q=Midnight%20Circuit"),
      getJson<{ artists: { id: string; name: string }[] }>(listener, "/api/search?q=Kid%20Halcyon"),
      getJson<{ items: Song[] }>(listener, "/api/songs?feed=newest&limit=48"),
      getJson<{ items: Song[] }>(listener, "/api/songs/pending"),
    ]);
    const song = midnight.songs.find((s) => s.title === "Midnight Circuit");
    const nova = song?.artists.find((a) => a.name === "Nova Reyes")?.id;
    const tracker = nova
      ? await getJson<{ eras: { name: string | null }[] }>(listener, `/api/artists/${nova}/tracker`)
      : undefined;
    const ids = {
      song: song?.id,
      other: newest.items.find((s) => seeded(s) && s.status === "verified")?.id,
      pending: pendingPage.items.find(seeded)?.id,
      artist: nova,
      placeholder: kid.artists.find((a) => a.name === "Kid Halcyon")?.id,
      era: tracker?.eras.find((e) => e.name)?.name ?? undefined,
      ...(await changelog),
    };
    const missing = Object.entries(ids).filter(([, id]) => !id);
    if (missing.length > 0) throw new Error(`The demo data lacks what this spec needs: ${missing.map(([k]) => k)}`);
    return ids as Ids;
  } finally {
    await listener.dispose();
  }
}

/**
 * One state to check: a page, or something opened on it (a dialog, a menu, a popup, a toast). An opened state is
 * checked within `scope` only: the page behind it has its own view.
 */
type View = {
  name: string;
  path: (ids: Ids) => string;
  roles: Role[];
  /** Only at this width (the phone's menu sheet). */
  width?: Width;
  open?: (page: Page) => Promise<void>;
  scope?: string;
};

const DIALOG = '[role="dialog"], [role="alertdialog"]';

/** A `tracker_update` notification as the server sends it (issue 37). */
const TRACKER_UPDATE = {
  id: "a11y-tracker-update",
  kind: "tracker_update",
  payload: {
    artistId: "a11y-artist",
    artistName: "Mara Quill",
    batchId: "a11y-batch",
    source: "sync",
    summary: "2 new songs, 1 upgrade",
    items: [
      { songId: "s1", summary: "New: Night Ferry (snippet, LQ)" },
      { songId: "s2", summary: "New: Glass Tide (full, HQ)" },
      { songId: "s3", summary: "Undertow: snippet → full, CD quality" },
    ],
    more: 0,
  },
  read: false,
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
};

/**
 * Issue 39: Identify shows `answer` for a clip, its request answered here (nothing is identified). A found song is
 * the demo's Midnight Circuit, heard sped up, with its tracker entry.
 */
function identifyAnswer(found: boolean) {
  return async (page: Page) => {
    const ids = await demoIds();
    const song = await getJson<Song>(page.request, `/api/songs/${ids.song}`);
    const answer = found
      ? {
          seconds: 8,
          heard: true,
          message: `It's "${song.title}"`,
          match: {
            song: {
              id: song.id,
              title: song.title,
              artists: song.artists,
              coverUrl: song.coverUrl,
              status: song.status,
            },
            certainty: "likely",
            offsetSeconds: 72.4,
            transform: { kind: "speed", tempo: 1.12, pitch: 1.12, label: "sped up 12%" },
            tracker: {
              artistId: ids.artist,
              era: ids.era,
              availability: "snippet",
              quality: "high",
              versionLabel: null,
              leakDate: null,
            },
          },
        }
      : { seconds: 8, heard: true, message: "Not on Unheard yet", match: null };
    await page.route("**/api/identify/file", (route) => route.fulfill({ json: answer }));
    await page
      .getByLabel("Or upload a clip")
      .setInputFiles({ name: "clip.wav", mimeType: "audio/wav", buffer: Buffer.from("RIFF clip") });
    await expect(page.getByTestId("identify-answer")).toBeFocused();
  };
}

/** Press a button in the main area and wait for the dialog it opens. */
function dialog(button: string | RegExp, name: string | RegExp, role: "dialog" | "alertdialog" = "dialog") {
  return async (page: Page) => {
    await page.getByRole("main").getByRole("button", { name: button }).first().click();
    await expect(page.getByRole(role, { name })).toBeVisible();
  };
}

/** Play the first song of the trending grid: the player bar shows (issue 29). */
async function playFirst(page: Page) {
  await page
    .getByRole("region", { name: "Trending songs" })
    .getByRole("button", { name: /^Play / })
    .first()
    .click();
  await expect(page.getByRole("region", { name: "Player" }).getByRole("button", { name: "Pause" })).toBeVisible();
}

// Every page, for each role it looks different to: a visitor, the listener (a member: favourite, vote, follow and
// report states, the member's menus), an admin (moderation, verify, the voters panel) and the super admin (delete,
// verify all, the tracker's era editor, the import, the audio tools). The side menu, with each role's links, is on
// every page at 1440 px; on a phone each role's menu sheet is opened. Pages that show a role nothing new (home or
// about as an admin) are left to the roles they change for, to keep the run short.
const VIEWS: View[] = [
  // Public pages.
  { name: "home", path: () => "/", roles: ["visitor", "listener"] },
  { name: "search results", path: () => "/?q=midnight", roles: ["visitor"] },
  { name: "about", path: () => "/about", roles: ["visitor"] },
  { name: "developers", path: () => "/developers", roles: ["visitor"] },
  { name: "landing", path: () => "/landing", roles: ["visitor"] },
  { name: "song", path: (ids) => `/song/${ids.song}`, roles: ["visitor", "listener", "super"] },
  { name: "another's song", path: (ids) => `/song/${ids.other}`, roles: ["visitor", "listener"] },
  { name: "artist tracker", path: (ids) => `/artists/${ids.artist}`, roles: ["visitor", "listener", "super"] },
  { name: "artist tracker table", path: (ids) => `/artists/${ids.artist}?view=table`, roles: ["visitor"] },
  { name: "artist cards", path: (ids) => `/artists/${ids.artist}?view=cards`, roles: ["listener"] },
  { name: "era page", path: (ids) => `/artists/${ids.artist}?era=${encodeURIComponent(ids.era)}`, roles: ["visitor"] },
  { name: "unclaimed artist", path: (ids) => `/artists/${ids.placeholder}`, roles: ["visitor", "admin"] },
  { name: "page not found", path: () => "/no/such/page", roles: ["visitor"] },
  // Issue 37: every change told (Recent changes, an artist's Updates), a song's links.
  { name: "recent changes", path: () => "/changes", roles: ["visitor", "listener"] },
  { name: "artist updates", path: (ids) => `/artists/${ids.changed}`, roles: ["visitor", "listener"] },
  { name: "song with links", path: (ids) => `/song/${ids.linked}`, roles: ["visitor"] },
  // Issue 29: the player bar (the whole page with it) and its queue panel.
  { name: "player bar", path: () => "/", roles: ["visitor", "listener"], open: playFirst },
  {
    name: "queue panel",
    path: () => "/",
    roles: ["visitor"],
    open: async (page) => {
      await playFirst(page);
      await page
        .getByRole("region", { name: "Player" })
        .getByRole("button", { name: /^Queue/ })
        .click();
      await expect(page.getByRole("dialog", { name: "Queue" })).toBeVisible();
    },
    scope: DIALOG,
  },
  {
    name: "search suggestions",
    path: () => "/about",
    roles: ["visitor"],
    open: async (page) => {
      await page.getByRole("combobox", { name: "Search songs" }).fill("mid");
      await expect(page.getByRole("listbox", { name: "Search suggestions" }).getByRole("option").first()).toBeVisible();
    },
    scope: "search",
  },
  {
    name: "mobile menu sheet",
    path: () => "/about",
    roles: ROLES,
    width: "375",
    open: async (page) => {
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
    },
    scope: DIALOG,
  },

  // A visitor's own pages.
  { name: "login", path: () => "/login", roles: ["visitor"] },
  { name: "register", path: () => "/register", roles: ["visitor"] },
  { name: "waitlist", path: () => "/waitlist", roles: ["visitor"] },
  { name: "reset password", path: () => "/reset-password?token=abc", roles: ["visitor"] },
  {
    // Issue 38: "Forgot password?" opens a form of its own.
    name: "forgot password form",
    path: () => "/login",
    roles: ["visitor"],
    open: async (page) => {
      await page.getByRole("button", { name: "Forgot password?" }).click();
      await expect(page.getByRole("form", { name: "Reset your password" })).toBeVisible();
    },
  },
  { name: "profile, logged out", path: () => "/profile", roles: ["visitor"] },
  { name: "identify, logged out", path: () => "/identify", roles: ["visitor"] },
  { name: "pending song, logged out", path: (ids) => `/song/${ids.pending}`, roles: ["visitor"] },
  {
    name: "login prompt toast",
    path: (ids) => `/song/${ids.other}`,
    roles: ["visitor"],
    open: async (page) => {
      await page
        .getByRole("main")
        .getByRole("button", { name: /favorites?: / })
        .click();
      await expect(page.locator("[data-sonner-toast]").getByRole("button", { name: "Login" })).toBeVisible();
    },
    scope: "[data-sonner-toaster]",
  },

  // Members.
  { name: "favorites", path: () => "/favorites", roles: ["listener"] },
  { name: "pending", path: () => "/pending", roles: MEMBERS },
  { name: "upload", path: () => "/upload", roles: ["listener"] },
  {
    // Issue 38: the artist fields suggest the artists already on Unheard.
    name: "upload, artist suggestions",
    path: () => "/upload",
    roles: ["listener"],
    open: async (page) => {
      await page.getByRole("combobox", { name: "Primary artist" }).fill("nova");
      await expect(page.getByRole("listbox", { name: "Artist suggestions" }).getByRole("option").first()).toBeVisible();
    },
    scope: "form",
  },
  { name: "profile", path: () => "/profile", roles: ["listener"] },
  // Issue 39: Identify, with the big record button; an answer naming a song, and "Not on Unheard yet".
  { name: "identify", path: () => "/identify", roles: ["listener"] },
  { name: "identify, a song found", path: () => "/identify", roles: ["listener"], open: identifyAnswer(true) },
  { name: "identify, not on Unheard yet", path: () => "/identify", roles: ["listener"], open: identifyAnswer(false) },
  { name: "pending song", path: (ids) => `/song/${ids.pending}`, roles: ["listener", "admin"] },
  { name: "suggest an edit", path: (ids) => `/songs/${ids.other}/suggest-edit`, roles: ["listener"] },
  { name: "edit own song", path: (ids) => `/songs/${ids.song}/edit`, roles: ["listener"] },
  { name: "admin page, as a member", path: () => "/reports", roles: ["listener"] },
  {
    name: "report dialog",
    path: (ids) => `/song/${ids.other}`,
    roles: ["listener"],
    open: dialog("Report", "Report song"),
    scope: DIALOG,
  },
  {
    name: "downvote dialog",
    path: (ids) => `/song/${ids.pending}`,
    roles: ["listener"],
    open: dialog(/^Downvote/, "Downvote song"),
    scope: DIALOG,
  },
  {
    name: "notifications",
    path: () => "/about",
    roles: ["listener"],
    open: async (page) => {
      await page.getByRole("button", { name: /^Notifications/ }).click();
      await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
    },
    scope: DIALOG,
  },
  {
    // Issue 37: a followed artist's tracker changed. The list's first page gets one such notification on top (the
    // listener follows no synced tracker, and this spec changes nothing of theirs).
    name: "notifications, a tracker update",
    path: () => "/about",
    roles: ["listener"],
    open: async (page) => {
      await page.route(/\/api\/notifications\?limit=20$/, async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { items: unknown[] };
        body.items.unshift(TRACKER_UPDATE);
        await route.fulfill({ response: res, json: body });
      });
      await page.getByRole("button", { name: /^Notifications/ }).click();
      const list = page.getByRole("dialog", { name: "Notifications" });
      await expect(list.getByRole("link", { name: /^Mara Quill's tracker: 2 new songs, 1 upgrade/ })).toBeVisible();
    },
    scope: DIALOG,
  },

  // Admins.
  { name: "reports", path: () => "/reports", roles: ["admin"] },
  { name: "edit suggestions", path: () => "/edit-suggestions", roles: ["admin"] },
  { name: "waitlist management", path: () => "/admin/waitlist", roles: ["admin"] },
  { name: "users", path: () => "/admin/users", roles: ADMINS },
  { name: "import, without the permission", path: () => "/admin/import", roles: ["admin"] },
  { name: "edit another's song", path: (ids) => `/songs/${ids.other}/edit`, roles: ["admin"] },
  {
    name: "review dialog",
    path: () => "/edit-suggestions",
    roles: ["admin"],
    open: dialog("Review", "Review edit suggestion"),
    scope: DIALOG,
  },
  {
    name: "artist edit dialog",
    path: (ids) => `/artists/${ids.artist}`,
    roles: ["admin"],
    open: dialog("Edit profile", "Edit artist profile"),
    scope: DIALOG,
  },

  // The super admin.
  { name: "audit log", path: () => "/admin/audit", roles: ["super"] },
  { name: "import", path: () => "/admin/import", roles: ["super"] },
  {
    // Issue 37: a whole workbook's dry run (tabs, header rows, a mapping per tab, eras); nothing is imported.
    name: "import, a workbook's dry run",
    path: () => "/admin/import",
    roles: ["super"],
    open: async (page) => {
      const names = trackerNames(unique());
      await page.getByLabel("Default artist").fill(names.artist);
      await page.getByLabel(/^Tracker file/).setInputFiles({
        name: "tracker.xlsx",
        mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        buffer: trackerWorkbook(names),
      });
      await expect(page.getByLabel("Dry run summary")).toBeVisible();
    },
  },
  { name: "linked trackers", path: () => "/admin/import?view=linked", roles: ["super"] },
  { name: "song recognition", path: () => "/song-recognition", roles: ["super"] },
  { name: "audio quality test", path: () => "/audio-quality-test", roles: ["super"] },
  {
    name: "delete confirmation",
    path: () => "/pending",
    roles: ["super"],
    open: dialog(/^Delete$/, /^Delete/, "alertdialog"),
    scope: DIALOG,
  },
  {
    name: "verify all confirmation",
    path: () => "/pending",
    roles: ["super"],
    open: dialog("Verify All Songs", "Verify all songs?", "alertdialog"),
    scope: DIALOG,
  },
  {
    name: "era edit dialog",
    path: (ids) => `/artists/${ids.artist}`,
    roles: ["super"],
    open: dialog(/^Edit era/, /^Edit era/),
    scope: DIALOG,
  },
];

/** Wait until the page shows its content: its heading, no loading spinner, no entrance animation still running. */
async function settle(page: Page): Promise<void> {
  await expect(page.locator("h1").first()).toBeVisible();
  await expect(page.locator('[role="status"]:has(.animate-spin)')).toHaveCount(0);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
}

type Finding = { view: string; url: string; rule: string; impact: string; target: string; summary: string };

async function check(page: Page, view: View, ids: Ids): Promise<Finding[]> {
  await page.goto(view.path(ids));
  await settle(page);
  if (view.open) {
    await view.open(page);
    await settle(page);
  }
  const url = page.url().replace(/^https?:\/\/[^/]+/, "");
  const axe = new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ["violations"], rules: AXE_RULES });
  const results = await (view.scope ? axe.include(view.scope) : axe).analyze();
  const findings = results.violations
    .filter((v) => FAILING.has(v.impact ?? ""))
    .flatMap((v) =>
      v.nodes.map((node) => ({
        view: view.name,
        url,
        rule: v.id,
        impact: v.impact ?? "",
        target: node.target.join(" "),
        summary: (node.failureSummary ?? v.help).replace(/\s+/g, " "),
      })),
    );
  // WCAG 1.4.10 (reflow), which axe does not check: the page never scrolls sideways, only its scrolling rows do.
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  if (scrollWidth > clientWidth) {
    findings.push({
      view: view.name,
      url,
      rule: "reflow",
      impact: "serious",
      target: "html",
      summary: `The page is ${scrollWidth} px wide in a ${clientWidth} px window: it scrolls sideways.`,
    });
  }
  return findings;
}

/** The views a role sees at a width, spread over tests of about `size` views each. */
function groups(role: Role, width: Width, size = 5): View[][] {
  const views = VIEWS.filter((v) => v.roles.includes(role) && (!v.width || v.width === width));
  const count = Math.ceil(views.length / size);
  return Array.from({ length: count }, (_, i) => views.filter((_, j) => j % count === i));
}

// The seeded pending song must stay pending while the spec looks at it ('Verify All Songs' waits).
test.use({ holdsPendingSongs: true });

for (const { name: width, viewport } of WIDTHS) {
  for (const role of ROLES) {
    test.describe(`axe at ${width} px as ${role}`, () => {
      test.use({ viewport, ...(role === "visitor" ? {} : { storageState: as(role) }) });

      for (const group of groups(role, width)) {
        test(group.map((v) => v.name).join(", "), async ({ page }, testInfo) => {
          test.setTimeout(60_000);
          const ids = await demoIds();
          const findings: Finding[] = [];
          for (const view of group) {
            await test.step(view.name, async () => {
              findings.push(...(await check(page, view, ids)));
            });
          }
          await testInfo.attach("axe-findings.json", {
            body: JSON.stringify(findings, null, 2),
            contentType: "application/json",
          });
          const lines = findings.map(
            (f) => `${f.rule} (${f.impact}) on ${f.view} [${f.url}]: ${f.target}\n    ${f.summary}`,
          );
          expect(lines, `serious or critical axe violations:\n${lines.join("\n")}`).toEqual([]);
        });
      }
    });
  }
}

test.describe("reduced motion", () => {
  /** Animations running now that never end (a pulse, a spinner). */
  const endless = (page: Page) =>
    page.evaluate(
      () =>
        document
          .getAnimations()
          .filter(
            (a) => a.playState === "running" && a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
          ).length,
    );

  test("the landing player pulses while it plays, and stands still when motion is reduced", async ({ page }) => {
    const player = page.getByRole("region", { name: "Demo player" });
    const slide = player.getByRole("group", { name: /^1 of \d+: / });
    // Nothing plays by itself (issue 38): Play starts the first track.
    await page.goto("/landing");
    await player.getByRole("button", { name: "Play", exact: true }).click();
    await expect(player.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
    await expect.poll(() => endless(page)).toBeGreaterThan(0);
    expect(await slide.evaluate((el) => Number.parseFloat(getComputedStyle(el).transitionDuration))).toBeGreaterThan(
      0.1,
    );

    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.reload();
    await player.getByRole("button", { name: "Play", exact: true }).click();
    await expect(player.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
    expect(await endless(page)).toBe(0);
    // The slides change size and opacity at once, and the track list moves without a smooth scroll.
    expect(await slide.evaluate((el) => Number.parseFloat(getComputedStyle(el).transitionDuration))).toBeLessThan(0.01);
    const rail = slide.locator("xpath=..");
    expect(await rail.evaluate((el) => getComputedStyle(el).scrollBehavior)).toBe("auto");
  });
});
