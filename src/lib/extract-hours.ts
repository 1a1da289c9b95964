import { normalizeOpeningHours, WEEKDAYS, type HoursException, type OpeningHours, type TimeRange } from './opening-hours.js';

/**
 * Opening hours as websites write them: schema.org `openingHoursSpecification` and `openingHours`
 * ("Mo-Fr 09:00-17:00"), and the common ways of writing them in text, in English, German, French and Spanish
 * ("Mon–Fri 8am–5pm", "Montag bis Freitag 8–17 Uhr", "lundi au vendredi 9h-18h", "Lunes a Viernes 9:00 a 18:00",
 * "Sunday: closed"). Pure. Returns undefined when nothing reads as hours.
 */

/** Day words by weekday (0 = Monday); two-letter forms only count next to a time (the pattern requires one). */
const DAY_WORDS: readonly (readonly string[])[] = [
  ['monday', 'montag', 'lundi', 'lunes', 'mon', 'mo', 'lun', 'ma'],
  ['tuesday', 'dienstag', 'mardi', 'martes', 'tues', 'tue', 'tu', 'di', 'mar'],
  ['wednesday', 'mittwoch', 'mercredi', 'miércoles', 'miercoles', 'wed', 'we', 'mi', 'mer', 'mié', 'mie'],
  ['thursday', 'donnerstag', 'jeudi', 'jueves', 'thurs', 'thur', 'thu', 'th', 'do', 'jeu', 'jue'],
  ['friday', 'freitag', 'vendredi', 'viernes', 'fri', 'fr', 'ven', 'vie'],
  ['saturday', 'samstag', 'sonnabend', 'samedi', 'sábado', 'sabado', 'sat', 'sa', 'sam', 'sáb', 'sab'],
  ['sunday', 'sonntag', 'dimanche', 'domingo', 'sun', 'su', 'so', 'dim', 'dom'],
];
const DAY_INDEX = new Map<string, number>(DAY_WORDS.flatMap((words, i) => words.map((w): [string, number] => [w, i])));
// "ma" is Monday in Dutch but Tuesday-ish elsewhere: drop it (Dutch is not read here).
DAY_INDEX.delete('ma');

const DAY = `(?:${[...DAY_INDEX.keys()].sort((a, b) => b.length - a.length).join('|')})\\.?`;
// Words between days and times stand alone ("to", "a"), symbols need no spaces ("Mon-Fri").
const RANGE_WORD = `(?:\\s*(?:-|–|—)\\s*|\\s+(?:to|bis|au|à|a|through|thru|till|until)\\s+)`;
const LIST_WORD = `(?:\\s*(?:,|&|\\+|/)\\s*|\\s+(?:and|und|et|y)\\s+)`;
const DAY_SPEC = `${DAY}(?:${RANGE_WORD}${DAY})?(?:${LIST_WORD}${DAY}(?:${RANGE_WORD}${DAY})?)*`;
const TIME = `\\d{1,2}(?:[:.h]\\d{2})?\\s*(?:a\\.?m\\.?|p\\.?m\\.?|uhr|h)?`;
const TIME_SEP = `(?:\\s*(?:-|–|—)\\s*|\\s+(?:to|bis|à|a|until|till)\\s+)`;
const TIME_RANGE = `${TIME}${TIME_SEP}${TIME}`;
const CLOSED = `closed|geschlossen|ruhetag|fermé|ferme|cerrado`;
const ALL_DAY = `(?:open\\s+)?24\\s*(?:hours|hrs|h|std\\.?|stunden)`;
const TIME_SPEC = `(?:${TIME_RANGE}(?:${LIST_WORD}${TIME_RANGE})*|${CLOSED}|${ALL_DAY})`;
// Compiled once: the crawl reads every line of every page through them.
const LIST_SPLIT = new RegExp(LIST_WORD, 'iu');
const RANGE_SPLIT = new RegExp(RANGE_WORD, 'iu');
const TIME_SPLIT = new RegExp(`${TIME_SEP}(?=\\d)`, 'iu');
const CLOSED_ONLY = new RegExp(`^(?:${CLOSED})$`, 'iu');
const ALL_DAY_ONLY = new RegExp(`^${ALL_DAY}$`, 'iu');
const ENTRY = new RegExp(`(?<![\\p{L}\\d])(${DAY_SPEC})\\s*(?::|,|-|–)?\\s*(?:(?:from|de|von|ab|desde|open)\\s+)?(${TIME_SPEC})(?![\\p{L}\\d])`, 'giu');

/** The weekdays a day spec names ("mon-fri", "sa, so", "lundi au vendredi"). */
function daysOf(spec: string): number[] {
  const days = new Set<number>();
  for (const part of spec.split(LIST_SPLIT)) {
    const ends = part.split(RANGE_SPLIT).map((w) => DAY_INDEX.get(w.replace(/\.$/, '').trim()));
    if (ends.some((d) => d === undefined)) continue;
    const [from, to] = [ends[0]!, ends[ends.length - 1]!];
    for (let d = from; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === to) break;
    }
  }
  return [...days];
}

interface ClockTime { hour: number; minute: number; meridiem: 'am' | 'pm' | undefined }

function readTime(raw: string): ClockTime | undefined {
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(a\.?m\.?|p\.?m\.?|uhr|h)?$/i.exec(raw.trim());
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = m[2] ? Number(m[2]) : 0;
  const meridiem = m[3]?.toLowerCase().startsWith('a') ? 'am' : m[3]?.toLowerCase().startsWith('p') ? 'pm' : undefined;
  if (minute > 59 || hour > 24 || (meridiem && (hour < 1 || hour > 12))) return undefined;
  return { hour, minute, meridiem };
}

