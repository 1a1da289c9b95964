/**
 * Deterministic topic assignment for audience insights. A question gets one topic:
 * - an intent topic (what the visitor wanted to know: pricing, hours, delivery, ...), or
 * - one of the 25 directory categories (what kind of business was wanted), or
 * - OTHER_TOPIC when no rule matches (the insights service may then try embeddings).
 * Rules are word-boundary regular expressions; the first topic with the most hits wins, so the
 * same text always gets the same topic.
 */
export const OTHER_TOPIC = 'Other';

export const INTENT_TOPICS: Record<string, string[]> = {
  'Pricing & costs': ['price', 'prices', 'pricing', 'cost', 'costs', 'how much', 'fee', 'fees', 'quote', 'rates?', 'cheap', 'cheapest', 'expensive', 'budget', 'discount', 'tariff', 'per hour', 'per month'],
  'Opening hours & availability': ['open', 'opening', 'hours', 'closed', 'weekends?', 'sunday', 'saturday', 'holidays?', 'availability', 'available', '24/7', 'today', 'tomorrow'],
  'Shipping & delivery': ['shipping', 'ship', 'ships', 'delivery', 'deliver', 'delivers', 'courier', 'tracking', 'dispatch'],
  'Returns, refunds & warranty': ['returns?', 'refunds?', 'warranty', 'guarantee', 'cancel', 'cancellation', 'exchange'],
  'Booking & appointments': ['book', 'booking', 'appointments?', 'reserve', 'reservations?', 'schedule', 'slot'],
  'Payment methods': ['pay', 'payment', 'payments', 'invoice', 'credit card', 'paypal', 'bank transfer', 'crypto', 'installments?'],
  'Contact & support': ['contact', 'phone', 'email', 'e-mail', 'call', 'support', 'reach', 'speak to', 'talk to', 'human'],
  'Location & service area': ['where', 'address', 'located', 'location', 'near me', 'nearby', 'service area', 'come to', 'visit'],
  'Languages': ['languages?', 'speak', 'english', 'german', 'french', 'spanish', 'translat\\w*'],
  'Jobs & careers': ['jobs?', 'careers?', 'hiring', 'vacanc\\w+', 'internships?', 'apply'],
  'Certifications & compliance': ['certified', 'certifications?', 'iso', 'gdpr', 'compliance', 'compliant', 'licensed', 'license', 'insured', 'insurance cover'],
  'Integrations & technical': ['api', 'integrations?', 'integrate', 'sdk', 'plugins?', 'webhooks?'],
};

