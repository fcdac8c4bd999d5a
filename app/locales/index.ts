import en from './en/index.ts'
import ja from './ja/index.ts'
import zh from './zh/index.ts'

export const resources = { zh, en, ja }
export type Resources = typeof zh
