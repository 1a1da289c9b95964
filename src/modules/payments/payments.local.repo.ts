import type { Queryable } from '../../platform/db.js';

/** SQL of the offline provider (payments.local.ts): its objects in local_billing_objects, as JSON. */
export function createLocalBillingRepo(db: Queryable) {
  return {
    async load<T>(objectId: string, kind: string): Promise<T | null> {
      const rows = await db.query<{ data: T }>('SELECT data FROM local_billing_objects WHERE id = $1 AND kind = $2', [objectId, kind]);
      return rows[0]?.data ?? null;
    },
    async save(kind: string, o: { id: string; customerId?: string | null; [k: string]: unknown }): Promise<void> {
      await db.query(
        `INSERT INTO local_billing_objects (id, kind, customer_id, data) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data`,
        [o.id, kind, o.customerId ?? null, JSON.stringify(o)],
      );
    },
    /** A customer's subscriptions, oldest first. */
    async subscriptionsOf<T>(customerId: string): Promise<T[]> {
      const rows = await db.query<{ data: T }>(`SELECT data FROM local_billing_objects WHERE customer_id = $1 AND kind = 'subscription' ORDER BY created_at`, [customerId]);
      return rows.map((r) => r.data);
    },
    /** Every subscription whose status still grants the plan, oldest first. */
    async runningSubscriptions<T>(): Promise<T[]> {
      const rows = await db.query<{ data: T }>(
        `SELECT data FROM local_billing_objects WHERE kind = 'subscription' AND data->>'status' IN ('active', 'trialing', 'past_due') ORDER BY created_at`,
      );
      return rows.map((r) => r.data);
    },
    /** The amount after discount and the currency our checkout record holds (undefined for an unknown session). */
    async checkoutAmount(sessionId: string): Promise<{ amount_discounted: number; currency: string } | undefined> {
      return (await db.query<{ amount_discounted: number; currency: string }>('SELECT amount_discounted, currency FROM checkouts WHERE id = $1', [sessionId]))[0];
    },
  };
}
