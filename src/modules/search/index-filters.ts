import type { SearchFilters } from './search.repo.js';

/**
 * A text column, interned: each distinct value once in a dictionary, each slot a Uint32 code into it (4 bytes a
 * company instead of a string of its own). A value no slot holds any more keeps its code: the dictionary is bounded
 * by the distinct values ever seen (categories, countries, cities, industries), not by writes.
 */
export class TextColumn {
  private readonly values: string[] = [];
  private readonly codes = new Map<string, number>();
  slots: Uint32Array;

  constructor(capacity: number) {
    this.slots = new Uint32Array(capacity);
  }

  grow(capacity: number): void {
    const next = new Uint32Array(capacity);
    next.set(this.slots.subarray(0, Math.min(capacity, this.slots.length)));
    this.slots = next;
  }

  set(slot: number, value: string): void {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    this.slots[slot] = code;
  }

  get(slot: number): string {
    return this.values[this.slots[slot]!]!;
  }

  /** The code of `value`, or -1 when no slot ever held it. */
  codeOf(value: string): number {
    return this.codes.get(value) ?? -1;
  }

  /** Per code: whether its value passes `test` (a filter evaluated once per distinct value). */
  mask(test: (value: string) => boolean): Uint8Array {
    return Uint8Array.from(this.values, (v) => (test(v) ? 1 : 0));
  }

  get bytes(): number {
    return this.slots.byteLength;
  }

  /** The dictionary, for a snapshot (the codes are `slots`). */
  dictionary(): readonly string[] {
    return this.values;
  }

  /** Restores a snapshot's dictionary; its codes are read into `slots` by the caller. */
  restoreDictionary(values: readonly string[]): void {
    this.values.length = 0;
    this.codes.clear();
    for (const value of values) {
      this.codes.set(value, this.values.length);
      this.values.push(value);
    }
  }
}

/** The per-slot columns the search filters read (lower-cased text but for country code and service type; NaN where no coordinates). */
export interface FilterColumns {
  category: TextColumn;
  countryCode: TextColumn;
  country: TextColumn;
  city: TextColumn;
  industry: TextColumn;
  serviceType: TextColumn;
  verified: Uint8Array;
  latitude: Float64Array;
  longitude: Float64Array;
}

/** A test that `column` holds exactly `value` (compared as codes). */
function equals(column: TextColumn, value: string): (slot: number) => boolean {
  const code = column.codeOf(value);
  const slots = column.slots;
  return code < 0 ? () => false : (s) => slots[s] === code;
}

const EARTH_DIAMETER_KM = 12742;
const rad = (d: number) => (d * Math.PI) / 180;

/** The filters of search.repo.ts's whereFilters, evaluated on the in-memory columns. */
export function filterPredicate(f: SearchFilters, c: FilterColumns): (slot: number) => boolean {
  const tests: ((slot: number) => boolean)[] = [];
  if (f.category) tests.push(equals(c.category, f.category.toLowerCase()));
  if (f.countryCode) tests.push(equals(c.countryCode, f.countryCode));
  else if (f.countryName) tests.push(equals(c.country, f.countryName.toLowerCase()));
  if (f.city) tests.push(equals(c.city, f.city.toLowerCase()));
  if (f.industry) {
    const v = f.industry.toLowerCase();
    const mask = c.industry.mask((industry) => industry.includes(v));
    const slots = c.industry.slots;
    tests.push((s) => mask[slots[s]!] === 1);
  }
  if (f.serviceType) tests.push(equals(c.serviceType, f.serviceType));
  if (f.verifiedOnly) tests.push((s) => c.verified[s] === 1);
  if (f.near) {
    const { latitude, longitude, radiusKm, countryCode, includeRemote } = f.near;
    const cosLat = Math.cos(rad(latitude));
    const local = (s: number) => {
      const lat = c.latitude[s]!;
      const lng = c.longitude[s]!;
      if (Number.isNaN(lat) || Number.isNaN(lng)) return false;
      const h = Math.sin(rad(lat - latitude) / 2) ** 2 + cosLat * Math.cos(rad(lat)) * Math.sin(rad(lng - longitude) / 2) ** 2;
      return EARTH_DIAMETER_KM * Math.asin(Math.min(1, Math.sqrt(h))) <= radiusKm;
    };
    if (includeRemote) {
      tests.push((s) => {
        const type = c.serviceType.get(s);
        return local(s) || type === 'remote' || type === 'hybrid' || (type === 'nationwide' && (countryCode === '' || c.countryCode.get(s) === countryCode));
      });
    } else tests.push(local);
  }
  return (slot) => {
    for (const t of tests) if (!t(slot)) return false;
    return true;
  };
}

export function hasFilters(f: SearchFilters): boolean {
  return Boolean(f.category || f.countryCode || f.countryName || f.city || f.industry || f.serviceType || f.verifiedOnly || f.near || f.updatedSince);
}
