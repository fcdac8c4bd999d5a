import { Card } from '#app/components/ui/card.tsx'

/** The card every auth screen sits in: title, one line of help, then the form. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: React.ReactNode }) {
  return (
    <Card className="p-6 sm:p-8">
      <h1 className="text-xl font-bold tracking-tight">{title}</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{subtitle}</p>
      {children}
    </Card>
  )
}
