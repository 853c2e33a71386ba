/*
 * Real JPEGs of a (drawn) car for photo tests, made with sharp from SVG:
 * sky, road and a car in the given colour. 1280×800, above the 640×360 minimum.
 */
import sharp from 'sharp'

export async function carPhoto(
  colour = '#9aa3ad',
  view = 0,
  width = 1280,
  height = 800
): Promise<Buffer> {
  const x = [180, 120, 240][view % 3]
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800" viewBox="0 0 1280 800">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#bcd7f0"/><stop offset="1" stop-color="#eef4fa"/></linearGradient>
    <linearGradient id="body" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${colour}"/><stop offset="1" stop-color="#3d444c"/></linearGradient>
  </defs>
  <rect width="1280" height="800" fill="url(#sky)"/>
  <rect y="560" width="1280" height="240" fill="#6b7179"/>
  <rect y="660" width="1280" height="10" fill="#e8e8e8"/>
  <g transform="translate(${x},0)">
    <path d="M60 520 Q70 430 200 410 L330 330 Q380 300 470 300 L640 300 Q720 300 780 350 L860 410 Q960 420 980 470 L990 520 Q990 560 950 560 L100 560 Q60 560 60 520 Z" fill="url(#body)"/>
    <path d="M360 345 L470 320 L600 320 L600 410 L290 410 Z" fill="#cfe3f5" opacity="0.9"/>
    <path d="M620 320 L690 320 Q730 322 770 360 L820 410 L620 410 Z" fill="#cfe3f5" opacity="0.9"/>
    <rect x="930" y="455" width="45" height="22" rx="6" fill="#fff6c2"/>
    <circle cx="260" cy="560" r="78" fill="#1d2125"/><circle cx="260" cy="560" r="40" fill="#b9bfc6"/>
    <circle cx="800" cy="560" r="78" fill="#1d2125"/><circle cx="800" cy="560" r="40" fill="#b9bfc6"/>
  </g>
</svg>`
  return sharp(Buffer.from(svg)).resize(width, height).jpeg({ quality: 85 }).toBuffer()
}
