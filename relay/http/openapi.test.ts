import { expect, it } from 'vitest'
import { accountPaths } from '../contract/accounts.ts'
import { describeEachDatabase } from '../../tests/fixtures/databases.ts'

describeEachDatabase('API document', (ctx) => {
  it('documents every account call from the schemas that validate it', async () => {
    const reply = await ctx.request('GET', '/api/openapi.json')
    expect(reply.status).toBe(200)
    const document = JSON.parse(reply.text)
    for (const path of Object.values(accountPaths)) expect(document.paths).toHaveProperty([path])
    const login = document.paths[accountPaths.login].post
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['username', 'password'])
    expect(document.components.schemas.User.properties.id).toMatchObject({ type: 'integer', format: 'int64' })
    expect(document.paths[accountPaths.info].get.security).toBeDefined()
    expect(document.paths[accountPaths.checkEmail].get.parameters[0]).toMatchObject({ in: 'query', name: 'email' })

    const docs = await ctx.request('GET', '/api/docs')
    expect(docs.text).toContain(`<code>${accountPaths.register}</code>`)
  })
})
