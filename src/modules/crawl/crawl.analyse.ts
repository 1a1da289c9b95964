import { Type, type Static } from 'typebox';
import { countryCode, countryName } from '../../lib/countries.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import type { LlmClient } from '../../platform/llm.js';
import { CATEGORIES, SERVICE_TYPES, type ServiceType } from '../companies/companies.schemas.js';
import { CONFIDENCE_FLOOR, evidenceText, identify, knownCity, llmChoices, type FieldSource, type Identity, type SiteLocation } from './crawl.identity.js';
import { industryOf, locateWith, pickEmail, provenanceOf, serviceTypeOf, servicesOf, siteDescription, siteName, type Material } from './crawl.material.js';

/**
 * Turns the extracted pages of one site into a company profile. With a language model: one
 * structured-output call over the extracted material, then every fact is checked against that
 * material (an email, phone or city the site does not state is dropped). Without one: a
 * deterministic analyser. Neither invents facts: a field the site does not state stays empty.
 */
export interface AnalysedProfile {
  name: string;
  description: string;
  category: string;
  industry: string;
  services: string[];
  keywords: string[];
  country: string;
  city: string;
  address: string;
  service_type: ServiceType;
  contact_email: string | null;
  phone: string | null;
  social_links: Record<string, string>;
  languages: string[];
  logo_url: string | null;
  founded_year: number | null;
  /** 'llm' or 'rules': which analyser produced it. */
  analyser: 'llm' | 'rules';
  /** Where name, phone, city, country and address came from (page, method, confidence). */
  provenance: Record<string, FieldSource>;
  /** Every address the site shows (branches), main one first. */
  locations: SiteLocation[];
}

/** Short descriptions the site text is compared with (embedding similarity). */
export const CATEGORY_DESCRIPTIONS: Record<string, string> = {
  Technology: 'Software development, IT services, SaaS, web and app development, cloud, cybersecurity, data and AI consulting',
  'E-commerce': 'Online shop selling products over the internet with cart, checkout and delivery; direct-to-consumer brand store',
  Marketplace: 'Platform connecting buyers and sellers or clients and freelancers; listings from many vendors',
  'Logistics & Transportation': 'Freight, shipping, courier, delivery, moving company, trucking, warehousing, removals and transport',
  Finance: 'Accounting, bookkeeping, tax advice, banking, payments, investment, wealth management, loans and fintech',
  Healthcare: 'Medical practice, clinic, doctor, dentist, physiotherapy, hospital, pharmacy, mental health and patient care',
  Education: 'School, courses, training, tutoring, language lessons, university, e-learning and academy',
  'Real Estate': 'Property sales and rentals, real estate agent, apartments, property management and estate agency',
  Legal: 'Law firm, lawyers, attorneys, solicitors, legal advice, notary, contracts and litigation',
  'Marketing & Advertising': 'Marketing agency, advertising, SEO, social media, branding, design, PR and content marketing',
  'Construction & Home Services': 'Builders, construction, renovation, plumbing, electricians, roofing, heating, painting, cleaning and home repair',
  Manufacturing: 'Factory producing goods, industrial production, machining, fabrication, components and engineering',
  'Food & Beverage': 'Restaurant, cafe, bakery, catering, food products, brewery, winery, coffee and drinks',
  'Hospitality & Travel': 'Hotel, guesthouse, hostel, travel agency, tours, holidays, vacation rentals and tourism',
  Retail: 'Physical shop or store selling goods to consumers, boutique, showroom and retail chain',
  'Professional Services': 'Business consulting, management advisory, translation, architecture, engineering services and outsourcing',
  'Media & Entertainment': 'Film, video production, music, publishing, news, events, photography, games and entertainment',
  'Energy & Utilities': 'Solar panels, renewable energy, electricity, gas, water utilities, heat pumps and energy efficiency',
  Agriculture: 'Farming, crops, livestock, agricultural machinery, organic produce, horticulture and agritech',
  Automotive: 'Car dealership, auto repair garage, mechanic, car parts, vehicle service, tyres and car rental',
  'Beauty & Wellness': 'Hair salon, beauty salon, spa, massage, cosmetics, nail studio, fitness, yoga and wellness',
  Insurance: 'Insurance broker, insurance policies, health, car, home and life insurance coverage and claims',
  Telecommunications: 'Internet provider, mobile network, phone service, broadband, fibre and telecom infrastructure',
  Nonprofit: 'Charity, foundation, non-profit organisation, volunteering, donations and community causes',
  'Human Resources & Staffing': 'Recruitment agency, staffing, hiring, headhunting, payroll, HR consulting and job placement',
};

/**
 * Word stems in German, French, Spanish and Italian that name a trade: the embedding model is
 * English-only, so a site in another language gets a lexical nudge towards its category.
 */
