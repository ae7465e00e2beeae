import {
  type Availability,
  type EditSongInput,
  editSongSchema,
  formatTrackLength,
  type Genre,
  LEAK_FIELDS,
  MESSAGES,
  type Quality,
  type Song,
  type UploadSongInput,
  uploadSongSchema,
} from "@unheard/shared";
import { type FieldErrors, type FieldValues, type Resolver, set } from "react-hook-form";

/** The most artists a song may credit (the API's limit): a primary one plus up to nine more. */
export const MAX_ARTISTS = 10;

/**
 * The values of the upload and edit forms (one type, so both share the field components); artists are
 * objects because field arrays need them, and `comment` is only used when editing.
 */
export type SongFormValues = {
  title: string;
  /** The primary artist first, then any additional ones (blank ones are dropped on submit). */
  artists: { name: string }[];
  genre: Genre | "";
  releaseDate: string;
  soundcloudUrl: string;
  /**
   * Leak details (issue 16, tracker details issue 27): names as comma-separated text, tags as the checked tags'
   * values comma-separated in SONG_TAGS order, the track length as typed ("3:45"; the shared schema parses it),
   * dates as typed ("2019", "2019-06" or "2019-06-21"; issue 37).
   */
  era: string;
  producers: string;
  features: string;
  references: string;
  aliases: string;
  versionLabel: string;
  tags: string;
  leakDate: string;
  fileDate: string;
  trackLength: string;
  availability: Availability | "";
  quality: Quality | "";
  notes: string;
  /** Where the leak can be found (issue 37): one address a line (the shared schema splits and checks them). */
  links: string;
  comment: string;
};

/** Blank leak details. */
function emptyLeakForm() {
  return {
    era: "",
    producers: "",
    features: "",
    references: "",
    aliases: "",
    versionLabel: "",
    tags: "",
    leakDate: "",
    fileDate: "",
    trackLength: "",
    availability: "",
    quality: "",
    notes: "",
    links: "",
  } as const;
}

/** The leak detail fields of a form prefilled from a song. */
export function leakFormFromSong(song: Song) {
  return {
    era: song.era ?? "",
    producers: song.producers.join(", "),
    features: song.features.join(", "),
    references: song.references.join(", "),
    aliases: song.aliases.join(", "),
    versionLabel: song.versionLabel ?? "",
    tags: song.tags.join(","),
    leakDate: song.leakDate ?? "",
    fileDate: song.fileDate ?? "",
    trackLength: song.trackLength === null ? "" : formatTrackLength(song.trackLength),
    availability: song.availability ?? "",
    quality: song.quality ?? "",
    notes: song.notes ?? "",
    links: song.links.join("\n"),
  } satisfies Partial<SongFormValues>;
}

/**
 * The leak details of a form's values as the API takes them (the shared schema trims and splits names and parses
 * the track length). Every field is sent, blank ones as none, so an edit never drops a value the song has.
 */
export function leakInput(values: Pick<SongFormValues, keyof ReturnType<typeof leakFormFromSong>>) {
  return {
    era: values.era,
    producers: values.producers,
    features: values.features,
    references: values.references,
    aliases: values.aliases,
    versionLabel: values.versionLabel,
    tags: values.tags.split(",").filter(Boolean),
    leakDate: values.leakDate || null,
    fileDate: values.fileDate || null,
    trackLength: values.trackLength || null,
    availability: values.availability || null,
    quality: values.quality || null,
    notes: values.notes,
    links: values.links,
  };
}

/** A blank upload form. */
export const EMPTY_SONG_FORM: SongFormValues = {
  title: "",
  artists: [{ name: "" }],
  genre: "",
  releaseDate: "",
  soundcloudUrl: "",
  ...emptyLeakForm(),
  comment: "",
};

/** The edit form prefilled from a song. */
export function editFormFromSong(song: Song): SongFormValues {
  return {
    title: song.title,
    artists: song.artists.length > 0 ? song.artists.map((a) => ({ name: a.name })) : [{ name: "" }],
    genre: song.genre,
    releaseDate: song.releaseDate ?? "",
    soundcloudUrl: song.soundcloudUrl ?? "",
    ...leakFormFromSong(song),
    comment: "",
  };
}

/** The request body the form's values make (the schemas trim, drop blank artists and empty optionals). */
export function toSongInput(values: SongFormValues): UploadSongInput {
  return {
    title: values.title,
    artists: values.artists.map((a) => a.name),
    genre: values.genre as Genre,
    releaseDate: values.releaseDate || null,
    soundcloudUrl: values.soundcloudUrl.trim() || null,
    ...leakInput(values),
  };
}

/** The edit request body. */
export function toEditInput(values: SongFormValues): EditSongInput {
  return { ...toSongInput(values), comment: values.comment };
}

/**
 * Where a schema or API field message belongs in the form: 'artists' (none given) goes under the
 * primary artist, 'artists.2' under that artist, the rest under the field of the same name.
 */
export function formPath(path: readonly PropertyKey[]): string {
  const [head, index] = path;
  if (head === "artists") return `artists.${typeof index === "number" ? index : 0}.name`;
  return String(head ?? "root");
}

function resolverFor<V extends FieldValues>(
  schema: typeof uploadSongSchema | typeof editSongSchema,
  toInput: (values: V) => unknown,
): Resolver<V> {
  return async (values) => {
    const parsed = schema.safeParse(toInput(values));
    if (parsed.success) return { values, errors: {} };
    const errors: FieldErrors<V> = {};
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const path = formPath(issue.path);
      if (seen.has(path)) continue;
      seen.add(path);
      set(errors, path, { type: "validate", message: issue.message || MESSAGES.badRequest });
    }
    return { values: {}, errors };
  };
}

/** Checks the upload form with the shared uploadSongSchema (the file is checked beside it). */
export const uploadFormResolver: Resolver<SongFormValues> = resolverFor(uploadSongSchema, toSongInput);

/** Checks the edit form with the shared editSongSchema. */
export const editFormResolver: Resolver<SongFormValues> = resolverFor(editSongSchema, toEditInput);

/** The form fields an API error may name. */
export const SONG_FORM_FIELDS = [
  "title",
  "artists",
  "genre",
  "releaseDate",
  "soundcloudUrl",
  ...LEAK_FIELDS,
  "comment",
] as const;
