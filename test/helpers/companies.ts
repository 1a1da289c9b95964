import { randomBytes } from 'node:crypto';
import type { App } from '../../src/platform/http.js';
import type { CompanyInput } from '../../src/modules/companies/companies.schemas.js';

let counter = 0;
/** A valid company input with unique website; override what the test cares about. */
export function companyFixture(overrides: Partial<CompanyInput> = {}): CompanyInput {
  counter++;
  return {
    name: `Fixture Company ${counter}`,
    website_url: `https://fixture-${counter}-${randomBytes(3).toString('hex')}.example.com`,
    category: 'Technology',
    industry: 'Software development',
    description: 'We build custom web applications for small businesses.',
    country: 'Germany',
    city: 'Berlin',
    address: 'Hauptstrasse 1, 10115 Berlin',
    service_type: 'remote',
    is_verified: true,
    keywords: ['web apps', 'software'],
    ...overrides,
  };
}

export async function seedCompanies(app: App, inputs: CompanyInput[]): Promise<string[]> {
  const result = await app.services.companies.upsertMany(inputs);
  return result.ids;
}
