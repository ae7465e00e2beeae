import { useQueryClient } from "@tanstack/react-query";
import { MESSAGES, TOAST_REDIRECT_DELAY_MS } from "@unheard/shared";
import { useState } from "react";
import { useNavigate } from "react-router";
import { forgetSignedInUser, useLogout } from "../api/auth";
import { handleError } from "../api/handle-error";
import { sleep } from "../lib/sleep";
import { toast } from "../lib/toast";

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
