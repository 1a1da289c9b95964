import { isUuid } from '../../lib/ids.js';
import { isStorableDateTime } from '../../lib/time.js';
import { normalizeDomain } from '../../lib/url.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { invalid } from '../../platform/errors.js';
import { createCompaniesRepo } from './companies.repo.js';
import type { CompaniesService } from './companies.service.js';
import { createCompanyListingsRepo, type AdminView } from './company-listings.repo.js';
import type { SubscriptionRecords, SubscriptionRow, ToolsEditing } from './tools.editing.js';
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
  audit: AuditRecorder;
  editing: ToolsEditing;
  companies: CompaniesService;
  subscriptions: SubscriptionRecords;
  /** Webhook events: a company losing its verification is recorded in the same transaction, then dispatched. */
  events?: {
    companyUnverified(q: Queryable, companyId: string): Promise<void>;
    dispatch(): Promise<void>;
  } | undefined;
}

/** What administrators do to companies: look up, list, verify, feature, set a subscription, reindex. Every change is audited. */
export function createToolsAdmin(deps: ToolsAdminDeps) {
  const { db, audit, editing, companies } = deps;
  const { toTool, toSubscription, detail, getRow } = editing;
  const listings = createCompanyListingsRepo(db);

  return {
    async lookupByWebsite(websiteUrl: string) {
      const domain = normalizeDomain(websiteUrl);
      if (!domain) throw invalid(['query', 'website_url'], 'Input should be a URL or a domain such as acme.com', websiteUrl, 'url_parsing');
      const row = await createCompaniesRepo(db).findByDomain(domain);
      return { exists: !!row, domain, tool: row ? toTool(row) : null };
    },

    async adminList(o: { q?: string | undefined; view?: AdminView | undefined; cursor?: string | undefined; limit?: number | undefined; offset?: number | undefined }) {
      const limit = o.limit ?? 50;
      const offset = o.offset ?? 0;
      const after = o.cursor ? decodeCursor(o.cursor) : undefined;
      const { rows, total } = await listings.listForAdmin({ q: o.q?.trim() || undefined, view: o.view, after, limit, offset });
      const subs = new Map<string, SubscriptionRow>();
      for (const s of await deps.subscriptions.ofMany(rows.map((r) => r.id))) subs.set(s.company_id, s);
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
      const updated = await companies.setFlag(id, flag, value, actor, async (tx, before) => {
        if (flag === 'is_verified' && !value && before.is_verified) await deps.events?.companyUnverified(tx, id);
      });
      // A failed dispatch loses nothing: the webhooks sweep queues recorded deliveries every minute.
      await deps.events?.dispatch().catch(() => {});
      return detail(updated, true);
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
        const before = toSubscription(await deps.subscriptions.of(id, tx));
        const after = toSubscription(await deps.subscriptions.grant(tx, { company_id: id, plan: body.plan, status: body.status ?? 'active', period_start: start, period_end: end, note: body.note ?? '' }));
        await audit(tx, { adminId: actor.id, adminEmail: actor.email, action: 'companies.subscription', targetType: 'company', targetId: id, before, after });
        return detail(row, true, tx);
      });
    },

    countLive: () => listings.countLive(),

    /** Rebuilds every live company's search_vector and embedding from stored data (companies module). */
    reindexAll: (onProgress: (done: number) => Promise<void>, batchSize?: number) => companies.reindexAll(onProgress, batchSize),
  };
}
