import dns2, { UDPServer } from "dns2";

type RecordType = "TXT" | "A" | "AAAA" | "CNAME";

/** A real authoritative DNS server on a loopback UDP port, answering from a zone the test edits. */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`: what `SITEWRIGHT_DNS_SERVERS` / `config.domains.dnsServers` take. */
  readonly address: string;
  readonly port: number;
  /** Replaces the values of (name, type); an empty list removes them. */
  set(name: string, type: RecordType, values: readonly string[]): void;
  /** How many queries it has answered. */
  readonly queries: number;
  close(): Promise<void>;
}

const { Packet } = dns2;
const typeName = new Map<number, RecordType>([
  [Packet.TYPE.TXT, "TXT"],
  [Packet.TYPE.A, "A"],
  [Packet.TYPE.AAAA, "AAAA"],
  [Packet.TYPE.CNAME, "CNAME"],
]);

/** Starts the server on 127.0.0.1, port 0. Unknown names answer NXDOMAIN; known names without the type, no data. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, Map<RecordType, string[]>>();
  let queries = 0;
  const server = new UDPServer({ type: "udp4" });
  // dns2 types records as classes; its encoder takes plain objects.
  server.on("request", (request: any, send: (response: any) => void) => {
    queries++;
    const response: any = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = String(question.name).toLowerCase().replace(/\.$/, "");
    const records = zone.get(name);
    const type = typeName.get(question.type);
    if (!records) response.header.rcode = Packet.RCODE?.NXDOMAIN ?? 3;
    // A name holding a CNAME answers it for every type, as resolvers expect.
    const cname = records?.get("CNAME");
    const answerType = cname?.length ? "CNAME" : type;
    for (const value of (answerType && records?.get(answerType)) ?? []) {
      const base = { name: question.name, type: Packet.TYPE[answerType!], class: Packet.CLASS.IN, ttl: 1 };
      if (answerType === "TXT") response.answers.push({ ...base, data: value });
      else if (answerType === "CNAME") response.answers.push({ ...base, domain: value });
      else response.answers.push({ ...base, address: value });
    }
    send(response);
  });
  await server.listen(0, "127.0.0.1");
  const { port } = server.address();
  return {
    address: `127.0.0.1:${port}`,
    port,
    get queries() {
      return queries;
    },
    set(name, type, values) {
      const key = name.toLowerCase().replace(/\.$/, "");
      const records = zone.get(key) ?? new Map<RecordType, string[]>();
      if (values.length) records.set(type, [...values]);
      else records.delete(type);
      if (records.size) zone.set(key, records);
      else zone.delete(key);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
