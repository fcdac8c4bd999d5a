/**
 * The operator console's calls (docs/decisions/115-operator-console.md): `auth: 'admin'`, under `/api/admin`. Every
 * change an operator makes is written to the audit log (docs/decisions/116-operator-audit-log.md) by the same service
 * function the CLI calls.
 */
import { z } from 'zod'
import type {} from 'zod-openapi'
import { idSchema, packageKinds, timestampSchema, userSchema, userStatuses, userTypes } from './accounts.ts'
import { adminCallEndpoints } from './admin-calls.ts'
import { adminCatalogEndpoints, catalogAuditActions, catalogTargetKinds } from './admin-catalog.ts'
import { adminUserEndpoints } from './admin-users.ts'
import { apiKeyBounds, apiKeySchema } from './api-keys.ts'
import { calendarDateSchema } from './days.ts'
import { endpoint } from './endpoint.ts'
import { bulkChangedSchema, bulkRows, pageQuery, pagedSchema } from './paging.ts'
import { adminAnnouncementSchema, createAnnouncementBody } from './notifications.ts'
import { idPathParams } from './paths.ts'
import { maxPointsChange, pointsHistorySchema, pointsSummarySchema, weeklyUsageSchema } from './points.ts'
import {
  ticketContentSchema,
  ticketDetailSchema,
  ticketPageSchema,
  ticketPriorities,
  ticketSchema,
  ticketStatusFilters,
  ticketTagsChangeBody,
  ticketTypes,
} from './tickets.ts'

/* ---------- Audit log ---------- */

/** What an operator can do; the portal names each one in the reader's language. */
export const auditActions = [
  'ticket.reply',
  'ticket.status',
  'points_reset.approve',
  'points_reset.deny',
  'user.type',
  'user.disable',
  'user.enable',
  'points.grant',
  'points.deduct',
  'points.trial',
  'redeem_codes.generate',
  'redeem_code.revoke',
  // Operations (docs/decisions/120-figures-from-hourly-aggregates.md, decisions/115-operator-console.md): providers, prices, ticket assignment.
  'ticket.assign',
  'provider.add',
  'provider.update',
  'provider.enable',
  'provider.disable',
  'provider.remove',
  'provider.test',
  'price.set',
  'price.remove',
  'announcement.create',
  'announcement.remove',
  'incident.create',
  'incident.update',
  'incident.resolve',
  'api_key.disable',
  'api_key.enable',
  'alert_webhook.add',
  'alert_webhook.remove',
  'alert_webhook.test',
  // Parity with the CLI and reading as a user (docs/console.md).
  'user.create',
  'user.view_as',
  'ticket.tags',
  ...catalogAuditActions,
] as const
export type AuditAction = (typeof auditActions)[number]
export const auditActorKinds = ['admin', 'cli'] as const
export const auditTargetKinds = ['ticket', 'user', 'redeem_batch', 'redeem_code', 'provider', 'price', 'announcement', 'incident', 'api_key', 'alert_webhook', ...catalogTargetKinds] as const
export type AuditTargetKind = (typeof auditTargetKinds)[number]

/** A status-page incident's title and text, as everyone reads them on `/status`. */
export const incidentBody = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().max(4000).optional(),
})

export const adminIncidentSchema = z
  .object({
    id: idSchema,
    title: z.string(),
    body: z.string().nullable(),
    start_timestamp: timestampSchema,
    /** Null while open. */
    resolved_timestamp: timestampSchema.nullable(),
  })
  .meta({ id: 'AdminIncident' })
export type AdminIncident = z.output<typeof adminIncidentSchema>

const day = calendarDateSchema('a day as YYYY-MM-DD')

export const auditQuery = pageQuery.extend({
  /** An admin's username, or the OS user of a CLI run (exact, any case). */
  actor: z.string().trim().max(64).optional(),
  action: z.enum(auditActions).optional(),
  /** A target's id, ticket number or username is resolved by the console; here its stored reference. */
  target: z.string().trim().max(64).optional(),
  /** First and last day (UTC), inclusive. */
  from: day.optional(),
  to: day.optional(),
})

