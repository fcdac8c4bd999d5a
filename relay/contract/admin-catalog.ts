/**
 * The console's catalogue calls (docs/decisions/115-operator-console.md): packages, teams, resource links, the
 * referral rule and OAuth clients, which the CLI managed alone before. `auth: 'admin'` under
 * `/api/admin` like every console call (docs/decisions/115-operator-console.md); each change is written to the audit
 * log by the same service function the CLI runs (docs/decisions/116-operator-audit-log.md).
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, packageKinds, timestampSchema, usernameSchema } from './accounts.ts'
import { endpoint } from './endpoint.ts'
import { idPathParams } from './paths.ts'
import { maxPointsChange } from './points.ts'
import { referralRuleSchema } from './referral.ts'
import { resourceBounds, resourceListSchema } from './resources.ts'

/** The catalogue's operator actions, appended to `auditActions` (admin.ts). */
export const catalogAuditActions = [
  'package.create',
  'package.update',
  'team.create',
  'team.renew',
  'resource.add',
  'resource.update',
  'resource.remove',
  'referral_rule.set',
  'list_prices.set',
  'oauth_client.create',
  'oauth_client.update',
  'oauth_client.remove',
] as const
export const catalogTargetKinds = ['package', 'team', 'resource_link', 'referral_rule', 'list_prices', 'oauth_client'] as const

/* ---------- Packages ---------- */

export const packageBounds = {
  code: { min: 2, max: 32 },
  name: { max: 64 },
  description: { max: 500 },
  points: { max: maxPointsChange },
  validityDays: { max: 3650 },
  price: { max: 100_000_000 },
} as const

const perLanguageText = (max: number, min = 0) => z.object({ zh: z.string().trim().min(min).max(max), en: z.string().trim().min(min).max(max), ja: z.string().trim().min(min).max(max) })

/** What may change on a package: its texts always; its terms only while nothing refers to it (docs/decisions/115-operator-console.md). */
export const packageTermsSchema = z.object({
  points_limit: z.coerce.number().int().min(1).max(packageBounds.points.max),
  hour_points: z.coerce.number().int().min(0).max(packageBounds.points.max),
  validity_days: z.coerce.number().int().min(1).max(packageBounds.validityDays.max),
  /** Minor units (fen); 0 = free. */
  price: z.coerce.number().int().min(0).max(packageBounds.price.max),
})
export const packageTextsSchema = z.object({
  name: perLanguageText(packageBounds.name.max, 1),
  /** Empty texts: no description in that language. */
  description: perLanguageText(packageBounds.description.max),
})
export const newCatalogPackageBody = packageTermsSchema.extend(packageTextsSchema.shape).extend({
  code: z.string().trim().toUpperCase().regex(/^[A-Z0-9_-]{2,32}$/, 'code: 2–32 letters, digits, _ or -'),
  kind: z.enum(packageKinds),
})
export const updateCatalogPackageBody = packageTermsSchema.extend(packageTextsSchema.shape)
export type NewCatalogPackage = z.output<typeof newCatalogPackageBody>
export type CatalogPackageUpdate = z.output<typeof updateCatalogPackageBody>

export const catalogPackageSchema = z
  .object({
    id: idSchema,
    code: z.string(),
    kind: z.enum(packageKinds),
    name: z.object({ zh: z.string(), en: z.string(), ja: z.string() }),
    description: z.object({ zh: z.string(), en: z.string(), ja: z.string() }),
    points_limit: z.int(),
    hour_points: z.int(),
    validity_days: z.int(),
    price: z.int(),
    create_timestamp: timestampSchema,
    /** Subscriptions ever made on it and redeem codes printed for it: while both are 0 its terms may change. */
    subscriptions: z.int(),
    redeem_codes: z.int(),
  })
  .meta({ id: 'CatalogPackage' })
export type CatalogPackage = z.output<typeof catalogPackageSchema>
export const catalogPackagesSchema = z.object({ items: z.array(catalogPackageSchema) }).meta({ id: 'CatalogPackages' })

/* ---------- Teams ---------- */

