// Cyrillic letters in Latin ones, as GeoNames' romanised names spell them (BGN/PCGN for Russian, the national system for
// Ukrainian, told apart by Ukrainian's own letters і ї є ґ): a page that writes "г. Уфа" or "Київ" names Ufa or Kyiv,
// which GeoNames holds only in Latin letters.
const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o',
  п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e',
  ю: 'yu', я: 'ya', ў: 'u',
};
// Ukrainian: и is y, г is h; ї, є, ю, я and й start a word as yi, ye, yu, ya, y and are i, ie, iu, ia, i inside one
const UKRAINIAN: Record<string, string> = { и: 'y', г: 'h', ґ: 'g', і: 'i', щ: 'shch' };
const UKRAINIAN_IOTATED: Record<string, [string, string]> = { ї: ['yi', 'i'], є: ['ye', 'ie'], ю: ['yu', 'iu'], я: ['ya', 'ia'], й: ['y', 'i'] };
export const CYRILLIC_LETTER = /[\u0400-\u04ff]/;
const RUSSIAN_VOWEL = /[аеёиоуыэюяъь]/;

/** Text with its Cyrillic letters in Latin ones (lower case where it held any); other text as it is. */
export function romaniseCyrillic(text: string): string {
  if (!CYRILLIC_LETTER.test(text)) return text;
  const lower = text.toLowerCase();
  const ukrainian = /[іїєґ]/.test(lower);
  let out = '';
  for (let i = 0; i < lower.length; i++) {
    const ch = lower[i]!;
    const before = lower[i - 1];
    const starts = before === undefined || !CYRILLIC_LETTER.test(before);
    if (!CYRILLIC_LETTER.test(ch)) out += ch;
    else if (ukrainian && UKRAINIAN_IOTATED[ch]) out += UKRAINIAN_IOTATED[ch]![starts ? 0 : 1];
    else if (ukrainian && UKRAINIAN[ch]) out += UKRAINIAN[ch];
    // Russian е starts a word or follows a vowel as "ye" (Екатеринбург: Yekaterinburg)
    else if (!ukrainian && ch === 'е' && (starts || RUSSIAN_VOWEL.test(before!))) out += 'ye';
    else out += CYRILLIC[ch] ?? '';
  }
  return out;
}
