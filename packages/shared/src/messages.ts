/** User-facing messages, worded as in spec §8 (the first wording where the spec gives two). */
export const MESSAGES = {
  // Auth
  loginSuccess: "Successfully logged in!",
  loginFailed: "Failed to log in",
  logoutSuccess: "Successfully logged out!",
  logoutFailed: "Failed to log out",
  emailNotVerified: "Please verify your email before logging in",
  verificationSent: "Verification email sent!",
  resetSent: "Password reset email sent!",
  resetFailed: "Failed to reset email",
  registerSuccess: "Registration successful! Please check your email to verify your account.",
  registerFailed: "Failed to register",
  passwordsDoNotMatch: "Passwords do not match",
  passwordTooShort: "Password must be at least 6 characters",
  enterEmailFirst: "Please enter your email address first",
  invalidEmail: "Please enter a valid email address",
  invalidCredentials: "Failed to log in",
  invalidToken: "This link is invalid or has expired. Please request a new one.",
  currentPasswordWrong: "Current password is incorrect",
  emailVerified: "Email verified! You can now log in.",
  tooManyRequests: "Too many attempts. Please wait a moment and try again.",
  // Profile
  profileLoadFailed: "Failed to load profile data",
  profileUpdateFailed: "Failed to update profile",
  passwordUpdated: "Password updated successfully",
  profileUpdated: "Profile updated successfully",
  usernameTaken: "That username is already taken",
  usernameIsArtist: "That name belongs to an artist on Unheard. Please choose another username.",
  // Issue 38: the registration success screen, while the waitlist gate is on.
  registerWaitlistNote:
    "Unheard lets new members in from a waitlist, in waves. Once your e-mail is verified you can log in, browse and listen, and see your place in the queue; voting, favourites and uploads open when an admin lets you in. If this address was already approved from the waitlist, you are straight in.",
  usernameIsEmail: "Please choose a username that is not your e-mail address: usernames are shown to everyone.",
  artistRenameByAdmin:
    "Your username is the artist name credited on songs, so it cannot be changed here. Ask an admin to rename your artist profile.",
  loginToViewProfile: "Please log in to view your profile",
  // Songs
  songNotFound: "Song not found",
  // A visitor's 404, under the 'Song not found' heading: pending songs are for members (issue 24), and the answer
  // must not say whether it exists.
  songMaybePending: "If it is waiting for verification, log in to see it: pending songs are shown to members only.",
  songLoadFailed: "Error loading song",
  uploadSuccess: "Song uploaded successfully!",
  uploadFailed: "Failed to upload song",
  uploadRequiredFields: "Please fill in required fields (title and at least one artist)",
  uploadAudioRequired: "Please upload an audio file",
  duplicateSong: "A song with this title and artist already exists",
  audioTooLarge: "The audio file is too large",
  audioUnsupported: "Unsupported audio format. Please upload an MP3, WAV, OGG, Opus, FLAC, M4A/AAC or WebM file.",
  audioUndecodable: "We could not read that audio file. Please upload a valid, playable audio file.",
  audioTruncated: "That audio file is incomplete: it ends before its own header says. Please upload the whole file.",
  audioSilent: "That audio file is silent. Please upload the song itself.",
  // Issue 24: a file that decodes to far more sound than its size can hold (a decompression bomb), one the
  // server gave up reading, a busy server, and a match against a song the uploader may not see.
  audioImplausible:
    "That file does not look like a real recording: it would play far longer than its size allows. Please upload the song itself.",
  audioTooCostly: "Reading that audio file took too long, so it was refused. Please upload it as MP3, FLAC or WAV.",
  audioBusy: "The server is busy reading other uploads. Please try again in a minute.",
  duplicateAudioHidden: "This audio matches a song already on Unheard, so it cannot be uploaded again.",
  invalidGenre: "Please choose a genre",
  invalidReleaseDate: "Please enter a valid release date",
  invalidSoundcloudUrl: "Only soundcloud.com and on.soundcloud.com links can be embedded",
  editCommentRequired: "Please provide a comment about your edit request.",
  editNoPermission: "You do not have permission to edit this song",
  editSubmittedForReview: "Edit proposal submitted for review",
  editReviewLabel: "Changes will be reviewed by admin",
  editSaved: "Song updated successfully",
  editFailed: "Failed to submit edit request",
  songDeleted: "Song deleted",
  songDeleteFailed: "Failed to delete song",
  deleteConfirm: "Are you sure you want to delete this song?",
  linkCopied: "Link copied to clipboard!",
  linkCopyFailed: "Failed to copy link",
  recommendationsFailed: "Failed to load recommendations",
  previewUnavailable: "Preview not available",
  // A first start renders the demo songs' audio in the background; a song waiting for it says so (issue 25).
  demoAudioPreparing: "Audio is being prepared",
  releaseDateUnknown: "Release date unknown",
  linkNotAvailable: "Link not available",
  dateNotSet: "Not set",
  // Leak details and versions (issue 16)
  invalidAvailability: "Please choose a valid availability",
  invalidQuality: "Please choose a valid audio quality",
  invalidLeakDate: "Please enter a valid leak date",
  futureLeakDate: "The leak date cannot be in the future",
  eraTooLong: "Era must be at most 100 characters",
  leakNameTooLong: "Names must be at most 100 characters",
  leakNamesTooMany: "List at most 10 names",
  leakNotesTooLong: "Notes must be at most 2000 characters",
  // Tracker details (issue 27)
  invalidTag: "Please choose valid tags",
  versionLabelTooLong: "Version label must be at most 30 characters",
  invalidTrackLength: "Please enter the track length as minutes:seconds (e.g. 3:45)",
  invalidFileDate: "Please enter a valid file date",
  futureFileDate: "The file date cannot be in the future",
  // Trackers as the community keeps them (issue 37)
  invalidLeakLink: "Links must be web addresses starting with https:// or http://",
  tooManyLinks: "List at most 10 links",
  eraNameRequired: "Please enter the era's name",
  eraDescriptionTooLong: "The era's description must be at most 2000 characters",
  invalidEraDate: "Please enter the era's dates as YYYY, YYYY-MM or YYYY-MM-DD",
  eraDatesOrder: "The era cannot end before it starts",
  eraSaved: "Era saved",
  invalidVersionKind: "Please choose what kind of version this is",
  versionOfSelf: "A song cannot be a version of itself",
  versionOfVersion: "That song is itself a version of another song. Link to the original instead.",
  versionHasVersions: "This song has versions of its own, so it cannot become a version of another song",
  versionTargetNotFound: "The song to link to was not found",
  versionTargetNotYours:
    "You can only link your song as a version of a song you uploaded. Ask an admin to link it to someone else's song.",
  versionLinked: "Linked as a version",
  versionUnlinked: "No longer linked as a version",
  // Voting
  loginToVerify: "Please login to verify songs",
  loginToUpvote: "You must be logged in to upvote",
  loginToDownvote: "You must be logged in to downvote",
  downvoteReasonRequired: "Please select a reason for downvoting",
  upvoted: "Upvoted successfully",
  downvoted: "Downvoted successfully",
  upvoteFailed: "Failed to upvote",
  downvoteFailed: "Failed to downvote",
  voteRemoved: "Vote removed",
  songVerifiedByVotes: "Song has been verified!",
  songVerified: "Song verified successfully",
  verifyFailed: "Failed to verify song",
  allVerified: "All songs have been verified",
  verifyAllFailed: "Failed to verify songs",
  ownSongVote: "You cannot vote on your own upload",
  noPendingSongs: "No pending songs available",
  tooManyVotes: "You are voting too fast. Please wait a minute and try again.",
  // Open data: the public API and the exports, limited per client address
  tooManyApiRequests: "Too many requests to the public API from your address. Please wait a minute and try again.",
  tooManyExports: "Too many export downloads from your address. Please wait a minute and try again.",
  tooManyStreams:
    "Too many live update connections are open from your address or account. Close some tabs and try again.",
  // Plays (decision 027)
  playNoAudio: "This song has no audio to play",
  playTokenInvalid: "This play could not be checked. Start the song again.",
  tooManyPlays: "Too many plays from your address. Please wait a minute and try again.",
  // Reports
  loginToReport: "You must be logged in to report songs",
  reportReasonRequired: "Please select a reason for reporting",
  reportSent: "Song reported successfully",
  reportFailed: "Failed to report song",
  reportOwnSong: "You cannot report your own song",
  reportAlreadyOpen: "You have already reported this song",
  reportsLoadFailed: "Failed to load reports",
  reportResolved: "Report resolved",
  reportRejected: "Report rejected",
  reportProcessFailed: "Failed to process report",
  reportAlreadyProcessed: "This report has already been processed",
  noPendingReports: "No pending reports to review.",
  songHidden: "Song hidden",
  songUnhidden: "Song visible again",
  // Edit suggestions
  loginToSuggest: "You must be logged in to propose an edit",
  suggestionReasonRequired: "Please give a reason for your edit suggestion",
  suggestionSongMissing: "Song ID is missing. Cannot submit edit suggestion.",
  suggestionSent: "Edit suggestion submitted successfully",
  suggestionFailed: "Failed to submit edit suggestion",
  suggestionsLoadFailed: "Failed to load edit suggestions",
  suggestionApproved: "Edit suggestion approved",
  suggestionRejected: "Edit suggestion rejected",
  suggestionApproveFailed: "Failed to approve edit suggestion",
  suggestionRejectFailed: "Failed to reject edit suggestion",
  suggestionStale: "This song was edited after the suggestion was made. Review the current values before approving.",
  suggestionAlreadyReviewed: "This edit suggestion has already been reviewed",
  suggestionAlreadyOpen: "You already have an edit suggestion waiting for review on this song",
  tooManySuggestions: "You are suggesting edits too fast. Please wait a minute and try again.",
  tooManyReports: "You are reporting songs too fast. Please wait a minute and try again.",
  noPendingEdits: "No pending edits to review",
  // Waitlist
  waitlistJoined: "You've been added to the waitlist!",
  waitlistFailed: "Failed to join waitlist",
  waitlistNameRequired: "Please enter your name",
  waitlistEmailRequired: "Please enter your email",
  waitlistApproveFailed: "Failed to approve user.",
  waitlistNoUser: "No user found with that email.",
  // Sentence case like every other message (issue 38; the spec wrote "Thank You.").
  waitlistThankYou: "Thank you.",
  // Roles
  roleUpdated: "Role updated",
  roleNotAllowed: "You may not grant or remove that role",
  userNotFound: "User not found",
  // Artists
  artistNotFound: "Artist not found",
  artistLoadFailed: "Failed to load artist profile",
  following: "Following artist",
  unfollowed: "Unfollowed artist",
  followFailed: "Failed to update follow status",
  loginToFollow: "Please login to follow artists",
  followSelf: "You cannot follow yourself",
  noTracks: "No tracks uploaded yet",
  artistUpdated: "Artist profile updated",
  artistNoPermission: "You do not have permission to edit this artist",
  invalidLink: "Links must start with http:// or https://",
  artistsMerged: "Artists merged",
  artistClaimed: "Artist profile linked to the account",
  artistMergeInvalid: "Only a placeholder artist can be merged into another profile",
  // Notifications
  notificationsMarkedRead: "All notifications marked as read",
  notificationSettingsSaved: "Notification settings saved",
  // Favourites

  loginToFavorite: "Please login to favorite songs",
  favoriteFailed: "Failed to update favorite",
  favoritesSyncFailed: "Failed to sync favorites",
  // SoundCloud
  soundcloudNeedsTitleArtist: "Please enter both title and artist name(s)",
  soundcloudNoMatches: "No matching tracks found on SoundCloud",
  soundcloudFailed: "Failed to search SoundCloud tracks",
  soundcloudNotConfigured: "SoundCloud search is not configured on this server",
  // Membership
  waitlisted: "You are on the waitlist. An admin will let you in soon.",
  waitlistBannerTitle: "You're on the waitlist.",
  waitlistBannerText:
    "You can already browse, search, listen and follow artists; favourites, voting and uploads open once an admin lets you in.",
  verifyEmailFirst: "Please verify your email first",
  // Fingerprints
  recordingFailed: "Failed to start recording",
  processAudioFailed: "Failed to process audio",
  noMatches: "No matches found",
  noMatchesGuidance: "Try again closer to the speaker, with less background noise, or with a longer clip.",
  noAudioUrl: "No audio URL available for this song.",
  fetchAudioFailed: "Failed to fetch audio file.",
  analysisErrorPrefix: "Error analyzing audio: ",
  // Identify (issue 39, decision 032): any signed-in member names a song from a clip.
  identifySignIn: "Please sign in to identify songs",
  identifyNotOnUnheard: "Not on Unheard yet",
  identifyNotOnUnheardGuidance:
    "Nobody has added this song yet. If you know what it is, upload it with its title and artist: it goes to the artist's tracker once the community verifies it.",
  identifyHeardNothing: "Hardly any music came through in that clip",
  identifyHeardNothingGuidance: "Hold your phone close to the speaker, turn the music up, and try again.",
  identifyBusy: "Identify is busy with other clips right now. Please try again in a minute.",
  identifyClipsNotKept:
    "Clips are not kept: yours is listened to once, to find the song, and then thrown away, unless you attach it to a report.",
  identifyClipAttachNote: "Your clip is kept with the report until an admin has handled it, then deleted.",
  identifyReportSent: "Thanks, your report and clip were sent to the admins.",
  reportClipGone: "This report has no clip (any more)",
  // Generic
  signInRequired: "Please sign in to continue",
  adminOnly: "Admin access only.",
  superAdminOnly: "Super admin access only.",
  // Admin permissions (spec §3 Admin): an admin without the one a route needs.
  noPermissionReports: "You do not have permission to manage reports.",
  noPermissionEditSongs: "You do not have permission to edit other people's songs or review edit suggestions.",
  noPermissionArtists: "You do not have permission to verify, merge or link artist profiles.",
  noPermissionAdmins: "You do not have permission to change roles.",
  notFound: "Not found",
  badRequest: "Invalid request",
  invalidCursor: "This page link is not valid (it may be from an older version). Start again from the first page.",
  payloadTooLarge: "Request body is too large",
  unsupportedMediaType: "Unsupported content type",
  internal: "Something went wrong. Please try again.",
  busy: "The server is busy. Please try again in a moment.",

  forbiddenOrigin: "Cross-site request refused",
  discountSelf: "You cannot discount your own votes",
} as const;

