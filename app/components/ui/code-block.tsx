import { CopyButton } from '#app/components/copy-button.tsx'

/**
 * Commands to type: a title bar naming where they go (a shell, a file) with a copy button once
 * hydrated, over selectable text that scrolls sideways instead of wrapping mid-word.
 */
export function CodeBlock({ code, copyText, copyLabel }: { code: string; copyText: string; copyLabel: string }) {
  return (
    <div className="overflow-hidden rounded-lg bg-zinc-950 ring-1 ring-zinc-800 dark:bg-black/40">
      <div className="flex min-h-9 items-center justify-between gap-3 border-b border-white/10 py-1 pr-1.5 pl-4">
        <span className="truncate font-mono text-xs text-zinc-400">{copyLabel}</span>
        <CopyButton text={code} label={`${copyText} · ${copyLabel}`} onDark>
          {copyText}
        </CopyButton>
      </div>
      <pre className="overflow-x-auto px-4 py-3 text-[13px] leading-relaxed text-zinc-100">
        <code className="font-mono">{code}</code>
      </pre>
    </div>
  )
}