const to24 = (t: ClockTime) => (t.meridiem === 'pm' ? (t.hour % 12) + 12 : t.meridiem === 'am' ? t.hour % 12 : t.hour);
const hhmm = (hour: number, minute: number) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** "8am–5pm", "8–17 Uhr", "9-5" (a close at or before a bare open is afternoon), "9h30-18h". */
function readRange(raw: string): TimeRange | undefined {
  const [a, b] = raw.split(TIME_SPLIT);
  const open = a && readTime(a);
  const close = b && readTime(b);
  if (!open || !close) return undefined;
  let openHour = to24(open);
  let closeHour = to24(close);
  // "9-5pm": a bare open takes the close's afternoon when that keeps it before the close ("1-5pm"), not otherwise ("11-2pm").
  if (!open.meridiem && close.meridiem === 'pm' && openHour < 12 && openHour + 12 < closeHour) openHour += 12;
  // Two bare clock hours where the close is not after the open: an afternoon close ("9-5", "8.30-6").
  if (!open.meridiem && !close.meridiem && closeHour <= openHour && closeHour < 12 && openHour < 12) closeHour += 12;
  if (openHour > 23 || closeHour > 24 || (closeHour === 24 && close.minute > 0)) return undefined;
  const range: TimeRange = [hhmm(openHour, open.minute), hhmm(closeHour, close.minute)];
  return range[0] === range[1] ? undefined : range;
}

/** Hours read from text: every "days: times" entry; undefined when none. A later entry for a day replaces an earlier one. */
export function hoursFromText(text: string): OpeningHours | undefined {
  const byDay = new Map<number, TimeRange[]>();
  const entries: { days: number[]; ranges: TimeRange[]; doubtful: boolean }[] = [];
  for (const line of text.replace(/\u00a0/g, ' ').split(/\n+/)) {
    if (line.length > 400) continue;
    for (const m of line.matchAll(ENTRY)) {
      const days = daysOf(m[1]!.toLowerCase());
      const spec = m[2]!.toLowerCase();
      // "We do 3-4 jobs": a lone abbreviation before bare numbers is prose unless other hours stand beside it.
      const abbreviated = days.length === 1 && m[1]!.replace(/\.$/, '').length <= 3;
      const doubtful = abbreviated && !/\d[:.h]\d|[ap]\.?m|uhr|\dh\b/iu.test(spec) && !CLOSED_ONLY.test(spec);
      let ranges: TimeRange[] | undefined;
      if (CLOSED_ONLY.test(spec)) ranges = [];
      else if (ALL_DAY_ONLY.test(spec)) ranges = [['00:00', '24:00']];
      else {
        const parts = spec.split(LIST_SPLIT).map(readRange);
        if (parts.some((p) => !p)) continue;
        ranges = parts as TimeRange[];
      }
      entries.push({ days, ranges, doubtful });
    }
  }
  if (!entries.some((e) => !e.doubtful)) return undefined;
  for (const e of entries) for (const d of e.days) byDay.set(d, e.ranges);
  if (![...byDay.values()].some((r) => r.length > 0)) return undefined;
  const raw: Record<string, TimeRange[]> = {};
  for (const [d, r] of byDay) raw[WEEKDAYS[d]!] = r;
  const out = normalizeOpeningHours(raw);
  return 'hours' in out ? out.hours : undefined;
}

const clock = (v: unknown) => {
  const m = typeof v === 'string' ? /^(\d{1,2}):(\d{2})/.exec(v.trim()) : null;
  return m ? hhmm(Number(m[1]), Number(m[2])) : undefined;
};

/** schema.org `openingHoursSpecification` (days, opens, closes; a validFrom = validThrough entry is a dated exception) and `openingHours` strings. */
export function hoursFromSchemaOrg(node: Record<string, unknown>): OpeningHours | undefined {
  const specs = [node.openingHoursSpecification].flat().filter((s): s is Record<string, unknown> => !!s && typeof s === 'object');
  const byDay = new Map<number, TimeRange[]>();
  const exceptions: HoursException[] = [];
  for (const s of specs) {
    const opens = clock(s.opens);
    let closes = clock(s.closes);
    if (closes === '23:59') closes = '24:00';
    const from = typeof s.validFrom === 'string' ? s.validFrom.slice(0, 10) : '';
    const through = typeof s.validThrough === 'string' ? s.validThrough.slice(0, 10) : '';
    const closedAllDay = !opens || !closes || opens === closes;
    if (from && from === through) {
      exceptions.push(closedAllDay ? { date: from, closed: true } : { date: from, hours: [[opens, closes!]] });
      continue;
    }
    if (closedAllDay) continue;
    for (const day of [s.dayOfWeek].flat()) {
      const name = typeof day === 'string' ? day.replace(/^https?:\/\/schema\.org\//i, '').toLowerCase() : '';
      const d = DAY_INDEX.get(name);
      if (d === undefined) continue;
      byDay.set(d, [...(byDay.get(d) ?? []), [opens, closes!]]);
    }
  }
  let hours: OpeningHours | undefined;
  if (byDay.size) {
    const raw: Record<string, unknown> = Object.fromEntries([...byDay].map(([d, r]) => [WEEKDAYS[d]!, r]));
    if (exceptions.length) raw.exceptions = exceptions;
    const out = normalizeOpeningHours(raw);
    hours = 'hours' in out ? out.hours : undefined;
  }
  if (!hours) {
    const text = [node.openingHours].flat().filter((v): v is string => typeof v === 'string').join('\n');
    if (text) hours = hoursFromText(text);
  }
  return hours;
}
