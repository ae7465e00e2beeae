import { ADMIN_PERMISSIONS, type AdminPermission, type Genre } from "@unheard/shared";

/**
 * Demo accounts; their passwords are printed at first start. The admin's record grants what the demo shows an
 * admin doing (permissions are enforced; spec §3 Admin): reports, editing songs and reviewing suggestions,
 * linking artist profiles, handing out contributor status; not the bulk import. Super admins hold every one.
 */
export const DEMO_ACCOUNTS = [
  { email: "listener@unheard.local", password: "listener123", username: "listener", role: "user", permissions: [] },
  {
    email: "admin@unheard.local",
    password: "admin123",
    username: "admin",
    role: "admin",
    permissions: ["canManageReports", "canEditAllSongs", "canVerifyArtists", "canManageAdmins"],
  },
  {
    email: "super@unheard.local",
    password: "super123",
    username: "superadmin",
    role: "super_admin",
    permissions: [...ADMIN_PERMISSIONS],
  },
] as const satisfies readonly {
  email: string;
  password: string;
  username: string;
  role: string;
  permissions: readonly AdminPermission[];
}[];

/** Community members who cast the demo votes and favourites. */
export const DEMO_FANS = ["nightowl", "basshead", "cratedigger", "leakwatch", "vinylghost", "synthkid"] as const;

/** Fictional artists and their unreleased songs. */
export type DemoSong = {
  title: string;
  artists: string[];
  genre: Genre;
  /** Days from today; negative = released in the past, undefined = unknown. */
  releaseInDays?: number;
  soundcloud?: string;
  /** Net upvotes the demo community gives it (3 or more verifies it). */
  votes: number;
  /** How many fans favourited it. */
  favorites: number;
};

export const DEMO_SONGS: DemoSong[] = [
  { title: "Midnight Circuit", artists: ["Nova Reyes"], genre: "Electronic", releaseInDays: 4, votes: 5, favorites: 6 },
  { title: "Glass Horizon", artists: ["Nova Reyes", "Kid Halcyon"], genre: "Electronic", votes: 4, favorites: 5 },
  { title: "Paper Crowns", artists: ["Kid Halcyon"], genre: "Rap", releaseInDays: 12, votes: 3, favorites: 4 },
  { title: "Cold Open", artists: ["Kid Halcyon"], genre: "Rap", releaseInDays: -20, votes: 4, favorites: 3 },
  { title: "Saltwater Letters", artists: ["Mara Vance"], genre: "Pop", releaseInDays: 2, votes: 6, favorites: 5 },
  { title: "Neon Prayer", artists: ["Mara Vance", "DJ Ketsu"], genre: "Pop", votes: 3, favorites: 2 },
  { title: "Dust Road Hymn", artists: ["Orrin Vale"], genre: "Country", releaseInDays: 30, votes: 3, favorites: 2 },
  { title: "Porchlight", artists: ["Orrin Vale"], genre: "Country", votes: 4, favorites: 1 },
  { title: "Static Bloom", artists: ["The Lowlight"], genre: "Rock", releaseInDays: -3, votes: 5, favorites: 4 },
  { title: "Feedback Season", artists: ["The Lowlight"], genre: "Rock", votes: 3, favorites: 3 },
  { title: "Low Orbit", artists: ["DJ Ketsu"], genre: "Electronic", releaseInDays: 6, votes: 4, favorites: 4 },
  { title: "Sable Nights", artists: ["Sable Dune"], genre: "Other", votes: 3, favorites: 1 },
  { title: "Unmarked Tape 7", artists: ["Kid Halcyon"], genre: "Rap", votes: 2, favorites: 0 },
  { title: "Lanternfish", artists: ["Lumen Park"], genre: "Electronic", votes: 1, favorites: 0 },
  { title: "Ghost Verse", artists: ["Mara Vance"], genre: "Pop", releaseInDays: 9, votes: 0, favorites: 0 },
  { title: "Tidal Static", artists: ["Sable Dune", "Lumen Park"], genre: "Other", votes: -1, favorites: 0 },
];
