import type { H3 } from "h3";
import type { Platform } from "../platform.ts";

/** The app host (`{app_url}`): accounts, the dashboard and its same-origin API calls. */
export function registerApp(_app: H3, _platform: Platform): void {}
