import { ApiError } from "../../kernel/errors.ts";
import type { GenerateResult, ImageProvider } from "./provider.ts";

/** The largest answer read from the image model API (base64 images are large). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

interface ImagesAnswer {
  data?: { b64_json?: string }[];
  error?: { message?: string; type?: string; code?: string | null };
}

/** The answer's body as text, refused (and the rest not read) past MAX_ANSWER_BYTES. */
async function boundedText(response: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await response.body?.cancel().catch(() => {});
      throw new ApiError("internal", "The image model API's answer was too large; no credits were used.", {
        status: 502,
      });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The API's error message, from its documented error body `{ "error": { "message", "type", "code" } }`. */
function upstreamMessage(status: number, answer: ImagesAnswer | undefined): string {
  const error = answer?.error;
  const detail = error?.message ? `: ${error.message.slice(0, 300)}` : "";
  const code = error?.code ?? error?.type;
  return `The image model API answered ${status}${code ? ` (${code})` : ""}${detail}`;
}

/**
 * An adapter for an image model API that speaks the OpenAI Images wire format: `POST <apiUrl>/images/generations`
 * with `{ model, prompt, n, size: "WxH", response_format: "b64_json" }` and a bearer key; the answer's `data[]`
 * carries base64 images. The generations endpoint takes no images, so references are recorded with the result
 * but not sent. The URL is the operator's configuration, not user input.
 */
export function openAiProvider(config: {
  apiUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}): ImageProvider {
  return {
    async generate(request): Promise<GenerateResult> {
      const url = `${config.apiUrl.replace(/\/+$/, "")}/images/generations`;
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${config.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: config.model,
            prompt: request.prompt,
            n: request.count,
            size: `${request.width}x${request.height}`,
            response_format: "b64_json",
          }),
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      } catch (error) {
        throw new ApiError(
          "internal",
          `The image model API could not be reached (${(error as Error).name === "TimeoutError" ? "timed out" : (error as Error).message}); no credits were used.`,
          { status: 502, suggestion: "Retry later with exponential backoff." },
        );
      }
      const text = await boundedText(response);
      let answer: ImagesAnswer | undefined;
      try {
        answer = JSON.parse(text) as ImagesAnswer;
      } catch {
        answer = undefined;
      }
      if (!response.ok) {
        const message = `${upstreamMessage(response.status, answer)}; no credits were used.`;
        if (response.status === 400) {
          throw new ApiError("validation", `prompt: ${message}`, {
            suggestion: "Rephrase the prompt or change the size, then call media.generateImages again.",
          });
        }
        if (response.status === 429) {
          throw new ApiError("rate_limited", message, {
            retryAfterSeconds: Number(response.headers.get("retry-after")) || 30,
            suggestion: "Wait, then call media.generateImages again.",
          });
        }
        throw new ApiError("internal", message, {
          status: 502,
          suggestion: "Retry later with exponential backoff.",
        });
      }
      const images = (answer?.data ?? [])
        .map((item) => item.b64_json)
        .filter((b64): b64 is string => typeof b64 === "string")
        .map((b64) => new Uint8Array(Buffer.from(b64, "base64")));
      if (images.length === 0) {
        throw new ApiError("internal", "The image model API answered without images; no credits were used.", {
          status: 502,
          suggestion: "Retry later with exponential backoff.",
        });
      }
      return {
        images: images.slice(0, request.count),
        provider: "openai",
        model: config.model,
        placeholder: false,
        note:
          request.references.length > 0
            ? "Made by the configured image model. Its generation endpoint takes no images: the references were recorded with the assets, not sent."
            : "Made by the configured image model.",
      };
    },
  };
}
