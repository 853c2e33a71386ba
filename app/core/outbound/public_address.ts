/*
 * Which IP addresses the service may connect to (docs/design.md §13): an address is
 * public only when it, and every IPv4 address embedded in it, lies outside the
 * special-purpose ranges of the IANA IPv4 and IPv6 Special-Purpose Address
 * Registries (as of 2025; RFC 6890 and its updates).
 *
 *   isPublicAddress('93.184.216.34')      // true
 *   isPublicAddress('::7f00:1')           // false (IPv4-compatible 127.0.0.1)
 *   isPublicAddress('2002:0a00:0001::1')  // false (6to4 of 10.0.0.1)
 *
 * IPv6 is public only inside 2000::/3 (global unicast; everything else is
 * reserved, deprecated like IPv4-compatible ::/96, or special) or when it is
 * the IPv4-mapped (::ffff:0:0/96) or well-known NAT64 (64:ff9b::/96) form of a
 * public IPv4. Pure: no settings, no I/O.
 */
import ipaddr from 'ipaddr.js'

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number]

const cidrs = (list: string[]) => list.map((range) => ipaddr.parseCIDR(range) as Cidr)

/** IANA IPv4 special-purpose ranges that are not globally reachable (plus deprecated 192.88.99.0/24). */
const IPV4_SPECIAL = cidrs([
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (CGN)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link local (cloud metadata)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments (the anycast .9 and .10 are not useful targets)
  '192.0.2.0/24', // TEST-NET-1
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // TEST-NET-2
  '203.0.113.0/24', // TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, 255.255.255.255 limited broadcast included
])

/** The IPv6 global unicast space; anything outside it is never a public target by itself. */
const IPV6_GLOBAL = ipaddr.parseCIDR('2000::/3') as Cidr

/** IANA IPv6 special-purpose ranges inside 2000::/3 that are not globally reachable. */
const IPV6_SPECIAL = cidrs([
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation (RFC 9637)
])

/**
 * 2001::/23 (IETF protocol assignments) is refused except for the entries the
 * registry marks globally reachable; Teredo (2001::/32) is decoded instead.
 */
const IETF_BLOCK = ipaddr.parseCIDR('2001::/23') as Cidr
const IETF_GLOBAL = cidrs([
  '2001:1::1/128', // Port Control Protocol anycast
  '2001:1::2/128', // TURN anycast
  '2001:1::3/128', // DNS-SD service registration protocol anycast
  '2001:3::/32', // AMT
  '2001:4:112::/48', // AS112-v6
  '2001:20::/28', // ORCHIDv2
  '2001:30::/28', // drone remote ID
])

const MAPPED = ipaddr.parseCIDR('::ffff:0:0/96') as Cidr
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96') as Cidr
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16') as Cidr
const TEREDO = ipaddr.parseCIDR('2001::/32') as Cidr

const within = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Cidr[]) =>
  ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits))

function ipv4At(bytes: number[], offset: number, xor = 0): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((byte) => byte ^ xor))
}

function isPublicIPv4(address: ipaddr.IPv4) {
  return !within(address, IPV4_SPECIAL)
}

function isPublicIPv6(address: ipaddr.IPv6): boolean {
  const bytes = address.toByteArray()
  // Forms that carry an IPv4 in their last 32 bits and reach it.
  if (address.match(...MAPPED) || address.match(...NAT64)) return isPublicIPv4(ipv4At(bytes, 12))
  if (!address.match(...IPV6_GLOBAL) || within(address, IPV6_SPECIAL)) return false
  // 6to4: the IPv4 is bits 16..47.
  if (address.match(...SIX_TO_FOUR)) return isPublicIPv4(ipv4At(bytes, 2))
  // Teredo: server IPv4 in bits 32..63, client IPv4 in the last 32 bits, inverted.
  if (address.match(...TEREDO))
    return isPublicIPv4(ipv4At(bytes, 4)) && isPublicIPv4(ipv4At(bytes, 12, 0xff))
  if (address.match(...IETF_BLOCK)) return within(address, IETF_GLOBAL)
  return true
}

/** Whether `ip` (an IPv4 or IPv6 literal, without brackets or zone) is a public, globally reachable address. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false
  let address: ipaddr.IPv4 | ipaddr.IPv6
  try {
    address = ipaddr.parse(ip)
  } catch {
    return false
  }
  // A zone id (fe80::1%eth0) only exists on link-local scopes.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).zoneId) return false
  return address.kind() === 'ipv4'
    ? isPublicIPv4(address as ipaddr.IPv4)
    : isPublicIPv6(address as ipaddr.IPv6)
}
