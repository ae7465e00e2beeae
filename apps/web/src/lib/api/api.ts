import { MESSAGES } from "@unheard/shared";

/** Shown when an action cannot reach the server because the browser is offline. */
export const OFFLINE_MESSAGE = "You are offline. Changes will not be saved until the connection returns.";

/** Any failed API call: the server's code and user-facing message, plus per-field messages. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;

  constructor(opts: { code: string; message: string; status: number; fields?: Record<string, string> }) {
    super(opts.message);
    this.name = "ApiError";
    this.code = opts.code;
    this.status = opts.status;
    this.fields = opts.fields;
  }

  /** True when the request never reached the server (offline or network failure). */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

/** Narrow an unknown error to an ApiError. */
export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** The API's plain success answer. */
export type OkResponse = { ok: true; message?: string };

type ErrorBody = { error?: { code?: unknown; message?: unknown; fields?: unknown } };

function toFields(raw: unknown): Record<string, string> | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string") out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A response body as JSON; undefined when it is empty or not JSON (e.g. a proxy's error page). */
export function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The ApiError of a refused request: the server's code, message and field messages, else `fallbackMessage`. */
export function errorFromBody(status: number, body: unknown, fallbackMessage: string): ApiError {
  const err = (body as ErrorBody | undefined)?.error;
  return new ApiError({
    code: typeof err?.code === "string" ? err.code : "http_error",
    message: typeof err?.message === "string" ? err.message : fallbackMessage,
    status,
    fields: toFields(err?.fields),
  });
}

/** The error of a request made while the browser is offline (it is not sent at all). */
export const offlineError = () => new ApiError({ code: "offline", message: OFFLINE_MESSAGE, status: 0 });

/** The error of a request that never reached the server. */
export const networkError = () => new ApiError({ code: "network", message: "Could not reach the server.", status: 0 });

/** How a request reaches the API: the browser's fetch, or (server rendering, entry-server.tsx) the server itself. */
export type ApiTransport = (path: string, init: RequestInit) => Promise<Response>;

let transport: ApiTransport = (path, init) => fetch(path, init);

/** Send the app's API requests through `next` instead of fetch (the server's renderer answers them in-process). */
export function setApiTransport(next: ApiTransport): void {
  transport = next;
}

/**
 * Send a request to the API and resolve with the JSON answer; throws an ApiError when offline, unreachable or
 * refused (a refusal without a message of its own says `fallbackMessage`). An aborted request rejects as fetch does.
 */
export async function sendRequest<T>(path: string, init: RequestInit, fallbackMessage: string): Promise<T> {
  if (typeof navigator !== "undefined" && !navigator.onLine) throw offlineError();
  let res: Response;
  try {
    res = await transport(path, { ...init, credentials: "same-origin" });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw networkError();
  }
  const data = parseBody(await res.text());
  if (!res.ok) throw errorFromBody(res.status, data, fallbackMessage);
  return data as T;
}

/** Call the JSON API; resolves with the parsed body or throws an ApiError. */
export function apiFetch<T>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  return sendRequest<T>(
    path,
    {
      method,
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { accept: "application/json", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    MESSAGES.internal,
  );
}

/** Shortcuts for the verbs the app uses. */
export const api = {
  get: <T>(path: string) => apiFetch<T>("GET", path),
  post: <T>(path: string, body?: unknown) => apiFetch<T>("POST", path, body ?? {}),
  put: <T>(path: string, body: unknown) => apiFetch<T>("PUT", path, body),
  patch: <T>(path: string, body: unknown) => apiFetch<T>("PATCH", path, body),
  delete: <T>(path: string) => apiFetch<T>("DELETE", path),
};
