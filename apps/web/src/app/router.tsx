import { PAGE_ROUTES } from "@unheard/shared";
import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { FullPageSpinner } from "../ui/spinner";
import { RequireAdmin, RequireAuth, RequireSuperAdmin } from "./guards";
import { keyHistoryEntry } from "./history-entry";
import { RootLayout } from "./root-layout";
import { RouteError } from "./route-error";
import { Shell } from "./shell";

/**
 * The route of a screen at `path` ("": the index route). Each screen is its own chunk: `load` imports it on first
 * visit, and its export `name` is the page component.
 */
function screen<M extends Record<string, unknown>>(
  path: string,
  load: () => Promise<M>,
  name: keyof M & string,
): RouteObject {
  const lazy = async () => ({ Component: (await load())[name] as ComponentType });
  return path === "" ? { index: true, lazy } : { path, lazy };
}

// The paths come from @unheard/shared: the server answers 404 for any other (router.test.ts checks they agree).
const P = PAGE_ROUTES;

// Screens for admins (spec §6), and those for super admins only.
const adminScreens: RouteObject[] = [
  screen(P.reports, () => import("../features/moderation/reports-page"), "ReportsPage"),
  screen(P.editSuggestions, () => import("../features/moderation/edit-suggestions-page"), "EditSuggestionsPage"),
  screen(P.adminWaitlist, () => import("../features/waitlist/admin-waitlist-page"), "AdminWaitlistPage"),
  screen(P.adminUsers, () => import("../features/admin/admin-users-page"), "AdminUsersPage"),
  // The page itself also checks the canBulkImport permission.
  screen(P.adminImport, () => import("../features/imports/import-page"), "ImportPage"),
];
const superAdminScreens: RouteObject[] = [
  screen(P.adminAudit, () => import("../features/admin/admin-audit-page"), "AdminAuditPage"),
  screen(P.songRecognition, () => import("../features/audio-tools/song-recognition-page"), "SongRecognitionPage"),
  screen(P.audioQualityTest, () => import("../features/audio-tools/audio-quality-test-page"), "AudioQualityTestPage"),
];

// Screens for signed-in members.
const memberScreens: RouteObject[] = [
  screen(P.favorites, () => import("../features/songs/favorites-page"), "FavoritesPage"),
  screen(P.pending, () => import("../features/voting/pending-page"), "PendingPage"),
  screen(P.upload, () => import("../features/songs/upload-page"), "UploadPage"),
  screen(P.songEdit, () => import("../features/songs/song-edit-page"), "SongEditPage"),
  screen(P.songSuggestEdit, () => import("../features/moderation/suggest-edit-page"), "SuggestEditPage"),
];

// Screens open to everyone.
const openScreens: RouteObject[] = [
  screen(P.home, () => import("../features/songs/home-page"), "HomePage"),
  screen(P.about, () => import("../features/about/about-page"), "AboutPage"),
  screen(P.developers, () => import("../features/developers/developers-page"), "DevelopersPage"),
  screen(P.login, () => import("../features/accounts/login-page"), "LoginPage"),
  screen(P.register, () => import("../features/accounts/register-page"), "RegisterPage"),
  screen(P.resetPassword, () => import("../features/accounts/reset-password-page"), "ResetPasswordPage"),
  // Open to waitlisted users too: they may see their profile and sign out. Visitors get a login prompt.
  screen(P.profile, () => import("../features/accounts/profile-page"), "ProfilePage"),
  screen(P.song, () => import("../features/songs/song-page"), "SongPage"),
  screen(P.artist, () => import("../features/artists/artist-page"), "ArtistPage"),
  screen(P.changes, () => import("../features/changes/changes-page"), "ChangesPage"),
  // Issue 39: any signed-in account, waitlisted ones too (decision 032); visitors are asked to sign in there.
  screen(P.identify, () => import("../features/identify/identify-page"), "IdentifyPage"),
  screen(P.waitlist, () => import("../features/waitlist/waitlist-page"), "WaitlistPage"),
  screen("*", () => import("./not-found-page"), "NotFoundPage"),
];

/** Every route of spec §2. All but /landing sit in the shell; the guards are layout routes. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: FullPageSpinner,
    ErrorBoundary: RouteError,
    children: [
      screen(P.landing, () => import("../features/landing/landing-page"), "LandingPage"),
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
  // Scroll positions are kept per history entry; this one needs a key of its own before the router reads it.
  keyHistoryEntry();
  return createBrowserRouter(routes);
}