/** Key of a catalogue message. */
export type MessageKey = keyof typeof MESSAGES;

/** 'Found N potential matches' (spec §8). */
export const foundMatchesMessage = (n: number) => `Found ${n} potential match${n === 1 ? "" : "es"}`;

/** Under "Audio is being prepared": how many of the songs waiting for their demo audio have it so far. */
export const demoAudioProgressMessage = (done: number, total: number) => `${done} of ${total} songs ready`;

/** Upload refused because the audio is longer than the server accepts (MAX_AUDIO_MINUTES). */
export const audioTooLongMessage = (minutes: number) =>
  `That audio is longer than ${minutes} minutes. Please upload a song or mix of at most ${minutes} minutes.`;

/**
 * Upload refused: the file is named like audio (`.mp3`) but holds none we can read, so it is damaged or not what its
 * name says (issue 38: it was told to upload "an MP3").
 */
export const audioUnreadableMessage = (ext: string) =>
  `That file could not be read as audio. It is named .${ext}, but what it holds does not play: it may be damaged or only partly downloaded. Please upload a working copy of the song.`;

/** Identify's answer when it found the song (issue 39): 'It's "Glass Horizon" by Nova Reyes'. */
export const identifiedMessage = (title: string, artists: readonly string[]) =>
  `It's "${title}"${artists.length > 0 ? ` by ${artists.join(", ")}` : ""}`;

