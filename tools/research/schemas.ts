import { z } from "zod";
import { WAIT_UNTIL } from "../../src/services/research/session.ts";

export const pageUrl = () =>
  z
    .string()
    .min(1)
    .max(2000)
    .describe("Absolute http(s) URL of a public web page (private and internal addresses are refused).");

export const waitUntil = () =>
  z
    .enum(WAIT_UNTIL)
    .default("load")
    .describe(
      'When the page counts as loaded: "load" (default), "domcontentloaded" (faster, for pages whose images never finish), or "networkidle".',
    );
