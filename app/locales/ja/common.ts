import { brandName } from '#relay/contract/brand.ts'
import type zh from '../zh/common.ts'
import type { Messages } from '../types.ts'

export default {
  brand: brandName.ja,
  nav: {
    label: 'メインナビゲーション',
    menu: 'メニュー',
    home: 'ホーム',
    dashboard: 'ダッシュボード',
    subscription: 'サブスクリプション',
    points: 'ポイント',
    tickets: 'チケット',
    apiKeys: 'API キー',
    referral: '紹介プログラム',
    profile: 'プロフィール',
    security: 'セキュリティ',
    logout: 'ログアウト',
    login: 'ログイン',
    register: '新規登録',
  },
  viewAs: { banner: '{{name}} の視点で閲覧中（読み取り専用）', exit: '閲覧を終了', ended: '{{name}} の視点での閲覧を終了しました' },
  settings: {
    title: '設定',
    language: '言語',
    theme: 'テーマ',
    themes: { light: 'ライト', dark: 'ダーク', system: 'システム設定' },
  },
  footer: {
    label: 'フッター',
    copyright: '© {{year}} SwiftRelay · 純粋な中継、会話内容は保存しません',
    privacy: 'プライバシーポリシー',
    terms: '利用規約',
    pricing: '料金',
    status: 'ステータス',
    apiDocs: 'API ドキュメント',
    support: 'サポート',
  },
  userType: { normal: '一般', vip: 'VIP', team: 'チーム', admin: '管理者' },
  toast: {
    close: '閉じる',
    loggedIn: 'ログインしました',
    loggedOut: 'ログアウトしました',
    registeredAndLoggedIn: '登録が完了し、ログインしました',
    codeSent: '確認コードを送信しました。メールをご確認ください',
    passwordReset: 'パスワードを再設定しました。新しいパスワードでログインしてください',
    copied: 'コピーしました',
    copyFailed: 'コピーに失敗しました。手動でコピーしてください',
  },
  errorPage: {
    retry: '再試行',
    notFound: { title: 'ページが見つかりません', body: 'お探しのページは存在しないか、削除されました。' },
    slow: {
      title: 'サービスの応答が遅れています',
      body: 'リレーサービスの応答が遅く、このページを時間内に読み込めませんでした。しばらくしてから再度お試しください。ログイン状態は保持されています。',
    },
    unavailable: {
      title: 'サービスは一時的に利用できません',
      body: '現在リレーサービスに接続できません。しばらくしてから再度お試しください。ログイン状態は保持されています。',
    },
    badRequest: { title: 'このリクエストは処理できません', body: 'リクエストの形式・メソッド・アドレスを受け付けられません。戻ってもう一度お試しください。' },
    unexpected: { title: 'エラーが発生しました', body: '予期しないエラーが発生しました。しばらくしてから再度お試しください。' },
  },
  auth: { tagline: 'Claude Code などのコマンドラインクライアント向けの、高速で安定した API リレー' },
} satisfies Messages<typeof zh>
