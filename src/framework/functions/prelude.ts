/**
 * The guest side of a server function run, evaluated in QuickJS before the function's bundle: minimal
 * web-standard `Headers`, `Request` and `Response` (text bodies), `console` and `log` writing to the run's capped
 * log, and `fetch` over the one host function `__host_fetch` (the host's SSRF-safe fetch). `__sw_run` calls the
 * function's `http` export and answers its Response as JSON; `__sw_logs` hands back the log.
 */
export const FUNCTION_PRELUDE = String.raw`(() => {
  const limits = globalThis.__sw_limits;
  const logs = [];
  let dropped = 0;
  let logBytes = 0;
  const text = (value) => {
    if (typeof value === "string") return value;
    if (value instanceof Error) return value.name + ": " + value.message;
    try { return JSON.stringify(value) ?? String(value); } catch { return String(value); }
  };
  const log = (...args) => {
    if (logs.length >= limits.logLines || logBytes >= limits.logBytes) { dropped++; return; }
    const line = args.map(text).join(" ").slice(0, limits.logLineChars);
    logBytes += line.length;
    logs.push(line);
  };
  globalThis.console = { log, info: log, warn: log, error: log, debug: log };
  class Headers {
    constructor(init) {
      this._m = new Map();
      if (!init) return;
      const entries = init instanceof Headers ? init._m : Array.isArray(init) ? init : Object.entries(init);
      for (const [k, v] of entries) this.append(k, v);
    }
    get(k) { const v = this._m.get(String(k).toLowerCase()); return v === undefined ? null : v; }
    set(k, v) { this._m.set(String(k).toLowerCase(), String(v)); }
    append(k, v) { const key = String(k).toLowerCase(); const p = this._m.get(key); this._m.set(key, p === undefined ? String(v) : p + ", " + v); }
    has(k) { return this._m.has(String(k).toLowerCase()); }
    delete(k) { this._m.delete(String(k).toLowerCase()); }
    forEach(f) { for (const [k, v] of this._m) f(v, k, this); }
    entries() { return this._m.entries(); }
    keys() { return this._m.keys(); }
    values() { return this._m.values(); }
    [Symbol.iterator]() { return this._m.entries(); }
  }
  const bodyText = (body) => (body == null ? "" : typeof body === "string" ? body : String(body));
  class Body {
    text() { return Promise.resolve(this._body); }
    json() { return Promise.resolve(this._body).then((t) => JSON.parse(t)); }
  }
  class Request extends Body {
    constructor(input, init = {}) {
      super();
      const from = input instanceof Request ? input : undefined;
      this.url = from ? from.url : String(input);
      this.method = String(init.method ?? (from ? from.method : "GET")).toUpperCase();
      this.headers = new Headers(init.headers ?? (from ? from.headers : undefined));
      this._body = init.body != null ? bodyText(init.body) : from ? from._body : "";
    }
  }
  class Response extends Body {
    constructor(body, init = {}) {
      super();
      this._body = bodyText(body);
      this.status = init.status ?? 200;
      this.statusText = init.statusText ?? "";
      this.headers = new Headers(init.headers);
      this.ok = this.status >= 200 && this.status < 300;
    }
    static json(data, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      return new Response(JSON.stringify(data), { ...init, headers });
    }
  }
  const hostFetch = globalThis.__host_fetch;
  const fetch = (input, init = {}) => {
    const req = new Request(input, init);
    const sent = JSON.stringify({ url: req.url, method: req.method, headers: [...req.headers._m], body: req._body });
    return hostFetch(sent).then((json) => {
      const r = JSON.parse(json);
      const res = new Response(r.body, { status: r.status, headers: r.headers });
      res.url = r.url;
      return res;
    });
  };
  Object.assign(globalThis, { Headers, Request, Response, fetch });
  globalThis.__sw_run = (requestJson, envJson) => {
    const r = JSON.parse(requestJson);
    const request = new Request(r.url, { method: r.method, headers: r.headers, body: r.body });
    const env = Object.freeze(JSON.parse(envJson));
    const fn = globalThis.__sw_function;
    if (!fn || typeof fn.http !== "function") {
      throw new TypeError("the function file must export http(request, { env, log, fetch })");
    }
    return Promise.resolve(fn.http(request, { env, log, fetch })).then((res) => {
      if (!(res instanceof Response)) throw new TypeError("http() must return a Response (new Response(body, { status, headers }))");
      return JSON.stringify({ status: res.status, headers: [...res.headers._m], body: res._body });
    });
  };
  globalThis.__sw_logs = () => JSON.stringify({ logs, dropped });
})();
`;