export const teamSubscriptionStatuses = ['normal', 'expired', 'disabled'] as const

export const adminTeamSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    owner: z.string(),
    package: z.string(),
    /** Of its newest subscription; `expired` once past its end. */
    status: z.enum(teamSubscriptionStatuses),
    end_timestamp: timestampSchema,
    members: z.int(),
  })
  .meta({ id: 'AdminTeam' })
export type AdminTeam = z.output<typeof adminTeamSchema>
export const adminTeamsSchema = z.object({ items: z.array(adminTeamSchema) }).meta({ id: 'AdminTeams' })
export const adminTeamDetailSchema = z
  .object({
    team: adminTeamSchema,
    team_code: z.string(),
    /** Null while the portal's public address is unknown (docs/decisions/033-cli-tutorial-and-first-start.md). */
    invite_url: z.string().nullable(),
    members: z.array(z.object({ user_id: idSchema, username: z.string(), joined_timestamp: timestampSchema })),
  })
  .meta({ id: 'AdminTeamDetail' })
export type AdminTeamDetail = z.output<typeof adminTeamDetailSchema>
export const teamNameMax = 64
export const newTeamBody = z.object({
  name: z.string().trim().min(1).max(teamNameMax),
  package_code: z.string().trim().min(1).max(32),
  /** Joins at once, irreversibly. */
  owner: usernameSchema,
})
export const renewTeamBody = z.object({ package_code: z.string().trim().min(1).max(32) })
export const createdTeamSchema = z.object({ id: idSchema, team_code: z.string(), invite_url: z.string().nullable() }).meta({ id: 'CreatedTeam' })
export const renewedTeamSchema = z.object({ end_timestamp: timestampSchema }).meta({ id: 'RenewedTeam' })

/* ---------- Resource links ---------- */

export const resourceLinkBody = z.object({
  title: z.string().trim().min(resourceBounds.title.min).max(resourceBounds.title.max),
  // Only http(s): the portal renders the URL as a link, and a `javascript:` one would run script.
  url: z.url({ protocol: /^https?$/ }).max(resourceBounds.url.max),
  description: z.string().trim().max(resourceBounds.description.max).optional(),
  /** Ascending; ties keep creation order. */
  sort_order: z.coerce.number().int().min(-1_000_000).max(1_000_000).default(0),
})
export type ResourceLinkInput = z.output<typeof resourceLinkBody>

/* ---------- OAuth clients ---------- */

export const oauthClientNameMax = 100
export const adminOAuthClientSchema = z
  .object({
    id: idSchema,
    client_id: z.string(),
    name: z.string(),
    redirect_uris: z.array(z.string()),
    first_party: z.boolean(),
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'AdminOAuthClient' })
export type AdminOAuthClient = z.output<typeof adminOAuthClientSchema>
export const oauthClientBody = z.object({
  name: z.string().trim().min(1).max(oauthClientNameMax),
  /** Each https, or http on loopback; none: device flow only. */
  redirect_uris: z.array(z.string().trim().min(1).max(512)).max(20),
  first_party: z.boolean(),
})
export const createdOAuthClientSchema = z
  .object({ client: adminOAuthClientSchema, client_secret: z.string() })
  .meta({ id: 'CreatedOAuthClient' })
export type CreatedOAuthClient = z.output<typeof createdOAuthClientSchema>

const tag = 'admin'
/** The id of what was added, changed or removed. */
const idReply = z.object({ id: idSchema })

