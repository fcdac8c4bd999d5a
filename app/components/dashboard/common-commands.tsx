/**
 * The common Claude Code commands of docs/product.md, each with what to type. Keys and slash commands are
 * the same in every language, so they live here; what they do comes from the locale files.
 */
import { useTranslation } from 'react-i18next'

/** `keys`: keys pressed one after the other; `text`: what is typed at the prompt or the shell. */
type Input = { keys: string[] } | { text: string }

function commands(relayUrl: string) {
  return [
    { id: 'userInfo', input: { text: '/status' } },
    // `!` runs a shell command from inside Claude Code: the round trip to this relay's health check.
    { id: 'fastestNode', input: { text: `! curl -s -o /dev/null -w "%{time_total}s\\n" ${relayUrl}/api/health` } },
    { id: 'continue', input: { text: 'claude --continue' } },
    { id: 'rollback', input: { keys: ['Esc', 'Esc'] } },
    { id: 'exit', input: { keys: ['Ctrl+C', 'Ctrl+C'] } },
    { id: 'stop', input: { keys: ['Esc'] } },
    { id: 'image', input: { text: '@./screenshot.png' } },
    { id: 'clear', input: { text: '/clear' } },
    { id: 'model', input: { text: '/model' } },
    { id: 'resume', input: { text: 'claude --resume' } },
  ] as const satisfies ReadonlyArray<{ id: string; input: Input }>
}

export function CommonCommands({ relayUrl }: { relayUrl: string }) {
  const { t } = useTranslation('dashboard')
  return (
    <dl className="divide-y divide-zinc-100 dark:divide-zinc-800">
      {commands(relayUrl).map(({ id, input }) => (
        // What to type moves under its label when the two do not fit on one line.
        <div key={id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5">
          <dt className="text-sm text-zinc-600 dark:text-zinc-400">{t(`commands.items.${id}`)}</dt>
          <dd className="max-w-full min-w-0">
            {'keys' in input ? (
              <span className="flex flex-wrap items-center gap-1">
                {input.keys.map((key, index) => (
                  <kbd
                    key={index}
                    className="rounded-md border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs text-zinc-800 shadow-[0_1px_0] shadow-zinc-300 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100 dark:shadow-zinc-700"
                  >
                    {key}
                  </kbd>
                ))}
              </span>
            ) : (
              <code className="block rounded-md bg-zinc-100 px-2 py-1 font-mono text-xs break-all text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100">
                {input.text}
              </code>
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}
