import { AppError } from '../../platform/errors.js';
import type { CompanyInput } from './companies.schemas.js';
import { normalizeCompany } from './company.normalize.js';

/**
 * JSON Lines import in the format of the evaluation corpus (key, name, website_url, category,
 * industry, description, location{country,city,address}, service_type, is_verified, keywords)
 * plus optional services, languages, contact_email, phone, social_links, logo_url, founded_year.
 * Every line is validated; bad lines are reported with their numbers and the rest imported.
 */
export interface ParsedLine {
  line: number;
  key: string | undefined;
  input: CompanyInput;
}

export interface LineError {
  line: number;
  message: string;
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

export function parseCompanyLine(obj: unknown): CompanyInput {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error('line is not a JSON object');
  const o = obj as Record<string, unknown>;
  for (const f of ['name', 'website_url', 'category'] as const) {
    if (typeof o[f] !== 'string' || !(o[f] as string).trim()) throw new Error(`${f} is required and must be a string`);
  }
  const loc = (o.location ?? {}) as Record<string, unknown>;
  if (typeof loc !== 'object' || Array.isArray(loc)) throw new Error('location must be an object');
  const optStr = (v: unknown, name: string) => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new Error(`${name} must be a string`);
    return v;
  };
  const optList = (v: unknown, name: string) => {
    if (v === undefined || v === null) return undefined;
    if (!isStringArray(v)) throw new Error(`${name} must be an array of strings`);
    return v;
  };
  if (o.is_verified !== undefined && typeof o.is_verified !== 'boolean') throw new Error('is_verified must be true or false');
  if (o.founded_year !== undefined && o.founded_year !== null && !Number.isInteger(o.founded_year)) throw new Error('founded_year must be an integer');
  const social = o.social_links;
  if (social !== undefined && (typeof social !== 'object' || social === null || Array.isArray(social))) throw new Error('social_links must be an object');
  return {
    name: o.name as string,
    website_url: o.website_url as string,
    category: o.category as string,
    industry: optStr(o.industry, 'industry'),
    description: optStr(o.description, 'description'),
    country: optStr(loc.country, 'location.country'),
    city: optStr(loc.city, 'location.city'),
    address: optStr(loc.address, 'location.address'),
    service_type: optStr(o.service_type, 'service_type') as CompanyInput['service_type'],
    is_verified: o.is_verified as boolean | undefined,
    keywords: optList(o.keywords, 'keywords'),
    services: optList(o.services, 'services'),
    languages: optList(o.languages, 'languages'),
    contact_email: optStr(o.contact_email, 'contact_email') ?? null,
    phone: optStr(o.phone, 'phone') ?? null,
    social_links: social as Record<string, string> | undefined,
    logo_url: optStr(o.logo_url, 'logo_url') ?? null,
    founded_year: (o.founded_year as number | undefined) ?? null,
  };
}

/**
 * Parses and validates a JSONL text: structural checks here, field rules through the same
 * normaliser the service writes with (so an import can never store what an edit would refuse).
 */
export function parseCompaniesJsonl(text: string): { lines: ParsedLine[]; errors: LineError[] } {
  const lines: ParsedLine[] = [];
  const errors: LineError[] = [];
  const seenDomains = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    try {
      const obj = JSON.parse(raw) as Record<string, unknown>;
      const input = parseCompanyLine(obj);
      const normalized = normalizeCompany(input, [`line ${line}`]);
      const dup = seenDomains.get(normalized.domain);
      if (dup !== undefined) throw new Error(`duplicate website ${normalized.domain} (first on line ${dup}); the later line wins`);
      seenDomains.set(normalized.domain, line);
      lines.push({ line, key: typeof obj.key === 'string' ? obj.key : undefined, input });
    } catch (err) {
      const message =
        err instanceof AppError && err.issues?.[0]
          ? `${err.issues[0].loc.slice(1).join('.')}: ${err.issues[0].msg}`
          : err instanceof SyntaxError
            ? `invalid JSON (${err.message})`
            : err instanceof Error
              ? err.message
              : String(err);
      errors.push({ line, message });
    }
  });
  return { lines, errors };
}
