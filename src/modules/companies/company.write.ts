import type { AuditRecorder } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import { AppError, notFound } from '../../platform/errors.js';
import { isoTimeOrNull } from '../../lib/time.js';
import { createCompaniesRepo, type StoredEmbedding } from './companies.repo.js';
import { createCompanyHistoryRepo } from './company-history.repo.js';
import { derivedFields } from './company.normalize.js';
import { stampsFor } from './company.freshness.js';
import type { ChangeableFields, CompanyRecord } from './company.record.js';
import { embedProfiles, embeddingText, type EmbeddableProfile } from './profile-vector.js';
import type { FieldChange } from './tools.schemas.js';

/** What a change sets, computed from the company as it is now. */
export interface EditPlan {
  values: ChangeableFields;
  diff: FieldChange[];
  /** The fields set by hand afterwards (an undo restores them); by default the edited fields join them. */
  ownerEdited?: string[] | undefined;
}

/** A change by a person (owner or administrator): owner edit, AI edit, its undo, a logo, the gallery. */
export interface CompanyEdit {
  actor: Actor;
  /** Kept in the edit history: edit, ai_edit, undo, logo. */
  source: string;
  plan(current: CompanyRecord): EditPlan;
  /** Writes that belong to this change, in its transaction (a logo, an AI-edit snapshot, an undo mark). */
  alongside?(tx: Queryable, current: CompanyRecord, plan: EditPlan): Promise<void>;
}

export interface CompanyWriterDeps {
  db: Db;
  embeddings: EmbeddingProvider;
  audit: AuditRecorder;
}

/** Planned against a row that changed before the lock: planned again this many times, then a 409. */
const EDIT_ATTEMPTS = 3;

/** The vector of `next` when its embedded text differs from `before`'s (none when nothing to embed changed). */
export async function embeddingFor(embeddings: EmbeddingProvider, before: EmbeddableProfile | undefined, next: EmbeddableProfile): Promise<StoredEmbedding | undefined> {
  if (before && embeddingText(before) === embeddingText(next)) return undefined;
  const [vector] = await embedProfiles(embeddings, [next]);
  return { vector: toPgVector(vector!), model: embeddings.model };
}

/** The values with what derives from them: coordinates follow city and country, the E.164 phone follows phone and country. */
function withDerived(current: CompanyRecord, values: ChangeableFields): ChangeableFields {
  const out = { ...values };
  const derived = derivedFields({ city: out.city ?? current.city, country_code: out.country_code ?? current.country_code, phone: 'phone' in out ? out.phone ?? null : current.phone });
  if ('city' in out || 'country_code' in out) Object.assign(out, { latitude: derived.latitude, longitude: derived.longitude, timezone: derived.timezone });
  if (('phone' in out || 'country_code' in out) && derived.phone_e164 !== current.phone_e164) out.phone_e164 = derived.phone_e164;
  return out;
}

/**
 * People's changes to a company, each one way: plan against the current record, derive what
 * follows, embed (before the transaction: a model call never holds a row lock), then lock, check
 * the row did not change meanwhile (else plan again), write, and record the history and the audit.
 */
export function createCompanyWriter({ db, embeddings, audit }: CompanyWriterDeps) {
  const load = async (q: Queryable, id: string, forUpdate = false) => (await createCompaniesRepo(q).findById(id, { forUpdate })) ?? Promise.reject(notFound('Company'));

  async function auditAdmin(tx: Queryable, actor: Actor, action: string, id: string, before: unknown, after: unknown) {
    if (actor.kind === 'admin') await audit(tx, { adminId: actor.id, adminEmail: actor.email, action, targetType: 'company', targetId: id, before, after });
  }

  async function attempt(id: string, edit: CompanyEdit): Promise<CompanyRecord | undefined> {
    const current = await load(db, id);
    const plan = edit.plan(current);
    const values = withDerived(current, plan.values);
    const embedding = plan.diff.length ? await embeddingFor(embeddings, current, { ...current, ...values }) : undefined;
    return db.transaction(async (tx) => {
      const locked = await load(tx, id, true);
      if (locked.updated_at.getTime() !== current.updated_at.getTime()) return undefined;
      await edit.alongside?.(tx, locked, plan);
      if (plan.diff.length === 0 && !plan.ownerEdited) return locked;
      const ownerEditedFields = plan.ownerEdited ?? [...new Set([...locked.owner_edited_fields, ...plan.diff.map((d) => d.field)])];
      const written = await createCompaniesRepo(tx).update(id, values, { embedding, ownerEditedFields });
      // Freshness: the fields this person changed are theirs, as of now.
      const updated = plan.diff.length ? ((await createCompaniesRepo(tx).stampSources(id, stampsFor(plan.diff.map((d) => d.field), edit.actor.kind === 'admin' ? 'admin' : 'owner'))) ?? written) : written;
      const changes = Object.fromEntries(plan.diff.map((d) => [d.field, { before: d.before, after: d.after }]));
      await createCompanyHistoryRepo(tx).insertEdit({ companyId: id, actorKind: edit.actor.kind, actorId: edit.actor.id, actorEmail: edit.actor.email, source: edit.source, changes });
      await auditAdmin(tx, edit.actor, `companies.${edit.source}`, id, Object.fromEntries(plan.diff.map((d) => [d.field, d.before])), Object.fromEntries(plan.diff.map((d) => [d.field, d.after])));
      return updated;
    });
  }

  return {
    /** Applies one person's change (see CompanyEdit); returns the record as written. */
    async edit(id: string, edit: CompanyEdit): Promise<CompanyRecord> {
      for (let i = 0; i < EDIT_ATTEMPTS; i++) {
        const written = await attempt(id, edit);
        if (written) return written;
      }
      throw new AppError('conflict', 'The profile changed while this change was being saved: reload it and try again');
    },

    /** An administrator verifies or features (or withdraws it); `also` runs in the same transaction (webhook events). */
    async setFlag(id: string, flag: 'is_verified' | 'is_featured', on: boolean, actor: Actor, also?: (tx: Queryable, before: CompanyRecord) => Promise<void>): Promise<CompanyRecord> {
      return db.transaction(async (tx) => {
        const before = await load(tx, id, true);
        const updated = (await createCompaniesRepo(tx).setFlag(id, flag, on))!;
        const action = flag === 'is_verified' ? (on ? 'companies.verify' : 'companies.unverify') : 'companies.featured';
        await audit(tx, { adminId: actor.id, adminEmail: actor.email, action, targetType: 'company', targetId: id, before: { [flag]: before[flag] }, after: { [flag]: on } });
        await also?.(tx, before);
        return updated;
      });
    },

    /** Removes the company from the directory (soft delete), with its history row and, for administrators, the audit. */
    async remove(id: string, actor: Actor): Promise<{ id: string; deleted: true; deleted_at: string }> {
      return db.transaction(async (tx) => {
        const row = await load(tx, id, true);
        const deletedAt = isoTimeOrNull((await createCompaniesRepo(tx).softDelete(id))!)!;
        await createCompanyHistoryRepo(tx).insertEdit({ companyId: id, actorKind: actor.kind, actorId: actor.id, actorEmail: actor.email, source: 'delete', changes: { deleted_at: { before: null, after: deletedAt } } });
        await auditAdmin(tx, actor, 'companies.delete', id, { name: row.name, domain: row.domain }, { deleted_at: deletedAt });
        return { id, deleted: true as const, deleted_at: deletedAt };
      });
    },
  };
}

export type CompanyWriter = ReturnType<typeof createCompanyWriter>;
