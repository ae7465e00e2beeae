import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import { baseURL, DEMO, type DemoRole, storageStatePath } from "./env";

/**
 * Playwright's test with baseURL pointing at the server global setup started; every test also fails
 * on an uncaught exception in the page.
 */
export const test = base.extend<{ failOnPageError: undefined }>({
  // A server-rendered page shows its buttons before the JavaScript has made them work (decision 026): every
  // navigation waits until the app has hydrated, as a person waits for a page to finish loading.
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const res = await goto(url, options);
      await waitUntilHydrated(page);
      return res;
    };
    page.reload = async (options) => {
      const res = await reload(options);
      await waitUntilHydrated(page);
      return res;
    };
    await use(page);
  },
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
  await page.waitForFunction(
    () => document.documentElement.dataset.hydrated !== undefined || !document.getElementById("unheard-queries"),
  );
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
