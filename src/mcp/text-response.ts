import { FastResponse } from "srvx";

/**
 * An answer built from a text (srvx's FastResponse: on node:http the text is written as it is, with a
 * `Content-Length`). In-process (`app.fetch`), its first `text()` or `json()` hands over that text itself, without
 * the UTF-8 encode, web stream and decode of a native Response. Any other read of the body (`body`, `bodyUsed`,
 * `clone()`, `arrayBuffer()`, …) goes through a native Response built then from the same body, status and headers,
 * after which the text is no longer handed over; the body still reads once (after the hand-over the native body
 * counts as used). With `bytes` (the text's UTF-8 bytes), those are what node:http writes and what the native
 * Response holds. Only public members are relied on: FastResponse's constructor, status and headers (srvx's node
 * adapter writes the answer through FastResponse's own node hook), and the standard Response API.
 */
export class TextResponse extends FastResponse {
  #text: string | undefined;
  readonly #body: string | Uint8Array<ArrayBuffer>;
  #native: Response | undefined;

  constructor(text: string, init: ResponseInit, bytes?: Uint8Array<ArrayBuffer>) {
    const body = bytes ?? text;
    super(body, init);
    this.#body = body;
    this.#text = text;
  }

  override text(): Promise<string> {
    const text = this.#take();
    return text === undefined ? this.#response().text() : Promise.resolve(text);
  }

  override json(): Promise<any> {
    const text = this.#take();
    return text === undefined ? this.#response().json() : new Promise((resolve) => resolve(JSON.parse(text)));
  }

  override get body(): Response["body"] {
    return this.#response().body;
  }

  override get bodyUsed(): boolean {
    return this.#response().bodyUsed;
  }

  override clone(): Response {
    return this.#response().clone();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#response().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#response().blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#response().bytes();
  }

  override formData(): Promise<FormData> {
    return this.#response().formData();
  }

  /** The text, once, while the native Response has not been built. */
  #take(): string | undefined {
    const text = this.#text;
    this.#text = undefined;
    return text;
  }

  /** The native Response, built on first use; if the text was handed over already, its body is spent. */
  #response(): Response {
    if (this.#native) return this.#native;
    const handedOver = this.#text === undefined;
    this.#text = undefined;
    this.#native = new Response(this.#body, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
    if (handedOver) void this.#native.body?.cancel();
    return this.#native;
  }
}
