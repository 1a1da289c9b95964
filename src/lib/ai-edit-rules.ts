/**
 * The deterministic AI-edit interpreter: what POST /api/tools/{id}/ai-edit uses when no language
 * model is configured. It turns a plain-language instruction into a patch of editable profile
 * fields. It never validates values (the caller runs the patch through the same rules as PUT)
 * and it never guesses: a clause it cannot read is reported, and the caller answers 422 with
 * the supported forms.
 *
 * An instruction is split into clauses at ";", new lines, sentence ends, and at ", " / " and "
 * when a new command word follows. Supported clause forms (case-insensitive):
 *
 *   set|change|update|make <field> to <value>      "set email to info@acme.com"
 *   replace <field> with <value>                   "replace the phone number with +49 30 123"
 *   our <field> is (now) <value>                   "our city is now Munich"
 *   drop|remove|delete|clear <field>               "drop the old phone number"
 *   add <item> (as|to) <list>, add <list> <items>  "add service Roof repair", "add SEO as a keyword"
 *   remove|drop <list> <items>, remove <items> from <list>
 *                                                  "remove keyword cheap", "drop Welding from services"
 *   we (now) (also) serve|cover|operate in <places> "we now also serve Austria"  (places are keywords)
 *   we no longer serve <places>                    removes those keywords
 *   say|mention (that) we ...                      "say we are ISO 27001 certified" (appended to the description)
 *
 * Fields: name, description, industry, category, service type, country, city, address, email,
 * phone, founded year, keywords, services, languages. Lists take "a, b and c". Languages take
 * English names or ISO 639-1 codes.
 */

export type ListField = 'keywords' | 'services' | 'languages';

export interface RulesProfile {
  description: string;
  keywords: string[];
  services: string[];
  languages: string[];
}

export type RulesResult =
  | { ok: true; changes: Record<string, unknown>; clauses: string[] }
  | { ok: false; problems: { clause: string; reason: string }[] };

export const SUPPORTED_FORMS = [
  'set <field> to <value>',
  'replace <field> with <value>',
  'drop <field>',
  'add service|keyword|language <items>',
  'remove service|keyword|language <items>',
  'we now also serve <place>',
  'we no longer serve <place>',
  'say we are <fact>',
];

const FIELD_ALIASES: Record<string, string> = {
  name: 'name',
  'company name': 'name',
  'business name': 'name',
  description: 'description',
  about: 'description',
  'about text': 'description',
  summary: 'description',
  bio: 'description',
  industry: 'industry',
  category: 'category',
  'service type': 'service_type',
  country: 'country',
  city: 'city',
  town: 'city',
  address: 'address',
  'street address': 'address',
  email: 'contact_email',
  'e-mail': 'contact_email',
  'email address': 'contact_email',
  'contact email': 'contact_email',
  'contact e-mail': 'contact_email',
  phone: 'phone',
  'phone number': 'phone',
  telephone: 'phone',
  'telephone number': 'phone',
  'contact phone': 'phone',
  'founded year': 'founded_year',
  'founding year': 'founded_year',
  'year founded': 'founded_year',
  keywords: 'keywords',
  tags: 'keywords',
  services: 'services',
  languages: 'languages',
};

/** Things people ask for that an owner's edit can never change. */
const PROTECTED_ALIASES: Record<string, string> = {
  website: 'the website is the identity of the profile; contact support to move it',
  'website url': 'the website is the identity of the profile; contact support to move it',
  domain: 'the website is the identity of the profile; contact support to move it',
  verification: 'verification is granted by administrators',
  verified: 'verification is granted by administrators',
  'verified status': 'verification is granted by administrators',
  featured: 'featuring is decided by administrators',
  subscription: 'the subscription is managed in billing',
  plan: 'the subscription is managed in billing',
  logo: 'upload a logo with POST /api/tools/{tool_id}/logo',
};

const LIST_ALIASES: Record<string, ListField | 'location'> = {
  service: 'services',
  keyword: 'keywords',
  tag: 'keywords',
  language: 'languages',
  location: 'location',
  region: 'location',
  area: 'location',
  country: 'location',
};

const LANGUAGES: Record<string, string> = {
  english: 'en', german: 'de', french: 'fr', spanish: 'es', italian: 'it', portuguese: 'pt', dutch: 'nl', polish: 'pl',
  swedish: 'sv', danish: 'da', norwegian: 'no', finnish: 'fi', czech: 'cs', slovak: 'sk', greek: 'el', turkish: 'tr',
  russian: 'ru', ukrainian: 'uk', arabic: 'ar', hebrew: 'he', chinese: 'zh', mandarin: 'zh', japanese: 'ja', korean: 'ko',
  hindi: 'hi', hungarian: 'hu', romanian: 'ro', bulgarian: 'bg', croatian: 'hr', serbian: 'sr', slovenian: 'sl',
  estonian: 'et', latvian: 'lv', lithuanian: 'lt', irish: 'ga', catalan: 'ca', vietnamese: 'vi', thai: 'th',
  indonesian: 'id', malay: 'ms', persian: 'fa', urdu: 'ur', bengali: 'bn', swahili: 'sw', filipino: 'tl',
};
const LANGUAGE_CODES = new Set(Object.values(LANGUAGES));

