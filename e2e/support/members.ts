import {
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  request,
} from "@playwright/test";
import { baseURL, type DemoRole, storageStatePath } from "./env";
import { newCredentials } from "./fixtures";
import { waitForMailLink } from "./mail";

/** An API client signed in as a demo account (the cookies global setup saved). */
export function apiAs(role: DemoRole): Promise<APIRequestContext> {
  return request.newContext({ baseURL: baseURL(), storageState: storageStatePath(role) });
}

/**
 * An API client with no session. The empty storage state matters: inside a test, a new request
 * context would otherwise inherit the `storageState` the test file's `test.use` set.
 */
export function apiAsVisitor(): Promise<APIRequestContext> {
  return request.newContext({ baseURL: baseURL(), storageState: { cookies: [], origins: [] } });
}

/** Register an account through the API as `api` (its e-mail still unverified); returns the response. */
export function register(api: APIRequestContext, email: string, password: string): Promise<APIResponse> {
  return api.post("/api/auth/register", { data: { email, password, confirmPassword: password } });
}

/** A registered, verified account signed in through the API; `approve` lets it past the waitlist. */
export type Member = { email: string; password: string; id: string; api: APIRequestContext };

/** Register, verify from the outbox and sign in a new account; optionally let it in (as the admin). */
export async function createMember(tag: string, opts: { approve?: boolean; email?: string } = {}): Promise<Member> {
  const credentials = newCredentials(tag);
  const { password } = credentials;
  const email = opts.email ?? credentials.email;
  const api = await apiAsVisitor();
  const reg = await register(api, email, password);
  expect(reg.status(), await reg.text()).toBe(201);
  const link = await waitForMailLink(email, "/api/auth/verify-email");
  const verified = await api.get(link, { headers: { accept: "application/json" } });
  expect(verified.status(), await verified.text()).toBe(200);
  const login = await api.post("/api/auth/login", { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const { user } = (await login.json()) as { user: { id: string } };
  if (opts.approve) {
    const admin = await apiAs("admin");
    const res = await admin.post(`/api/admin/users/${user.id}/approve`);
    expect(res.status(), await res.text()).toBe(200);
    await admin.dispose();
  }
  return { email, password, id: user.id, api };
}

/** New members let in from the waitlist, one per tag, created in parallel. */
export function approvedMembers<T extends string[]>(...tags: T): Promise<{ [K in keyof T]: Member }> {
  return Promise.all(tags.map((tag) => createMember(tag, { approve: true }))) as Promise<{ [K in keyof T]: Member }>;
}

/** A browser context signed in as `member` (through the API, which sets the context's cookies). */
export async function memberContext(browser: Browser, member: Pick<Member, "email" | "password">) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const res = await context.request.post("/api/auth/login", {
    data: { email: member.email, password: member.password },
  });
  expect(res.status(), await res.text()).toBe(200);
  return context;
}

/** A page signed in as `member`, in a browser context of its own (close it with `closeAll`). */
export async function memberPage(
  browser: Browser,
  member: Pick<Member, "email" | "password">,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await memberContext(browser, member);
  return { context, page: await context.newPage() };
}

/** Close contexts a test opened. */
export async function closeAll(...contexts: BrowserContext[]): Promise<void> {
  await Promise.all(contexts.map((c) => c.close()));
}
