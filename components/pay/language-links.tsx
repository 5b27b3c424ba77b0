/**
 * The language links of the payer's pages (payment page, invoice page): `?lang=` links, each
 * named in its own language, folded behind the current language's name (a <details> disclosure:
 * no script) so that twelve names do not push the QR code below a phone's fold. `keep` carries
 * query parameters the page needs in every language (`embed=1`).
 */
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@/lib/pay/i18n';
import type { Messages } from '@/lib/pay/messages';

export function LanguageLinks({
  current,
  m,
  keep = '',
}: {
  current: Language;
  m: Pick<Messages, 'language' | 'separators'>;
  keep?: string;
}) {
  return (
    <details className="relative text-sm" data-testid="languages">
      <summary className="cursor-pointer rounded-md border border-line-strong px-2 py-0.5">
        {/* The code alone ("PT"), named in full for screen readers: the header has room for little. */}
        <span className="sr-only">{`${m.language}${m.separators.label}`}</span>
        <span lang={current} className="sr-only">
          {LANGUAGE_NAMES[current]}
        </span>
        <span aria-hidden="true" className="font-medium uppercase">
          {current}
        </span>
      </summary>
      <nav
        aria-label={m.language}
        className="absolute end-0 z-10 mt-1 grid w-max grid-cols-2 gap-x-4 gap-y-1 rounded-md border border-line-strong bg-surface p-3 shadow-lg"
      >
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
    </details>
  );
}
