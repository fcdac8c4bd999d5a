/** Operator commands for the status page's incidents (the console's `/admin/incidents` does the same, audited alike). */
import { z } from 'zod'
import { cliOperator } from '../audit/audit-log.ts'
import { defineCommand, type Command } from '../cli-registry.ts'
import { isId } from '../contract/ids.ts'
import { addIncident, listIncidents, resolveIncident, updateIncident, type Incident } from './incidents.ts'

/** `2026-11-26 14:25`: minutes are enough for an incident. */
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')

const incidentArgument = { name: 'id', description: 'the id that incident add or incident list prints' } as const

/** An id that cannot be one (not a 64-bit number) is simply not found. */
function incidentId(id: string): string {
  if (!isId(id)) throw new Error(`no incident ${id}`)
  return id
}

export const incidentCommands: Command[] = [
  defineCommand({
    name: 'incident add',
    summary: 'Post an incident on the status page (open until resolved), print its id',
    options: {
      title: { description: '1–200 characters, shown to everyone', schema: z.string() },
      body: { description: 'what happened and what users should do, up to 4000 characters', schema: z.string().optional() },
    },
    async run({ title, body }, { services, print }) {
      const incident = await addIncident(services.db, cliOperator(), services.clock.now(), { title, body })
      print(incident.id)
    },
  }),

  defineCommand({
    name: 'incident update',
    summary: "Change an incident's title and text (open or resolved)",
    argument: incidentArgument,
    options: {
      title: { description: '1–200 characters, shown to everyone', schema: z.string() },
      body: { description: 'what happened and what users should do, up to 4000 characters (left out: no text)', schema: z.string().optional() },
    },
    async run({ id, title, body }, { services, print }) {
      await updateIncident(services.db, cliOperator(), incidentId(id), services.clock.now(), { title, body })
      print(`updated ${id}`)
    },
  }),

  defineCommand({
    name: 'incident list',
    summary: 'Every incident, newest first',
    options: {},
    async run(_values, { services, print }) {
      const incidents = await listIncidents(services.db)
      const id = Math.max(2, ...incidents.map((incident) => incident.id.length))
      const state = (incident: Incident) => (incident.resolved_timestamp === null ? 'open' : `resolved ${utc(incident.resolved_timestamp)}`)
      print(['id'.padEnd(id), 'started (UTC)'.padEnd(16), 'state'.padEnd(25), 'title'].join('  '))
      for (const incident of incidents) print([incident.id.padEnd(id), utc(incident.start_timestamp), state(incident).padEnd(25), incident.title].join('  '))
      print(`${incidents.length} incident(s)`)
    },
  }),

  defineCommand({
    name: 'incident resolve',
    summary: 'Mark an open incident resolved',
    argument: incidentArgument,
    options: {},
    async run({ id }, { services, print }) {
      await resolveIncident(services.db, cliOperator(), incidentId(id), services.clock.now())
      print(`resolved ${id}`)
    },
  }),
]
