import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { phonesInLine } from './phone.js';

describe('phonesInLine: numbers as a person reads them in one line of a page', () => {
  it('reads spaced, dotted and slashed numbers with the words before them', () => {
    assert.deepEqual(phonesInLine('Fon +49 (0)2202 -2809436'), [{ raw: '+49 (0)2202 -2809436', label: 'Fon' }]);
    assert.deepEqual(phonesInLine('T 919-951-0052'), [{ raw: '919-951-0052', label: 'T' }]);
  });

  it('does not read date ranges as a number (real pages: event dates, chart runs)', () => {
    assert.deepEqual(phonesInLine('Event Live 23.10.2015 - 25.10.2015 in Dortmund'), []);
    assert.deepEqual(phonesInLine('Von Oktober 10.2003 - 02.2004 in den Top 100'), []);
    // a French dotted number has two-digit groups only, so it still reads
    assert.equal(phonesInLine('Tél. 01.20.19.45.67').length, 1);
  });

  it('does not read a template placeholder as a number', () => {
    assert.deepEqual(phonesInLine('(123) 555-6789'), []);
    assert.deepEqual(phonesInLine('Call 123-456-7890'), []);
  });
});
