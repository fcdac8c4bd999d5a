import { describe, expect, it } from 'vitest'
import { changedFields } from './audit-change.tsx'

describe('changedFields', () => {
  it('keeps only the fields that differ, in their recorded order', () => {
    expect(changedFields('{"models":["a"],"priority":3,"model_map":[]}', '{"models":["a"],"priority":7,"model_map":[]}')).toEqual([{ field: 'priority', before: 3, after: 7 }])
  })

  it('lists every field of a creation or a removal', () => {
    expect(changedFields(null, '{"title":"t","body":null}')).toEqual([
      { field: 'title', before: undefined, after: 't' },
      { field: 'body', before: undefined, after: null },
    ])
    expect(changedFields('{"id":"1"}', null)).toEqual([{ field: 'id', before: '1', after: undefined }])
  })

  it('reads a field present on one side only, and text that is not an object', () => {
    expect(changedFields('{"a":1}', '{"a":1,"b":2}')).toEqual([{ field: 'b', before: undefined, after: 2 }])
    expect(changedFields('"old"', '"new"')).toEqual([{ field: 'value', before: 'old', after: 'new' }])
  })
})
