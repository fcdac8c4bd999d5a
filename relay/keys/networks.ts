/**
 * Whether a call's address is one its API key may be used from (the key's `allowed_ips`, JSON of
 * addresses and CIDR ranges, relay/contract/networks.ts). Each distinct list becomes one
 * `net.BlockList`, kept for the process: matching is then a lookup, on every call of such a key.
 */
import { BlockList, isIP } from 'node:net'
import { parseNetwork } from '../contract/networks.ts'

const lists = new Map<string, BlockList>()

export function networksOf(json: string): BlockList {
  let list = lists.get(json)
  if (!list) {
    list = new BlockList()
    for (const text of JSON.parse(json) as string[]) {
      const network = parseNetwork(text)
      if (network) list.addSubnet(network.address, network.prefix, network.family)
    }
    if (lists.size >= 1000) lists.clear()
    lists.set(json, list)
  }
  return list
}

/** Whether `address` (as the relay saw the client) is in `networks`; an IPv4-mapped IPv6 address counts as its IPv4 one. */
export function addressAllowed(networks: BlockList, address: string): boolean {
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address
  const family = isIP(plain)
  if (family === 0) return false
  return networks.check(plain, family === 4 ? 'ipv4' : 'ipv6')
}
