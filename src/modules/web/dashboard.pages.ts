import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';

/**
 * Page objects for the dashboard's browser journeys (dashboard.browser.test.ts): each screen is
 * reached and driven the way a person using a screen reader would, by roles, names and labels.
 */
export class PromoCodesScreen {
  constructor(private readonly page: Page) {}

  async open(base: string): Promise<void> {
    await this.page.goto(`${base}/admin/promo-codes`);
    await this.heading.waitFor();
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { name: 'Promo codes', level: 1 });
  }

  get form(): Locator {
    return this.page.getByRole('form', { name: 'New promo code' });
  }

  /** Opens or folds the "New promo code" section (a <details>). */
  async toggleNew(): Promise<void> {
    await this.page.locator('summary', { hasText: 'New promo code' }).click();
  }

  /** The table row of a code (codes are shown in capitals). */
  row(code: string): Locator {
    return this.page.getByRole('row').filter({ has: this.page.getByRole('cell').getByText(code, { exact: true }) });
  }

  get rows(): Locator {
    return this.page.locator('tbody tr');
  }

  async fillNew(o: { code: string; description?: string; percentOff?: string; months?: string; maxRedemptions?: string }): Promise<void> {
    await this.form.getByLabel('Code').fill(o.code);
    if (o.description !== undefined) await this.form.getByLabel('Description (optional)').fill(o.description);
    await this.form.getByLabel('Discount').selectOption('percent');
    if (o.percentOff !== undefined) await this.form.getByLabel('Percent off').fill(o.percentOff);
    if (o.months !== undefined) {
      await this.form.getByLabel('Duration').selectOption('repeating');
      await this.form.getByLabel('Months').fill(o.months);
    }
    if (o.maxRedemptions !== undefined) await this.form.getByLabel('Maximum redemptions (optional)').fill(o.maxRedemptions);
  }

  async submitNew(): Promise<void> {
    await this.form.getByRole('button', { name: 'Create promo code' }).click();
  }

  async deactivate(code: string): Promise<void> {
    await this.row(code).getByRole('button', { name: 'Deactivate' }).click();
    await this.page.getByRole('dialog', { name: `Deactivate ${code}?` }).getByRole('button', { name: 'Deactivate' }).click();
  }
}

export class ScansScreen {
  constructor(private readonly page: Page) {}

  async open(base: string, companyId: string): Promise<void> {
    await this.page.goto(`${base}/app/companies/${companyId}/scans`);
    await this.page.getByRole('heading', { name: 'Agent-readiness scans' }).waitFor();
  }

  get score(): Locator {
    return this.page.getByRole('heading', { name: /^Score/ });
  }

  get findings(): Locator {
    return this.page.getByRole('table').filter({ has: this.page.getByRole('columnheader', { name: 'What to do' }) });
  }

  finding(title: string): Locator {
    return this.findings.getByRole('row').filter({ hasText: title });
  }

  /** Prepares the agent files and downloads the ZIP; resolves to its bytes and suggested name. */
  async downloadAgentFiles(): Promise<{ bytes: Buffer; filename: string }> {
    await this.page.getByRole('button', { name: 'Prepare agent files' }).click();
    const link = this.page.getByRole('link', { name: 'Download agent files (ZIP)' });
    await link.waitFor();
    const [download] = await Promise.all([this.page.waitForEvent('download'), link.click()]);
    return { bytes: await readFile((await download.path())!), filename: download.suggestedFilename() };
  }
}
