import sharp from "sharp";
import type { GenerateRequest, GenerateResult, ImageProvider } from "./provider.ts";

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (ch) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[ch]!,
  );

/** The prompt wrapped into lines of at most `width` characters, at most `max` lines. */
function wrap(text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length > width && line) {
      lines.push(line);
      line = word.slice(0, width);
    } else line = next.slice(0, width);
    if (lines.length === max) break;
  }
  if (line && lines.length < max) lines.push(line);
  return lines;
}

/** One placeholder: the references side by side (dimmed), a label saying what it is, and the prompt's text. */
async function placeholder(request: GenerateRequest, index: number): Promise<Uint8Array> {
  const { width, height, references } = request;
  const tiles = [];
  if (references.length > 0) {
    const tileWidth = Math.max(1, Math.floor(width / references.length));
    for (const [i, reference] of references.entries()) {
      const input = await sharp(reference.bytes, { limitInputPixels: 40_000_000 })
        .resize(tileWidth, height, { fit: "cover" })
        .png()
        .toBuffer();
      tiles.push({ input, left: i * tileWidth, top: 0 });
    }
  }
  const size = Math.max(10, Math.round(Math.min(width, height) / 20));
  const perLine = Math.max(8, Math.floor(width / (size * 0.6)));
  const lines = wrap(request.prompt, perLine, Math.max(1, Math.floor(height / (size * 1.4)) - 3));
  const text = lines
    .map((line, i) => `<tspan x="${size}" dy="${i === 0 ? 0 : size * 1.3}">${escapeXml(line)}</tspan>`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="#1e293b" fill-opacity="${tiles.length ? 0.6 : 1}"/>
<text x="${size}" y="${size * 1.6}" font-family="sans-serif" font-size="${size}" font-weight="bold" fill="#fbbf24">PLACEHOLDER ${index + 1}/${request.count} (offline provider, not a model output)</text>
<text x="${size}" y="${size * 3.4}" font-family="sans-serif" font-size="${size}" fill="#f8fafc">${text}</text>
</svg>`;
  return sharp({ create: { width, height, channels: 3, background: "#94a3b8" } })
    .composite([...tiles, { input: Buffer.from(svg), left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/**
 * The built-in provider used when no image model is configured (`dev` with no key). It is honest: each image is
 * a placeholder that composes the reference images and the prompt's text, labelled as such on the image and in
 * the result's `note`; it never pretends to be a model.
 */
export const offlineProvider: ImageProvider = {
  async generate(request): Promise<GenerateResult> {
    const images: Uint8Array[] = [];
    for (let i = 0; i < request.count; i++) images.push(await placeholder(request, i));
    return {
      images,
      provider: "offline",
      model: "offline-placeholder",
      placeholder: true,
      note: "These are placeholders from the built-in offline provider, not the output of an image model: each one shows the reference images and the prompt's text. Configure an image model (SITEWRIGHT_IMAGE_API_URL, SITEWRIGHT_IMAGE_API_KEY) for real images.",
    };
  },
};