/** Fields that can be emptied, and what "empty" is for each. */
const CLEARED: Record<string, unknown> = {
  description: '',
  industry: '',
  country: '',
  city: '',
  address: '',
  contact_email: null,
  phone: null,
  founded_year: null,
  keywords: [],
  services: [],
  languages: [],
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternation = (words: string[]) => [...words].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
const FIELD = `(${alternation([...Object.keys(FIELD_ALIASES), ...Object.keys(PROTECTED_ALIASES)])})`;
const LIST = `(${alternation(Object.keys(LIST_ALIASES))})s?`;
const LISTS = `(${alternation(Object.keys(LIST_ALIASES).map((w) => `${w}s`))})`;
const POLITE = String.raw`(?:please\s+)?(?:can you\s+|could you\s+)?`;
const ARTICLE = String.raw`(?:(?:the|our|my|a|an|new|old|current)\s+)*`;
const VERBS = 'set|change|update|make|replace|add|remove|drop|delete|clear|say|mention|state|we|our|please';

const FORMS = {
  set: new RegExp(String.raw`^${POLITE}(?:set|change|update|make)\s+${ARTICLE}${FIELD}\s+(?:to|into|as|=|:)\s+(.+)$`, 'i'),
  replace: new RegExp(String.raw`^${POLITE}replace\s+${ARTICLE}${FIELD}\s+(?:with|by)\s+(.+)$`, 'i'),
  is: new RegExp(String.raw`^(?:our|the|my)\s+(?:new\s+)?${FIELD}\s+is\s+(?:now\s+)?(.+)$`, 'i'),
  clear: new RegExp(String.raw`^${POLITE}(?:drop|remove|delete|clear)\s+${ARTICLE}${FIELD}$`, 'i'),
  addList: new RegExp(String.raw`^${POLITE}add\s+${ARTICLE}${LIST}\s*(?::|called|named)?\s+(.+)$`, 'i'),
  addTo: new RegExp(String.raw`^${POLITE}add\s+(.+?)\s+(?:as|to)\s+${ARTICLE}${LIST}$`, 'i'),
  removeList: new RegExp(String.raw`^${POLITE}(?:remove|drop|delete)\s+${ARTICLE}${LIST}\s*:?\s+(.+)$`, 'i'),
  removeFrom: new RegExp(String.raw`^${POLITE}(?:remove|drop|delete)\s+(.+?)\s+from\s+${ARTICLE}${LISTS}$`, 'i'),
  serve: /^we\s+(?:now\s+)?(?:also\s+)?(?:serve|cover|operate in|work in|deliver to|ship to)\s+(?:(?:customers|clients)\s+)?(?:in\s+)?(.+)$/i,
  noLongerServe: /^we\s+(?:no longer|don't|do not|stopped|stop)\s+(?:serve|serving|cover|covering|operate in|operating in|deliver to|delivering to)\s+(?:(?:customers|clients)\s+)?(?:in\s+)?(.+?)(?:\s+any\s*more|\s+anymore)?$/i,
  say: /^(?:please\s+)?(?:say|mention|state|add)\s+(?:that\s+)?(we(?:'re|\s+are|\s+have|\s+offer|\s+do|\s+provide|\s+hold|\s+were)\s+.+)$/i,
};

/** Clauses of an instruction (see the module comment). */
export function splitClauses(instruction: string): string[] {
  return instruction
    .split(/\s*(?:;|\n|\.(?:\s+|$))\s*/)
    .flatMap((s) => s.split(new RegExp(String.raw`\s*(?:,\s*(?:and\s+|then\s+)?|\s+and\s+|\s+then\s+)(?=(?:${VERBS})\b)`, 'i')))
    .map((s) => s.trim())
    .filter(Boolean);
}

function cleanValue(v: string): string {
  return v.trim().replace(/^["'“‘](.*)["'”’]$/s, '$1').replace(/[.!]+$/, '').trim();
}

function splitItems(v: string): string[] {
  return cleanValue(v)
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)
    .map(cleanValue)
    .filter(Boolean);
}

function languageCode(v: string): string | undefined {
  const s = v.trim().toLowerCase();
  if (LANGUAGES[s]) return LANGUAGES[s];
  return LANGUAGE_CODES.has(s) ? s : undefined;
}

function sentence(s: string): string {
  const t = cleanValue(s);
  return `${t[0]!.toUpperCase()}${t.slice(1)}.`;
}

export function interpretInstruction(instruction: string, current: RulesProfile): RulesResult {
  const lists: Record<ListField, string[]> = {
    keywords: [...current.keywords],
    services: [...current.services],
    languages: [...current.languages],
  };
  const touched = new Set<ListField>();
  const changes: Record<string, unknown> = {};
  let description: string | undefined;
  const problems: { clause: string; reason: string }[] = [];
  const clauses = splitClauses(instruction);
  if (clauses.length === 0) return { ok: false, problems: [{ clause: instruction, reason: 'the instruction is empty' }] };

  const addItems = (field: ListField, items: string[], clause: string) => {
    for (const raw of items) {
      const item = field === 'languages' ? languageCode(raw) : raw;
      if (!item) {
        problems.push({ clause, reason: `"${raw}" is not a language name or ISO 639-1 code` });
        continue;
      }
      if (!lists[field].some((x) => x.toLowerCase() === item.toLowerCase())) lists[field].push(item);
      touched.add(field);
    }
  };
  const removeItems = (field: ListField, items: string[], clause: string) => {
    for (const raw of items) {
      const item = field === 'languages' ? (languageCode(raw) ?? raw) : raw;
      const before = lists[field].length;
      lists[field] = lists[field].filter((x) => x.toLowerCase() !== item.toLowerCase());
      if (lists[field].length === before) problems.push({ clause, reason: `"${raw}" is not among your ${field}` });
      else touched.add(field);
    }
  };
  const listOf = (word: string): ListField => {
    const l = LIST_ALIASES[word.toLowerCase()]!;
    // Places served are searchable keywords: the profile has one address, not a service area.
    return l === 'location' ? 'keywords' : l;
  };
  const setField = (alias: string, rawValue: string, clause: string) => {
    const key = alias.toLowerCase();
    if (PROTECTED_ALIASES[key]) {
      problems.push({ clause, reason: `${alias} cannot be changed here: ${PROTECTED_ALIASES[key]}` });
      return;
    }
    const field = FIELD_ALIASES[key]!;
    if (field === 'keywords' || field === 'services' || field === 'languages') {
      lists[field] = [];
      addItems(field, splitItems(rawValue), clause);
      touched.add(field);
      return;
    }
    const value = cleanValue(rawValue);
    if (field === 'founded_year') {
      const year = /^\d{4}$/.test(value) ? Number(value) : NaN;
      if (Number.isNaN(year)) problems.push({ clause, reason: 'the founded year should be a four-digit year' });
      else changes.founded_year = year;
      return;
    }
    if (field === 'service_type') {
      changes.service_type = value.toLowerCase();
      return;
    }
    if (field === 'description') {
      description = value;
      return;
    }
    changes[field] = value;
  };

  for (const clause of clauses) {
    let m: RegExpExecArray | null;
    if ((m = FORMS.say.exec(clause))) {
      const base = description ?? current.description;
      description = base ? `${base.replace(/\s+$/, '')}${/[.!?]$/.test(base.trim()) ? '' : '.'} ${sentence(m[1]!)}` : sentence(m[1]!);
    } else if ((m = FORMS.noLongerServe.exec(clause))) {
      removeItems('keywords', splitItems(m[1]!), clause);
    } else if ((m = FORMS.serve.exec(clause))) {
      addItems('keywords', splitItems(m[1]!), clause);
    } else if ((m = FORMS.set.exec(clause) ?? FORMS.replace.exec(clause) ?? FORMS.is.exec(clause))) {
      setField(m[1]!, m[2]!, clause);
    } else if ((m = FORMS.clear.exec(clause))) {
      const key = m[1]!.toLowerCase();
      const field = FIELD_ALIASES[key];
      if (PROTECTED_ALIASES[key]) problems.push({ clause, reason: `${m[1]} cannot be changed here: ${PROTECTED_ALIASES[key]}` });
      else if (!field || !(field in CLEARED)) problems.push({ clause, reason: `${m[1]} cannot be empty; set a new value instead` });
      else if (field === 'keywords' || field === 'services' || field === 'languages') {
        lists[field] = [];
        touched.add(field);
      } else if (field === 'description') description = '';
      else changes[field] = CLEARED[field];
    } else if ((m = FORMS.removeFrom.exec(clause))) {
      removeItems(listOf(m[2]!.replace(/s$/i, '')), splitItems(m[1]!), clause);
    } else if ((m = FORMS.removeList.exec(clause))) {
      removeItems(listOf(m[1]!), splitItems(m[2]!), clause);
    } else if ((m = FORMS.addTo.exec(clause))) {
      addItems(listOf(m[2]!), splitItems(m[1]!), clause);
    } else if ((m = FORMS.addList.exec(clause))) {
      addItems(listOf(m[1]!), splitItems(m[2]!), clause);
    } else {
      problems.push({ clause, reason: 'not understood' });
    }
  }

  if (problems.length) return { ok: false, problems };
  for (const f of touched) changes[f] = lists[f];
  if (description !== undefined) changes.description = description;
  return { ok: true, changes, clauses };
}
