/**
 * Before the suites: on PostgreSQL, compacts the system catalogs of the test database. Every suite
 * creates and drops a schema of its own, and on a server run without autovacuum (as the CI
 * machine's is) the catalogs grow past the size at which PostgreSQL plans parallel scans of them;
 * such plans then fail now and then with "schema … does not exist" in a parallel worker while
 * other suites drop their schemas. Compacting takes well under a second.
 */
import pg from 'pg'

const catalogs = ['pg_attribute', 'pg_depend', 'pg_class', 'pg_index', 'pg_type', 'pg_constraint', 'pg_attrdef', 'pg_sequence']

export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL
  if (!url) {
    // Under CI the suites fail without it (tests/fixtures/databases.ts); locally, say what is left out.
    if (process.env.CI !== 'true') console.warn('\nTEST_DATABASE_URL is not set: the relay suites run on SQLite only, PostgreSQL suites are skipped.\n')
    return
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`vacuum full analyze ${catalogs.map((name) => `pg_catalog.${name}`).join(', ')}`)
  } finally {
    await client.end()
  }
}
