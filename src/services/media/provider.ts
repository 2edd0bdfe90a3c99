/** One reference image handed to a provider: the asset's bytes and its id (for the record). */
export interface ReferenceImage {
  assetId: string;
  bytes: Uint8Array;
}

/** What a generation asks for: the prompt, reference images, the size in pixels and how many images. */
export interface GenerateRequest {
  prompt: string;
  references: readonly ReferenceImage[];
  width: number;
  height: number;
  count: number;
}

/** What a provider returns: the image files, and who made them. */
export interface GenerateResult {
  images: Uint8Array[];
  /** `offline` or `openai`. */
  provider: string;
  /** The model that made the images (`offline-placeholder` for the offline provider). */
  model: string;
  /** True when the images are placeholders, not the output of an image model. */
  placeholder: boolean;
  /** A sentence for the agent about what the images are. */
  note: string;
}

/** An image generator: the built-in offline one or an adapter for an image model API. */
export interface ImageProvider {
  generate(request: GenerateRequest): Promise<GenerateResult>;
}

/**
 * How media generation runs: the offline placeholder provider (the default; no key), or an image model API
 * speaking the OpenAI Images wire format (`POST <apiUrl>/images/generations`). The CLI reads
 * `SITEWRIGHT_IMAGE_API_URL`, `SITEWRIGHT_IMAGE_API_KEY` and `SITEWRIGHT_IMAGE_MODEL`.
 */
export type MediaConfig =
  | { provider: "offline" }
  | { provider: "openai"; apiUrl: string; apiKey: string; model: string; timeoutMs: number };

export const defaultMediaConfig = (): MediaConfig => ({ provider: "offline" });
