import { Value } from 'typebox/value';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, invalid, notFound, type ValidationIssue } from '../../platform/errors.js';
import { toValidationIssues } from '../../platform/error-handler.js';
import { sameValue } from '../../lib/stable-json.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';
import { createCompaniesRepo } from './companies.repo.js';
import { createCompanyHistoryRepo } from './company-history.repo.js';
import { normalizeCompany, recordAsInput } from './company.normalize.js';
import { publicPhotos, type CompanyFields, type CompanyRecord } from './company.record.js';
import type { CompanyInput } from './companies.schemas.js';
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

/**
 * What the management verbs share (owner edit, AI edit and its undo, logo, administrator
 * actions): the response shapes, the row lookup and the one validation gate. The write itself is
 * the companies module's (company.write.ts). The verb groups (tools.service.ts, tools.ai-edit.ts,
 * tools.admin.ts) are built on it.
 */
export interface ToolsEditingDeps {
  db: Db;
  baseUrl: string;
  /** The payments module's subscription records: the plan shown to managers, administrators' grants. */
  subscriptions: SubscriptionRecords;
}

/** A company's subscription record as management shows it (the payments module keeps it). */
export interface SubscriptionRow {
  company_id: string;
  plan: string;
  /** The provider's status (Stripe's set); administrators grant active, trialing, past_due or canceled. */
  status: string;
  period_start: Date | null;
  period_end: Date | null;
  source: string;
  note: string;
  updated_at: Date;
}

/** The port to the payments module's subscription records (payments stays their one writer). */
export interface SubscriptionRecords {
  of(companyId: string, q?: Queryable): Promise<SubscriptionRow | undefined>;
  ofMany(companyIds: string[]): Promise<SubscriptionRow[]>;
  /** An administrator's grant, in the caller's transaction. */
  grant(q: Queryable, g: Pick<SubscriptionRow, 'company_id' | 'plan' | 'period_start' | 'period_end' | 'note'> & { status: 'active' | 'trialing' | 'past_due' | 'canceled' }): Promise<SubscriptionRow>;
}

const editable = new Set<string>(EDITABLE_FIELDS);

export function createToolsEditing(deps: ToolsEditingDeps) {
  const { db, baseUrl, subscriptions } = deps;

  function toTool(row: CompanyRecord): ToolResponse {
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
    return { plan: s.plan, status: s.status as Subscription['status'], period_start: iso(s.period_start), period_end: iso(s.period_end), source: s.source, note: s.note, updated_at: iso(s.updated_at)! };
  }

  async function detail(row: CompanyRecord, manage: boolean, q: Queryable = db): Promise<ToolDetailResponse> {
    const [sub, snap] = manage ? await Promise.all([subscriptions.of(row.id, q), createCompanyHistoryRepo(q).latestSnapshot(row.id)]) : [undefined, undefined];
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
      opening_hours: row.opening_hours ?? null,
      timezone: row.timezone ?? null,
      price_range: row.price_range ?? null,
      service_prices: row.service_prices ?? [],
      service_areas: row.service_areas ?? [],
      photos: publicPhotos(baseUrl, row),
      accepts_proposals: row.is_verified,
      subscription: manage ? toSubscription(sub) : null,
      owner_edited_fields: manage ? row.owner_edited_fields : [],
      ai_edit_undo_available: manage ? !!snap && !snap.undone_at : false,
      editable_fields: [...EDITABLE_FIELDS],
      source: row.source,
      profile_url: `${baseUrl}/api/v1/agent/companies/${row.id}`,
    };
  }

  async function getRow(id: string, q: Queryable = db, forUpdate = false): Promise<CompanyRecord> {
    const row = await createCompaniesRepo(q).findById(id, { forUpdate });
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

  /** Values through the companies rules (plain text, canonical category, country code), and the per-field diff. */
  function resolve(row: CompanyRecord, patch: Partial<Record<EditableField, unknown>>, loc: (string | number)[] = ['body']) {
    const normalized = normalizeCompany({ ...recordAsInput(row), ...(patch as Partial<CompanyInput>) }, loc);
    const values: Partial<Record<keyof CompanyFields, unknown>> = {};
    const diff: FieldChange[] = [];
    for (const field of Object.keys(patch) as EditableField[]) {
      const after = normalized[field];
      const before = row[field];
      if (sameValue(before, after)) continue;
      values[field] = after;
      diff.push({ field, before, after });
    }
    if ('country' in values) values.country_code = normalized.country_code;
    return { values: values as Partial<CompanyFields>, diff };
  }

  function editableSnapshot(row: CompanyRecord): Record<string, unknown> {
    const snap: Record<string, unknown> = Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, row[f]]));
    snap.country_code = row.country_code;
    snap.owner_edited_fields = row.owner_edited_fields;
    return snap;
  }

  return { toTool, toSubscription, detail, getRow, validatePatch, resolve, editableSnapshot };
}

export type ToolsEditing = ReturnType<typeof createToolsEditing>;
