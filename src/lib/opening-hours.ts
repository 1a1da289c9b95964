/**
 * Opening hours: a weekly schedule in the company's own time zone, with exceptions for dates (holidays,
 * closed days, special hours). Pure: the zone arithmetic uses the runtime's IANA database through Intl,
 * so daylight-saving changes follow the company's zone, never the server's.
 *
 * Shape (the one agents and the site read): `monday` … `sunday`, each a list of ["HH:MM", "HH:MM"] pairs
 * (24-hour; a close at or before the open runs past midnight, "24:00" is the end of the day), and
 * `exceptions`: [{ date: "YYYY-MM-DD", closed: true } | { date, hours: [["HH:MM", "HH:MM"], …] }, note?].
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type TimeRange = [string, string];
export interface HoursException {
  date: string;
  closed?: boolean;
  hours?: TimeRange[];
  note?: string;
}
export type OpeningHours = Partial<Record<Weekday, TimeRange[]>> & { exceptions?: HoursException[] };

/** Most ranges in one day and exceptions kept: bounds a stored schedule. */
export const MAX_RANGES_PER_DAY = 6;
export const MAX_EXCEPTIONS = 60;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Minutes after midnight of "HH:MM" ("24:00" is 1440). */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks and normalises a schedule: days in order, ranges sorted, exceptions by date (the last one of a date wins),
 * empty days left out. Returns the problem as a sentence (with the path it concerns) instead of throwing.
 */
export function normalizeOpeningHours(input: unknown): { hours: OpeningHours } | { problem: string; path: (string | number)[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { problem: 'Opening hours should be an object with the days of the week and exceptions', path: [] };
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (key !== 'exceptions' && !(WEEKDAYS as readonly string[]).includes(key)) return { problem: `Unknown key "${key}": use monday … sunday and exceptions`, path: [key] };
  }
  const ranges = (value: unknown, path: (string | number)[]): { ranges: TimeRange[] } | { problem: string; path: (string | number)[] } => {
    if (!Array.isArray(value)) return { problem: 'Should be a list of ["HH:MM", "HH:MM"] pairs', path };
    if (value.length > MAX_RANGES_PER_DAY) return { problem: `At most ${MAX_RANGES_PER_DAY} time ranges a day`, path };
    const out: TimeRange[] = [];
    for (const [i, pair] of value.entries()) {
      if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((t) => typeof t === 'string' && TIME.test(t))) {
        return { problem: 'Each range should be two 24-hour times like ["08:00", "17:30"]', path: [...path, i] };
      }
      const [open, close] = pair as [string, string];
      if (open === '24:00') return { problem: 'A range cannot open at 24:00', path: [...path, i] };
      if (open === close) return { problem: 'A range should not open and close at the same time', path: [...path, i] };
      out.push([open, close]);
    }
    out.sort((a, b) => minutesOf(a[0]) - minutesOf(b[0]));
    return { ranges: out };
  };
  const hours: OpeningHours = {};
  for (const day of WEEKDAYS) {
    if (raw[day] === undefined || raw[day] === null) continue;
    const r = ranges(raw[day], [day]);
    if ('problem' in r) return r;
    if (r.ranges.length) hours[day] = r.ranges;
  }
  if (raw.exceptions !== undefined && raw.exceptions !== null) {
    if (!Array.isArray(raw.exceptions)) return { problem: 'Exceptions should be a list of dates', path: ['exceptions'] };
    if (raw.exceptions.length > MAX_EXCEPTIONS) return { problem: `At most ${MAX_EXCEPTIONS} exceptions`, path: ['exceptions'] };
    const byDate = new Map<string, HoursException>();
    for (const [i, e] of raw.exceptions.entries()) {
      const path = ['exceptions', i];
      if (typeof e !== 'object' || e === null) return { problem: 'Each exception should be an object with a date', path };
      const x = e as Record<string, unknown>;
      if (typeof x.date !== 'string' || !DATE.test(x.date) || Number.isNaN(Date.parse(`${x.date}T00:00:00Z`))) return { problem: 'The date should be written YYYY-MM-DD', path: [...path, 'date'] };
      const note = typeof x.note === 'string' ? x.note.replace(/\s+/g, ' ').trim().slice(0, 120) : '';
      if (x.closed === true || x.hours === undefined || (Array.isArray(x.hours) && x.hours.length === 0)) {
        byDate.set(x.date, { date: x.date, closed: true, ...(note ? { note } : {}) });
        continue;
      }
      const r = ranges(x.hours, [...path, 'hours']);
      if ('problem' in r) return r;
      byDate.set(x.date, { date: x.date, hours: r.ranges, ...(note ? { note } : {}) });
    }
    const list = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
    if (list.length) hours.exceptions = list;
  }
  return { hours };
}

/** One formatter per zone: building one costs far more than using it (search filters call this per candidate). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short' });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock date, weekday and minute of an instant in a zone. */
function localParts(instant: number, zone: string): { date: string; weekday: number; minute: number; y: number; m: number; d: number } {
  const parts = Object.fromEntries(
    formatterFor(zone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const y = Number(parts.year);
  const m = Number(parts.month);
  const d = Number(parts.day);
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!);
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday, minute: Number(parts.hour) * 60 + Number(parts.minute), y, m, d };
}

