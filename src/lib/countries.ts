/**
 * Country names ⇄ ISO 3166-1 alpha-2 codes, built from the runtime's ICU data (Intl.DisplayNames)
 * plus common aliases and alpha-3 codes, so filters accept "Germany", "DE", "DEU" or "deutschland".
 */
const names = new Intl.DisplayNames(['en'], { type: 'region' });
const byName = new Map<string, string>();
const nameByCode = new Map<string, string>();
const aliasCodes = new Map<string, string>();

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
for (const a of letters) {
  for (const b of letters) {
    const code = a + b;
    let name: string | undefined;
    try {
      name = names.of(code);
    } catch {
      name = undefined;
    }
    if (!name || name === code || /unknown/i.test(name)) continue;
    let region = code;
    try {
      region = new Intl.Locale(`und-${code}`).region ?? code;
    } catch {
      // keep code
    }
    // Deprecated codes (DD, UK, ...) canonicalise to the current one: aliases only.
    if (region !== code) {
      aliasCodes.set(code, region);
      continue;
    }
    const key = name.toLowerCase();
    const canonical = byName.get(key);
    // Reserved duplicates (UK → United Kingdom) alias the first, official code (GB).
    if (canonical) aliasCodes.set(code, canonical);
    else {
      nameByCode.set(code, name);
      byName.set(key, code);
    }
  }
}

const aliases: Record<string, string> = {
  usa: 'US', 'united states of america': 'US', america: 'US', 'u.s.': 'US', 'u.s.a.': 'US',
  uk: 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB',
  deutschland: 'DE', españa: 'ES', espana: 'ES', france: 'FR', italia: 'IT', österreich: 'AT', oesterreich: 'AT',
  schweiz: 'CH', suisse: 'CH', nederland: 'NL', holland: 'NL', 'the netherlands': 'NL', polska: 'PL', sverige: 'SE',
  norge: 'NO', danmark: 'DK', suomi: 'FI', brasil: 'BR', méxico: 'MX', 'czech republic': 'CZ', czechia: 'CZ',
  uae: 'AE', 'u.a.e.': 'AE', 'south korea': 'KR', korea: 'KR', 'republic of korea': 'KR', russia: 'RU',
  'hong kong': 'HK', türkiye: 'TR', turkey: 'TR', 'ivory coast': 'CI', "côte d'ivoire": 'CI', vietnam: 'VN',
};
for (const [k, v] of Object.entries(aliases)) byName.set(k, v);

const alpha3: Record<string, string> = {
  USA: 'US', GBR: 'GB', DEU: 'DE', FRA: 'FR', ESP: 'ES', ITA: 'IT', NLD: 'NL', BEL: 'BE', AUT: 'AT', CHE: 'CH',
  POL: 'PL', SWE: 'SE', NOR: 'NO', DNK: 'DK', FIN: 'FI', IRL: 'IE', PRT: 'PT', CZE: 'CZ', CAN: 'CA', MEX: 'MX',
  BRA: 'BR', ARG: 'AR', CHL: 'CL', COL: 'CO', PER: 'PE', AUS: 'AU', NZL: 'NZ', JPN: 'JP', CHN: 'CN', IND: 'IN',
  SGP: 'SG', KOR: 'KR', ZAF: 'ZA', NGA: 'NG', KEN: 'KE', EGY: 'EG', ARE: 'AE', SAU: 'SA', ISR: 'IL', TUR: 'TR',
  GRC: 'GR', HUN: 'HU', ROU: 'RO', UKR: 'UA', EST: 'EE', LVA: 'LV', LTU: 'LT', HRV: 'HR', SVN: 'SI', SVK: 'SK',
  MYS: 'MY', THA: 'TH', IDN: 'ID', PHL: 'PH', VNM: 'VN', HKG: 'HK', TWN: 'TW', MAR: 'MA', GHA: 'GH', ISL: 'IS',
  LUX: 'LU', BGR: 'BG', SRB: 'RS', PAK: 'PK', BGD: 'BD', LKA: 'LK', QAT: 'QA', URY: 'UY',
};

/** ISO alpha-2 code for a country name, alias, alpha-2 or alpha-3 code; undefined if unknown. */
export function countryCode(input: string | null | undefined): string | undefined {
  if (!input) return undefined;
  const s = input.trim();
  if (!s) return undefined;
  const upper = s.toUpperCase();
  if (upper.length === 2 && nameByCode.has(upper)) return upper;
  if (upper.length === 2 && aliasCodes.has(upper)) return aliasCodes.get(upper);
  if (upper.length === 3 && alpha3[upper]) return alpha3[upper];
  return byName.get(s.toLowerCase().replace(/\s+/g, ' '));
}

/** The English name of a country code, or undefined. */
export function countryName(code: string): string | undefined {
  return nameByCode.get(code.toUpperCase());
}

/** Every country's English name (for "did you mean" when a value is unknown). */
export function countryNames(): string[] {
  return [...nameByCode.values()];
}

/**
 * The country a page's registration statement names ("a company registered in England & Wales", "Reg. Charity No:
 * 279228 (England and Wales)", "KvK 12345678", "ABN 12 345 678 901"), when it names one: footers of firms and charities
 * with neither a postal address nor a country domain often say only this. `text` in any case.
 */
export function registeredCountry(text: string): string | undefined {
  const t = text.toLowerCase();
  if (/\bregistered (?:office )?in (?:england|scotland|northern ireland|wales)\b|\((?:in )?england (?:&|&amp;|and) wales\)|\bcompanies house\b/.test(t)) return 'GB';
  if (/\bregistered in (?:the republic of )?ireland\b/.test(t)) return 'IE';
  if (/\bkvk(?:[\s-]*(?:nr|nummer|number|no)\.?)?\s*:?\s*\d{8}\b/.test(t)) return 'NL';
  if (/\ba\.?b\.?n\.?\s*:?\s*\d{2}\s?\d{3}\s?\d{3}\s?\d{3}\b/.test(t)) return 'AU';
  return undefined;
}

/**
 * The currency of a country that no other country of this list shares (the euro and the US dollar abroad are left out
 * where their use says nothing about which country): a shop pricing in it on a page whose language names that country
 * confirms the country (issue 40).
 */
const OWN_CURRENCY: Record<string, string> = {
  US: 'USD', GB: 'GBP', CA: 'CAD', AU: 'AUD', NZ: 'NZD', CH: 'CHF', SE: 'SEK', NO: 'NOK', DK: 'DKK', PL: 'PLN', CZ: 'CZK',
  HU: 'HUF', JP: 'JPY', IN: 'INR', ZA: 'ZAR', SG: 'SGD', HK: 'HKD', MX: 'MXN', BR: 'BRL',
};

export function ownCurrency(country: string): string | undefined {
  return OWN_CURRENCY[country.toUpperCase()];
}
