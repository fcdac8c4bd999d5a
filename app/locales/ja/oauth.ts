import type zh from '../zh/oauth.ts'
import type { Messages } from '../types.ts'

export default {
  scopes: {
    profile: { title: '基本的なアカウント情報', body: 'ユーザー名、メールアドレス、アカウント種別の参照' },
    api: { title: 'API サービスの利用', body: 'あなたとしてモデル API を呼び出し、ポイントを消費' },
    billing: { title: 'サブスクリプションとポイントの管理', body: 'パッケージとポイントの参照と管理' },
  },
  client: {
    firstParty: '公式アプリ',
    thirdParty: 'サードパーティアプリ',
  },
  consent: {
    oauthTitle: 'アプリの承認',
    ssoTitle: 'シングルサインオン',
    wantsAccess: '<client>{{client}}</client> があなたのアカウントへのアクセスを求めています',
    ssoWantsAccess: '<client>{{client}}</client> があなたのアカウントでのサインインを求めています',
    permissions: '承認すると、このアプリは次のことができます：',
    signedInAs: 'ログイン中のアカウント：<user>{{username}}</user>',
    redirectNote: '承認しても拒否しても、{{origin}} に戻ります',
    trustNote: '信頼できるアプリだけを承認してください。パスワードを変更するとすべての承認が取り消されます。',
    authorize: '承認',
    deny: '拒否',
  },
  invalid: {
    title: 'この承認リクエストは完了できません',
    body: 'アカウント保護のため、リクエスト元のアプリには戻りません。アプリに戻ってやり直すか、開発者に連絡してください。',
    request: 'リクエストに必要なパラメーターがないか、形式が正しくありません',
    notSso: 'このアプリは公式アプリではないため、シングルサインオンを利用できません',
    dashboard: 'ダッシュボードへ',
  },
  device: {
    title: 'デバイスの承認',
    subtitle: 'コマンドラインツールなどのデバイスに表示された 8 文字のコードを入力して、アカウントに接続します',
    code: 'デバイスコード',
    codeHint: '8 文字の英数字（例：ABCD-2345）。ハイフンは省略可、大文字小文字は区別しません',
    codeRequired: 'デバイスコードを入力してください',
    codeFormat: 'デバイスコードは 8 文字の英数字です',
    verify: '確認',
    confirmSubtitle: 'デバイスに下のコードが表示されていることを確認してから選んでください',
    wantsAccess: '<client>{{client}}</client> があなたのアカウントへのアクセスを求めています',
    warning: 'ご自身のデバイスでサインインを始めたばかりで、上のコードが表示されている場合にのみ承認してください。誰かからこのコードを送られた場合は拒否してください。',
    expiresIn_one: 'このコードは {{count}} 分以内に期限切れになります',
    expiresIn_other: 'このコードは {{count}} 分以内に期限切れになります',
    authorize: '承認',
    deny: '拒否',
    another: '別のコードを入力',
    approvedTitle: 'デバイスを承認しました',
    approvedBody: 'このページを閉じて、デバイスで操作を続けてください。',
    deniedTitle: '承認を拒否しました',
    deniedBody: 'このデバイスはあなたのアカウントにアクセスできません。',
  },
  toast: {
    deviceAuthorized: 'デバイスコードを承認しました',
    deviceDenied: 'デバイスのリクエストを拒否しました',
  },
} satisfies Messages<typeof zh>
