// A tiny MaxMind DB (.mmdb) writer for tests, following the published format (version 2.0): a binary search tree
// of the address bits (IPv6, IPv4 networks under ::/96, 24-bit records), 16 zero bytes, the data section, then the
// metadata marker and map. Enough to build a country database of a few networks; no database is ever downloaded.
import { isIP } from "node:net";

type Value = string | number | bigint | Value[] | { [key: string]: Value };

function control(type: number, size: number): Buffer {
  const extended = type > 7;
  const [bits, extra] =
    size < 29
      ? [size, Buffer.alloc(0)]
      : size < 285
        ? [29, Buffer.from([size - 29])]
        : [30, Buffer.from([(size - 285) >> 8, (size - 285) & 0xff])];
  const head = Buffer.from(extended ? [bits, type - 7] : [(type << 5) | bits]);
  return Buffer.concat([head, extra]);
}

/** Encodes a value of the data section (strings, maps, arrays, unsigned integers). */
function encode(value: Value): Buffer {
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === "number" || typeof value === "bigint") {
    let n = BigInt(value);
    const bytes: number[] = [];
    while (n > 0n) {
      bytes.unshift(Number(n & 0xffn));
      n >>= 8n;
    }
    const type = typeof value === "bigint" ? 9 : bytes.length <= 2 ? 5 : 6;
    return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])]);
}

/** The bits of a network (`203.0.113.0/24`, `2001:db8::/32`) in the IPv6 tree. */
function bitsOf(network: string): number[] {
  const [address = "", length = ""] = network.split("/");
  const v4 = isIP(address) === 4;
  const bytes = v4
    ? [...Array(12).fill(0), ...address.split(".").map(Number)]
    : (() => {
        const [head = "", tail = ""] = address.split("::");
        const groups = (part: string) => (part ? part.split(":").map((g) => Number.parseInt(g, 16)) : []);
        const h = groups(head);
        const t = groups(tail);
        return [...h, ...Array(8 - h.length - t.length).fill(0), ...t].flatMap((g) => [g >> 8, g & 0xff]);
      })();
  const bits = bytes.flatMap((byte) => Array.from({ length: 8 }, (_, i) => (byte >> (7 - i)) & 1));
  return bits.slice(0, Number(length) + (v4 ? 96 : 0));
}

interface TreeNode {
  children: [TreeNode | number | null, TreeNode | number | null];
}

/** A MaxMind DB file answering `record` for each network (the most specific network wins when they nest). */
export function buildMmdb(networks: Record<string, Value>, databaseType = "Test-Country"): Buffer {
  const data: Buffer[] = [];
  let dataSize = 0;
  const root: TreeNode = { children: [null, null] };
  // Broader networks first, so a nested one splits their leaf and inherits their record on its other side.
  const sorted = Object.entries(networks)
    .map(([network, record]) => ({ bits: bitsOf(network), record }))
    .sort((a, b) => a.bits.length - b.bits.length);
  for (const { bits, record } of sorted) {
    const offset = dataSize;
    const bytes = encode(record);
    data.push(bytes);
    dataSize += bytes.length;
    let node = root;
    bits.forEach((bit, depth) => {
      if (depth === bits.length - 1) {
        node.children[bit as 0 | 1] = offset;
        return;
      }
      const next = node.children[bit as 0 | 1];
      if (typeof next === "object" && next !== null) {
        node = next;
      } else {
        const created: TreeNode = { children: [next, next] };
        node.children[bit as 0 | 1] = created;
        node = created;
      }
    });
  }
  const nodes: TreeNode[] = [];
  const number = new Map<TreeNode, number>();
  const queue = [root];
  while (queue.length > 0) {
    const node = queue.shift()!;
    number.set(node, nodes.length);
    nodes.push(node);
    for (const child of node.children) if (typeof child === "object" && child !== null) queue.push(child);
  }
  const count = nodes.length;
  const tree = Buffer.alloc(count * 6);
  nodes.forEach((node, i) => {
    node.children.forEach((child, side) => {
      const record =
        child === null ? count : typeof child === "number" ? count + 16 + child : number.get(child)!;
      tree.writeUIntBE(record, i * 6 + side * 3, 3);
    });
  });
  const metadata = encode({
    node_count: count,
    record_size: 24,
    ip_version: 6,
    database_type: databaseType,
    languages: ["en"],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: BigInt(Math.floor(Date.now() / 1000)),
    description: { en: "A test database" },
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...data,
    Buffer.from("ABCDEF4D61784D696E642E636F6D", "hex"),
    metadata,
  ]);
}
