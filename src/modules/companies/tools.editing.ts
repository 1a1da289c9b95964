import { cityCoordinates } from '../../lib/geo.js';
import { toE164 } from '../../lib/phone.js';
import { Value } from 'typebox/value';
import type { AdminAuditEntry, AuditRecorder } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import { AppError, invalid, notFound, type ValidationIssue } from '../../platform/errors.js';
import { toValidationIssues } from '../../platform/error-handler.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';
import type { CompaniesService } from './companies.service.js';
import { embedProfiles, embeddingText } from './profile-vector.js';
import type { CompanyInput } from './companies.schemas.js';
import { createToolsRepo, type SubscriptionRow, type ToolRow } from './tools.repo.js';
import {
  EDITABLE_FIELDS,
  PROTECTED_FIELDS,
  ToolUpdateSchema,
  type EditableField,
  type FieldChange,
  type Subscription,
  type ToolDetailResponse,
  type ToolResponse,
} from './tools.schemas.js';

export type { AdminAuditEntry, AuditRecorder };

/**
 * What every company change shares (owner edit, AI edit and its undo, logo, administrator
 * actions): the response shapes, the row lookup, the one validation gate and the write with its
 * history and audit rows. The verb groups (tools.service.ts, tools.ai-edit.ts, tools.admin.ts) are
 * built on it.
 */
export interface ToolsEditingDeps {
  db: Db;
  companies: CompaniesService;
  embeddings: EmbeddingProvider;
  baseUrl: string;
  audit: AuditRecorder;
}

const editable = new Set<string>(EDITABLE_FIELDS);

/** Deep equality that ignores object key order (jsonb reorders keys). */
export function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(norm) : v && typeof v === 'object' && !(v instanceof Date)
      ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, norm((v as Record<string, unknown>)[k])]))
      : v;
  return JSON.stringify(norm(a ?? null)) === JSON.stringify(norm(b ?? null));
}

