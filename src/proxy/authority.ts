import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import forge from 'node-forge';

/**
 * Plaza's own certificate authority, for the drop-in proxy (issue 35): it issues the certificate
 * of each public platform host a client reaches through the proxy, so the client, trusting this
 * one authority, believes it talks to api.x.com.
 *
 * - `ca-key.pem` in the data directory (mode 0600) holds the authority's key and certificate. It
 *   never leaves the directory: nothing serves or logs it. Processes sharing the data directory
 *   share the authority; the first to start makes it (the file appears whole or not at all, and a
 *   process that finds it made by another uses that one).
 * - `ca.pem` is its certificate alone, the file clients are told to trust (`ca_file`).
 * - `certs/<host>.pem` (0600): a host's key and certificate, issued at its first connection and
 *   kept, so restarts and other processes reuse it.
 *
 * X.509 is node-forge's (certificate building and signing); keys are Node's own (RSA 2048,
 * generated off the event loop).
 */
export interface Authority {
  /** The certificate clients trust. */
  readonly caFile: string;
  /** The TLS context for a host the proxy answers for, its certificate issued and kept at the first call. */
  contextFor(host: string): Promise<tls.SecureContext>;
}

const generateKeyPair = promisify(crypto.generateKeyPair);
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const CA_NAME = 'Plaza local certificate authority';

async function rsaKey(): Promise<string> {
  const { privateKey } = await generateKeyPair('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  return block(privateKey as unknown as string);
}

/** A positive serial number of 16 random bytes, as hex. */
const serial = () => `01${crypto.randomBytes(15).toString('hex')}`;

/** Writes `text` to `file` whole: a temporary file beside it, linked in place only if `file` does not exist yet. Answers whether it was written. */
function writeOnce(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Writes `text` to `file` whole (a temporary file renamed over it): a reader never sees half a file. */
export function replace(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
}

function selfSigned(keyPem: string, now: Date): string {
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now.getTime() + 10 * YEAR_MS);
  const name = [{ name: 'commonName', value: CA_NAME }, { name: 'organizationName', value: 'Plaza' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return block(forge.pki.certificateToPem(cert));
}

function issued(host: string, hostKeyPem: string, caKeyPem: string, caCertPem: string, now: Date): string {
  const caKey = forge.pki.privateKeyFromPem(caKeyPem);
  const caCert = forge.pki.certificateFromPem(caCertPem);
  const hostKey = forge.pki.privateKeyFromPem(hostKeyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(hostKey.n, hostKey.e);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  // Within the 398 days clients accept of a server certificate.
  cert.validity.notAfter = new Date(now.getTime() + 397 * 24 * 60 * 60 * 1000);
  cert.setSubject([{ name: 'commonName', value: host }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: host }] },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return block(forge.pki.certificateToPem(cert));
}

const PEM_KEY = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/;
const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** A PEM block with Unix line ends and a last one (node-forge writes \r\n), so blocks can be put one after another. */
const block = (pem: string) => `${pem.replace(/\r\n/g, '\n').trimEnd()}\n`;

function parts(text: string, file: string): { key: string; cert: string } {
  const key = PEM_KEY.exec(text)?.[0];
  const cert = PEM_CERT.exec(text)?.[0];
  if (!key || !cert) throw new Error(`${file} holds no key and certificate: remove it to have a new one made`);
  return { key: block(key), cert: block(cert) };
}

/** Opens the data directory's certificate authority, making it if there is none. */
export async function openAuthority(dataDir: string, now: () => Date = () => new Date()): Promise<Authority> {
  fs.mkdirSync(dataDir, { recursive: true });
  const keyFile = path.join(dataDir, 'ca-key.pem');
  const caFile = path.join(dataDir, 'ca.pem');
  if (!fs.existsSync(keyFile)) {
    const key = await rsaKey();
    writeOnce(keyFile, `${key}${selfSigned(key, now())}`);
  }
  const ca = parts(fs.readFileSync(keyFile, 'utf8'), keyFile);
  if (!fs.existsSync(caFile) || fs.readFileSync(caFile, 'utf8') !== ca.cert) replace(caFile, ca.cert, 0o644);

  const certsDir = path.join(dataDir, 'certs');
  const contexts = new Map<string, Promise<tls.SecureContext>>();
  const load = async (host: string): Promise<tls.SecureContext> => {
    const file = path.join(certsDir, `${host}.pem`);
    let pair: { key: string; cert: string } | undefined;
    if (fs.existsSync(file)) {
      pair = parts(fs.readFileSync(file, 'utf8'), file);
      // One issued by an earlier authority of this directory is issued again.
      const current = new crypto.X509Certificate(pair.cert);
      if (!current.verify(new crypto.X509Certificate(ca.cert).publicKey) || new Date(current.validTo).getTime() < now().getTime() + 24 * 60 * 60 * 1000) pair = undefined;
    }
    if (!pair) {
      const key = await rsaKey();
      pair = { key, cert: issued(host, key, ca.key, ca.cert, now()) };
      fs.mkdirSync(certsDir, { recursive: true, mode: 0o700 });
      replace(file, `${pair.key}${pair.cert}`, 0o600);
    }
    return tls.createSecureContext({ key: pair.key, cert: `${pair.cert}${ca.cert}` });
  };
  return {
    caFile,
    contextFor(host) {
      let context = contexts.get(host);
      if (!context) {
        context = load(host);
        contexts.set(host, context);
        // A failure is not kept: the next connection tries again.
        context.catch(() => contexts.delete(host));
      }
      return context;
    },
  };
}
