import { expect, it } from 'vitest'
import { accountEndpoints } from '../contract/accounts.ts'
import { apiKeyEndpoints } from '../contract/api-keys.ts'
import { endpoints, operationId } from '../contract/index.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'

describeEachDatabase('API document', (ctx) => {
  it('documents every declared call from the schemas that validate it', async () => {
    // Raw: the document is a download outside the envelope, which a typed call does not read.
    const reply = await ctx.request('GET', '/api/openapi.json')
    expect(reply.status).toBe(200)
    const document = JSON.parse(reply.text)
    const declared = Object.values(endpoints).flatMap((area) => Object.values(area))
    for (const { method, path, summary } of declared) expect(document.paths[path]?.[method]?.summary).toBe(summary)
    const documented = Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap((item) => Object.keys(item))
    // The /v1 API is described by hand (relay/proxy/routes.ts): every other operation is a declaration.
    expect(documented.length - Object.keys(document.paths).filter((path) => path.startsWith('/v1/')).length).toBe(declared.length)

    const login = document.paths[accountEndpoints.login.path].post
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['username', 'password'])
    expect(document.components.schemas.User.properties.id).toMatchObject({ type: 'integer', format: 'int64' })
    expect(document.paths[accountEndpoints.info.path].get.security).toBeDefined()
    expect(document.paths[accountEndpoints.checkEmail.path].get.parameters[0]).toMatchObject({ in: 'query', name: 'email' })
    expect(document.paths[accountEndpoints.info.path].get.operationId).toBe(operationId(accountEndpoints.info))
    // A call the handler authenticates with an API key says so, as the /v1 API does.
    expect(document.paths[apiKeyEndpoints.usage.path].get.security).toEqual(document.paths['/v1/models'].get.security)
  })
})
