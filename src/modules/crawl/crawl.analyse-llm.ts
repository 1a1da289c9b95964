import { countryCode, countryName } from '../../lib/countries.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import type { LlmClient } from '../../platform/llm.js';
import { CATEGORIES, SERVICE_TYPES } from '../companies/companies.schemas.js';
import { evidenceText, llmChoices } from './crawl.identity.js';
import { knownCity, LlmProfileSchema, type AnalysedProfile, type Identity, type LlmProfile, type Material } from './crawl.types.js';

/**
 * The language-model analyser: one structured-output call over the extracted material, then
 * every fact checked against that material (an email, phone or city the site does not state
 * is replaced by the rules' value).
 */
const SYSTEM_PROMPT = `You extract a company profile from the text of its website. Use only facts the material states; use an empty string, empty list or null for anything it does not state. Never guess an email, phone, city or country. For name, phone, city and address choose among the candidates listed under "Candidates" (the organisation's own name, its main number, its main address), or leave the field empty when none fits. category must be one of: ${CATEGORIES.join('; ')}. service_type: local (serves customers at or near a physical place), nationwide (serves one whole country), remote (online, anywhere), hybrid (both on-site and remote). description: 1 to 3 plain sentences in English, no marketing superlatives the site does not use.`;

/** What the model reads: the scored candidates, the structured data, the contacts found and the first pages. */
function modelMaterial(m: Material, id: Identity): string {
  return [
    `Website: ${m.domain}`,
    evidenceText(id),
    m.org ? `Structured data: ${JSON.stringify({ ...m.org, description: m.org.description.slice(0, 500) })}` : '',
    `Emails found: ${m.emails.join(', ') || 'none'}`,
    `Phones found: ${m.phones.join(', ') || 'none'}`,
    `Addresses found: ${m.addresses.join(' | ') || 'none'}`,
    ...m.pages.slice(0, 8).map((p) => `--- Page ${p.url}\nTitle: ${p.title}\nDescription: ${p.metaDescription}\n${p.text.slice(0, 1500)}`),
  ].filter(Boolean).join('\n').slice(0, 12_000);
}

/** Fact checks: anything not present in the material is replaced by the rules' value. */
function checkedProfile(out: LlmProfile, m: Material, base: AnalysedProfile, id: Identity): AnalysedProfile {
  const inCorpus = (s: string) => s.length > 0 && m.corpus.includes(s.toLowerCase());
  const digits = (s: string) => s.replace(/\D/g, '');
  const phoneOk = (p: string) => m.phones.some((q) => digits(q).endsWith(digits(p).slice(-7))) && digits(p).length >= 7;
  const chosen = llmChoices(out, id, base);
  const category = CATEGORIES.includes(out.category) ? out.category : base.category;
  const email = out.contact_email && m.emails.includes(out.contact_email.toLowerCase()) ? out.contact_email.toLowerCase() : base.contact_email;
  const phone = chosen.phone ?? (out.phone && phoneOk(out.phone) && !id.phoneCandidates.length ? toPlainLine(out.phone) : base.phone);
  const city = chosen.city ?? (out.city && inCorpus(out.city) && knownCity(out.city) ? toPlainLine(out.city) : base.city);
  const countryCodeOut = countryCode(out.country);
  const countryConfirmed = () => (base.country ? countryCode(base.country) === countryCodeOut : inCorpus(out.country));
  const country = out.country && countryCodeOut && countryConfirmed() ? (countryName(countryCodeOut) ?? out.country) : base.country;
  const services = out.services.map((s) => toPlainLine(s)).filter(Boolean).slice(0, 20);
  const keywords = out.keywords.map((s) => toPlainLine(s)).filter(Boolean).slice(0, 20);
  const address = out.address && inCorpus(out.address.split(',')[0]!.trim()) ? toPlainLine(out.address) : base.address;
  return {
    ...base,
    name: chosen.name ?? base.name,
    description: toPlainText(out.description) || base.description,
    category,
    industry: toPlainLine(out.industry) || base.industry,
    services: services.length ? services : base.services,
    keywords: keywords.length ? keywords : base.keywords,
    country,
    city,
    address,
    service_type: (SERVICE_TYPES as readonly string[]).includes(out.service_type) ? out.service_type : base.service_type,
    contact_email: email,
    phone,
    analyser: 'llm',
    provenance: { ...base.provenance, ...chosen.provenance },
  };
}

export async function analyseWithModel(llm: LlmClient, m: Material, base: AnalysedProfile, id: Identity): Promise<AnalysedProfile> {
  const out = await llm.completeJson({
    schemaName: 'company_profile',
    schema: LlmProfileSchema,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: modelMaterial(m, id) },
    ],
  });
  return checkedProfile(out, m, base, id);
}
