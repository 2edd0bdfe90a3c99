// Preloaded (`node --import`) into the MCP conformance CLI, which has no option for credentials: every HTTP
// request it makes to the server under test (its MCP client's fetch and its raw undici requests alike) carries
// `Authorization: Bearer $CONFORMANCE_BEARER`. Requests elsewhere are left alone. The dispatcher is undici's, as
// resolved from the conformance package itself, set as the process's global one (which fetch also uses).
import { createRequire } from "node:module";

const bearer = process.env.CONFORMANCE_BEARER;
const target = process.env.CONFORMANCE_TARGET_PORT;
if (!bearer || !target) throw new Error("Set CONFORMANCE_BEARER and CONFORMANCE_TARGET_PORT.");

const require = createRequire(import.meta.resolve("@modelcontextprotocol/conformance/dist/index.js"));
const { Agent, setGlobalDispatcher } = require("undici");

const isTarget = (origin) => new URL(String(origin)).port === target;

/** The request's headers with Authorization added, in the shape undici was given them (array or record). */
function withAuthorization(headers) {
  if (Array.isArray(headers)) {
    const flat = Array.isArray(headers[0]) ? headers.flat() : [...headers];
    return [...flat, "authorization", `Bearer ${bearer}`];
  }
  return { ...(headers ?? {}), authorization: `Bearer ${bearer}` };
}

setGlobalDispatcher(
  new Agent().compose(
    (dispatch) => (options, handler) =>
      dispatch(
        isTarget(options.origin) ? { ...options, headers: withAuthorization(options.headers) } : options,
        handler,
      ),
  ),
);
