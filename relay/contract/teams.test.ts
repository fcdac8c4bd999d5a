import { describe, expect, it } from 'vitest'
import { parseTeamCode } from './teams.ts'

describe('parseTeamCode', () => {
  const encode = (text: string) => Buffer.from(text).toString('base64')

  it('reads base64 of <team_id>:<secret> in either alphabet, padded or not', () => {
    const text = '612345678901234567:Ab_-cd12Ef34gh56'
    const expected = { teamId: '612345678901234567', secret: 'Ab_-cd12Ef34gh56' }
    expect(parseTeamCode(encode(text))).toEqual(expected)
    expect(parseTeamCode(Buffer.from(text).toString('base64url'))).toEqual(expected)
    expect(parseTeamCode(` ${encode(text)} `)).toEqual(expected)
  })

  it('refuses what is not base64, or base64 of anything else', () => {
    expect(parseTeamCode('not base64!')).toBeNull()
    expect(parseTeamCode('abcde')).toBeNull()
    expect(parseTeamCode(encode('hello world'))).toBeNull()
    expect(parseTeamCode(encode('12x:abcdefgh12'))).toBeNull()
    expect(parseTeamCode(encode('123:short'))).toBeNull()
  })
})
