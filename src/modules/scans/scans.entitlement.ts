import type { Db } from '../../platform/db.js';
import { createScansRepo } from './scans.repo.js';

/**
 * Who gets scheduled re-scans: companies on a paid plan that is entitled (status active,
 * trialing or past_due, period not over). Until the payments module offers
 * `entitlementsOf(companyId)`, the admin-set subscription in company_subscriptions decides;
 * when it does, `payments` is asked first (the one place to switch).
 */
export interface Entitlement {
  /** Companies entitled to scheduled re-scans (candidates for the hourly pass). */
  rescanCompanyIds(): Promise<string[]>;
  scheduledRescans(companyId: string): Promise<boolean>;
  /** Scans the company may start by hand per calendar month (its plan's limit; unlimited without payments). */
  scansPerMonth(companyId: string): Promise<{ limit: number; plan: string }>;
}

type PaymentsLike = { entitlementsOf?: (companyId: string) => Promise<unknown> };

const ENTITLED = ['active', 'trialing', 'past_due'];

function fromPayments(e: unknown): boolean | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const o = e as Record<string, unknown>;
  for (const k of ['scheduled_rescans', 'scheduledRescans', 'scan_schedule']) if (typeof o[k] === 'boolean') return o[k] as boolean;
  if (typeof o.entitled === 'boolean' && typeof o.plan === 'string') return o.entitled && o.plan !== 'free';
  if (typeof o.effective_plan === 'string') return o.effective_plan !== 'free';
  return undefined;
}

export function createEntitlement(db: Db, payments: unknown): Entitlement {
  const p = payments as PaymentsLike | undefined;
  const repo = createScansRepo(db);
  const fromTable = (companyId?: string) => repo.paidSubscriptionCompanyIds(ENTITLED, companyId);
  return {
    async rescanCompanyIds() {
      const ids = await fromTable();
      if (typeof p?.entitlementsOf !== 'function') return ids;
      const out: string[] = [];
      for (const id of ids) if ((fromPayments(await p.entitlementsOf(id)) ?? true)) out.push(id);
      return out;
    },
    async scansPerMonth(companyId) {
      if (typeof p?.entitlementsOf !== 'function') return { limit: Number.POSITIVE_INFINITY, plan: 'unknown' };
      const e = (await p.entitlementsOf(companyId)) as { effective_plan?: unknown; limits?: { scans_per_month?: unknown } } | undefined;
      const limit = e?.limits?.scans_per_month;
      return { limit: typeof limit === 'number' ? limit : Number.POSITIVE_INFINITY, plan: typeof e?.effective_plan === 'string' ? e.effective_plan : 'unknown' };
    },
    async scheduledRescans(companyId) {
      if (typeof p?.entitlementsOf === 'function') {
        const v = fromPayments(await p.entitlementsOf(companyId));
        if (v !== undefined) return v;
      }
      return (await fromTable(companyId)).length > 0;
    },
  };
}
