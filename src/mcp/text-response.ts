import { FastResponse } from "srvx";

/** srvx's FastResponse, with the native Response it builds on first use (`_response`, not in its types). */
const Base = FastResponse as unknown as new (
  body: string | Uint8Array,
  init: ResponseInit,
) => Response & { get _response(): Response };

/**
 * An answer built from a text (srvx's FastResponse: on node:http the text is written as it is, with a
 * `Content-Length`). In-process (`app.fetch`), its first `text()` or `json()` hands over that text itself, without
 * the UTF-8 encode, web stream and decode of a native Response. Anything else (`body`, `bodyUsed`, `clone()`,
 * `arrayBuffer()`, …) goes through the native Response, after which the text is no longer handed over; the body
 * still reads once (after the hand-over the native body counts as used). With `bytes` (the text's UTF-8 bytes), those
 * are what node:http writes and what the native Response holds.
 */
export class TextResponse extends Base {
  #text: string | undefined;
  #used = false;

  constructor(text: string, init: ResponseInit, bytes?: Uint8Array) {
    super(bytes ?? text, init);
    this.#text = text;
  }

  /** The native Response (srvx builds it on first use); once the text was handed over, its body is spent too. */
  override get _response(): Response {
    const response = super._response;
    this.#text = undefined;
    if (this.#used && !response.bodyUsed) void response.body?.cancel();
    return response;
  }

  override text(): Promise<string> {
    const text = this.#take();
    return text === undefined ? this._response.text() : Promise.resolve(text);
  }

  override json(): Promise<any> {
    const text = this.#take();
    return text === undefined ? this._response.json() : new Promise((resolve) => resolve(JSON.parse(text)));
  }

  /** The text, once, while the native Response has not been built. */
  #take(): string | undefined {
    const text = this.#text;
    if (text !== undefined) {
      this.#text = undefined;
      this.#used = true;
    }
    return text;
  }
}