const TRADE_STEMS: Record<string, string[]> = {
  Finance: ['steuer', 'buchhalt', 'lohnabrechn', 'comptab', 'fiscal', 'contabil', 'commercialista', 'banque', 'finanz'],
  Legal: ['rechtsanwalt', 'kanzlei', 'avocat', 'abogado', 'avvocat', 'notar', 'juridique'],
  Healthcare: ['zahnarzt', 'arztpraxis', 'klinik', 'médecin', 'dentist', 'clínica', 'medico', 'physiothera'],
  'Construction & Home Services': ['sanitär', 'handwerk', 'plombier', 'fontaner', 'idraulic', 'elektriker', 'bauunternehm', 'dachdecker', 'maler'],
  'Food & Beverage': ['bäckerei', 'boulanger', 'panader', 'ristorante', 'trattoria', 'restaurante', 'cucina', 'pâtisserie', 'konditorei'],
  'Beauty & Wellness': ['friseur', 'kosmetik', 'coiffure', 'peluquer', 'masaje', 'massage', 'estética', 'parrucchier'],
  'Hospitality & Travel': ['hôtel', 'ferienwohnung', 'pension', 'albergo', 'reisebüro', 'hostal'],
  'Real Estate': ['immobilien', 'immobilier', 'inmobiliar', 'immobiliar'],
  Automotive: ['autowerkstatt', 'kfz', 'garage automobile', 'taller mecánico', 'autohaus', 'officina'],
  'Human Resources & Staffing': ['personalvermittl', 'recrutement', 'reclutamiento', 'zeitarbeit'],
  'Logistics & Transportation': ['spedition', 'umzug', 'transporte', 'déménagement', 'logistik'],
  Education: ['schule', 'nachhilfe', 'école', 'escuela', 'formation', 'sprachkurs'],
  Insurance: ['versicherung', 'assurance', 'seguros', 'assicurazion'],
};

/** schema.org types that settle the category by themselves. */
const TYPE_CATEGORY: [RegExp, string][] = [
  [/^(Plumber|Electrician|HVACBusiness|RoofingContractor|GeneralContractor|HomeAndConstructionBusiness|HousePainter|Locksmith|MovingCompany)$/, 'Construction & Home Services'],
  [/^(Restaurant|Bakery|CafeOrCoffeeShop|FoodEstablishment|Brewery|Winery|BarOrPub|FastFoodRestaurant|IceCreamShop)$/, 'Food & Beverage'],
  [/^(Dentist|Physician|MedicalClinic|MedicalBusiness|MedicalOrganization|Hospital|Pharmacy|Optician|VeterinaryCare)$/, 'Healthcare'],
  [/^(LegalService|Attorney|Notary)$/, 'Legal'],
  [/^(Hotel|LodgingBusiness|BedAndBreakfast|Hostel|TravelAgency|Resort)$/, 'Hospitality & Travel'],
  [/^(AutoRepair|AutoDealer|AutoPartsStore|AutoRental|AutoBodyShop|AutomotiveBusiness)$/, 'Automotive'],
  [/^(BeautySalon|HairSalon|DaySpa|HealthClub|NailSalon|TattooParlor)$/, 'Beauty & Wellness'],
  [/^(AccountingService|FinancialService|BankOrCreditUnion)$/, 'Finance'],
  [/^(InsuranceAgency)$/, 'Insurance'],
  [/^(RealEstateAgent)$/, 'Real Estate'],
  [/^(EducationalOrganization|School|CollegeOrUniversity|Preschool)$/, 'Education'],
  [/^(EmploymentAgency)$/, 'Human Resources & Staffing'],
  [/^(NGO)$/, 'Nonprofit'],
  [/^(OnlineStore)$/, 'E-commerce'],
];

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

export interface Analyser {
  analyse(m: Material): Promise<AnalysedProfile>;
  /** The text the category is chosen from (what the site says it does). */
  categoryText(m: Material, name: string, description: string, services: string[]): string;
}

