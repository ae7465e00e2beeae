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

type ErrorBody = { error?: { code?: unknown; message?: unknown; fields?: unknown } };

function toFields(raw: unknown): Record<string, string> | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (typeof v === "string") out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Call the JSON API; resolves with the parsed body or throws an ApiError. */
export async function apiFetch<T>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  if (typeof navigator !== "undefined" && !navigator.onLine) {
    throw new ApiError({ code: "offline", message: OFFLINE_MESSAGE, status: 0 });
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { accept: "application/json", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError({ code: "network", message: "Could not reach the server.", status: 0 });
  }
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const err = (data as ErrorBody | undefined)?.error;
    throw new ApiError({
      code: typeof err?.code === "string" ? err.code : "http_error",
      message: typeof err?.message === "string" ? err.message : MESSAGES.internal,
      status: res.status,
      fields: toFields(err?.fields),
    });
  }
  return data as T;
}

/** Shortcuts for the verbs the app uses. */
export const api = {
  get: <T>(path: string) => apiFetch<T>("GET", path),
  post: <T>(path: string, body?: unknown) => apiFetch<T>("POST", path, body ?? {}),
  put: <T>(path: string, body: unknown) => apiFetch<T>("PUT", path, body),
  patch: <T>(path: string, body: unknown) => apiFetch<T>("PATCH", path, body),
  delete: <T>(path: string) => apiFetch<T>("DELETE", path),
};
