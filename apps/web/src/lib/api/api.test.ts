import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch } from "./api";

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: string, type = "application/json") {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body, { status, headers: { "content-type": type } })),
  );
}

describe("apiFetch", () => {
  it("returns the parsed body of a success", async () => {
    answer(200, JSON.stringify({ ok: true }));
    await expect(apiFetch("GET", "/api/x")).resolves.toEqual({ ok: true });
  });

  it("throws an ApiError carrying the server's code, message, fields and status", async () => {
    answer(409, JSON.stringify({ error: { code: "username_taken", message: "Taken", fields: { username: "Taken" } } }));
    const err = await apiFetch("PATCH", "/api/me", { username: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "username_taken", message: "Taken", status: 409, fields: { username: "Taken" } });
  });

  it("still throws an ApiError when the error body is not JSON (e.g. a proxy's 502 page)", async () => {
    answer(502, "<html>Bad gateway</html>", "text/html");
    await expect(apiFetch("GET", "/api/x")).rejects.toMatchObject({ code: "http_error", status: 502 });
  });

  it("reports an unreachable server as a network error", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    const err = await apiFetch("GET", "/api/x").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "network", status: 0, isNetwork: true });
  });

  it("fails at once while the browser is offline", async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal("fetch", fetchSpy);
    vi.stubGlobal("navigator", { onLine: false });
    await expect(apiFetch("POST", "/api/x", {})).rejects.toMatchObject({ code: "offline", status: 0 });
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
