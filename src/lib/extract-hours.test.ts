import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hoursFromSchemaOrg, hoursFromText } from './extract-hours.js';

const weekdays = (open: string, close: string) => Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [[open, close]]]));

describe('opening hours read from websites', () => {
  it('reads the common ways of writing hours in text, in several languages', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['Mon–Fri 8am–5pm', weekdays('08:00', '17:00')],
      ['Monday to Friday: 8:00 - 17:30\nSaturday: 9:00 - 13:00\nSunday: Closed', { ...weekdays('08:00', '17:30'), saturday: [['09:00', '13:00']] }],
      ['Hours: Mon-Fri 9-5, Sat 10-2', { ...weekdays('09:00', '17:00'), saturday: [['10:00', '14:00']] }],
      ['Montag bis Freitag 8–17 Uhr, Samstag 9–12 Uhr', { ...weekdays('08:00', '17:00'), saturday: [['09:00', '12:00']] }],
      ['Öffnungszeiten: Mo–Fr 7:30–12:00 und 13:00–18:00, Sa geschlossen', weekdaysTwo()],
      ['Du lundi au vendredi de 9h à 18h, samedi 9h30-12h', { ...weekdays('09:00', '18:00'), saturday: [['09:30', '12:00']] }],
      ['Lunes a Viernes 9:00 a 18:00. Sábado: cerrado', weekdays('09:00', '18:00')],
      ['Open daily 11am - 10pm', {}],
      ['Tue, Thu 10:00 AM – 7:00 PM', { tuesday: [['10:00', '19:00']], thursday: [['10:00', '19:00']] }],
      ['Fri–Sat 6pm–2am', { friday: [['18:00', '02:00']], saturday: [['18:00', '02:00']] }],
      ['Mon-Sun: 24 hours', Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [['00:00', '24:00']]]))],
    ];
    for (const [text, expected] of cases) {
      const got = hoursFromText(text);
      if (Object.keys(expected).length === 0) assert.equal(got, undefined, text);
      else assert.deepEqual(got, expected, text);
    }
  });

  it('does not read prices, phone numbers, years or prose as hours', () => {
    for (const text of ['Call 555-1234 today', 'Since 1998 - 2024 we served Berlin', 'Prices from 10-20 EUR', 'We do 3-4 jobs a week', 'So 5-6 people can sit']) {
      assert.equal(hoursFromText(text), undefined, text);
    }
  });

  function weekdaysTwo() {
    return Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [['07:30', '12:00'], ['13:00', '18:00']]]));
  }

  it('reads schema.org openingHoursSpecification, with a dated exception, and openingHours strings', () => {
    const spec = hoursFromSchemaOrg({
      openingHoursSpecification: [
        { '@type': 'OpeningHoursSpecification', dayOfWeek: ['https://schema.org/Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '09:00:00', closes: '17:00:00' },
        { '@type': 'OpeningHoursSpecification', dayOfWeek: 'http://schema.org/Saturday', opens: '10:00', closes: '23:59' },
        { '@type': 'OpeningHoursSpecification', validFrom: '2026-12-25', validThrough: '2026-12-25', opens: '00:00', closes: '00:00' },
      ],
    });
    assert.deepEqual(spec, { ...weekdays('09:00', '17:00'), saturday: [['10:00', '24:00']], exceptions: [{ date: '2026-12-25', closed: true }] });
    assert.deepEqual(hoursFromSchemaOrg({ openingHours: ['Mo-Fr 09:00-17:00', 'Sa 10:00-14:00'] }), { ...weekdays('09:00', '17:00'), saturday: [['10:00', '14:00']] });
    assert.deepEqual(hoursFromSchemaOrg({ openingHours: 'Mo,Tu,We,Th,Fr 08:00-16:00' }), weekdays('08:00', '16:00'));
    assert.equal(hoursFromSchemaOrg({ name: 'No hours' }), undefined);
  });
});
