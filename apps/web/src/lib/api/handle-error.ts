import { toast } from "../toast";
import { isApiError, OFFLINE_MESSAGE } from "./api";

/**
 * Toast the outcome of a failed action: the server's message for a refusal (4xx), otherwise the
 * spec's fallback wording, with a hint when the browser is offline or the server is unreachable.
 */
export function handleError(err: unknown, fallbackMessage: string): void {
  if (isApiError(err)) {
    if (err.isNetwork) {
      toast.error(fallbackMessage, { description: err.code === "offline" ? OFFLINE_MESSAGE : err.message });
      return;
    }
    if (err.status >= 400 && err.status < 500) {
      toast.error(err.message || fallbackMessage);
      return;
    }
  }
  toast.error(fallbackMessage);
}
