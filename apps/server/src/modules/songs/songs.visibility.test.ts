import { MESSAGES } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { fetchAudio, type User, upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, signUp, useTestApp } from "../../test/harness.js";

// Issue 24: visitors read pending songs and downloaded their audio, and a hidden song's audio was cached
// publicly for a year. Visitors browse verified songs; members see pending ones too (they vote on them).
describeEachDialect("songs: who sees pending and hidden songs", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, fan, admin } = useMembers(ctx, {
    owner: "owner-vis@example.com",
    fan: "fan-vis@example.com",
    admin: ["admin-vis@example.com", "admin"],
  });
  let pending: { id: string; audio: { url: string } };
  let held: string;
  beforeAll(async () => {
    pending = (await upload(ctx, owner.cookie, { title: "Secret Pending", artists: ["Vis Artist"] })).json();
    held = await signUp(ctx, "held-vis@example.com");
  });
  const get = (url: string, u?: User | string) =>
    ctx.app.inject({
      method: "GET",
      url,
      headers: u ? { cookie: typeof u === "string" ? u : u.cookie } : {},
    });
  const asAdmin = (method: "POST" | "PUT", url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });

  it("answers visitors and waitlisted accounts about a pending song as about a missing one", async () => {
    const missing = await get("/api/songs/no-such-song");
    expect(missing.statusCode).toBe(404);
    for (const who of [undefined, held]) {
      for (const path of ["", "/history", "/versions"]) {
        const res = await get(`/api/songs/${pending.id}${path}`, who);
        expect(res.statusCode, `${path} as ${who ? "waitlisted" : "visitor"}`).toBe(404);
        expect(res.json().error.message).toBe(MESSAGES.songNotFound);
      }
      expect((await fetchAudio(ctx, pending.audio.url, who ? { cookie: who } : {})).statusCode).toBe(404);
    }
    expect((await get(`/api/songs/${pending.id}`)).body).toBe(missing.body);
  });

  it("shows a pending song and its audio to members, privately, without filling the visitors' cache", async () => {
    for (const u of [fan, owner, admin]) {
      const res = await get(`/api/songs/${pending.id}`, u);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: pending.id, status: "pending" });
      expect(res.headers["cache-control"]).toBe("private, no-cache");
    }
    expect((await get(`/api/songs/${pending.id}/history`, fan)).statusCode).toBe(200);
    const audio = await fetchAudio(ctx, pending.audio.url, { cookie: fan.cookie });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["cache-control"]).toBe("private, max-age=300");
    // The member's read did not leave the song in the answer visitors share.
    expect((await get(`/api/songs/${pending.id}`)).statusCode).toBe(404);
  });

  it("serves audio publicly for good only while the song is verified and visible", async () => {
    const song = (await upload(ctx, owner.cookie, { title: "Public Then Hidden", artists: ["Vis Artist"] })).json();
    expect((await asAdmin("POST", `/api/songs/${song.id}/verify`)).statusCode).toBe(200);
    const open = await fetchAudio(ctx, song.audio.url);
    expect(open.statusCode).toBe(200);
    expect(open.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get(`/api/songs/${song.id}`)).statusCode).toBe(200);
    expect((await asAdmin("PUT", `/api/songs/${song.id}/hidden`, { hidden: true })).statusCode).toBe(200);
    expect((await fetchAudio(ctx, song.audio.url)).statusCode).toBe(404);
    expect((await fetchAudio(ctx, song.audio.url, { cookie: fan.cookie })).statusCode).toBe(404);
    const forAdmin = await fetchAudio(ctx, song.audio.url, { cookie: admin.cookie });
    expect(forAdmin.statusCode).toBe(200);
    expect(forAdmin.headers["cache-control"]).toBe("private, no-store");
    // Its conditional request too: a 304 carries the same private header.
    const again = await fetchAudio(ctx, song.audio.url, {
      cookie: admin.cookie,
      "if-none-match": String(forAdmin.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers["cache-control"]).toBe("private, no-store");
    expect((await get(`/api/songs/${song.id}`)).statusCode).toBe(404);
  });
});
