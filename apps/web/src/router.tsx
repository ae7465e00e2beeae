import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { RequireAdmin, RequireAuth, RequireSuperAdmin } from "./components/guards";
import { RootLayout } from "./components/root-layout";
import { RouteError } from "./components/route-error";
import { Shell } from "./components/shell";
import { FullPageSpinner } from "./components/spinner";

// Each screen is its own chunk: `page(() => import(...), "Name")` loads it on first visit.
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return async () => {
    const mod = await load();
    return { Component: mod[name] as ComponentType };
  };
}

/** Every route of spec §2. All but /landing sit in the shell; guards are layout routes. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: FullPageSpinner,
    ErrorBoundary: RouteError,
    children: [
      { path: "landing", lazy: page(() => import("./pages/landing-page"), "LandingPage") },
      {
        Component: Shell,
        children: [
          {
            // Errors render inside the shell, so the menus stay usable.
            ErrorBoundary: RouteError,
            children: [
              { index: true, lazy: page(() => import("./pages/home-page"), "HomePage") },
              { path: "about", lazy: page(() => import("./pages/about-page"), "AboutPage") },
              { path: "login", lazy: page(() => import("./pages/login-page"), "LoginPage") },
              { path: "register", lazy: page(() => import("./pages/register-page"), "RegisterPage") },
              { path: "reset-password", lazy: page(() => import("./pages/reset-password-page"), "ResetPasswordPage") },
              // Open to waitlisted users too: they may see their profile and sign out. Visitors get a login prompt.
              { path: "profile", lazy: page(() => import("./pages/profile-page"), "ProfilePage") },
              { path: "song/:id", lazy: page(() => import("./pages/song-page"), "SongPage") },
              { path: "artists/:artistId", lazy: page(() => import("./pages/artist-page"), "ArtistPage") },
              { path: "waitlist", lazy: page(() => import("./pages/waitlist-page"), "WaitlistPage") },
              {
                Component: RequireAuth,
                children: [
                  { path: "favorites", lazy: page(() => import("./pages/favorites-page"), "FavoritesPage") },
                  { path: "pending", lazy: page(() => import("./pages/pending-page"), "PendingPage") },
                  { path: "upload", lazy: page(() => import("./pages/upload-page"), "UploadPage") },
                  { path: "songs/:id/edit", lazy: page(() => import("./pages/song-edit-page"), "SongEditPage") },
                  {
                    path: "songs/:id/suggest-edit",
                    lazy: page(() => import("./pages/suggest-edit-page"), "SuggestEditPage"),
                  },
                  {
                    Component: RequireAdmin,
                    children: [
                      { path: "reports", lazy: page(() => import("./pages/reports-page"), "ReportsPage") },
                      {
                        path: "edit-suggestions",
                        lazy: page(() => import("./pages/edit-suggestions-page"), "EditSuggestionsPage"),
                      },
                      {
                        path: "admin/waitlist",
                        lazy: page(() => import("./pages/admin-waitlist-page"), "AdminWaitlistPage"),
                      },
                      {
                        path: "admin/users",
                        lazy: page(() => import("./pages/admin-users-page"), "AdminUsersPage"),
                      },
                    ],
                  },
                  {
                    Component: RequireSuperAdmin,
                    children: [
                      {
                        path: "admin/audit",
                        lazy: page(() => import("./pages/admin-audit-page"), "AdminAuditPage"),
                      },
                      {
                        path: "song-recognition",
                        lazy: page(() => import("./pages/song-recognition-page"), "SongRecognitionPage"),
                      },
                      {
                        path: "audio-quality-test",
                        lazy: page(() => import("./pages/audio-quality-test-page"), "AudioQualityTestPage"),
                      },
                    ],
                  },
                ],
              },
              { path: "*", lazy: page(() => import("./pages/not-found-page"), "NotFoundPage") },
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
