import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Agent API keys: `<prefix>_live_<secret><checksum>`.
 * - secret: 32 base62 characters from the CSPRNG (about 190 bits).
 * - checksum: 6 base62 characters of sha256(prefix_live_secret), so a mistyped or truncated
 *   key is refused without touching the database (it is not a secret: the hash lookup is the check).
 * Only sha256(key) is stored; high-entropy keys need no slow hash.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

/** The key prefix for a service name: 'agp' for the default 'agentpages', else its first 3 letters/digits. */
export function apiKeyPrefix(serviceName: string): string {
  if (serviceName === 'agentpages') return 'agp';
  const letters = serviceName.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (letters.slice(0, 3) || 'key').padEnd(3, 'x');
}

function randomBase62(length: number): string {
  let out = '';
  // Rejection sampling keeps every character uniform (248 = 4 * 62).
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function checksum(body: string): string {
  const digest = createHash('sha256').update(body).digest();
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) out += BASE62[digest[i]! % 62];
  return out;
}

export function generateApiKey(prefix: string): string {
  const body = `${prefix}_live_${randomBase62(SECRET_LENGTH)}`;
  return body + checksum(body);
}

/** Whether the key has this service's shape and a correct checksum (no database needed). */
export function isWellFormedApiKey(key: string, prefix: string): boolean {
  const head = `${prefix}_live_`;
  if (key.length !== head.length + SECRET_LENGTH + CHECKSUM_LENGTH || !key.startsWith(head)) return false;
  if (!/^[0-9A-Za-z]+$/.test(key.slice(head.length))) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return safeEqual(checksum(body), key.slice(-CHECKSUM_LENGTH));
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time string comparison (lengths are not secret here). */
export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}
