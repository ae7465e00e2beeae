import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import { loginPathFor } from "../../lib/safe-next";
import { toast } from "../../lib/toast";
import { meQuery, useMe } from "./me";

/** Toast a "please login" message with a Login action that comes back to this page afterwards. */
export function useLoginPrompt(): (message: string) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (message: string) => {
      toast.error(message, {
        id: `login:${message}`,
        action: {
          label: "Login",
          onClick: () => void navigate(loginPathFor(`${location.pathname}${location.search}`)),
        },
      });
    },
    [navigate, location.pathname, location.search],
  );
}

/**
 * Run a member-only action, or prompt a visitor to log in. A press before the profile has loaded waits for
 * it, so a member who clicks at once is never told to log in.
 */
export function useSignedIn(): (loginMessage: string, act: () => void) => void {
  const { me, isLoading } = useMe();
  const queryClient = useQueryClient();
  const promptLogin = useLoginPrompt();
  return useCallback(
    (loginMessage: string, act: () => void) => {
      if (me) return act();
      if (!isLoading) return promptLogin(loginMessage);
      queryClient.ensureQueryData(meQuery).then(
        (loaded) => (loaded ? act() : promptLogin(loginMessage)),
        () => promptLogin(loginMessage),
      );
    },
    [me, isLoading, queryClient, promptLogin],
  );
}
