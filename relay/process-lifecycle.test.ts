import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { expect, it, onTestFinished } from 'vitest'

it('keeps serving when its log pipes are closed: their failure is not logged to them, round and round', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/closed-log-pipes.ts'], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  // Failing, the child spins on the next-tick queue and never answers: the test times out.
  onTestFinished(() => void child.kill('SIGKILL'))
  expect((await once(child, 'message'))[0]).toBe('ready')
  child.stdout!.destroy()
  child.stderr!.destroy()
  child.send('closed')
  const [report] = (await once(child, 'message')) as [{ strays: number }]
  expect(report).toEqual({ strays: 0 })
  expect((await once(child, 'exit'))[0]).toBe(0)
})
