/** The relay's public contract: the only relay module the portal may import (DESIGN §4). */
export * from './envelope.ts'
export * from './accounts.ts'
export * from './api-keys.ts'
export * from './referral.ts'
export * from './paging.ts'
export * from './paths.ts'
export * from './points.ts'
export * from './tickets.ts'
