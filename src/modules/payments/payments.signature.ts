import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The Stripe-Signature scheme (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.<raw body>">`), used for
 * Stripe's events and the local provider's alike. Any v1 may match any configured secret (rotation);
 * timestamps further than `toleranceSeconds` from now either way are refused.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signPayload(raw: string | Buffer, secret: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.`).update(raw).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'mismatch';

export function verifySignature(
  raw: Buffer,
  header: string | undefined,
  secrets: string[],
  nowMs: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): { ok: true } | { ok: false; reason: SignatureFailure } {
  if (!header) return { ok: false, reason: 'missing' };
  let t: number | undefined;
  const v1: Buffer[] = [];
  for (const part of header.split(',')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (k === 't' && /^\d{1,12}$/.test(v)) t = Number(v);
    if (k === 'v1' && /^[0-9a-f]{64}$/.test(v)) v1.push(Buffer.from(v, 'hex'));
  }
  if (t === undefined || v1.length === 0) return { ok: false, reason: 'malformed' };
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
    for (const candidate of v1) if (timingSafeEqual(expected, candidate)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'mismatch' };
  if (Math.abs(nowMs / 1000 - t) > toleranceSeconds) return { ok: false, reason: 'stale' };
  return { ok: true };
}
