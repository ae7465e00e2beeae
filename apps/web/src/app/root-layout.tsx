import { Outlet, ScrollRestoration } from "react-router";
import { useLiveMe } from "../features/accounts/me";

/** Top of the route tree: keeps the current user live and restores scroll on navigation. */
export function RootLayout() {
  useLiveMe();
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
