/**
 * The usage-based prices of spec 000 "Limits", in micro-credits (0.001 credit = 1000), by the day
 * they came into force. The release history dates one pricing change, Apr 20, 2026 ("owned-reads
 * pricing"); the prices announced with it (owned reads, creating a post, a post containing a URL,
 * a summoned reply) apply from that day, and the earlier pilot's list before it. What the newer
 * list does not price keeps its pilot price.
 */
export type ChargeKind =
  | 'post_read'
  | 'user_read'
  | 'dm_event_read'
  | 'content_create'
  | 'dm_interaction'
  | 'user_interaction'
  | 'owned_read'
  | 'post_create'
  | 'post_create_url'
  | 'summoned_reply';

export const OWNED_READS_SINCE = '2026-04-20';

const PILOT: Partial<Record<ChargeKind, number>> = {
  post_read: 5_000,
  user_read: 10_000,
  dm_event_read: 10_000,
  content_create: 10_000,
  dm_interaction: 10_000,
  user_interaction: 15_000,
};

const OWNED_READS: Partial<Record<ChargeKind, number>> = {
  ...PILOT,
  owned_read: 1_000,
  post_create: 15_000,
  post_create_url: 200_000,
  summoned_reply: 10_000,
};

/** The price lists, newest first. */
const PRICE_LISTS: ReadonlyArray<{ from: string; prices: Partial<Record<ChargeKind, number>> }> = [
  { from: OWNED_READS_SINCE, prices: OWNED_READS },
  { from: '0000-01-01', prices: PILOT },
];

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Whether the newer list (owned reads and the post-creation prices) is in force at `at`. */
export const ownedReadsPricing = (at: Date): boolean => dayOf(at) >= OWNED_READS_SINCE;

/** The unit price of `kind` in force at `at`, in micro-credits; undefined when no list in force prices it. */
export function unitPrice(kind: ChargeKind, at: Date): number | undefined {
  const day = dayOf(at);
  return PRICE_LISTS.find((l) => day >= l.from)?.prices[kind];
}

/** Micro-credits as the decimal string of credits ("0.015"). */
export function credits(micro: number): string {
  const whole = Math.trunc(micro / 1_000_000);
  const fraction = String(Math.abs(micro % 1_000_000)).padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
