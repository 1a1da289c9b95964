/** One evaluation site: the pages a crawl would fetch and what a person reads on them. */
export interface EvalSite {
  /** The site's address, e.g. https://www.fincar.com.au/ */
  url: string;
  /** What makes the site hard, in a few words. */
  style: string;
  expected: {
    name: string;
    /** Other forms of the name a person would accept as right (real pages: the trade name and the firm's own longer form). */
    altNames?: string[];
    /** E.164, or null when the site shows no phone. */
    phone: string | null;
    city: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
    /** The weekly hours a person reads ({} when the site states none); only the hours sites carry it. */
    hours?: Record<string, [string, string][]>;
    /** What the company charges as a person reads it (null when the site states no price per unit); only the prices sites carry it. */
    price?: { from: number; to?: number; currency: string; unit: string } | null;
    /** The prices per service a person writes down, in the page's order ([] when it names none); only the service price sites carry it. */
    services?: { service: string; from: number; to?: number; currency: string; unit: string }[];
  };
  /** Path → HTML. */
  pages: Record<string, string>;
}