/** The zone's offset from UTC at an instant, in minutes. */
function offsetAt(instant: number, zone: string): number {
  const p = localParts(instant, zone);
  const asUtc = Date.UTC(p.y, p.m - 1, p.d, Math.floor(p.minute / 60), p.minute % 60);
  return Math.round((asUtc - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/**
 * The instant of a wall-clock time in a zone. A time skipped by a daylight-saving change is read with the
 * offset before the change (02:30 on a spring-forward night is 03:30); a repeated one is its first occurrence.
 */
function instantOf(y: number, m: number, d: number, minute: number, zone: string): number {
  const guess = Date.UTC(y, m - 1, d, 0, minute);
  const first = guess - offsetAt(guess, zone) * 60_000;
  const second = guess - offsetAt(first, zone) * 60_000;
  return Math.min(first, second);
}

/** The schedule of one local date: an exception for it, else its weekday's ranges. */
function rangesOn(hours: OpeningHours, date: string, weekday: number): TimeRange[] {
  const exception = hours.exceptions?.find((e) => e.date === date);
  if (exception) return exception.closed ? [] : (exception.hours ?? []);
  return hours[WEEKDAYS[weekday]!] ?? [];
}

/** Open intervals (UTC milliseconds) from the local day before `instant` to `days` days after, merged where they touch. */
function intervalsAround(hours: OpeningHours, zone: string, instant: number, days: number): [number, number][] {
  const out: [number, number][] = [];
  for (let k = -1; k <= days; k++) {
    const p = localParts(instant + k * 86_400_000, zone);
    for (const [open, close] of rangesOn(hours, p.date, p.weekday)) {
      const start = instantOf(p.y, p.m, p.d, minutesOf(open), zone);
      const closeMinute = minutesOf(close) <= minutesOf(open) ? minutesOf(close) + 1440 : minutesOf(close);
      const end = instantOf(p.y, p.m, p.d, closeMinute, zone);
      if (end > start) out.push([start, end]);
    }
  }
  out.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const iv of out) {
    const last = merged[merged.length - 1];
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else merged.push([...iv]);
  }
  return merged;
}

/** Whether the company is open at an instant. */
export function isOpenAt(hours: OpeningHours, zone: string, at: Date): boolean {
  const t = at.getTime();
  return intervalsAround(hours, zone, t, 1).some(([s, e]) => s <= t && t < e);
}

/** An instant written in RFC 3339 with the zone's offset at that instant ("2026-11-27T08:00:00+01:00"). */
export function formatInZone(instant: number, zone: string): string {
  const offset = offsetAt(instant, zone);
  const local = new Date(Math.floor(instant / 60_000) * 60_000 + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * Open now or not, and when that next changes (the next opening when closed, the closing when open), in the
 * company's zone; null when nothing changes within the next two weeks (always open, or no hours ahead).
 */
export function openState(hours: OpeningHours, zone: string, at: Date): { open_now: boolean; next_change_at: string | null } {
  const t = at.getTime();
  const intervals = intervalsAround(hours, zone, t, 14);
  const current = intervals.find(([s, e]) => s <= t && t < e);
  if (current) {
    const horizon = intervals[intervals.length - 1]![1];
    return { open_now: true, next_change_at: current[1] >= horizon ? null : formatInZone(current[1], zone) };
  }
  const next = intervals.find(([s]) => s > t);
  return { open_now: false, next_change_at: next ? formatInZone(next[0], zone) : null };
}

/** Whether a schedule has any hours at all (a schedule of exceptions only says nothing about normal days). */
export function hasWeeklyHours(hours: OpeningHours | null | undefined): hours is OpeningHours {
  return Boolean(hours && WEEKDAYS.some((d) => (hours[d]?.length ?? 0) > 0));
}

const DAY_LABELS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** The week as people read it: one line per day, "09:00–17:00" or "Closed" (pages and answers share it). */
export function weekLines(hours: OpeningHours): { day: string; text: string }[] {
  return WEEKDAYS.map((d, i) => ({ day: DAY_LABELS[i]!, text: hours[d]?.length ? hours[d]!.map(([a, b]) => `${a}–${b}`).join(', ') : 'Closed' }));
}

/** "Open now · closes at 17:00" / "Closed now · opens Monday at 09:00", from open_now and next_change_at (the company's local time). */
export function openStatusLine(openNow: boolean, nextChangeAt: string | null): string {
  if (!nextChangeAt) return openNow ? 'Open now' : 'Closed now';
  const day = DAY_LABELS[(new Date(`${nextChangeAt.slice(0, 10)}T12:00:00Z`).getUTCDay() + 6) % 7];
  const time = nextChangeAt.slice(11, 16);
  return openNow ? `Open now · closes at ${time}${time === '00:00' ? ' (midnight)' : ''}` : `Closed now · opens ${day} at ${time}`;
}

/** schema.org openingHoursSpecification of a schedule: one entry per day with hours, one per dated exception. */
export function schemaOrgHours(hours: OpeningHours): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  WEEKDAYS.forEach((d, i) => {
    for (const [opens, closes] of hours[d] ?? []) out.push({ '@type': 'OpeningHoursSpecification', dayOfWeek: `https://schema.org/${DAY_LABELS[i]}`, opens, closes: closes === '24:00' ? '23:59' : closes });
  });
  for (const e of hours.exceptions ?? []) {
    const ranges = e.closed ? [['00:00', '00:00'] as TimeRange] : (e.hours ?? []);
    for (const [opens, closes] of ranges) out.push({ '@type': 'OpeningHoursSpecification', validFrom: e.date, validThrough: e.date, opens, closes: closes === '24:00' ? '23:59' : closes });
  }
  return out;
}
