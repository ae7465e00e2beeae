import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import { baseURL, DEMO, type DemoRole, storageStatePath } from "./env";

/**
 * Playwright's test with baseURL pointing at the server global setup started; every test also fails
 * on an uncaught exception in the page.
 */
export const test = base.extend<{ failOnPageError: undefined }, { waitForHydration: undefined }>({
  // A server-rendered page shows its buttons before the JavaScript has made them work (decision 026): every
  // navigation, on every page a test opens (its own contexts too), waits until the app has hydrated, as a person
  // waits for a page to finish loading. Playwright's Page has no hook for it: its goto and reload are wrapped.
  waitForHydration: [
    async ({ browser }, use) => {
      const context = await browser.newContext();
      const proto = Object.getPrototypeOf(await context.newPage()) as Page & { hydrationWait?: true };
      await context.close();
      if (!proto.hydrationWait) {
        proto.hydrationWait = true;
        const goto = proto.goto;
        const reload = proto.reload;
        proto.goto = async function (this: Page, ...args: Parameters<Page["goto"]>) {
          const res = await goto.apply(this, args);
          await waitUntilHydrated(this);
          return res;
        };
        proto.reload = async function (this: Page, ...args: Parameters<Page["reload"]>) {
          const res = await reload.apply(this, args);
          await waitUntilHydrated(this);
          return res;
        };
      }
      await use(undefined);
    },
    { scope: "worker", auto: true },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a destructured object.
  baseURL: async ({}, use) => {
    await use(baseURL());
  },
  failOnPageError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (err) => errors.push(err.message));
      await use(undefined);
      expect(errors, "uncaught errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Wait until a server-rendered page has hydrated (main.tsx marks `<html data-hydrated>`); others at once. */
export async function waitUntilHydrated(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => document.documentElement.dataset.hydrated !== undefined || !document.getElementById("unheard-queries"),
    )
    // The page moved on meanwhile (a redirect, a test's own navigation): that page is the test's business.
    .catch((err: Error) => {
      if (!/context was destroyed|navigation|Target page, context or browser has been closed/i.test(err.message))
        throw err;
    });
}

/** A short unique suffix, so parallel tests never share songs or names. */
export function unique(): string {
  return `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
}

/** A fresh e-mail address per call (lower case, as the server stores it), so tests never share an account. */
export function uniqueEmail(tag = "user"): string {
  return `e2e-${tag}-${unique()}@example.com`;
}

/** A fresh e-mail address and a password for a new account. */
export function newCredentials(tag: string): { email: string; password: string } {
  return { email: uniqueEmail(tag), password: `pw-${unique()}` };
}

/** Cookies of a signed-in demo account, for `test.use({ storageState: as("admin") })`. */
export function as(role: DemoRole): string {
  return storageStatePath(role);
}

/** Fill and submit the login form on the current page. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

/** Log in as a demo account through the form at /login (optionally with a return path). */
export async function loginAs(page: Page, role: DemoRole, next?: string): Promise<void> {
  await page.goto(next ? `/login?next=${encodeURIComponent(next)}` : "/login");
  await submitLogin(page, DEMO[role].email, DEMO[role].password);
}

/** The side menu (desktop) by its accessible name. */
export const sideMenu = (page: Page) => page.getByRole("complementary").getByRole("navigation", { name: "Main" });
/** The mobile bottom bar. */
export const bottomBar = (page: Page) => page.getByRole("navigation", { name: "Bottom navigation" });
/** A toast by its text. */
export const toastWith = (page: Page, text: string | RegExp) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });
