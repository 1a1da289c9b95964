import tzLookup from '@photostructure/tz-lookup';

/**
 * The IANA time zone at a point (offline: the boundaries ship in @photostructure/tz-lookup), or null when
 * the runtime does not know the zone it names. Opening hours are read in it.
 */
export function zoneAt(latitude: number, longitude: number): string | null {
  try {
    const zone = tzLookup(latitude, longitude);
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}
