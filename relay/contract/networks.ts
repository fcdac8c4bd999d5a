/**
 * Addresses and ranges an API key may be used from: an IPv4 or IPv6 address, or a CIDR range
 * (`203.0.113.0/24`, `2001:db8::/32`). Parsed here without Node's `net`, since the portal's forms
 * validate with the same schema in the browser; the relay matches with `net.BlockList`
 * (relay/keys/networks.ts).
 */
import { z } from 'zod'

export interface Network {
  family: 'ipv4' | 'ipv6'
  address: string
  prefix: number
}

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

function isIpv6(text: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || !text.includes(':')) return false
  try {
    // The URL parser knows IPv6 in every JavaScript runtime, browsers included.
    return new URL(`http://[${text}]/`).hostname.length > 2
  } catch {
    return false
  }
}

/** The network `text` names, or null when it is neither an address nor a CIDR range. */
export function parseNetwork(text: string): Network | null {
  const [address = '', prefixText, extra] = text.trim().split('/')
  if (extra !== undefined) return null
  const family = ipv4.test(address) ? 'ipv4' : isIpv6(address) ? 'ipv6' : null
  if (!family) return null
  const bits = family === 'ipv4' ? 32 : 128
  if (prefixText === undefined) return { family, address, prefix: bits }
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return null
  return { family, address, prefix: Number(prefixText) }
}

export const networkSchema = z
  .string()
  .trim()
  .max(64)
  .refine((text) => parseNetwork(text) !== null, { message: 'not an IP address or CIDR range' })