export function createAnalyser(deps: { embeddings: EmbeddingProvider; llm?: LlmClient | undefined }): Analyser {
  let categoryVectors: Promise<number[][]> | undefined;
  const categoryList = [...CATEGORIES];
  const categoryTerms = categoryList.map((c) => [...new Set(`${c} ${CATEGORY_DESCRIPTIONS[c] ?? ''}`.toLowerCase().match(/[a-z]{4,}/g) ?? [])].filter((w) => !['with', 'from', 'services', 'service', 'company', 'products'].includes(w)));

  function categoryText(m: Material, name: string, description: string, services: string[]): string {
    const headings = m.pages.flatMap((p) => p.headings).slice(0, 20);
    const keywords = m.pages.flatMap((p) => p.metaKeywords).slice(0, 20);
    return [name, description, services.join(', '), keywords.join(', '), headings.join('. '), m.home?.paragraphs.slice(0, 2).join(' ')].filter(Boolean).join('. ').slice(0, 1500);
  }

  async function categoryByEmbedding(text: string): Promise<string> {
    categoryVectors ??= deps.embeddings.embed(categoryList.map((c) => `${c}: ${CATEGORY_DESCRIPTIONS[c] ?? c}`));
    const [cats, [v]] = await Promise.all([categoryVectors, deps.embeddings.embed([text])]);
    // A small lexical nudge: the model is English-only, and a site in another language often
    // still names its trade in English words that the category descriptions use.
    const lower = text.toLowerCase();
    const words = new Set(lower.match(/[a-z]{4,}/g) ?? []);
    let best = 0;
    let bestScore = -Infinity;
    cats.forEach((c, i) => {
      const hits = categoryTerms[i]!.filter((t) => words.has(t)).length;
      const stems = (TRADE_STEMS[categoryList[i]!] ?? []).filter((t) => lower.includes(t)).length;
      const s = dot(c, v!) + 0.03 * Math.min(hits, 4) + 0.04 * Math.min(stems, 3);
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    });
    return categoryList[best]!;
  }

  async function rules(m: Material, id: Identity): Promise<AnalysedProfile> {
    const name = (id.name && id.name.confidence >= CONFIDENCE_FLOOR.name ? id.name.value : siteName(m)).slice(0, 200);
    const description = siteDescription(m);
    const services = servicesOf(m);
    const loc = locateWith(m, id);
    const typeHit = (m.org?.types ?? []).map((t) => TYPE_CATEGORY.find(([re]) => re.test(t))?.[1]).find(Boolean);
    const category = typeHit ?? (await categoryByEmbedding(categoryText(m, name, description, services)));
    const keywords = [...new Set([...(m.org?.keywords ?? []), ...m.pages.flatMap((p) => p.metaKeywords)])].slice(0, 20);
    return {
      name,
      description,
      category,
      industry: industryOf(m),
      services,
      keywords,
      country: loc.country,
      city: loc.city,
      address: loc.address,
      service_type: serviceTypeOf(m, Boolean(loc.address || loc.city)),
      contact_email: pickEmail(m),
      phone: id.phone && id.phone.confidence >= CONFIDENCE_FLOOR.phone ? id.phone.display : null,
      social_links: m.social,
      languages: m.languages,
      logo_url: absoluteOrNull(m.org?.logo || m.home?.logo || m.home?.og.image || '', m.home?.url),
      founded_year: m.org?.foundingYear ?? null,
      analyser: 'rules',
      provenance: provenanceOf(m, id, name, loc),
      locations: id.locations,
    };
  }

  async function withLlm(llm: LlmClient, m: Material, base: AnalysedProfile, id: Identity): Promise<AnalysedProfile> {
    const material = [
      `Website: ${m.domain}`,
      evidenceText(id),
      m.org ? `Structured data: ${JSON.stringify({ ...m.org, description: m.org.description.slice(0, 500) })}` : '',
      `Emails found: ${m.emails.join(', ') || 'none'}`,
      `Phones found: ${m.phones.join(', ') || 'none'}`,
      `Addresses found: ${m.addresses.join(' | ') || 'none'}`,
      ...m.pages.slice(0, 8).map((p) => `--- Page ${p.url}\nTitle: ${p.title}\nDescription: ${p.metaDescription}\n${p.text.slice(0, 1500)}`),
    ].filter(Boolean).join('\n').slice(0, 12_000);
    const out = await llm.completeJson({
      schemaName: 'company_profile',
      schema: LlmProfileSchema,
      messages: [
        {
          role: 'system',
          content: `You extract a company profile from the text of its website. Use only facts the material states; use an empty string, empty list or null for anything it does not state. Never guess an email, phone, city or country. For name, phone, city and address choose among the candidates listed under "Candidates" (the organisation's own name, its main number, its main address), or leave the field empty when none fits. category must be one of: ${CATEGORIES.join('; ')}. service_type: local (serves customers at or near a physical place), nationwide (serves one whole country), remote (online, anywhere), hybrid (both on-site and remote). description: 1 to 3 plain sentences in English, no marketing superlatives the site does not use.`,
        },
        { role: 'user', content: material },
      ],
    });
    // Fact checks: anything not present in the material is replaced by the rules' value.
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

  return {
    categoryText,
    async analyse(m) {
      const id = identify(m);
      const base = await rules(m, id);
      if (!deps.llm) return base;
      try {
        return await withLlm(deps.llm, m, base, id);
      } catch {
        // The model being down or off-schema must not fail the crawl: the rules' profile stands.
        return base;
      }
    },
  };
}

export const LlmProfileSchema = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    category: Type.String(),
    industry: Type.String(),
    services: Type.Array(Type.String()),
    keywords: Type.Array(Type.String()),
    country: Type.String(),
    city: Type.String(),
    address: Type.String(),
    service_type: Type.Union(SERVICE_TYPES.map((s) => Type.Literal(s))),
    contact_email: Type.Union([Type.String(), Type.Null()]),
    phone: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type LlmProfile = Static<typeof LlmProfileSchema>;

function absoluteOrNull(u: string, base: string | undefined): string | null {
  if (!u) return null;
  try {
    const abs = new URL(u, base).href;
    return /^https?:\/\//i.test(abs) ? abs : null;
  } catch {
    return null;
  }
}
