import { countryCode } from '../../lib/countries.js';
import { resolveCurrency, type RawServicePrice } from '../../lib/extract-price.js';
import { normalizeServicePrices, type ServicePrice } from '../../lib/price-range.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import type { LlmClient } from '../../platform/llm.js';
import { CATEGORIES } from '../companies/companies.schemas.js';
import { analyseWithModel } from './crawl.analyse-llm.js';
import { identify } from './crawl.identity.js';
import { industryOf, locateWith, pickEmail, provenanceOf, serviceTypeOf, servicesOf, siteDescription, siteName } from './crawl.material.js';
import { CONFIDENCE_FLOOR, type AnalysedProfile, type Identity, type Material } from './crawl.types.js';

export type { AnalysedProfile } from './crawl.types.js';

/**
 * Turns the extracted pages of one site into a company profile. With a language model: one
 * structured-output call over the extracted material, then every fact is checked against that
 * material (an email, phone or city the site does not state is dropped). Without one: a
 * deterministic analyser. Neither invents facts: a field the site does not state stays empty.
 */
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

/** The text the category is chosen from (what the site says it does). */
function categoryText(m: Material, name: string, description: string, services: string[]): string {
  const headings = m.pages.flatMap((p) => p.headings).slice(0, 20);
  const keywords = m.pages.flatMap((p) => p.metaKeywords).slice(0, 20);
  return [name, description, services.join(', '), keywords.join(', '), headings.join('. '), m.home?.paragraphs.slice(0, 2).join(' ')].filter(Boolean).join('. ').slice(0, 1500);
}

/** The category whose description the text is closest to (embeddings), nudged by trade words; the category vectors are embedded once. */
function createCategoryMatcher(embeddings: EmbeddingProvider): (text: string) => Promise<string> {
  let categoryVectors: Promise<number[][]> | undefined;
  const categoryList = [...CATEGORIES];
  const categoryTerms = categoryList.map((c) => [...new Set(`${c} ${CATEGORY_DESCRIPTIONS[c] ?? ''}`.toLowerCase().match(/[a-z]{4,}/g) ?? [])].filter((w) => !['with', 'from', 'services', 'service', 'company', 'products'].includes(w)));
  return async (text) => {
    categoryVectors ??= embeddings.embed(categoryList.map((c) => `${c}: ${CATEGORY_DESCRIPTIONS[c] ?? c}`));
    const [cats, [v]] = await Promise.all([categoryVectors, embeddings.embed([text])]);
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
  };
}

/** The deterministic profile: the identity's choices above their floors, the material's readings otherwise. */
async function rulesProfile(m: Material, id: Identity, categoryOf: (text: string) => Promise<string>): Promise<AnalysedProfile> {
  const name = (id.name && id.name.confidence >= CONFIDENCE_FLOOR.name ? id.name.value : siteName(m)).slice(0, 200);
  const description = siteDescription(m);
  const services = servicesOf(m);
  const loc = locateWith(m, id);
  const typeHit = (m.org?.types ?? []).map((t) => TYPE_CATEGORY.find(([re]) => re.test(t))?.[1]).find(Boolean);
  const category = typeHit ?? (await categoryOf(categoryText(m, name, description, services)));
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
    opening_hours: m.hours ?? null,
    price_range: resolveCurrency(m.prices, countryCode(loc.country) ?? '') ?? null,
    service_prices: servicePricesOf(m.servicePrices, countryCode(loc.country) ?? ''),
    analyser: 'rules',
    provenance: provenanceOf(m, id, name, loc),
    locations: id.locations,
  };
}

/**
 * Each priced service with its currency resolved by the country; one whose currency stays unknown ("kr" outside
 * Scandinavia), or that the write rules would refuse, is left out: the crawl saves what it can, never a 422.
 */
function servicePricesOf(raw: RawServicePrice[], country: string): ServicePrice[] {
  const out: ServicePrice[] = [];
  for (const { service, price } of raw) {
    const resolved = resolveCurrency(price, country);
    const checked = resolved && normalizeServicePrices([...out, { service, ...resolved }]);
    if (checked && 'prices' in checked) out.splice(0, out.length, ...checked.prices);
  }
  return out;
}

export function createAnalyser(deps: { embeddings: EmbeddingProvider; llm?: LlmClient | undefined }): Analyser {
  const categoryOf = createCategoryMatcher(deps.embeddings);
  return {
    categoryText,
    async analyse(m) {
      const id = identify(m);
      const base = await rulesProfile(m, id, categoryOf);
      if (!deps.llm) return base;
      try {
        return await analyseWithModel(deps.llm, m, base, id);
      } catch {
        // The model being down or off-schema must not fail the crawl: the rules' profile stands.
        return base;
      }
    },
  };
}

function absoluteOrNull(u: string, base: string | undefined): string | null {
  if (!u) return null;
  try {
    const abs = new URL(u, base).href;
    return /^https?:\/\//i.test(abs) ? abs : null;
  } catch {
    return null;
  }
}
