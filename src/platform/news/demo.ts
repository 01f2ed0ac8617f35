import type { PlatformContext } from '../context.js';
import type { DbOrTx } from '../../store/store.js';
import { setNoteWriter } from '../notes/service.js';
import { createNewsStory } from './service.js';

/**
 * The demo workspace's news stories (their keywords match the seeded posts, so their clusters
 * are not empty) and its note writer, dana (community notes need an enrolled writer).
 */
export async function seedNewsAndNotesDemo(ctx: PlatformContext, tx: DbOrTx, users: ReadonlyArray<{ id: string; username: string }>): Promise<void> {
  await createNewsStory(
    ctx,
    {
      name: 'Plaza launches a self-hosted social platform',
      category: 'Technology',
      hook: 'Plaza News announced the launch of Plaza, and the first posts are already in.',
      summary: 'Plaza, a self-hosted platform for posts, lists and streams, went live today. Plaza News posted the announcement under #launch, and early users replied with congratulations.',
      keywords: ['#launch', '"self-hosted platform"', '$PLZ'],
      contexts: { topics: ['Technology'], entities: { organizations: ['Plaza News'], products: ['Plaza'] }, finance: { tickers: ['PLZ'] } },
    },
    tx,
  );
  await createNewsStory(
    ctx,
    {
      name: 'Evenings at the plaza draw photographers',
      category: 'Lifestyle',
      hook: 'Photos and short clips of the plaza at dusk are circulating.',
      summary: 'Users are sharing photos and short clips of the plaza in the evening, tagged #plaza.',
      keywords: ['#plaza', 'dusk'],
      contexts: { topics: ['Photography'], entities: { places: ['The Plaza'] } },
    },
    tx,
  );
  const writer = users.find((u) => u.username === 'dana');
  if (writer) await setNoteWriter(ctx, writer.id, true, tx);
}
