import { describe, expect, it } from 'vitest'
import { parseRelayJson } from './relay-json.ts'

describe('parseRelayJson', () => {
  it('keeps 64-bit ids exact where JSON.parse rounds them', () => {
    const text = '{"id":9007199254740993,"user_id":9223372036854775807,"items":[{"ticket_id":18014398509481985}]}'
    expect(JSON.parse(text).id).toBe(9007199254740992) // rounded: the reason this module exists
    expect(parseRelayJson(text)).toEqual({
      id: '9007199254740993',
      user_id: '9223372036854775807',
      items: [{ ticket_id: '18014398509481985' }],
    })
  })

  it('turns every integer of 16+ digits into a string, whatever its key', () => {
    expect(parseRelayJson('{"member_ids":[1234567890123456789],"big":1234567890123456}')).toEqual({
      member_ids: ['1234567890123456789'],
      big: '1234567890123456',
    })
  })

  it('leaves ordinary numbers as numbers', () => {
    expect(parseRelayJson('{"remaining_points":1500,"ratio":0.25,"create_timestamp":1795219296909,"code":0}')).toEqual({
      remaining_points: 1500,
      ratio: 0.25,
      create_timestamp: 1795219296909,
      code: 0,
    })
  })

  it('writes small ids as strings too, so ids have one type', () => {
    expect(parseRelayJson('{"id":7,"package_id":12}')).toEqual({ id: '7', package_id: '12' })
  })
})
