/**
 * The client session a call belongs to (docs/decisions/073-upstream-calls.md): calls of one session go to the same
 * provider among equals (rendezvous.ts), where its prompt cache is. Claude Code names its session
 * in the `x-claude-code-session-id` header, Codex in `session-id` (and the body's
 * `prompt_cache_key`); Gemini CLI names no session, only its installation (the uuid it keeps in
 * ~/.gemini/installation_id), in `x-gemini-api-privileged-user-id`; other clients of the Messages
 * API often name their user and session in `metadata.user_id`; failing all, the caller — its API
 * key, or its user through its OAuth client — is the session.
 */
import type { ApiCaller } from '../oauth/api-caller.ts'
import type { CallRequest } from './dialects.ts'

/** The headers naming a client's session: Claude Code's, then Codex's. */
export const sessionHeaders = ['x-claude-code-session-id', 'session-id'] as const
export const installationHeader = 'x-gemini-api-privileged-user-id'

/** Kinds prefixed so that no session id can stand for another kind's value. */
export function affinityKey(
  header: (name: string) => string | undefined,
  request: Pick<CallRequest, 'metadataUserId' | 'sessionId'>,
  caller: ApiCaller,
): string {
  const sessionId = sessionHeaders.map(header).find(Boolean) ?? request.sessionId
  if (sessionId) return `session:${sessionId}`
  const installation = header(installationHeader)
  if (installation) return `installation:${installation}`
  if (request.metadataUserId) return `user:${request.metadataUserId}`
  return caller.keyId ? `key:${caller.keyId}` : `oauth:${caller.clientId}:${caller.userId}`
}
