import { CopyButton } from '#app/components/copy-button.tsx'

/** Commands to type: selectable text, and a copy button once hydrated. */
export function CodeBlock({ code, copyText, copyLabel }: { code: string; copyText: string; copyLabel: string }) {
  return (
    <div className="relative">
      <pre className="overflow-x-auto rounded-lg bg-zinc-950 py-3 pr-24 pl-4 text-[13px] leading-relaxed text-zinc-100 ring-1 ring-zinc-800 dark:bg-black/40">
        <code className="font-mono">{code}</code>
      </pre>
      <CopyButton
        text={code}
        label={copyLabel}
        className="absolute top-2 right-2 px-2.5 py-1 text-xs dark:bg-zinc-800 dark:ring-zinc-700"
      >
        {copyText}
      </CopyButton>
    </div>
  )
}
