import { useTranslation } from 'react-i18next'
import type { Paged } from '#relay/contract/index.ts'
import { Pagination } from '#app/components/ui/pagination.tsx'

/** Page links under a paged list of the subscription and points screens. */
export function PagedNav({ list, hash }: { list: Paged<unknown>; hash: string }) {
  const { t } = useTranslation('points')
  return (
    <Pagination
      page={list.page}
      pageSize={list.pageSize}
      total={list.total}
      hash={hash}
      labels={{
        nav: t('pager.nav'),
        previous: t('pager.previous'),
        next: t('pager.next'),
        summary: (pages) => t('pager.summary', { page: list.page, pages, total: list.total }),
      }}
    />
  )
}
