import { findCity } from './gazetteer.js';
import { CYRILLIC_LETTER } from './romanise.js';

/**
 * Addresses as Russian, Ukrainian and Belarusian sites write them: the town after its marker ("г. Уфа", "г.Москва",
 * "м. Київ") on a line that also names a street or a building ("ул.", "шоссе", "вул.", "д. 10"), or after a 5- or
 * 6-digit postcode ("450071, г. Уфа"). Without a marker a town's name in running text is usually inflected ("в Уфе")
 * and not read here. The town is kept as the page writes it, confirmed by the gazetteer (which spells it in Latin
 * letters: its placeKey romanises the name, romanise.ts).
 */
export interface CyrillicAddress {
  street: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  line: string;
  confidence: number;
}

const WORD = String.raw`[А-ЯЁІЇЄҐ][а-яёіїєґ'’]+`;
// the town: one to three words, joined by spaces or hyphens ("Санкт-Петербург", "Нижний Новгород", "Ростов-на-Дону")
const TOWN_AFTER_MARKER = new RegExp(String.raw`(?<![\p{L}])(?:г|гор|город|м|місто)\.?\s*(${WORD}(?:[\s-]+(?:на[\s-]+)?[А-ЯЁІЇЄҐа-яё][а-яёіїєґ'’]+){0,2})`, 'gu');
const STREET_MARKER = new RegExp(String.raw`(?<![\p{L}])(?:ул|пр|просп|пр-т|пер|наб|бул|б-р|вул|пл|ш|д|корп|стр|оф|кв)\.|улица|проспект|переулок|шоссе|набережная|бульвар|вулиця|площадь|офис|бутик|этаж|поверх`, 'iu');
const POSTCODE = /(?<!\d)(\d{6}|\d{5})(?!\d)/;
// countries whose addresses are written in Cyrillic
const CYRILLIC_COUNTRIES = new Set(['RU', 'UA', 'BY', 'KZ', 'BG', 'RS', 'MK', 'KG', 'MD']);

export function cyrillicAddress(line: string, countryHint = ''): CyrillicAddress | undefined {
  if (line.length > 200 || !CYRILLIC_LETTER.test(line)) return undefined;
  const postcode = POSTCODE.exec(line)?.[1] ?? '';
  if (!STREET_MARKER.test(line) && !postcode) return undefined;
  for (const m of line.matchAll(TOWN_AFTER_MARKER)) {
    const words = m[1]!.split(/(\s+)/);
    // the longest run of words the gazetteer knows: "Нижний Новгород" before "Нижний"
    for (let n = words.length; n > 0; n -= 2) {
      const town = words.slice(0, n).join('').trim();
      const hit = (countryHint ? findCity(town, countryHint) : undefined) ?? findCity(town);
      if (!hit || !CYRILLIC_COUNTRIES.has(hit.country)) continue;
      const townEnd = (m.index ?? 0) + m[0].length - m[1]!.length + town.length;
      const street = line.slice(townEnd).replace(/^[\s,.;]+/, '').trim();
      const digits = /\d/.test(street);
      return {
        street: street.slice(0, 100),
        city: town,
        region: '',
        postalCode: postcode,
        country: hit.country,
        line: line.trim(),
        // the marker says it is the town; a postcode or a numbered street says the line is an address
        confidence: Math.min(0.98, 0.8 + (digits ? 0.08 : 0) + (postcode ? 0.1 : 0)),
      };
    }
  }
  return undefined;
}
