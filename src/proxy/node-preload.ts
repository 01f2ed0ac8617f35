import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { replace } from './authority.js';
import { PROXIED_HOSTS } from './server.js';

/**
 * The Node preload of the drop-in proxy (issue 35), written to the data directory at each start
 * (`node_preload` in the credentials file): `node --import <it> bot.mjs`, or the same in
 * NODE_OPTIONS. Node 20's fetch and https ignore HTTPS_PROXY, so the preload routes the public
 * platform's hosts through Plaza's proxy, and nothing else, trusting Plaza's certificate authority
 * for them only:
 * - fetch (and what is built on it, @xdevplatform/xdk): a global undici dispatcher that sends those
 *   hosts through undici's ProxyAgent and every other host as before;
 * - https (twitter-api-v2, and most clients built on https.request): https.globalAgent tunnels
 *   those hosts through the proxy (CONNECT) and opens other hosts directly.
 * undici is imported by its path in Plaza's own node_modules, so the program needs none of its own.
 */
export function nodePreloadSource(proxyUrl: string, caFile: string): string {
  const undici = pathToFileURL(createRequire(import.meta.url).resolve('undici')).href;
  return `// Written by Plaza at start (src/proxy/node-preload.ts): the public platform's hosts go through
// Plaza's proxy at ${proxyUrl}, trusting Plaza's certificate authority; every other host as before.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { Agent, Dispatcher, ProxyAgent, setGlobalDispatcher } from ${JSON.stringify(undici)};

const PROXY = new URL(${JSON.stringify(proxyUrl)});
const HOSTS = new Set(${JSON.stringify(PROXIED_HOSTS)});
const ca = [...tls.rootCertificates, fs.readFileSync(${JSON.stringify(caFile)}, 'utf8')];

class PlazaDispatcher extends Dispatcher {
  #direct = new Agent();
  #proxied = new ProxyAgent({ uri: PROXY.href, requestTls: { ca } });
  dispatch(options, handler) {
    const host = new URL(options.origin).hostname.toLowerCase();
    return (HOSTS.has(host) ? this.#proxied : this.#direct).dispatch(options, handler);
  }
  close(callback) {
    const done = Promise.all([this.#direct.close(), this.#proxied.close()]).then(() => undefined);
    if (!callback) return done;
    done.then(() => callback(null), callback);
  }
  destroy(err, callback) {
    if (typeof err === 'function') [err, callback] = [null, err];
    const done = Promise.all([this.#direct.destroy(err), this.#proxied.destroy(err)]).then(() => undefined);
    if (!callback) return done;
    done.then(() => callback(null), callback);
  }
}
setGlobalDispatcher(new PlazaDispatcher());

class PlazaAgent extends https.Agent {
  createConnection(options, callback) {
    const host = String(options.host ?? '').toLowerCase();
    if (!HOSTS.has(host)) return super.createConnection(options, callback);
    const target = \`\${host}:\${options.port || 443}\`;
    const connect = http.request({ host: PROXY.hostname, port: PROXY.port || 80, method: 'CONNECT', path: target, headers: { host: target }, agent: false });
    connect.once('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        callback(new Error(\`Plaza's proxy at \${PROXY.href} refused CONNECT \${target}: \${res.statusCode}\`));
        return;
      }
      callback(null, tls.connect({ ...options, socket, ca, servername: options.servername || host }));
    });
    connect.once('error', callback);
    connect.end();
    return undefined;
  }
}
https.globalAgent = new PlazaAgent({ keepAlive: true });
`;
}

/** Writes the preload beside the data directory's other files; answers its absolute path. */
export function writeNodePreload(dataDir: string, proxyUrl: string, caFile: string): string {
  const file = path.resolve(dataDir, 'node-preload.mjs');
  replace(file, nodePreloadSource(proxyUrl, caFile), 0o644);
  return file;
}
