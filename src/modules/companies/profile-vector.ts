import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';

/** What a profile's vector is made from (any stored company row or normalised input has these). */
export interface EmbeddableProfile {
  name: string;
  industry: string;
  category: string;
  keywords: string[];
  services: string[];
  description: string;
  city: string;
  country: string;
}

/**
 * The text a company is embedded from: what it does, in the words it uses. Name, category and
 * place are left out on purpose: the keyword side and the filters cover them, and in the
 * evaluation they diluted the vector (semantic-only nDCG@10 0.69 with them, 0.73 without).
 */
export function embeddingText(c: EmbeddableProfile): string {
  return [
    c.industry,
    c.keywords.join(', '),
    c.services.join(', '),
    c.description,
  ]
    .filter((s) => s?.trim())
    .join('. ')
    .slice(0, 2000) || fallbackEmbeddingText(c);
}

/** A stub profile (just claimed, not yet crawled) has no content yet: embed what it does have. */
function fallbackEmbeddingText(c: { name: string; category: string }): string {
  return [c.name, c.category].filter((s) => s?.trim()).join('. ') || 'company';
}

/** The company's tags as one short text, embedded on its own next to the full text ('' when it has none). */
export function tagsText(c: { keywords: string[] }): string {
  return c.keywords.map((k) => k.trim()).filter(Boolean).join(', ');
}

/** Weight of the tags' own vector added to the full text's vector (embedProfiles). */
export const TAGS_VECTOR_WEIGHT = 0.4;

/**
 * Profile vectors: the full text's vector plus TAGS_VECTOR_WEIGHT × the vector of the tags alone,
 * renormalised to unit length (one vector per company, so the index and pgvector are unchanged).
 * Why: the model mean-pools at most 128 tokens, so in a long profile the few words a customer
 * would type are a small share of the vector; embedded alone, the tags speak at full strength.
 * In the evaluation (`npm run eval:search`, public queries) this took hybrid nDCG@10 from 0.898
 * to 0.908 and semantic-type queries from 0.789 to 0.808; weights from 0.25 to 0.5 all gave
 * 0.905–0.908 (0.75 and 1 fell back to 0.902 and 0.898: the tags then drown the description).
 * Both texts of every profile go to the provider in one call.
 */
export async function embedProfiles(embeddings: EmbeddingProvider, profiles: EmbeddableProfile[]): Promise<number[][]> {
  const texts = profiles.map((p) => embeddingText(p));
  const tags = profiles.map((p) => tagsText(p));
  const withTags = tags.filter(Boolean);
  const vectors = await embeddings.embed([...texts, ...withTags]);
  let t = texts.length;
  return profiles.map((_, i) => {
    const text = vectors[i]!;
    if (!tags[i]) return text;
    return blendUnit(text, vectors[t++]!, TAGS_VECTOR_WEIGHT);
  });
}

/** a + weight × b, scaled to unit length (a when the sum is degenerate). */
export function blendUnit(a: number[], b: number[], weight: number): number[] {
  const out = new Array<number>(a.length);
  let norm = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! + weight * b[i]!;
    out[i] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (!(norm > 1e-12)) return a;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
}