/** Identify refused a clip longer than it listens to (issue 39). */
export const identifyClipTooLongMessage = (seconds: number) =>
  `Clips are limited to ${seconds} seconds. Please send a shorter part of the song.`;

/** Identify refused a clip file larger than it takes (issue 39). */
export const identifyFileTooLargeMessage = (mb: number) =>
  `That clip is larger than ${mb} MB. Please send a shorter part of the song, as MP3, M4A or WAV.`;

/** Minutes (at least one), or the hour, until `seconds` from now, in words: "in 12 minutes". */
const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes >= 60 ? "in an hour" : `in ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
};

/** Identify's hourly limits reached (issue 39): whose limit, how many, and when the member can identify again. */
export const identifyLimitMessage = (who: "member" | "address", limit: number, retryAfterSeconds: number) =>
  who === "member"
    ? `You have identified ${limit} clips this hour, the most one member may. You can identify again ${inMinutes(retryAfterSeconds)}.`
    : `${limit} clips have been identified from your address this hour, the most one address may. You can identify again ${inMinutes(retryAfterSeconds)}.`;

/** Upload refused because the audio is already in the catalogue; `transform` says how it differs (e.g. "sped up 8%"). */
export const duplicateAudioMessage = (title: string, artists: string, transform?: string) =>
  `This audio matches "${title}" by ${artists}, which is already on Unheard${transform ? ` (${transform})` : ""}.`;

/** Why a member's vote does not count yet (decision 014); shown on the song page beside their vote. */
export const VOTE_NOTES = {
  emailUnverified: "Your vote will count once your e-mail address is verified",
  discounted: "An admin has set your votes not to count toward verification",
  tooNew: (days: number) => `Your vote will count once your account is ${days} ${days === 1 ? "day" : "days"} old`,
  fake: "This song was resolved as a fake leak: votes on it no longer count",
  noRecord: (need: number, have: number) =>
    `Your vote will count once you have ${need} accepted ${need === 1 ? "contribution" : "contributions"} (you have ${have}): a verified upload, an approved edit, or a vote that matched the community's verdict`,
} as const;

