import { isUuid } from '../../lib/ids.js';
import { isStorableDateTime } from '../../lib/time.js';
import { normalizeDomain } from '../../lib/url.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import { invalid } from '../../platform/errors.js';
import { embedProfiles } from './profile-vector.js';
import type { ToolsEditing } from './tools.editing.js';
import { createToolsRepo, type SubscriptionRow } from './tools.repo.js';
import type { ToolDetailResponse } from './tools.schemas.js';

export const SubscriptionStatuses = ['active', 'trialing', 'past_due', 'canceled'] as const;

/** Keyset cursor for the administrators' list: (created_at as PostgreSQL text, id). */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    // A time PostgreSQL reads (the form encodeCursor writes, `2026-01-02 03:04:05.678901+00`) and a real uuid:
    // anything else is no cursor this list gave out, and must not reach the database as an error.
    if (typeof createdAt === 'string' && /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?\+00$/.test(createdAt)
      && isStorableDateTime(`${createdAt.slice(0, 10)}T${createdAt.slice(11, -3)}Z`) && typeof id === 'string' && isUuid(id)) {
      return { createdAt, id };
    }
  } catch {
    // fall through to the 422 below
  }
  throw invalid(['query', 'cursor'], 'Invalid cursor: pass next_cursor from a previous page unchanged', cursor);
}

export interface ToolsAdminDeps {
  db: Db;
  embeddings: EmbeddingProvider;
  audit: AuditRecorder;
  editing: ToolsEditing;
  /** Plan limits: featuring needs a plan that is eligible for it (payments.plans.ts). */
  /** Webhook events: a company losing its verification is recorded in the same transaction, then dispatched. */
  events?: {
    companyUnverified(q: Queryable, companyId: string): Promise<void>;
    dispatch(): Promise<void>;
  } | undefined;
}

/** What administrators do to companies: look up, list, verify, feature, set a subscription, reindex. Every change is audited. */
export function createToolsAdmin(deps: ToolsAdminDeps) {
  const { db, embeddings, audit, editing } = deps;
  const { toTool, toSubscription, detail, getRow } = editing;
  const repo = createToolsRepo(db);

  return {
    async lookupByWebsite(websiteUrl: string) {
      const domain = normalizeDomain(websiteUrl);
      if (!domain) throw invalid(['query', 'website_url'], 'Input should be a URL or a domain such as acme.com', websiteUrl, 'url_parsing');
      const row = await repo.findByDomain(domain);
      return { exists: !!row, domain, tool: row ? toTool(row) : null };
    },

    async adminList(o: { q?: string | undefined; cursor?: string | undefined; limit?: number | undefined; offset?: number | undefined }) {
      const limit = o.limit ?? 50;
      const offset = o.offset ?? 0;
      const after = o.cursor ? decodeCursor(o.cursor) : undefined;
      const { rows, total } = await repo.listForAdmin({ q: o.q?.trim() || undefined, after, limit, offset });
      const subs = new Map<string, SubscriptionRow>();
      for (const s of await repo.subscriptionsOf(rows.map((r) => r.id))) subs.set(s.company_id, s);
      const last = rows[rows.length - 1];
      return {
        companies: rows.map((r) => ({ ...toTool(r), subscription_plan: subs.get(r.id)?.plan ?? null, owner_edited_fields: r.owner_edited_fields })),
        total,
        limit,
        offset,
        next_cursor: last && rows.length === limit ? encodeCursor(`${last.cursor_ts}+00`, last.id) : null,
      };
    },

    async setFlag(id: string, flag: 'is_verified' | 'is_featured', value: boolean, actor: Actor): Promise<ToolDetailResponse> {
      // An administrator's decision, on any plan (spec 4.5): plan perks govern what owners can buy, never this.
      const out = await db.transaction(async (tx) => {
        const row = await getRow(id, tx, true);
        const updated = (await createToolsRepo(tx).setFlag(id, flag, value))!;
        const action = flag === 'is_verified' ? (value ? 'companies.verify' : 'companies.unverify') : 'companies.featured';
        await audit(tx, { adminId: actor.id, adminEmail: actor.email, action, targetType: 'company', targetId: id, before: { [flag]: row[flag] }, after: { [flag]: value } });
        if (flag === 'is_verified' && !value && row.is_verified) await deps.events?.companyUnverified(tx, id);
        return detail(updated, true, tx);
      });
      // A failed dispatch loses nothing: the webhooks sweep queues recorded deliveries every minute.
      await deps.events?.dispatch().catch(() => {});
      return out;
    },

    async setSubscription(
      id: string,
      body: {
        plan: string;
        status?: (typeof SubscriptionStatuses)[number] | undefined;
        period_start?: string | null | undefined;
        period_end?: string | null | undefined;
        period_months?: number | undefined;
        note?: string | undefined;
      },
      actor: Actor,
    ): Promise<ToolDetailResponse> {
      const start = body.period_start ? new Date(body.period_start) : body.period_months ? new Date() : null;
      let end = body.period_end ? new Date(body.period_end) : null;
      if (!end && body.period_months && start) {
        end = new Date(start);
        end.setUTCMonth(end.getUTCMonth() + body.period_months);
      }
      if (start && end && end <= start) throw invalid(['body', 'period_end'], 'period_end should be after period_start', body.period_end);
      return db.transaction(async (tx) => {
        const row = await getRow(id, tx, true);
        const r = createToolsRepo(tx);
        const before = toSubscription(await r.getSubscription(id));
        const after = toSubscription(await r.upsertSubscription({ company_id: id, plan: body.plan, status: body.status ?? 'active', period_start: start, period_end: end, source: 'admin', note: body.note ?? '' }));
        await audit(tx, { adminId: actor.id, adminEmail: actor.email, action: 'companies.subscription', targetType: 'company', targetId: id, before, after });
        return detail(row, true, tx);
      });
    },

    countLive: () => repo.countLive(),

    /**
     * Rebuilds every live company's search_vector (trigger) and embedding from stored data, in
     * small batches: each row is its own statement, so search keeps answering throughout.
     */
    async reindexAll(onProgress: (done: number) => Promise<void>, batchSize = 32): Promise<number> {
      let after: string | null = null;
      let done = 0;
      for (;;) {
        const rows = await repo.reindexBatch(after, batchSize);
        if (rows.length === 0) return done;
        const vectors = await embedProfiles(embeddings, rows);
        for (let i = 0; i < rows.length; i++) await repo.reindexOne(rows[i]!.id, toPgVector(vectors[i]!), embeddings.model);
        done += rows.length;
        after = rows[rows.length - 1]!.id;
        await onProgress(done);
      }
    },
  };
}
