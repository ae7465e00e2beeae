export * from "./constants.js";
export * from "./messages.js";
export * from "./page-routes.js";
export * from "./random.js";
export * from "./roles.js";
export * from "./schemas/artist.js";
export * from "./schemas/audio-match.js";
export * from "./schemas/auth.js";
export * from "./schemas/common.js";
export * from "./schemas/health.js";
export * from "./schemas/import.js";
export * from "./schemas/leak.js";
export * from "./schemas/moderation.js";
export * from "./schemas/open-data.js";

export * from "./schemas/song.js";
export * from "./schemas/user.js";
export * from "./schemas/vote.js";