/**
 * Beside a member's vote that does not count yet (decision 014), before the reason: the point for a vote waits
 * with it (issue 38: nothing said so).
 */
export const VOTE_NOT_COUNTED_YET =
  "Your vote is recorded, but it does not count toward verification yet, and its point waits until it does.";

/** How votes earn points, where the site explains it (About, the waitlist page): a new member's wait for theirs. */
export const VOTE_POINTS_NOTE =
  "A new member's votes are kept, but count (and earn their points) only once the account has a record here: your profile says what is still needed.";

/** A contested song (a counted downvote) verifies no earlier than its open period's end. */
export const contestedNote = (date: string) =>
  `Contested: this song can be verified from ${date}, once it has been open for discussion long enough.`;

/** A daily cap reached (decision 015): what, how many, and when the oldest of them leaves the 24-hour window. */
export const dailyCapMessage = (kind: "votes" | "reports" | "uploads" | "suggestions", cap: number, again: string) => {
  const noun = { votes: "votes", reports: "reports", uploads: "uploads", suggestions: "edit suggestions" }[kind];
  const verb = { votes: "vote", reports: "report", uploads: "upload", suggestions: "suggest edits" }[kind];
  return `You have reached your limit of ${cap} ${noun} a day. You can ${verb} again ${again}.`;
};

/** Admin answers about a member's votes (decision 015). */
export const discountMessage = (discounted: boolean, moved: number) =>
  discounted
    ? `Their votes no longer count: ${moved} ${moved === 1 ? "vote was" : "votes were"} taken off, with the points`
    : `Their votes count again where they qualify: ${moved} ${moved === 1 ? "vote" : "votes"} restored`;
