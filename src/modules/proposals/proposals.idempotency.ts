import { createHash } from 'node:crypto';
import { stableJson } from '../../lib/stable-json.js';
import type { Queryable } from '../../platform/db.js';
import { invalid } from '../../platform/errors.js';
import type { ProposalsCtx } from './proposals.context.js';
import { createProposalsRepo, type ProposalsRepo } from './proposals.repo.js';

/**
 * Idempotency-Key on the creates. The stored response is looked up first (a retry returns it
 * without re-checking companies); otherwise the key is claimed in the same transaction as
 * the writes, so a concurrent retry waits and then replays, and a failed attempt leaves no
 * key behind. The same key with a different body is a 422; the body is the whole request, the structured fields
 * (budget, needed_by, location, details) included.
 */
export interface CreateResult<T> {
  statusCode: number;
  body: T;
  /** True when an Idempotency-Key retry returned the stored first result. */
  replayed: boolean;
}

/** How long an Idempotency-Key is remembered. */
const IDEMPOTENCY_HOURS = 24;

export function requestHash(operation: string, body: unknown): string {
  return createHash('sha256').update(`${operation}\n${stableJson(body)}`).digest('hex');
}

function replay<T>(key: string, hash: string, stored: { request_hash: string; status_code: number | null; response: unknown }): CreateResult<T> {
  if (stored.request_hash !== hash) {
    throw invalid(['header', 'idempotency-key'], 'This Idempotency-Key was already used with a different request; use a new key for a new request', key);
  }
  return { statusCode: stored.status_code ?? 200, body: stored.response as T, replayed: true };
}

export async function storedResult<T>(ctx: ProposalsCtx, agentId: string, key: string | undefined, hash: string): Promise<CreateResult<T> | undefined> {
  if (!key) return undefined;
  await ctx.repo.expireKey(agentId, key, IDEMPOTENCY_HOURS);
  const seen = await ctx.repo.getKey(agentId, key);
  return seen ? replay<T>(key, hash, seen) : undefined;
}

export async function writeOnce<T>(
  ctx: ProposalsCtx,
  agentId: string,
  key: string | undefined,
  hash: string,
  write: (tx: ProposalsRepo, raw: Queryable) => Promise<{ statusCode: number; body: T }>,
): Promise<CreateResult<T>> {
  return ctx.deps.db.transaction(async (tx) => {
    const txRepo = createProposalsRepo(tx);
    if (key && !(await txRepo.claimKey(agentId, key, hash))) return replay<T>(key, hash, (await txRepo.getKey(agentId, key))!);
    const out = await write(txRepo, tx);
    if (key) await txRepo.saveKeyResponse(agentId, key, out.statusCode, out.body);
    return { ...out, replayed: false };
  });
}
