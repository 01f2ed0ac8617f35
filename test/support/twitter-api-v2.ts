import type { ITwitterApiBeforeRequestConfigHookArgs, ITwitterApiClientPlugin } from 'twitter-api-v2';

/**
 * twitter-api-v2 pointed at Plaza with nothing changed but the host: its calls for api.x.com,
 * upload.x.com and x.com (requests and streams) go to `baseUrl`. The client chooses some things by
 * the host's name, which the plugin keeps for the moved host: a media upload's body (multipart for
 * upload.x.com) and the form-encoded answers of the OAuth 1.0a token steps.
 */
export function plazaPlugin(baseUrl: string): ITwitterApiClientPlugin {
  const toPlaza = ({ params }: ITwitterApiBeforeRequestConfigHookArgs) => {
    const url = new URL(params.url.startsWith('http') ? params.url : `https://${params.url}`);
    if (!url.hostname.endsWith('x.com')) return;
    if (url.hostname === 'upload.x.com' && url.pathname === '/1.1/media/upload.json') params.forceBodyMode ??= 'form-data';
    if (url.pathname.startsWith('/oauth/')) params.forceParseMode = 'url';
    params.url = baseUrl + url.pathname + url.search;
  };
  return { onBeforeRequestConfig: toPlaza, onBeforeStreamRequestConfig: toPlaza };
}
