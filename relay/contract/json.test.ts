import { describe, expect, it } from 'vitest'
import { parseRelayJson, stringifyRelayJson } from './json.ts'

describe('parseRelayJson', () => {
  it('keeps 64-bit ids exact where JSON.parse rounds them', () => {
    const text = '{"id":9007199254740993,"user_id":9223372036854775807,"invited_by":9007199254740995,"items":[{"ticket_id":18014398509481985}]}'
    expect(JSON.parse(text).id).toBe(9007199254740992) // rounded: the reason this module exists
    expect(parseRelayJson(text)).toEqual({
      id: '9007199254740993',
      user_id: '9223372036854775807',
      invited_by: '9007199254740995',
      items: [{ ticket_id: '18014398509481985' }],
    })
  })

  it('turns any other integer beyond the safe range into a string, whatever its key', () => {
    expect(parseRelayJson('{"member_ids":[1234567890123456789],"big":9007199254740993,"safe":1234567890123456}')).toEqual({
      member_ids: ['1234567890123456789'],
      big: '9007199254740993',
      safe: 1234567890123456,
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

  it('reads small ids as strings too, so ids have one type', () => {
    expect(parseRelayJson('{"id":7,"package_id":12}')).toEqual({ id: '7', package_id: '12' })
  })
})

describe('stringifyRelayJson', () => {
  it('writes decimal-string ids as bare numbers and leaves other strings alone', () => {
    expect(stringifyRelayJson({ id: '9007199254740993', team_id: 'abc', name: '42', invited_by: null })).toBe(
      '{"id":9007199254740993,"team_id":"abc","name":"42","invited_by":null}',
    )
  })

  it('round-trips through parseRelayJson', () => {
    const value = { id: '9223372036854775807', items: [{ ticket_id: '1' }], points: 5 }
    expect(parseRelayJson(stringifyRelayJson(value))).toEqual(value)
  })
})
