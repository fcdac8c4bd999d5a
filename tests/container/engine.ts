/**
 * The container engine the container suites drive: podman or docker, whichever is installed, or
 * none (the suites then skip, saying so). The image is built from the repository's Dockerfile as
 * users build it; where its base cannot be pulled, CI makes a stand-in first
 * (scripts/container/base-image.sh).
 */
import { execFileSync, spawnSync } from 'node:child_process'

export const engine = ['podman', 'docker'].find((name) => spawnSync(name, ['--version']).status === 0)

export const noEngineReason = 'skipped: neither podman nor docker is installed'

export const image = 'localhost/relay-portal:test'
export const baseImage = 'docker.io/library/node:22-bookworm-slim'

/** Runs the engine with `args`; its stdout, trimmed. Throws with its stderr when it fails. */
export function containers(...args: string[]): string {
  if (!engine) throw new Error(noEngineReason)
  return execFileSync(engine, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).trim()
}

/** The image, built from the Dockerfile; podman keeps the HEALTHCHECK only in Docker's image format. */
export function buildImage(): void {
  containers('build', ...(engine === 'podman' ? ['--format', 'docker'] : []), '--tag', image, '.')
}

export function imageBytes(name: string): number {
  return Number(containers('image', 'inspect', '--format', '{{.Size}}', name))
}

/** Removes containers (running or not), ignoring those already gone. */
export function removeContainers(...names: string[]): void {
  if (engine) spawnSync(engine, ['rm', '--force', ...names])
}
