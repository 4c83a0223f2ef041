/**
 * The schema, as ordered migrations run at start-up (Kysely's Migrator: recorded in kysely_migration and
 * guarded by its lock, so two instances starting together do not race). One set for both dialects; the few
 * branches are where SQL truly differs: identity columns, byte-order collation, and the substring-search
 * index (FTS5 trigram on SQLite, pg_trgm on PostgreSQL).
 */
import {
  type DatabaseIntrospector,
  type Kysely,
  type Migration,
  Migrator,
  sql,
  type TableMetadata,
} from "kysely";
import { initial } from "./migrations/001_initial.js";
import { webSessions } from "./migrations/002_web_sessions.js";
import { urlInListIndexes } from "./migrations/003_url_in_list_indexes.js";
import { analysisHistory } from "./migrations/004_analysis_history.js";
import { jobs } from "./migrations/005_jobs.js";
import { reportsVersion } from "./migrations/010_reports_version.js";
import { reportStatus } from "./migrations/011_report_status.js";
import { webhooks } from "./migrations/012_webhooks.js";
import { screenshots } from "./migrations/013_screenshots.js";
import { crawls } from "./migrations/014_crawls.js";
import { crawlBounds } from "./migrations/015_crawl_bounds.js";
import { jobFairness } from "./migrations/016_job_fairness.js";
import { reportChanges } from "./migrations/017_report_changes.js";
import { crawlHeaders } from "./migrations/018_crawl_headers.js";
import { crawlLists } from "./migrations/019_crawl_lists.js";
import { crawlFindings } from "./migrations/020_crawl_findings.js";
import { crawlPageChecks } from "./migrations/021_crawl_page_checks.js";
import { resultsOnce } from "./migrations/022_results_once.js";
import { pageChecksOnce } from "./migrations/023_page_checks_once.js";
import { crawlChangeSummaries } from "./migrations/024_crawl_change_summaries.js";
import { stagedFindings } from "./migrations/025_staged_findings.js";
import { compactRows } from "./migrations/026_compact_rows.js";
import { pageCheckCodes } from "./migrations/027_page_check_codes.js";
import { crawlRowsUnlocked } from "./migrations/028_crawl_rows_unlocked.js";
import { crawlNotReached } from "./migrations/029_crawl_not_reached.js";
import { mail } from "./migrations/030_mail.js";
import { teams } from "./migrations/031_teams.js";
import { crawlAudits } from "./migrations/032_crawl_audits.js";
import { oneVersionBump } from "./migrations/033_one_version_bump.js";
import { crawlNotifications } from "./migrations/034_crawl_notifications.js";
import { ownWorkspaceIndexes } from "./migrations/035_own_workspace_indexes.js";
import { pageChecksPerPage } from "./migrations/036_page_checks_per_page.js";
import { teamReportsVersion } from "./migrations/038_team_reports_version.js";
import { crawlAnnounced } from "./migrations/039_crawl_announced.js";
import { teamChangeNotices } from "./migrations/040_team_change_notices.js";
import { shownDocumentsOnce } from "./migrations/041_shown_documents_once.js";
import { crawlLinksByPage } from "./migrations/042_crawl_links_by_page.js";
import { unfinishedPagesIndex } from "./migrations/043_unfinished_pages_index.js";
import type { Database } from "./schema.js";
import type { Dialect, Store } from "./store.js";

function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    "001_initial": initial(dialect),
    "002_web_sessions": webSessions(),
    "003_url_in_list_indexes": urlInListIndexes(dialect),
    "004_analysis_history": analysisHistory(dialect),
    "005_jobs": jobs(dialect),
    "010_reports_version": reportsVersion(dialect),
    "011_report_status": reportStatus(dialect),
    "012_webhooks": webhooks(dialect),
    "013_screenshots": screenshots(dialect),
    "014_crawls": crawls(dialect),
    "015_crawl_bounds": crawlBounds(),
    "016_job_fairness": jobFairness(),
    "017_report_changes": reportChanges(dialect),
    "018_crawl_headers": crawlHeaders(),
    "019_crawl_lists": crawlLists(),
    "020_crawl_findings": crawlFindings(),
    "021_crawl_page_checks": crawlPageChecks(),
    "022_results_once": resultsOnce(dialect),
    "023_page_checks_once": pageChecksOnce(),
    "024_crawl_change_summaries": crawlChangeSummaries(),
    "025_staged_findings": stagedFindings(),
    "026_compact_rows": compactRows(dialect),
    "027_page_check_codes": pageCheckCodes(dialect),
    "028_crawl_rows_unlocked": crawlRowsUnlocked(dialect),
    "029_crawl_not_reached": crawlNotReached(),
    "030_mail": mail(dialect),
    "031_teams": teams(dialect),
    "032_crawl_audits": crawlAudits(dialect),
    "033_one_version_bump": oneVersionBump(dialect),
    "034_crawl_notifications": crawlNotifications(dialect),
    "035_own_workspace_indexes": ownWorkspaceIndexes(dialect),
    "036_page_checks_per_page": pageChecksPerPage(dialect),
    "038_team_reports_version": teamReportsVersion(dialect),
    "039_crawl_announced": crawlAnnounced(dialect),
    "040_team_change_notices": teamChangeNotices(dialect),
    "041_shown_documents_once": shownDocumentsOnce(dialect),
    "042_crawl_links_by_page": crawlLinksByPage(dialect),
    "043_unfinished_pages_index": unfinishedPagesIndex(dialect),
  };
}

/** The migrations by name, for tests that build a database as an earlier version left it. */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return migrations(dialect);
}

export async function migrate(store: Store): Promise<void> {
  const migrator = await migratorOf(store);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`database migration ${failed} failed: ${(error as Error).message ?? String(error)}`);
  }
}

/**
 * The migrator of a store, confined on PostgreSQL to the store's own schema (tests that build a database as an
 * earlier version left it use it too, so that other schemas created and dropped meanwhile never disturb them).
 */
export async function migratorOf(store: Store): Promise<Migrator> {
  const all = migrations(store.dialect);
  const schema = store.dialect === "postgres" ? await currentSchema(store) : undefined;
  return new Migrator({
    db: schema ? withSchemaIntrospection(store.db, schema) : store.db,
    provider: { getMigrations: async () => all },
    // Kysely looks for its own tables in every schema unless told which: a database holding several schemas
    // (tests run one per suite, at once) would find another schema's lock table and skip creating its own.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

async function currentSchema(store: Store): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("database migration: no current schema (check the search_path)");
  return schema;
}

/**
 * The database handle with an introspector of one PostgreSQL schema, for the migrator (which asks whether its
 * own tables exist). Kysely's introspector lists the tables of every schema and resolves each by name as it
 * goes, so a schema another connection drops meanwhile fails the migration ("schema … does not exist"): test
 * files that run at once create and drop schemas of their own in one database.
 */
function withSchemaIntrospection(db: Kysely<Database>, schema: string): Kysely<Database> {
  const tables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = ${schema} and c.relkind in ('r', 'v', 'p')`.execute(db);
    return rows.map((row) => ({ name: row.name, schema, isView: row.kind === "v", columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => [{ name: schema }],
    getTables: tables,
    getMetadata: async () => ({ tables: await tables() }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === "introspection") return introspection;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
