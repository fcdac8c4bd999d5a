/**
 * QR codes drawn on the server as inline SVG (docs/decisions/099-sign-in.md): the enrolment page shows the
 * code with JavaScript off, and no image request carries the secret anywhere.
 */
import QRCode from 'qrcode'

export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#18181b', light: '#ffffff' } })
}
