import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisPubSub, storeRedisName } from '../redis.js';

/**
 * Tells the other processes on a store that an admin setting changed (the clock, faults and usage
 * caps, a reset, a world's store), and waits until each has read it again (issue 37 item 8): an
 * admin change is answered only once every live process applies it, so the next request, through
 * any process behind the balancer, sees it. Redis pub/sub carries the news and the
 * acknowledgements; without Redis (or when it is down) each process still reads its settings again
 * on its poll, as before.
 */
export interface SettingsBus {
  /** Says that a setting of `world` changed; resolves when every other process has applied it (at most `ACK_WAIT_MS`). */
  announce(world: string): Promise<void>;
  /** Calls `apply` when another process announces a change. */
  onChange(apply: (world: string) => Promise<void>): void;
  close(): Promise<void>;
}

/** How long an announcement waits for the other processes' acknowledgements before it answers anyway. */
export const ACK_WAIT_MS = 1_000;

/** One process alone (no Redis): nothing to tell. */
class LocalSettingsBus implements SettingsBus {
  async announce(): Promise<void> {}
  onChange(): void {}
  async close(): Promise<void> {}
}

interface Announcement {
  origin: string;
  id: string;
  world: string;
}

class RedisSettingsBus implements SettingsBus {
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly ackChannel: string;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly appliers: Array<(world: string) => Promise<void>> = [];
  /** Announcements of this process waiting for acknowledgements: how many came, and how many are expected once PUBLISH has counted the receivers. */
  private readonly waiting = new Map<string, { acks: number; expected?: number; done: () => void }>();

  constructor(redisUrl: string, storeKey: string, private readonly onError: (err: Error) => void) {
    this.channel = settingsChannel(storeKey);
    this.ackChannel = `${this.channel}:ack`;
    ({ publisher: this.publisher, subscriber: this.subscriber } = redisPubSub(redisUrl, (err) => this.onError(err)));
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) void this.applyAnnouncement(message);
      else if (channel === this.ackChannel) this.acknowledged(message);
    });
    this.subscriber.subscribe(this.channel, this.ackChannel).catch((err: Error) => this.onError(err));
  }

  onChange(apply: (world: string) => Promise<void>): void {
    this.appliers.push(apply);
  }

  async announce(world: string): Promise<void> {
    if (this.publisher.status !== 'ready') return;
    const id = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const all = new Promise<void>((resolve) => {
      this.waiting.set(id, { acks: 0, done: resolve });
      timer = setTimeout(resolve, ACK_WAIT_MS);
      timer.unref();
    });
    try {
      // Every subscriber of the channel is a process, this one's included: the others each acknowledge.
      const receivers = await this.publisher.publish(this.channel, JSON.stringify({ origin: this.origin, id, world } satisfies Announcement));
      const entry = this.waiting.get(id)!;
      entry.expected = receivers - 1;
      if (entry.acks >= entry.expected) entry.done();
      await all;
    } catch (err) {
      this.onError(err as Error);
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
    }
  }

  private acknowledged(id: string): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    entry.acks++;
    if (entry.expected !== undefined && entry.acks >= entry.expected) entry.done();
  }

  private async applyAnnouncement(message: string): Promise<void> {
    let announcement: Announcement;
    try {
      announcement = JSON.parse(message) as Announcement;
    } catch {
      return;
    }
    if (announcement.origin === this.origin) return;
    for (const apply of this.appliers) {
      try {
        await apply(announcement.world);
      } catch (err) {
        this.onError(err as Error);
      }
    }
    if (this.publisher.status === 'ready') await this.publisher.publish(this.ackChannel, announcement.id).catch((err: Error) => this.onError(err));
  }

  async close(): Promise<void> {
    for (const { done } of this.waiting.values()) done();
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

/** The channel of the processes on one store (named by its database URL). */
export function settingsChannel(storeKey: string): string {
  return storeRedisName('settings', storeKey);
}

/** The settings bus of this process: Redis when a URL is configured, alone otherwise. */
export function createSettingsBus(options: { redisUrl?: string; databaseUrl: string; onError?: (err: Error) => void }): SettingsBus {
  if (options.redisUrl) return new RedisSettingsBus(options.redisUrl, options.databaseUrl, options.onError ?? (() => {}));
  return new LocalSettingsBus();
}
