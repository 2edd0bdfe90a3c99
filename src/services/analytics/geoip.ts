import { isIP } from "node:net";
import { type CountryResponse, Reader } from "mmdb-lib";

/**
 * A lookup of client addresses' countries (ISO 3166 alpha-2, upper case) in a MaxMind DB (`.mmdb`) file's bytes:
 * the `country` of the address's network, else its `registered_country`; undefined for an address the file does
 * not know (private ranges, say). IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) are looked up as IPv4. Throws when
 * the bytes are not a MaxMind DB file, so a wrong path fails the start rather than every lookup.
 */
export function countryLookup(bytes: Uint8Array): (ip: string) => string | undefined {
  const reader = new Reader<CountryResponse>(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const ipv4Only = reader.metadata.ipVersion === 4;
  return (ip) => {
    const plain = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    const family = isIP(plain);
    if (family === 0 || (family === 6 && ipv4Only)) return undefined;
    const record = reader.get(plain);
    const code = record?.country?.iso_code ?? record?.registered_country?.iso_code;
    return code && /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : undefined;
  };
}
