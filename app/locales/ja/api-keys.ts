import type zh from '../zh/api-keys.ts'
import type { Messages } from '../types.ts'

export default {
  title: 'API キー',
  subtitle: 'Claude Code などのクライアント用にキーを作成します。キーはあなたのアカウントとして API を呼び出しポイントを消費します。パスワードと同様に大切に保管してください。',
  create: {
    title: 'キーを作成',
    name: 'キー名',
    nameHint: '用途を区別するための名前（例：「仕事用ノート PC」）。64 文字まで',
    submit: 'キーを作成',
    usage: '{{count}} / {{limit}} 個使用中',
    full: 'キーの上限に達しました。使わないキーを先に削除してください。',
  },
  created: {
    title: 'キー「{{name}}」を作成しました',
    warning: '完全なキーが表示されるのはこの一度だけです。今すぐコピーして安全な場所に保管してください。このページを離れるか再読み込みすると二度と表示できません。紛失した場合は削除して作り直すしかありません。',
    label: '新しいキー',
    guide: '下の使い方ガイドのコマンドにはこのキーが入っています。',
    done: '保存しました。閉じる',
  },
  list: {
    title: 'あなたのキー',
    caption: 'あなたの API キー',
    name: '名前',
    key: 'キー',
    created: '作成日時',
    lastUsed: '最終使用',
    actions: '操作',
    neverUsed: '未使用',
    emptyTitle: 'API キーはまだありません',
    emptyBody: 'キーを作成すると、Claude Code などのクライアントからこのサービスを使えます。',
  },
  delete: {
    button: '削除',
    confirm: 'キー「{{name}}」を削除しますか？このキーを使うクライアントはすぐに利用できなくなります。元に戻せません。',
    submit: '削除する',
    cancel: 'キャンセル',
  },
  toast: {
    deleted: 'API キーを削除しました',
  },
  guide: {
    title: '使い方ガイド',
    subtitle: 'Claude Code をこのサービスに向けます。環境変数を設定するか、クライアントの設定ファイルに書き込みます。',
    placeholder: '例の {{placeholder}} はあなたの完全なキーに置き換えてください。',
    copy: 'コピー',
    env: {
      title: '環境変数',
      body: 'ターミナルで次のコマンドを実行し、同じウィンドウで claude を起動します。',
      shell: 'シェル',
      shells: { bash: 'bash / zsh', fish: 'fish', powershell: 'PowerShell', cmd: 'cmd' },
      persist: {
        bash: '~/.bashrc または ~/.zshrc に書き込むと、新しいターミナルでも有効になります。',
        fish: 'set -gx の代わりに set -Ux を使うと永続化されます。',
        powershell: '永続化：[Environment]::SetEnvironmentVariable("名前", "値", "User") を実行し、ウィンドウを開き直します。',
        cmd: 'set の代わりに setx を使うと永続化されます（新しいウィンドウから有効）。',
      },
    },
    auto: {
      title: 'クライアントの自動設定',
      body: 'Claude Code は起動時に ~/.claude/settings.json の env を読み込むため、毎回環境変数を設定する必要はありません。',
      file: '~/.claude/settings.json',
      command: 'ワンライン設定コマンド',
      commandBody: '設定ファイルに追記し、既存の他の設定は残します。ファイルがなければ作成します。',
      system: 'OS',
      systems: { unix: 'macOS / Linux', windows: 'Windows（PowerShell）' },
    },
  },
} satisfies Messages<typeof zh>
