import { isoTimeOrNull as iso } from '../../lib/time.js';
import { AppError } from '../../platform/errors.js';
import type { CompanyInput } from '../companies/companies.schemas.js';
import type { CompanyRecord } from '../companies/company.record.js';
import type { AnalysedProfile } from './crawl.analyse.js';
import type { CrawlCtx } from './crawl.context.js';
import type { HeldFieldRow, NewHeldField } from './held-fields.repo.js';
import { PUBLISH_THRESHOLD, PUBLISHED_FIELDS, type PublishedField } from './crawl.types.js';

/**
 * Hold, don't publish (issue 40): a crawled name, phone, city, country or address whose confidence is below its
 * field's publish threshold is left out of what the crawl writes and kept as an open held field for the owner or
 * an administrator to use or dismiss.
 */

/** A held field as owners' screens read it. */
export interface HeldFieldView {
  id: string;
  field: PublishedField;
  value: string;
  confidence: number;
  source_url: string;
  method: string;
  found_at: string;
}

const valueOf = (profile: AnalysedProfile, f: PublishedField): string => (f === 'phone' ? (profile.phone ?? '') : profile[f]);

/** The crawl's input less the values below their thresholds, and those values with where they came from. */
export function holdBelowThreshold(input: CompanyInput, profile: AnalysedProfile, domain: string): { input: CompanyInput; held: NewHeldField[] } {
  const held: NewHeldField[] = [];
  for (const f of PUBLISHED_FIELDS) {
    const value = valueOf(profile, f).trim();
    const source = profile.provenance[f];
    if (!value || !source || source.confidence >= PUBLISH_THRESHOLD[f]) continue;
    held.push({ field: f, value, confidence: Math.round(source.confidence * 100) / 100, source_url: source.url, method: source.method });
  }
  // the address states the town: a held town holds the address with it
  const cityHeld = held.find((h) => h.field === 'city');
  const address = profile.address.trim();
  if (cityHeld && address && !held.some((h) => h.field === 'address')) held.push({ ...cityHeld, field: 'address', value: address });
  const out: CompanyInput = { ...input };
  for (const h of held) {
    if (h.field === 'name') out.name = domain; // a new company needs a name: its domain until someone confirms one
    else if (h.field === 'phone') out.phone = null;
    else out[h.field as 'city' | 'country' | 'address'] = '';
  }
  return { input: out, held };
}

/**
 * Stores what this crawl held for the company, replacing what an older crawl held: not a field its owner set by
 * hand (the owner's value stands), not a value the profile already states, not one dismissed before.
 */
export async function recordHeld(ctx: CrawlCtx, company: CompanyRecord, held: NewHeldField[], jobId: number | null): Promise<NewHeldField[]> {
  const repo = ctx.deps.held;
  const edited = new Set(company.owner_edited_fields);
  const dismissed = await repo.dismissed(company.id);
  const row = company as unknown as Record<string, unknown>;
  const kept = held.filter((h) => !edited.has(h.field) && String(row[h.field] ?? '') !== h.value && !dismissed.has(`${h.field}\u0000${h.value}`));
  await repo.replacePending(company.id, jobId, kept);
  return kept;
}

const toView = (r: HeldFieldRow): HeldFieldView => ({
  id: r.id, field: r.field as PublishedField, value: r.value, confidence: Number(r.confidence), source_url: r.source_url, method: r.method, found_at: iso(r.created_at)!,
});

/** The owners' side, as the companies module's port (WebsiteChecksPort's sibling) reads it. */
export function createHeldFields(ctx: CrawlCtx) {
  const repo = ctx.deps.held;
  return {
    async heldFields(companyId: string): Promise<HeldFieldView[]> {
      return (await repo.pending(companyId)).map(toView);
    },
    /** Every company's open held fields, oldest first: what administrators confirm or dismiss. */
    async adminHeld(q: { limit: number; offset: number }) {
      const { rows, total } = await repo.pendingQueue(q.limit, q.offset);
      return {
        held: rows.map((r) => ({ ...toView(r), company_id: r.company_id, company_name: r.company_name, website_url: r.website_url })),
        total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total,
      };
    },
    /** Closes an open held field (after the value was written, when used); 404 when it is not open. */
    async decideHeldField(companyId: string, id: string, status: 'accepted' | 'dismissed'): Promise<HeldFieldView> {
      const row = await repo.decide(companyId, id, status);
      if (!row) throw new AppError('not_found', 'This value is no longer waiting: it was used or dismissed already, or a newer crawl replaced it. Reload to see what is waiting now.');
      return toView(row);
    },
  };
}
