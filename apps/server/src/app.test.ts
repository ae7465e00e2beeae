import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "./test/harness.js";
import { useWebDist } from "./test/web-dist.js";

const APP_JS = `console.log(${JSON.stringify("unheard ".repeat(200))});`;

describeEachDialect("server basics", (dialect) => {
  const webDir = useWebDist({
    "index.html": '<!doctype html><title>Unheard SPA</title><div id="root"></div>',
    "assets/app-1.js": APP_JS,
    "assets/app-1.js.br": brotliCompressSync(APP_JS),
    "assets/app-1.js.gz": gzipSync(APP_JS),
  });
  const ctx = useTestApp(dialect, { env: { WEB_DIST: webDir } });

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
    expect(res.json()).toEqual({ status: "ok", db: dialect, demoAudio: null });
  });

  it("tells the page the limits it should check before sending", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/config" });
    expect(res.json()).toEqual({ maxUploadMb: 200, soundcloudEnabled: false, waitlistGate: true });
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
    const pages = ["/", "/login?next=%2Fprofile", "/about/", "/ABOUT", "/landing", "/admin/users", "/songs/x/edit"];
    for (const url of pages) {
      const res = await ctx.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      // The public pages' titles are their own (modules/seo/page-head.ts); the member pages keep the app's.
      expect(res.body).toContain('<div id="root"></div>');
    }
  });

  // Issue 25: every path answered 200, so crawlers and link checkers saw no broken link. The client renders its
  // not-found page from the same HTML.
  it("answers paths no page has with 404 and the same page; GET and HEAD alike, assets unaffected", async () => {
    // The app's page as it is built: a page without a head of its own (the home page has one; issue 28).
    const page = await ctx.app.inject({ method: "GET", url: "/login" });
    expect(page.body).toContain("<title>Unheard SPA</title>");
    for (const url of [
      "/nope",
      "/no/such/page?x=1",
      "/song",
      "/song/a/b",
      "/about/more",
      "/admin",
      "/assets/gone.js",
    ]) {
      const res = await ctx.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"], url).toBe("text/html; charset=utf-8");
      expect(res.body, url).toBe(page.body);
    }
    // HEAD over a real socket, as `curl -I` sends it: Node leaves the body out, the headers match GET's.
    const address = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const head = await fetch(`${address}/nope`, { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(page.body)));
    expect(await head.text()).toBe("");
    expect((await fetch(`${address}/about`, { method: "HEAD" })).status).toBe(200);
    for (const method of ["GET", "HEAD"] as const) {
      const asset = await ctx.app.inject({ method, url: "/assets/app-1.js" });
      expect(asset.statusCode, method).toBe(200);
      expect(asset.headers["content-type"]).toMatch(/javascript/);
    }
  });

  it("answers bad input with 4xx JSON errors, never 500", async () => {
    const huge = JSON.stringify({ email: "a@b.c", password: "x".repeat(2 * 1024 * 1024), confirmPassword: "x" });
    // [what, url, content type, body, status, error code]
    const refusals: [string, string, string | undefined, string | object | undefined, number, string?][] = [
      ["malformed JSON", "/api/auth/login", "application/json", '{"email": "a@b.c", ', 400, "bad_request"],
      ["wrong types", "/api/auth/login", undefined, { email: 42, password: ["x"] }, 400, "validation_failed"],
      ["no body", "/api/auth/register", undefined, undefined, 400],
      ["a huge body", "/api/auth/register", "application/json", huge, 413, "payload_too_large"],
      [
        "a form",
        "/api/auth/login",
        "application/x-www-form-urlencoded",
        "email=a%40b.c&password=x",
        415,
        "unsupported_media_type",
      ],
      ["plain text", "/api/auth/login", "text/plain", "hello", 400],
    ];
    for (const [what, url, type, payload, status, code] of refusals) {
      const res = await ctx.app.inject({
        method: "POST",
        url,
        ...(type ? { headers: { "content-type": type } } : {}),
        ...(payload === undefined ? {} : { payload }),
      });
      expect(res.statusCode, what).toBe(status);
      expect(res.json().error, what).toHaveProperty("message");
      if (code) expect(res.json().error.code, what).toBe(code);
    }

    const longToken = await ctx.app.inject({ method: "GET", url: `/api/auth/verify-email?token=${"a".repeat(5000)}` });
    expect(longToken.statusCode).toBeLessThan(500);

    // The server is still fine afterwards.
    expect((await ctx.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });

  it("refuses writes from a foreign origin", async () => {
    const logoutFrom = (origin: string) =>
      ctx.app.inject({ method: "POST", url: "/api/auth/logout", headers: { origin }, payload: {} });
    expect((await logoutFrom("https://evil.example")).statusCode).toBe(403);
    expect((await logoutFrom("http://localhost:3000")).statusCode).toBe(200);
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
  const webDir = useWebDist({ "index.html": "<!doctype html><head><title>Unheard</title></head><body>SPA</body>" });
  const ctx = useTestApp(dialect, { env: { WEB_DIST: webDir } });

  it("serves /song/:id with the song's title and Open Graph tags, escaped", async () => {
    const { member, upload, verify } = await import("./test/fixtures.js");
    const m = await member(ctx, "og@example.com");
    const uploaded = await upload(ctx, m.cookie, { title: 'Quote "Song" <b>', artists: ["O&G"] });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const song = uploaded.json();
    // A pending song has no preview: link previews are public, pending songs are not (issue 24).
    const pending = await ctx.app.inject({ method: "GET", url: `/song/${song.id}` });
    expect(pending.body).toContain("<title>Unheard</title>");
    await verify(ctx, song.id);
    const res = await ctx.app.inject({ method: "GET", url: `/song/${song.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<title>Quote &quot;Song&quot; &lt;b&gt; · O&amp;G · Unheard</title>");
    expect(res.body).toContain(`<meta property="og:url" content="http://localhost:3000/song/${song.id}" />`);
    expect(res.body).toContain('<meta property="og:title"');
    expect(res.body).toContain("SPA");
    const unknown = await ctx.app.inject({ method: "GET", url: "/song/nope" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain("<title>Unheard</title>");
  });

  it("answers a song page 404 when the asker may not see the song, and an unknown artist's page 404", async () => {
    const { member, upload, verify } = await import("./test/fixtures.js");
    const owner = await member(ctx, "owner-pages@example.com");
    const other = await member(ctx, "other-pages@example.com");
    const admin = await member(ctx, "admin-pages@example.com", "admin");
    const song = (await upload(ctx, owner.cookie, { title: "Status Song", artists: ["Status Artist"] })).json();
    const page = (url: string, cookie?: string, method: "GET" | "HEAD" = "GET") =>
      ctx.app.inject({ method, url, headers: cookie ? { cookie } : {} });
    const statuses = async (url: string) => [
      (await page(url)).statusCode,
      (await page(url, owner.cookie)).statusCode,
      (await page(url, other.cookie)).statusCode,
      (await page(url, admin.cookie)).statusCode,
    ];

    // Pending: members only (visibility.ts); the answer depends on who asks.
    const pending = `/song/${song.id}`;
    expect(await statuses(pending)).toEqual([404, 200, 200, 200]);
    expect((await page(pending)).headers.vary).toBe("cookie");
    expect((await page(pending, undefined, "HEAD")).statusCode).toBe(404);
    await verify(ctx, song.id);
    expect(await statuses(pending)).toEqual([200, 200, 200, 200]);
    expect(await statuses(`/song/${encodeURIComponent(song.id)}/`)).toEqual([200, 200, 200, 200]);
    // Hidden: admins only.
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", song.id).execute();
    expect(await statuses(pending)).toEqual([404, 404, 404, 200]);
    expect(await statuses("/song/no-such-song")).toEqual([404, 404, 404, 404]);

    const artistId = song.artists[0].id;
    expect(await statuses(`/artists/${artistId}`)).toEqual([200, 200, 200, 200]);
    expect(await statuses("/artists/no-such-artist")).toEqual([404, 404, 404, 404]);
    // A member who is not an artist has no artist page.
    expect((await page(`/artists/${other.id}`)).statusCode).toBe(404);
  });
});
