// Loaded on the first 'me' event only (see useLiveMe): the schema brings zod, which the first load does without.
export { meSchema } from "@unheard/shared";
