import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { FullPageSpinner } from "../ui/spinner";
import { RequireAdmin, RequireAuth, RequireSuperAdmin } from "./guards";
import { RootLayout } from "./root-layout";
import { RouteError } from "./route-error";
import { Shell } from "./shell";

/**
 * The route of a screen at `path` (undefined: the index route). Each screen is its own chunk: `load` imports it
 * on first visit, and its export `name` is the page component.
 */
function screen<M extends Record<string, unknown>>(
  path: string | undefined,
  load: () => Promise<M>,
  name: keyof M & string,
): RouteObject {
  const lazy = async () => ({ Component: (await load())[name] as ComponentType });
  return path === undefined ? { index: true, lazy } : { path, lazy };
}

// Screens for admins (spec §6), and those for super admins only.
const adminScreens: RouteObject[] = [
  screen("reports", () => import("../features/moderation/reports-page"), "ReportsPage"),
  screen("edit-suggestions", () => import("../features/moderation/edit-suggestions-page"), "EditSuggestionsPage"),
  screen("admin/waitlist", () => import("../features/waitlist/admin-waitlist-page"), "AdminWaitlistPage"),
  screen("admin/users", () => import("../features/admin/admin-users-page"), "AdminUsersPage"),
  // The page itself also checks the canBulkImport permission.
  screen("admin/import", () => import("../features/imports/import-page"), "ImportPage"),
];
const superAdminScreens: RouteObject[] = [
  screen("admin/audit", () => import("../features/admin/admin-audit-page"), "AdminAuditPage"),
  screen("song-recognition", () => import("../features/audio-tools/song-recognition-page"), "SongRecognitionPage"),
  screen("audio-quality-test", () => import("../features/audio-tools/audio-quality-test-page"), "AudioQualityTestPage"),
];

// Screens for signed-in members.
const memberScreens: RouteObject[] = [
  screen("favorites", () => import("../features/songs/favorites-page"), "FavoritesPage"),
  screen("pending", () => import("../features/voting/pending-page"), "PendingPage"),
  screen("upload", () => import("../features/songs/upload-page"), "UploadPage"),
  screen("songs/:id/edit", () => import("../features/songs/song-edit-page"), "SongEditPage"),
  screen("songs/:id/suggest-edit", () => import("../features/moderation/suggest-edit-page"), "SuggestEditPage"),
];

// Screens open to everyone.
const openScreens: RouteObject[] = [
  screen(undefined, () => import("../features/songs/home-page"), "HomePage"),
  screen("about", () => import("../features/about/about-page"), "AboutPage"),
  screen("developers", () => import("../features/developers/developers-page"), "DevelopersPage"),
  screen("login", () => import("../features/accounts/login-page"), "LoginPage"),
  screen("register", () => import("../features/accounts/register-page"), "RegisterPage"),
  screen("reset-password", () => import("../features/accounts/reset-password-page"), "ResetPasswordPage"),
  // Open to waitlisted users too: they may see their profile and sign out. Visitors get a login prompt.
  screen("profile", () => import("../features/accounts/profile-page"), "ProfilePage"),
  screen("song/:id", () => import("../features/songs/song-page"), "SongPage"),
  screen("artists/:artistId", () => import("../features/artists/artist-page"), "ArtistPage"),
  screen("waitlist", () => import("../features/waitlist/waitlist-page"), "WaitlistPage"),
  screen("*", () => import("./not-found-page"), "NotFoundPage"),
];

/** Every route of spec §2. All but /landing sit in the shell; the guards are layout routes. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: FullPageSpinner,
    ErrorBoundary: RouteError,
    children: [
      screen("landing", () => import("../features/landing/landing-page"), "LandingPage"),
      {
        Component: Shell,
        children: [
          {
            // Errors render inside the shell, so the menus stay usable.
            ErrorBoundary: RouteError,
            children: [
              ...openScreens,
              {
                Component: RequireAuth,
                children: [
                  ...memberScreens,
                  { Component: RequireAdmin, children: adminScreens },
                  { Component: RequireSuperAdmin, children: superAdminScreens },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

/** The app's data router. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
