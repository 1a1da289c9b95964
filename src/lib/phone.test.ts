import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { choosePhone, phonesInLine, sameLine, type PhoneCandidate } from './phone.js';

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

const cand = (raw: string, extra: Partial<PhoneCandidate> = {}): PhoneCandidate => ({ raw, label: '', source: 'text', url: 'https://x.example/', ...extra });

describe('choosePhone: which number is the main line (issue 40)', () => {
  it('prefers a geographic number over a toll-free one, even repeated in links', () => {
    const cands = [cand('1-800-821-3520', { source: 'tel', label: 'Support' }), cand('1-800-821-3520', { source: 'tel' }), cand('(816) 246-2800', { label: 'Phone' }), cand('(800) 821-3520', { label: 'Toll-Free' })];
    assert.equal(choosePhone(cands, ['US'])?.e164, '+18162462800');
  });

  it('keeps a toll-free number when the site shows no geographic one', () => {
    assert.equal(choosePhone([cand('1-800-719-4605', { label: 'Call' })], ['US'])?.e164, '+18007194605');
  });

  it('prefers the number in the site header or footer over one quoted in the body text', () => {
    const cands = [cand('06106 70920'), cand('06074 7286722', { chrome: true })];
    assert.equal(choosePhone(cands, ['DE'])?.e164, '+4960747286722');
  });

  it('prefers the number written by the main address over a busier header line', () => {
    const cands = [cand('(239) 932-2959', { source: 'tel' }), cand('(239) 932-2959', { source: 'tel' }), cand('(239) 666-3900', { source: 'tel' })];
    assert.equal(choosePhone(cands, ['US'])?.e164, '+12399322959');
    assert.equal(choosePhone(cands, ['US'], { nearMainAddress: ['2396663900'] })?.e164, '+12396663900');
  });

  it('lowers the confidence when close rivals compete and nothing marks the winner', () => {
    const unmarked = choosePhone([cand('(919) 951-0052'), cand('(919) 951-0099')], ['US'])!;
    const labelled = choosePhone([cand('(919) 951-0052', { label: 'Office' }), cand('(919) 951-0099')], ['US'])!;
    const alone = choosePhone([cand('(919) 951-0052')], ['US'])!;
    assert.ok(unmarked.confidence < 0.8, String(unmarked.confidence));
    assert.ok(labelled.confidence >= 0.8, String(labelled.confidence));
    assert.ok(alone.confidence > unmarked.confidence);
  });
});

describe('sameLine: two ways of writing one number', () => {
  it('matches across country codes, trunk zeros and a switchboard suffix', () => {
    assert.ok(sameLine('49099738459', '+49 (0) 99 73 84 59 – 0'));
    assert.ok(sameLine('8149837093', '+18149837093'));
    assert.ok(!sameLine('49089208027250', '+49997384590'));
    assert.ok(!sameLine('123456', '123456'));
  });
});
