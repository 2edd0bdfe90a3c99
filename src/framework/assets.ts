/**
 * Source of the `sitewright:assets` module that website code imports: responsive images of uploaded assets.
 * `Image` writes `src`, `srcset`, `sizes`, `width`, `height` and `alt`; the `srcset` names resized variants
 * (`?w=<width>&format=<format>`) that hosting makes on first request and caches (src/services/assets/variants.ts).
 * An asset is given as its path or URL (`/_assets/<sha256>/<name>`, from assets_upload) or as an object with
 * `path` or `url` and optionally `width`, `height` and `alt` (what assets_get returns).
 */
export const assetsModuleSource = `
import { h } from "preact";

const WIDTHS = [320, 480, 640, 768, 960, 1280, 1600, 1920, 2560];
const FORMATS = ["avif", "webp", "jpeg", "png"];

function describe(src) {
  if (typeof src === "string" && src !== "") return { url: src };
  if (src && typeof src === "object" && typeof (src.path ?? src.url) === "string") {
    return { url: src.path ?? src.url, width: src.width ?? undefined, height: src.height ?? undefined, alt: src.alt };
  }
  throw new TypeError("sitewright:assets: src must be an asset's path or URL, or an object with path or url");
}

/** The URL of a variant of an image asset: resized to width (never enlarged), in format, at quality. */
export function asset(src, options = {}) {
  const { url } = describe(src);
  const params = [];
  if (options.width) params.push("w=" + Math.round(options.width));
  if (options.format) {
    if (!FORMATS.includes(options.format)) throw new TypeError("sitewright:assets: format must be one of " + FORMATS.join(", "));
    params.push("format=" + options.format);
  }
  if (options.quality) params.push("q=" + Math.round(options.quality));
  return params.length ? url + (url.includes("?") ? "&" : "?") + params.join("&") : url;
}

/** Widths to offer: the standard ones below the image's own width, then its own width. */
function widthsFor(intrinsic, widths) {
  const list = (widths ?? WIDTHS).filter((w) => !intrinsic || w < intrinsic);
  if (intrinsic && !list.includes(intrinsic)) list.push(intrinsic);
  return list.sort((a, b) => a - b);
}

/** A srcset of variants: "url?w=320&format=webp 320w, …". */
export function srcset(src, options = {}) {
  const { width } = describe(src);
  return widthsFor(options.intrinsicWidth ?? width, options.widths)
    .map((w) => asset(src, { width: w, format: options.format ?? "webp", quality: options.quality }) + " " + w + "w")
    .join(", ");
}

/**
 * A responsive <img>: props src (an asset), alt (else the asset's alt), width and height (else the asset's),
 * sizes (default "100vw"), widths, format (default webp), quality, and any other <img> attribute.
 */
export function Image(props) {
  const { src, alt, width, height, sizes, widths, format, quality, ...rest } = props;
  const info = describe(src);
  const w = width ?? info.width;
  const hgt = height ?? (info.width && info.height && w ? Math.round((info.height * w) / info.width) : info.height);
  const offered = widthsFor(info.width ?? w, widths);
  const fallback = offered.filter((x) => x <= 1280).pop() ?? offered[0];
  return h("img", {
    loading: "lazy",
    decoding: "async",
    ...rest,
    src: asset(src, { width: fallback, format: format ?? "webp", quality }),
    srcset: srcset(src, { intrinsicWidth: info.width ?? w, widths, format, quality }),
    sizes: sizes ?? "100vw",
    width: w,
    height: hgt,
    alt: alt ?? info.alt ?? "",
  });
}

export default Image;
`;
