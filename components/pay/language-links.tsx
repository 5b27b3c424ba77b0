/**
 * The language links of the payer's pages (payment page, invoice page): `?lang=` links, each
 * named in its own language. `keep` carries query parameters the page needs in every language
 * (`embed=1`).
 */
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@/lib/pay/i18n';

export function LanguageLinks({ current, label, keep = '' }: { current: Language; label: string; keep?: string }) {
  return (
    <nav aria-label={label} className="flex gap-2 text-sm">
      {LANGUAGES.map((code) => (
        <a
          key={code}
          href={`?lang=${code}${keep}`}
          lang={code}
          hrefLang={code}
          aria-current={code === current ? 'page' : undefined}
          className="underline aria-[current=page]:font-semibold aria-[current=page]:no-underline"
        >
          {LANGUAGE_NAMES[code]}
        </a>
      ))}
    </nav>
  );
}
