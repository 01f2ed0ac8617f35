import { gif, mp4, png, postFixtures } from '../platform/posts-support.js';
import type { AdsKit } from './support.js';

/**
 * Media for the creatives tests, uploaded as a client uploads it: POST /2/media/upload on the
 * platform listener with a media_category, then added to an ads account's media library.
 */
export function creativesKit(k: AdsKit) {
  const p = postFixtures(k.plaza);
  const tokens = new Map<string, { bearer: string }>();
  const tokenOf = async (username: string) => {
    let t = tokens.get(username);
    if (!t) tokens.set(username, (t = await p.selfServeAs(username)));
    return t;
  };
  async function upload(username: string, bytes: Buffer, category: string): Promise<string> {
    const res = await p.send('POST', '/2/media/upload', { auth: await tokenOf(username), body: { media: bytes.toString('base64'), media_category: category } });
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.text}`);
    return res.body.data.media_key as string;
  }
  const kit = {
    p,
    tokenOf,
    upload,
    image: (username = 'ada', width = 64, height = 48) => upload(username, png(width, height), 'post_image'),
    gif: (username = 'ada') => upload(username, gif(40, 40), 'post_gif'),
    video: (username = 'ada', o: { width?: number; height?: number; durationMs?: number; category?: string } = {}) =>
      upload(username, mp4({ width: o.width ?? 1280, height: o.height ?? 720, durationMs: o.durationMs ?? 9_500 }), o.category ?? 'post_video'),
    /** Uploads and adds to the library of `account` on the sandbox listener; answers the media key. */
    async inLibrary(account: string, kind: 'image' | 'gif' | 'video' | 'promo', username = 'ada', extra: Record<string, string> = {}): Promise<string> {
      const key = kind === 'image' ? await kit.image(username) : kind === 'gif' ? await kit.gif(username) : await kit.video(username, { category: kind === 'promo' ? 'amplify_video' : 'post_video' });
      const res = await k.sandbox.post(`/12/accounts/${account}/media_library`, { as: username, query: { media_key: key, ...extra } });
      if (res.status !== 200) throw new Error(`media_library failed: ${res.status} ${res.text}`);
      return key;
    },
  };
  return kit;
}
