// Ring signals for the admins' voter view (decision 015), in the spirit of Lobsters' visible invitation tree: the
// signals only point an admin at voters worth a look; discounting stays a human decision.

/** What the ring view knows about one voter. */
export type RingVoter = {
  id: string;
  createdAt: number;
  signupPrefix: string | null;
  votePrefix: string | null;
  signupDevice: string | null;
  voteDevice: string | null;
  uploaderUpvotes: number;
};

/** Voters sharing an IP prefix or created within this window of each other form a group worth flagging from this size. */
export const RING_MIN_GROUP = 3;
/** Accounts created within this many hours of each other count as created together. */
export const RING_CREATED_WINDOW_HOURS = 24;
/** A voter who upvoted at least this many of the uploader's other songs is a steady backer. */
export const RING_BACKER_MIN_SONGS = 2;

type Signal = { text: string; members: string[] };

/** Group ids by a key, keeping groups of at least `min`. */
function groups(voters: RingVoter[], keys: (v: RingVoter) => (string | null)[], min: number) {
  const by = new Map<string, Set<string>>();
  for (const v of voters)
    for (const k of new Set(keys(v).filter((x): x is string => Boolean(x)))) {
      const set = by.get(k) ?? new Set<string>();
      set.add(v.id);
      by.set(k, set);
    }
  return [...by.entries()].filter(([, ids]) => ids.size >= min).sort((a, b) => b[1].size - a[1].size);
}

/** The largest set of voters whose accounts were created within the window of one another. */
function createdTogether(voters: RingVoter[]): RingVoter[] {
  const sorted = [...voters].sort((a, b) => a.createdAt - b.createdAt);
  const window = RING_CREATED_WINDOW_HOURS * 3_600_000;
  let best: RingVoter[] = [];
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end]?.createdAt ?? 0) - (sorted[start]?.createdAt ?? 0) > window) start++;
    if (end - start + 1 > best.length) best = sorted.slice(start, end + 1);
  }
  return best;
}

/** The ring signals among a song's voters, each with the voters it involves. */
export function ringSignals(voters: RingVoter[]): Signal[] {
  const signals: Signal[] = [];
  for (const [prefix, ids] of groups(voters, (v) => [v.signupPrefix, v.votePrefix], RING_MIN_GROUP))
    signals.push({ text: `${ids.size} voters signed up or voted from ${prefix}`, members: [...ids] });
  for (const [, ids] of groups(voters, (v) => [v.signupDevice, v.voteDevice], 2))
    signals.push({ text: `${ids.size} voters used the same browser (device cookie)`, members: [...ids] });
  const together = createdTogether(voters);
  if (together.length >= RING_MIN_GROUP)
    signals.push({
      text: `${together.length} voter accounts were created within ${RING_CREATED_WINDOW_HOURS} hours of each other`,
      members: together.map((v) => v.id),
    });
  const backers = voters.filter((v) => v.uploaderUpvotes >= RING_BACKER_MIN_SONGS);
  if (backers.length >= RING_MIN_GROUP)
    signals.push({
      text: `${backers.length} voters also upvoted ${RING_BACKER_MIN_SONGS} or more of this uploader's other songs`,
      members: backers.map((v) => v.id),
    });
  return signals;
}
