/** A submit button that shows the pending state once hydrated (without JS the browser shows its own). */
import { LoaderCircle } from 'lucide-react'
import { useNavigation } from 'react-router'
import { Button, type ButtonSize, type ButtonVariant } from '#app/components/ui/button.tsx'

export function SubmitButton({
  intent,
  variant = 'primary',
  size,
  children,
  className,
  ...props
}: { intent?: string; variant?: ButtonVariant; size?: ButtonSize } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  const navigation = useNavigation()
  const submittingThis =
    navigation.state === 'submitting' && (intent === undefined || navigation.formData?.get('intent') === intent)
  return (
    <Button
      type="submit"
      variant={variant}
      size={size}
      name={intent ? 'intent' : undefined}
      value={intent}
      aria-busy={submittingThis || undefined}
      disabled={submittingThis}
      className={className}
      {...props}
    >
      {submittingThis ? (
        <LoaderCircle className="size-4 animate-spin" />
      ) : null}
      {children}
    </Button>
  )
}
