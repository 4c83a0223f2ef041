/**
 * Migration 023: a page's non-passing checks are recorded once, in `crawl_page_checks`, and lean.
 *  - `crawl_pages.check_statuses` (020) goes: comparing two crawls reads their pages' rows in `crawl_page_checks`
 *    (021) instead, which the roll-up reads too. Pages analysed between 020 and 021 have statuses but no rows:
 *    their failed and warned checks become rows first. A crawl analysed before 020 recorded neither: it is marked
 *    (`crawls.checks_recorded` 0) so that comparing it with another says nothing about page checks, as before.
 *  - `crawl_page_checks.message` and `items` go: a row's message and first evidence items are read from the
 *    analysis the crawl made of the page (request id `crawl:<crawl>:<page>`), where they are stored already.
 */
import { type Kysely, type Migration, sql } from "kysely";

/** The tables as this migration reads them. */
interface MigratingDatabase {
  crawls: { id: number; checks_recorded: number };
  crawl_pages: {
    id: number;
    crawl_id: number;
    url: string;
    result: string | null;
    check_statuses: string | null;
  };
  crawl_page_checks: {
    crawl_id: number;
    page_id: number;
    check_id: string;
    status: string;
    template: string;
    message: string;
    items: string;
  };
}

export function pageChecksOnce(): Migration {
  return {
    async up(unknownDb: Kysely<unknown>) {
      const db = unknownDb as Kysely<MigratingDatabase>;
      await db.schema
        .alterTable("crawls")
        .addColumn("checks_recorded", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
      await db
        .updateTable("crawls")
        .set({ checks_recorded: 0 })
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom("crawl_pages")
              .select("crawl_pages.id")
              .whereRef("crawl_pages.crawl_id", "=", "crawls.id")
              .where("crawl_pages.result", "is not", null)
              .where("crawl_pages.check_statuses", "is", null),
          ),
        )
        .execute();
      await rowsFromStatuses(db);
      await db.schema.alterTable("crawl_pages").dropColumn("check_statuses").execute();
      await db.schema.alterTable("crawl_page_checks").dropColumn("message").execute();
      await db.schema.alterTable("crawl_page_checks").dropColumn("items").execute();
    },
  };
}

/** Rows for the failed and warned checks of pages that have statuses but no rows, in batches by page id. */
async function rowsFromStatuses(db: Kysely<MigratingDatabase>): Promise<void> {
  let after = 0;
  for (;;) {
    const pages = await db
      .selectFrom("crawl_pages")
      .select(["id", "crawl_id", "url", "check_statuses"])
      .where("id", ">", after)
      .where("check_statuses", "is not", null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("crawl_page_checks")
              .select(sql`1`.as("one"))
              .whereRef("crawl_page_checks.crawl_id", "=", "crawl_pages.crawl_id")
              .whereRef("crawl_page_checks.page_id", "=", "crawl_pages.id"),
          ),
        ),
      )
      .orderBy("id")
      .limit(500)
      .execute();
    if (pages.length === 0) return;
    const rows = pages.flatMap((page) =>
      Object.entries(JSON.parse(page.check_statuses as string) as Record<string, string>)
        .filter(([, status]) => status === "fail" || status === "warn")
        .map(([check, status]) => ({
          crawl_id: page.crawl_id,
          page_id: page.id,
          check_id: check,
          status,
          template: urlTemplate(page.url),
          message: "",
          items: "[]",
        })),
    );
    if (rows.length > 0) await db.insertInto("crawl_page_checks").values(rows).execute();
    after = pages[pages.length - 1]?.id ?? after;
  }
}

/** The URL pattern as migration 021's crawler wrote it (crawls/page-checks.ts then), kept here as it was. */
function urlTemplate(url: string): string {
  const path = new URL(url).pathname;
  const rest = path.slice(1);
  if (rest === "") return "/";
  const slash = rest.indexOf("/");
  return slash === -1 ? path : `/${rest.slice(0, slash)}/*`;
}
