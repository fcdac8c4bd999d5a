import type zh from '../zh/notifications.ts'
import type { Messages } from '../types.ts'

export default {
  title: 'メール通知',
  subtitle: 'メールでお知らせする内容を選べます。メールは最後にサインインしたときの表示言語で送られます。',
  link: 'メール通知の設定',
  kinds: {
    title: '通知の種類',
    balance_low: 'ポイント残高がしきい値を下回ったとき',
    balance_lowHint: '残高がしきい値を下回るたびに 1 通送ります。',
    package_expiry: 'パッケージの終了前と終了時',
    package_expiryHint: '終了の 3 日前に 1 通、終了時に 1 通送ります。',
    ticket_reply: 'チケットへの返信',
    ticket_replyHint: 'サポートがチケットに返信したときに送ります。',
    new_sign_in: '新しいデバイスからのサインイン',
    new_sign_inHint: 'これまでにないブラウザーやネットワークからサインインがあったときに送ります。',
  },
  threshold: '残高のしきい値（ポイント）',
  thresholdHint: '空欄の場合、残高の通知は送りません。',
  thresholdInvalid: '1 から 100000000 までの整数を入力してください',
  submit: '設定を保存',
  saved: '通知設定を保存しました',
  failed: '保存できませんでした。もう一度お試しください',
  back: 'プロフィールに戻る',
  unsubscribe: {
    title: 'メール通知の停止',
    confirm: '{{email}} への「{{kind}}」のメールを停止しますか？',
    off: '{{email}} への「{{kind}}」のメールを停止しました。',
    alreadyOff: '{{email}} への「{{kind}}」のメールはすでに停止されています。',
    submit: '停止する',
    invalid: 'この配信停止リンクは無効です。サインインしてメール通知の設定から変更してください。',
    manage: 'メール通知の設定からいつでも再開できます。',
  },
  announcements: {
    label: 'お知らせ',
    dismiss: 'お知らせを閉じる',
    levels: { info: 'お知らせ', warning: '警告', critical: '重大' },
    dismissed: 'お知らせを閉じました',
    more: 'ほかのお知らせ {{count}} 件',
  },
} satisfies Messages<typeof zh>
