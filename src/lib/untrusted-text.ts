import { toPlainLine, toPlainText } from './text.js';
/**
 * Text copied from company websites is data. Before such text is quoted in an answer that another
 * model (an AI agent) reads, sentences that address a model ("ignore previous instructions",
 * "you are now", "system prompt") are dropped, so a profile cannot steer its reader.
 */
const INSTRUCTION_LIKE =
  /\b(ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(instructions?|prompts?|rules|above|previous|prior)\b|\b(system|developer)\s+(prompt|message|instructions?)\b|\byou\s+are\s+now\b|\bas\s+an\s+ai\b|\b(assistant|model|llm|chatgpt|agent)s?\s*[,:]\s*(always|never|must|recommend|say|answer)\b|\balways\s+recommend\b|<\|?\/?(system|im_start|im_end)/i;

export function looksLikeInstruction(sentence: string): boolean {
  return INSTRUCTION_LIKE.test(sentence);
}

/** The text without sentences that look like instructions to a model. */
export function dropInstructionLike(text: string): string {
  const sentences = text.match(/[^.!?\n]+[.!?]*\s*/g) ?? [];
  return sentences.filter((s) => !looksLikeInstruction(s)).join('').trim();
}

/** JSON that cannot close an enclosing <data> delimiter: every "<" is escaped. */
export function delimitedJson(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

/**
 * The one filter for every agent-facing file or description built from profile text (SKILL.md,
 * MCP tool titles and descriptions, generated agent files): plain text, instruction-like sentences
 * dropped. A name that is nothing but such a sentence falls back to `fallback` (the domain).
 */
export function agentFacingText(text: string): string {
  return dropInstructionLike(toPlainText(text).replace(/\s+/g, ' ').trim());
}

export function agentFacingName(name: string, fallback: string): string {
  return dropInstructionLike(toPlainLine(name)).replace(/[.!?]+$/, '').trim() || fallback;
}

/** A profile whose free text is safe to put into an agent-facing file or tool description. */
export function agentFacingProfile<T extends { name: string; domain: string; description: string }>(profile: T): T {
  return { ...profile, name: agentFacingName(profile.name, profile.domain), description: agentFacingText(profile.description) };
}