export const auditEntrySchema = z
  .object({
    id: idSchema,
    actor_kind: z.enum(auditActorKinds),
    actor_id: idSchema.nullable(),
    actor_name: z.string(),
    client_ip: z.string().nullable(),
    action: z.enum(auditActions),
    target_kind: z.enum(auditTargetKinds),
    target_ref: z.string(),
    /** The JSON recorded before and after the change, or null. */
    before: z.string().nullable(),
    after: z.string().nullable(),
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'AuditEntry' })
export type AuditEntry = z.output<typeof auditEntrySchema>
export const auditPageSchema = pagedSchema(auditEntrySchema).meta({ id: 'AuditPage' })

/* ---------- Tickets ---------- */

/** The statuses an operator sets (the staff transitions of tickets/service.ts). */
export const operatorTicketStatuses = ['processing', 'completed', 'rejected'] as const

export const adminTicketListQuery = pageQuery.extend({
  status: z.enum(ticketStatusFilters).optional(),
  type: z.enum(ticketTypes).optional(),
  priority: z.enum(ticketPriorities).optional(),
  /** An operator's user id, or `none` for tickets nobody is assigned. */
  assignee: z.union([idSchema, z.literal('none')]).optional(),
  /** Part of a ticket's number, or of its owner's username (any case). */
  q: z.string().trim().max(64).optional(),
})

export const adminTicketSchema = ticketSchema.extend({ owner_id: idSchema, owner_name: z.string() }).meta({ id: 'AdminTicket' })
export const adminTicketPageSchema = pagedSchema(adminTicketSchema).meta({ id: 'AdminTicketPage' })
export const adminTicketDetailSchema = ticketDetailSchema.extend({ owner_id: idSchema, owner_name: z.string() }).meta({ id: 'AdminTicketDetail' })
export type AdminTicket = z.output<typeof adminTicketSchema>
export type AdminTicketDetail = z.output<typeof adminTicketDetailSchema>

export const adminTicketReplyBody = z.object({
  content: ticketContentSchema,
  /** Moves the ticket in the same transaction as the reply. */
  status: z.enum(operatorTicketStatuses).optional(),
})
export const adminTicketStatusBody = z.object({ status: z.enum(operatorTicketStatuses) })
/** A denial may explain itself to the user in the same step. */
export const denyResetBody = z.object({ content: ticketContentSchema.optional() })
export const approvedResetSchema = z.object({ points_added: z.int() }).meta({ id: 'ApprovedReset' })

/* ---------- Users ---------- */

export const adminUserSearchQuery = pageQuery.extend({
  /** Part of a username or e-mail address, or a user id. */
  q: z.string().trim().max(254).optional(),
  status: z.enum(userStatuses).optional(),
})
/** Users ticked on the list, disabled or enabled together (one audit row per user changed). */
export const setUsersStatusBody = z.object({ user_ids: bulkRows(idSchema), status: z.enum(userStatuses) })
export const adminUserPageSchema = pagedSchema(userSchema).meta({ id: 'AdminUserPage' })

export const adminUserDetailSchema = z
  .object({
    user: userSchema,
    points: pointsSummarySchema,
    ledger: pointsHistorySchema,
    /** The points they consumed per day, as their dashboard's chart shows them. */
    usage: weeklyUsageSchema,
    api_keys: z.array(apiKeySchema),
    tickets: ticketPageSchema,
  })
  .meta({ id: 'AdminUserDetail' })
export type AdminUserDetail = z.output<typeof adminUserDetailSchema>

/** Some of one user's keys, switched together from the user's page (one audit row per key changed). */
export const setUserKeysBody = z.object({
  key_ids: z.array(idSchema).min(1).max(apiKeyBounds.perUser),
  enabled: z.boolean(),
})

