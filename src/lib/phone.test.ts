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

  it('does not read a registry, tax or bank number as a phone (footers write them beside the phone)', () => {
    assert.deepEqual(phonesInLine('P.IVA 01234567890'), []);
    assert.deepEqual(phonesInLine('Partita IVA: 01234567890 - REA MI-1234567'), []);
    assert.deepEqual(phonesInLine('SARL au capital de 8000 € - RCS Paris B 552 100 554 - SIRET 552 100 554 00012'), []);
    assert.deepEqual(phonesInLine('USt-IdNr.: DE 123456789 · Amtsgericht Köln HRB 12345'), []);
    assert.deepEqual(phonesInLine('ОГРН 1027700132195, ИНН 7707083893'), []);
    assert.deepEqual(phonesInLine('ABN 12 345 678 901'), []);
    assert.deepEqual(phonesInLine('Company No. 04567890 | VAT No. GB 123 4567 89'), []);
    // the phone beside them still reads, with its own label
    assert.deepEqual(phonesInLine('Tel. 02 1234 5678 | P.IVA 01234567890'), [{ raw: '02 1234 5678', label: 'Tel.' }]);
    assert.deepEqual(phonesInLine('Tél. : 01 42 68 53 00 - SIREN 552 100 554'), [{ raw: '01 42 68 53 00', label: 'Tél. :' }]);
    // a word that is an acronym only in capitals: "ein" is German, not an employer number
    assert.equal(phonesInLine('Rufen Sie uns an, wir richten Ihnen alles ein: 0621 123456').length, 1);
    assert.equal(phonesInLine('Accounts: 0161 496 0000').length, 1);
  });

  it('does not read a template placeholder as a number', () => {
    assert.deepEqual(phonesInLine('(123) 555-6789'), []);
    assert.deepEqual(phonesInLine('Call 123-456-7890'), []);
    // a theme's sample number left beside the real address
    assert.deepEqual(phonesInLine('+44 1234 567 890'), []);
  });

  it('does not read timestamps as a number, even run together', () => {
    assert.deepEqual(phonesInLine('2018-08-29 14:15:57 2018-06-22 10:20:00'), []);
    assert.deepEqual(phonesInLine('10:20:0022.06.2018 10:20'), []);
  });

  it('reads ten bare digits after a US address as its number, and nowhere else', () => {
    assert.deepEqual(phonesInLine('1 Plankinton Avenue, Milwaukee, WI, 53203, United States 4143132807').map((p) => p.raw), ['4143132807']);
    assert.deepEqual(phonesInLine('Order 4143132807'), []);
  });

  it('reads a number whose parts an en dash joins, not a range', () => {
    assert.deepEqual(phonesInLine('+49 431 – 5 36 22 67').map((p) => p.raw), ['+49 431 – 5 36 22 67']);
    assert.deepEqual(phonesInLine('Tel. 0431 – 5362267').map((p) => p.raw), ['0431 – 5362267']);
    assert.deepEqual(phonesInLine('Anbauhöhe 1800 – 2000 Meter'), []);
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

describe('phonesInLine: numbers as real pages write them (issue 40, session 17)', () => {
  it('reads a vanity number as the digits it dials', () => {
    const digits = (line: string) => phonesInLine(line).map((p) => p.raw.replace(/\D/g, ''));
    assert.deepEqual(digits('Call 1-800-FLOWERS'), ['18003569377']);
    assert.deepEqual(digits('Call 1-800-Flowers today'), ['18003569377']);
    assert.deepEqual(digits('Call 1-800-MATTRESS'), ['18006288737']);
    assert.deepEqual(digits('1-800-356-9377 (1-800-FLOWERS)'), ['18003569377', '18003569377']);
    assert.deepEqual(digits('Call 1300 FINCAR'), ['1300346227']);
    assert.deepEqual(digits('PO Box 800 WESTPORT CT'), []);
    assert.deepEqual(digits('212 MADISON AVE'), []);
  });

  it('splits two numbers written one after the other, and a postcode from the number after it', () => {
    assert.deepEqual(phonesInLine('Phone (614) 555-0142 (614) 555-0143').map((p) => p.raw), ['(614) 555-0142', '(614) 555-0143']);
    assert.deepEqual(phonesInLine('1-202-933-8111 1-800-969-6853').map((p) => p.raw), ['1-202-933-8111', '1-800-969-6853']);
    // a ZIP code run into the number after it
    assert.deepEqual(phonesInLine('Charlotte, NC 28202 (855) 463-5490').map((p) => p.raw), ['(855) 463-5490']);
    assert.deepEqual(phonesInLine('+49 (0) 30 123 456 78').map((p) => p.raw), ['+49 (0) 30 123 456 78']);
  });

  it('reads a fax label written after the number', () => {
    assert.deepEqual(phonesInLine('(614) 555-0143 (fax)'), [{ raw: '(614) 555-0143', label: '(fax)' }]);
    assert.deepEqual(phonesInLine('(614) 555-0142 phone | (614) 555-0143 fax').map((p) => p.label), ['', '(fax)']);
    // before another number, a bare "Fax" labels that number
    assert.deepEqual(phonesInLine('0049 30 12345678 Fax 0049 30 12345679').map((p) => p.label), ['', 'Fax']);
  });
});

describe('choosePhone: labels and places of real pages (issue 40, session 17)', () => {
  it('never takes a number labelled fax, however abbreviated', () => {
    assert.equal(choosePhone([cand('(614) 555-0143', { label: 'F', chrome: true }), cand('(614) 555-0142', { label: 'P', chrome: true })], ['US'])?.e164, '+16145550142');
    assert.equal(choosePhone([cand('(614) 555-0143', { label: '(fax)', chrome: true }), cand('(614) 555-0142', { chrome: true })], ['US'])?.e164, '+16145550142');
  });

  it('prefers the site’s own number to a sponsor’s, a partner’s or one in a testimonial', () => {
    assert.equal(choosePhone([cand('(614) 555-0177', { label: 'Sponsored by Bob’s Tiles — call' }), cand('(614) 555-0142')], ['US'])?.e164, '+16145550142');
    assert.equal(choosePhone([cand('(614) 555-0199', { source: 'tel', label: 'Call', quoted: true }), cand('(614) 555-0142')], ['US'])?.e164, '+16145550142');
  });

  it('keeps a toll-free main line over the one for callers abroad', () => {
    const cands = [cand('(800) 828-4548', { source: 'tel', chrome: true }), cand('(800) 828-4548', { label: 'Toll Free Phone', chrome: true }), cand('+1-309-343-6181', { label: 'International Phone', chrome: true })];
    assert.equal(choosePhone(cands, ['US'])?.e164, '+18008284548');
    // a geographic line with no such label still wins over a toll-free one
    assert.equal(choosePhone([cands[0]!, cands[1]!, cand('(309) 343-6181', { label: 'Phone', chrome: true })], ['US'])?.e164, '+13093436181');
  });

  it('takes no number linked only for messages as the main line', () => {
    const cands = [cand('1-800-969-6853', { source: 'tel', chrome: true }), cand('1-202-933-8111', { label: 'Text:', chrome: true }), cand('1-202-933-8111', { chrome: true }), cand('1-202-933-8111', { chrome: true })];
    assert.equal(choosePhone(cands, ['US'], { messagingOnly: ['12029338111'] })?.e164, '+18009696853');
  });

  it('writes a +CC number the site dotted or wrote without spaces in groups', () => {
    assert.equal(choosePhone([cand('+44.20.7946.0958')], ['GB'])?.display, '+44 20 7946 0958');
    assert.equal(choosePhone([cand('+16145550142', { source: 'tel' })], ['US'])?.display, '+1 614 555 0142');
  });
});

describe('phonesInLine and choosePhone: fresh set C (fresh set C)', () => {
  it('reads a local number whose last four digits are spelled as a word in capitals', () => {
    assert.deepEqual(phonesInLine('Free consultation 212.555.SHOE today'), [{ raw: '212.555.7463', label: 'Free consultation' }]);
    assert.deepEqual(phonesInLine('(617) 555-DESK'), [{ raw: '(617) 555-3375', label: '' }]);
    // spaces between the groups: an address, not a number
    assert.deepEqual(phonesInLine('Suite 200 300 MAIN'), []);
  });

  it('adds a note in brackets after a number to its label', () => {
    assert.deepEqual(phonesInLine('Phone: 1-310-555-0100 (from overseas)'), [{ raw: '1-310-555-0100', label: 'Phone: (from overseas)' }]);
  });

  it('takes the toll-free line the site repeats when its local one is marked for callers from overseas', () => {
    const cands = [cand('888-555-0142', { label: 'Apply Now' }), cand('1-888-555-0142', { label: 'Phone: (toll-free)' }), cand('1-310-555-0100', { label: 'Phone: (from overseas)' }), cand('1-866-555-0143', { label: 'Fax: (toll-free)' })];
    assert.equal(choosePhone(cands, ['US'])?.e164, '+18885550142');
  });

  it('takes a freephone labelled as the telephone over a number labelled as a mobile', () => {
    const cands = [cand('0800 389 0000', { label: 'Telephone:' }), cand('07700 900123', { label: 'Mobile:' })];
    assert.equal(choosePhone(cands, ['GB'])?.e164, '+448003890000');
    // a landline still wins over the freephone
    assert.equal(choosePhone([...cands, cand('01689 555000', { label: 'Office:' })], ['GB'])?.e164, '+441689555000');
  });
});

describe('choosePhone: fresh set D (fresh set D)', () => {
  it('takes a number written both as the telephone and as the fax as the phone', () => {
    const cands = [cand('+34 963 555 010', { label: 'Teléfono:' }), cand('+34 963 555 010', { label: 'Fax:' })];
    assert.equal(choosePhone(cands, ['ES'])?.e164, '+34963555010');
    // a fax-only number stays out
    assert.equal(choosePhone([cand('+34 963 555 010', { label: 'Fax:' })], ['ES']), undefined);
  });

  it('reads "for our international customers" as a line for callers abroad, wherever it stands in the sentence', () => {
    const cands = [cand('888-555-0142', { label: 'Order by Phone:', chrome: true }), cand('888-555-0142', { label: 'Questions? Call us at' }), cand('714.555.0100', { label: 'For our international customers, please call' })];
    assert.equal(choosePhone(cands, ['US'])?.e164, '+18885550142');
  });

  it('takes the sales line over the support line when nothing else tells them apart', () => {
    const cands = [cand('888.555.0128', { label: 'Sales:', chrome: true }), cand('855.555.0177', { label: 'Support:', chrome: true })];
    assert.equal(choosePhone(cands, ['US'])?.e164, '+18885550128');
    assert.equal(choosePhone([cands[1]!, cands[0]!], ['US'])?.e164, '+18885550128');
  });

  it('keeps a toll-free number that is the site’s only line, held below the publish threshold', () => {
    const chosen = choosePhone([cand('(866) 555-0201', { label: 'Toll Free:' })], ['US']);
    assert.equal(chosen?.e164, '+18665550201');
    assert.ok(chosen && chosen.confidence >= 0.5 && chosen.confidence < 0.85);
    // beside a local line it still loses
    assert.equal(choosePhone([cand('(866) 555-0201', { label: 'Toll Free:' }), cand('(310) 555-0100', { label: 'Phone:' })], ['US'])?.e164, '+13105550100');
  });
});

describe('choosePhone: fresh set G (session 22)', () => {
  it('takes the general enquiries line over a department called corporate, and still prefers a corporate office', () => {
    const cands = [cand('0747 465 5338', { label: 'Corporate Events:', chrome: true }), cand('0736 526 6695', { label: 'General Enquires:', chrome: true })];
    assert.equal(choosePhone(cands, ['GB'])?.e164, '+447365266695');
    assert.equal(choosePhone([cands[1]!, cands[0]!], ['GB'])?.e164, '+447365266695');
    const office = [cand('0747 465 5338', { label: 'Corporate Office:', chrome: true }), cand('0736 526 6695', { label: 'Bookings:', chrome: true })];
    assert.equal(choosePhone(office, ['GB'])?.e164, '+447474655338');
    assert.equal(choosePhone([cand('0747 465 5338', { label: 'Corporate:', chrome: true }), cand('0736 526 6695', { label: 'Bookings:', chrome: true })], ['GB'])?.e164, '+447474655338');
  });
});
