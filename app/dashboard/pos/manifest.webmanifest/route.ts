/** The point of sale as an installable web app (a phone or tablet at the counter). */
export function GET(): Response {
  return Response.json(
    {
      name: 'Point of sale',
      short_name: 'POS',
      start_url: '/dashboard/pos',
      scope: '/dashboard/pos',
      display: 'standalone',
      orientation: 'portrait',
      background_color: '#ffffff',
      theme_color: '#047857',
      icons: [{ src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' }],
    },
    { headers: { 'content-type': 'application/manifest+json', 'cache-control': 'public, max-age=3600' } },
  );
}