export const setUserTypeBody = z.object({ user_type: z.enum(userTypes) })
export const setUserStatusBody = z.object({ status: z.enum(userStatuses) })
export const pointsAdjustments = ['grant', 'deduct'] as const
export const adjustPointsBody = z.object({
  direction: z.enum(pointsAdjustments),
  amount: z.coerce.number().int().min(1).max(maxPointsChange),
  /** Shown in the user's points history. */
  reason: z.string().trim().min(1).max(255),
})
export const adjustedPointsSchema = z.object({ balance: z.int() }).meta({ id: 'AdjustedPoints' })

/* ---------- Redeem codes ---------- */

export const redeemCodeStates = ['unused', 'used', 'expired', 'revoked'] as const
export type RedeemCodeState = (typeof redeemCodeStates)[number]
/** The most codes one batch makes, in the console and the CLI alike. */
export const redeemBatchMax = 10_000

export const adminRedeemCodeQuery = pageQuery.extend({
  state: z.enum(redeemCodeStates).optional(),
  batch: idSchema.optional(),
  /** Only these codes: their ids, comma-separated (at most a page). */
  ids: z
    .string()
    .regex(/^\d{1,20}(,\d{1,20}){0,99}$/, 'ids: up to 100 ids, comma-separated')
    .transform((ids) => ids.split(','))
    .optional(),
})
export const revokeCodesBody = z.object({ ids: bulkRows(idSchema) })
export const adminRedeemCodeSchema = z
  .object({
    id: idSchema,
    batch_id: idSchema.nullable(),
    package_code: z.string(),
    package_name: z.string(),
    state: z.enum(redeemCodeStates),
    expires_timestamp: timestampSchema.nullable(),
    used_by: idSchema.nullable(),
    used_by_name: z.string().nullable(),
    used_timestamp: timestampSchema.nullable(),
    revoked_timestamp: timestampSchema.nullable(),
    create_timestamp: timestampSchema,
  })
  .meta({ id: 'AdminRedeemCode' })
export type AdminRedeemCode = z.output<typeof adminRedeemCodeSchema>
export const adminRedeemCodePageSchema = pagedSchema(adminRedeemCodeSchema).meta({ id: 'AdminRedeemCodePage' })
export const generateCodesBody = z.object({
  package_code: z.string().trim().min(1).max(32),
  count: z.coerce.number().int().min(1).max(redeemBatchMax),
  /** Codes stop working this many days from now; none: never. */
  expires_days: z.coerce.number().int().min(1).max(3650).optional(),
})
export const generatedCodesSchema = z.object({ batch_id: idSchema, codes: z.array(z.string()) }).meta({ id: 'GeneratedCodes' })
export type GeneratedCodes = z.output<typeof generatedCodesSchema>
/** `kind`: a trial starts only a personal package (admin-users.ts); codes are made for both. */
export const personalPackagesSchema = z.object({ items: z.array(z.object({ code: z.string(), name: z.string(), kind: z.enum(packageKinds) })) }).meta({ id: 'PersonalPackages' })

const tag = 'admin'

