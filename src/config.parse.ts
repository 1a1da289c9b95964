/**
 * Reading one environment variable each: a missing or empty value takes the default, a bad one
 * throws a ConfigError naming the variable. config.ts builds the typed config from these.
 */
export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

export function optional(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** A comma-separated list of TCP ports. */
export function ports(env: Env, name: string, fallback: string): number[] {
  return str(env, name, fallback)
    .split(',')
    .map((p) => {
      const n = Number(p.trim());
      if (!Number.isInteger(n) || n < 1 || n > 65535) throw new ConfigError(`${name} has a bad port "${p}"`);
      return n;
    });
}

export function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = optional(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

/**
 * A comma-separated list of URLs (none when unset) with one of `protocols`; the same one twice is refused. Messages name
 * the entry by its place, never its text (database URLs carry passwords).
 */
export function urlList(env: Env, name: string, protocols: string[]): string[] {
  const raw = optional(env, name);
  if (raw === undefined) return [];
  const list = raw.split(',').map((p) => p.trim());
  list.forEach((p, i) => {
    const which = list.length > 1 ? `${name} entry ${i + 1} of ${list.length}` : name;
    if (p === '') throw new ConfigError(`${which} is empty: give URLs separated by single commas`);
    let parsed: URL;
    try {
      parsed = new URL(p);
    } catch {
      throw new ConfigError(`${which} is not a URL`);
    }
    if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${which} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  });
  if (new Set(list).size !== list.length) throw new ConfigError(`${name} names the same URL twice`);
  return list;
}

export function secretOf(env: Env, name: string, minLength: number): string | undefined {
  const v = optional(env, name);
  if (v !== undefined && v.length < minLength) throw new ConfigError(`${name} must be at least ${minLength} characters`);
  return v;
}
