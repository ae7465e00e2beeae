import { expect, test, uniqueEmail } from "./support/fixtures";
import { waitForMailLink } from "./support/mail";

test("a profile change made elsewhere reaches the open page through the event stream", async ({ page, context }) => {
  const email = uniqueEmail("live");
  const password = "live-pass-1";
  // context.request shares the page's cookies, so this signs the page in too.
  const api = context.request;
  expect(
    (await api.post("/api/auth/register", { data: { email, password, confirmPassword: password } })).status(),
  ).toBe(201);
  await api.get(await waitForMailLink(email, "/api/auth/verify-email"), { maxRedirects: 0 });
  expect((await api.post("/api/auth/login", { data: { email, password } })).ok()).toBe(true);

  const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events");
  await page.goto("/profile");
  const main = page.getByRole("main");
  const before = ((await (await api.get("/api/me")).json()) as { username: string }).username;
  await expect(main.getByRole("heading", { name: before })).toBeVisible();
  await streamOpen;

  // Another tab (here: a plain API call) renames the user; no reload happens on this page.
  const renamed = `live_${Date.now().toString(36)}`;
  expect((await api.patch("/api/me", { data: { username: renamed } })).ok()).toBe(true);
  await expect(main.getByRole("heading", { name: renamed })).toBeVisible();
  await expect(page.getByRole("complementary").getByText(renamed)).toBeVisible();
});