export const adminEndpoints = {
  audit: endpoint({
    method: 'get',
    path: '/api/admin/audit',
    summary: "Operators' actions, newest first",
    tag,
    auth: 'admin',
    query: auditQuery,
    response: auditPageSchema,
  }),
  tickets: endpoint({
    method: 'get',
    path: '/api/admin/tickets',
    summary: "Every user's tickets, newest first, filtered by status, type, priority, assignee, and number or owner",
    tag,
    auth: 'admin',
    query: adminTicketListQuery,
    response: adminTicketPageSchema,
  }),
  ticket: endpoint({
    method: 'get',
    path: '/api/admin/tickets/{id}',
    summary: 'Any ticket with its conversation and owner',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: adminTicketDetailSchema,
  }),
  replyTicket: endpoint({
    method: 'post',
    path: '/api/admin/tickets/{id}/messages',
    summary: 'Answer a ticket as support, optionally moving its status',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: adminTicketReplyBody,
    response: adminTicketDetailSchema,
    errors: ['ticket_transition_invalid'],
    idempotent: true,
  }),
  setTicketStatus: endpoint({
    method: 'post',
    path: '/api/admin/tickets/{id}/status',
    summary: "Move a ticket to processing, completed or rejected",
    tag,
    auth: 'admin',
    params: idPathParams,
    body: adminTicketStatusBody,
    response: adminTicketDetailSchema,
    errors: ['ticket_transition_invalid'],
  }),
  approveReset: endpoint({
    method: 'post',
    path: '/api/admin/tickets/{id}/approve-reset',
    summary: "Approve a waiting points-reset request: top the balance up to the limit, complete the ticket",
    tag,
    auth: 'admin',
    params: idPathParams,
    response: approvedResetSchema,
    errors: ['ticket_transition_invalid', 'business_rule'],
  }),
  denyReset: endpoint({
    method: 'post',
    path: '/api/admin/tickets/{id}/deny-reset',
    summary: 'Deny a waiting points-reset request (the ticket is rejected), optionally with a reply',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: denyResetBody,
    response: adminTicketDetailSchema,
    errors: ['ticket_transition_invalid', 'business_rule'],
  }),
  setTicketTags: endpoint({
    method: 'post',
    path: '/api/admin/tickets/{id}/tags',
    summary: "Add and remove a ticket's tags",
    description: 'Adding a tag the ticket has, or removing one it lacks, changes nothing, so a repeated request is harmless. At most 10 tags.',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: ticketTagsChangeBody,
    response: adminTicketDetailSchema,
    errors: ['not_found', 'validation'],
  }),
  users: endpoint({
    method: 'get',
    path: '/api/admin/users',
    summary: 'Users whose username or e-mail contains `q`, or whose id is `q`, in a status; newest first',
    tag,
    auth: 'admin',
    query: adminUserSearchQuery,
    response: adminUserPageSchema,
  }),
  user: endpoint({
    method: 'get',
    path: '/api/admin/users/{id}',
    summary: "A user with their points, latest ledger rows, API keys and tickets",
    tag,
    auth: 'admin',
    params: idPathParams,
    response: adminUserDetailSchema,
  }),
  setUserType: endpoint({
    method: 'post',
    path: '/api/admin/users/{id}/type',
    summary: "Change a user's type",
    tag,
    auth: 'admin',
    params: idPathParams,
    body: setUserTypeBody,
    response: userSchema,
    errors: ['business_rule'],
  }),
  setUserStatus: endpoint({
    method: 'post',
    path: '/api/admin/users/{id}/status',
    summary: 'Disable or enable a user',
    description: "A disabled user's sessions, client tokens and API keys stop working at their next call.",
    tag,
    auth: 'admin',
    params: idPathParams,
    body: setUserStatusBody,
    response: userSchema,
    errors: ['business_rule'],
  }),
  setUserKeys: endpoint({
    method: 'post',
    path: '/api/admin/users/{id}/keys/status',
    summary: "Disable or enable some of a user's API keys",
    description: 'A disabled key is refused at its next call, as its owner disabling it would. Keys already in the state asked are left alone and not counted.',
    tag,
    auth: 'admin',
    params: idPathParams,
    body: setUserKeysBody,
    response: z.object({ changed: z.int() }),
  }),
  setUsersStatus: endpoint({
    method: 'post',
    path: '/api/admin/users/bulk-status',
    summary: 'Disable or enable several users at once',
    description: 'Users already in the state asked are left alone and not counted. An unknown id, or the caller among them, refuses the whole request.',
    tag,
    auth: 'admin',
    body: setUsersStatusBody,
    response: bulkChangedSchema,
    errors: ['not_found', 'business_rule'],
  }),
  adjustPoints: endpoint({
    method: 'post',
    path: '/api/admin/users/{id}/points',
    summary: "Grant or deduct points, with a reason shown in the user's history",
    tag,
    auth: 'admin',
    params: idPathParams,
    body: adjustPointsBody,
    response: adjustedPointsSchema,
    errors: ['points_insufficient', 'business_rule'],
    idempotent: true,
  }),
  packages: endpoint({
    method: 'get',
    path: '/api/admin/packages',
    summary: 'The packages redeem codes can be made for: personal packages and top-ups',
    tag,
    auth: 'admin',
    response: personalPackagesSchema,
  }),
  redeemCodes: endpoint({
    method: 'get',
    path: '/api/admin/redeem-codes',
    summary: 'Redeem codes with their state, newest first (the codes themselves are stored hashed and never listed)',
    tag,
    auth: 'admin',
    query: adminRedeemCodeQuery,
    response: adminRedeemCodePageSchema,
  }),
  generateCodes: endpoint({
    method: 'post',
    path: '/api/admin/redeem-codes',
    summary: 'Generate a batch of redeem codes for a personal package or a top-up; the reply is the only time they are shown',
    tag,
    auth: 'admin',
    body: generateCodesBody,
    response: generatedCodesSchema,
    errors: ['not_found', 'business_rule'],
    idempotent: true,
  }),
  revokeCode: endpoint({
    method: 'post',
    path: '/api/admin/redeem-codes/{id}/revoke',
    summary: 'Revoke a redeem code nobody has used',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: z.object({ id: idSchema }),
    errors: ['not_found', 'business_rule'],
  }),
  revokeCodes: endpoint({
    method: 'post',
    path: '/api/admin/redeem-codes/bulk-revoke',
    summary: 'Revoke several redeem codes at once',
    description: 'Codes used, expired or revoked already are left alone and not counted. An unknown id refuses the whole request.',
    tag,
    auth: 'admin',
    body: revokeCodesBody,
    response: bulkChangedSchema,
    errors: ['not_found'],
  }),
  announcements: endpoint({
    method: 'get',
    path: '/api/admin/announcements',
    summary: 'Every announcement, those still to end first, then the latest ended',
    tag,
    auth: 'admin',
    response: z.object({ items: z.array(adminAnnouncementSchema) }),
  }),
  createAnnouncement: endpoint({
    method: 'post',
    path: '/api/admin/announcements',
    summary: 'Post an announcement shown to signed-in users between starts_at and ends_at',
    tag,
    auth: 'admin',
    body: createAnnouncementBody,
    response: adminAnnouncementSchema,
    idempotent: true,
  }),
  removeAnnouncement: endpoint({
    method: 'delete',
    path: '/api/admin/announcements/{id}',
    summary: 'Remove an announcement at once',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: z.object({ id: idSchema }),
    errors: ['not_found'],
  }),
  incidents: endpoint({
    method: 'get',
    path: '/api/admin/incidents',
    summary: "The status page's incidents, newest first: open ones and resolved ones",
    tag,
    auth: 'admin',
    response: z.object({ items: z.array(adminIncidentSchema) }),
  }),
  createIncident: endpoint({
    method: 'post',
    path: '/api/admin/incidents',
    summary: 'Post an incident on the status page, open until resolved',
    tag,
    auth: 'admin',
    body: incidentBody,
    response: adminIncidentSchema,
    idempotent: true,
  }),
  updateIncident: endpoint({
    method: 'put',
    path: '/api/admin/incidents/{id}',
    summary: "Change an incident's title and text",
    tag,
    auth: 'admin',
    params: idPathParams,
    body: incidentBody,
    response: adminIncidentSchema,
    errors: ['not_found'],
  }),
  resolveIncident: endpoint({
    method: 'post',
    path: '/api/admin/incidents/{id}/resolve',
    summary: 'Mark an open incident resolved',
    tag,
    auth: 'admin',
    params: idPathParams,
    response: adminIncidentSchema,
    errors: ['not_found', 'business_rule'],
  }),
  // Packages, teams, resource links, the referral rule and OAuth clients (docs/decisions/115-operator-console.md).
  ...adminCatalogEndpoints,
  // Creating users, trials, reading as a user (docs/console.md).
  ...adminUserEndpoints,
  // The call log (docs/console.md).
  ...adminCallEndpoints,
}
