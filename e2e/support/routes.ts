/** Every route of spec §2 with the heading its page shows (signed in as a super admin). */
export const SHELL_ROUTES: { path: string; heading: string | RegExp }[] = [
  { path: "/", heading: "Trending This Week" },
  { path: "/?q=midnight", heading: "Search Results" },
  { path: "/favorites", heading: "Your Favorites" },
  { path: "/pending", heading: "Pending Songs" },
  { path: "/upload", heading: "Upload Song" },
  { path: "/about", heading: "About Unheard" },
  { path: "/developers", heading: "Developers" },
  { path: "/profile", heading: "Profile" },
  // No such song or artist: their pages show their not-found page in place (issue 25).
  { path: "/song/some-song-id", heading: "Song not found" },
  { path: "/songs/some-song-id/edit", heading: "Edit Song" },
  { path: "/songs/some-song-id/suggest-edit", heading: "Suggest an Edit" },
  { path: "/artists/some-artist-id", heading: "Artist not found" },
  { path: "/waitlist", heading: "Join the Waitlist" },
  { path: "/reports", heading: "Reports" },
  { path: "/edit-suggestions", heading: "Edit Suggestions" },
  { path: "/admin/waitlist", heading: "Waitlist Management" },
  { path: "/song-recognition", heading: "Song Recognition" },
  { path: "/audio-quality-test", heading: "Audio Quality Test" },
  { path: "/reset-password?token=abc", heading: "Choose a new password" },
];

/** Routes only a visitor sees as such (a signed-in user is sent on from them). */
export const VISITOR_ROUTES: { path: string; heading: string | RegExp }[] = [
  { path: "/login", heading: "Welcome back" },
  { path: "/register", heading: "Create your account" },
];
