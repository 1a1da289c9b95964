import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interpretInstruction, splitClauses } from './ai-edit-rules.js';

const current = { description: 'We fix roofs', keywords: ['roofing', 'cheap'], services: ['Roof repair', 'Welding'], languages: ['en'] };

const understood: [string, Record<string, unknown>][] = [
  ['set email to info@acme.com', { contact_email: 'info@acme.com' }],
  ['Change the phone number to +49 30 999', { phone: '+49 30 999' }],
  ['replace the phone number with "+43 1 234"', { phone: '+43 1 234' }],
  ['drop the old phone number', { phone: null }],
  ['remove the email', { contact_email: null }],
  ['our city is now Munich', { city: 'Munich' }],
  ['update name to Acme Roofing GmbH', { name: 'Acme Roofing GmbH' }],
  ['set service type to Hybrid', { service_type: 'hybrid' }],
  ['set founded year to 1999', { founded_year: 1999 }],
  ['change the category to Construction & Home Services', { category: 'Construction & Home Services' }],
  ['set keywords to tiles, slate and gutters', { keywords: ['tiles', 'slate', 'gutters'] }],
  ['add service Gutter cleaning and Chimney repair', { services: ['Roof repair', 'Welding', 'Gutter cleaning', 'Chimney repair'] }],
  ['add SEO as a keyword', { keywords: ['roofing', 'cheap', 'SEO'] }],
  ['remove keyword cheap', { keywords: ['roofing'] }],
  ['Drop Welding from services', { services: ['Roof repair'] }],
  ['add German as a language', { languages: ['en', 'de'] }],
  ['add language fr', { languages: ['en', 'fr'] }],
  ['remove language English', { languages: [] }],
  ['we now also serve Austria', { keywords: ['roofing', 'cheap', 'Austria'] }],
  ['We no longer serve cheap', { keywords: ['roofing'] }],
  ['say we are ISO 27001 certified', { description: 'We fix roofs. We are ISO 27001 certified.' }],
  ['clear the address', { address: '' }],
  [
    'we now also serve Austria; drop the old phone number; say we are ISO 27001 certified',
    { keywords: ['roofing', 'cheap', 'Austria'], phone: null, description: 'We fix roofs. We are ISO 27001 certified.' },
  ],
  ['We now also serve Austria, add keyword tiles and set service type to remote', { keywords: ['roofing', 'cheap', 'Austria', 'tiles'], service_type: 'remote' }],
];

const refused: [string, RegExp][] = [
  ['make us famous', /not understood/],
  ['set website to other.com', /cannot be changed/],
  ['mark us as verified', /not understood/],
  ['set verified to true', /verification is granted by administrators/],
  ['remove keyword nonexistent', /not among your keywords/],
  ['add language Klingon', /not a language/],
  ['set founded year to last year', /four-digit year/],
  ['drop the name', /cannot be empty/],
  ['   ', /empty/],
];

describe('AI-edit rules interpreter', () => {
  for (const [instruction, expected] of understood) {
    it(`understands: ${instruction}`, () => {
      const r = interpretInstruction(instruction, current);
      assert.equal(r.ok, true, JSON.stringify(r));
      if (r.ok) assert.deepEqual(r.changes, expected);
    });
  }
  for (const [instruction, reason] of refused) {
    it(`refuses: ${JSON.stringify(instruction)}`, () => {
      const r = interpretInstruction(instruction, current);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.problems.map((p) => p.reason).join(' | '), reason);
    });
  }
  it('does not mutate the current profile', () => {
    interpretInstruction('add service X; remove keyword cheap', current);
    assert.deepEqual(current.services, ['Roof repair', 'Welding']);
    assert.deepEqual(current.keywords, ['roofing', 'cheap']);
  });
  it('splits clauses at ; new lines, sentence ends and command words only', () => {
    assert.deepEqual(splitClauses('set email to a@b.co. add service A, B and C\nremove keyword x'), ['set email to a@b.co', 'add service A, B and C', 'remove keyword x']);
  });
});
