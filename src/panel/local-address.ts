// Whether a link points to the user's own machine or network: a model's answer can link to a dev server, a router or
// a cloud metadata endpoint, and one click would reach it with the user's access (in a remote window it would even
// forward the port). The WHATWG URL parser has already turned every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1,
// 127.1) into dotted quads and every IPv6 one into compressed hex, so only those two forms are read here.
// A name that merely resolves to such an address (DNS) cannot be known without looking it up, and is not.

/** True for loopback, private, link-local and unspecified hosts: localhost, 127/8, 10/8, ::1, fe80::/10, … */
export function pointsToLocalNetwork(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith("[") && host.endsWith("]")) return isLocalIpv6(host.slice(1, -1));
  // A trailing dot is the same name, fully qualified.
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const ipv4 = parseIpv4(name);
  return ipv4 !== undefined && isLocalIpv4(ipv4);
}

/** A dotted quad as one 32-bit number, or undefined for anything else. */
function parseIpv4(host: string): number | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const IPV4_LOCAL_RANGES: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local machine
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT, also VPNs such as Tailscale
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata endpoints
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
];

function isLocalIpv4(address: number): boolean {
  return IPV4_LOCAL_RANGES.some(([base, bits]) => inRange(address, parseIpv4(base) ?? 0, bits));
}

function inRange(address: number, base: number, bits: number): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(address / size) === Math.floor(base / size);
}

function isLocalIpv6(host: string): boolean {
  const groups = expandIpv6(host);
  if (groups === undefined) return false;
  const [first] = groups;
  if (groups.every((g) => g === 0)) return true; // ::, unspecified
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return true; // ::1
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7, unique local
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return true; // fe80::/10 link-local, fec0::/10 site-local
  // An IPv4 address inside IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
  const embedded = groups[6] * 65536 + groups[7];
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return isLocalIpv4(embedded);
  if (first === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return isLocalIpv4(embedded);
  return false;
}

/** The parser's serialisation: hex groups, at most one `::`, no dotted quad and no zone. */
function expandIpv6(host: string): number[] | undefined {
  const halves = host.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (text: string) => (text === "" ? [] : text.split(":").map((g) => parseInt(g, 16)));
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}
