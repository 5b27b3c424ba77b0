import type { Config } from 'tailwindcss';

// Tailwind v4 reads this through `@config` in app/globals.css.
export default {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  darkMode: 'media',
  theme: { extend: {} },
} satisfies Config;
