import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { MESSAGES, TOAST_REDIRECT_DELAY_MS } from "@unheard/shared";
import { useState } from "react";
import { useNavigate } from "react-router";
import { api, type OkResponse } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { sleep } from "../../lib/sleep";
import { toast } from "../../lib/toast";
import { meKey, rememberEmail } from "./me";

/** Sign Out as the menus do it: call the API, toast, wait the spec's 600 ms, go home, then forget the user. */
export function useSignOut(): { signOut: () => Promise<void>; pending: boolean } {
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  return {
    pending: logout.isPending || leaving,
    signOut: async () => {
      try {
        await logout.mutateAsync();
      } catch (err) {
        handleError(err, MESSAGES.logoutFailed);
        return;
      }
      setLeaving(true);
      toast.success(MESSAGES.logoutSuccess);
      await sleep(TOAST_REDIRECT_DELAY_MS);
      // Leave a guarded page before the user becomes a visitor, or its guard would redirect to /login.
      await navigate("/");
      forgetSignedInUser(queryClient);
      setLeaving(false);
    },
  };
}

/**
 * Sign out on the server (kept here, apart from the other account calls in auth.ts: the menus load it up front).
 * The caller clears the cache with `forgetSignedInUser` once it has left the page, so a guarded page does not
 * first bounce to /login.
 */
export function useLogout() {
  return useMutation({ mutationFn: () => api.post<OkResponse>("/api/auth/logout") });
}

/** Drop every cached answer and mark the user a visitor. */
export function forgetSignedInUser(queryClient: QueryClient): void {
  rememberEmail(null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== meKey[0] });
  queryClient.setQueryData(meKey, null);
}
