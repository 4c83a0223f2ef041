/**
 * Migration 014: crawls. A crawl row holds its settings, state and counters; its frontier and results are rows
 * of `crawl_pages` (one per distinct URL it came to know, unique per crawl), the internal links it saw are rows
 * of `crawl_links`, and its site findings rows of `crawl_issues`. Everything a crawl needs to go on after a
 * restart is here, none of it in memory.
 */
import type { ColumnDefinitionBuilder, Kysely, Migration } from "kysely";
import type { Dialect } from "../store.js";

export function crawls(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  const id = (column: ColumnDefinitionBuilder) =>
    pg ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("crawls")
        .addColumn("id", "integer", id)
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("project", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("max_pages", "integer", (c) => c.notNull())
        .addColumn("max_depth", "integer", (c) => c.notNull())
        .addColumn("sitemaps", "integer", (c) => c.notNull())
        // JSON arrays of patterns.
        .addColumn("include", "text", (c) => c.notNull())
        .addColumn("exclude", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("privacy", "integer", (c) => c.notNull())
        .addColumn("schedule", "text", (c) => c.notNull())
        .addColumn("discovered", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("analysed", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("excluded", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("score", "integer")
        .addColumn("result", "text")
        .addColumn("issues_high", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("issues_medium", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("issues_low", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("cancel_requested", "integer", (c) => c.notNull().defaultTo(0))
        // robots.txt as fetched once at the start (null: none), and whether the sitemaps were read.
        .addColumn("robots_txt", "text")
        .addColumn("seeded", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("started_at", "text")
        .addColumn("finished_at", "text")
        .addColumn("next_run_at", "text")
        .addColumn("parts", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("reserved", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_request_ms", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("seed_lease_until", "text")
        .addColumn("finish_lease_until", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("crawls_next_run_at").on("crawls").column("next_run_at").execute();
      await db.schema.createIndex("crawls_user").on("crawls").columns(["user_id", "id"]).execute();

      await db.schema
        .createTable("crawl_pages")
        .addColumn("id", "integer", id)
        .addColumn("crawl_id", "integer", (c) => c.notNull().references("crawls.id").onDelete("cascade"))
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("depth", "integer")
        // queued → fetching → done | failed | excluded
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("status_code", "integer")
        .addColumn("content_type", "text")
        .addColumn("in_sitemap", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("disallowed", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("indexable", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("noindex", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("canonical", "text")
        .addColumn("title", "text")
        .addColumn("meta_description", "text")
        .addColumn("redirect_to", "text")
        .addColumn("text_hash", "text")
        // JSON: 64 minhashes of the visible text; and the hreflang alternates.
        .addColumn("text_minhash", "text")
        .addColumn("hreflang", "text")
        .addColumn("inlinks", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("outlinks", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("report_id", "integer")
        .addColumn("score", "integer")
        .addColumn("result", "text")
        .addColumn("excluded", "text")
        .addColumn("error", "text")
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("claimed_by", "integer")
        .addColumn("lease_until", "text")
        .execute();
      await db.schema
        .createIndex("crawl_pages_url")
        .on("crawl_pages")
        .columns(["crawl_id", "url"])
        .unique()
        .execute();
      await db.schema
        .createIndex("crawl_pages_state")
        .on("crawl_pages")
        .columns(["crawl_id", "state", "depth", "id"])
        .execute();

      await db.schema
        .createTable("crawl_links")
        .addColumn("crawl_id", "integer", (c) => c.notNull().references("crawls.id").onDelete("cascade"))
        .addColumn("from_url", "text", (c) => c.notNull())
        .addColumn("to_url", "text", (c) => c.notNull())
        .addColumn("nofollow", "integer", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("crawl_links_crawl")
        .on("crawl_links")
        .columns(["crawl_id", "from_url"])
        .execute();
      // Links into a page (inlinks, broken-link sources).
      await db.schema
        .createIndex("crawl_links_to")
        .on("crawl_links")
        .columns(["crawl_id", "to_url"])
        .execute();

      await db.schema
        .createTable("crawl_issues")
        .addColumn("crawl_id", "integer", (c) => c.notNull().references("crawls.id").onDelete("cascade"))
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("check_id", "text", (c) => c.notNull())
        .addColumn("category", "text", (c) => c.notNull())
        .addColumn("importance", "text", (c) => c.notNull())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("message", "text", (c) => c.notNull())
        .addColumn("count", "integer", (c) => c.notNull())
        .addColumn("items", "text", (c) => c.notNull())
        .addColumn("truncated", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("crawl_issues_pk", ["crawl_id", "position"])
        .execute();
    },
  };
}
