import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import { loginPathFor } from "../../lib/safe-next";
import { toast } from "../../lib/toast";

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
