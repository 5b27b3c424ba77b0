import { iconSvg } from '@/lib/catalog/icons';

/**
 * A coin's or network's icon (`/icons/coin/BTC.svg`, `/icons/network/tron.svg`; lib/catalog/icons.ts),
 * one small cached file each, so a page loads only the icons it shows.
 */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ kind: string; file: string }> },
): Promise<Response> {
  const { kind, file } = await params;
  const svg = iconSvg(kind, file);
  if (svg === null)
    return new Response('Not found.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(svg, {
    headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=604800' },
  });
}
