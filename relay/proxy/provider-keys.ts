/**
 * Secrets at rest (docs/decisions/071-secrets-sealed-with-jwt-secret.md): provider keys, alert webhooks' addresses and
 * secrets. AES-256-GCM under a key derived (HKDF-SHA256) from JWT_SECRET, so a copy of the database alone — a backup, a dump attached to a ticket — does not
 * hold usable upstream keys. Sealed with the first JWT secret; opened with any configured one, so
 * a rotation that keeps the old secret listed keeps the providers working.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const version = 'v1'
const ivBytes = 12
const tagBytes = 16

function derive(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, purpose, version, 32))
}

/**
 * Derived once per configuration. Opened keys are kept by their sealed form (which never changes
 * for a provider): the hot path needs a provider's key on every call, and the box's holder can open
 * every key anyway.
 */
export class SecretBox {
  readonly #keys: Buffer[]
  readonly #opened = new Map<string, string | null>()

  /** `purpose` keeps each kind of secret under a key of its own. */
  constructor(jwtSecrets: readonly string[], purpose: string) {
    if (jwtSecrets.length === 0) throw new Error(`no JWT secret to derive the ${purpose} box from`)
    this.#keys = jwtSecrets.map((secret) => derive(secret, purpose))
  }

  seal(plain: string): string {
    const iv = randomBytes(ivBytes)
    const cipher = createCipheriv('aes-256-gcm', this.#keys[0]!, iv)
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return `${version}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`
  }

  /** The key in clear, or null when none of the configured secrets sealed it. */
  open(sealed: string): string | null {
    let plain = this.#opened.get(sealed)
    if (plain === undefined) {
      plain = this.#decrypt(sealed)
      if (this.#opened.size >= 1000) this.#opened.clear()
      this.#opened.set(sealed, plain)
    }
    return plain
  }

  #decrypt(sealed: string): string | null {
    const [tag, payload] = sealed.split(':')
    if (tag !== version || !payload) return null
    const bytes = Buffer.from(payload, 'base64url')
    for (const key of this.#keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, ivBytes))
        decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes))
        return Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8')
      } catch {
        // Sealed under another secret: try the next.
      }
    }
    return null
  }
}

/** The providers' API keys. */
export class ProviderKeyBox extends SecretBox {
  constructor(jwtSecrets: readonly string[]) {
    super(jwtSecrets, 'relay-provider-keys')
  }
}

/** `sk-ant-…wxyz`: enough to tell keys apart, too little to use. */
export function keyHint(key: string): string {
  const head = key.length >= 16 ? key.slice(0, 7) : ''
  return `${head}…${key.slice(-4)}`
}