export const adminCatalogEndpoints = {
  catalogPackages: endpoint({
    method: 'get',
    path: '/api/admin/catalog/packages',
    summary: 'Every package with its texts in each language, its terms and what refers to it',
    tag,
    auth: 'admin',
    response: catalogPackagesSchema,
  }),
  createPackage: endpoint({
    method: 'post',
    path: '/api/admin/catalog/packages',
    summary: 'Create a package',
    tag,
    auth: 'admin',
    body: newCatalogPackageBody,
    response: catalogPackageSchema,
    errors: ['conflict'],
    idempotent: true,
  }),
  updatePackage: endpoint({
    method: 'post',
    path: '/api/admin/catalog/packages/{id}',
    summary: "Change a package's names and descriptions, and its terms while no subscription or redeem code refers to it",
    tag,
    auth: 'admin',
    params: idPathParams,
    body: updateCatalogPackageBody,
    response: catalogPackageSchema,
    errors: ['not_found', 'business_rule'],
  }),

  teams: endpoint({
    method: 'get',
    path: '/api/admin/teams',
    summary: 'Every team with its owner, newest subscription and member count, newest first',
    tag,
    auth: 'admin',
    response: adminTeamsSchema,
  }),
  team: endpoint({
    method: 'get',
    path: '/api/admin/teams/{id}',
    summary: 'A team with its code, invitation link and members',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: adminTeamDetailSchema,
  }),
  createTeam: endpoint({
    method: 'post',
    path: '/api/admin/teams',
    summary: 'Create a team on a team package; its owner joins at once as first member',
    tag,
    auth: 'admin',
    body: newTeamBody,
    response: createdTeamSchema,
    errors: ['not_found', 'business_rule', 'already_in_team'],
    idempotent: true,
  }),
  renewTeam: endpoint({
    method: 'post',
    path: '/api/admin/teams/{id}/renew',
    summary: 'A new subscription on the same pool (one in force ends, its points expire); members stay',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: renewTeamBody,
    response: renewedTeamSchema,
    errors: ['not_found', 'business_rule'],
    idempotent: true,
  }),

  resources: endpoint({
    method: 'get',
    path: '/api/admin/resources',
    summary: 'The resource links every user sees, in display order',
    tag,
    auth: 'admin',
    response: resourceListSchema,
  }),
  addResource: endpoint({
    method: 'post',
    path: '/api/admin/resources',
    summary: 'Add a resource link',
    tag,
    auth: 'admin',
    body: resourceLinkBody,
    response: idReply,
    idempotent: true,
  }),
  updateResource: endpoint({
    method: 'post',
    path: '/api/admin/resources/{id}',
    summary: 'Change a resource link',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: resourceLinkBody,
    response: idReply,
    errors: ['not_found'],
  }),
  removeResource: endpoint({
    method: 'post',
    path: '/api/admin/resources/{id}/remove',
    summary: 'Remove a resource link',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: idReply,
    errors: ['not_found'],
  }),

  referralRule: endpoint({
    method: 'get',
    path: '/api/admin/referral-rule',
    summary: 'The referral reward rule in force',
    tag,
    auth: 'admin',
    response: referralRuleSchema,
  }),
  setReferralRule: endpoint({
    method: 'post',
    path: '/api/admin/referral-rule',
    summary: 'Replace the referral reward rule; it applies to purchases from now on',
    tag,
    auth: 'admin',
    body: referralRuleSchema,
    response: referralRuleSchema,
  }),

  oauthClients: endpoint({
    method: 'get',
    path: '/api/admin/oauth-clients',
    summary: 'Registered external clients, oldest first',
    tag,
    auth: 'admin',
    response: z.object({ items: z.array(adminOAuthClientSchema) }).meta({ id: 'AdminOAuthClients' }),
  }),
  createOAuthClient: endpoint({
    method: 'post',
    path: '/api/admin/oauth-clients',
    summary: 'Register an external client; the reply is the only time its secret is shown',
    tag,
    auth: 'admin',
    body: oauthClientBody,
    response: createdOAuthClientSchema,
    errors: ['validation'],
    idempotent: true,
  }),
  updateOAuthClient: endpoint({
    method: 'post',
    path: '/api/admin/oauth-clients/{id}',
    summary: "Change a client's name, redirect URIs and first-party flag (its id and secret stay)",
    tag,
    auth: 'admin',
    params: idPathParams,
    body: oauthClientBody,
    response: adminOAuthClientSchema,
    errors: ['not_found', 'validation'],
  }),
  removeOAuthClient: endpoint({
    method: 'post',
    path: '/api/admin/oauth-clients/{id}/remove',
    summary: 'Remove a client with every code and refresh token it holds',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: idReply,
    errors: ['not_found'],
  }),
}