export function createToolsEditing(deps: ToolsEditingDeps) {
  const { db, companies, embeddings, baseUrl, audit } = deps;

  function toTool(row: ToolRow): ToolResponse {
    return {
      id: row.id,
      name: row.name,
      website_url: row.website_url,
      domain: row.domain,
      category: row.category,
      industry: row.industry,
      description: row.description,
      location: { country: row.country, country_code: row.country_code, city: row.city, address: row.address, latitude: row.latitude ?? null, longitude: row.longitude ?? null },
      service_type: row.service_type,
      keywords: row.keywords,
      services: row.services,
      is_verified: row.is_verified,
      is_featured: row.is_featured,
      logo_url: row.logo_url,
      created_at: iso(row.created_at)!,
      updated_at: iso(row.updated_at)!,
    };
  }

  function toSubscription(s: SubscriptionRow | undefined): Subscription | null {
    if (!s) return null;
    return { plan: s.plan, status: s.status, period_start: iso(s.period_start), period_end: iso(s.period_end), source: s.source, note: s.note, updated_at: iso(s.updated_at)! };
  }

  async function detail(row: ToolRow, manage: boolean, q: Queryable = db): Promise<ToolDetailResponse> {
    const r = createToolsRepo(q);
    const [sub, snap] = manage ? await Promise.all([r.getSubscription(row.id), r.latestSnapshot(row.id)]) : [undefined, undefined];
    return {
      ...toTool(row),
      country: row.country,
      city: row.city,
      address: row.address,
      languages: row.languages,
      contact_email: row.contact_email,
      phone: row.phone,
      phone_e164: row.phone_e164 ?? null,
      social_links: row.social_links ?? {},
      founded_year: row.founded_year,
      accepts_proposals: row.is_verified,
      subscription: manage ? toSubscription(sub) : null,
      owner_edited_fields: manage ? row.owner_edited_fields : [],
      ai_edit_undo_available: manage ? !!snap && !snap.undone_at : false,
      editable_fields: [...EDITABLE_FIELDS],
      source: row.source,
      profile_url: `${baseUrl}/api/v1/agent/companies/${row.id}`,
    };
  }

  async function getRow(id: string, q: Queryable = db, forUpdate = false): Promise<ToolRow> {
    const row = await createToolsRepo(q).findById(id, { forUpdate });
    if (!row) throw notFound('Company');
    return row;
  }

  /**
   * The one gate for every change (PUT, AI edit, confirm): only editable fields, each within
   * its bounds. Unknown and protected fields are all listed in one 422 and nothing is applied.
   */
  function validatePatch(raw: unknown, loc: (string | number)[] = ['body']): Partial<Record<EditableField, unknown>> {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(loc, 'Input should be a JSON object of fields to change', raw, 'dict_type');
    const obj = raw as Record<string, unknown>;
    const issues: ValidationIssue[] = [];
    for (const [key, value] of Object.entries(obj)) {
      if (editable.has(key)) continue;
      const why = PROTECTED_FIELDS[key];
      issues.push({
        type: 'extra_forbidden',
        loc: [...loc, key],
        msg: why ? `${key} cannot be changed here: ${why}` : `Unknown field '${key}'; editable fields are: ${EDITABLE_FIELDS.join(', ')}`,
        input: value,
      });
    }
    const known = Object.fromEntries(Object.entries(obj).filter(([k]) => editable.has(k)));
    const errors = [...Value.Errors(ToolUpdateSchema, known)] as unknown as Parameters<typeof toValidationIssues>[0];
    const seen = new Set<string>();
    for (const issue of toValidationIssues(errors, 'body')) {
      // One message per field: a union reports every branch, the first says what is wrong.
      const key = issue.loc.join('.');
      if (seen.has(key)) continue;
      seen.add(key);
      issues.push({ ...issue, loc: [...loc, ...issue.loc.slice(1)], input: obj[String(issue.loc[1])] });
    }
    for (const [k, v] of Object.entries((known.social_links as Record<string, unknown> | undefined) ?? {})) {
      if (!/^[a-z0-9_-]{1,40}$/i.test(k)) issues.push({ type: 'value_error', loc: [...loc, 'social_links', k], msg: 'Network names are letters, digits, - or _', input: v });
    }
    if (issues.length) throw new AppError('validation', issues[0]!.msg, { issues });
    if (Object.keys(known).length === 0) throw invalid(loc, `Send at least one field to change: ${EDITABLE_FIELDS.join(', ')}`, raw, 'missing');
    return known as Partial<Record<EditableField, unknown>>;
  }

  function rowAsInput(row: ToolRow): CompanyInput {
    return {
      name: row.name, website_url: row.website_url, category: row.category, industry: row.industry, description: row.description,
      country: row.country, city: row.city, address: row.address, service_type: row.service_type, is_verified: row.is_verified,
      is_featured: row.is_featured, keywords: row.keywords, services: row.services, languages: row.languages, contact_email: row.contact_email,
      phone: row.phone, social_links: row.social_links, logo_url: row.logo_url, founded_year: row.founded_year, source: row.source,
    };
  }

  /** Values through the companies rules (plain text, canonical category, country code), and the per-field diff. */
  function resolve(row: ToolRow, patch: Partial<Record<EditableField, unknown>>, loc: (string | number)[] = ['body']) {
    const normalized = companies.normalizeInput({ ...rowAsInput(row), ...(patch as Partial<CompanyInput>) }, loc);
    const values: Record<string, unknown> = {};
    const diff: FieldChange[] = [];
    for (const field of Object.keys(patch) as EditableField[]) {
      const after = normalized[field];
      const before = row[field];
      if (same(before, after)) continue;
      values[field] = after;
      diff.push({ field, before, after });
    }
    if ('country' in values) values.country_code = normalized.country_code;
    return { values, diff };
  }

  function editableSnapshot(row: ToolRow): Record<string, unknown> {
    const snap: Record<string, unknown> = Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, row[f]]));
    snap.country_code = row.country_code;
    snap.owner_edited_fields = row.owner_edited_fields;
    return snap;
  }

  /**
   * Writes resolved values in the caller's transaction: embedding recomputed when the embedded
   * text changed (before the response, so search reflects the edit at once), fields marked as
   * set by hand, an edit-history row, and an audit row when an administrator acts.
   */
  async function write(tx: Queryable, row: ToolRow, values: Record<string, unknown>, diff: FieldChange[], actor: Actor, source: string, ownerEdited?: string[]): Promise<ToolRow> {
    if (diff.length === 0 && !ownerEdited) return row;
    // The city's coordinates follow the city and country (edits, AI edits and their undo alike).
    if ('city' in values || 'country_code' in values) Object.assign(values, cityCoordinates(String(values.city ?? row.city), String(values.country_code ?? row.country_code)));
    // So does the phone's E.164 form, parsed for the company's country.
    if ('phone' in values || 'country_code' in values) {
      const e164 = toE164(('phone' in values ? values.phone : row.phone) as string | null, String(values.country_code ?? row.country_code));
      if (e164 !== row.phone_e164) values.phone_e164 = e164;
    }
    const next = { ...row, ...values } as ToolRow;
    let embedding: { vector: string; model: string } | undefined;
    if (embeddingText(row) !== embeddingText(next)) {
      const [vector] = await embedProfiles(embeddings, [next]);
      embedding = { vector: toPgVector(vector!), model: embeddings.model };
    }
    const edited = ownerEdited ?? [...new Set([...row.owner_edited_fields, ...diff.map((d) => d.field)])];
    const r = createToolsRepo(tx);
    const updated = await r.update(row.id, values, { ...(embedding ? { embedding } : {}), ownerEditedFields: edited });
    const changes = Object.fromEntries(diff.map((d) => [d.field, { before: d.before, after: d.after }]));
    await r.insertEdit({ companyId: row.id, actorKind: actor.kind, actorId: actor.id, actorEmail: actor.email, source, changes });
    if (actor.kind === 'admin') {
      await audit(tx, { adminId: actor.id, adminEmail: actor.email, action: `companies.${source}`, targetType: 'company', targetId: row.id, before: Object.fromEntries(diff.map((d) => [d.field, d.before])), after: Object.fromEntries(diff.map((d) => [d.field, d.after])) });
    }
    return updated;
  }

  return { toTool, toSubscription, detail, getRow, validatePatch, resolve, editableSnapshot, write };
}

export type ToolsEditing = ReturnType<typeof createToolsEditing>;
