import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, describeEachDialect, type TestContext } from "./test/harness.js";

const APP_JS = `console.log(${JSON.stringify("unheard ".repeat(200))});`;

describeEachDialect("server basics", (dialect) => {
  let ctx: TestContext;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), "unheard-web-"));
    writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Unheard SPA</title>");
    mkdirSync(path.join(webDir, "assets"));
    writeFileSync(path.join(webDir, "assets", "app-1.js"), APP_JS);
    writeFileSync(path.join(webDir, "assets", "app-1.js.br"), brotliCompressSync(APP_JS));
    writeFileSync(path.join(webDir, "assets", "app-1.js.gz"), gzipSync(APP_JS));
    ctx = await createTestApp(dialect, { env: { WEB_DIST: webDir } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("sends the build's compressed copies of assets to browsers that accept them", async () => {
    const br = await ctx.app.inject({
      method: "GET",
      url: "/assets/app-1.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(APP_JS);
    const gz = await ctx.app.inject({ method: "GET", url: "/assets/app-1.js", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(APP_JS);
    const plain = await ctx.app.inject({ method: "GET", url: "/assets/app-1.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(APP_JS);
  });

  it("answers health after a real query", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", db: dialect });
  });

  it("tells the page the limits it should check before sending", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/config" });
    expect(res.json()).toEqual({ maxUploadMb: 50, soundcloudEnabled: false, waitlistGate: true });
  });

  it("answers unknown API routes with a JSON 404, never the page", async () => {
    for (const url of ["/api/nope", "/api/songs/x/nothing", "/api"]) {
      const res = await ctx.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      expect(res.json().error.code).toBe("not_found");
    }
    const post = await ctx.app.inject({ method: "POST", url: "/api/nope", payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it("serves the web app for page routes", async () => {
    for (const url of ["/", "/song/abc", "/login?next=%2Fprofile"]) {
      const res = await ctx.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain("Unheard SPA");
    }
  });

  it("answers bad input with 4xx JSON errors, never 500", async () => {
    const malformed = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: '{"email": "a@b.c", ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe("bad_request");

    const wrongTypes = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: 42, password: ["x"] },
    });
    expect(wrongTypes.statusCode).toBe(400);
    expect(wrongTypes.json().error.code).toBe("validation_failed");

    const missing = await ctx.app.inject({ method: "POST", url: "/api/auth/register" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toHaveProperty("message");

    const huge = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/register",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ email: "a@b.c", password: "x".repeat(2 * 1024 * 1024), confirmPassword: "x" }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe("payload_too_large");

    const form = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "email=a%40b.c&password=x",
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().error.code).toBe("unsupported_media_type");

    const textBody = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "text/plain" },
      payload: "hello",
    });
    expect(textBody.statusCode).toBe(400);

    const longToken = await ctx.app.inject({ method: "GET", url: `/api/auth/verify-email?token=${"a".repeat(5000)}` });
    expect(longToken.statusCode).toBeLessThan(500);

    // The server is still fine afterwards.
    expect((await ctx.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });

  it("refuses writes from a foreign origin", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { origin: "https://evil.example" },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    const same = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { origin: "http://localhost:3000" },
      payload: {},
    });
    expect(same.statusCode).toBe(200);
  });

  it("publishes an OpenAPI document generated from the schemas, and its docs page", async () => {
    const doc = (await ctx.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/health", "/api/auth/login", "/api/me"]));
    const login = doc.paths["/api/auth/login"].post;
    expect(login.requestBody.content["application/json"].schema.properties).toHaveProperty("email");
    const ui = await ctx.app.inject({ method: "GET", url: "/api/docs" });
    expect([200, 302]).toContain(ui.statusCode);
    const page = await ctx.app.inject({ method: "GET", url: "/api/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
  });

  it("sets security headers", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/" });
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(String(res.headers["content-security-policy"])).toContain("default-src 'self'");
  });
});

describeEachDialect("song page previews", (dialect) => {
  let ctx: TestContext;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), "unheard-web-"));
    writeFileSync(
      path.join(webDir, "index.html"),
      "<!doctype html><head><title>Unheard</title></head><body>SPA</body>",
    );
    ctx = await createTestApp(dialect, { env: { WEB_DIST: webDir } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("serves /song/:id with the song's title and Open Graph tags, escaped", async () => {
    const { member, upload } = await import("./test/fixtures.js");
    const m = await member(ctx, "og@example.com");
    const uploaded = await upload(ctx, m.cookie, { title: 'Quote "Song" <b>', artists: ["O&G"] });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const song = uploaded.json();
    const res = await ctx.app.inject({ method: "GET", url: `/song/${song.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<title>Quote &quot;Song&quot; &lt;b&gt; · O&amp;G · Unheard</title>");
    expect(res.body).toContain(`<meta property="og:url" content="http://localhost:3000/song/${song.id}" />`);
    expect(res.body).toContain('<meta property="og:title"');
    expect(res.body).toContain("SPA");
    const unknown = await ctx.app.inject({ method: "GET", url: "/song/nope" });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain("<title>Unheard</title>");
  });
});
