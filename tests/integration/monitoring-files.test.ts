/**
 * The alert rules and the Grafana dashboard shipped in deploy/: promtool accepts the rules and
 * their unit tests pass, and every family they read is one the relay or the portal exposes.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { Registry, collectDefaultMetrics } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { RelayMetrics } from '../../relay/telemetry/relay-metrics.ts'
import { PortalMetrics } from '../../server/portal-metrics.ts'

const promtool = '/usr/bin/promtool'
const rules = 'deploy/prometheus/alerts.yml'
const dashboard = 'deploy/grafana/relay.json'

/** Every family name a scrape can hold, with the suffixes Prometheus gives histograms. */
function exposedFamilies(): Set<string> {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  new RelayMetrics(registry)
  new PortalMetrics(registry)
  const names = new Set<string>(['up'])
  for (const metric of registry.getMetricsAsArray()) {
    names.add(metric.name)
    for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix)
  }
  return names
}

/** The metric names an expression reads (identifiers before `{`, `[` or `)`, not functions or labels). */
function namesIn(expression: string): string[] {
  const withoutLabels = expression.replace(/\{[^}]*\}/g, '{}').replace(/\b(by|without)\s*\([^)]*\)/g, '')
  return [...withoutLabels.matchAll(/\b([a-z_][a-z0-9_]*)\b(?!\s*\()/g)].map((m) => m[1]!).filter((name) => name.includes('_') && !/^(le|\d)/.test(name))
}

describe('monitoring files', () => {
  it.skipIf(!existsSync(promtool))('promtool checks the rules and runs their tests', () => {
    const check = spawnSync(promtool, ['check', 'rules', rules], { encoding: 'utf8' })
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
    const test = spawnSync(promtool, ['test', 'rules', 'deploy/prometheus/alerts.test.yml'], { encoding: 'utf8' })
    expect(test.stdout + test.stderr).toContain('SUCCESS')
    expect(test.status).toBe(0)
  })

  it('reads only families the relay and the portal expose', () => {
    const exposed = exposedFamilies()
    const ruleExpressions = [...readFileSync(rules, 'utf8').matchAll(/expr: (?:\|\n((?:\s{10,}.*\n)+)|(.*))/g)].map((m) => m[1] ?? m[2]!)
    const panels = (JSON.parse(readFileSync(dashboard, 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> }).panels
    const expressions = [...ruleExpressions, ...panels.flatMap((panel) => panel.targets.map((target) => target.expr))]
    expect(expressions.length).toBeGreaterThan(25)
    const used = new Set(expressions.flatMap(namesIn))
    expect([...used].filter((name) => !exposed.has(name))).toEqual([])
    // The dashboard shows every relay family.
    for (const family of ['relay_calls_total', 'relay_points_charged_total', 'relay_tokens_total', 'relay_provider_circuit_open', 'relay_refusals_total', 'relay_stale_holds', 'relay_db_pool_connections_in_use', 'relay_db_pool_waiting', 'portal_requests_total']) {
      expect(used).toContain(family)
    }
  })
})
