/**
 * The client session a call belongs to (docs/decisions/105): calls of one session go to the same
 * provider among equals (rendezvous.ts), where its prompt cache is. Claude Code names its session
 * in the `x-claude-code-session-id` header; Gemini CLI names no session, only its installation
 * (the uuid it keeps in ~/.gemini/installation_id), in `x-gemini-api-privileged-user-id`; other
 * clients of the Messages API often name their user and session in `metadata.user_id`; failing
 * all, the caller — its API key, or its user through its OAuth client — is the session.
 */
import type { ApiCaller } from '../oauth/api-caller.ts'
import type { CallRequest } from './dialects.ts'

export const sessionHeader = 'x-claude-code-session-id'
export const installationHeader = 'x-gemini-api-privileged-user-id'

/** Kinds prefixed so that no session id can stand for another kind's value. */
export function affinityKey(header: (name: string) => string | undefined, request: Pick<CallRequest, 'metadataUserId'>, caller: ApiCaller): string {
  const sessionId = header(sessionHeader)
  if (sessionId) return `session:${sessionId}`
  const installation = header(installationHeader)
  if (installation) return `installation:${installation}`
  if (request.metadataUserId) return `user:${request.metadataUserId}`
  return caller.keyId ? `key:${caller.keyId}` : `oauth:${caller.clientId}:${caller.userId}`
}
