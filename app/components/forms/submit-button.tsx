/** A submit button that shows the pending state once hydrated (without JS the browser shows its own). */
import { useNavigation } from 'react-router'
import { Button, type ButtonVariant } from '#app/components/ui/button.tsx'

export function SubmitButton({
  intent,
  variant = 'primary',
  children,
  className,
  ...props
}: { intent?: string; variant?: ButtonVariant } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  const navigation = useNavigation()
  const submittingThis =
    navigation.state === 'submitting' && (intent === undefined || navigation.formData?.get('intent') === intent)
  return (
    <Button
      type="submit"
      variant={variant}
      name={intent ? 'intent' : undefined}
      value={intent}
      aria-busy={submittingThis || undefined}
      disabled={submittingThis}
      className={className}
      {...props}
    >
      {submittingThis ? (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4 animate-spin" fill="none">
          <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
          <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        </svg>
      ) : null}
      {children}
    </Button>
  )
}
