// The languages a company serves customers in, picked by name; stored as ISO 639-1 codes, as agents filter by them.
const COMMON = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da', 'no', 'fi', 'cs', 'hu', 'ro', 'el', 'tr', 'ru', 'uk', 'ar', 'he', 'hi', 'zh', 'ja', 'ko'];

const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'language' }) : undefined;
export const languageName = (code: string) => {
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
};

export function LanguagePicker({ value, onChange }: { value: string[]; onChange: (codes: string[]) => void }) {
  // Codes the company has that the common list does not name (read by a crawl, say) stay listed and can be unticked.
  const shown = [...COMMON, ...value.filter((c) => !COMMON.includes(c))];
  const flip = (code: string) => onChange(value.includes(code) ? value.filter((c) => c !== code) : [...value, code]);
  return (
    <fieldset>
      <legend>Languages you serve customers in</legend>
      <div className="checks">
        {shown.map((code) => (
          <label key={code} className="check">
            <input type="checkbox" checked={value.includes(code)} onChange={() => flip(code)} /> {languageName(code)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
