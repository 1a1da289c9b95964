import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';

/**
 * Signing secrets and signatures (Standard Webhooks, https://www.standardwebhooks.com):
 * a secret is `whsec_` + base64 of 32 random bytes; a signature is `v1,` + base64 of
 * HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>"), several separated by spaces.
 * Secrets are stored encrypted with AES-256-GCM under a key derived from WEBHOOKS_SECRET_KEY.
 */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const ENVELOPE_VERSION = 'v1';

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** One `v1,<base64>` signature of a message. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The webhook-signature header: one signature per valid secret (current first), space-separated. */
export function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((s) => sign(s, id, timestampSeconds, body)).join(' ');
}

export interface SecretBox {
  seal(secret: string, endpointId: string): string;
  open(sealed: string, endpointId: string): string;
}

let testKey: Buffer | undefined;

/**
 * The encryption key's source: WEBHOOKS_SECRET_KEY when set; in tests a random per-process value (apps
 * built on one store in one process share it); otherwise one generated on first start into
 * DATA_DIR/webhooks-secret-key (mode 0600). Several instances on one PostgreSQL must share WEBHOOKS_SECRET_KEY.
 */
function keyMaterial(config: Pick<Config, 'webhooks' | 'nodeEnv' | 'dataDir'>): Buffer {
  if (config.webhooks.secretKey) return Buffer.from(config.webhooks.secretKey, 'utf8');
  if (config.nodeEnv === 'test') return (testKey ??= randomBytes(32));
  const file = path.join(config.dataDir, 'webhooks-secret-key');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const value = fs.readFileSync(file, 'utf8').trim();
  if (value.length < 32) throw new Error(`${file} holds a too short key: set WEBHOOKS_SECRET_KEY`);
  return Buffer.from(value, 'utf8');
}

/** AES-256-GCM with the endpoint id as associated data: a sealed secret copied to another row does not open. */
export function createSecretBox(config: Pick<Config, 'webhooks' | 'nodeEnv' | 'dataDir'>): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', keyMaterial(config), Buffer.alloc(0), 'agentpages webhook signing secrets v1', 32));
  return {
    seal(secret, endpointId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(endpointId));
      const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${ENVELOPE_VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
    },
    open(sealed, endpointId) {
      const [version, data] = sealed.split(':');
      if (version !== ENVELOPE_VERSION || !data) throw new Error('unknown secret envelope');
      const buf = Buffer.from(data, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
      decipher.setAAD(Buffer.from(endpointId));
      decipher.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
