/** 20×20 icon paths of the subscription and points screens: the navigation's own where one fits. */
import { appNavItems } from '#app/components/layout/app-nav.tsx'

function navIcon(to: (typeof appNavItems)[number]['to']): string {
  return appNavItems.find((item) => item.to === to)!.icon
}

export const packageIcon = navIcon('/subscription')
export const pointsIcon = navIcon('/points')
/** A clock: a list of past events. */
export const historyIcon = 'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm.75 4v3.69l2.53 2.53-1.06 1.06-2.97-2.97V6h1.5Z'
