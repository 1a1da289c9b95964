import type { Queryable } from './db.js';

/** One administrator action, as the audit log keeps it (admin module: admin_audit_log). */
export interface AdminAuditEntry {
  adminId: string | null;
  adminEmail: string;
  /** Dotted verb, e.g. companies.verify, companies.update, reindex.start. */
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Records an administrator action in the same transaction as the action. The admin module
 * supplies the implementation; modules that act for administrators receive it as a dependency.
 */
export type AuditRecorder = (q: Queryable, entry: AdminAuditEntry) => Promise<void>;
