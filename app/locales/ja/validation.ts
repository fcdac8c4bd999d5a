import type zh from '../zh/validation.ts'
import type { Messages } from '../types.ts'

export default {
  required: 'この項目は必須です',
  fillAll: '必須項目をすべて入力してください',
  tooLong: '長すぎます',
  number: '数値を入力してください',
  wholeNumber: '整数を入力してください',
  numberTooSmall: '値が小さすぎます',
  numberTooLarge: '値が大きすぎます',
  emailRequired: 'メールアドレスを入力してください',
  emailInvalid: '有効なメールアドレスを入力してください',
  emailFirst: '先にメールアドレスを入力してください',
  usernameRequired: 'ユーザー名またはメールアドレスを入力してください',
  usernameLength: 'ユーザー名は 3〜32 文字で入力してください',
  usernameChars: 'ユーザー名には英数字、アンダースコア、ハイフンのみ使用できます',
  passwordRequired: 'パスワードを入力してください',
  passwordLength: 'パスワードは 8〜128 文字で入力してください',
  codeRequired: '確認コードを入力してください',
  codeFormat: '確認コードは 6 桁の数字です',
  secondFactorFormat: '6 桁のコードまたはリカバリーコードを入力してください',
  confirmRequired: 'パスワードをもう一度入力してください',
  passwordsMismatch: 'パスワードが一致しません',
  inviteCodeFormat: '招待コードの形式が正しくありません',
  agreeRequired: '利用規約とプライバシーポリシーをお読みのうえ、同意してください',
} satisfies Messages<typeof zh>