export const CATEGORY_TOPICS: Record<string, string[]> = {
  Technology: ['software', 'app', 'apps', 'saas', 'it', 'developers?', 'development', 'web ?sites?', 'cloud', 'hosting', 'ai', 'machine learning', 'cyber ?security', 'tech'],
  'E-commerce': ['e-?commerce', 'online shop', 'online store', 'shopify', 'webshop', 'buy online'],
  Marketplace: ['marketplace', 'platform connecting', 'listings?', 'buy and sell'],
  'Logistics & Transportation': ['logistics', 'freight', 'transport\\w*', 'trucking', 'warehous\\w+', 'moving company', 'movers', 'cargo', 'fleet'],
  Finance: ['finance', 'financial', 'accounting', 'accountants?', 'bookkeeping', 'tax', 'taxes', 'loans?', 'bank', 'banking', 'invest\\w*', 'fintech'],
  Healthcare: ['health', 'healthcare', 'doctors?', 'clinic', 'dentists?', 'dental', 'medical', 'hospital', 'therap\\w+', 'physio\\w*', 'pharmacy'],
  Education: ['education', 'school', 'courses?', 'training', 'tutor\\w*', 'teach\\w*', 'university', 'learn\\w*', 'classes'],
  'Real Estate': ['real estate', 'property', 'properties', 'apartments?', 'rent', 'rental', 'landlord', 'realtor', 'house for sale'],
  Legal: ['legal', 'lawyers?', 'attorneys?', 'law firm', 'notary', 'contracts?', 'litigation', 'immigration'],
  'Marketing & Advertising': ['marketing', 'advertising', 'seo', 'ads', 'social media', 'branding', 'agency', 'pr', 'campaigns?'],
  'Construction & Home Services': ['construction', 'plumb\\w*', 'electrician', 'roof\\w*', 'renovat\\w+', 'builders?', 'carpent\\w+', 'painters?', 'leak\\w*', 'pipes?', 'heating', 'hvac', 'cleaning'],
  Manufacturing: ['manufactur\\w+', 'factory', 'production', 'cnc', 'machining', 'fabrication', 'oem'],
  'Food & Beverage': ['food', 'restaurants?', 'cafe', 'coffee', 'bakery', 'catering', 'bar', 'drinks?', 'wine', 'beer', 'vegan', 'pizza'],
  'Hospitality & Travel': ['hotels?', 'travel', 'tours?', 'hostel', 'accommodation', 'vacation', 'flights?', 'trips?'],
  Retail: ['retail', 'store', 'shop', 'boutique', 'clothing', 'furniture', 'groceries', 'supermarket'],
  'Professional Services': ['consult\\w*', 'advisory', 'outsourc\\w+', 'translation services', 'architects?', 'engineering services'],
  'Media & Entertainment': ['media', 'entertainment', 'video', 'film', 'music', 'podcast', 'events?', 'photograph\\w*', 'games?', 'publishing'],
  'Energy & Utilities': ['energy', 'solar', 'electricity', 'utilities', 'power', 'wind', 'gas', 'heat pumps?', 'ev charging'],
  Agriculture: ['agricultur\\w+', 'farm\\w*', 'crops?', 'livestock', 'organic produce', 'seeds'],
  Automotive: ['car', 'cars', 'auto', 'automotive', 'mechanic', 'garage', 'tyres?', 'tires?', 'vehicles?', 'dealership'],
  'Beauty & Wellness': ['beauty', 'salon', 'spa', 'hair', 'hairdresser', 'barber', 'nails?', 'massage', 'wellness', 'cosmetics', 'yoga', 'fitness', 'gym'],
  Insurance: ['insurance', 'insurer', 'coverage', 'policy', 'claims?'],
  Telecommunications: ['telecom\\w*', 'internet provider', 'broadband', 'mobile plan', 'fiber', 'voip', 'sim'],
  Nonprofit: ['nonprofit', 'non-profit', 'charity', 'ngo', 'donat\\w+', 'volunteer\\w*', 'foundation'],
  'Human Resources & Staffing': ['hr', 'human resources', 'staffing', 'recruit\\w*', 'payroll', 'headhunt\\w*', 'temp agency', 'talent'],
};

function compile(table: Record<string, string[]>): [string, RegExp][] {
  return Object.entries(table).map(([topic, words]) => [topic, new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${words.join('|')})(?=$|[^\\p{L}\\p{N}])`, 'giu')]);
}

const intentRules = compile(INTENT_TOPICS);
const categoryRules = compile(CATEGORY_TOPICS);

function best(text: string, rules: [string, RegExp][]): string | undefined {
  let winner: string | undefined;
  let most = 0;
  for (const [topic, re] of rules) {
    const hits = text.match(re)?.length ?? 0;
    if (hits > most) {
      most = hits;
      winner = topic;
    }
  }
  return winner;
}

/**
 * The topic of a question. `prefer: 'intent'` suits questions to one company (the widget: what did
 * the visitor want to know), `prefer: 'category'` suits directory searches (what kind of business).
 */
export function topicFor(question: string, prefer: 'intent' | 'category'): string {
  const text = ` ${question.toLowerCase()} `;
  const order = prefer === 'intent' ? [intentRules, categoryRules] : [categoryRules, intentRules];
  for (const rules of order) {
    const t = best(text, rules);
    if (t) return t;
  }
  return OTHER_TOPIC;
}

/** Every topic an insight can carry, for documentation and validation. */
export const ALL_TOPICS: string[] = [...Object.keys(INTENT_TOPICS), ...Object.keys(CATEGORY_TOPICS), OTHER_TOPIC];
