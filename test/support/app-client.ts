// A scripted browser for the app host's server-rendered pages: a cookie jar, form posts and CSRF fields.
import { SESSION_COOKIE } from "../../src/auth/authenticate.ts";

export interface AppPage {
  status: number;
  headers: Headers;
  /** Location of a redirect, if any. */
  location: string | null;
  html: string;
  /** The `csrf` field of the page's first form, if it has one. */
  csrf: string | undefined;
  /** The Set-Cookie values of the response. */
  setCookies: string[];
}

export interface PostOptions {
  /** The `csrf` field: the last page's by default; false sends none. */
  csrf?: string | false;
  /** Extra headers; `origin` defaults to the client's origin (what a browser sends on a form post). */
  headers?: Record<string, string>;
}

/** Fetches app pages like a browser that keeps cookies (never following redirects). */
export class AppClient {
  readonly cookies = new Map<string, string>();
  lastCsrf: string | undefined;

  constructor(
    private readonly fetcher: (path: string, init?: RequestInit) => Promise<Response>,
    readonly origin: string,
  ) {}

  get session(): string | undefined {
    return this.cookies.get(SESSION_COOKIE);
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(path: string, init: RequestInit = {}): Promise<AppPage> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", this.cookieHeader());
    const response = await this.fetcher(path, { ...init, headers, redirect: "manual" });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0\b/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = await response.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (csrf) this.lastCsrf = csrf;
    return {
      status: response.status,
      headers: response.headers,
      location: response.headers.get("location"),
      html,
      csrf,
      setCookies,
    };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<AppPage> {
    return this.request(path, { headers });
  }

  post(path: string, fields: Record<string, string>, options: PostOptions = {}): Promise<AppPage> {
    const body = new URLSearchParams(fields);
    const csrf = options.csrf === undefined ? this.lastCsrf : options.csrf;
    if (csrf !== false && csrf !== undefined) body.set("csrf", csrf);
    return this.request(path, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: this.origin,
        ...options.headers,
      },
      body: body.toString(),
    });
  }

  /** Opens the sign-up page and creates an account; returns the final response (a redirect when it worked). */
  async signUp(email: string, password: string, name = "Test User"): Promise<AppPage> {
    await this.get("/signup");
    return this.post("/signup", { name, email, password });
  }

  async signIn(email: string, password: string, next?: string): Promise<AppPage> {
    await this.get("/signin");
    return this.post("/signin", { email, password, ...(next === undefined ? {} : { next }) });
  }
}

/** The text of a page's flash message (the first one), whitespace collapsed. */
export function flashText(page: AppPage): string | undefined {
  const match = /<div class="flash[^"]*"[^>]*>([\s\S]*?)<\/div><\/div>/.exec(page.html);
  if (!match) return undefined;
  return match[1]!
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
