/**
 * The signed-in dashboard's frame: skip link, the test-data band, the header (merchant, user,
 * role, test/live switch, sign-out) and the navigation. Server-rendered; the compact menu of
 * narrow screens is a disclosure (a `<details>`), which opens without JavaScript.
 *
 * The actions arrive as props (server actions from app/), since components/ may not import
 * server-only modules.
 */
import Link from 'next/link';
import type { ReactNode } from 'react';
import { MUTED } from './ui';
import type { Mode } from '@/lib/protocol';
import { Button } from '@/components/ui/button';
import { Disclosure } from '@/components/ui/disclosure';

export interface NavItem {
  href: string;
  label: string;
}

interface Props {
  merchantName: string;
  email: string;
  role: string;
  mode: Mode;
  nav: readonly NavItem[];
  switchMode: (form: FormData) => Promise<void>;
  signOut: (form: FormData) => Promise<void>;
  children: ReactNode;
}

function NavList({ nav, vertical }: { nav: readonly NavItem[]; vertical: boolean }) {
  return (
    <ul className={vertical ? 'flex flex-col gap-1' : 'flex flex-wrap gap-x-1 gap-y-1'}>
      {nav.map((item) => (
        <li key={item.href}>
          {/* No prefetch: every dashboard page is rendered per request for its session, so a prefetch
              of each entry on each page would only double the server's work. */}
          <Link
            href={item.href}
            prefetch={false}
            className="block rounded-md px-2 py-1.5 text-sm font-medium text-ink hover:bg-raised focus-ring"
          >
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Test data is marked on every screen, so that it is never taken for real money. */
function ModeBand({ mode }: { mode: Mode }) {
  if (mode === 'live') return null;
  return (
    <p data-testid="mode-band" className="bg-test-surface px-4 py-1 text-center text-sm font-semibold text-test-ink">
      Test data: you are viewing test mode. Nothing here is real money.
    </p>
  );
}

function ModeSwitch({ mode, switchMode }: { mode: Mode; switchMode: Props['switchMode'] }) {
  const other = mode === 'test' ? 'live' : 'test';
  return (
    <form action={switchMode} className="flex items-center gap-2">
      <input type="hidden" name="mode" value={other} />
      <span className="text-sm">
        Viewing{' '}
        <strong
          data-testid="mode"
          className={`rounded px-1.5 py-0.5 ${mode === 'test' ? 'bg-test-surface text-test-ink' : 'bg-good-surface text-good-ink'}`}
        >
          {mode === 'test' ? 'test data' : 'live data'}
        </strong>
      </span>
      <Button type="submit" variant="secondary">
        {`Switch to ${other}`}
      </Button>
    </form>
  );
}

export function DashboardFrame({ merchantName, email, role, mode, nav, switchMode, signOut, children }: Props) {
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:text-ink focus:shadow"
      >
        Skip to content
      </a>
      <ModeBand mode={mode} />
      <header className="border-b border-line px-4 py-3">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <p className="truncate text-lg font-semibold">{merchantName}</p>
            <p className={`truncate text-sm ${MUTED}`}>
              {email} · <span data-testid="role">{role}</span>
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <ModeSwitch mode={mode} switchMode={switchMode} />
            <form action={signOut}>
              <Button type="submit" variant="secondary">
                Sign out
              </Button>
            </form>
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-4 md:flex-row">
        {/* Narrow screens: a menu that opens without JavaScript. Only one of the two navigations is ever displayed. */}
        <Disclosure summary="Menu" className="md:hidden">
          <nav aria-label="Dashboard" className="px-2 pb-2">
            <NavList nav={nav} vertical />
          </nav>
        </Disclosure>
        <nav aria-label="Dashboard" className="hidden w-44 shrink-0 md:block">
          <NavList nav={nav} vertical />
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
          {children}
        </main>
      </div>
    </div>
  );
}
