/**
 * Copy actions (docs/product.md): a button that copies with the Clipboard API and says so in a toast.
 * It needs JavaScript, so it only appears once hydrated; without JavaScript the text beside it is
 * selectable (CopyField renders it in a readonly input).
 */
import { Copy } from 'lucide-react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { showToast } from '#app/components/toaster.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { inputClass, Label } from '#app/components/ui/input.tsx'
import { cn } from '#app/components/ui/cn.ts'

export function CopyButton({
  text,
  copiedKey = 'toast.copied',
  label,
  children,
  className,
  onDark = false,
}: {
  text: string
  /** The success toast's translation key. */
  copiedKey?: string
  /** The button's accessible name, when its visible text ("copy") is not enough. */
  label?: string
  /** The visible text. */
  children: React.ReactNode
  className?: string
  /** Sits on a dark surface (a code block) in both themes. */
  onDark?: boolean
}) {
  const hydrated = useHydrated()
  if (!hydrated) return null
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      showToast({ type: 'success', key: copiedKey })
    } catch {
      // No clipboard permission or an insecure origin: the text stays there to copy by hand.
      showToast({ type: 'error', key: 'toast.copyFailed' })
    }
  }
  const content = (
    <>
      <Copy className="size-4" />
      {children}
    </>
  )
  if (onDark) {
    return (
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={label}
        className={cn(
          'inline-flex shrink-0 items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-zinc-300 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400',
          className,
        )}
      >
        {content}
      </button>
    )
  }
  return (
    <Button variant="secondary" onClick={() => void copy()} aria-label={label} className={cn('shrink-0', className)}>
      {content}
    </Button>
  )
}

/** A value to copy: readonly and selectable (the no-JS way), with a copy button once hydrated. */
export function CopyField({
  id,
  label,
  value,
  copiedKey,
  copyText,
}: {
  id: string
  label: string
  value: string
  copiedKey?: string
  /** The copy button's visible text. */
  copyText: string
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className={cn(inputClass, 'min-w-0 font-mono')}
        />
        <CopyButton text={value} copiedKey={copiedKey}>
          {copyText}
        </CopyButton>
      </div>
    </div>
  )
}
